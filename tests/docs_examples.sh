#!/bin/sh
# Every example in README.md and in gully(1)'s EXAMPLES runs as written, in
# order, in a scratch directory: README's ```sh blocks (but the quick start's
# and the build's, which install and build) with build/gully being the gully
# under test, and the manual's lines with gully being it. Other machines are
# this one: `parallel --sshlogin ANY` runs locally, and `sbatch` runs each
# task of the job array here with its SLURM_ARRAY_TASK_ID (the real Slurm
# test is tests/sweep_remote.sh). Skips (77) without GNU parallel.
set -u
GULLY=${GULLY:-./gully}
case $GULLY in /*) ;; *) GULLY=$(pwd)/$GULLY ;; esac
srcdir=${srcdir:-.}
case $srcdir in /*) ;; *) srcdir=$(pwd)/$srcdir ;; esac
command -v parallel >/dev/null || { echo "SKIP: no GNU parallel"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/gully-examples.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# What every example script starts with: the stand-ins for other machines.
cat >"$T/prelude.sh" <<'PRELUDE'
set -e
parallel() {
	args=""
	while [ $# -gt 0 ]; do
		case $1 in
		--sshlogin | -S) shift ;;
		*) args="$args $1" ;;
		esac
		shift
	done
	command parallel --sshlogin : $args
}
sbatch() {
	for script; do :; done
	range=$(sed -n 's/^#SBATCH --array=\([0-9]*\)-\([0-9]*\)$/\1 \2/p' "$script")
	set -- $range
	i=$1
	while [ "$i" -le "$2" ]; do
		SLURM_ARRAY_TASK_ID=$i sh "$script" || return 1
		i=$((i + 1))
	done
}
PRELUDE

# README.md: each ```sh block outside the quick start and the build section.
awk -v dir="$T" '
	/^## / { skip = ($0 ~ /Quick start|Building by hand/) }
	/^```sh$/ { if (!skip) { n++; file = sprintf("%s/readme-%02d.sh", dir, n); inblock = 1 }; next }
	/^```$/ { inblock = 0; next }
	inblock { print > file }
' "$srcdir/README.md"
# gully(1): the EXAMPLES between .nf and .fi, roff escapes undone.
sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$srcdir/man/gully.1.in" | sed -n '/^\.nf/,/^\.fi/p' |
	sed -e '/^\.nf/d' -e '/^\.fi/d' -e 's/\\-/-/g' -e 's/\\e/\\/g' \
	    -e 's/^gully /build\/gully /' -e 's/| *parallel/| parallel/' >"$T/man-01.sh"
# A line continued after a pipe or backslash may start with gully too.
sed -i 's/^\(    \)\?gully /\1build\/gully /' "$T/man-01.sh"

mkdir "$T/work" "$T/work/build"
ln -s "$GULLY" "$T/work/build/gully"
for script in "$T"/readme-*.sh "$T"/man-*.sh; do
	name=$(basename "$script" .sh)
	# Every gully the example names must be the one under test.
	if grep -E -q '(^|[^/])\bgully (run|sweep|render|info|presets)' "$script" &&
		grep -E '(^|[ (])gully ' "$script" | grep -v 'build/gully' | grep -q .; then
		fail "$name names a gully that is not build/gully"
	fi
	cat "$T/prelude.sh" "$script" >"$T/run.sh"
	if (cd "$T/work" && sh "$T/run.sh") >"$T/$name.out" 2>"$T/$name.err"; then
		echo "ok: $name ($(grep -c . "$script") lines)"
	else
		fail "$name: $(tail -n 3 "$T/$name.err")"
		sed 's/^/  | /' "$script"
	fi
done
# The examples' tables are real tables: the sweeps, run as written, give rows.
for f in sweep.tsv friction.tsv deposition.tsv; do
	[ -f "$T/work/$f" ] || continue
	[ "$(wc -l <"$T/work/$f")" -ge 2 ] || fail "$f has no rows"
done
[ -f "$T/work/friction.tsv" ] && [ "$(cut -f 1 "$T/work/friction.tsv" | sed 1d | tr '\n' ' ')" = \
	"0.02 0.08 0.14 0.2 " ] || fail "friction.tsv is not the 4-point grid: $(cut -f 1 "$T/work/friction.tsv" | tr '\n' ' ')"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
exit 0
