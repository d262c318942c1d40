#!/bin/sh
# The emitter on the map: its centre (E) and arrow head in ASCII and without
# colour, moved by Shift-arrows and turned by [ ] through the registry (the
# panel shows the new values), placed by a mouse click, and a click
# inspecting a cell when no emitter runs. The hardness overlay shows with
# the emitter presets.
. "$(dirname "$0")/lib.sh"

# 100 columns: the map area is the first 69. 64x64 at fit: 1.1 cells a pixel,
# so the map is 58 pixels wide, centred: 5 blank columns before it.
MAPW=69
start 100 30 LANG=C NO_COLOR=1 -- --ascii --paused --mouse --process emitter \
	--seed 4 --size 64x64 --set emitter.x=0.25 --set emitter.y=0.5 --set emitter.direction=0
wait_for "3:emitter"
# x 0.25 of 64 cells = 16 = pixel 14.5, column 19; y 32 = pixel 29 = row 14.
wait_char_at E 14 19 $MAPW
[ "$(find_char '>' $MAPW | cut -d' ' -f1)" = 14 ] || fail "no arrow head east of the emitter"
c=$(find_char '>' $MAPW | cut -d' ' -f2)
[ "$c" -gt 19 ] || fail "the arrow head is not east of the emitter"

# Moving: x goes up by its step (0.01) a press; the mark follows.
keys S-Right S-Right S-Right S-Right S-Right S-Right S-Right S-Right S-Right S-Right
wait_for "emitter at 22,32"
screen | grep -E -q '>x +0\.35' || fail "the panel does not show emitter.x = 0.35"
wait_char_at E 14 25 $MAPW
keys S-Down S-Down S-Down S-Down S-Down
wait_for "emitter at 22,35"
# Turning: 18 steps of 5 degrees clockwise is south.
keys ']' ']' ']' ']' ']' ']' ']' ']' ']' ']' ']' ']' ']' ']' ']' ']' ']' ']'
wait_for "emitter heading 90 degrees"
screen | grep -E -q ' direction +90\.0' || fail "the panel does not show direction 90"
r=$(find_char v $MAPW | cut -d' ' -f1)
er=$(find_char E $MAPW | cut -d' ' -f1)
[ -n "$r" ] && [ "$r" -gt "$er" ] || fail "no arrow head below the emitter after turning south"
# Round the circle: 36 more steps anticlockwise (-180 and 180 are one heading).
i=0
while [ $i -lt 36 ]; do keys '['; i=$((i + 1)); done
wait_for "emitter heading -90 degrees"

# A click places it over the cell clicked.
click 6 45
wait_for "emitter placed on cell"
wait_char_at E 6 45 $MAPW
# The hardness overlay: on, in the legend.
keys b
wait_for "hardness (bedrock) overlay: on"
screen | grep -E -q "hardness[^0-9]+0\.00[^0-9]+0\.50[^0-9]+1\.00 *$" || fail "no hardness line with its values in the legend"
quit_discarding
stop

# No emitter running: the keys say so, and a click inspects.
start 100 30 LANG=C -- --ascii --paused --mouse --process particles --seed 4 --size 64x64
wait_for "1:particles"
keys S-Left
wait_for "nothing to move under particles: 3 (emitter) has an emitter"
# n and N are the jets' keys: the message names the jets too.
keys n
wait_for "4 (sph) has 4 jets"
click 5 10
wait_for "cell "
wait_for "height "
screen | grep -E -q 'cell [0-9]+,[0-9]+: height [0-9.]+ stream' || fail "the click did not inspect"
find_char E $MAPW | grep -q . && fail "an emitter is drawn for the particles process"
quit_discarding
stop

# The canyon preset in colour: the emitter and the hardness overlay show.
start 120 36 GULLY_PRESET_PATH="$PRESETS" -- --paused emitter-canyon
wait_for "3:emitter"
keys b
wait_for "hardness (bedrock) overlay: on"
screen | grep -F -q "E--" || fail "no emitter drawn on emitter-canyon"
quit_discarding

# Under TERM=screen-256color (tmux's default TERM) the entry has no
# Shift-arrows: they move the emitter all the same. A sequence curses does
# not know (Ctrl-Left, \e[1;5D) is one unknown key: it once cancelled the
# prompt open, then its 1 chose process 1 and its D ran a droplet.
start 100 30 TERM=screen-256color -- --paused --process emitter --seed 4 --size 64x64 \
	--set emitter.x=0.25 --set emitter.y=0.5
wait_for "3:emitter"
keys S-Right
wait_for "emitter at 17,32"
keys S-Up
wait_for "emitter at 17,31"
keys S
wait_for "save snapshot to:"
T send-keys -t g -l "$(printf '\033[1;5D')"
keys C-u x
wait_for "save snapshot to: x"
keys Escape
wait_for "not saved"
T send-keys -t g -l "$(printf '\033[1;5D')"
wait_for "unknown key"
screen | grep -F -q "3:emitter" || fail "an unknown sequence switched the process"
quit_discarding
echo ok
