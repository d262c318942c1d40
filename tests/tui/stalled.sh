#!/bin/sh
# A terminal that takes no output does not keep gully once a signal asks it
# to end. Here the tmux server is stopped, so nothing reads the pane (as
# with a dead SSH link that sshd has not noticed yet, or Ctrl-S): gully's
# write of a frame blocks, and curses retries it after the signal. It once
# stayed so, unsaved, for as long as the terminal did. Now, after 10 s with
# no room for output, the terminal is taken for gone: the autosave is
# written, gully exits 143, and the terminal's modes are put back.
. "$(dirname "$0")/lib.sh"

start 250 80 -- --seed 3 --size 512x512 --fps 60 --set particles.budget=0
wait_for "[+]"
pid=$(gully_pid)
server=$(T display -p '#{pid}')
[ -r "/proc/$pid/syscall" ] || { echo "no /proc/PID/syscall: skipped"; exit 77; }
resume() { kill -CONT "$server" 2>/dev/null || true; }
# A stopped server would hang the cleanup's kill-server, and fail's look at
# the screen.
trap 'resume; cleanup' EXIT INT TERM HUP
stalled_fail() {
	resume
	fail "$@"
}
kill -STOP "$server"

# Until gully waits in a write to its terminal (fd 1): the pty's buffer
# is full. (/proc/PID/syscall: the call's number, then its arguments.)
end=$(($(date +%s) + TUI_TIMEOUT))
while :; do
	set -- $(cat "/proc/$pid/syscall" 2>/dev/null)
	[ "${2:-}" = 0x1 ] && break
	[ "$(date +%s)" -ge "$end" ] && stalled_fail "gully's output never blocked"
	sleep 0.1
done

kill -TERM "$pid"
# The terminal still takes nothing: gully must end all the same.
end=$(($(date +%s) + TUI_TIMEOUT))
while [ -d "/proc/$pid" ] && [ "$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null)" != Z ]; do
	[ "$(date +%s)" -ge "$end" ] &&
		stalled_fail "gully still running $TUI_TIMEOUT s after SIGTERM, its terminal taking no output"
	sleep 0.2
done
ls "$TMPD"/state/gully/autosave-*.gsnap >/dev/null 2>&1 ||
	stalled_fail "no autosave after SIGTERM on a terminal taking no output"
grep -q "saved the session to" "$TMPD/err" || stalled_fail "no word of the autosave on stderr"

# The terminal back: the status, and line editing and echo (the screen's
# restore went nowhere, the terminal's modes did not). The shell's line
# follows the rest of the frame whose write blocked, wherever it ended: -J
# joins it if it wrapped. That write may have stopped inside a character's
# UTF-8 bytes, which then take the line's first letter with them (seen
# once in CI: "ully exited 143"), so the letter is not asked for.
resume
wait_for "modes shown"
T capture-pane -p -J -t g | grep -F -q "ully exited 143" || fail "expected exit status 143"
screen | grep -E -q '^icanon echo' || fail "terminal modes not restored"
echo ok
