#!/bin/sh
# Resizing is live. Below 80x24 the explorer draws what fits (the map and
# the status line; the panel from 72x16), down to 40x12; only below that the
# "terminal too small" screen, and back, where q closes an open question;
# a question keeps the simulation still through a resize.
. "$(dirname "$0")/lib.sh"

start 100 30 -- --seed 7 --set particles.budget=0
wait_for "RUNNING"
T resize-window -t g -x 70 -y 20
wait_gone "-- stats --"
wait_for "RUNNING"
wait_for '▀' # the map at 70x20, once its frame is drawn
T resize-window -t g -x 120 -y 20
wait_for "-- stats --"
T resize-window -t g -x 39 -y 11
wait_for "terminal too small"
T resize-window -t g -x 120 -y 40
wait_gone "terminal too small"
wait_for "RUNNING"
wait_for "-- stats --"
quit_discarding

# A typed answer open when the terminal is too small: the screen says q
# closes the question, and q does, rather than go into the hidden line (S
# then Enter once wrote a snapshot named "q").
start 100 30 -- --paused --seed 7 --size 64x64
wait_for "PAUSED"
keys S
wait_for "save snapshot to:"
T resize-window -t g -x 30 -y 8
wait_for "q closes the question"
keys q
wait_for "q quits"
T resize-window -t g -x 100 -y 30
wait_gone "terminal too small"
wait_for "PAUSED"
[ -e q ] && fail "q went into the hidden file name"
wait_for "not saved"
quit_discarding

# An open question holds the simulation, and a resize under it must not let
# the simulation run while the terminal takes the new frame. g on a map too
# big to keep for undo (3072x3072, 28 bytes a cell, over 256 MB) asks while
# running; the droplet count then stays the same on every frame redrawn.
start 100 30 -- --ascii --seed 7 --size 3072x3072 --set particles.budget=0
wait_for "RUNNING"
wait_for "[+]"
keys g
wait_for "a new terrain cannot be undone (the map is too big to keep): go on? (y/n)"
# "COL COUNT": where the panel's droplets row starts, and its count.
droplets_row() {
	screen | awk '{ i = index($0, "| droplets") } i { gsub(/[^0-9]/, "", $NF); print i, $NF; exit }'
}
last=$(droplets_row)
first=
for w in 90 100 90 100 90 100 90 100; do
	T resize-window -t g -x "$w" -y 30
	# Until the frame at the new width is drawn: the row starts elsewhere.
	end=$(($(date +%s) + TUI_TIMEOUT))
	while now=$(droplets_row); [ -z "$now" ] || [ "${now%% *}" = "${last%% *}" ]; do
		[ "$(date +%s)" -ge "$end" ] && fail "no frame drawn at width $w"
		sleep 0.1
	done
	first=${first:-${now#* }}
	[ "${now#* }" = "$first" ] ||
		fail "the simulation ran under the question: $first droplets, then ${now#* }"
	last=$now
done
screen | grep -F -q "go on? (y/n)" || fail "the question went with the resizes"
keys n
wait_for "kept this terrain"
quit_discarding
echo ok
