#!/bin/sh
# Small terminals: a status-line message is read whole at 80x24 (it once
# got the dozen columns the status fields left); a prompt open while the
# terminal is resized is drawn again on the new bottom row; the "terminal
# too small" screen wraps to any size without writing over itself.
. "$(dirname "$0")/lib.sh"

# last_row: the screen's bottom row.
last_row() { screen | tail -n 1; }

# A preset that fails to load: its whole error shows at 80 columns.
printf 'foo: [1]\n' >"$TMPD/bad.yaml"
start 80 24 -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
keys P
wait_for "preset"
keys C-u "$TMPD/bad.yaml" Enter
wait_for "unknown section 'foo'"
wait_for "sph, view)"
# The unsaved mark may give way to the message, never the message to it.
keys .
wait_for "[+]"
stop

# An autosave's notice shows whole at 80 columns too.
start 120 30 -- --seed 3 --size 64x64 --set particles.budget=0
wait_for "[+]"
kill -HUP "$(gully_pid)"
wait_exit 129
stop
start 80 24 -- --size 64x64 --paused
# (The session stopped above may have left one too: then the notice counts.)
wait_for "resumes"
# (A long notice goes on, at a space, on the row under its head.)
screen | tail -n 2 | tr -d '\n' | grep -E -q "a session was autosaved here at Ctrl-C, a hang-up, TERM or QUIT: R resumes it|[0-9]+ sessions were autosaved here: R resumes the newest, then the next" ||
	fail "the autosave notice is cut: $(screen | tail -n 2)"
stop

# A prompt open across a resize: drawn on the new bottom row, and what is
# typed shows there.
start 120 40 -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
keys S
wait_for "save snapshot to:"
T resize-window -t g -x 80 -y 24
keys abc
wait_for "save snapshot to: abc"
last_row | grep -q "save snapshot to: abc" || fail "the prompt is not on the bottom row"
keys Escape
wait_for "not saved"
# The y/n question the same.
keys .
wait_for "[+]"
keys q
wait_for "quit without saving?"
T resize-window -t g -x 100 -y 30
wait_for "-- stats --"
end=$(($(date +%s) + TUI_TIMEOUT))
until last_row | grep -q "quit without saving?"; do
	[ "$(date +%s)" -ge "$end" ] && fail "the question is not on the new bottom row"
	sleep 0.2
done
keys n
wait_for "not quitting"
stop

# Too small: every line whole and apart, at any size.
start 120 40 -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
T resize-window -t g -x 20 -y 5
wait_for "terminal too small"
for line in "terminal too small" "20x5 here, gully" "needs at least 40x12" "q quits"; do
	screen | grep -x -q "$line *" || fail "at 20x5 no line '$line' on its own"
done
T resize-window -t g -x 30 -y 8
wait_for "30x8 here"
for line in "terminal too small" "30x8 here, gully needs at" "least 40x12" "q quits"; do
	screen | grep -x -q "$line *" || fail "at 30x8 no line '$line' on its own"
done
keys q
wait_exit 0

# Without the panel (below 72x16) the list keys say on the status line
# which parameter they picked: Up/Down once moved unseen, and Left/Right
# then changed a parameter nobody saw picked.
start 60 20 -- --seed 3 --size 64x64 --paused
wait_for "PAUSED"
keys Down
wait_for "particles.density = 1.0 (Left/Right change it)"
keys End
wait_for "world.threads = "
keys Home
wait_for "particles.dt = 1.2 (Left/Right change it)"
keys q
wait_exit 0
echo ok
