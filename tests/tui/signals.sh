#!/bin/sh
# Every signal gives the terminal back (out of the alternate screen, cursor
# shown, line editing on): SIGINT quits; SIGHUP, SIGTERM and SIGQUIT save the
# session to $XDG_STATE_HOME/gully/autosave-DIR-HASH.gsnap first; a start
# announces it, R and --resume reopen it; SIGPIPE is ignored.
. "$(dirname "$0")/lib.sh"

start 140 30 -- --seed 4 --set particles.budget=0
wait_for "RUNNING"
kill -INT "$(gully_pid)"
wait_exit 130
stop

start 140 30 -- --seed 4 --size 64x64 --set particles.budget=0
wait_for "RUNNING"
kill -HUP "$(gully_pid)"
wait_exit 129
# One autosave per working directory: autosave-NAME-HASH.gsnap.
save=$(ls "$TMPD"/state/gully/autosave-*.gsnap 2>/dev/null | head -n 1)
if [ ! -f "$save" ]; then
	# Until src/io/snapshot.c is real, saving fails with GULLY_ENOTIMPL.
	if grep -q "not implemented" "$TMPD/err"; then
		echo "snapshots not built yet: autosave and --resume skipped"
		exit 77
	fi
	fail "SIGHUP wrote no autosave"
fi
grep -q "saved the session to $save" "$TMPD/err" || fail "no word of the autosave on stderr"
stop

# A plain start says an autosave waits; R resumes it.
start 140 30 -- --paused --size 32x32
wait_for "a session was saved when the terminal hung up: R resumes it"
keys R
wait_for "resumed the session saved at the hang-up"
[ -e "$save" ] && fail "the autosave is still there after R"
screen | grep -q " \[+\]" || fail "a resumed session is not marked unsaved"
keys q
wait_for "quit without saving?"
keys n
wait_for "not quitting"
keys q
wait_for "quit without saving?"
keys y
wait_exit 0
stop

# --resume with none says so in words.
start 140 30 -- --resume --paused
wait_exit 1
grep -q "no saved session" "$TMPD/err" || fail "--resume with none did not say 'no saved session'"

# saves_on SIG STATUS: the signal ends gully with STATUS, the terminal given
# back, the session in the autosave and a word of it on stderr. (Budget 0: a
# 64x64 map can reach the default budget and pause before a loaded machine
# shows RUNNING.)
saves_on() {
	rm -f "$TMPD"/state/gully/autosave-*.gsnap
	start 140 30 -- --seed 5 --size 64x64 --set particles.budget=0
	wait_for "RUNNING"
	kill -"$1" "$(gully_pid)"
	wait_exit "$2"
	save=$(ls "$TMPD"/state/gully/autosave-*.gsnap 2>/dev/null | head -n 1)
	[ -f "$save" ] || fail "SIG$1 wrote no autosave"
	grep -q "saved the session to $save" "$TMPD/err" || fail "no word of the autosave after SIG$1"
	stop
}
# SIGQUIT (what Ctrl-\ sends in cbreak mode) is SIGTERM's twin: autosave,
# terminal restored, exit 131 (issue 14 #6). Sent to gully alone: typed, the
# terminal would send it to the test's own shell around gully as well.
saves_on QUIT 131
saves_on TERM 143

# SIGPIPE is ignored: the explorer goes on, and quits normally.
start 140 30 -- --seed 7 --size 64x64 --paused
wait_for "PAUSED"
kill -PIPE "$(gully_pid)"
sleep 0.5
screen | grep -F -q "gully exited" && fail "SIGPIPE ended the explorer"
keys q
wait_exit 0
# No save ever leaves a temporary file beside the autosave.
ls "$TMPD/state/gully" | grep -q '\.tmp\.' && fail "a temporary file was left in the state directory"
echo ok
