#!/bin/sh
# A class on a projector: big fonts make small terminals (80x24, 100x30),
# and the room may want a light theme. Each part below is a defect a
# teacher met: what must show, shows whole and readable.
. "$(dirname "$0")/lib.sh"

# Nothing here is about autosaves: a session stopped with unsaved work
# leaves one, and its notice at the next start hid the status line (PAUSED,
# the key hints) for half a minute, a dozen times: this test took 7 minutes.
# stop waits for the gully to end, then drops its autosave.
stop() {
	tmux -L "$SOCK" kill-server >/dev/null 2>&1 || true
	i=0
	while [ -n "$(test_gullys)" ] && [ "$i" -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	rm -f "$TMPD"/state/gully/autosave-*
}
command -v perl >/dev/null 2>&1 || { echo "perl not installed: skipped"; exit 77; }

# box_rows: what is inside the help box (between its borders, the border
# characters' columns found on its top row), one row a line.
box_rows() {
	screen | perl -CSD -Mutf8 -ne '
		if (!defined $l && /┌/) { $l = index($_, "┌"); $r = index($_, "┐"); next }
		next unless defined $l;
		last if substr($_, $l, 1) eq "└";
		print substr($_, $l + 1, $r - $l - 1), "\n";'
}

# Help: every row inside its box is a row of keys, at 80x24 (where it
# scrolls) and at 200x60 (where it all fits): a blank row under the title
# and another above the bottom border once took two of 20 rows.
for size in "80 24" "200 60"; do
	set -- $size
	start "$1" "$2" -- --seed 3 --size 64x64 --paused
	wait_for "PAUSED"
	keys '?'
	wait_for "show or hide this help"
	wait_for "└"
	[ -n "$(box_rows)" ] || fail "no rows inside the help box at $1x$2"
	box_rows | grep -E -q '^ *$|─' && fail "a blank row or rule inside the help box at $1x$2"
	if [ "$1" = 80 ]; then
		# 24 rows: the box's 22 inner rows all hold keys.
		[ "$(box_rows | wc -l)" -eq 22 ] || fail "help shows $(box_rows | wc -l) rows at 80x24, not 22"
		wait_for "rows 1-22 of"
	fi
	stop
done

# The equations (E) whole at 80x24 and 100x30: a line too long for the box
# goes on under its start instead of ending in "…", and the box has no
# blank row above its foot. (eqbox: the box's rows, its rules left out.)
eqbox() { screen | sed 's/│.*//' | sed -n '/the equations (E hides)/,/^--/p' | sed '1d;$d;s/ *$//'; }
for size in "80 24 49 particles" "100 30 69 hydrology" "100 30 69 emitter" "100 30 69 sph"; do
	set -- $size
	start "$1" "$2" -- --seed 3 --size 64x64 --paused --process "$4"
	wait_for "PAUSED"
	keys E
	wait_for "the equations (E hides)"
	box=$(eqbox)
	echo "$box" | grep -q '…$' && fail "an equation cut short at $1x$2, process $4: $box"
	echo "$box" | tail -n 1 | grep -q '^ *$' && fail "a blank row in the equations' box at $1x$2"
	case $4 in
	particles) echo "$box" | grep -q 'h(p0) −= dt V k (c_eq - s)' || fail "process 1's height change cut: $box" ;;
	hydrology) echo "$box" | grep -q "k' = k max(0, 1 - roots)" || fail "process 2's root term cut: $box" ;;
	emitter) echo "$box" | grep -q '0 soft … 1 hard  (7)' || fail "process 3's reference cut: $box" ;;
	sph) echo "$box" | grep -q 'g(s)  (19-22)' || fail "process 4's scour cut: $box" ;;
	esac
	stop
done

# The selected parameter's help whole in the panel, on rows of its own: cut
# to the panel's width it read "emitter x as a fraction of t" at any size.
# The list keeps its height as the selection moves.
start 80 24 -- --seed 3 --size 64x64 --paused --process emitter
wait_for "PAUSED"
wait_for "emitter x as a fraction of"
wait_for "the map width"
row_of() { screen | grep -n -F -- "$1" | head -n 1 | cut -d: -f1; }
stats=$(row_of "-- stats --")
keys Down
wait_for ">y "
[ "$(row_of "-- stats --")" = "$stats" ] || fail "the panel's rows moved with the selection"
stop
# A big terminal has room for a long help's every row.
start 200 60 -- --seed 3 --size 64x64 --paused --process sph
wait_for "PAUSED"
wait_for "the smoothing radius h is 2"
wait_for "│ d0"
stop

# The cross-section's and the trace's titles at 80x24: a hint that does not
# fit goes (or gets short), never cut off mid-way ("( ): move" lost its
# bracket, the trace's "T: hide)" went).
start 80 24 -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
keys x
wait_for "cross-section along row"
screen | grep -E -q -- '- cross-section along row [0-9]+ -+│' ||
	fail "the cross-section's title is cut: $(screen | grep cross-section | head -n 1)"
keys T
wait_for "one droplet"
screen | grep -E -q -- '- one droplet, step 0 \(d, D, T\) -+│' ||
	fail "the trace's title is cut: $(screen | grep 'one droplet' | head -n 1)"
stop

# The key hints say what Space does now: "Space:run" showed while running.
start 100 30 -- --seed 3 --size 64x64 --set particles.budget=0
wait_for "RUNNING"
wait_for "Space:pause"
screen | tail -n 1 | grep -q "Space:run" && fail "Space:run hinted while running"
keys Space
wait_for "PAUSED"
wait_for "Space:run"
stop

# On a narrow map (72x16) the equations' title keeps the process's name
# whole; it read "Particle er: the equations (E hides)".
start 72 16 -- --seed 3 --size 64x64 --paused --process hydrology
wait_for "PAUSED"
keys E
wait_for "-- Streams, pools and vegetation -"
stop
# There a symbol's meaning too wide for the box goes on under itself: it
# read "n surface normal (n.xz: its lev", cut at the box's edge.
# (The box scrolls there: } shows its next rows.)
start 72 16 -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
keys E
wait_for "rows 1-7 of"
keys '}'
wait_for "n surface normal (n.xz: its"
wait_for "level part),"
stop

# The equations and the cross-section at 80x24 share the map's area with
# the map: the equations' box held all of it and covered the map whole.
# Now the map keeps its rows above the boxes, the equations' lines are in
# sight, and what does not fit is a } away, the box's foot saying so.
start 80 24 -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
keys E x
wait_for "cross-section along row"
wait_for "the equations (E hides)"
title=$(row_of "the equations (E hides)")
[ "$title" -gt 6 ] || fail "the equations' box starts at row $title, over the map"
[ "$(screen | head -n $((title - 1)) | grep -c '▀')" -ge 6 ] || fail "the map has under 6 rows above the equations"
[ "$title" -lt "$(row_of "cross-section along row")" ] || fail "the boxes overlap"
for line in "1 a = n.xz" "2 c_eq" "3 s += dt k" "4 V ×= 1 - dt e"; do
	screen | grep -F -q " $line" || fail "equation line '$line' not in sight: $(screen)"
done
wait_for "rows 1-6 of"
screen | sed 's/│.*//' | grep -q '…$' && fail "a row cut short"
keys '}' '}' '}' '}'
wait_for "V_min = min_volume 0.01"
stop

# Many overlays at 80x24: the legend keeps what fits of its rows (it went
# whole once the list would have kept fewer than three rows).
start 80 24 -- --seed 3 --size 64x64 --paused --process sph
wait_for "PAUSED"
keys e b w v
wait_for "trees overlay: on"
wait_for "-- legend"
wait_for "eroded "
# An overlay's key says it as help and the legend do: t's paths released
# no particles, yet it said "particles on".
keys t
wait_for "droplet paths (no erosion): on"
stop
# The droplet paths' legend row whole in the panel's 29 columns.
start 100 30 -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
keys t
wait_for "droplet paths (no erosion): on"
screen | sed -n '2,29p' | grep -q "droplet paths (no erosion)" || fail "the legend's paths row is cut"
stop

# P's Tab list at 80 columns: names whole, the chosen one always in sight
# (the row began at the first name whatever Tab had reached, and cut the
# last one short).
start 80 24 GULLY_PRESET_PATH="$PRESETS" -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
keys P
wait_for "load preset"
n=$(ls "$PRESETS"/*.yaml | wc -l)
i=0
while [ "$i" -lt "$n" ]; do
	keys Tab
	i=$((i + 1))
done
last=$(ls "$PRESETS"/*.yaml | sed 's|.*/||; s|\.yaml$||' | LC_ALL=C sort | tail -n 1)
wait_for "load preset (Tab completes): $last"
list=$(screen | tail -n 2 | head -n 1)
echo "$list" | grep -q " $last" || fail "the chosen preset is not in the list: $list"
for w in $(echo "$list" | sed 's/^ *[0-9]*://'); do
	[ "$w" = "..." ] || [ -f "$PRESETS/$w.yaml" ] || fail "'$w' in the Tab list is not a whole name: $list"
done
keys Escape
stop

# / that finds nothing names every section the list holds (it named the
# process's and the view's only, though / finds world.seed too).
start 100 30 -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
keys / zzz Enter
wait_for "no parameter of particles, view, terrain, hardness or world matches 'zzz'"
stop

# A light theme (--theme light, or COLORFGBG's background 15) paints text
# black on white in every colour tier, the cross-section's sky too: it was
# curses' white on black whatever the theme, a black block on a light screen.
ecap() { T capture-pane -p -e -t g; }
# light_check NAME: the screen just started shows the light theme.
light_check() {
	wait_for "PAUSED"
	keys x
	wait_for "cross-section along row"
	wait_for "B 63,32"
	ecap | grep -F 'Particle erosion' | grep -q '\[30m' || fail "$1: the panel's text is not black"
	ecap | grep -E -q '\[48;(5;231|2;255;255;255)m' || fail "$1: no white background"
	ecap | grep -E -q '\[(37|40)m|\[48;5;16m' && fail "$1: white on black somewhere"
	stop
}
start 100 30 -- --seed 3 --size 64x64 --paused --theme light
light_check "--theme light"
start 100 30 'COLORFGBG=0;15' -- --seed 3 --size 64x64 --paused
light_check "COLORFGBG=0;15"
start 100 30 COLORTERM=truecolor -- --seed 3 --size 64x64 --paused --theme light
light_check "truecolor, --theme light"
# The Linux console's 16-colour entry makes bright backgrounds with blink:
# text never takes one, in either theme (the light theme's white is colour
# 7, not 15). blinks TEXT: whether blink is on where TEXT starts (tmux
# sends an attribute once, where it changes, so the row is read whole).
blinks() {
	ecap | perl -ne '
		BEGIN { $want = shift @ARGV }
		my $i = index($_, $want);
		next if $i < 0;
		my $b = 0;
		for my $sgr (substr($_, 0, $i) =~ /\e\[([0-9;]*)m/g) {
			for my $p (split /;/, $sgr eq "" ? "0" : $sgr) {
				$b = 1 if $p == 5;
				$b = 0 if $p == 0 || $p == 25;
			}
		}
		print "yes\n" if $b;
		exit;' -- "$1" | grep -q yes
}
# sgr_at TEXT: "fg bg bold dim" in force where TEXT starts (the row read
# whole, as for blinks).
sgr_at() {
	ecap | perl -ne '
		BEGIN { $want = shift @ARGV }
		my $i = index($_, $want);
		next if $i < 0;
		my ($fg, $bg, $b, $d) = ("-", "-", 0, 0);
		for my $sgr (substr($_, 0, $i) =~ /\e\[([0-9;]*)m/g) {
			my @p = split /;/, $sgr eq "" ? "0" : $sgr;
			while (@p) {
				my $p = shift @p;
				if ($p == 0) { ($fg, $bg, $b, $d) = ("-", "-", 0, 0) }
				elsif ($p == 1) { $b = 1 }
				elsif ($p == 2) { $d = 1 }
				elsif ($p == 22) { $b = $d = 0 }
				elsif ($p == 38 || $p == 48) {
					my $v = shift(@p) == 5 ? shift @p : join(",", splice(@p, 0, 3));
					if ($p == 38) { $fg = "x$v" } else { $bg = "x$v" }
				}
				elsif (($p >= 30 && $p <= 37) || ($p >= 90 && $p <= 97) || $p == 39) { $fg = $p }
				elsif (($p >= 40 && $p <= 47) || ($p >= 100 && $p <= 107) || $p == 49) { $bg = $p }
			}
		}
		print "$fg $bg $b $d\n";
		exit;' -- "$1"
}
for theme in dark light; do
	start 100 30 TERM=linux -- --seed 3 --size 64x64 --paused --theme "$theme"
	wait_for "PAUSED"
	for text in "Particle erosion" "PAUSED" "-- stats --"; do
		blinks "$text" && fail "TERM=linux, $theme theme: '$text' blinks"
	done
	# Bold (the titles) and dim (the parameter's help) show on the console,
	# each unlike plain text (the stats) and unlike each other: its entry's
	# setaf ends in SGR 22, which undid both, so all three read the same.
	bold=$(sgr_at "-- stats --")
	plain=$(sgr_at "per second")
	dim=$(sgr_at "time step; scales every rate")
	[ -n "$bold" ] && [ -n "$plain" ] && [ -n "$dim" ] || fail "TERM=linux, $theme theme: a text missing"
	[ "$bold" != "$plain" ] || fail "TERM=linux, $theme theme: bold shows as plain text ($plain)"
	[ "$dim" != "$plain" ] || fail "TERM=linux, $theme theme: dim shows as plain text ($plain)"
	[ "$dim" != "$bold" ] || fail "TERM=linux, $theme theme: dim shows as bold ($bold)"
	keys '?'
	wait_for "show or hide this help"
	blinks "show or hide this help" && fail "TERM=linux, $theme theme: help blinks"
	keys '?'
	wait_gone "show or hide this help"
	# Nor does the map or the cross-section's sky: their bright colours
	# come as foregrounds over backgrounds 0-7 (the map shades over those;
	# any other background is taken down to 0-7). No SGR 5 on the screen.
	keys x
	wait_for "cross-section"
	ecap | perl -ne 'for my $sgr (/\e\[([0-9;]*)m/g) { for (split /;/, $sgr) { $n++ if $_ eq "5" } }
		END { exit($n ? 0 : 1) }' && fail "TERM=linux, $theme theme: the map or the section blinks"
	stop
done

# The dark theme stays as it was: white on black (tests/tui/terminals.sh).
start 100 30 -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
ecap | grep -F 'Particle erosion' | grep -q '\[37m' || fail "the dark theme's text is not white"
stop

echo ok
