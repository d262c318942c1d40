#!/bin/sh
# The explorer opens a height map as `gully run` does (gully map_48x32.r16):
# the map it shows, saved on SIGHUP, has the file's size and heights.
. "$(dirname "$0")/lib.sh"

"$GULLY" run --quiet --size 48x32 --particles 2000 -o "$TMPD/a.gsnap" >/dev/null ||
	fail "could not make a map"
"$GULLY" render "$TMPD/a.gsnap" -o "$TMPD/map_48x32.r16" 2>/dev/null || fail "render failed"
"$GULLY" run --quiet --particles 0 "$TMPD/map_48x32.r16" -o "$TMPD/ref.f32" >/dev/null ||
	fail "run from the height map failed"

start 100 30 -- --paused "$TMPD/map_48x32.r16"
wait_for "PAUSED"
# One autosave per working directory: autosave-NAME-HASH.gsnap.
hangup_autosave
grep -q "read 48x32 16-bit heights" "$TMPD/err" || fail "no word of what was read"
"$GULLY" info "$save" | grep -q "^size: *48x32" || fail "the explorer's map is not 48x32"
"$GULLY" render "$save" -o "$TMPD/shown.f32" 2>/dev/null || fail "render of the autosave failed"
cmp -s "$TMPD/ref.f32" "$TMPD/shown.f32" || fail "the explorer's heights are not the file's"
stop
echo ok
