/* Hydrology benchmarks (see bench/HYDROLOGY.md):
 *
 *   bench_hydrology run SEED [DROPLETS [WINDOW]] [KEY=VALUE...] [flood_cache=0]
 *                       [profile_from=N] [flood_clock=0] [flood_shadow=1]
 *                       [stream_lazy=0|1]
 *       droplets on a fresh map at the seed's parameters (256x256,
 *       terrain.vertical_scale=40), one table row per window of droplets:
 *       time, descend steps, flood calls and their cost as lakes grow; the
 *       last line ends with a hash of the height and pool layers and the
 *       tallies, so two builds can be checked for bit-identical results.
 *       profile_from=N: under `valgrind --tool=callgrind --instr-atstart=no`
 *       instrument only from droplet N on (a late window costs a fraction
 *       of the whole run to profile).
 *       flood_clock=0: no clock around each flood call. The clock is two
 *       syscalls per call (~0.4 us each here: 0.3-0.4 s of a 200k run), so
 *       the total the target is about is taken with it off; the
 *       flood columns then read 0.
 *       stream_lazy=0|1: the stream map's whole-map pass after every batch
 *       or its lazy update (hydrology_stream.h), whatever the map's size.
 *   bench_hydrology descend SEED [WARM [DROPLETS [REPEATS]]]
 *       WARM droplets through the process make streams, pools and trees
 *       on a fresh map (as run); then, per repeat, DROPLETS descents alone
 *       (no flood) from random cells on a copy of that map: ns per step of
 *       descend itself, without the flood clock's cost (see run).
 *   bench_hydrology fillmap [SIZE [REPEATS [MAP.f32 [OUT.f32]]]]
 *       the whole-map flood (flood_fill_map) on the flood bench's bowl (sea
 *       above it: one depression) and on gully's terrain at SIZE (seed 42,
 *       sea below); cells per second for each repeat and the medians.
 *       With MAP (SIZE x SIZE float32, x fastest, as `gully run -o t.f32`
 *       writes), that map alone, the sea below every cell (each edge cell
 *       drains at its own height, as richdem's edge: see
 *       bench/flood-vs-richdem.sh); OUT gets the filled surface, height +
 *       pool as float32, of the last repeat.
 *   bench_hydrology flood [SIZE [REPEATS]]
 *       fills a SIZE x SIZE random terrain (noise on a bowl) completely
 *       from its centre with one pour; prints cells per second for each
 *       repeat and the median.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchutil.h"
#include "descendutil.h"
#include "core/base/error.h"
#include "core/hydrology/flood.h"
#include "core/hydrology/hydrology.h"
#include "core/hydrology/hydrology_descend.h"
#include "core/base/rng.h"
#include "core/terrain/terrain.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif
#ifndef HAVE_CALLGRIND
#define CALLGRIND_START_INSTRUMENTATION ((void)0)
#endif

static int bench_run(int argc, char **argv)
{
	struct params p;
	params_defaults(&p);
	p.terrain.vertical_scale = 40; /* the seed's terrain scale */
	p.world.seed = argc > 0 ? atoi(argv[0]) : 42;
	long droplets = argc > 1 ? atol(argv[1]) : 200000;
	long window = argc > 2 ? atol(argv[2]) : 20000;
	bool cache = true, shadow = false;
	long profile_from = -1;
	bool flood_clock = true;
	int lazy = -1;
	for (int i = 3; i < argc; i++) {
		int bad;
		if (strcmp(argv[i], "flood_clock=0") == 0) {
			flood_clock = false;
			continue;
		}
		if (strcmp(argv[i], "flood_cache=0") == 0) {
			cache = false;
			continue;
		}
		if (strcmp(argv[i], "flood_shadow=1") == 0) {
			shadow = true;
			continue;
		}
		if (strcmp(argv[i], "stream_lazy=0") == 0 || strcmp(argv[i], "stream_lazy=1") == 0) {
			lazy = argv[i][12] == '1';
			continue;
		}
		if (strncmp(argv[i], "profile_from=", 13) == 0) {
			profile_from = atol(argv[i] + 13);
			continue;
		}
		if (params_assign(&p, argv[i], &bad)) {
			fprintf(stderr, "bench_hydrology: bad setting '%s'\n", argv[i]);
			return 2;
		}
	}
	if (droplets <= 0 || window <= 0) {
		fprintf(stderr, "bench_hydrology: DROPLETS and WINDOW must be > 0\n");
		return 2;
	}
	struct world *w;
	void *st;
	if (world_from_params(&w, &p) || hydrology_process.create(&st, w, &p)) {
		fprintf(stderr, "bench_hydrology: cannot make the world\n");
		return 1;
	}
	if (flood_clock)
		hydrology_set_clock(st, bench_cpu_seconds);
	hydrology_set_flood_cache(st, cache);
	if (lazy >= 0)
		hydrology_set_stream_lazy(st, lazy);
	if (shadow && hydrology_set_flood_shadow(st, true)) {
		fprintf(stderr, "bench_hydrology: no memory for the shadow flood\n");
		return 1;
	}
	printf("# seed %d, %ld droplets, %dx%d, vertical_scale %g, coupling %d, lake cache %s\n",
	       p.world.seed, droplets, w->width, w->height, p.terrain.vertical_scale,
	       p.hydrology.coupling, cache ? "on" : "off");
	printf("%9s %8s %8s %7s %7s %7s %9s %9s %9s %8s %8s %7s %6s %8s\n", "droplets",
	       "seconds", "steps/dr", "ns/step", "floods", "cached", "lake/fl", "touch/fl",
	       "write/fl", "us/flood", "ns/cell", "flood%", "pools", "poolvol");
	struct hydrology_counters before = {0}, after;
	double total = 0, flood_total = 0, wall0 = bench_wall_seconds();
	for (long done = 0; done < droplets;) {
		long n = droplets - done < window ? droplets - done : window;
		if (profile_from >= 0 && done < profile_from && done + n > profile_from)
			n = profile_from - done;
		if (done == profile_from)
			CALLGRIND_START_INSTRUMENTATION;
		uint64_t steps0 = w->steps;
		double t0 = bench_cpu_seconds();
		if (hydrology_process.step(st, w, &p, (uint64_t)n, NULL)) {
			fprintf(stderr, "bench_hydrology: step failed\n");
			return 1;
		}
		double t = bench_cpu_seconds() - t0;
		done += n;
		total += t;
		hydrology_counters(st, &after);
		uint64_t calls = after.flood_calls - before.flood_calls;
		uint64_t touched = after.flood_touched - before.flood_touched;
		uint64_t lake = after.flood_lake_cells - before.flood_lake_cells;
		uint64_t written = after.flood_written - before.flood_written;
		double fs = after.flood_seconds - before.flood_seconds;
		flood_total += fs;
		uint64_t steps = w->steps - steps0;
		struct world_stats ws;
		world_stats(w, &ws);
		double per = calls ? 1.0 / (double)calls : 0;
		printf("%9ld %8.3f %8.1f %7.1f %7llu %6.1f%% %9.1f %9.1f %9.1f %8.2f %8.1f %6.1f%% %6ld %8.2f\n",
		       done, t, (double)steps / (double)n,
		       steps ? (t - fs) * 1e9 / (double)steps : 0, (unsigned long long)calls,
		       100.0 * (double)(after.flood_cached - before.flood_cached) * per,
		       (double)lake * per, (double)touched * per, (double)written * per,
		       fs * 1e6 * per, touched + written ? fs * 1e9 / (double)(touched + written) : 0,
		       t > 0 ? 100 * fs / t : 0, ws.pool_cells, ws.pool_volume);
		before = after;
	}
	double in = w->tally[TALLY_WATER_IN], ev = w->tally[TALLY_WATER_EVAPORATED];
	double off = w->tally[TALLY_WATER_OFF_MAP];
	struct world_stats ws;
	world_stats(w, &ws);
	uint64_t hash = 14695981039346656037ull;
	hash = bench_fnv(hash, w->layer[LAYER_HEIGHT], world_cells(w) * sizeof(float));
	hash = bench_fnv(hash, w->layer[LAYER_POOL], world_cells(w) * sizeof(float));
	hash = bench_fnv(hash, w->tally, sizeof w->tally);
	if (flood_clock)
		printf("# total %.3f s CPU (flood %.3f s), %.3f s wall; ", total, flood_total,
		       bench_wall_seconds() - wall0);
	else
		printf("# total %.3f s CPU (flood not timed), %.3f s wall; ", total,
		       bench_wall_seconds() - wall0);
	printf("water in %.6g = pools %.6g + evaporated %.6g + "
	       "off map %.6g (residual %.3g relative); trees %zu; hash %016llx\n",
	       in, ws.pool_volume, ev, off,
	       (in - ws.pool_volume - ev - off) / in, after.trees, (unsigned long long)hash);
	if (after.flood_shadow_pours)
		printf("# shadow check: %llu pours compared with a fresh flood, %llu differed\n",
		       (unsigned long long)after.flood_shadow_pours,
		       (unsigned long long)after.flood_shadow_differed);
	hydrology_process.destroy(st);
	world_destroy(w);
	return after.flood_shadow_differed ? 1 : 0;
}

/* Random relief on a bowl: a slope of 1/size per cell toward the centre
 * beats noise of 0.5/size, so the only pit is the centre and one pour fills
 * everything, in an order the noise scrambles. Returns the sum of heights. */
static double bowl(float *h, int size)
{
	struct rng r;
	rng_seed(&r, 12345, 1);
	double sum_h = 0;
	for (int y = 0; y < size; y++) {
		for (int x = 0; x < size; x++) {
			double dx = x - size / 2, dy = y - size / 2;
			double v = (sqrt(dx * dx + dy * dy) + 0.5 * rng_double(&r)) / size;
			h[(size_t)y * (size_t)size + (size_t)x] = (float)v;
			sum_h += (float)v;
		}
	}
	return sum_h;
}

/* flood_fill_map on `h`, `reps` times: the median rate in cells/s. */
static double fill_map_rate(const char *what, const float *h, float *pool, int size,
			    double sea, int reps)
{
	size_t n = (size_t)size * (size_t)size;
	double *rate = malloc((size_t)reps * sizeof *rate);
	if (!rate)
		return 0;
	for (int k = 0; k < reps; k++) {
		/* The pools' pages touched first: a world's pool layer exists
		 * before its fill, as richdem's map does (it fills in place); the
		 * fill's own fresh memory is counted. */
		memset(pool, 0, n * sizeof *pool);
		double t0 = bench_cpu_seconds(), w0 = bench_wall_seconds();
		if (flood_fill_map(h, pool, size, size, sea)) {
			free(rate);
			return 0;
		}
		double t = bench_cpu_seconds() - t0, tw = bench_wall_seconds() - w0;
		rate[k] = (double)n / t;
		size_t wet = 0;
		for (size_t i = 0; i < n; i++)
			wet += pool[i] > 0;
		uint64_t hash = bench_fnv(14695981039346656037ull, pool, n * sizeof *pool);
		printf("fill_map %s %dx%d: %.3f s CPU (%.3f s wall), %.2f million cells/s CPU, "
		       "%zu wet cells (pools %016llx)\n",
		       what, size, size, t, tw, rate[k] / 1e6, wet, (unsigned long long)hash);
	}
	qsort(rate, (size_t)reps, sizeof *rate, bench_cmp_double);
	double med = rate[reps / 2];
	free(rate);
	return med;
}

/* The filled surface, height + pool in float as gully's own layers add up
 * (made in pool), so it can be compared cell by cell with richdem's filled
 * heights. */
static int write_surface(const char *path, const float *h, float *pool, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pool[i] += h[i];
	return bench_write_f32("bench_hydrology", path, pool, NULL, n);
}

/* fillmap with MAP: that map alone. The sea at -infinity is below every
 * cell whatever the map holds: each edge cell's level is its own height. */
static int fill_map_file(int size, int reps, const char *map, const char *out)
{
	size_t n = (size_t)size * (size_t)size, got = 0;
	float *h = bench_read_f32("bench_hydrology", map, &got), *pool = NULL;
	int rc = 1;
	if (h && got != n)
		fprintf(stderr, "bench_hydrology: %s holds %zu floats, not %zu (%dx%d)\n", map, got,
			n, size, size);
	else if (h && !(pool = malloc(n * sizeof *pool)))
		fprintf(stderr, "bench_hydrology: out of memory\n");
	else if (h) {
		double r = fill_map_rate("file", h, pool, size, -INFINITY, reps);
		printf("median %.2f (file) million cells/s (CPU time) over %d fills\n", r / 1e6,
		       reps);
		rc = r > 0 ? 0 : 1;
		if (rc == 0 && out)
			rc = write_surface(out, h, pool, n);
	}
	free(h);
	free(pool);
	return rc;
}

/* The whole-map flood (flood_fill_map) on the flood benchmark's bowl with
 * its sea above everything (one depression: the whole map), and on gully's
 * own terrain at this size (seed 42, defaults) with the sea below it; or
 * on a map from a file (fill_map_file). */
static int bench_fill_map(int argc, char **argv)
{
	int size = argc > 0 ? atoi(argv[0]) : 1024;
	int reps = argc > 1 ? atoi(argv[1]) : 5;
	if (size < 16 || size > 4096 || reps < 1 || reps > 100 || argc > 4) {
		fprintf(stderr, "bench_hydrology: fillmap SIZE in 16..4096, REPEATS in 1..100"
				" [MAP.f32 [OUT.f32]]\n");
		return 2;
	}
	if (argc > 2)
		return fill_map_file(size, reps, argv[2], argc > 3 ? argv[3] : NULL);
	size_t n = (size_t)size * (size_t)size;
	float *h = malloc(n * sizeof *h), *pool = malloc(n * sizeof *pool);
	struct params p;
	params_defaults(&p);
	p.world.width = p.world.height = size;
	p.world.seed = 42;
	struct world *w = NULL;
	if (!h || !pool || world_from_params(&w, &p)) {
		fprintf(stderr, "bench_hydrology: out of memory\n");
		return 1;
	}
	bowl(h, size);
	double r1 = fill_map_rate("bowl", h, pool, size, 2.0, reps);
	double r2 = fill_map_rate("terrain", w->layer[LAYER_HEIGHT], pool, size, -1.0, reps);
	printf("median %.2f (bowl) and %.2f (terrain) million cells/s (CPU time) over %d fills\n",
	       r1 / 1e6, r2 / 1e6, reps);
	world_destroy(w);
	free(h);
	free(pool);
	return r1 > 0 && r2 > 0 ? 0 : 1;
}

static int bench_flood(int argc, char **argv)
{
	int size = argc > 0 ? atoi(argv[0]) : 1024;
	int reps = argc > 1 ? atoi(argv[1]) : 5;
	if (size < 16 || size > 8192 || reps < 1 || reps > 100) {
		fprintf(stderr, "bench_hydrology: flood SIZE in 16..8192, REPEATS in 1..100\n");
		return 2;
	}
	size_t n = (size_t)size * (size_t)size;
	float *h = malloc(n * sizeof *h), *pool = malloc(n * sizeof *pool);
	struct flood *f;
	if (!h || !pool || flood_create(&f, size, size)) {
		fprintf(stderr, "bench_hydrology: out of memory\n");
		return 1;
	}
	double sum_h = bowl(h, size);
	/* Sea above every cell: the edge is a wall up to 2. Enough water for a
	 * level of 1.5 fills every cell. */
	struct flood_params fp = {.drainage = 0.001, .sea_level = 2.0, .carry = INFINITY};
	double water = 1.5 * (double)n - sum_h;
	double *rate = malloc((size_t)reps * sizeof *rate);
	for (int k = 0; k < reps; k++) {
		memset(pool, 0, n * sizeof *pool);
		flood_forget_all(f);
		struct flood_result res;
		double t0 = bench_cpu_seconds(), w0 = bench_wall_seconds();
		int err = flood_pour(f, h, pool, (size / 2) * size + size / 2, water, NULL, &fp,
				     &res);
		double t = bench_cpu_seconds() - t0, tw = bench_wall_seconds() - w0;
		if (err || res.lake_cells != n) {
			fprintf(stderr, "bench_hydrology: flood filled %zu of %zu cells\n",
				res.lake_cells, n);
			return 1;
		}
		rate[k] = (double)n / t;
		/* The pools' hash and the exact level and gain: two builds that
		 * print the same filled the map bit for bit the same. */
		uint64_t hash = bench_fnv(14695981039346656037ull, pool, n * sizeof *pool);
		printf("fill %dx%d: %.3f s CPU (%.3f s wall), %.2f million cells/s CPU, level %.6f"
		       " (%a, gained %a, pools %016llx)\n",
		       size, size, t, tw, rate[k] / 1e6, res.level, res.level, res.gained,
		       (unsigned long long)hash);
	}
	qsort(rate, (size_t)reps, sizeof *rate, bench_cmp_double);
	printf("median %.2f million cells/s (CPU time) over %d fills\n", rate[reps / 2] / 1e6, reps);
	free(rate);
	flood_destroy(f);
	free(h);
	free(pool);
	return 0;
}

static int bench_descend(int argc, char **argv)
{
	struct params p;
	params_defaults(&p);
	p.terrain.vertical_scale = 40; /* the seed's terrain scale */
	p.world.seed = argc > 0 ? atoi(argv[0]) : 1;
	long warm = argc > 1 ? atol(argv[1]) : 20000;
	long droplets = argc > 2 ? atol(argv[2]) : 200000;
	int reps = argc > 3 ? atoi(argv[3]) : 5;
	if (warm < 0 || droplets <= 0 || reps < 1 || reps > 100) {
		fprintf(stderr, "bench_hydrology: descend WARM >= 0, DROPLETS > 0, REPEATS 1..100\n");
		return 2;
	}
	struct world *w;
	void *st;
	if (descend_warm_world(&w, &st, &p, warm)) {
		fprintf(stderr, "bench_hydrology: cannot make the world\n");
		return 1;
	}
	double *ns = malloc((size_t)reps * sizeof *ns);
	if (!ns)
		return 1;
	for (int k = 0; k < reps; k++) {
		struct world *c;
		if (world_clone(&c, w)) {
			fprintf(stderr, "bench_hydrology: out of memory\n");
			return 1;
		}
		uint64_t steps = 0;
		double moved;
		const double t = descend_droplets(c, &p, droplets, &steps, &moved);
		ns[k] = t * 1e9 / (double)steps;
		printf("descend: %ld droplets, %llu steps, %.3f s CPU, %.2f ns/step\n", droplets,
		       (unsigned long long)steps, t, ns[k]);
		world_destroy(c);
	}
	qsort(ns, (size_t)reps, sizeof *ns, bench_cmp_double);
	printf("median %.2f ns/step (CPU time) over %d repeats, after %ld warm-up droplets\n",
	       ns[reps / 2], reps, warm);
	free(ns);
	hydrology_process.destroy(st);
	world_destroy(w);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "run") == 0)
		return bench_run(argc - 2, argv + 2);
	if (argc >= 2 && strcmp(argv[1], "descend") == 0)
		return bench_descend(argc - 2, argv + 2);
	if (argc >= 2 && strcmp(argv[1], "fillmap") == 0)
		return bench_fill_map(argc - 2, argv + 2);
	if (argc >= 2 && strcmp(argv[1], "flood") == 0)
		return bench_flood(argc - 2, argv + 2);
	fprintf(stderr, "usage: bench_hydrology run SEED [DROPLETS [WINDOW]] [KEY=VALUE...]\n"
			"       bench_hydrology descend SEED [WARM [DROPLETS [REPEATS]]]\n"
			"       bench_hydrology fillmap [SIZE [REPEATS [MAP.f32 [OUT.f32]]]]\n"
			"       bench_hydrology flood [SIZE [REPEATS]]\n");
	return 2;
}
