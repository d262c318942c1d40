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
[ -e "$T/x.png" ] && fail "a refused render wrote a file"
[ -e "$T/b.gsnap" ] && fail "a refused run wrote a file"
[ "$fails" -eq 0 ] || exit 1
echo "all ok"
