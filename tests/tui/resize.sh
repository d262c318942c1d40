#!/bin/sh
# Resizing is live; below 80x24 a "terminal too small" screen, and back.
. "$(dirname "$0")/lib.sh"

start 100 30 -- --seed 7
wait_for "RUNNING"
T resize-window -t g -x 70 -y 20
wait_for "terminal too small"
T resize-window -t g -x 120 -y 40
wait_gone "terminal too small"
wait_for "RUNNING"
wait_for "-- stats --"
quit_discarding
echo ok
