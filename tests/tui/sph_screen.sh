#!/bin/sh
# Process 4 as a new user meets it at 80x24: what the status line, the
# legend, the help and the equations say of it must be true.
. "$(dirname "$0")/lib.sh"

# Jet 1 off: the steps go on with no particle released, so a count of
# particles is told apart from one of steps.
start 80 24 -- --paused --seed 4 --size 48x48 --process sph --set sph.jet1_on=false
wait_for "4:sph"
# `.` runs one slice: the message counts the steps the panel counts (it
# said "stepped 0 steps", the particles released, while the steps went on).
keys .
wait_for "stepped "
said=$(screen | sed -n 's/.*stepped \([0-9][0-9]*\) step.*/\1/p' | head -n 1)
panel=$(screen | sed -n 's/.* steps  *\([0-9][0-9,]*\).*/\1/p' | head -n 1 | tr -d ,)
[ -n "$said" ] && [ "$said" -gt 0 ] || fail "'.' says it stepped '$said' steps"
[ "$said" = "$panel" ] || fail "'.' says $said steps, the panel counts $panel"
# The help names the jet beside the keys that move it (it said "move the
# emitter" alone, though under sph they move the picked jet).
keys '?'
wait_for "gully keys"
keys End
wait_for "move the emitter, or the picked jet (sph)"
wait_for "turn the emitter or the picked jet (sph) left, right"
# (The click's row is the one over the last page's at 80x24.)
keys Up Up
wait_for "place the emitter/jet"
keys Escape
wait_gone "gully keys"
# Every overlay on: at 80x24 the legend cannot hold all their rows; the
# ones that go are counted on its last row, not dropped without a word.
keys w e b v t
wait_for "droplet paths (no erosion): on"
screen | grep -q "wetness " || screen | grep -q "more: fewer overlays" ||
	fail "the legend lost its wetness row without a mark"
keys t v
wait_for "trees overlay: off"
wait_for "more: fewer overlays"
keys b
wait_for "hardness (bedrock) overlay: off"
wait_for "wetness "
screen | grep -q "more: fewer overlays" && fail "a legend that fits says rows went"
quit_discarding
stop
