#!/bin/sh
# Slow motion for a class: process 1 spent its 250,000 droplets in about a
# second, before a teacher could say what the class was looking at. --speed
# and m/M cap the droplets a second; a slowed run ends on the bits a fast
# one does.
. "$(dirname "$0")/lib.sh"

count() { screen | sed -n 's/.*droplets  *\([0-9,]*\)$/\1/p' | head -n 1 | tr -d ,; }

# The cap holds: never more than the cap's droplets a second since the
# start (a bound, not a timing: a loaded machine runs fewer, never more).
t0=$(date +%s)
start 100 30 -- --seed 4 --size 64x64 --speed 20 --set particles.budget=0
wait_for "RUNNING 20 droplets/s (slow)"
sleep 2
n=$(count)
t1=$(date +%s)
[ -n "$n" ] || fail "no droplet count in the panel"
[ "$n" -ge 1 ] || fail "a slowed run ran nothing"
[ "$n" -le $((20 * (t1 - t0 + 1) + 2)) ] ||
	fail "$n droplets in at most $((t1 - t0 + 1)) s at 20 a second"

# m and M walk the steps, M past the last one to full speed.
keys m
wait_for "slow motion: at most 10 droplets a second (m slower, M faster)"
keys M M
wait_for "slow motion: at most 50 droplets a second"
for i in 1 2 3 4 5 6 7 8 9 10; do keys M; done
wait_for "slow motion: at most 100,000 droplets a second"
keys M
wait_for "full speed (m runs slower)"
wait_gone "(slow)"
keys m
wait_for "slow motion: at most"
quit_discarding

# From full speed m goes to the first step under the speed of now, and the
# slowest step says so.
start 100 30 -- --seed 4 --size 64x64 --speed 2 --set particles.budget=0
wait_for "RUNNING 2 droplets/s (slow)"
keys m
wait_for "at most 1 droplet a second, the slowest"
quit_discarding

# A slowed run, slice by slice, a few droplets each, stops at its budget on
# the heights a headless run of as many droplets makes (once the droplets
# the explorer's budget left in flight are run to their end).
start 100 30 -- --seed 4 --size 64x64 --speed 200 --set particles.budget=300
wait_for "RUNNING 200 droplets/s (slow)"
wait_for "budget reached"
keys S
wait_for "save snapshot to:"
keys C-u "$TMPD/slow.gsnap" Enter
wait_for "saved "
quit_discarding
"$GULLY" run --quiet --seed 4 --size 64x64 --particles 300 -o "$TMPD/fast.f32" >/dev/null ||
	fail "gully run"
"$GULLY" run --quiet "$TMPD/slow.gsnap" --particles 0 -o "$TMPD/slow.f32" >/dev/null ||
	fail "gully run slow.gsnap"
cmp -s "$TMPD/slow.f32" "$TMPD/fast.f32" || fail "the slowed run's heights differ from gully run's"

# --speed out of range is one line and exit 2.
"$GULLY" --speed 0 >"$TMPD/out" 2>&1 && fail "--speed 0 accepted"
grep -q "^gully: --speed: '0' is not a whole number from 1 to 100000" "$TMPD/out" ||
	fail "--speed 0 said: $(cat "$TMPD/out")"
