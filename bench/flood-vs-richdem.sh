#!/bin/sh
# gully's whole-map flood (flood_fill_map) against richdem's priority floods
# in the same minutes on the same machine, on the same map: the yardstick
# for the target "at least as fast as Zhou, Sun, Fu 2016 (richdem's)"
# (bench/HYDROLOGY.md, "The whole-map flood against richdem"). The map
# is gully's terrain at each size (seed 42, defaults: the one
# `bench_hydrology fillmap SIZE` floods), written once by `gully run -o`.
#   bench/flood-vs-richdem.sh BUILD_DIR RDFILL [RUNS [SIZES...]]
# BUILD_DIR has gully and bench/bench_hydrology built; RDFILL is the driver
# bench/richdem-fill.sh builds. RUNS (default 5) times per size it runs
# richdem's Zhou 2016, richdem's Barnes 2014 (improved priority flood) and
# gully's fillmap, alternated, each in its own process with one fill (so
# page faults count for all), and prints each one's million cells/s in CPU
# time and the ratios gully/Zhou and gully/Barnes; at the end the medians
# (of the rates and of the per-run ratios). SIZES default to 1024 4096.
# Once per size, before the runs, the three filled surfaces are compared:
# Zhou's and Barnes's must be the same bytes, and gully's (height + pool)
# against them with `RDFILL same` (cells that differ, the largest
# difference, and whether any level differs beyond gully's float rounding
# of height + pool); a level that differs stops the script.
# BENCH_LOCK=FILE: each run (the three processes) holds `flock FILE`, so
# other benchmarks on a shared machine wait between runs, not inside one.
set -eu
# --help: the comment above, as text
case ${1:-} in -h | --help) sed -n '2,/^set -eu/{/^set -eu/d;s/^# \{0,1\}//;p;}' "$0"; exit 0 ;; esac
[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR RDFILL [RUNS [SIZES...]]" >&2; exit 2; }
B=$1 RD=$2
RUNS=${3:-5}
case $RUNS in '' | *[!0-9]* | 0) echo "$0: RUNS must be a count >= 1, not '$RUNS'" >&2; exit 2 ;; esac
if [ $# -gt 3 ]; then shift 3; else set -- 1024 4096; fi
for f in "$B/gully" "$B/bench/bench_hydrology" "$RD"; do
	[ -x "$f" ] || { echo "$0: $f is not an executable (build it first)" >&2; exit 1; }
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -z "${BENCH_LOCK:-}" ] || exec 9>>"$BENCH_LOCK"

# The CPU rate of a fill's output line: "..., 12.34 million cells/s CPU, ...".
rate() { sed -n 's/.*, \([0-9.]*\) million cells\/s CPU.*/\1/p' | head -n 1; }
# The median of the numbers in a file, one a line.
median() { sort -g "$1" | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }

# The three fills of one size once, their surfaces compared.
check() {
	s=$1 map=$T/t$1.f32
	"$RD" zhou "$s" "$s" "$map" 1 "$T/zhou.f32" >/dev/null
	"$RD" barnes "$s" "$s" "$map" 1 "$T/barnes.f32" >/dev/null
	"$B/bench/bench_hydrology" fillmap "$s" 1 "$map" "$T/gully.f32" >/dev/null
	cmp -s "$T/zhou.f32" "$T/barnes.f32" ||
		{ echo "$0: $s: richdem's Zhou 2016 and Barnes 2014 filled differently" >&2; exit 1; }
	printf '%s: zhou = barnes; gully against them: ' "$s"
	"$RD" same "$s" "$s" "$map" "$T/zhou.f32" "$T/gully.f32" ||
		{ echo "$0: $s: gully's levels differ from richdem's" >&2; exit 1; }
}

# One run at size $1: the three processes in turn; a line of rates and ratios.
run() {
	s=$1 map=$T/t$1.f32
	[ -z "${BENCH_LOCK:-}" ] || flock 9
	z=$("$RD" zhou "$s" "$s" "$map" 1 | rate)
	b=$("$RD" barnes "$s" "$s" "$map" 1 | rate)
	g=$("$B/bench/bench_hydrology" fillmap "$s" 1 "$map" | rate)
	[ -z "${BENCH_LOCK:-}" ] || flock -u 9
	[ -n "$z" ] && [ -n "$b" ] && [ -n "$g" ] || { echo "$0: a fill printed no rate" >&2; exit 1; }
	echo "$z" >>"$T/z$s"; echo "$b" >>"$T/b$s"; echo "$g" >>"$T/g$s"
	gz=$(ratio "$g" "$z") gb=$(ratio "$g" "$b")
	echo "$gz" >>"$T/gz$s"; echo "$gb" >>"$T/gb$s"
	printf '%5s run %d: zhou %6.2f  barnes %6.2f  gully %6.2f M cells/s CPU; gully/zhou %s, gully/barnes %s\n' \
		"$s" "$2" "$z" "$b" "$g" "$gz" "$gb"
}

echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for s; do
	"$B/gully" run --quiet --process particles --size "${s}x$s" --seed 42 --particles 0 \
		-o "$T/t$s.f32" >/dev/null
	check "$s"
done
for s; do
	i=1
	while [ "$i" -le "$RUNS" ]; do
		run "$s" "$i"
		i=$((i + 1))
	done
done
echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'), load $(cut -d' ' -f1-3 /proc/loadavg); medians of $RUNS runs:"
for s; do
	printf '%5s: zhou %.2f  barnes %.2f  gully %.2f M cells/s CPU; gully/zhou %.3f, gully/barnes %.3f\n' \
		"$s" "$(median "$T/z$s")" "$(median "$T/b$s")" "$(median "$T/g$s")" \
		"$(median "$T/gz$s")" "$(median "$T/gb$s")"
done
