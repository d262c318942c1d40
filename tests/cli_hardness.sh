#!/bin/sh
# The hardness map for the droplets (particles.hardness, issue 13) from the
# command line: a loaded map and a preset's generated one both hold the
# droplets back, off reads nothing, a snapshot carries the map into a
# resumed run, and a bad map or value is refused with one line naming the
# file and cell (or the key). POSIX sh; make check sets GULLY.
. "$(dirname "$0")/clilib.sh"
# col NAME: that column of the TSV row in $T/out.
col() {
	awk -F '\t' -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i }
		NR == 2 { print $c }' "$T/out"
}
# one_line: stderr is one line.
one_line() { [ "$(wc -l <"$T/err")" -eq 1 ] || fail "stderr is not one line: $(cat "$T/err")"; }
# less A B: A < B as numbers.
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
# f32 FILE VALUE...: little-endian float32 cells from their bytes' octal
# escapes (0: 0, 1: 1, h: 0.5, big: 1.5, nan: NaN).
f32() {
	out=$1
	shift
	: >"$out"
	for v; do
		case $v in
		0) printf '\000\000\000\000' ;;
		1) printf '\000\000\200\077' ;;
		h) printf '\000\000\000\077' ;;
		big) printf '\000\000\300\077' ;;
		nan) printf '\000\000\300\177' ;;
		esac >>"$out"
	done
}
RUN="$GULLY run --quiet --size 64x64 --particles 3000"

# A 4x4 map, hard in its two middle columns, stretched over the map.
f32 "$T/stripe.f32" 0 1 1 0 0 1 1 0 0 1 1 0 0 1 1 0
expect 0 "droplets without the map" -- $RUN --hardness "$T/stripe.f32" -o "$T/off.f32"
off=$(col eroded_volume)
expect 0 "droplets over the stripe" -- $RUN --hardness "$T/stripe.f32" \
	--set particles.hardness=1 -o "$T/on.f32"
on=$(col eroded_volume)
less "$on" "$off" || fail "a hard stripe: eroded $on, not less than $off without it"
cmp -s "$T/on.f32" "$T/off.f32" && fail "particles.hardness=1 changed nothing"

# Off, the map is not read: strata or the default uniform map, the same bits.
expect 0 "default map" -- $RUN -o "$T/plain.f32"
expect 0 "strata, off" -- $RUN --set hardness.generator=strata -o "$T/strata0.f32"
cmp -s "$T/plain.f32" "$T/strata0.f32" || fail "particles.hardness=0 read the hardness map"
cmp -s "$T/plain.f32" "$T/off.f32" || fail "particles.hardness=0 read the loaded map"
# The preset's generated map: harder ground (value 0.9) loses less than soft (0.1).
expect 0 "soft strata" -- $RUN --set hardness.generator=strata --set hardness.value=0.1 \
	--set particles.hardness=1
soft=$(col eroded_volume)
expect 0 "hard strata" -- $RUN --set hardness.generator=strata --set hardness.value=0.9 \
	--set particles.hardness=1
hard=$(col eroded_volume)
less "$hard" "$soft" || fail "hard strata eroded $hard, not less than soft strata's $soft"

# A snapshot keeps the loaded map and the setting: continued without
# --hardness, twice, the same bits, and not those of a run without the map.
expect 0 "save over the stripe" -- $RUN --hardness "$T/stripe.f32" \
	--set particles.hardness=1 -o "$T/s.gsnap"
expect 0 "info" -- "$GULLY" info "$T/s.gsnap"
grep -q "particles.hardness=1" "$T/out" || fail "the snapshot lost particles.hardness"
grep -q "hardness.generator=file" "$T/out" || fail "the snapshot lost the loaded map"
expect 0 "continue" -- "$GULLY" run --quiet --particles 500 "$T/s.gsnap" -o "$T/c1.f32"
expect 0 "continue again" -- "$GULLY" run --quiet --particles 500 "$T/s.gsnap" -o "$T/c2.f32"
cmp -s "$T/c1.f32" "$T/c2.f32" || fail "the same continuation twice differs"
expect 0 "continue with it off" -- "$GULLY" run --quiet --particles 500 \
	--set particles.hardness=0 "$T/s.gsnap" -o "$T/c0.f32"
cmp -s "$T/c1.f32" "$T/c0.f32" && fail "the continued run did not use the saved map"

# Bad maps: one line naming the file, and the cell.
f32 "$T/big.f32" 0 big 0 0
expect 1 "a value above 1" -- $RUN --hardness "$T/big.f32" --set particles.hardness=1
err_has "big.f32: cell 1 (x 1, y 0) is 1.5, outside 0 to 1"
one_line
f32 "$T/nan.f32" 0 0 nan 0
expect 1 "NaN" -- $RUN --hardness "$T/nan.f32"
err_has "nan.f32: cell 2 (x 0, y 1) is not a finite number"
one_line
# Any size is stretched over the map: a 4x2 one over 128x64 and over 64x64.
f32 "$T/wide_4x2.f32" 0 1 1 0 0 1 1 0
expect 0 "a 4x2 map over 128x64" -- "$GULLY" run --quiet --size 128x64 --particles 10 \
	--hardness "$T/wide_4x2.f32" --set particles.hardness=0.5
expect 0 "a 4x2 map over 64x64" -- $RUN --hardness "$T/wide_4x2.f32"
# A raw map whose length fits no size, and one shorter than its name says.
printf '\000\000\000\000\000\000\000\000\000\000\000\000' >"$T/three.f32"
expect 1 "a raw map of 3 cells" -- $RUN --hardness "$T/three.f32"
err_has "three.f32"
one_line
f32 "$T/short_4x4.f32" 0 1 1 0
expect 1 "a raw map shorter than its name" -- $RUN --hardness "$T/short_4x4.f32"
err_has "short_4x4.f32"
one_line
expect 2 "particles.hardness out of range" -- $RUN --set particles.hardness=2
err_has "particles.hardness: 2 is out of range (0 to 1)"
finish
