#!/bin/sh
# How many units the explorer runs in SECONDS of running, two builds
# alternated (bench/HYDROLOGY.md, "One catch-up a run, not one a chunk"):
# each build starts paused on the same map in tmux (160x48), Space starts
# it once the panel shows, and after SECONDS the panel's count of units
# (droplets, particles' or hydrology's) is read. Counts, not the rate the
# status line shows, which is smoothed over the last slices.
#   bench/tui-run-rate.sh OLD/gully NEW/gully [ROUNDS [SECONDS [ARGS...]]]
# ARGS default to --process hydrology --size 4096x4096 --seed 1.
OLD=$1 NEW=$2 ROUNDS=${3:-3} SECS=${4:-15}
[ -x "$OLD" ] && [ -x "$NEW" ] || { echo "usage: $0 OLD/gully NEW/gully [ROUNDS [SECONDS [ARGS...]]]" >&2; exit 2; }
shift $(($# < 4 ? $# : 4))
[ $# -gt 0 ] || set -- --process hydrology --size 4096x4096 --seed 1
S=runrate$$
# A session that is never saved autosaves at the kill below: into a
# directory of its own, removed at the end.
XDG_STATE_HOME=$(mktemp -d) && export XDG_STATE_HOME || exit 1
# The kill's hang-up makes gully autosave into it: give that a moment
# before the directory goes.
trap 'tmux -L $S kill-server 2>/dev/null; sleep 2; rm -rf "$XDG_STATE_HOME"' EXIT
count() { tmux -L $S capture-pane -p | sed -n 's/.*│ *\(droplets\|particles\) *\([0-9][0-9,]*\).*/\2/p' | head -n 1 | tr -d ,; }
one() {
	tmux -L $S new-session -d -x 160 -y 48 "$1 --paused $ARGS"
	t0=$(date +%s)
	until tmux -L $S capture-pane -p | grep -q "PAUSED"; do
		[ $(($(date +%s) - t0)) -gt 120 ] && { echo "$1: never started" >&2; return 1; }
		sleep 0.2
	done
	tmux -L $S send-keys Space
	sleep "$SECS"
	n=$(count)
	tmux -L $S send-keys Space
	tmux -L $S kill-server
	sleep 1
	echo "$n"
}
ARGS="$*"
echo "$ARGS, $SECS s running, $(date -u +%H:%M) UTC"
for r in $(seq "$ROUNDS"); do
	a=$(one "$OLD") && b=$(one "$NEW") || exit 1
	echo "round $r	old $a	new $b	new/old $(echo "scale=3; $b / $a" | bc)"
done
