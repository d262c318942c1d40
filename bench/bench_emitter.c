/* Emitter stream throughput: particles per second and nanoseconds per
 * particle step at a given map size. The seed claims O(n) in particles, so
 * the cost per step must not depend on the map's size; run it at 256 and
 * 1024 and compare (bench/EMITTER.md has the figures and commands).
 *
 * Set-up: fBm terrain and fBm hardness, emitter at the map centre, lifetime
 * 50 steps at speed <= 2, so no path reaches the edge even at 256 and both
 * sizes do the same work per step. World creation is outside the timing;
 * bench_stream is the only timed (and, under callgrind --toggle-collect, the
 * only counted) function. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchutil.h"
#include "core/emitter/emitter.h"
#include "core/base/error.h"
#include "core/terrain/hardness.h"
#include "core/terrain/terrain.h"

#define MAX_RUNS 64

/* Not static and not inlined, so callgrind can collect exactly this. */
__attribute__((noinline)) uint64_t bench_stream(void *st, struct world *w,
						const struct params *p, uint64_t n);

__attribute__((noinline)) uint64_t bench_stream(void *st, struct world *w,
						const struct params *p, uint64_t n)
{
	struct process_report rep = {0};
	if (emitter_process.step(st, w, p, n, &rep) != GULLY_OK)
		return 0;
	return rep.steps;
}

int main(int argc, char **argv)
{
	int size = 256, runs = 5;
	long particles = 100000;
	static const struct option opts[] = {
		{"size", required_argument, NULL, 's'},
		{"particles", required_argument, NULL, 'n'},
		{"runs", required_argument, NULL, 'r'},
		{NULL, 0, NULL, 0},
	};
	int c;
	while ((c = getopt_long(argc, argv, "s:n:r:", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			size = atoi(optarg);
			break;
		case 'n':
			particles = atol(optarg);
			break;
		case 'r':
			runs = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [--size N] [--particles N] [--runs K]\n", argv[0]);
			return 2;
		}
	}
	if (runs < 1 || runs > MAX_RUNS || particles < 1 || world_check_size(size, size)) {
		fprintf(stderr, "%s: need 1..%d runs, particles > 0, size 16..%d\n", argv[0],
			MAX_RUNS, world_size_max());
		return 2;
	}

	struct params p;
	params_defaults(&p);
	p.world.width = size;
	p.world.height = size;
	p.hardness.generator = HARDNESS_FBM;
	p.emitter.x = 0.5;
	p.emitter.y = 0.5;
	p.emitter.lifetime = 50;
	p.emitter.per_step = 8;
	int bad;
	if (params_validate(&p, &bad)) {
		fprintf(stderr, "%s: bad parameter %s\n", argv[0], params_def(bad)->key);
		return 2;
	}

	double pps[MAX_RUNS], ns[MAX_RUNS];
	uint64_t steps = 0;
	printf("run\tsize\tparticles\tsteps\tseconds\tparticles_per_s\tns_per_step\n");
	for (int r = 0; r < runs; r++) {
		struct world *w;
		void *st;
		int err = world_from_params(&w, &p);
		if (!err)
			err = emitter_process.create(&st, w, &p);
		if (err) {
			fprintf(stderr, "%s: %s\n", argv[0], gully_strerror(err));
			return 1;
		}
		double t0 = bench_wall_seconds();
		steps = bench_stream(st, w, &p, (uint64_t)particles);
		double dt = bench_wall_seconds() - t0;
		pps[r] = (double)particles / dt;
		ns[r] = dt * 1e9 / (double)steps;
		printf("%d\t%d\t%ld\t%llu\t%.4f\t%.0f\t%.2f\n", r + 1, size, particles,
		       (unsigned long long)steps, dt, pps[r], ns[r]);
		emitter_process.destroy(st);
		world_destroy(w);
	}
	printf("median\t%d\t%ld\t%llu\t-\t%.0f\t%.2f\n", size, particles,
	       (unsigned long long)steps, bench_median(pps, runs), bench_median(ns, runs));
	return 0;
}
