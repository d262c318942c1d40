#!/bin/bash
# Hydrology's cost against map size, two builds interleaved run by run
# (bench/HYDROLOGY.md, "The stream map, lazily"; issue 15 item 5):
#   bench/hydrology-scaling.sh OLD_BUILD NEW_BUILD [RUNS [DROPLETS [SIZES...]]]
# For each size, RUNS times in turn: each build's `gully run --process
# hydrology --seed 1` with DROPLETS droplets, then each build's terrain
# alone (--particles 0). CPU seconds (user + system, bash's `time`, ms);
# the last lines per size: medians, the hydrology part (CPU less the
# terrain's), us per droplet, ns per descend step, and the median of the
# pair ratios new/old of the whole run's CPU. FEATURES=matched sets
# terrain.frequency to size/64 (4 at 256x256, the default there), so that
# features are as many cells across on every size and droplets walk as far.
# FROM=snapshot makes each size's terrain once (NEW's `--particles 0 -o`)
# and runs both builds from it: no terrain to subtract, and the figure per
# droplet is the simulation's own seconds (the metrics' wall time of the
# droplets alone), with the whole run's CPU beside it. The last line: each
# build's us per droplet on the last size over the first (issue 15 item 5
# asks 4096² within 2x of 256²).
# INTERLEAVE=sizes (with FROM=snapshot) measures that ratio in the same
# minutes instead: NEW alone, each round running every size in turn, and
# the median of the rounds' last-over-first ratios (OLD is not run).
# SET="KEY=VALUE ..." adds those --set options to the droplets' runs there.
set -eu
if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
	sed -n '2,/^set -eu/p' "$0" | sed '$d'
	exit 0
fi
OLD=$1; NEW=$2; RUNS=${3:-5}; N=${4:-100000}
shift $(( $# < 4 ? $# : 4 ))
SIZES=${*:-256 4096}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
TIMEFORMAT='%3U %3S'
cpu() { { time "$@" >"$T/out" 2>/dev/null; } 2>"$T/t"; awk '{print $1 + $2}' "$T/t"; }
med() { sort -g | awk '{a[NR]=$1} END{print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
# The last run's metrics' seconds, per droplet in us.
sim_us() { awk -F'\t' -v n="$N" 'NR == 2 { printf "%.3f", $7 / n * 1e6 }' "$T/out"; }
from_snapshot() {
	s=$1; shift
	"$NEW/gully" run "$@" --particles 0 -o "$T/map.gsnap" >/dev/null 2>&1
	for r in $(seq "$RUNS"); do
		a=$(cpu "$OLD/gully" run "$T/map.gsnap" --particles "$N")
		a1=$(sim_us)
		b=$(cpu "$NEW/gully" run "$T/map.gsnap" --particles "$N")
		b1=$(sim_us)
		printf '%s\trun %s\told %s us/droplet (run cpu %s)\tnew %s us/droplet (run cpu %s)\n' "$s" "$r" "$a1" "$a" "$b1" "$b"
		echo "$a1" >>"$T/old"; echo "$b1" >>"$T/new"; echo "$a" >>"$T/old0"; echo "$b" >>"$T/new0"
		echo "$b1 / $a1" | bc -l >>"$T/ratio"
	done
	for k in old new; do
		med <"$T/$k" >"$T/us_${k}_$s"
		printf '%s\t%s median\tus/droplet %s\trun cpu %s\n' "$s" "$k" "$(cat "$T/us_${k}_$s")" "$(med <"$T/${k}0")"
	done
	printf '%s\tnew/old pair-ratio median %.3f (us/droplet)\n' "$s" "$(med <"$T/ratio")"
	rm -f "$T/map.gsnap"
}
# INTERLEAVE=sizes: each round runs NEW on every size in turn.
interleave_sizes() {
	for s in $SIZES; do
		set -- --process hydrology --size "${s}x$s" --seed 1
		[ "${FEATURES:-}" = matched ] && set -- "$@" --set terrain.frequency=$((s / 64))
		"$NEW/gully" run "$@" --particles 0 -o "$T/map$s.gsnap" >/dev/null 2>&1
	done
	set -- $SIZES
	first=$1; shift $(($# - 1)); last=$1
	for r in $(seq "$RUNS"); do
		line="run $r"
		for s in $SIZES; do
			# shellcheck disable=SC2046
			"$NEW/gully" run "$T/map$s.gsnap" --particles "$N" \
				$(for kv in ${SET:-}; do printf -- '--set %s ' "$kv"; done) >"$T/out" 2>/dev/null
			u=$(sim_us); echo "$u" >>"$T/u$s"; eval "u_$s=$u"
			line="$line	$s: $u us/droplet"
		done
		ratio=$(eval "echo \"\$u_$last / \$u_$first\"" | bc -l)
		echo "$ratio" >>"$T/ratio"
		printf '%s\t%s/%s %.3f\n' "$line" "$last" "$first" "$ratio"
	done
	for s in $SIZES; do
		printf '%s\tmedian us/droplet %s\n' "$s" "$(med <"$T/u$s")"
	done
	printf '%s over %s, us/droplet: median of the rounds'"'"' ratios %.3fx (range %.3f-%.3f)\n' \
		"$last" "$first" "$(med <"$T/ratio")" "$(sort -g "$T/ratio" | head -1)" \
		"$(sort -g "$T/ratio" | tail -1)"
}
if [ "${INTERLEAVE:-}" = sizes ]; then
	[ "${FROM:-}" = snapshot ] || { echo "INTERLEAVE=sizes needs FROM=snapshot" >&2; exit 2; }
	: >"$T/ratio"
	interleave_sizes
	exit 0
fi
for s in $SIZES; do
	set -- --process hydrology --size "${s}x$s" --seed 1
	[ "${FEATURES:-}" = matched ] && set -- "$@" --set terrain.frequency=$((s / 64))
	: >"$T/old"; : >"$T/new"; : >"$T/old0"; : >"$T/new0"; : >"$T/ratio"
	if [ "${FROM:-}" = snapshot ]; then
		from_snapshot "$s" "$@"
		continue
	fi
	for r in $(seq "$RUNS"); do
		a=$(cpu "$OLD/gully" run "$@" --particles "$N")
		b=$(cpu "$NEW/gully" run "$@" --particles "$N")
		steps=$(tail -1 "$T/out" | cut -f6)
		a0=$(cpu "$OLD/gully" run "$@" --particles 0)
		b0=$(cpu "$NEW/gully" run "$@" --particles 0)
		printf '%s\trun %s\told %s\tnew %s\tterrain %s %s\tsteps %s\n' "$s" "$r" "$a" "$b" "$a0" "$b0" "$steps"
		echo "$a" >>"$T/old"; echo "$b" >>"$T/new"; echo "$a0" >>"$T/old0"; echo "$b0" >>"$T/new0"
		echo "$b / $a" | bc -l >>"$T/ratio"
	done
	for k in old new; do
		c=$(med <"$T/$k"); z=$(med <"$T/${k}0")
		echo "($c - $z) * 1000000 / $N" | bc -l >"$T/us_${k}_$s"
		printf '%s\t%s median\tcpu %s\tterrain %s\tus/droplet %.2f\tns/step %.1f\n' "$s" "$k" "$c" "$z" \
			"$(cat "$T/us_${k}_$s")" "$(echo "($c - $z) * 1000000000 / $steps" | bc -l)"
	done
	printf '%s\tnew/old pair-ratio median %.3f\n' "$s" "$(med <"$T/ratio")"
done
set -- $SIZES
first=$1; shift $(($# - 1)); last=$1
if [ "$first" != "$last" ]; then
	printf '%s over %s, us/droplet:\told %.2fx\tnew %.2fx\n' "$last" "$first" \
		"$(echo "$(cat "$T/us_old_$last") / $(cat "$T/us_old_$first")" | bc -l)" \
		"$(echo "$(cat "$T/us_new_$last") / $(cat "$T/us_new_$first")" | bc -l)"
fi
