#!/bin/sh
# The seed's own SimpleHydrology 2020 code, built headless, to measure what
# the seed itself does on a terrain (bench/FIDELITY.md, "The seed's own
# code"). Nothing of it is kept in this repository: the script fetches the
# seed's public repository at the 2020 commit, takes water.h, vegetation.h
# and world.h's simulation part (World, generate, erode, grow) as they are,
# and adds a driver that runs frames of erode(250) + grow() as the seed's
# main loop does.
#   bench/seed-own-code.sh WORKDIR
# builds WORKDIR/seedhydro (needs git, g++, libglm-dev, libnoise-dev and the
# network; without the network, SEED_REPO=URL-OR-PATH names a clone or
# mirror of it to clone instead, or WORKDIR/src may already hold one). Then:
#   WORKDIR/seedhydro BEFORE.f32 STREAM DROPLETS OUT.f32
#   WORKDIR/seedhydro @TERRAIN STREAM DROPLETS OUT.f32  (the seed's generate())
# BEFORE is 256x256 float32 in gully's layout; OUT is height then pool, as
# the reference's after-map, for bench_fidelity measure. With @TERRAIN and
# DUMP=FILE in the environment the generated terrain is written to FILE.
# WORKDIR/seedhydro-steps is the same with a counter at the head of the
# descent's loop, printed on stderr as "steps N": the seed's steps, to set
# against gully's (not for timing).
set -eu
# --help: the comment above, as text
case ${1:-} in -h | --help) sed -n '2,/^set -eu/{/^set -eu/d;s/^# \{0,1\}//;p;}' "$0"; exit 0 ;; esac
[ $# -eq 1 ] || { echo "usage: $0 WORKDIR" >&2; exit 2; }
W=$1
REPO=${SEED_REPO:-https://github.com/weigert/SimpleHydrology}
COMMIT=424b25c # 2020-09-08, the last 2020 commit (water.h as of 2020-04-21)
mkdir -p "$W"
[ -d "$W/src/.git" ] || git clone -q "$REPO" "$W/src"
git -C "$W/src" show "$COMMIT:source/water.h" > "$W/water.h"
git -C "$W/src" show "$COMMIT:source/vegetation.h" > "$W/vegetation.h"
# world.h up to its rendering part: the World class, generate, erode, grow.
git -C "$W/src" show "$COMMIT:source/world.h" > "$W/world-full.h"
cut=$(grep -n 'RENDERING STUFF' "$W/world-full.h" | cut -d: -f1)
head -n $((cut - 3)) "$W/world-full.h" > "$W/world.h"
cat > "$W/driver.cpp" <<'DRIVER'
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <iostream>
#include <vector>
#include <glm/glm.hpp>
#include <libnoise/noise.h>
using std::max;
#include "world.h"
/* Static storage, as the seed's global. The seed's normal reads past the
 * map's first and last columns, outside the heights: the next layer's
 * first column after the last one, before the first whatever precedes the
 * object (in the seed's program, unknown). Nothing of this driver's is
 * put before it (the buffers are on the heap), so there it reads the
 * object's own scale (40) next to the first row, and this program's other
 * static data, pointers and small integers that as doubles are near 0. */
static World world;
static void put(const double *m, float *buf)
{
	for (int y = 0; y < 256; y++)
		for (int x = 0; x < 256; x++)
			buf[y * 256 + x] = (float)m[x * 256 + y];
}
int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: %s BEFORE.f32|@TERRAIN STREAM DROPLETS OUT.f32\n", argv[0]);
		return 2;
	}
	float *buf = (float *)malloc(256 * 256 * sizeof(float));
	if (!buf)
		return 1;
	if (argv[1][0] == '@') {
		world.SEED = atoi(argv[1] + 1);
		std::streambuf *out = std::cout.rdbuf(nullptr); /* generate() talks */
		world.generate();
		std::cout.rdbuf(out);
		if (getenv("DUMP")) {
			FILE *d = fopen(getenv("DUMP"), "wb");
			put(world.heightmap, buf);
			if (!d || fwrite(buf, 4, 256 * 256, d) != 256 * 256 || fclose(d))
				return 1;
		}
	} else {
		FILE *f = fopen(argv[1], "rb");
		if (!f || fread(buf, 4, 256 * 256, f) != 256 * 256) {
			fprintf(stderr, "%s: not 65536 floats\n", argv[1]);
			return 1;
		}
		fclose(f);
		for (int y = 0; y < 256; y++)
			for (int x = 0; x < 256; x++)
				world.heightmap[x * 256 + y] = buf[y * 256 + x];
	}
	srand((unsigned)atoi(argv[2]));
	const long n = atol(argv[3]);
	for (long d = 0; d < n; d += 250) {
		world.erode(250);
		world.grow();
	}
#ifdef SEED_STEPS
	fprintf(stderr, "steps %llu\n", seed_steps);
#endif
	FILE *o = fopen(argv[4], "wb");
	put(world.heightmap, buf);
	if (!o || fwrite(buf, 4, 256 * 256, o) != 256 * 256)
		return 1;
	put(world.waterpool, buf);
	if (fwrite(buf, 4, 256 * 256, o) != 256 * 256 || fclose(o))
		return 1;
	return 0;
}
DRIVER
# The seed's makefile's flags (-std=c++17 -O3). -w: the seed's code has warnings; its out-of-bounds reads at the x edges
# (the normal) are the seed's own behaviour, kept.
g++ -std=c++17 -O3 -w -o "$W/seedhydro" "$W/driver.cpp" -lnoise
# The counting copy: one edit, at the descent's loop (the only
# `while(volume > minVol){` in water.h; refused if that ever changes).
mkdir -p "$W/steps"
[ "$(grep -c 'while(volume > minVol){' "$W/water.h")" -eq 1 ] ||
	{ echo "$0: water.h's descent loop not found once; no seedhydro-steps" >&2; exit 1; }
{
	echo 'static unsigned long long seed_steps;'
	sed 's/while(volume > minVol){/while(volume > minVol){ ++seed_steps;/' "$W/water.h"
} > "$W/steps/water.h"
cp "$W/vegetation.h" "$W/world.h" "$W/driver.cpp" "$W/steps/"
g++ -std=c++17 -O3 -w -DSEED_STEPS -o "$W/seedhydro-steps" "$W/steps/driver.cpp" -lnoise
echo "$W/seedhydro"
echo "run with a large stack (ulimit -s unlimited): the seed's fill recurses once per lake cell" >&2
