#!/bin/sh
# Hostile paths, files and values at the command line (issue 14): each block
# names the defect it holds shut. POSIX sh; make check exports GULLY.
. "$(dirname "$0")/clilib.sh"
SNAPFIX=${SNAPFIX:-./tests/fuzz/snapfix}
MAN=${srcdir:-.}/man
# expect_t: expect with no stdin and a time limit, so a command that would
# block for ever (on a FIFO, or an explorer waiting for a terminal) fails
# with exit 124 after 20 s instead of hanging the suite.
expect_t() {
	w=$1
	d=$2
	shift 3
	expect "$w" "$d" -- timeout 20 "$@" </dev/null
}
one_line() {
	n=$(wc -l <"$T/err")
	[ "$n" -eq "$1" ] || fail "expected $1 line(s) on stderr, got $n: $(cat "$T/err")"
}
RUN="$GULLY run --quiet --particles 10 --size 16x16"
RESUME="$GULLY run --quiet --particles 10"

# ---- 1: -o replaces only regular files ----
mkdir "$T/nodes"
if mknod "$T/nodes/null.gsnap" c 1 3 2>/dev/null; then
	expect_t 2 "-o onto a character device is refused" -- $RUN -o "$T/nodes/null.gsnap"
	err_has "not a regular file"
	[ -c "$T/nodes/null.gsnap" ] || fail "-o replaced a character device"
else
	echo "note: no mknod here (not root): the device case is skipped"
fi
mkfifo "$T/nodes/fifo.gsnap"
# Refused before the run (exit 2, no row of metrics), not after it.
ran() { [ -s "$T/out" ] && fail "$1: the run went ahead before the refusal"; one_line 2; }
expect_t 2 "-o onto a FIFO is refused" -- $RUN -o "$T/nodes/fifo.gsnap"
ran "FIFO"
err_has "fifo.gsnap: cannot create: not a regular file"
[ -p "$T/nodes/fifo.gsnap" ] || fail "-o replaced a FIFO"
mkdir "$T/nodes/dir.gsnap"
expect_t 2 "-o onto a directory is refused" -- $RUN -o "$T/nodes/dir.gsnap"
ran "directory"
err_has "dir.gsnap: cannot create"
ln -s /nonexistent-gully/d/x.gsnap "$T/nodes/nodir.gsnap"
expect_t 2 "-o through a symlink into no directory is refused" -- $RUN -o "$T/nodes/nodir.gsnap"
ran "dangling symlink"
err_has "nodir.gsnap: no directory /nonexistent-gully/d"
mkfifo "$T/nodes/fifo.png"
expect_t 2 "render -o onto a FIFO is refused before loading" -- "$GULLY" render "$T/no.gsnap" -o "$T/nodes/fifo.png"
err_has "fifo.png: cannot create: not a regular file"
: >"$T/nodes/plain"
expect_t 2 "sweep --save-maps onto a file is refused" -- "$GULLY" sweep --quiet --size 16x16 --particles 10 --vary world.seed=1,2 --save-maps "$T/nodes/plain"
err_has "save-maps .*plain: not a directory"
expect_t 2 "sweep --out onto a FIFO is refused" -- "$GULLY" sweep --quiet --size 16x16 --particles 10 --vary world.seed=1,2 --out "$T/nodes/fifo.png"
expect_t 2 "sweep -o names the option" -- "$GULLY" sweep --vary world.seed=1,2 -o x.gsnap
err_has "sweep: -o is for single runs"
[ -d "$T/nodes/dir.gsnap" ] || fail "-o replaced a directory"
# A symlink is written through: the link stays, its target is the snapshot.
mkdir "$T/real"
: >"$T/real/a.gsnap"
ln -s ../real/a.gsnap "$T/nodes/link.gsnap"
expect_t 0 "-o through a symlink" -- $RUN -o "$T/nodes/link.gsnap"
[ -L "$T/nodes/link.gsnap" ] || fail "-o replaced the symlink itself"
expect_t 0 "the symlink's target is the snapshot" -- "$GULLY" info "$T/real/a.gsnap"
ln -s "$T/real/new.png" "$T/nodes/dangling.png"
expect_t 0 "-o through a dangling symlink creates its target" -- $RUN -o "$T/nodes/dangling.png"
[ -L "$T/nodes/dangling.png" ] && [ -s "$T/real/new.png" ] || fail "dangling symlink not written through"
ln -s fifo.gsnap "$T/nodes/tofifo.gsnap"
expect_t 2 "-o through a symlink to a FIFO is refused" -- $RUN -o "$T/nodes/tofifo.gsnap"
[ -p "$T/nodes/fifo.gsnap" ] || fail "the FIFO behind a symlink was replaced"
ls "$T/nodes" "$T/real" | grep -q '\.tmp\.' && fail "a temporary file was left behind"

# ---- 1b: sweep MAP is a regular file, checked once before any run ----
# A directory named like a map failed every run; a FIFO fed its bytes to the
# first run only (or none). Refused up front as a missing map is: exit 1
# (a bad file, as for `gully run`), the file named, no run, nothing written.
mkdir "$T/nodes/dirmap.f32"
mkfifo "$T/nodes/fifomap.f32" "$T/nodes/fifomap.gsnap"
for map in dirmap.f32 fifomap.f32 fifomap.gsnap; do
	expect_t 1 "sweep from $map is refused" -- "$GULLY" sweep --quiet --particles 10 \
		--vary world.seed=1,2 --out "$T/out-$map" --save-maps "$T/maps-$map" "$T/nodes/$map"
	# In run's words: a snapshot "cannot open", a height map "cannot read".
	head -n 1 "$T/err" | grep -q "$map: cannot \(read\|open\): " || fail "sweep $map: $(cat "$T/err")"
	grep -q "point .* failed" "$T/err" && fail "sweep $map: a run went ahead"
	[ -s "$T/out" ] && fail "sweep $map printed rows"
	[ -e "$T/out-$map" ] || [ -e "$T/maps-$map" ] && fail "sweep $map wrote files"
done
[ -d "$T/nodes/dirmap.f32" ] && [ -p "$T/nodes/fifomap.f32" ] || fail "a refused sweep touched its MAP"
# A bare name that is no preset but a file (a directory here) is the map
# to start from, refused as `gully run` refuses it: once read as a preset,
# it was "--preset: no preset named 'adir'". A name that is nothing at all
# gets run's usage error too.
mkdir "$T/nodes/adir"
for cmd in "run --quiet --particles 10" "sweep --quiet --particles 10 --vary world.seed=1,2"; do
	expect_t 1 "${cmd%% *} from a directory" -- "$GULLY" $cmd "$T/nodes/adir"
	err_has "adir: cannot open: Is a directory"
	one_line 1
	expect_t 2 "${cmd%% *} from a name that is nothing" -- "$GULLY" $cmd "$T/nodes/nosuch"
	err_has "'$T/nodes/nosuch' is no file or preset"
done

# ---- 2: layer values are checked at load, by layer and cell ----
expect_t 0 "a 16x16 snapshot" -- $RUN -o "$T/s.gsnap"
# In format version 1 every layer's cells lie at fixed places.
"$SNAPFIX" --v1 "$T/s.gsnap" || fail "snapfix --v1 failed"
# patch NAME CELL BYTES: writes a float's 4 bytes (octal escapes) into cell
# CELL of layer NAME (its name is the last occurrence in the file), then
# fixes the CRCs.
patch() {
	cp "$T/s.gsnap" "$T/p.gsnap"
	at=$(grep -abo "$1" "$T/p.gsnap" | tail -n 1 | cut -d: -f1)
	off=$((at + ${#1} + 4 + 4 * $2))
	printf "$3" | dd of="$T/p.gsnap" bs=1 seek="$off" conv=notrunc 2>/dev/null
	"$SNAPFIX" "$T/p.gsnap" >/dev/null || fail "snapfix failed"
}
NAN='\000\000\300\177'
for layer in height base stream pool hardness wetness vegetation; do
	patch "$layer" 21 "$NAN"
	expect_t 1 "run refuses NaN in layer $layer" -- $RESUME "$T/p.gsnap"
	err_has "layer '$layer' cell 21 (x 5, y 1) is nan"
	one_line 1
	expect_t 1 "info exits 1 on NaN in layer $layer" -- "$GULLY" info "$T/p.gsnap"
	err_has "layer '$layer' cell 21"
	# The range in the message is the one gully-snapshot(5) lists.
	range=$(sed -n "s/.*outside \(.* to .*\)$/\1/p" "$T/err" | head -n 1)
	mrow=$(sed -n '/^Layer	Range/,/^\.TE/p' "$MAN/gully-snapshot.5" | grep -E "(^|, )$layer[	,]" |
		sed 's/\\-/-/g')
	case $mrow in
	*"	$range"*) ;;
	*) fail "gully-snapshot(5) says '$mrow' for $layer, the loader '$range'" ;;
	esac
done
patch pool 3 '\000\000\000\105' # 2048.0: past the flood's fixed-point sums
expect_t 1 "run refuses a pool of 2048" -- $RESUME "$T/p.gsnap"
err_has "layer 'pool' cell 3"
patch pool 3 '\000\000\200\277' # -1.0
expect_t 1 "render refuses a negative pool" -- "$GULLY" render "$T/p.gsnap" -o "$T/p.png"

# ---- 3: --hardness values near the float limit are refused, not NaN ----
# (Once stretched to NaN; now refused as outside 0..1, naming the cell. The
# core's stretch still keeps them in range: test_hardness.c.)
printf '\377\377\177\377\377\377\177\177\377\377\177\177\377\377\177\377' >"$T/big.f32"
expect_t 1 "emitter over a hardness map of +-FLT_MAX" -- "$GULLY" run --quiet --process emitter \
	--particles 300 --size 32x32 --hardness "$T/big.f32"
err_has "big.f32: cell 0 (x 0, y 0) is -3.40282e+38, outside 0 to 1"
printf '\000\000\200\177\000\000\000\000\000\000\000\000\000\000\000\000' >"$T/inf.f32"
expect_t 1 "--hardness refuses inf" -- "$GULLY" run --quiet --particles 10 --size 16x16 --hardness "$T/inf.f32"

# ---- 3b: sweep reads the files every run shares once, before any run ----
# A bad start map, --hardness or --rain failed every point: the run's error
# once per point (interleaved when the runs wrote at once), a "point N
# failed" line each, then "N of N runs failed". Now: run's one line, exit 1,
# no run started.
patch height 100 "$NAN"
cp "$T/p.gsnap" "$T/nan.gsnap"
head -c 100 /dev/zero >"$T/short.f32"
head -c 16 /dev/zero >"$T/zero.f32"
printf '\000\000\300\177\000\000\000\000\000\000\000\000\000\000\000\000' >"$T/nanh.f32"
"$GULLY" run --quiet --particles 0 --size 16x16 -o "$T/whole.png" >/dev/null 2>&1 || fail "run -o png"
head -c 60 "$T/whole.png" >"$T/cut.png"
SWEEP="$GULLY sweep --quiet --particles 10 --jobs 2 --vary world.seed=1,2,3"
for shared in "$T/nan.gsnap" "--size 16x16 $T/short.f32" "$T/cut.png" \
	"--size 16x16 --hardness $T/nanh.f32" "--size 16x16 --rain $T/zero.f32" \
	"$T/s.gsnap --rain $T/zero.f32"; do
	rm -rf "$T/sw-out"
	expect_t 1 "run: $shared" -- $RESUME $shared
	cp "$T/err" "$T/run.err"
	expect_t 1 "sweep checks once: $shared" -- $SWEEP --out "$T/sw-out" $shared
	one_line 1
	cmp -s "$T/err" "$T/run.err" || fail "sweep said '$(cat "$T/err")', run '$(cat "$T/run.err")'"
	[ -s "$T/out" ] && fail "sweep $shared printed rows"
	[ -e "$T/sw-out" ] && fail "sweep $shared went on to write --out"
done
# Runs that fail for their own reasons, four at once: each one's stderr
# comes whole, just before its "point N failed" line. They wrote straight
# to the sweep's stderr, so two runs' lines could mix mid-line ("gully:
# gully: ..."). Every line must be one of the three a failed point gives,
# in that order.
expect_t 1 "sweep of failing runs" -- "$GULLY" sweep --quiet --particles 10 --size 16x16 \
	--jobs 4 --vary hardness.generator=file --vary world.seed=1:8:1
awk -v want=8 '
	/^gully run: hardness\.generator=file needs --hardness FILE$/ { if (st != 0) bad = NR; st = 1; n++; next }
	/^Try .gully run --help.\.$/ { if (st != 1) bad = NR; st = 2; next }
	/^gully sweep: point [0-7] failed: gully run .*--set world\.seed=[1-8]$/ { if (st != 2) bad = NR; st = 0; next }
	/^gully: 8 of 8 runs failed$/ { if (st != 0 || NR != 3 * want + 1) bad = NR; last = 1; next }
	{ bad = NR }
	END { exit !(n == want && last && !bad) }' "$T/err" ||
	fail "failed runs' stderr is not whole, one point after another: $(cat "$T/err")"

# ---- 4: listing presets peeks only as deep as a preset goes ----
mkdir "$T/presets"
# 100,000 deep: libyaml's time grows with the square of the depth.
awk 'BEGIN { n = 100000; s = "world: "; for (i = 0; i < n; i++) s = s "["; for (i = 0; i < n; i++) s = s "]"; print s }' \
	>"$T/presets/deep.yaml"
printf 'description: fine\nworld: {seed: 3}\n' >"$T/presets/fine.yaml"
# A CPU limit, not a timing: a peek that reads only the top levels takes
# milliseconds; one that parses 100,000 levels took 18 s and more.
(
	ulimit -t 10
	GULLY_PRESET_PATH="$T/presets" "$GULLY" presets >"$T/out" 2>"$T/err"
	echo $? >"$T/st"
)
[ "$(cat "$T/st")" = 0 ] || fail "gully presets over a deeply nested preset: exit $(cat "$T/st")"
grep -q "^fine *particles *fine" "$T/out" || grep -q "fine" "$T/out" || fail "presets lost the good preset"
echo "ok: presets with a deep preset"

# ---- 8: a FIFO never blocks a reader ----
mkfifo "$T/f.gsnap" "$T/f.yaml" "$T/f.f32" "$T/fifo"
expect_t 1 "info on a FIFO" -- "$GULLY" info "$T/f.gsnap"
err_has "not a regular file"
expect_t 1 "info on a FIFO without an extension" -- "$GULLY" info "$T/fifo"
expect_t 1 "run from a FIFO" -- $RESUME "$T/f.gsnap"
expect_t 1 "render from a FIFO" -- "$GULLY" render "$T/f.gsnap" -o "$T/x.png"
expect_t 1 "run -p a FIFO" -- $RUN -p "$T/f.yaml"
err_has "a FIFO with no writer"
# A height map, hardness or rain mask from a FIFO nobody writes to is said
# to be one, as a snapshot's is, not "0 bytes is not a square map".
expect_t 1 "run --hardness a FIFO" -- $RUN --hardness "$T/f.f32"
err_has "f.f32: cannot read: not a regular file but a FIFO with no writer"
one_line 1
expect_t 1 "run --rain a FIFO" -- $RUN --rain "$T/f.f32"
err_has "f.f32: cannot read: not a regular file but a FIFO with no writer"
expect_t 1 "run from a FIFO height map" -- "$GULLY" run --quiet --particles 10 "$T/f.f32"
err_has "f.f32: cannot read: not a regular file but a FIFO with no writer"
one_line 1
# One with a writer is read, as gully(1) promises for height maps.
$RUN --particles 0 -o "$T/fed.f32" >/dev/null 2>&1 || fail "run -o fed.f32"
timeout 20 sh -c 'cat "$1" >"$2"' sh "$T/fed.f32" "$T/f.f32" &
feeder=$!
sleep 0.2
expect_t 0 "run from a FIFO height map with a writer" -- "$GULLY" run --quiet --particles 10 "$T/f.f32"
kill "$feeder" 2>/dev/null
wait "$feeder" 2>/dev/null

# ---- 9: the explorer wants a terminal ----
expect_t 1 "explorer with stdin and stdout not a terminal" -- env TERM=xterm HOME="$T/home" XDG_STATE_HOME="$T/state" "$GULLY" --paused
err_has "needs a terminal"
err_has "gully run"
one_line 1
[ -s "$T/out" ] && fail "the explorer wrote to a non-terminal stdout"

# ---- 10: --set values are quoted and cut ----
expect_t 2 "--set with a newline and escapes" -- $RUN --set "world.seed=$(printf 'a\nb\033[2J')"
one_line 2
grep -q "$(printf '\033')" "$T/err" && fail "an escape byte reached stderr"
err_has "'a?b?\[2J'"
long=$(awk 'BEGIN { for (i = 0; i < 12000; i++) printf "0123456789" }')
expect_t 2 "--set with a 120 KB value" -- $RUN --set "particles.dt=$long"
[ "$(wc -c <"$T/err")" -lt 400 ] || fail "a 120 KB value gave a $(wc -c <"$T/err")-byte message"
err_has "\.\.\."
expect_t 2 "--set with a newline in the key" -- $RUN --set "$(printf 'a\nb')=1"
one_line 2

# ---- 11: --size 0xN is an error, in run, sweep and the explorer ----
for s in 0x0 0x600 600x0 15x16 4097x16; do
	expect_t 2 "run --size $s" -- $RUN --size "$s"
	err_has "outside 16 to 4096"
done
expect_t 2 "sweep --size 0x600" -- "$GULLY" sweep --size 0x600 --vary world.seed=1,2
expect_t 2 "explorer --size 0x0" -- env HOME="$T/home" XDG_STATE_HOME="$T/state" "$GULLY" --size 0x0
expect_t 2 "sweep range in hex" -- "$GULLY" sweep --vary world.seed=0x1:0x3:1
expect_t 2 "sweep range of inf" -- "$GULLY" sweep --vary particles.dt=0.1:inf:0.1

# ---- 12: gully-snapshot(5)'s size limit is the registry's ----
max=$("$GULLY" params world | awk '$1 == "world.width" { split($3, r, "\\.\\."); print r[1] " to " r[2] }')
grep -q "cells per row, $max" "$MAN/gully-snapshot.5" ||
	fail "gully-snapshot(5) does not give world.width's range $max"
grep -q "8192" "$MAN/gully-snapshot.5" && fail "gully-snapshot(5) still says 8192"
echo "ok: gully-snapshot(5) sizes"

# ---- 13: the explorer's refusals name the option, not its value ----
E="env HOME=$T/home XDG_STATE_HOME=$T/state $GULLY"
expect_t 2 "explorer --particles 10" -- $E --particles 10
err_has "^gully: --particles is for 'gully run'"
expect_t 2 "explorer --rain FILE" -- $E --rain height.png
err_has "^gully: --rain is for 'gully run'"
grep -q "height.png" "$T/err" && fail "the refusal names the value: $(cat "$T/err")"
expect_t 2 "explorer --steps=5" -- $E --steps=5
err_has "^gully: --steps is for"
expect_t 2 "explorer -o FILE" -- $E -o x.gsnap
err_has "^gully: -o is for"
expect_t 2 "explorer --resume PRESET" -- $E --resume river-valley
err_has "--resume takes no preset"

# ---- 13b: -h is --help for every command, and the explorer's help names
# every option it takes ----
for c in run sweep render info params presets; do
	expect_t 0 "$c -h" -- "$GULLY" $c -h
	cp "$T/out" "$T/h.out"
	expect_t 0 "$c --help" -- "$GULLY" $c --help
	cmp -s "$T/h.out" "$T/out" || fail "$c -h is not $c --help"
	grep -q "^Usage: gully $c" "$T/out" || fail "$c --help: no usage line"
	# Within 80 columns, but for an installed path (its prefix decides).
	wide=$(awk 'length($0) > 80 && !/\/gully/ { print NR ": " $0; exit }' "$T/out")
	[ -z "$wide" ] || fail "$c --help is wider than 80 columns at line $wide"
done
expect_t 0 "-h" -- "$GULLY" -h
expect_t 0 "explorer --paused -h" -- $E --paused -h
grep -q "^Usage: gully \[options\] \[PRESET|SNAPSHOT|HEIGHTMAP\]" "$T/out" ||
	fail "explorer -h: $(head -n 1 "$T/out")"
"$GULLY" --help >"$T/help" 2>&1
grep -q "PRESET|SNAPSHOT|HEIGHTMAP" "$T/help" || fail "gully --help names no height map"
wide=$(awk 'length($0) > 80 && !/\/gully/ { print NR ": " $0; exit }' "$T/help")
[ -z "$wide" ] || fail "gully --help is wider than 80 columns at line $wide"
for opt in --range --transpose --dump-preset --hardness --resume --paused --color --fps; do
	grep -q -- "^  $opt" "$T/help" || fail "gully --help lacks the explorer's $opt"
done
# The height map options it lists, the explorer takes (a refusal exits 2).
$RUN --particles 0 -o "$T/fed.r16" >/dev/null 2>&1 || fail "run -o fed.r16"
for opt in "--range 0:2" --transpose; do
	expect_t 1 "explorer $opt with a height map" -- $E $opt "$T/fed.r16"
	err_has "needs a terminal"
done

# ---- 14: output stdout could not take is a failure, said in one line ----
# Every command that prints (not only run's metrics): a preset dumped into a
# full disk came out empty with exit 0.
if [ -w /dev/full ]; then
	$RUN -o "$T/full.gsnap" >/dev/null 2>&1 || fail "run -o full.gsnap"
	full() {
		d=$1
		shift 2
		timeout 20 "$@" </dev/null >/dev/full 2>"$T/err"
		st=$?
		if [ "$st" -ne 1 ]; then
			fail "$d into a full stdout: exit $st, expected 1"
		else
			echo "ok: $d into a full stdout"
		fi
		err_has "^gully: cannot write .* to stdout: "
		one_line 1
	}
	P="env GULLY_PRESET_PATH=${srcdir:-.}/presets $GULLY"
	full "run" -- $RUN
	full "run --json" -- $RUN --json
	full "run --dump-preset" -- $P run --dump-preset
	full "explorer --dump-preset" -- $P --dump-preset
	full "params" -- "$GULLY" params
	full "params --man" -- "$GULLY" params --man
	full "presets" -- $P presets
	full "presets --json" -- $P presets --json
	full "presets river-valley" -- $P presets river-valley
	full "presets --json river-valley" -- $P presets --json river-valley
	full "info SNAPSHOT" -- "$GULLY" info "$T/full.gsnap"
	full "info PRESET" -- $P info river-valley
	full "render --ansi" -- "$GULLY" render "$T/full.gsnap" --ansi=256 --columns 16
	full "--help" -- "$GULLY" --help
	full "--version" -- "$GULLY" --version
	for c in run sweep render info params presets; do
		full "$c --help" -- "$GULLY" $c --help
	done
else
	echo "note: no /dev/full here: the full stdout cases are skipped"
fi

# ---- 15: an -o where no file can be made is refused before the run ----
# (As root access() says yes to /proc; the save after the run then failed
# and the run's work was lost.)
if [ -d /proc/self ]; then
	expect 2 "-o into /proc" -- "$GULLY" run --quiet --particles 10 --size 16x16 -o /proc/x.gsnap
	err_has "-o /proc/x.gsnap: cannot"
	[ -s "$T/out" ] && fail "the run went ahead before refusing -o /proc/x.gsnap"
fi
ls -a . "$T" | grep -q '^\.gully-check-' && fail "the -o check left its probe file behind"

# ---- 16: a sweep's rows on the terminal its bar is on ----
# The bar is cleared before rows are printed under it: each row starts its
# line (the text after a line's last carriage return is what shows).
if command -v script >/dev/null 2>&1; then
	script -qc "'$GULLY' sweep --vary world.seed=1:4:1 --particles 20000 --size 64x64 --jobs 2" \
		/dev/null >"$T/tty" 2>&1 </dev/null || fail "sweep under a terminal failed"
	# (A terminal ends lines with CR LF: that CR is not one.)
	tr -d '\033' <"$T/tty" | sed 's/\r$//' | awk -F'\r' '/\t/ { line = $NF; sub(/^\[K/, "", line)
		if (line !~ /^(world\.seed|[0-9])/) { print "row glued to the bar: " line; bad = 1 } }
		END { exit bad }' || fail "sweep rows printed after the bar on its line"
	grep -q "4/4 runs" "$T/tty" || fail "no progress bar under a terminal (the check proves nothing)"
else
	echo "note: no script(1) here: the sweep-on-a-terminal case is skipped"
fi

# ---- 17: a run driven out of the model's range stops and says why ----
# Valid but unstable parameters: light droplets that never slow (friction 0)
# dig past the height range a snapshot may hold within a few thousand
# droplets. The run stops there, names the parameters to change, and
# writes nothing (its world is no result: no row, no snapshot gully would
# refuse, no picture of it).
unstable="--process particles --size 33x32 --set particles.deposition_rate=0.5
	--set particles.friction=0"
expect_t 1 "an unstable run stops" -- "$GULLY" run --quiet $unstable \
	--set particles.density=0.1 --particles 10000 \
	-o "$T/unstable.gsnap" -o "$T/unstable.png"
err_has "particles went unstable after [0-9]* of 10000 droplets: height -*[0-9.e+]* at x [0-9]*, y [0-9]* (past +-1e+06)"
err_has "raise particles.density, or lower particles.deposition_rate or particles.dt; nothing written"
one_line 1
grep -q "after 10000 of" "$T/err" && fail "the unstable run was not stopped before its end"
[ -s "$T/out" ] && fail "an unstable run printed a metrics row"
[ -e "$T/unstable.gsnap" ] && fail "an unstable run wrote a snapshot"
[ -e "$T/unstable.png" ] && fail "an unstable run wrote a picture"
# In a sweep the unstable point fails with that line; the stable one runs.
expect_t 1 "a sweep with an unstable point" -- "$GULLY" sweep $unstable --particles 10000 \
	--vary particles.density=0.1,1 --jobs 1
err_has "particles went unstable"
err_has "point 0 failed"
grep -q "point 1 failed" "$T/err" && fail "the stable point failed: $(cat "$T/err")"
grep -q "^0.1[[:space:]]*failed" "$T/out" || fail "the unstable point's row is not marked failed: $(cat "$T/out")"
grep -q "^1[[:space:]]particles" "$T/out" || fail "the stable point has no row: $(cat "$T/out")"

echo "checks done"
finish
