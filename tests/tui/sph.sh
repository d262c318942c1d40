#!/bin/sh
# Process 4 in the explorer: key 4 chooses it, Space runs it, the stats count
# its steps and particles, the jets are drawn (1..4) and moved by Shift-arrows
# like the emitter, n picks a jet and N switches it on, E shows its equations,
# and the pools overlay shows its water.
. "$(dirname "$0")/lib.sh"

MAPW=69
start 100 34 LANG=C NO_COLOR=1 -- --ascii --paused --seed 4 --size 48x48 \
	--set terrain.generator=flat --set sph.jet1_x=0.25 --set sph.jet1_y=0.5 \
	--set sph.jet2_x=0.75 --set sph.jet2_y=0.25
wait_for "1:particles"
keys 4
wait_for "4:sph"
wait_for "SPH splash and scour"
# The jets' centres, drawn with their numbers, the ones off too.
[ -n "$(find_char 1 $MAPW)" ] || fail "no jet 1 on the map"
[ -n "$(find_char 2 $MAPW)" ] || fail "no jet 2 on the map"
# Jet 1 points straight down (elevation -90): no sideways arrow.
screen | head -n 30 | cut -c1-$MAPW | grep -q ">" && fail "jet 1 points down but has an arrow"
keys S-Right S-Right S-Right S-Right S-Right
wait_for "jet 1 at 14,24"
screen | grep -E -q ' jet1_x +0\.3$' || fail "the panel does not show sph.jet1_x = 0.3"
# Turning a jet that points straight down changes nothing it does: said.
keys ]
wait_for "jet 1 heading 5 degrees: no effect, it points straight down (elevation -90)"
keys [
wait_for "jet 1 heading 0 degrees: no effect"
# n picks jet 2 (off), N switches it on, and the keys move it, not jet 1.
# A jet that is off shows its number only; on, an arrow along its heading
# (jet 2 heads east).
screen | head -n 30 | cut -c1-$MAPW | grep -q "2-" && fail "jet 2 is off but has an arrow"
keys n
wait_for "jet 2 picked, off"
keys N
wait_for "jet 2 picked, on"
screen | head -n 30 | cut -c1-$MAPW | grep -q "2---->" || fail "jet 2 is on but has no arrow"
keys S-Left S-Left
wait_for "jet 2 at 35,12"
screen | grep -E -q ' jet1_x +0\.3$' || fail "jet 2's keys moved jet 1"
# Running: steps and particles count up.
keys ' '
wait_for "RUNNING"
sleep 2
keys ' '
wait_for "PAUSED"
steps=$(screen | sed -n 's/.* steps  *\([0-9][0-9.kM]*\).*/\1/p' | head -n 1)
parts=$(screen | sed -n 's/.* in flight  *\([0-9][0-9.kM]*\).*/\1/p' | head -n 1)
[ -n "$steps" ] && [ "$steps" != 0 ] || fail "no steps counted (got '$steps')"
[ -n "$parts" ] && [ "$parts" != 0 ] || fail "no particles in flight counted (got '$parts')"
keys E
wait_for "the equations (E hides)"
# Waited for, not read once: the title can reach the screen before the
# rest of the frame does.
wait_for "sigma = s_dry"
# Its symbols defined under them, with their parameters' values.
wait_for "where m particle mass"
wait_for "rho0 = rest_density 1000"
# The water, drawn as pools.
screen | head -n 22 | cut -c1-$MAPW | grep -q "~" || fail "no water drawn on the map"
# q closes the equations first (an overlay), then asks to quit.
keys q
wait_gone "the equations (E hides)"
# The legend keeps its rows under sph's longer stats: erosion's two.
keys e
wait_for "deposits"
screen | grep -q "eroded  " || fail "the legend lost its eroded row"
# The soil's pores are sized when it is made: a change says it acts on the
# next state, and u after it still goes back (it said "malformed file").
keys /
keys -l "porosity"
keys Enter
keys Right
wait_for "sph.porosity = 0.35, for a new state (g)"
keys u
wait_for "undone: "
screen | grep -q "malformed" && fail "u after a porosity change failed"
quit_discarding
stop
