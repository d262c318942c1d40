# Helpers for the explorer's end-to-end tests: gully runs in a detached tmux
# server of its own (-L), and the tests poll capture-pane for what they
# expect with a timeout, never a fixed sleep, so a slow machine only waits
# longer. Sourced by each tests/tui/*.sh; exit 77 means skipped.

command -v tmux >/dev/null 2>&1 || { echo "tmux not installed: skipped"; exit 77; }

GULLY=${GULLY:-$PWD/gully}
[ -x "$GULLY" ] || { echo "no gully binary at $GULLY"; exit 99; }
# Seconds to wait for any one thing; generous for a loaded CI machine.
TUI_TIMEOUT=${TUI_TIMEOUT:-60}

# A fresh server (socket) for every start: a server being killed can still
# answer on its old socket for a moment.
SOCK_BASE="gully-test-$$-$(basename "$0" .sh)"
NSTART=0
SOCK="$SOCK_BASE-0"
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/gully-tui.XXXXXX")
T() { tmux -L "$SOCK" "$@"; }

# stop: ends this start's tmux server (and the gully in it).
stop() { tmux -L "$SOCK" kill-server >/dev/null 2>&1 || true; }

cleanup() {
	i=0
	while [ "$i" -le "$NSTART" ]; do
		tmux -L "$SOCK_BASE-$i" kill-server >/dev/null 2>&1 || true
		i=$((i + 1))
	done
	# A gully killed with its server may still be writing its autosave into
	# $TMPD (a session with unsaved work saves on the hang-up): wait for the
	# gullys that have this test's state directory to end (10 s at most),
	# or the autosave would make $TMPD again after it is removed.
	i=0
	while [ -n "$(test_gullys)" ] && [ "$i" -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	# One still there is stuck: under the sanitizer build, LeakSanitizer's
	# leak check at exit can hang, its tracer waiting on a process that
	# spins in sched_yield (google/sanitizers#777); left alone it takes a
	# core for good. Said in the log, then killed.
	for p in $(test_gullys); do
		echo "note: gully ${p#/proc/} still running 10 s after its terminal went: killed"
		# Where each thread waits, for whoever reads the log: a stuck
		# gully of the normal build has been seen once and not caught.
		for t in "$p"/task/*; do
			{ echo "  thread ${t##*/}: $(cut -d' ' -f3 "$t/stat") in $(cat "$t/wchan")"
			  sed 's/^/    /' "$t/stack"; } 2>/dev/null || true
		done
		kill -KILL "${p#/proc/}" 2>/dev/null || true
	done
	rm -rf "$TMPD" 2>/dev/null || { sleep 1; rm -rf "$TMPD"; }
}

# The pids of processes whose environment holds this test's state directory.
test_gullys() {
	# The shell's own redirect fails for a process that has just gone:
	# the braces take its message too.
	for f in /proc/[0-9]*/environ; do
		{ tr '\0' '\n' <"$f"; } 2>/dev/null | grep -qxF "XDG_STATE_HOME=$TMPD/state" &&
			echo "${f%/environ}"
	done
}
trap cleanup EXIT INT TERM HUP

fail() {
	echo "FAIL: $*"
	echo "--- screen:"
	T capture-pane -p -t g 2>/dev/null || true
	echo "--- stderr:"
	cat "$TMPD/err" 2>/dev/null || true
	exit 1
}

# start COLS ROWS ENV... -- ARGS...: runs gully in a fresh window under a
# small shell that, once gully exits, prints its status and the terminal's
# modes, then waits, so the test can see what gully left behind.
start() {
	NSTART=$((NSTART + 1))
	SOCK="$SOCK_BASE-$NSTART"
	cols=$1
	rows=$2
	shift 2
	envs=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		envs="$envs '$1'"
		shift
	done
	[ "${1:-}" = "--" ] && shift
	args=""
	for a in "$@"; do args="$args '$a'"; done
	cat >"$TMPD/run.sh" <<RUN
"\$@" 2>"$TMPD/err"
echo "gully exited \$?"
stty -a | tr ' ;' '\n\n' | grep -E -x -- '-?(icanon|echo)' | tr '\n' ' '
echo
echo "modes shown"
exec sleep 3600
RUN
	printf 'set -g status off\n' >"$TMPD/tmux.conf"
	T -f "$TMPD/tmux.conf" new-session -d -s g -x "$cols" -y "$rows" \
		"exec env -u LC_ALL -u NO_COLOR -u LC_CTYPE TERM=xterm-256color LANG=C.UTF-8 \
		HOME='$TMPD/home' XDG_STATE_HOME='$TMPD/state' $envs sh '$TMPD/run.sh' '$GULLY' $args" ||
		fail "tmux did not start"
}

screen() { T capture-pane -p -t g; }

# wait_for TEXT: until the screen shows TEXT (a fixed string).
wait_for() {
	end=$(($(date +%s) + TUI_TIMEOUT))
	while :; do
		screen | grep -F -q -- "$1" && return 0
		[ "$(date +%s)" -ge "$end" ] && fail "timed out waiting for '$1'"
		sleep 0.2
	done
}

# wait_gone TEXT: until the screen no longer shows TEXT.
wait_gone() {
	end=$(($(date +%s) + TUI_TIMEOUT))
	while :; do
		screen | grep -F -q -- "$1" || return 0
		[ "$(date +%s)" -ge "$end" ] && fail "timed out waiting for '$1' to go"
		sleep 0.2
	done
}

keys() { T send-keys -t g "$@"; }

# wait_exit STATUS: gully has exited with STATUS and given the terminal back:
# out of the alternate screen, cursor shown, line editing and echo on.
wait_exit() {
	wait_for "gully exited "
	# The modes line comes a moment later: a loaded machine shows the gap.
	wait_for "modes shown"
	screen | grep -F -q "gully exited $1" ||
		fail "expected exit status $1"
	[ "$(T display -p -t g '#{alternate_on}')" = 0 ] || fail "still on the alternate screen"
	[ "$(T display -p -t g '#{cursor_flag}')" = 1 ] || fail "cursor left hidden"
	screen | grep -E -q '^icanon echo' || fail "terminal modes not restored"
}

# quit_discarding: q, and y when gully asks whether to quit without saving;
# then the terminal must be given back with status 0.
quit_discarding() {
	keys q
	end=$(($(date +%s) + TUI_TIMEOUT))
	while :; do
		s=$(screen)
		case $s in
		*"quit without saving?"*) keys y; break ;;
		*"gully exited "*) break ;;
		esac
		[ "$(date +%s)" -ge "$end" ] && fail "timed out quitting"
		sleep 0.2
	done
	wait_exit 0
}

# The pid of gully: the child of the pane's shell.
gully_pid() {
	sh_pid=$(T display -p -t g '#{pane_pid}')
	for f in /proc/[0-9]*/stat; do
		set -- $(cat "$f" 2>/dev/null)
		[ "${4:-}" = "$sh_pid" ] && { echo "$1"; return 0; }
	done
	fail "cannot find gully's pid"
}

# hangup_autosave: marks the session unsaved (a parameter nudged, the map
# untouched: only unsaved work is autosaved), hangs it up, and sets $save
# to the autosave it wrote.
hangup_autosave() {
	keys '>'
	wait_for "[+]"
	kill -HUP "$(gully_pid)"
	wait_exit 129
	save=$(ls "$TMPD"/state/gully/autosave-*.gsnap 2>/dev/null | head -n 1)
	[ -f "$save" ] || fail "SIGHUP wrote no autosave"
}

# The shipped presets, wherever the tests run from (VPATH builds too).
PRESETS=$(cd "$(dirname "$0")/../../presets" && pwd)

# find_char C COLS: "ROW COL" (0-based) of the first C in the map, the
# leftmost COLS columns above the status line; empty when none. For --ascii
# screens, where a cell is a byte.
find_char() {
	screen | LC_ALL=C awk -v c="$1" -v w="$2" -v rows="$(T display -p -t g '#{pane_height}')" '
		NR < rows { i = index(substr($0, 1, w), c); if (i) { print NR - 1, i - 1; exit } }'
}

# wait_char_at C ROW COL MAPCOLS: until C shows at (ROW, COL) of the map.
wait_char_at() {
	end=$(($(date +%s) + TUI_TIMEOUT))
	while :; do
		[ "$(find_char "$1" "$4")" = "$2 $3" ] && return 0
		[ "$(date +%s)" -ge "$end" ] && fail "timed out waiting for '$1' at $2,$3 (found at: $(find_char "$1" "$4"))"
		sleep 0.2
	done
}

# click ROW COL: a left click (press and release) at a 0-based cell, sent as
# the SGR mouse report (xterm 1006) that ncurses asks the terminal for.
click() {
	T send-keys -t g -l "$(printf '\033[<0;%d;%dM' $(($2 + 1)) $(($1 + 1)))"
	T send-keys -t g -l "$(printf '\033[<0;%d;%dm' $(($2 + 1)) $(($1 + 1)))"
}
