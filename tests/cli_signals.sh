#!/bin/sh
# `gully run` and `gully sweep` under SIGINT, SIGTERM, SIGHUP, SIGQUIT and
# SIGPIPE (issue 14 #5, #7): what each saves, what it removes, and that no
# run is left behind. The explorer's signals are tests/tui/signals.sh.
. "$(dirname "$0")/clilib.sh"
# A mark no other process has: the sweeps' runs carry it in their --set.
MARK=$(( ($$ % 50000) * 40000 + 7 ))
cleanup() {
	for p in $(runs_alive); do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

# The pids of processes whose command line has world.seed=MARK..MARK+9.
# Until two of the sweep's runs are alive (30 s at most).
wait_runs() {
	i=0
	while [ "$(runs_alive | wc -l)" -lt 2 ] && [ "$i" -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
runs_alive() {
	# One grep over every command line (NUL-separated, so one "line" each);
	# grep's own holds "[0-9]" where a digit is wanted, so it never matches.
	grep -l -a "world\.seed=$((MARK / 10))[0-9]" /proc/[0-9]*/cmdline 2>/dev/null |
		sed -e 's|^/proc/||' -e 's|/cmdline$||'
	return 0
}
MARK=$((MARK / 10 * 10))

# wait_pid PID SECONDS: until the process is gone (it is not our child).
wait_gone() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -gt $(($2 * 10)) ] && return 1
		sleep 0.1
	done
	return 0
}

num() { case $1 in SIG*) echo "${1#SIG}" ;; *) echo "$1" ;; esac; }
# start CMD...: in the background with every signal at its default (a
# non-interactive shell's background job ignores INT and QUIT, and gully
# keeps a signal that was ignored when it started ignored).
start() {
	env --default-signal "$@" &
	pid=$!
}
# stop_wait SIG PID: sends SIG, then waits at most 120 s for the process to end
# (a process that ignores it is killed, and that is a failure); st = status.
# A sweep ends its runs and writes their rows first, which took over 30 s
# once at load 19.
stop_wait() {
	kill -"$1" "$2"
	wait_end "$1" "$2"
}
# wait_end SIG PID: stop_wait's wait, for a signal sent otherwise.
wait_end() {
	i=0
	while kill -0 "$2" 2>/dev/null && [ "$i" -lt 1200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$2" 2>/dev/null; then
		fail "SIG$1 did not end pid $2 in 120 s"
		kill -KILL "$2"
	fi
	wait "$2"
	st=$?
}

status_of() { # INT -> 130 and so on
	case $1 in INT) echo 130 ;; TERM) echo 143 ;; HUP) echo 129 ;; QUIT) echo 131 ;; esac
}

# ---- gully sweep: a signal stops every run it started (issue 14 #5) ----
for sig in INT TERM HUP QUIT; do
	start "$GULLY" sweep --quiet --jobs 2 --particles 50000000 --size 64x64 \
		--vary world.seed=$MARK:$((MARK + 3)):1 >"$T/out" 2>"$T/err"
	# Both runs are going before the signal comes.
	wait_runs
	[ "$(runs_alive | wc -l)" -ge 2 ] || fail "sweep ($sig): its runs did not start"
	stop_wait "$sig" "$pid"
	[ "$st" -eq "$(status_of "$sig")" ] || fail "sweep SIG$sig: exit $st, expected $(status_of "$sig")"
	grep -q "stopped by SIG$sig: 0 of 4 runs finished" "$T/err" ||
		fail "sweep SIG$sig: no report of what finished: $(cat "$T/err")"
	sleep 0.3
	left=$(runs_alive)
	[ -z "$left" ] || fail "sweep SIG$sig: runs left running: $left"
	for p in $left; do kill -KILL "$p" 2>/dev/null; done
	echo "ok: sweep SIG$sig"
done

# Ctrl-C in a terminal signals the whole process group, the runs too; each
# run then said "interrupted (...) after N of M droplets; no -o file to keep
# them" (meaningless in a sweep), mixed with and after the sweep's own
# line. The sweep's stderr is now that one line. setsid puts the sweep in a
# group of its own, for kill to signal as the terminal does.
for sig in INT TERM; do
	setsid env --default-signal "$GULLY" sweep --quiet --jobs 2 --particles 50000000 \
		--size 64x64 --vary world.seed=$MARK:$((MARK + 3)):1 >"$T/out" 2>"$T/err" &
	pid=$!
	wait_runs
	[ "$(runs_alive | wc -l)" -ge 2 ] || fail "sweep (group $sig): its runs did not start"
	# The runs must be past their start: their handlers print the line.
	sleep 0.5
	kill -"$sig" "-$pid"
	wait_end "$sig" "$pid"
	[ "$st" -eq "$(status_of "$sig")" ] || fail "sweep (group $sig): exit $st"
	grep -q "no -o file" "$T/err" && fail "sweep (group $sig): a run's own line: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "^gully: sweep stopped by SIG$sig: 0 of 4 runs" "$T/err" ||
		fail "sweep (group $sig): stderr is not the one summary line: $(cat "$T/err")"
	echo "ok: sweep SIG$sig to its process group"
done

# A signal ignored when the sweep started (nohup) stays ignored.
sh -c 'trap "" HUP; exec "$@"' sh "$GULLY" sweep --quiet --jobs 1 --particles 50000000 \
	--size 64x64 --vary world.seed=$MARK:$((MARK + 1)):1 >/dev/null 2>"$T/err" &
pid=$!
i=0
while [ -z "$(runs_alive)" ] && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -HUP "$pid"
sleep 0.5
kill -0 "$pid" 2>/dev/null || fail "sweep under nohup: SIGHUP ended it"
[ -n "$(runs_alive)" ] || fail "sweep under nohup: SIGHUP ended its runs"
stop_wait TERM "$pid"
[ "$st" -eq 143 ] || fail "sweep under nohup: SIGTERM gave exit $st"
echo "ok: sweep under nohup"

# EPIPE: the reader of stdout goes away; the sweep stops its runs at once,
# not after the long run under way.
(
	"$GULLY" sweep --quiet --jobs 1 --particles 1000 \
		--set world.seed=$((MARK + 5)) --vary world.width=16,4096,4095 2>"$T/err"
	echo $? >"$T/st"
) | head -c 1 >/dev/null
sleep 0.3
[ "$(cat "$T/st")" = 1 ] || fail "sweep EPIPE: exit $(cat "$T/st"), expected 1"
grep -q "stdout is closed" "$T/err" || fail "sweep EPIPE: no report: $(cat "$T/err")"
[ -z "$(runs_alive)" ] || fail "sweep EPIPE: a run was left running"
echo "ok: sweep EPIPE"

# SIGKILL cannot be caught: the runs see their sweep die and stop (Linux).
if [ "$(uname -s)" = Linux ]; then
	"$GULLY" sweep --quiet --jobs 2 --particles 50000000 --size 64x64 \
		--vary world.seed=$MARK:$((MARK + 3)):1 >/dev/null 2>&1 &
	pid=$!
	wait_runs
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	sleep 0.5
	[ -z "$(runs_alive)" ] || fail "sweep SIGKILL: runs left running"
	echo "ok: sweep SIGKILL"
fi

# ---- gully run: a signal during a save removes the temporary file and
# keeps the old file (issue 14 #7) ----
"$GULLY" run --quiet --particles 10 --size 16x16 -o "$T/r.gsnap" >/dev/null 2>&1 ||
	fail "run -o failed"
cp "$T/r.gsnap" "$T/old.gsnap"
for sig in INT TERM HUP QUIT; do
	start "$GULLY" run --quiet --particles 0 --size 1024x1024 -o "$T/r.gsnap" >/dev/null 2>"$T/err"
	caught=no
	i=0
	while [ "$i" -lt 3000 ] && kill -0 "$pid" 2>/dev/null; do
		if ls "$T" | grep -q '^r\.gsnap\.tmp\.'; then
			kill -"$sig" "$pid"
			caught=yes
			break
		fi
		i=$((i + 1))
	done
	wait "$pid"
	st=$?
	if [ "$caught" = yes ]; then
		[ "$st" -eq "$(status_of "$sig")" ] || [ "$st" -eq 0 ] ||
			fail "run SIG$sig during a save: exit $st"
		if [ "$st" -ne 0 ]; then
			cmp -s "$T/r.gsnap" "$T/old.gsnap" || fail "run SIG$sig: the old file changed"
		fi
	else
		echo "note: run SIG$sig: the save was over before the signal could be sent"
	fi
	left=$(ls "$T" | grep '\.tmp\.' || true)
	[ -z "$left" ] || fail "run SIG$sig during a save left $left"
	rm -f "$T"/*.tmp.*
	cp "$T/old.gsnap" "$T/r.gsnap"
	echo "ok: run SIG$sig during a save"
done

# A temporary file of a save that was killed outright (its PID is gone) is
# removed by the next save to the same file; one of a live process is kept.
sh -c 'exit 0' &
dead=$!
wait "$dead"
: >"$T/r.gsnap.tmp.$dead.AbCdEf"
: >"$T/r.gsnap.tmp.$$.GhIjKl"
"$GULLY" run --quiet --particles 10 --size 16x16 -o "$T/r.gsnap" >/dev/null 2>&1 ||
	fail "run -o over stale temporary files failed"
[ -e "$T/r.gsnap.tmp.$dead.AbCdEf" ] && fail "a dead save's temporary file was kept"
[ -e "$T/r.gsnap.tmp.$$.GhIjKl" ] || fail "a live process's temporary file was removed"
rm -f "$T"/*.tmp.*
echo "ok: stale temporary files"

# SIGPIPE: a closed stdout loses the metrics, not the map; the run says so.
rm -f "$T/p.gsnap"
(
	"$GULLY" run --quiet --particles 20000 --size 128x128 -o "$T/p.gsnap" 2>"$T/err"
	echo $? >"$T/st"
) | true
[ "$(cat "$T/st")" = 1 ] || fail "run into a closed pipe: exit $(cat "$T/st"), expected 1"
[ -f "$T/p.gsnap" ] || fail "run into a closed pipe: -o was not written"
grep -q "cannot write the metrics" "$T/err" || fail "run into a closed pipe: no word of it"
"$GULLY" info "$T/p.gsnap" >/dev/null 2>&1 || fail "run into a closed pipe: -o is no good"
# A stray SIGPIPE (not from a write) is ignored.
start "$GULLY" run --quiet --particles 50000 --size 128x128 >"$T/out" 2>"$T/err"
sleep 0.2
stop_wait PIPE "$pid"
[ "$st" -eq 0 ] || fail "run after a stray SIGPIPE: exit $st"
echo "ok: run SIGPIPE"

# sph counts time steps, each up to a thousand droplets' work: a run of it
# stops soon after SIGINT (it went on to its next 2000 steps, once 15 s on a
# big map), and keeps a count that is not a whole chunk of droplets. The
# rain keeps thousands of particles in the air, so 1.5 s is a few hundred
# steps, well short of a chunk of 2000.
start "$GULLY" run --quiet -p sph-rain-valley --size 256x256 --particles 100000 -o "$T/sph.gsnap"
sleep 1.5
stop_wait INT "$pid"
[ "$st" -eq 130 ] || fail "sph run after SIGINT: exit $st"
done_n=$("$GULLY" info "$T/sph.gsnap" 2>/dev/null | sed -n 's/^interrupted: *after \([0-9]*\) of .*/\1/p')
[ -n "$done_n" ] && [ "$done_n" -gt 0 ] && [ "$done_n" -lt 2000 ] ||
	fail "sph interrupted after '${done_n:-?}' steps, not within its first chunks"
echo "ok: sph run SIGINT"

echo "checks done"
finish
