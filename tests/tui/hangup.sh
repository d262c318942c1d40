#!/bin/sh
# A terminal that goes without a SIGHUP (bench/ptybytes -x: the pty is not
# gully's controlling terminal, so closing it signals nothing) is a hang-up
# all the same: gully saves its unsaved work, as gully(1) says of SIGHUP, and
# exits 129. It once spun at full CPU on reads that failed at once, forever.
GULLY=${GULLY:-$PWD/gully}
PTY=${PTYBYTES:-$(dirname "$GULLY")/bench/ptybytes}
[ -x "$PTY" ] || { echo "no $PTY: skipped"; exit 77; }
command -v timeout >/dev/null 2>&1 || { echo "no timeout(1): skipped"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/gully-hangup.XXXXXX") || exit 99
# A gully that outlived its terminal has no other way to end: by its
# environment, the test's state directory.
reap() {
	for f in /proc/[0-9]*/environ; do
		{ tr '\0' '\n' <"$f"; } 2>/dev/null | grep -qxF "XDG_STATE_HOME=$T/state" &&
			kill -9 "$(basename "${f%/environ}")" 2>/dev/null
	done
	rm -rf "$T"
}
trap reap EXIT
# go ARGS...: gully on a 100x30 pty closed after 3 seconds; its status.
go() {
	env TERM=xterm-256color LANG=C.UTF-8 HOME="$T" XDG_STATE_HOME="$T/state" \
		timeout 60 "$PTY" -x 3 100 30 "$GULLY" --seed 1 --size 64x64 "$@" \
		>"$T/bytes" 2>"$T/err"
}
# Running (unsaved): saved, exit 129.
go --set particles.budget=0
st=$?
[ "$st" = 124 ] && { echo "FAIL: gully went on after its terminal went"; exit 1; }
[ "$st" = 129 ] || { echo "FAIL: exit $st after the terminal went, not 129"; cat "$T/err"; exit 1; }
ls "$T"/state/gully/autosave-*.gsnap >/dev/null 2>&1 ||
	{ echo "FAIL: the unsaved session was not saved"; cat "$T/err"; exit 1; }
# Paused with nothing unsaved: it ends too, and saves nothing.
rm -rf "$T/state"
go --paused
st=$?
[ "$st" = 129 ] || { echo "FAIL: a paused gully: exit $st after the terminal went, not 129"; exit 1; }
[ -d "$T/state/gully" ] && ls "$T"/state/gully/autosave-*.gsnap >/dev/null 2>&1 &&
	{ echo "FAIL: a session with nothing unsaved was autosaved"; exit 1; }
echo ok
