/* SPH (process 4) throughput: full steps per second (fluid and every
 * coupling part) at a given particle count, on 1 and 2 threads interleaved
 * run by run, for a deep pool at rest and a shallow sheet fed by four jets.
 * Prints medians of wall and CPU time, ns per particle-step (CPU over all
 * threads), the split of wall time between the phases (emission and sort,
 * density, force, the coupling in order, the parallel tail) and the calling
 * thread's CPU microseconds per step in each (on 1 thread: the serial share).
 * Sort, density and force are one round of phases on two threads, so their
 * split is the calling thread's own walk through them: the sort while it
 * plans or gathers, force including its wait for the helper's last task.
 *
 *   bench/bench_sph [--runs N] [--steps S] [--scene pool|jet] [--particles N]
 *                   [--threads LIST]   (LIST: "1,2" by default)
 * Never run by make check: timings on a shared machine are noise there. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchutil.h"
#include "core/base/error.h"
#include "core/sph/sph.h"
#include "core/terrain/terrain.h"

struct result {
	double wall, cpu, split[SPH_PHASES], split_cpu[SPH_PHASES];
	int n;
};

/* A square tank with walls sloping 1 in 1 over a flat floor, filled to
 * `depth` cells: 4 columns of depth / spacing particles per cell of floor. */
static struct sph *scene(int particles, bool jets, int threads, struct world **wout)
{
	double depth = jets ? 1.0 : 2.5;
	int side = (int)ceil(sqrt(particles / (8.0 * depth)));
	int size = side + 16;
	struct params p;
	params_defaults(&p);
	p.world.width = p.world.height = size < 16 ? 16 : size;
	p.world.seed = 5;
	p.world.threads = threads;
	p.terrain.generator = TERRAIN_FLAT;
	p.terrain.roughness = 0;
	p.sph.max_particles = particles;
	p.sph.jet1_on = 0;
	if (jets) {
		/* Four jets from the corners of the tank, aimed at its middle. */
		double a = 0.5 * side / size;
		p.sph.jet1_on = p.sph.jet2_on = p.sph.jet3_on = p.sph.jet4_on = 1;
		p.sph.jet1_x = 0.5 - a, p.sph.jet1_y = 0.5, p.sph.jet1_azimuth = 0;
		p.sph.jet2_x = 0.5 + a, p.sph.jet2_y = 0.5, p.sph.jet2_azimuth = 180;
		p.sph.jet3_x = 0.5, p.sph.jet3_y = 0.5 - a, p.sph.jet3_azimuth = 90;
		p.sph.jet4_x = 0.5, p.sph.jet4_y = 0.5 + a, p.sph.jet4_azimuth = -90;
		p.sph.jet1_elevation = p.sph.jet2_elevation = -20;
		p.sph.jet3_elevation = p.sph.jet4_elevation = -20;
		p.sph.jet1_height = p.sph.jet2_height = p.sph.jet3_height = p.sph.jet4_height = 3;
	}
	struct world *w;
	struct sph *s;
	if (world_from_params(&w, &p) || sph_create(&s, w, &p))
		exit(2);
	double c = 0.5 * size, half = 0.5 * side, k = s->cfg.scale;
	for (int y = 0; y < size; y++)
		for (int x = 0; x < size; x++) {
			double ex = fmax(0, fabs(x + 0.5 - c) - half), ey = fmax(0, fabs(y + 0.5 - c) - half);
			float *h = world_at(w->layer[LAYER_HEIGHT], w, x, y);
			*h = (float)(0.5 + (ex + ey) / k);
			w->layer[LAYER_BASE][(size_t)y * (size_t)size + (size_t)x] = *h;
			s->h0[(size_t)y * (size_t)size + (size_t)x] = *h;
		}
	double d = s->cfg.spacing, level = 0.5 * k + depth;
	for (double y = c - half + d / 2; y < c + half && s->n < particles; y += d)
		for (double x = c - half + d / 2; x < c + half && s->n < particles; x += d)
			for (double z = 0.5 * k + d / 2; z < level && s->n < particles; z += d)
				sph_add(s, (float)x, (float)y, (float)z, 0, 0, 0);
	*wout = w;
	return s;
}

static void one_run(int particles, bool jets, int threads, int steps, struct result *r)
{
	struct world *w;
	struct sph *s = scene(particles, jets, threads, &w);
	uint64_t done;
	sph_run(s, w, 20, &done);
	memset(s->split, 0, sizeof s->split);
	memset(s->split_cpu, 0, sizeof s->split_cpu);
	double w0 = bench_wall_seconds(), c0 = bench_cpu_seconds();
	uint64_t work = s->particle_steps;
	sph_run(s, w, (uint64_t)steps, &done);
	work = s->particle_steps - work;
	r->wall = bench_wall_seconds() - w0;
	r->cpu = bench_cpu_seconds() - c0;
	memcpy(r->split, s->split, sizeof r->split);
	memcpy(r->split_cpu, s->split_cpu, sizeof r->split_cpu);
	r->n = (int)(work / (uint64_t)steps);
	sph_destroy(s);
	world_destroy(w);
}

int main(int argc, char **argv)
{
	int runs = 5, steps = 0, particles = 25000, threads[8] = {1, 2}, nthreads = 2;
	const char *sc = "pool";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--steps") && i + 1 < argc)
			steps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--particles") && i + 1 < argc)
			particles = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--scene") && i + 1 < argc)
			sc = argv[++i];
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
			char *t = argv[++i];
			for (nthreads = 0; *t && nthreads < 8; nthreads++) {
				threads[nthreads] = (int)strtol(t, &t, 10);
				t += *t == ',';
			}
		} else {
			fprintf(stderr, "usage: %s [--runs N] [--steps S] [--scene pool|jet] "
					"[--particles N] [--threads 1,2]\n", argv[0]);
			return 2;
		}
	}
	if (runs < 1 || runs > 99 || particles < 100 || nthreads < 1)
		return 2;
	bool jets = !strcmp(sc, "jet");
	if (!steps)
		steps = particles >= 100000 ? 30 : particles >= 25000 ? 100 : 300;
	double wall[8][99], cpu[8][99], split[8][SPH_PHASES][99], scpu[8][SPH_PHASES][99];
	int n = 0;
	for (int r = 0; r < runs; r++)
		for (int t = 0; t < nthreads; t++) {
			struct result res;
			one_run(particles, jets, threads[t], steps, &res);
			wall[t][r] = res.wall;
			cpu[t][r] = res.cpu;
			for (int k = 0; k < SPH_PHASES; k++) {
				split[t][k][r] = res.split[k] / res.wall;
				scpu[t][k][r] = 1e6 * res.split_cpu[k] / steps;
			}
			n = res.n;
		}
	printf("scene\tparticles\tthreads\tsteps\tsteps_per_s_wall\tsteps_per_s_cpu\t"
	       "ns_per_particle_step_cpu\tcpu_over_wall\tsort\tdensity\tforce\tcouple\ttail\t"
	       "us_cpu_sort\tus_cpu_density\tus_cpu_force\tus_cpu_couple\tus_cpu_tail\n");
	for (int t = 0; t < nthreads; t++) {
		double mw = bench_median(wall[t], runs), mc = bench_median(cpu[t], runs);
		printf("%s\t%d\t%d\t%d\t%.1f\t%.1f\t%.0f\t%.2f", sc, n, threads[t], steps, steps / mw,
		       steps / mc, 1e9 * mc / ((double)n * steps), mc / mw);
		for (int k = 0; k < SPH_PHASES; k++)
			printf("\t%.1f%%", 100 * bench_median(split[t][k], runs));
		for (int k = 0; k < SPH_PHASES; k++)
			printf("\t%.0f", bench_median(scpu[t][k], runs));
		printf("\n");
	}
	return 0;
}
