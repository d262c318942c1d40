#!/bin/sh
# Bytes the explorer writes per frame over a pseudo-terminal, running and
# paused, in each colour tier. Run from the build directory:
#   sh ../bench/tui-bandwidth.sh [COLSxROWS] [RUNS]
# The run never stops at particles.budget (it is set to 0), so every frame is
# a running one. Per frame = (bytes for 10+N frames - bytes for 10 frames) / N, so the first
# full paint is left out; the median of RUNS runs is printed.
set -eu
size=${1:-160x48}
runs=${2:-3}
cols=${size%x*}
rows=${size#*x}
gully=${GULLY:-./gully}
pty=${PTYBYTES:-./bench/ptybytes}
N=100
[ -x "$gully" ] && [ -x "$pty" ] || { echo "build first: make gully bench/ptybytes" >&2; exit 1; }

# A direct-colour terminfo entry, so the truecolor tier can be measured where
# ncurses-term (xterm-direct) is not installed; colours 0-7 are the ANSI ones,
# as in xterm-direct and the entry gully compiles for COLORTERM.
ti=$(mktemp -d)
trap 'rm -rf "$ti"' EXIT
cat >"$ti/direct.src" <<'TI'
gully-direct|xterm-256color with direct colour for the benchmark,
	colors#0x1000000, pairs#0x10000, RGB,
	setaf=\E[%?%p1%{8}%<%t3%p1%d%e38;2;%p1%{65536}%/%d;%p1%{256}%/%{255}%&%d;%p1%{255}%&%d%;m,
	setab=\E[%?%p1%{8}%<%t4%p1%d%e48;2;%p1%{65536}%/%d;%p1%{256}%/%{255}%&%d;%p1%{255}%&%d%;m,
	use=xterm-256color,
TI
tic -x -o "$ti" "$ti/direct.src"

bytes() { # TERM FRAMES ARGS...
	t=$1
	f=$2
	shift 2
	env TERMINFO="$ti" TERM="$t" COLORTERM="${CT:-}" LANG=C.UTF-8 "$pty" "$cols" "$rows" \
		"$gully" --seed 1 --set particles.budget=0 --frames "$f" "$@" 2>/dev/null
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

measure() { # LABEL TERM ARGS...
	label=$1
	t=$2
	shift 2
	i=0
	while [ "$i" -lt "$runs" ]; do
		a=$(bytes "$t" 10 "$@")
		b=$(bytes "$t" $((10 + N)) "$@")
		echo $(((b - a) / N))
		i=$((i + 1))
	done | median | awk -v l="$label" '{printf "%-28s %8d bytes/frame\n", l, $1}'
}

echo "gully explorer bandwidth at ${cols}x${rows}, median of $runs runs, $N frames each (30 at fps 2 and 60, 10 at fps 1)"
measure "256 colours, running" xterm-256color
measure "256 colours, paused" xterm-256color --paused
measure "truecolor, running" gully-direct
measure "truecolor, paused" gully-direct --paused
# Truecolor as most SSH users get it: xterm-256color with COLORTERM.
CT=truecolor
measure "COLORTERM=truecolor, running" xterm-256color
CT=
measure "16 colours, running" xterm-256color --color=16
measure "monochrome, running" xterm-256color --color=none
measure "ASCII 256 colours, running" xterm-256color --ascii
# Many droplets per frame, as on a fast machine at the default 20 fps.
N=30
measure "256 colours, running, fps 2" xterm-256color --fps 2
measure "truecolor, running, fps 2" gully-direct --fps 2
# The frame rate keys' ends: 60 and 1 frames a second.
measure "truecolor, running, fps 60" gully-direct --fps 60
N=10
measure "truecolor, running, fps 1" gully-direct --fps 1
