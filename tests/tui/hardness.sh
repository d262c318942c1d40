#!/bin/sh
# The explorer loads --hardness as `gully run` does: the map it runs on,
# saved on SIGHUP, has the file's hardness layer, not the uniform default;
# a missing file or hardness.generator=file without one is refused before
# the screen starts, with run's line and exit status; inside the explorer a
# terrain change that would need the file is refused and leaves the
# session unmarked.
. "$(dirname "$0")/lib.sh"

"$GULLY" run --quiet --size 48x32 --particles 0 --set hardness.generator=strata \
	-o "$TMPD/strata.gsnap" >/dev/null || fail "could not make a strata map"
"$GULLY" run --quiet --size 48x32 --particles 0 --hardness "$TMPD/strata.gsnap" \
	-o "$TMPD/ref.gsnap" >/dev/null || fail "run --hardness failed"
"$GULLY" render "$TMPD/ref.gsnap" --layer hardness -o "$TMPD/ref.f32" 2>/dev/null ||
	fail "render of run's hardness failed"

start 100 30 -- --paused --size 48x32 --hardness "$TMPD/strata.gsnap"
wait_for "PAUSED"
# One autosave per working directory: autosave-NAME-HASH.gsnap.
hangup_autosave
"$GULLY" render "$save" --layer hardness -o "$TMPD/shown.f32" 2>/dev/null ||
	fail "render of the autosave failed"
cmp -s "$TMPD/ref.f32" "$TMPD/shown.f32" || fail "the explorer's hardness is not the file's"
stop

# A snapshot that carries hardness.generator=file, opened without
# --hardness: a terrain change by a nudge, by typing or by r is refused,
# and the session is still what its file holds: no [+].
"$GULLY" run --quiet --size 48x32 --particles 0 --hardness "$TMPD/strata.gsnap" \
	--set terrain.octaves=5 -o "$TMPD/oct.gsnap" >/dev/null || fail "run --hardness failed"
start 100 30 -- --paused "$TMPD/oct.gsnap"
wait_for "| oct.gsnap "
keys /
wait_for "find parameter:"
keys octaves Enter
wait_for ">terrain.octaves"
refused() {
	wait_for "terrain.octaves unchanged: hardness.generator=file needs --hardness FILE"
	# The message hides the status fields while it shows: look after it.
	wait_gone "unchanged: hardness.generator=file"
	wait_for "| oct.gsnap"
	screen | grep -F -q "oct.gsnap [+]" && fail "a refused change ($1) marked the session unsaved"
	screen | grep -E -q '>terrain\.octaves +5$' || fail "a refused change ($1) did not put the value back"
}
keys Right
refused "a nudge"
keys Enter
wait_for "set terrain.octaves to:"
keys 3 Enter
refused "a typed value"
keys r
refused "a reset"
quit_discarding

# Refused before the terminal is asked for: run's line and status.
"$GULLY" --hardness "$TMPD/nonexist.pgm" </dev/null >/dev/null 2>"$TMPD/err"
[ $? -eq 1 ] || fail "a missing --hardness file: not exit 1"
grep -q -- "--hardness .*nonexist.pgm" "$TMPD/err" || fail "no line naming the missing file"
"$GULLY" --set hardness.generator=file </dev/null >/dev/null 2>"$TMPD/err"
[ $? -eq 2 ] || fail "hardness.generator=file without --hardness: not exit 2"
grep -q "needs --hardness FILE" "$TMPD/err" || fail "no word of the missing --hardness"
echo ok
