#!/bin/sh
# The explorer starts at 80x24, 120x40 and 160x48 with the map, panel and status
# line, toggles its help, and quits with the terminal restored.
. "$(dirname "$0")/lib.sh"

for size in "80 24" "120 40" "160 48"; do
	set -- $size
	start "$1" "$2" -- --seed 3 --set particles.budget=0
	wait_for "RUNNING"
	wait_for "1:particles"
	wait_for "-- stats --"
	# The map: half blocks in the UTF-8 locale.
	screen | grep -q '▀' || fail "no half blocks at $1x$2"
	# The key hints end at a whole one, however many fit.
	wait_for "?:help"
	screen | tail -n 1 | grep -E -q ':(help|quit|run|pause|step|undo|preset|save) *$' ||
		fail "the key hints are cut at $1x$2: $(screen | tail -n 1)"
	[ "$(T display -p -t g '#{alternate_on}')" = 1 ] || fail "not on the alternate screen"
	keys '?'
	wait_for "gully keys"
	wait_for "show or hide this help"
	# The longest help line whole, in one column (120) or two (160).
	[ "$1" -lt 120 ] || wait_for "wheel zooms (--mouse)"
	keys '?'
	wait_gone "gully keys"
	quit_discarding
	stop
done
echo ok
