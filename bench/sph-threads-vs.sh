#!/bin/sh
# Two threads over one for SPH, two builds alternated round by round in the
# same minutes (bench/SPH.md, issue 11): the host's speed drifts by tens of
# percent within an hour, so a build is only ever compared with another in
# the same rounds.
#   bench/sph-threads-vs.sh BUILD_A BUILD_B [ROUNDS [PARTICLES [SCENES]]]
# Each round runs `bench_sph --scene S --particles N --runs 5 --threads 1,2`
# from each build's bench/ directory, scene by scene, and prints one line:
# round, build, scene, wall steps/s on 1 and 2 threads, their ratio. The
# last lines give each build's and scene's median ratio and how many rounds
# reached 1.7.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 BUILD_A BUILD_B [ROUNDS [PARTICLES [SCENES]]]" >&2; exit 2; }
A=$1 B=$2 R=${3:-6} N=${4:-5000} SCENES=${5:-pool jet}
for b in "$A" "$B"; do
	[ -x "$b/bench/bench_sph" ] || { echo "$0: $b/bench/bench_sph: not built (make bench/bench_sph)" >&2; exit 2; }
done
out=$(mktemp) && trap 'rm -f "$out"' EXIT
r=1
while [ $r -le "$R" ]; do
	for b in "$A" "$B"; do
		for sc in $SCENES; do
			"$b/bench/bench_sph" --scene "$sc" --particles "$N" --runs 5 --threads 1,2 |
				awk -F'\t' -v b="$b" -v sc="$sc" -v r=$r \
					'NR > 1 { w[$3] = $5 } END { printf "%d %s %s %s %s %.3f\n", r, b, sc, w[1], w[2], w[2] / w[1] }' |
				tee -a "$out"
		done
	done
	r=$((r + 1))
done
sort -k2,3 -k6n "$out" | awk '
	{ k = $2 " " $3; v[k, ++n[k]] = $6; hit[k] += $6 >= 1.7 }
	END { for (k in n) { m = n[k]; med = m % 2 ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
		printf "median %s %.3f, %d of %d rounds at 1.7 or more\n", k, med, hit[k], m } }' | sort
