#!/bin/sh
# The seed-hydrology-2020 preset on sixteen droplet streams of the seed's
# terrain, measured against the seed's own map (bench/FIDELITY.md, "Sixteen
# droplet streams"): one stream's figure moves with the chaos of a single
# rounding, sixteen say what a build does.
#   bench/fidelity-streams.sh BUILD_DIR REFERENCE_DIR [--set KEY=VALUE]...
#   SEED_OWN=DIR/seedhydro bench/fidelity-streams.sh BUILD_DIR @N [--set ...]
#   SEED_OWN=DIR/seedhydro bench/fidelity-streams.sh BUILD_DIR %N [--set ...]
# REFERENCE_DIR holds the shared reference maps (hydrology2020-seed12345-*).
# Runs streams 1-14, 42 and 12345 (200,000 droplets each, two at a time),
# renders height and pool, measures them with bench_fidelity, and prints
# the table and each measure's mean, median and range, and how many streams
# reach the issue's marks. With @N instead, the seed's own code (built by
# bench/seed-own-code.sh) makes its terrain N and its map of stream N, and
# streams 1-8 run on that terrain against that map: @42 is where the
# reference README measured the seed's spread. With %N, the terrain is
# gully's own for seed N (the one bench/hydrology-vs-seed.sh times), the
# reference the seed's own code's stream N on it, and streams 1-8 run.
# STREAMS="..." overrides any list. SELF=1 with @N or %N runs the seed's
# own code for the streams instead of gully (--set is then refused): the
# seed's own spread, measured the same way against the same map.
set -eu
# --help: the comment above, as text
case ${1:-} in -h | --help) sed -n '2,/^set -eu/{/^set -eu/d;s/^# \{0,1\}//;p;}' "$0"; exit 0 ;; esac
[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR REFERENCE_DIR|@N [--set KEY=VALUE]..." >&2; exit 2; }
B=$1 R=$2
shift 2
G=$B/gully F=$B/bench/bench_fidelity P=$(dirname "$0")/../presets/seed-hydrology-2020.yaml
for f in "$G" "$F"; do [ -x "$f" ] || { echo "$0: $f: not built (make bench/bench_fidelity)" >&2; exit 2; }; done
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
case $R in
@*)
	N=${R#@}
	case $N in '' | *[!0-9]*) echo "$0: $R: @ and a terrain seed, as @42" >&2; exit 2 ;; esac
	OWN=${SEED_OWN:-}
	[ -n "$OWN" ] && [ -x "$OWN" ] || { echo "$0: $R needs SEED_OWN, the seed's code (bench/seed-own-code.sh)" >&2; exit 2; }
	BEFORE=$T/terrain$N.f32 AFTER=$T/seed$N.f32
	# the seed's fill recurses once per lake cell
	ulimit -s unlimited 2>/dev/null || ulimit -s "$(ulimit -H -s)"
	DUMP=$BEFORE "$OWN" "@$N" "$N" 200000 "$AFTER" >/dev/null ||
		{ echo "$0: $OWN @$N failed" >&2; exit 1; }
	STREAMS=${STREAMS:-1 2 3 4 5 6 7 8}
	;;
%*)
	N=${R#%}
	case $N in '' | *[!0-9]*) echo "$0: $R: % and a terrain seed, as %1" >&2; exit 2 ;; esac
	OWN=${SEED_OWN:-}
	[ -n "$OWN" ] && [ -x "$OWN" ] || { echo "$0: $R needs SEED_OWN, the seed's code (bench/seed-own-code.sh)" >&2; exit 2; }
	BEFORE=$T/gully$N.f32 AFTER=$T/seed$N.f32
	ulimit -s unlimited 2>/dev/null || ulimit -s "$(ulimit -H -s)"
	"$G" run --quiet --process hydrology --seed "$N" --particles 0 -o "$BEFORE" >/dev/null ||
		{ echo "$0: gully's terrain $N failed" >&2; exit 1; }
	"$OWN" "$BEFORE" "$N" 200000 "$AFTER" >/dev/null || { echo "$0: $OWN on terrain $N failed" >&2; exit 1; }
	STREAMS=${STREAMS:-1 2 3 4 5 6 7 8}
	;;
*)
	BEFORE=$R/hydrology2020-seed12345-before.f32 AFTER=$R/hydrology2020-seed12345-after200k-height-then-pool.f32
	[ -r "$BEFORE" ] && [ -r "$AFTER" ] || { echo "$0: $R: no reference maps" >&2; exit 2; }
	STREAMS=${STREAMS:-1 2 3 4 5 6 7 8 9 10 11 12 13 14 42 12345}
	;;
esac
SELF=${SELF:-0}
case $SELF:$R in
0:*) ;;
1:@* | 1:%*) [ $# -eq 0 ] || { echo "$0: SELF=1 runs the seed's own code: no --set" >&2; exit 2; } ;;
*) echo "$0: SELF=1 needs @N or %N (a terrain the seed's code runs on)" >&2; exit 2 ;;
esac
# one STREAM [--set KEY=VALUE]...
one() {
	s=$1
	shift
	if [ "$SELF" = 1 ]; then
		case $R in
		@*) "$OWN" "@$N" "$s" 200000 "$T/$s.f32" >/dev/null ;;
		*) "$OWN" "$BEFORE" "$s" 200000 "$T/$s.f32" >/dev/null ;;
		esac
		return
	fi
	"$G" run "$BEFORE" --quiet -p "$P" --seed "$s" --particles 200000 "$@" -o "$T/$s.gsnap" >/dev/null &&
		"$G" render "$T/$s.gsnap" --layer height -o "$T/$s.h.f32" >/dev/null &&
		"$G" render "$T/$s.gsnap" --layer pool -o "$T/$s.p.f32" >/dev/null
}
n=0
for s in $STREAMS; do
	one "$s" "$@" &
	n=$((n + 1))
	[ $((n % 2)) -eq 0 ] && wait
done
wait
# a stream's map: gully's two renders, or the seed's one file (height, then pool)
map() { if [ "$SELF" = 1 ]; then printf '%s' "$T/$1.f32"; else printf '%s' "$T/$1.h.f32+$T/$1.p.f32"; fi; }
for s in $STREAMS; do [ -r "$(map "$s" | sed 's/.*+//')" ] || { echo "$0: stream $s failed" >&2; exit 1; }; done
"$F" measure "$BEFORE" "$AFTER" $(for s in $STREAMS; do printf '%s ' "$(map "$s")"; done) > "$T/m"
cat "$T/m"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } NR == 2 { next }
	{ n++; for (k in col) v[k, n] = $col[k] }
	function stat(k,   i, j, t, a, s, lo, hi) {
		for (i = 1; i <= n; i++) a[i] = v[k, i] + 0
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
		for (i = 1; i <= n; i++) s += a[i]
		printf "%-15s mean %.4f  median %.4f  range %.3f-%.3f\n", k, s / n,
			n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2, a[1], a[n] }
	END { split("corr corr_blur3 pool_iou eroded_ratio pool_volume pool_cells pools big_edge_lakes", ks, " ")
		for (i = 1; i <= 8; i++) stat(ks[i])
		for (i = 1; i <= n; i++) { c += v["corr", i] >= 0.9; u += v["pool_iou", i] >= 0.45
			e += v["big_edge_lakes", i] >= 2; r += (v["eroded_ratio", i] - 1) ^ 2 <= 0.01 }
		printf "streams: corr >= 0.9 %d, IoU >= 0.45 %d, 2+ edge lakes %d, eroded within 10%% %d, of %d\n", c, u, e, r, n }' "$T/m"
