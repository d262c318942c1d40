#!/bin/sh
# Maps in and out as terrain tools expect: a 1025x1025 .r16 in with its
# range, eroded, and height, erosion, deposition and flow out as 16-bit PNG
# and .r16; round trips exact within 16-bit resolution; data layers equal to
# what they are defined as; pictures scaled; the map as terminal text.
. "$(dirname "$0")/clilib.sh"
ok() { echo "ok: $*"; }
# png_head FILE: width height depth colour-type from the IHDR chunk.
png_head() {
	od -An -tu1 -j16 -N10 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4,
		$5*16777216+$6*65536+$7*256+$8, $9, $10 }'
}
# floats FILE.f32: one value a line.
floats() { od -An -v -tf4 -w4 "$1" | tr -d ' '; }
# max_diff A.f32 B.f32: the largest difference, cell by cell.
max_diff() {
	floats "$1" >"$T/fa"
	floats "$2" >"$T/fb"
	paste "$T/fa" "$T/fb" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d }
		END { printf "%.9g\n", m }'
}

# The artist's way: a 1025x1025 .r16 from another tool, heights 200..1800 m.
"$GULLY" run --quiet --size 1025x1025 --particles 0 -o "$T/src.gsnap" >/dev/null ||
	fail "making the source map"
"$GULLY" render "$T/src.gsnap" -o "$T/terrain.r16" --range 0:1 2>"$T/err" ||
	fail "render .r16 --range: $(cat "$T/err")"
grep -q "stretched over 0..65535 (read back with --range 0:1)" "$T/err" ||
	fail "render did not say its range: $(cat "$T/err")"
"$GULLY" run --particles 20000 --range 200:1800 "$T/terrain.r16" -o "$T/eroded.gsnap" \
	>"$T/out" 2>"$T/err" || fail "run on the 1025x1025 .r16: $(cat "$T/err")"
grep -q "read 1025x1025 16-bit heights, range" "$T/err" || fail "no word of what was read"
for layer in height erosion deposition flow; do
	"$GULLY" render "$T/eroded.gsnap" --layer $layer --gray16 -o "$T/$layer.png" \
		-o "$T/$layer.r16" 2>"$T/err" || fail "render $layer: $(cat "$T/err")"
	[ "$(png_head "$T/$layer.png")" = "1025 1025 16 0" ] ||
		fail "$layer.png is not 1025x1025 16-bit grey: $(png_head "$T/$layer.png")"
	[ "$(wc -c <"$T/$layer.r16")" -eq $((1025 * 1025 * 2)) ] || fail "$layer.r16 size"
done
# The heights kept their metres: height.r16 reads back with the range render
# said, within half a 16-bit step.
range=$("$GULLY" render "$T/eroded.gsnap" -o "$T/height.r16" 2>&1 |
	sed -n 's/.*read back with --range \([^)]*\)).*/\1/p')
"$GULLY" render "$T/eroded.gsnap" -o "$T/eroded.f32"
"$GULLY" run --quiet --particles 0 --range "$range" "$T/height.r16" -o "$T/back.f32" >/dev/null ||
	fail "run height.r16 --range $range"
d=$(max_diff "$T/eroded.f32" "$T/back.f32")
awk -v d="$d" -v r="$range" 'BEGIN { split(r, a, ":"); exit !(a[1] >= 200 && a[2] <= 1800 && a[1] < a[2] &&
	d <= (a[2] - a[1]) / 65535 / 2 * 1.001 + 1e-4) }' ||
	fail "1025x1025 heights $range came back off by $d"
ok "1025x1025 in, four layers out as 16-bit PNG and .r16"

# Round trips: exact within 16-bit resolution, with --range both ways.
"$GULLY" run --quiet --size 96x40 --particles 3000 -o "$T/a.gsnap" >/dev/null
"$GULLY" render "$T/a.gsnap" -o "$T/a.f32"
for range in 0:1 -50:150 -1:2; do
	"$GULLY" render "$T/a.gsnap" -o "$T/rt_96x40.r16" --range "$range" 2>/dev/null
	"$GULLY" run --quiet --particles 0 --range "$range" "$T/rt_96x40.r16" -o "$T/rt.f32" \
		>/dev/null || fail "run rt.r16 --range $range"
	lo=${range%:*}
	hi=${range#*:}
	d=$(max_diff "$T/a.f32" "$T/rt.f32")
	# Half a 16-bit step, and float32's own rounding of the result.
	awk -v d="$d" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(d <= (hi - lo) / 65535 / 2 * 1.001 + 1e-6 * (hi > -lo ? hi : -lo)) }' ||
		fail "--range $range round trip off by $d"
done
ok "--range round trips within half a 16-bit step"
# The same map through a 16-bit PNG and a transposed .f32 written by hand.
"$GULLY" render "$T/a.gsnap" -o "$T/a16.png" --gray16 --range 0:1 2>/dev/null
"$GULLY" run --quiet --particles 0 "$T/a16.png" -o "$T/png.f32" >/dev/null || fail "run a16.png"
d=$(max_diff "$T/a.f32" "$T/png.f32")
awk -v d="$d" 'BEGIN { exit !(d <= 0.5 / 65535 + 1e-7) }' || fail "16-bit PNG round trip off by $d"
ok "16-bit PNG round trip"

# A damaged PNG: one line naming the file and libpng's reason, nothing of
# libpng's own on stderr, exit 1.
head -c 40 "$T/a16.png" >"$T/cut.png"
"$GULLY" run --quiet --particles 0 "$T/cut.png" -o "$T/cut.f32" >/dev/null 2>"$T/err" &&
	fail "a damaged PNG was read"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "a damaged PNG gave $(wc -l <"$T/err") lines: $(cat "$T/err")"
grep -q "^gully: $T/cut.png: damaged PNG" "$T/err" || fail "damaged PNG: $(cat "$T/err")"
[ -e "$T/cut.f32" ] && fail "a refused run wrote a file"
ok "a damaged PNG is one line"

# A height out of the range gully's snapshots hold (1e30 at x 3, y 5 of a
# 32x32 .f32) is refused at import, naming the file and the cell; else the
# run wrote a snapshot that could never be loaded.
{ head -c $((4 * 163)) /dev/zero; printf '\312\362\111\161'
  head -c $((4 * (1024 - 164))) /dev/zero; } >"$T/big_32x32.f32"
"$GULLY" run --quiet --particles 100 "$T/big_32x32.f32" -o "$T/big.gsnap" >/dev/null 2>"$T/err"
[ $? -eq 1 ] || fail "a height of 1e30 was not refused with exit 1"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "a height of 1e30: $(cat "$T/err")"
grep -q "big_32x32.f32: cell 163 (x 3, y 5) is 1e+30, outside" "$T/err" ||
	fail "a height of 1e30: no file and cell: $(cat "$T/err")"
[ -e "$T/big.gsnap" ] && fail "a refused height map wrote a snapshot"
ok "a height beyond the snapshot's range is refused at import"

# Data layers are what they say: erosion = max(0, base - height), deposition
# = max(0, height - base), flow = the stream map.
"$GULLY" render "$T/a.gsnap" --layer base -o "$T/base.f32"
for layer in erosion deposition; do
	"$GULLY" render "$T/a.gsnap" --layer $layer -o "$T/$layer.f32" 2>/dev/null
done
floats "$T/base.f32" >"$T/fb"
floats "$T/a.f32" >"$T/fh"
floats "$T/erosion.f32" >"$T/fe"
floats "$T/deposition.f32" >"$T/fd"
paste "$T/fb" "$T/fh" "$T/fe" "$T/fd" | awk '
	{ e = $1 - $2; if (e < 0) e = 0; dd = $2 - $1; if (dd < 0) dd = 0
	  if ($3 - e > 1e-6 || e - $3 > 1e-6 || $4 - dd > 1e-6 || dd - $4 > 1e-6) bad++
	  if ($3 > 0) pos++ }
	END { exit !(bad == 0 && pos > 0) }' || fail "erosion/deposition are not base - height"
"$GULLY" run --quiet --process hydrology --size 64x64 --particles 5000 -o "$T/h.gsnap" >/dev/null
"$GULLY" render "$T/h.gsnap" --layer flow -o "$T/flow.f32" 2>/dev/null
"$GULLY" render "$T/h.gsnap" --layer stream -o "$T/stream.f32" 2>/dev/null
cmp -s "$T/flow.f32" "$T/stream.f32" || fail "flow is not the stream map"
ok "erosion, deposition and flow are their definitions"

# Pictures: data layers on their own ramp with a legend bar; --scale.
"$GULLY" render "$T/a.gsnap" --layer erosion -o "$T/e.png" --scale 3 2>"$T/err"
[ "$(png_head "$T/e.png")" = "288 150 8 2" ] || fail "erosion picture: $(png_head "$T/e.png")"
grep -q "erosion ramp from 0" "$T/err" || fail "the ramp's range is not said"
"$GULLY" render "$T/a.gsnap" -o "$T/h.png" --scale 2
[ "$(png_head "$T/h.png")" = "192 80 8 2" ] || fail "--scale 2: $(png_head "$T/h.png")"
"$GULLY" render "$T/a.gsnap" --layer height -o "$T/h1.png"
"$GULLY" render "$T/a.gsnap" --layer erosion -o "$T/e1.png" 2>/dev/null
cmp -s "$T/h1.png" "$T/e1.png" && fail "erosion drew the terrain's picture"
ok "data pictures and --scale"

# The map as terminal text.
"$GULLY" render "$T/a.gsnap" --ansi=none --columns 48 >"$T/ansi" || fail "--ansi=none"
[ "$(wc -l <"$T/ansi")" -eq 10 ] || fail "--ansi=none: $(wc -l <"$T/ansi") lines, not 10"
[ "$(awk '{ print length }' "$T/ansi" | sort -u)" = 48 ] || fail "--ansi=none lines not 48 wide"
"$GULLY" render "$T/a.gsnap" --ansi=truecolor --columns 20 >"$T/ansi"
grep -q "$(printf '\033')\[38;2;" "$T/ansi" || fail "--ansi=truecolor has no 24-bit colours"
"$GULLY" render "$T/a.gsnap" --ansi=256 --columns 20 >"$T/ansi"
grep -q "$(printf '\033')\[48;5;" "$T/ansi" || fail "--ansi=256 has no 256-colour backgrounds"
"$GULLY" render "$T/a.gsnap" --ansi=17 >/dev/null 2>&1
[ $? -eq 2 ] || fail "--ansi=17 not refused"
ok "--ansi"
# Without --columns, the width the progress bar reads: $COLUMNS when stdout
# is no terminal, a whole number or not at all (30x was taken as 30).
COLUMNS=30 "$GULLY" render "$T/a.gsnap" --ansi=none >"$T/ansi"
[ "$(awk '{ print length }' "$T/ansi" | sort -u)" = 30 ] || fail "--ansi with COLUMNS=30 not 30 wide"
COLUMNS=30x "$GULLY" render "$T/a.gsnap" --ansi=none >"$T/ansi"
[ "$(awk '{ print length }' "$T/ansi" | sort -u)" = 80 ] || fail "--ansi with COLUMNS=30x not 80 wide"
# --ansi takes the tier names the explorer's --color takes (24bit was
# refused by one and taken by the other): one table, so the same words.
"$GULLY" render "$T/a.gsnap" --ansi=truecolor --columns 20 >"$T/true"
"$GULLY" render "$T/a.gsnap" --ansi=24bit --columns 20 >"$T/ansi" || fail "--ansi=24bit refused"
cmp -s "$T/true" "$T/ansi" || fail "--ansi=24bit is not --ansi=truecolor"
for name in truecolor 24bit direct 256 16 8 none mono 0 17 TrueColor; do
	"$GULLY" render "$T/a.gsnap" --ansi="$name" --columns 20 >/dev/null 2>&1
	ansi_st=$?
	"$GULLY" --color="$name" --dump-preset >/dev/null 2>&1
	color_st=$?
	[ "$ansi_st" -eq "$color_st" ] ||
		fail "--ansi=$name exits $ansi_st, --color=$name $color_st"
done
ok "--ansi and --color take the same tier names"

# --ansi's default is the terminal's, as the explorer picks it: terminfo's
# colours for TERM (the Linux console's 16, xterm's 8, none on a vt100) and
# ASCII without a UTF-8 locale (256 colours and half blocks were printed
# whatever the terminal). ansi TERM LOCALE: the output in $T/ansi.
ESC=$(printf '\033')
UTF=$(printf '\342')
ansi() {
	env -u NO_COLOR -u COLORTERM -u LANG -u LC_CTYPE TERM="$1" LC_ALL="$2" \
		"$GULLY" render "$T/a.gsnap" --ansi --columns 20 >"$T/ansi" || fail "--ansi on TERM=$1"
}
# COLORTERM in any case, as the explorer reads it: TrueColor gave 256 here.
for ct in TrueColor 24BIT; do
	env -u NO_COLOR TERM=xterm-256color COLORTERM=$ct LC_ALL=C \
		"$GULLY" render "$T/a.gsnap" --ansi --columns 20 >"$T/ansi" || fail "--ansi, COLORTERM=$ct"
	grep -q "$ESC\[38;2;" "$T/ansi" || fail "COLORTERM=$ct did not give --ansi truecolor"
done
ok "--ansi reads COLORTERM in any case"
if infocmp linux >/dev/null 2>&1 && infocmp xterm >/dev/null 2>&1 &&
	infocmp vt100 >/dev/null 2>&1 && locale -a | grep -qix 'c.utf-\{0,1\}8'; then
	ansi linux C.UTF-8
	grep -q "$ESC\[38;5;" "$T/ansi" && fail "TERM=linux got 256 colours"
	grep -q "$ESC\[4[0-7]m" "$T/ansi" || fail "TERM=linux got no ANSI colours"
	ansi xterm C.UTF-8
	grep -q "$ESC\[38;5;" "$T/ansi" && fail "TERM=xterm (8 colours) got 256 colours"
	grep -q "$ESC\[9[0-7]m" "$T/ansi" && fail "TERM=xterm (8 colours) got bright colours"
	grep -q "$ESC\[3[0-7]m" "$T/ansi" || fail "TERM=xterm got no ANSI colours"
	ansi vt100 C.UTF-8
	grep -q "$ESC" "$T/ansi" && fail "TERM=vt100 (no colour) got escapes"
	grep -q "$UTF" "$T/ansi" && fail "TERM=vt100 (no colour) got UTF-8 glyphs"
	ansi xterm-256color C
	grep -q "$UTF" "$T/ansi" && fail "a C locale got UTF-8 half blocks"
	grep -q "$ESC\[38;5;" "$T/ansi" || fail "TERM=xterm-256color in C: no 256 colours"
	ansi xterm-256color C.UTF-8
	grep -q "$UTF" "$T/ansi" || fail "a UTF-8 locale got no half blocks"
	ok "--ansi follows the terminal and the locale"
else
	echo "note: no linux/xterm/vt100 terminfo or C.UTF-8 locale: the --ansi tier checks skipped"
fi

# A rain mask: droplets start only where it rains. Short-lived droplets
# (evaporating fast) on a mask raining on the left 24 columns of 64 leave
# the right third untouched; without the mask they do not.
{
	printf 'P5\n64 64\n255\n'
	y=0
	while [ $y -lt 64 ]; do
		printf '\377%.0s' $(seq 24)
		printf '\000%.0s' $(seq 40)
		y=$((y + 1))
	done
} >"$T/rain.pgm"
# touched FILE.f32: the columns (x of 64) with any non-zero cell.
touched() { floats "$1" | awk '$1 != 0 { print (NR - 1) % 64 }' | sort -n -u | tr '\n' ' '; }
short="--size 64x64 --particles 5000 --set particles.evap_rate=0.1 --set particles.min_volume=0.5"
for mask in with without; do
	rain=""
	[ $mask = with ] && rain="--rain $T/rain.pgm"
	"$GULLY" run --quiet $short $rain -o "$T/rain-$mask.gsnap" >/dev/null || fail "run $mask rain"
	for layer in erosion deposition; do
		"$GULLY" render "$T/rain-$mask.gsnap" --layer $layer -o "$T/$layer-$mask.f32" 2>/dev/null
	done
done
for layer in erosion deposition; do
	right=$(touched "$T/$layer-with.f32" | tr ' ' '\n' | awk '$1 >= 40' | head -n 1)
	[ -z "$right" ] || fail "rain on the left, $layer at column $right"
	touched "$T/$layer-with.f32" | grep -q '^0 ' || fail "rain on the left, no $layer there"
	touched "$T/$layer-without.f32" | tr ' ' '\n' | awk '$1 >= 40' | grep -q . ||
		fail "without a mask, no $layer on the right (the test proves nothing)"
done
"$GULLY" run --quiet --process hydrology --size 64x64 --particles 500 --rain "$T/rain.pgm" \
	>/dev/null || fail "hydrology with a rain mask"
{ printf 'P5\n16 16\n255\n'; head -c 256 /dev/zero; } >"$T/dry.pgm"
"$GULLY" run --quiet --particles 10 --rain "$T/dry.pgm" >/dev/null 2>"$T/err"
[ $? -eq 1 ] && grep -q "not all 0" "$T/err" || fail "an all-dry mask: $(cat "$T/err")"
"$GULLY" sweep --vary particles.dt=1 --rain "$T/rain.pgm" --emit >"$T/out"
grep -q -- "--rain $T/rain.pgm" "$T/out" || fail "sweep --emit lost --rain"
ok "--rain"
# The mask is not in the snapshot: the snapshot names it (info shows it),
# and going on from it without --rain says so rather than change the run
# silently (an interrupted run's rest would no longer end as one that never
# stopped).
"$GULLY" info "$T/rain-with.gsnap" >"$T/info"
mask=$(cd "$T" && pwd -P)/rain.pgm
grep -q "^rain mask: *$mask\$" "$T/info" || fail "info does not name the rain mask: $(cat "$T/info")"
"$GULLY" info "$T/rain-without.gsnap" | grep -q "^rain mask" &&
	fail "info names a rain mask a run without one did not have"
"$GULLY" run --quiet --particles 10 "$T/rain-with.gsnap" >/dev/null 2>"$T/err" ||
	fail "going on from a rain run"
grep -q "rain-with.gsnap: its droplets started by the rain mask $mask, .* (--rain $mask goes on as it did)" \
	"$T/err" || fail "going on without the mask said nothing: $(cat "$T/err")"
"$GULLY" run --quiet --particles 10 "$T/rain-with.gsnap" --rain "$T/rain.pgm" -o "$T/again.gsnap" \
	>/dev/null 2>"$T/err" || fail "going on with the mask"
[ -s "$T/err" ] && fail "going on with the mask warned: $(cat "$T/err")"
"$GULLY" info "$T/again.gsnap" | grep -q "^rain mask: *$mask\$" ||
	fail "the continued snapshot lost the mask's name"
"$GULLY" run --quiet --particles 10 "$T/rain-without.gsnap" >/dev/null 2>"$T/err"
[ -s "$T/err" ] && fail "a run without a mask warned: $(cat "$T/err")"
ok "a rain mask named in the snapshot"

# gully run -o .r16/.pgm stretches the heights as render does, so it says
# over what, as render does: without it the file's heights are lost, and a
# long run's output would have to be rendered again from a snapshot.
"$GULLY" run --size 48x32 --seed 3 --particles 300 -o "$T/run_48x32.r16" -o "$T/run.pgm" \
	-o "$T/run.gsnap" >/dev/null 2>"$T/err" || fail "run -o .r16 .pgm: $(cat "$T/err")"
for f in run_48x32.r16 run.pgm; do
	"$GULLY" render "$T/run.gsnap" -o "$T/re-$f" 2>"$T/rerr" || fail "render $f"
	want=$(sed -n 's/.*\(height .* stretched over 0..65535 (read back with --range [^)]*)\).*/\1/p' \
		"$T/rerr")
	[ -n "$want" ] && grep -qF "$T/$f: $want" "$T/err" ||
		fail "run -o $f did not say its range ($want): $(cat "$T/err")"
	cmp -s "$T/$f" "$T/re-$f" || fail "run -o $f differs from render's"
done
range=$(sed -n 's/.*run_48x32.r16.*read back with --range \([^)]*\)).*/\1/p' "$T/err")
"$GULLY" run --quiet --particles 0 --range "$range" "$T/run_48x32.r16" -o "$T/run-back.f32" \
	>/dev/null || fail "run_48x32.r16 --range $range"
"$GULLY" render "$T/run.gsnap" -o "$T/run.f32"
d=$(max_diff "$T/run.f32" "$T/run-back.f32")
awk -v d="$d" -v r="$range" 'BEGIN { split(r, a, ":"); exit !(a[1] < a[2] &&
	d <= (a[2] - a[1]) / 65535 / 2 * 1.001 + 1e-6) }' ||
	fail "run -o .r16 with the range it said came back off by $d"
"$GULLY" run --size 32x32 --particles 0 --quiet -o "$T/q.r16" >/dev/null 2>"$T/err"
grep -q "q.r16: height .* (read back with --range" "$T/err" ||
	fail "run --quiet -o .r16 kept its range to itself: $(cat "$T/err")"
ok "run -o .r16 .pgm say their range"

# A .f32 is row-major, top row first, x along the row: a bad cell in row 2,
# column 5 of a 48x32 map is named (x 5, y 2), NaN as a height out of range,
# and with --transpose the same file's cell is the map's (x 2, y 5) of 32x48.
bad_f32() { # FILE BITS: a 48x32 float32 grid of 0.5 with cell 2*48+5 as BITS
	awk -v bits="$2" 'BEGIN { for (i = 0; i < 48 * 32; i++)
		printf "%s", (i == 2 * 48 + 5) ? bits : "0000003f" }' |
		sed 's/../\\x&/g' | xargs -0 printf >"$1"
}
bad_f32 "$T/nan_48x32.f32" 0000c07f
bad_f32 "$T/big_48x32.f32" 000000cb
for f in nan big; do
	"$GULLY" run --quiet --particles 0 "$T/${f}_48x32.f32" >/dev/null 2>"$T/err"
	[ $? -eq 1 ] && grep -q "cell 101 (x 5, y 2) is" "$T/err" ||
		fail "$f in row 2, column 5: $(cat "$T/err")"
done
cp "$T/nan_48x32.f32" "$T/nan.f32"
"$GULLY" run --quiet --particles 0 --size 32x48 --transpose "$T/nan.f32" >/dev/null 2>"$T/err"
[ $? -eq 1 ] && grep -q "cell 162 (x 2, y 5) is not a finite number" "$T/err" ||
	fail "NaN in a transposed .f32: $(cat "$T/err")"
ok "a bad cell named by x and y"

# What gully(1) tells a reader in numpy: a .pgm's samples are the .r16's,
# big-endian after the header, row by row as the .f32.
"$GULLY" render "$T/run.gsnap" -o "$T/o.pgm" -o "$T/o.r16" 2>/dev/null
tail -c $((48 * 32 * 2)) "$T/o.pgm" | od -An -v -tx1 | tr -s ' \n' '\n\n' | grep . |
	paste - - | awk '{ print $2 $1 }' >"$T/pgm.hex"
od -An -v -tx1 "$T/o.r16" | tr -s ' \n' '\n\n' | grep . | paste - - | awk '{ print $1 $2 }' \
	>"$T/r16.hex"
[ "$(head -c 15 "$T/o.pgm")" = "$(printf 'P5\n48 32\n65535\n')" ] && cmp -s "$T/pgm.hex" "$T/r16.hex" ||
	fail "a .pgm is not the .r16's samples big-endian"
ok ".pgm and .r16 as the manual reads them"

# terrain.vertical_scale is how many cells high a height of 1 stands (the
# slope is the height difference times it): its help said "height units per
# cell", the other way round, and a reader converting to metres got it wrong.
"$GULLY" params terrain | grep -q "^  terrain.vertical_scale .* a height of 1 in cells, for normals and slopes\$" ||
	fail "vertical_scale's help: $("$GULLY" params terrain | grep vertical_scale)"
ok "vertical_scale's help says its unit"

# Refusals: one line, exit 2 (usage) or 1 (the file).
"$GULLY" run --quiet --particles 0 "$T/rt_96x40.r16" --size 40x96 >/dev/null 2>"$T/err"
[ $? -eq 1 ] && grep -q "name says 96x40, not the 40x96 --size gives" "$T/err" ||
	fail "--size against the name: $(cat "$T/err")"
"$GULLY" run --quiet --particles 0 "$T/rt_96x40.r16" --size 50x40 >/dev/null 2>"$T/err"
[ $? -eq 1 ] && grep -q "name says" "$T/err" || fail "a wrong --size: $(cat "$T/err")"
"$GULLY" run --quiet --particles 0 "$T/a16.png" --size 50x40 >/dev/null 2>"$T/err"
[ $? -eq 1 ] && grep -q "not the 50x40 --size gives" "$T/err" || fail "--size on a PNG: $(cat "$T/err")"
cp "$T/rt_96x40.r16" "$T/plain.r16"
"$GULLY" run --quiet --particles 0 "$T/plain.r16" >/dev/null 2>"$T/err"
[ $? -eq 1 ] && grep -q "give --size WxH" "$T/err" || fail "a non-square .r16 alone: $(cat "$T/err")"
"$GULLY" run --quiet --particles 0 --size 96x40 "$T/plain.r16" >/dev/null || fail "--size 96x40"
"$GULLY" run --quiet --range 0:1 >/dev/null 2>&1
[ $? -eq 2 ] || fail "--range without a height map not refused"
# The explorer, run and sweep share the check: from a new terrain or a
# snapshot, --transpose and --range are refused alike.
for start in "" "$T/a.gsnap"; do
	for opt in --transpose "--range 0:1"; do
		for cmd in "run --quiet" "sweep --quiet --vary particles.dt=1" "--dump-preset"; do
			# shellcheck disable=SC2086 # words on purpose
			"$GULLY" $cmd $opt $start </dev/null >/dev/null 2>"$T/err"
			[ $? -eq 2 ] && head -n 1 "$T/err" | grep -q "are for a height map" ||
				fail "gully $cmd $opt ${start:-(new terrain)}: $(cat "$T/err")"
		done
	done
done
"$GULLY" run --quiet --range 2:1 "$T/plain.r16" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--range 2:1 not refused"
"$GULLY" render "$T/a.gsnap" -o "$T/x.r16" --gray16 >/dev/null 2>&1
[ $? -eq 2 ] || fail "--gray16 without a .png not refused"
ok "refusals"

finish
