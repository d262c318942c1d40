#!/bin/sh
# Class aids: E shows and hides the running process's equations (they follow
# a process switch); u goes back to the checkpoint taken before a step and
# before a run, and says when there is nothing left.
. "$(dirname "$0")/lib.sh"

start 140 30 -- --paused --seed 5 --size 64x64 --set particles.budget=0
wait_for "1:particles"
keys E
wait_for "Particle erosion: the equations (E hides)"
wait_for "c_eq = max(0, V |v| (h(p0) - h(p)))"
# Numbered, as the droplet trace (T) cites them: c_eq is line 2.
screen | grep -q "^ 2 c_eq = max" || fail "the equations' lines are not numbered"
# Symbols are defined, tied to the panel's parameter names; UTF-8 signs.
wait_for "a = n.xz / (V ρ)"
wait_for "ρ = density 1.0"
wait_for "f = friction 0.05"
keys 3
wait_for "Emitter stream: the equations (E hides)"
wait_for "h −= c dh (1 - D)"
wait_for "c = depth_scale 0.00001"
keys E
wait_gone "the equations (E hides)"
keys 1
wait_for "process 1: Particle erosion"
# A process switch is undoable: u goes back to the emitter.
keys u
wait_for "undone: "
wait_for "3:emitter"
quit_discarding

start 140 30 -- --paused --seed 5 --size 64x64 --set particles.budget=0
wait_for "1:particles"
# Undo with nothing run.
keys u
wait_for "nothing to undo"
# A step, then undo: back to no droplets.
keys .
wait_for "stepped "
screen | grep -E -q 'droplets +0 *$' && fail "the step ran nothing"
keys u
wait_for "undone: "
screen | grep -E -q 'droplets +0 *$' || fail "undo did not go back to 0 droplets"
# The message says the count now and before it.
screen | grep -E -q "undone: seed 5, 0 droplets \(was [1-9][0-9]*\)" ||
	fail "the undo message does not give the count now and before"
# A run, then undo: back to where the run started, paused.
keys .
wait_for "stepped "
n1=$(screen | sed -n 's/.*droplets  *\([0-9.k]*\) *$/\1/p')
keys ' '
wait_for "RUNNING"
sleep 1
keys ' '
wait_for "PAUSED"
# While running, checkpoints are also taken every few seconds: undo until
# the run's start comes back (a slow machine may have taken more).
droplets() { screen | sed -n 's/.*droplets  *\([0-9.k]*\) *$/\1/p'; }
more() { screen | sed -n 's/.*, \([0-9]*\) more checkpoints*.*/\1/p'; }
keys u
wait_for "undone: "
i=0
while [ "$(droplets)" != "$n1" ]; do
	k=$(more)
	[ -n "$k" ] && [ "$k" -gt 1 ] || fail "undo did not reach the run's start ($n1 droplets)"
	keys u
	wait_for ", $((k - 1)) more checkpoint"
done
wait_for "1 more checkpoint"
keys u
wait_for "0 more checkpoints"
screen | grep -E -q 'droplets +0 *$' || fail "the last undo did not go back to 0"
keys u
wait_for "nothing to undo"
quit_discarding

# The world's own parameters are in the panel too: a change to one makes
# the terrain again at once, the seed kept, and u takes it back.
start 140 40 -- --paused --seed 7 --size 64x64
wait_for "PAUSED"
keys /
keys -l "octaves"
keys Enter
wait_for ">terrain.octaves"
keys Left
wait_for "terrain.octaves = 7: the terrain made again, seed 7"
keys u
wait_for "undone: "
screen | grep -E -q '>terrain.octaves +8 *$' || fail "u did not bring octaves 8 back"
# Every parameter fits the list, SPH's 83 and the world's after them.
keys 4
wait_for "4:sph"
keys End
wait_for ">world.threads"
quit_discarding

# The equations follow the settings: hydrology without its coupling has no
# stream or root terms, and a change in the panel shows at once; sph's
# linear state equation replaces Tait's and its c_s is defined.
start 140 40 -- --paused --seed 5 --size 64x64 --process hydrology \
	--set hydrology.coupling=none --set particles.budget=0
wait_for "PAUSED"
keys E
wait_for "Streams, pools and vegetation: the equations (E hides)"
wait_for "v ×= 1 - dt f;"
screen | grep -q "roots" && fail "roots shown with hydrology.coupling=none"
keys /
keys -l "coupling"
keys Enter
wait_for ">coupling"
keys Right Right
wait_for "k' = k max(0, 1 - roots)"
wait_for "v ×= 1 - dt f (1 - 0.5 w)"
keys q
wait_gone "the equations (E hides)"
quit_discarding
start 140 40 -- --paused --seed 5 --size 64x64 --process sph --set sph.eos=linear
wait_for "PAUSED"
keys E
wait_for "p = c_s² (ρ - ρ0)"
wait_for "c_s = sound_speed 60"
screen | grep -q "Tait" && fail "Tait's equation shown with sph.eos=linear"
keys q
wait_gone "the equations (E hides)"
quit_discarding
echo ok
