#!/bin/sh
# Hydrology speed as a ratio against the seed's own algorithm (the
# yardstick, bench/seedref.h) on identical terrain, interleaved run by run
# (bench/README.md, issue 15 item 3):
#   bench/hydrology-vs-seed.sh [BUILD_DIR [DROPLETS [RUNS [SEEDS...]]]]
# For each seed: gully's own terrain for that seed (fBm, 8 octaves,
# persistence 0.5: the seed's 2020 terrain shape) exported as float32; then
# RUNS times, in turn: the yardstick (SimpleHydrology 2020), gully with the
# seed-hydrology-2020 preset (matched work) and gully's hydrology defaults
# (vertical scale 40). CPU seconds (user + system) from /usr/bin/time; per
# run the ratios yardstick / gully; the last lines are the medians.
# With SEED_OWN set to the seed's own code built by bench/seed-own-code.sh,
# each run also times it, first, and gives gully's preset against it; with
# TERRAIN=seed too, every side runs on the seed's own terrain for each seed
# (its generate(), as the seed's program makes it) instead of gully's.
# LANES=N runs both of gully's sides with --set hydrology.lanes=N.
set -eu
# --help: the comment above, as text
case ${1:-} in -h | --help) sed -n '2,/^set -eu/{/^set -eu/d;s/^# \{0,1\}//;p;}' "$0"; exit 0 ;; esac
B=${1:-build}; N=${2:-50000}; RUNS=${3:-5}
shift $(( $# < 3 ? $# : 3 ))
SEEDS=${*:-1 42 12345}
G=$B/gully; F=$B/bench/bench_fidelity; P=$(dirname "$0")/../presets
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
# a / b to one decimal; "inf" where b rounds to 0 s (a run too short to time)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else printf "inf" }'; }
# CPU seconds of a run; a run that fails (the seed's code out of stack, a
# missing file) is not a time: it is named, marked, and the table refused.
cpu() {
	if ! /usr/bin/time -f '%U %S' -o "$T/t" "$@" >/dev/null 2>&1; then
		echo "$0: failed: $*" >&2
		: >"$T/failed"
		echo 0
		return
	fi
	awk '{print $1 + $2}' "$T/t"
}
L=
case ${LANES:-} in
'') ;;
*[!0-9]*) echo "$0: LANES=$LANES: a number of lanes, 1 to 64" >&2; exit 2 ;;
*) L="--set hydrology.lanes=$LANES" ;;
esac
OWN=${SEED_OWN:-}
[ -z "$OWN" ] || [ -x "$OWN" ] || { echo "$0: SEED_OWN=$OWN: not a program" >&2; exit 2; }
TERRAIN=${TERRAIN:-gully}
case $TERRAIN in
gully) ;;
seed) [ -n "$OWN" ] || { echo "$0: TERRAIN=seed needs SEED_OWN" >&2; exit 2; } ;;
*) echo "$0: TERRAIN=$TERRAIN: gully or seed" >&2; exit 2 ;;
esac
# the seed's fill recurses once per lake cell
[ -z "$OWN" ] || ulimit -s unlimited 2>/dev/null || ulimit -s "$(ulimit -H -s)"
printf 'seed\trun\tseed_cpu_s\tpreset_cpu_s\tdefault_cpu_s\tx_preset\tx_default\town_cpu_s\tx_own\n'
for s in $SEEDS; do
	if [ "$TERRAIN" = seed ]; then
		DUMP="$T/terrain.f32" "$OWN" "@$s" "$s" 0 "$T/own.f32" >/dev/null ||
			{ echo "$0: the seed's terrain $s: $OWN failed" >&2; exit 1; }
	else
		"$G" run --quiet --process hydrology --seed "$s" --particles 0 -o "$T/terrain.f32" >/dev/null
	fi
	r=1
	while [ "$r" -le "$RUNS" ]; do
		o=-
		[ -z "$OWN" ] || o=$(cpu "$OWN" "$T/terrain.f32" "$s" "$N" "$T/own.f32")
		a=$(cpu "$F" hydrology "$T/terrain.f32" "$s" "$N" "$T/seed.f32")
		b=$(cpu "$G" run "$T/terrain.f32" --quiet -p "$P/seed-hydrology-2020.yaml" --seed "$s" --particles "$N" $L)
		c=$(cpu "$G" run "$T/terrain.f32" --quiet --process hydrology --seed "$s" --particles "$N" --set terrain.vertical_scale=40 $L)
		xo=-
		[ -z "$OWN" ] || xo=$(ratio "$o" "$b")
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$r" "$a" "$b" "$c" \
			"$(ratio "$a" "$b")" "$(ratio "$a" "$c")" "$o" "$xo"
		r=$((r + 1))
	done
done | tee "$T/rows"
[ ! -e "$T/failed" ] || { echo "$0: a run failed; no medians" >&2; exit 1; }
for s in $SEEDS; do
	for col in 6 7 9; do
		[ "$col" -lt 9 ] || [ -n "$OWN" ] || continue
		awk -v s="$s" '$1 == s' "$T/rows" | cut -f$col | sort -n | awk -v s="$s" -v c=$col '
			{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
			  printf "median\tseed %s\t%s\t%.1fx\n", s,
				c == 6 ? "preset (matched work)" : c == 7 ? "defaults" : "preset against the seed'"'"'s own code", m }'
	done
done
