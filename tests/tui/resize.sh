#!/bin/sh
# Resizing is live. Below 80x24 the explorer draws what fits (the map and
# the status line; the panel from 72x16), down to 40x12; only below that the
# "terminal too small" screen, and back.
. "$(dirname "$0")/lib.sh"

start 100 30 -- --seed 7 --set particles.budget=0
wait_for "RUNNING"
T resize-window -t g -x 70 -y 20
wait_gone "-- stats --"
wait_for "RUNNING"
screen | grep -q '▀' || fail "no map at 70x20"
T resize-window -t g -x 120 -y 20
wait_for "-- stats --"
T resize-window -t g -x 39 -y 11
wait_for "terminal too small"
T resize-window -t g -x 120 -y 40
wait_gone "terminal too small"
wait_for "RUNNING"
wait_for "-- stats --"
quit_discarding
echo ok
