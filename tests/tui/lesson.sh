#!/bin/sh
# A geography lesson prepared the evening before: saved where it got to,
# opened in class (from another directory too), pictures for the slides,
# on a projector's small terminal. Each part is a defect a teacher met.
. "$(dirname "$0")/lib.sh"

# A saved lesson opens where it was saved: it ran on at once, so the
# class never saw the state prepared the evening before (and [+] said it
# had changed). Opened by a path from another directory, as in class.
start 100 30 -- --seed 3 --size 64x64 --paused --set particles.budget=0
wait_for "PAUSED"
keys .
wait_for "[+]"
keys S
wait_for "save snapshot to:"
keys C-u "$TMPD/lesson.gsnap" Enter
wait_for "saved "
wait_gone "[+]"
# A name typed without an extension gets .gsnap, as gully knows a snapshot
# by it ("lesson" was saved as it stood; `gully lesson` looks for a preset).
keys S
wait_for "save snapshot to:"
keys C-u "$TMPD/plain" Enter
wait_for "saved $TMPD/plain.gsnap"
[ -f "$TMPD/plain.gsnap" ] && [ ! -e "$TMPD/plain" ] || fail "S plain did not write plain.gsnap"
n=$(screen | sed -n 's/.*droplets  *\([0-9,]*\)$/\1/p' | head -n 1)
[ -n "$n" ] || fail "no droplet count in the panel"
stop
start 100 30 -- "$TMPD/lesson.gsnap"
wait_for "lesson.gsnap"
wait_for "PAUSED"
wait_for "Space:run"
screen | grep -q "RUNNING" && fail "the saved lesson runs on by itself"
screen | grep -F -q "[+]" && fail "the saved lesson is marked changed on opening"
screen | grep -E -q "droplets +$n\$" || fail "the droplet count moved from $n"
keys Space
wait_for "RUNNING"
quit_discarding

# The help on a projector's narrow terminal (64 columns, tall enough for
# every row): a key's help too long for the box went off its edge ("undo
# (runs, g, P, process switches, a terrain"); now it goes on, under its
# start, on the next row. helptext: the box's rows, each continuation
# (a blank key column) joined to the row above.
helptext() {
	screen | sed -n '/gully keys/,/└/p' | sed '1d;$d;s/^│//;s/ *│$//' |
		awk '/^              / { sub(/^ +/, ""); line = line " " $0; next }
		     { if (NR > 1) print line; line = $0 } END { print line }'
}
start 64 70 -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
keys '?'
wait_for "show or hide this help"
screen | grep -F -q "rows 1-" && fail "the help scrolls at 64x70: the test wants it whole"
for text in "undo (runs, g, P, process switches, a terrain remade)" \
	"resume the newest autosave (Ctrl-C, a hang-up, TERM, QUIT)" \
	"inspect a cell or place the emitter/jet; wheel zooms (--mouse)" \
	"turn the emitter or the picked jet (sph) left, right" \
	"the droplet to its end"; do
	helptext | grep -F -q -- "$text" || fail "help row cut: '$text' not whole in: $(helptext)"
done
stop

# The droplet and the cross-section at 64x20: there is no room for the
# cross-section under the droplet's box, yet x said "cross-section along
# row 32" and showed none. Now the status line says why, and T, hiding
# the droplet, brings the cross-section into sight.
start 64 20 -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
keys T
wait_for "one droplet, step 0"
keys x
wait_for "no room for the cross-section under the droplet's box"
screen | grep -F -q -- "- cross-section along row" && fail "the cross-section showed after all"
keys T
wait_for "- cross-section along row 32"
stop

# The droplet's box at 100x30 heads its column of equation lines whole: it
# read "from equation line (E sho", cut at the box's edge.
start 100 30 -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
keys T
wait_for "one droplet, step 0"
head=$(screen | grep -F "equation line" | sed 's/│.*//;s/ *$//')
[ -n "$head" ] || fail "no heading over the equation lines"
echo "$head" | grep -q ')$' || fail "the equation lines' heading cut: '$head'"
stop

# A picture for the slides: S refuses slide.png and names the command that
# makes it. That command drew no overlay, so the picture lacked the streams
# and pools on the screen; it names the overlays shown now, and the
# saved lesson's own file when nothing has changed since.
start 100 30 -- "$TMPD/lesson.gsnap"
wait_for "PAUSED"
keys e
wait_for "erosion/deposition overlay: on"
keys S
wait_for "save snapshot to:"
keys C-u slide.png Enter
wait_for "not saved"
wait_for "slide.png --overlay streams,pools,erosion"
screen | tr -d '\n' | grep -F -q "gully render $TMPD/lesson.gsnap -o slide.png" ||
	fail "the hint does not name the lesson's file"
stop

# Back to the start for the next class without quitting: P takes the saved
# lesson's file (it said "no preset named"), asks first when the class's
# session is unsaved, and opens it paused with its own count.
start 100 30 -- "$TMPD/lesson.gsnap"
wait_for "PAUSED"
keys Space
wait_for "RUNNING"
wait_for "[+]"
keys P
wait_for "load preset"
keys C-u "$TMPD/lesson.gsnap" Enter
wait_for "replace this unsaved session with the snapshot?"
keys y
wait_for "opened $TMPD/lesson.gsnap"
wait_for "PAUSED"
screen | grep -F -q "[+]" && fail "the reopened lesson is marked changed"
screen | grep -E -q "droplets +$n\$" || fail "the reopened lesson's count is not $n"
stop

# The light theme on 8 and 16 colours (plain xterm, the Linux console):
# the cross-section drew its ground and its axis in white on its white sky,
# so on a projector the valley was not there. No glyph of the screen may
# be drawn in its own background's colour (the console shows a bright
# background as its dim one, and bright text as bold).
command -v perl >/dev/null 2>&1 || { echo "perl not installed: the rest skipped"; exit 0; }
same_colour() {
	T capture-pane -p -e -t g | perl -CSD -ne '
		BEGIN { ($f, $b, $bold) = (-1, -1, 0) }
		for my $t (/(\e\[[0-9;]*m|\e[^a-zA-Z]*[a-zA-Z]|.)/g) {
			if ($t =~ /^\e\[([0-9;]*)m$/) {
				for my $c (split /;/, ($1 eq "" ? "0" : $1)) {
					if ($c == 0) { ($f, $b, $bold) = (-1, -1, 0) }
					elsif ($c == 1) { $bold = 1 } elsif ($c == 22) { $bold = 0 }
					elsif ($c >= 30 && $c <= 37) { $f = $c - 30 }
					elsif ($c >= 90 && $c <= 97) { $f = $c - 82 }
					elsif ($c == 39) { $f = -1 }
					elsif ($c >= 40 && $c <= 47) { $b = $c - 40 }
					elsif ($c >= 100 && $c <= 107) { $b = $c - 92 }
					elsif ($c == 49) { $b = -1 }
				}
				next;
			}
			next if $t =~ /^\e/ || $t eq " " || $t eq "\n";
			my $shown = $f >= 0 && $f < 8 && $bold ? $f + 8 : $f;
			print "line $.: $t\n" if $shown >= 0 && $shown == $b;
		}'
}
for term in xterm linux; do
	start 80 24 TERM=$term -- --seed 3 --size 64x64 --paused --theme light
	wait_for "PAUSED"
	keys x
	wait_for "- cross-section along row 32"
	[ -z "$(same_colour)" ] || fail "TERM=$term: glyphs in their background's colour: $(same_colour | head -n 5)"
	stop
done

# A cross-section through the droplet a class follows: x put it across the
# middle of the map wherever the droplet was. (The landing is printed
# rounded, so the row or column may be the one below it.)
near() { [ "$1" -eq "${2%%.*}" ] || [ "$1" -eq $((${2%%.*} - 1)) ]; }
start 100 40 -- --seed 3 --size 64x64 --paused --set particles.budget=0
wait_for "PAUSED"
keys A
wait_for "a droplet lands at"
xy=$(screen | sed -n 's/.*a droplet lands at \([0-9.]*\),\([0-9.]*\):.*/\1 \2/p' | head -n 1)
[ -n "$xy" ] || fail "no landing place on the screen"
keys x
wait_for "through the droplet: ( ) move it"
r=$(screen | sed -n 's/.*cross-section along row \([0-9]*\), through the droplet.*/\1/p' | head -n 1)
near "${r:--1}" "${xy#* }" || fail "row ${r:-none} is not the droplet's at $xy"
keys x
wait_for "through the droplet: ( ) move it, x hides it"
c=$(screen | sed -n 's/.*cross-section along column \([0-9]*\), through the droplet.*/\1/p' | head -n 1)
near "${c:--1}" "${xy%% *}" || fail "column ${c:-none} is not the droplet's at $xy"
keys x
wait_for "cross-section hidden"
quit_discarding
