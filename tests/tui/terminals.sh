#!/bin/sh
# Every terminal at its best (issue 12, section 3): COLORTERM and
# --color=truecolor give truecolor escapes on an xterm-256color entry, a
# missing *-direct entry falls back, NO_COLOR draws streams and pools with
# different glyphs, 60x20 and 40x12 draw a map, TERM=dumb is refused in one
# line, and a session started small then enlarged leaves a clean shell.
. "$(dirname "$0")/lib.sh"

rgb() { T capture-pane -p -e -t g | grep -c '\[[34]8;2;'; }
idx() { T capture-pane -p -e -t g | grep -c '\[[34]8;5;'; }

start 140 30 COLORTERM=truecolor -- --seed 5 --size 64x64 --paused
wait_for "PAUSED"
wait_for "1:particles"
[ "$(rgb)" -gt 10 ] || fail "COLORTERM=truecolor gave no truecolor escapes"
[ "$(idx)" = 0 ] || fail "COLORTERM=truecolor still used 256-colour indices"
# The panel's text is white on black, as in the other tiers: curses' white
# (colour 7) once went out as RGB 0,0,7, near black on black, unreadable.
text_white() {
	T capture-pane -p -e -t g | grep -q '\[38;2;0;0;[0-7]m' && fail "$1: text near black"
	T capture-pane -p -e -t g | grep -F 'Particle erosion' | grep -q '\[37m' ||
		fail "$1: the panel's text is not white"
}
text_white "COLORTERM=truecolor"
quit_discarding
stop

# SIGCHLD ignored by whoever started gully (it is inherited): the kernel
# reaps tic itself, and gully retried the failing waitpid at full CPU for
# ever, before its screen. Now it still reads tic's status: truecolor.
if command -v perl >/dev/null 2>&1; then
	cat >"$TMPD/nochld" <<NOCHLD
#!/bin/sh
exec perl -e '\$SIG{CHLD} = "IGNORE"; exec @ARGV or die' '$GULLY' "\$@"
NOCHLD
	chmod +x "$TMPD/nochld"
	real=$GULLY
	GULLY=$TMPD/nochld
	start 140 30 COLORTERM=truecolor -- --seed 5 --size 64x64 --paused
	GULLY=$real
	wait_for "1:particles"
	[ "$(rgb)" -gt 10 ] || fail "SIGCHLD ignored: no truecolor escapes"
	quit_discarding
	stop
else
	echo "no perl: SIGCHLD ignored at start not tried"
fi

start 140 30 -- --seed 5 --size 64x64 --paused
wait_for "1:particles"
[ "$(idx)" -gt 10 ] || fail "xterm-256color without COLORTERM is not 256 colours"
[ "$(rgb)" = 0 ] || fail "truecolor without being asked"
quit_discarding
stop

start 140 30 -- --seed 5 --size 64x64 --paused --color=truecolor
wait_for "1:particles"
[ "$(rgb)" -gt 10 ] || fail "--color=truecolor was not honoured on xterm-256color"
quit_discarding
stop

start 140 30 TERM=gullytest-direct -- --seed 5 --size 64x64 --paused
wait_for "gullytest-direct is not in the terminfo database: using xterm-256color"
[ "$(rgb)" -gt 10 ] || fail "the *-direct fallback is not truecolor"
text_white "the *-direct fallback"
quit_discarding
stop

# NO_COLOR: no colour at all; streams and pools each have their glyph.
# (pit_dry=0 keeps the pools a short run makes; no budget stops the run.)
start 140 30 NO_COLOR=1 -- --seed 5 --size 64x64 --paused --process hydrology \
	--set hydrology.pit_dry=0 --set particles.budget=0
wait_for "PAUSED"
keys Space
map() { screen | head -n 28 | cut -c1-109; }
end=$(($(date +%s) + TUI_TIMEOUT))
until map | grep -q '~' && map | grep -q ':'; do
	[ "$(date +%s)" -ge "$end" ] && fail "no pool (~) and stream (:) glyphs with NO_COLOR"
	sleep 0.5
done
keys Space
wait_for "PAUSED"
[ "$(T capture-pane -p -e -t g | grep -c '\[[34]8;')" = 0 ] || fail "NO_COLOR still sent colours"
quit_discarding
stop

# A light background (--theme light, or COLORFGBG's background 15) turns the
# glyph ramp the other way without colour: the same map, other glyphs.
mapshot() {
	start 140 30 NO_COLOR=1 "$@" -- --seed 5 --size 64x64 --paused --theme "$theme" --ascii
	wait_for "PAUSED"
	screen | head -n 20 | cut -c1-60 >"$TMPD/$theme$#"
	quit_discarding
	stop
}
theme=dark mapshot
theme=light mapshot
cmp -s "$TMPD/dark0" "$TMPD/light0" && fail "--theme light drew the same glyphs"
start 140 30 NO_COLOR=1 'COLORFGBG=0;15' -- --seed 5 --size 64x64 --paused --ascii
wait_for "PAUSED"
screen | head -n 20 | cut -c1-60 | cmp -s - "$TMPD/light0" || fail "COLORFGBG=0;15 is not the light theme"
quit_discarding
stop

# Help fits 80x24: it scrolls with the list keys and says where it is.
start 80 24 -- --seed 5 --size 64x64 --paused
wait_for "PAUSED"
keys '?'
wait_for "gully keys: any other key closes"
wait_for "rows 1-"
screen | grep -q "fewer, more frames a second" && fail "the whole help fit at 80x24?"
keys End
wait_for "fewer, more frames a second"
keys Home
wait_for "rows 1-"
wait_for "show or hide this help"
keys PageDown
wait_gone "show or hide this help"
keys x
wait_gone "gully keys"
screen | grep -q "unknown key" && fail "a key closing help went on to the map"
quit_discarding
stop

# With --mouse the wheel zooms in and out.
start 140 30 -- --seed 5 --size 64x64 --paused --mouse
wait_for "PAUSED"
T send-keys -t g -l "$(printf '\033[<64;10;10M')"
wait_for "1:1"
T send-keys -t g -l "$(printf '\033[<65;10;10M')"
wait_for "the whole map"
quit_discarding
stop

# Small terminals draw the map: 60x20 and 40x12.
for size in "60 20" "40 12"; do
	set -- $size
	start "$1" "$2" -- --seed 5 --size 64x64 --paused
	wait_for "PAUSED"
	[ "$(screen | grep -o '▀' | wc -l)" -gt 100 ] || fail "no map at $1x$2"
	screen | grep -q "too small" && fail "too small at $1x$2"
	# The status line keeps the unsaved mark.
	keys .
	wait_for "PAUSED [+]"
	quit_discarding
	stop
done

# TERM=dumb: one line naming what works instead, exit 1.
start 140 30 TERM=dumb -- --seed 5
wait_exit 1
grep -q "TERM=dumb cannot move the cursor.*gully run" "$TMPD/err" || fail "TERM=dumb not refused in words"
stop

# vt100 (no alternate screen): the screen is restored with nothing left.
start 140 30 TERM=vt100 -- --seed 5 --size 64x64 --paused
wait_for "PAUSED"
keys q
wait_exit 0
left=$(screen | grep -v -e '^gully exited 0$' -e '^icanon echo' -e '^modes shown$' -e '^$' | head -n 3)
[ -z "$left" ] || fail "vt100 left on the screen: $left"
stop

# Started in a small pane, enlarged, quit: nothing left on the shell's screen
# but the shell's own lines.
start 30 10 -- --seed 5 --size 64x64 --paused
wait_for "too small"
T resize-window -t g -x 120 -y 40
wait_for "PAUSED"
keys q
wait_exit 0
left=$(screen | grep -v -e '^gully exited 0$' -e '^icanon echo' -e '^modes shown$' -e '^$' | head -n 3)
[ -z "$left" ] || fail "the shell's screen kept: $left"
echo ok
