#!/bin/sh
# Pictures through the command line: render and run -o take --overlay, in
# the explorer's colours; a bad list or a non-picture output is refused
# with one line and exit 2.
. "$(dirname "$0")/clilib.sh"
# A usage error: its first line says what is wrong, the next points to --help.
one_line() {
	head -n 1 "$T/err" | grep -q -- "$1" || fail "stderr lacks '$1': $(cat "$T/err")"
}

expect 0 "run a snapshot" -- "$GULLY" run --quiet --process hydrology --size 64x64 --seed 3 --particles 3000 -o "$T/a.gsnap"
expect 0 "render plain" -- "$GULLY" render "$T/a.gsnap" -o "$T/plain.ppm"
expect 0 "render streams" -- "$GULLY" render "$T/a.gsnap" -o "$T/streams.ppm" --overlay streams
expect 0 "render all overlays" -- "$GULLY" render "$T/a.gsnap" -o "$T/all.png" \
	--overlay streams,pools,erosion,hardness,wetness
[ "$(head -c 4 "$T/all.png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "all.png is not a PNG"
cmp -s "$T/plain.ppm" "$T/streams.ppm" && fail "--overlay streams changed nothing"
# Erosion after 3000 droplets shows somewhere.
expect 0 "render erosion" -- "$GULLY" render "$T/a.gsnap" -o "$T/erosion.ppm" --overlay erosion
cmp -s "$T/plain.ppm" "$T/erosion.ppm" && fail "--overlay erosion changed nothing"
expect 0 "render none" -- "$GULLY" render "$T/a.gsnap" -o "$T/none.ppm" --overlay none
cmp -s "$T/plain.ppm" "$T/none.ppm" || fail "--overlay none is not the plain picture"
# The light comes from the snapshot's view parameters.
expect 0 "run, light from the west" -- "$GULLY" run --quiet --process hydrology --size 64x64 --seed 3 --particles 3000 \
	--set view.azimuth=270 -o "$T/west.ppm"
expect 0 "run, default light" -- "$GULLY" run --quiet --process hydrology --size 64x64 --seed 3 --particles 3000 \
	-o "$T/run.ppm"
cmp -s "$T/run.ppm" "$T/plain.ppm" || fail "run -o and render of the same map differ"
cmp -s "$T/run.ppm" "$T/west.ppm" && fail "view.azimuth did not change the picture"
expect 0 "run -o png --overlay" -- "$GULLY" run --quiet --process hydrology --size 64x64 --seed 3 --particles 3000 \
	-o "$T/run.ppm" --overlay streams
cmp -s "$T/run.ppm" "$T/streams.ppm" || fail "run -o --overlay streams differs from render's"

expect 2 "render a bad overlay" -- "$GULLY" render "$T/a.gsnap" -o "$T/x.png" --overlay streams,lava
one_line "'lava' is not an overlay"
expect 2 "render particles overlay" -- "$GULLY" render "$T/a.gsnap" -o "$T/x.png" --overlay particles
one_line "'particles' is not an overlay"
expect 2 "run --overlay without a picture" -- "$GULLY" run --quiet --size 64x64 -o "$T/b.gsnap" --overlay pools
one_line "--overlay is for a picture"
expect 2 "run --overlay without -o" -- "$GULLY" run --quiet --size 64x64 --overlay pools
one_line "--overlay is for a picture"
# --colors 256: the picture as a 256-colour terminal shows it, in xterm's
# palette (the cube's levels 0, 95, 135, 175, 215, 255 and the greys 8..238).
"$GULLY" render "$T/a.gsnap" -o "$T/t.ppm" || fail "render a truecolor picture"
"$GULLY" render "$T/a.gsnap" -o "$T/q.ppm" --colors 256 || fail "render --colors 256"
cmp -s "$T/t.ppm" "$T/q.ppm" && fail "--colors 256 drew the truecolor picture"
od -An -v -tu1 -j "$(head -c 64 "$T/q.ppm" | awk 'NR<=3{n+=length($0)+1} END{print n}')" "$T/q.ppm" |
	tr -s ' ' '\n' | grep -v '^$' | sort -un >"$T/levels"
grep -vxE '0|95|135|175|215|255|8|18|28|38|48|58|68|78|88|98|108|118|128|138|148|158|168|178|188|198|208|218|228|238' \
	"$T/levels" | head -n 1 | grep -q . && fail "--colors 256 wrote a colour outside xterm's 256"
expect 2 "render --colors 17" -- "$GULLY" render "$T/a.gsnap" -o "$T/x.png" --colors 17
one_line "'17' is not 256 or truecolor"
[ -e "$T/x.png" ] && fail "a refused render wrote a file"
[ -e "$T/b.gsnap" ] && fail "a refused run wrote a file"
# A constant layer (no droplets: no flow) has no span: the range render
# offers must be one gully takes, and must read the file back exactly.
"$GULLY" run --quiet --size 32x32 --particles 0 -o "$T/flat.gsnap" >/dev/null ||
	fail "a map without droplets"
expect 0 "render a constant layer 16-bit" -- "$GULLY" render "$T/flat.gsnap" --layer flow \
	--gray16 -o "$T/flow.png" -o "$T/flow.r16"
grep -q "flow is constant at 0" "$T/err" || fail "no word of a constant layer: $(cat "$T/err")"
range=$(sed -n 's/.*flow.r16.*read back with --range \([^)]*\)).*/\1/p' "$T/err")
expect 0 "read a constant layer back with the range render gave" -- "$GULLY" run --quiet \
	--particles 0 --range "$range" "$T/flow.r16" -o "$T/flow_back.f32"
"$GULLY" render "$T/flat.gsnap" --layer flow -o "$T/flow.f32" 2>/dev/null
cmp -s "$T/flow.f32" "$T/flow_back.f32" || fail "the constant layer did not read back"
# A preset is no snapshot: refused before any file is written, with the
# command that pictures its terrain.
printf 'world: {seed: 5}\n' >"$T/mine.yaml"
expect 2 "render a preset" -- "$GULLY" render "$T/mine.yaml" -o "$T/mine.png"
one_line "is a preset, not a snapshot: .*run .*mine.yaml --particles 0 -o OUT.png"
[ -e "$T/mine.png" ] && fail "a refused render wrote a file"
# --ansi draws --layer as the pictures do; it used to draw the height map
# whatever the layer. A data layer: its ramp's ends as the picture's, and a
# legend line under the map that runs from dark (min) to bright (max).
A="$GULLY render $T/a.gsnap --ansi=none --columns 32"
$A >"$T/height.txt" 2>/dev/null || fail "render --ansi=none"
$A --layer height >"$T/height2.txt" 2>/dev/null || fail "render --ansi=none --layer height"
cmp -s "$T/height.txt" "$T/height2.txt" || fail "--layer height is not the default"
for layer in pool erosion flow; do
	expect 0 "render --ansi --layer $layer" -- $A --layer $layer
	cp "$T/out" "$T/$layer.txt"
	cmp -s "$T/height.txt" "$T/$layer.txt" && fail "--ansi --layer $layer drew the height map"
done
[ "$(wc -l <"$T/erosion.txt")" -eq "$(($(wc -l <"$T/height.txt") + 1))" ] ||
	fail "--ansi --layer erosion: no legend line under the map"
tail -n 1 "$T/erosion.txt" | awk '{
	r = " .:-=+*#%@"; last = 0
	for (i = 1; i <= length($0); i++) {
		k = index(r, substr($0, i, 1))
		if (k == 0 || k < last) { print "not a rising ramp: " $0; exit 1 }
		last = k
	}
	if (last < 9) { print "the ramp does not reach its top: " $0; exit 1 }
}' || fail "--ansi --layer erosion: the legend line"
$A --layer erosion 2>"$T/ansi.err" >/dev/null
"$GULLY" render "$T/a.gsnap" --layer erosion -o "$T/e.png" 2>"$T/png.err"
[ "$(sed 's/^[^:]*: //' "$T/ansi.err")" = "$(sed 's/^[^:]*: //' "$T/png.err")" ] ||
	fail "--ansi's ramp ($(cat "$T/ansi.err")) is not the picture's ($(cat "$T/png.err"))"
# What --ansi cannot draw is refused, not dropped.
expect 2 "render --ansi --scale" -- $A --scale 2
one_line "--scale is for a picture"
expect 2 "render --ansi --range" -- $A --range 0:1
one_line "--range is for a 16-bit output"
expect 2 "render --ansi --colors 256" -- $A --colors 256
one_line "--colors is for a picture"
expect 2 "render --ansi --layer erosion --overlay" -- $A --layer erosion --overlay streams
one_line "--overlay is not for a data layer"
expect 2 "render -o --columns" -- "$GULLY" render "$T/a.gsnap" -o "$T/x.png" --columns 20
one_line "--columns is for --ansi"
[ -s "$T/out" ] && fail "a refused --ansi printed a map"

# render's -o list is checked as run's: an overlay wants a picture among the
# outputs (a .pgm holds values), and no name twice.
expect 2 "render .pgm --overlay" -- "$GULLY" render "$T/a.gsnap" -o "$T/x.pgm" --overlay streams
one_line "--overlay is for a picture"
expect 2 "render --gray16 .png --overlay" -- "$GULLY" render "$T/a.gsnap" -o "$T/x.png" \
	--gray16 --overlay streams
one_line "--overlay is for a picture"
expect 2 "render -o twice" -- "$GULLY" render "$T/a.gsnap" -o "$T/x.png" -o "$T/x.png"
one_line "-o $T/x.png given twice"
expect 2 "run -o twice" -- "$GULLY" run --quiet --size 16x16 -o "$T/x.png" -o "$T/x.png"
one_line "-o $T/x.png given twice"
expect 2 "render .r16 --scale" -- "$GULLY" render "$T/a.gsnap" -o "$T/x.r16" --scale 2
one_line "--scale is for a picture"
expect 2 "render .png --range" -- "$GULLY" render "$T/a.gsnap" -o "$T/x.png" --range 0:1
one_line "--range is for a 16-bit output"
for f in x.pgm x.png x.r16; do
	[ -e "$T/$f" ] && fail "a refused render wrote $f"
done
expect 0 "render .pgm and .png --overlay" -- "$GULLY" render "$T/a.gsnap" -o "$T/x.pgm" \
	-o "$T/x.png" --overlay streams
expect 0 "render --ansi --overlay with a .pgm" -- "$GULLY" render "$T/a.gsnap" -o "$T/y.pgm" \
	--ansi=none --columns 20 --overlay streams
[ "$fails" -eq 0 ] || exit 1
echo "all ok"
