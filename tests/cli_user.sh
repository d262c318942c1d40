#!/bin/sh
# A user who scripts sweeps across machines, taking gully(1) at its word:
# each block names the defect it holds shut. POSIX sh; make check exports GULLY.
. "$(dirname "$0")/clilib.sh"
RUN="$GULLY run --quiet --particles 10 --size 16x16"

# ---- 1: every command takes --help and --version (gully(1), OPTIONS) ----
# (params and presets refused --version: exit 2, "unknown option".)
for c in run sweep render info params presets; do
	expect 0 "$c --version" -- "$GULLY" $c --version
	grep -q '^gully [0-9]' "$T/out" || fail "$c --version printed no version: $(cat "$T/out")"
	expect 0 "$c --help" -- "$GULLY" $c --help
	grep -q -- '--version' "$T/out" || fail "$c --help does not list --version"
done

# ---- 2: the formats the help texts name are the ones gully reads ----
# (sweep --help named .ppm as a MAP to start from; gully cannot import one.
# run --help left out .png for --hardness, which it reads.)
expect 0 "a map to start from" -- $RUN -o "$T/map.gsnap"
exts=$("$GULLY" sweep --help | tr '\n' ' ' | sed -n 's/.*MAP, a height map (\([^)]*\)).*/\1/p')
[ -n "$exts" ] || fail "sweep --help names no height-map formats (the check proves nothing)"
for e in $exts; do
	g=
	[ "$e" = .png ] && g=--gray16
	expect 0 "render $e for sweep's MAP" -- "$GULLY" render "$T/map.gsnap" $g -o "$T/start$e"
	expect 0 "sweep starts from a $e map, as its --help says" -- \
		"$GULLY" sweep --quiet --particles 10 --vary world.seed=1,2 "$T/start$e"
done
"$GULLY" run --help | grep -q -- '--hardness FILE .*\.png' || fail "run --help: --hardness lacks .png"
expect 0 "--hardness takes a greyscale .png" -- $RUN --hardness "$T/start.png"

echo "checks done"
finish
