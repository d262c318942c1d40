#!/bin/sh
# Pause and step, run again, change a parameter by keys and by typing,
# reject a bad value, reset it, and ask for a process not built yet.
. "$(dirname "$0")/lib.sh"

start 100 30 -- --paused --seed 5 --size 64x64 --set particles.budget=0
wait_for "PAUSED"
screen | grep -E -q 'droplets +0$|droplets +0 ' || fail "droplets not 0 while paused"
keys .
wait_for "stepped "
screen | grep -E -q 'droplets +0 *$' && fail "a step ran no droplets"
keys ' '
wait_for "RUNNING"
keys ' '
wait_for "PAUSED"

# The panel starts on particles.dt; Down selects density.
keys Down
wait_for ">density"
keys Right
wait_for "particles.density = 1.1"
keys '<'
wait_for "particles.density = 0.1"
keys Enter
wait_for "set particles.density to:"
keys C-u 0.5 Enter
wait_for "particles.density = 0.5"
screen | grep -E -q '>density +0\.5' || fail "the panel does not show 0.5"
keys Enter
wait_for "set particles.density to:"
keys C-u 99 Enter
wait_for "out of range"
keys Enter
wait_for "set particles.density to:"
keys C-u 2 Escape
wait_for "cancelled"
keys r
wait_for "particles.density = 1.0"

# A process number with nothing behind it says so (the digit after the
# process table's last; 9 when all nine exist).
n=$("$GULLY" run --help | sed -n 's/.*--process NAME.*process: \([a-z|]*\).*/\1/p' | tr '|' '\n' | grep -c .)
[ "${n:-0}" -ge 1 ] || { echo "FAIL: no process list in 'gully run --help'"; exit 1; }
if [ "$n" -lt 9 ]; then
	keys $((n + 1))
	wait_for "no process $((n + 1)): this gully has $n"
fi
# f and F walk the frame rate, in words that read (never "1 frames").
keys f
wait_for "at most 10 frames a second"
keys f f f f
wait_for "at most 1 frame a second"
keys F
wait_for "at most 2 frames a second"
quit_discarding

# F is more frames, never fewer: from --fps 120, past its last step, it
# keeps 120 (it once went down to 60).
start 100 30 -- --paused --seed 5 --size 64x64 --fps 120
wait_for "PAUSED"
keys F
wait_for "at most 120 frames a second"
keys f
wait_for "at most 60 frames a second"
quit_discarding
echo ok
