#!/bin/sh
# A class on a projector: big fonts make small terminals (80x24, 100x30),
# and the room may want a light theme. Each part below is a defect a
# teacher met: what must show, shows whole and readable.
. "$(dirname "$0")/lib.sh"
command -v perl >/dev/null 2>&1 || { echo "perl not installed: skipped"; exit 77; }

# box_rows: what is inside the help box (between its borders, the border
# characters' columns found on its top row), one row a line.
box_rows() {
	screen | perl -CSD -Mutf8 -ne '
		if (!defined $l && /┌/) { $l = index($_, "┌"); $r = index($_, "┐"); next }
		next unless defined $l;
		last if substr($_, $l, 1) eq "└";
		print substr($_, $l + 1, $r - $l - 1), "\n";'
}

# Help: every row inside its box is a row of keys, at 80x24 (where it
# scrolls) and at 200x60 (where it all fits): a blank row under the title
# and another above the bottom border once took two of 20 rows.
for size in "80 24" "200 60"; do
	set -- $size
	start "$1" "$2" -- --seed 3 --size 64x64 --paused
	wait_for "PAUSED"
	keys '?'
	wait_for "show or hide this help"
	wait_for "└"
	[ -n "$(box_rows)" ] || fail "no rows inside the help box at $1x$2"
	box_rows | grep -E -q '^ *$|─' && fail "a blank row or rule inside the help box at $1x$2"
	if [ "$1" = 80 ]; then
		# 24 rows: the box's 22 inner rows all hold keys.
		[ "$(box_rows | wc -l)" -eq 22 ] || fail "help shows $(box_rows | wc -l) rows at 80x24, not 22"
		wait_for "rows 1-22 of"
	fi
	stop
done

echo ok
