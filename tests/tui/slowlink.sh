#!/bin/sh
# Over a slow link (a pty read at 15 KB/s, bench/ptybytes -r) the explorer
# notices its output backing up and says it lowers its frame rate ("the
# terminal is behind: N frames a second for now"; curses may send only the
# changed part of the line, so the test looks for its end).
GULLY=${GULLY:-$PWD/gully}
PTY=${PTYBYTES:-$(dirname "$GULLY")/bench/ptybytes}
[ -x "$PTY" ] || { echo "no $PTY: skipped"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/gully-slowlink.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
run() {
	env TERM=xterm-256color LANG=C.UTF-8 HOME="$T" XDG_STATE_HOME="$T/state" \
		"$PTY" "$@" 160 48 "$GULLY" --seed 1 --fps 60 --frames 60 >"$T/bytes" 2>"$T/err"
}
run -r 15000 -o "$T/slow" || { echo "FAIL: gully failed on the slow link"; cat "$T/err"; exit 1; }
grep -a -q "frames a second for now" "$T/slow" ||
	{ echo "FAIL: no word of the terminal being behind over a 15 KB/s link"; exit 1; }
echo ok
