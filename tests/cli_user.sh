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

echo "checks done"
finish
