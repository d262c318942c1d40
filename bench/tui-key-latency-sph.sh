#!/bin/sh
# Key latency of the explorer while SPH runs at its 25,000-particle cap
# (bench/SPH.md): rain on a 96x96 map until the stats count TARGET particles
# (24000 by default), the steps counted over 10 s, then five presses of `?`
# a second apart, each timed from send-keys until capture-pane shows the
# help (the method of bench/TUI.md). Usage: tui-key-latency-sph.sh GULLY LABEL
G=$1 L=${2:-gully} S=sphlat$$
# The hang-up at the end autosaves the session: into a directory of its own.
XDG_STATE_HOME=$(mktemp -d) && export XDG_STATE_HOME || exit 1
stat() { tmux -L $S capture-pane -p | sed -n "s/.* $1  *\([0-9][0-9,]*\).*/\1/p" | head -n 1 | tr -d ,; }
tmux -L $S new-session -d -x 160 -y 48 "$G --process sph -p sph-rain-valley \
	--set terrain.generator=basins --set sph.rain=20000 --set sph.absorb_rate=0 --set sph.dry_rate=0"
t0=$(date +%s)
while p=$(stat particles); [ "${p:-0}" -lt "${TARGET:-24000}" ]; do
	[ $(($(date +%s) - t0)) -gt 240 ] && { echo "never reached ${TARGET:-24000}: $p"; break; }
	sleep 1
done
echo "particles $p after $(($(date +%s) - t0)) s"
s1=$(stat steps); sleep 10; s2=$(stat steps)
echo "steps in 10 s: $s1 -> $s2"
for i in 1 2 3 4 5; do
	sleep 1
	t=$(date +%s%N); tmux -L $S send-keys "?"
	while ! tmux -L $S capture-pane -p | grep -q "show or hide this help"; do :; done
	echo "$L $((($(date +%s%N) - t) / 1000000)) ms"
	tmux -L $S send-keys "?"
	while tmux -L $S capture-pane -p | grep -q "show or hide this help"; do :; done
done
tmux -L $S kill-server
sleep 1
rm -rf "$XDG_STATE_HOME"
