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
[ "$fails" -eq 0 ] || exit 1
echo "all ok"
