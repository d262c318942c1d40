#!/bin/sh
# One droplet, step by step: T starts it at the map's centre, each d takes
# one step (the step count and its numbers change), D runs it to its end,
# which counts it as a droplet of the run; u undoes it; A starts another at
# a random cell; under the emitter T follows its next particle, under
# hydrology one of its droplets (its steps, its pour); SPH says what to do.
. "$(dirname "$0")/lib.sh"

start 110 40 -- --paused --seed 5 --size 64x64 --set particles.budget=0 \
	--set hydrology.pit_dry=false
wait_for "1:particles"
keys T
wait_for "one droplet, step 0 "
wait_for "position p   32.5, 32.5 cells"
screen | grep -F -q "@" || fail "the droplet is not on the map"
numbers() { screen | sed -n '/one droplet, step/,/height h(p0)/p' | cut -c1-42; }
n0=$(numbers)
keys d
wait_for "one droplet, step 1 "
n1=$(numbers)
[ "$n0" != "$n1" ] || fail "the first step changed no number"
echo "$n1" | grep -E -q "height h\(p0\) -?[0-9.]+ at cell 3[0-9],3[0-9]" ||
	fail "no height change at the droplet's cell"
keys d
wait_for "one droplet, step 2 "
n2=$(numbers)
[ "$n1" != "$n2" ] || fail "the second step changed no number"
# Each number sits beside its equation line.
screen | grep -E -q "c_eq +[0-9.]+ +2: c_eq = max\(0, V \|v\|" || fail "c_eq is not beside its equation"
screen | grep -E -q "volume V +0\.99[0-9]* +4: V ×= 1 - dt e" || fail "V is not beside its equation"
# Not counted as a droplet of the run until it ends.
screen | grep -E -q "droplets +0 *$" || fail "a droplet in flight counted"
keys D
wait_for "the droplet "
screen | grep -E -q "one droplet, step [0-9,]+, (ended|off the map) \(d:" ||
	fail "the droplet's end is not in the title"
screen | grep -E -q "droplets +1 *$" || fail "the ended droplet is not counted"
screen | grep -E -q "eroded +0 *$" && fail "the droplet eroded nothing"
keys d
wait_for "this droplet has ended: T or A starts another"
# Undo takes the droplet back.
keys u
wait_for "undone: "
wait_gone "one droplet, step"
screen | grep -E -q "droplets +0 *$" || fail "undo did not take the droplet back"
screen | grep -E -q "eroded +0 *$" || fail "undo did not take its erosion back"
# Another, from a random cell.
keys A
wait_for "one droplet, step 0 "
screen | grep -F -q "position p   32.5, 32.5 cells" && fail "A started at the centre"
keys T
wait_gone "one droplet, step"
# Under the emitter, T follows its next particle, by its own step.
keys 3
wait_for "process 3: Emitter stream"
keys T
wait_for "one particle, step 0 "
keys d
wait_for "one particle, step 1 "
screen | grep -E -q "crater took +[0-9.]+ \(carried [0-9.]+\) +5: h −= c dh" ||
	fail "no crater figure beside its equation"
screen | grep -E -q "heading a +-?[0-9.]+ degrees +2: turn toward" || fail "no heading"
keys D
wait_for "the particle "
screen | grep -E -q "one particle, step [0-9,]+, (ended|off the map) \(d:" ||
	fail "the particle's end is not in the title"
# Under hydrology (process 2), T follows one of its droplets, by its own
# descent step; where it stops it pours into a pool, a key of its own.
keys 2
wait_for "process 2: Streams, pools and vegetation"
count() { screen | sed -n 's/.* droplets \{1,\}\([0-9,]*\) *$/\1/p' | head -n 1 | tr -d ,; }
c0=$(count)
keys T
wait_for "one droplet, step 0 "
wait_for "position p   32.5, 32.5 cells"
h0=$(numbers)
keys d
wait_for "one droplet, step 1 "
h1=$(numbers)
[ "$h0" != "$h1" ] || fail "hydrology: the first step changed no number"
screen | grep -E -q "c_eq +[0-9.]+ +2: c_eq = max\(0, V \|v\|" || fail "hydrology: c_eq is not beside its equation"
screen | grep -E -q "volume V +0\.99[0-9]* +4: V ×= 1 - dt e \(1 - 0\.2 w\)" ||
	fail "hydrology: V is not beside its equation"
echo "$h1" | grep -E -q "height h\(p0\) -?[0-9.]+ at cell 3[0-9],3[0-9]" ||
	fail "hydrology: no height change at the droplet's cell"
[ "$(count)" = "$c0" ] || fail "hydrology: a droplet in flight counted"
# Step on until it stops and pours (pit_dry off: it pours in the first pit).
i=0
while ! screen | grep -E -q "pool level +[0-9.]+ \(\+[0-9.e-]+\) (filled|leaks|to the sea) +[68]: " &&
	! screen | grep -E -q "one droplet, step [0-9,]+(, pour [0-9]+)?, (ended|off the map)"; do
	i=$((i + 1))
	[ $i -lt 200 ] || fail "hydrology: the droplet neither poured nor ended"
	keys d
	sleep 0.05
done
screen | grep -F -q "pool level" || fail "hydrology: the droplet ended without a pour"
screen | grep -E -q "one droplet, step [0-9,]+, pour 1" || fail "hydrology: the pour is not in the title"
# A droplet whose pour took all its water ends with it; D runs any other on.
if ! screen | grep -E -q "one droplet, step [0-9,]+, pour [0-9]+, (ended|off the map)"; then
	keys D
	wait_for "the droplet "
fi
screen | grep -E -q "one droplet, step [0-9,]+(, pour [0-9]+)?, (ended|off the map) \(d:" ||
	fail "hydrology: the droplet's end is not in the title"
[ "$(count)" = $((c0 + 1)) ] || fail "hydrology: the ended droplet is not counted once"
screen | grep -E -q "pool volume +0 *$" && fail "hydrology: the pour left no pool"
keys u
wait_for "undone: "
wait_gone "one droplet, step"
[ "$(count)" = "$c0" ] || fail "hydrology: undo did not take the droplet back"
# SPH (process 4) has no single particle to follow.
keys 4
wait_for "process 4"
keys d
wait_for "the trace follows process 1's or 2's droplets or process 3's particles"
screen | grep -F -q "T starts one" && fail "d under SPH offers a trace T cannot start"
keys T
wait_for "the trace follows process 1's or 2's droplets or process 3's particles"
quit_discarding

# The equations and a droplet together at 80x24: the equations' box holds
# what fits and scrolls with { and }, its foot saying which rows show. The
# "where" list is whole, never cut (it ended in " ...", and before that
# once showed "f = friction 0.0 ..." for friction 0.05).
start 80 24 -- --paused --seed 5 --size 64x64
wait_for "1:particles"
keys E
wait_for "the equations (E hides)"
keys T
wait_for "one droplet, step 0 "
wait_for "rows 1-"
screen | grep -F -q " ..." && fail "the where list is cut: $(screen | grep -F ' ...')"
keys '}' '}' '}' '}' '}' '}' '}' '}'
wait_for "V_min = min_volume 0.01"
screen | grep -E -q "rows [0-9]+-([0-9]+) of \1:" || fail "scrolled to the end, the foot says: $(screen | grep -F 'rows ')"
screen | grep -F -q "f = friction 0.05" || keys '{'
wait_for "f = friction 0.05"
keys '{' '{' '{' '{' '{' '{' '{' '{'
wait_for "rows 1-"
wait_for " 1 a = n.xz"
# (q would close the equations first.)
keys E
wait_gone "the equations (E hides)"
quit_discarding
echo ok
