#!/bin/sh
# richdem's own priority floods, built headless, as a same-machine yardstick
# for gully's whole-map flood (flood_fill_map; bench/HYDROLOGY.md, "The
# whole-map flood against richdem"). Nothing of richdem is kept in this
# repository: the script clones richdem's public repository, uses its
# headers as they are at a pinned commit (PriorityFlood_Zhou2016 of
# include/richdem/depressions/Zhou2016.hpp, PriorityFlood_Barnes2014<D8> of
# include/richdem/depressions/Barnes2014.hpp) and adds a driver.
#   bench/richdem-fill.sh WORKDIR
# builds WORKDIR/rdfill (needs git, g++ and the network; without the
# network, RICHDEM_REPO=URL-OR-PATH names a clone or mirror of it to clone
# instead, or WORKDIR/src may already hold one). Then:
#   WORKDIR/rdfill zhou|barnes W H MAP.f32 [REPEATS [OUT.f32]]
#   WORKDIR/rdfill same W H MAP.f32 RICHDEM.f32 GULLY.f32
# fills W x H float32 heights (row-major, x fastest: gully's layout) as
# richdem's Array2D<float>, every edge cell an outlet at its own height
# (richdem's only edge: the same as gully's sea below the whole map). Per
# repeat, on a fresh copy of the map, the fill alone is timed in CPU time
# (CLOCK_PROCESS_CPUTIME_ID) and wall time; cells per second for each and
# the median in CPU time. OUT gets the filled surface of the last repeat.
# `same` compares richdem's filled surface with gully's (height + pool, as
# `bench_hydrology fillmap SIZE 1 MAP OUT` writes it): cells that differ and
# by how much, and whether the levels differ at all once richdem's go
# through gully's float rounding of height + pool (exit 1 if they do).
# Build: header-only, no CMake, no GDAL. richdem needs no generated header:
# version.hpp takes RICHDEM_GIT_HASH and RICHDEM_COMPILE_TIME as -D (CMake's
# way), logging is off without RICHDEM_LOGGING (then no symbol of
# src/richdem.cpp is needed). -O3 -DNDEBUG as CMake's Release build, and
# RICHDEM_NO_PROGRESS (richdem's own switch, "may speed up"): the fastest
# richdem, the hardest yardstick.
set -eu
# --help: the comment above, as text
case ${1:-} in -h | --help) sed -n '2,/^set -eu/{/^set -eu/d;s/^# \{0,1\}//;p;}' "$0"; exit 0 ;; esac
[ $# -eq 1 ] || { echo "usage: $0 WORKDIR" >&2; exit 2; }
W=$1
REPO=${RICHDEM_REPO:-https://github.com/r-barnes/richdem}
COMMIT=c5a183ada30fbd1b8587121e0d313b4cda9390c0 # 2023-07-06, "Adds CachingOutletChecker"
mkdir -p "$W"
# No work tree: only include/ is used (and a mirror may lack large blobs).
[ -d "$W/src/.git" ] || git clone -q --no-checkout "$REPO" "$W/src"
git -C "$W/src" cat-file -e "$COMMIT^{commit}" 2>/dev/null ||
	{ echo "$0: $W/src has no commit $COMMIT" >&2; exit 1; }
# The headers as of the pinned commit, whatever the clone has checked out
# (the subtree alone: archiving the whole commit reads every blob, and a
# mirror may lack the large ones).
rm -rf "$W/include"
git -C "$W/src" archive --prefix=include/richdem/ "$COMMIT:include/richdem" | tar -x -C "$W"
cat > "$W/rdfill.cpp" <<'DRIVER'
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>
#include <richdem/common/Array2D.hpp>
#include <richdem/depressions/Barnes2014.hpp>
#include <richdem/depressions/Zhou2016.hpp>
using namespace richdem;

static double seconds(clockid_t clock)
{
	timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The whole file, exactly n floats, or an empty vector. */
static std::vector<float> load(const char *path, size_t n)
{
	std::vector<float> h(n + 1);
	FILE *f = fopen(path, "rb");
	size_t got = f ? fread(h.data(), sizeof(float), n + 1, f) : 0;
	if (f)
		fclose(f);
	if (got != n) {
		fprintf(stderr, "rdfill: %s is not %zu float32 values\n", path, n);
		return {};
	}
	h.resize(n);
	return h;
}

/* zhou|barnes: REPEATS fills of the map, each on a fresh copy (richdem
 * fills in place), the fill alone timed. */
static int fill(bool zhou, int w, int hh, const std::vector<float> &h, int reps, const char *out)
{
	const size_t n = h.size();
	std::vector<double> rate;
	Array2D<float> dem;
	for (int k = 0; k < reps; k++) {
		dem = Array2D<float>(w, hh);
		std::copy(h.begin(), h.end(), dem.data());
		/* Barnes 2014's progress bar clears the terminal's line on
		 * std::cerr even when RICHDEM_NO_PROGRESS silences it: muted. */
		std::streambuf *err = std::cerr.rdbuf(nullptr);
		const double t0 = seconds(CLOCK_PROCESS_CPUTIME_ID), w0 = seconds(CLOCK_MONOTONIC);
		if (zhou)
			PriorityFlood_Zhou2016(dem);
		else
			PriorityFlood_Barnes2014<Topology::D8>(dem);
		const double t = seconds(CLOCK_PROCESS_CPUTIME_ID) - t0;
		const double tw = seconds(CLOCK_MONOTONIC) - w0;
		std::cerr.rdbuf(err);
		rate.push_back((double)n / t);
		size_t raised = 0;
		for (size_t i = 0; i < n; i++)
			raised += dem(i) != h[i];
		printf("rdfill %s %dx%d: %.3f s CPU (%.3f s wall), %.2f million cells/s CPU, "
		       "%zu raised cells\n",
		       zhou ? "zhou" : "barnes", w, hh, t, tw, rate.back() / 1e6, raised);
	}
	std::sort(rate.begin(), rate.end());
	printf("median %.2f million cells/s (CPU time) over %d fills\n", rate[rate.size() / 2] / 1e6,
	       reps);
	FILE *o = out ? fopen(out, "wb") : nullptr;
	if (out && (!o || fwrite(dem.data(), sizeof(float), n, o) != n || fclose(o))) {
		fprintf(stderr, "rdfill: cannot write %s\n", out);
		return 1;
	}
	return 0;
}

/* same: richdem's filled surface r against gully's g (height + pool, added
 * in float). Cells that differ, by how much; then r's levels taken through
 * gully's own rounding (the pool, level - height in double rounded to float
 * and capped at 1000 as flood_internal.h's depth_at, then added to the
 * height in float): if g equals that everywhere, both fills reached the
 * same levels and only gully's storage as height + pool rounds. Exit 0
 * then, 1 if any level differs. */
static int same(const std::vector<float> &h, const std::vector<float> &r,
		const std::vector<float> &g)
{
	size_t differ = 0, levels = 0;
	double largest = 0, ulps = 0;
	for (size_t i = 0; i < h.size(); i++) {
		const double d = (double)r[i] - (double)h[i];
		const float pool = d > 0 ? std::min((float)d, 1000.0f) : 0.0f;
		levels += g[i] != h[i] + pool;
		if (g[i] == r[i])
			continue;
		differ++;
		const double diff = std::fabs((double)g[i] - (double)r[i]);
		largest = std::max(largest, diff);
		ulps = std::max(ulps, diff / (double)(std::nextafter(r[i], INFINITY) - r[i]));
	}
	printf("same: %zu of %zu cells differ (largest %.3g, %.0f ulp); levels through gully's "
	       "height + pool: %zu differ\n",
	       differ, h.size(), largest, ulps, levels);
	return levels ? 1 : 0;
}

int main(int argc, char **argv)
{
	const bool zhou = argc > 1 && strcmp(argv[1], "zhou") == 0;
	const bool cmp = argc == 7 && strcmp(argv[1], "same") == 0;
	if (!cmp && (argc < 5 || argc > 7 || !(zhou || strcmp(argv[1], "barnes") == 0))) {
		fprintf(stderr, "usage: %s zhou|barnes W H MAP.f32 [REPEATS [OUT.f32]]\n"
				"       %s same W H MAP.f32 RICHDEM.f32 GULLY.f32\n",
			argv[0], argv[0]);
		return 2;
	}
	const int w = atoi(argv[2]), hh = atoi(argv[3]);
	const int reps = !cmp && argc > 5 ? atoi(argv[5]) : 1;
	if (w < 3 || hh < 3 || reps < 1 || reps > 100) {
		fprintf(stderr, "%s: W and H >= 3, REPEATS in 1..100\n", argv[0]);
		return 2;
	}
	const size_t n = (size_t)w * (size_t)hh;
	const std::vector<float> h = load(argv[4], n);
	if (h.empty())
		return 2;
	if (!cmp)
		return fill(zhou, w, hh, h, reps, argc > 6 ? argv[6] : nullptr);
	const std::vector<float> r = load(argv[5], n), g = load(argv[6], n);
	return r.empty() || g.empty() ? 2 : same(h, r, g);
}
DRIVER
g++ -std=c++17 -O3 -DNDEBUG -DRICHDEM_NO_PROGRESS -DRICHDEM_GIT_HASH="\"$COMMIT\"" \
	-DRICHDEM_COMPILE_TIME="\"$(git -C "$W/src" log -1 --format=%ci "$COMMIT")\"" \
	-I"$W/include" -o "$W/rdfill" "$W/rdfill.cpp"
echo "$W/rdfill"
