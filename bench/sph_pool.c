/* The pool at rest of tests/test_sph_fluid.c (the same scene, from
 * tests/sph_fixture.h), printed every 50 steps: RMS and fastest speed over
 * the shallow-water wave speed sqrt(g depth), mean density over rest, and
 * where the fastest particle is (bench/SPH.md, "The pool at rest").
 *
 *   bench/sph_pool [--steps N] [--set KEY=VALUE]...   e.g. --set sph.viscosity=0.5 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* sph_fixture.h checks its calls with cmocka's macro; here a failure exits. */
#define assert_int_equal(a, b)                                                 \
	do {                                                                   \
		if ((a) != (b)) {                                              \
			fprintf(stderr, "sph_pool: %s failed\n", #a);          \
			exit(1);                                               \
		}                                                              \
	} while (0)
#include "sph_fixture.h"

int main(int argc, char **argv)
{
	struct params p;
	sph_fixture_params(&p, 20, 20);
	sph_fixture_fluid_only(&p);
	int steps = 1000;
	for (int a = 1; a < argc; a++) {
		int bad = -1;
		if (!strcmp(argv[a], "--steps") && a + 1 < argc) {
			steps = atoi(argv[++a]);
		} else if (!strcmp(argv[a], "--set") && a + 1 < argc) {
			if (params_assign(&p, argv[++a], &bad) != GULLY_OK) {
				fprintf(stderr, "sph_pool: cannot set %s\n", argv[a]);
				return 2;
			}
		} else {
			fprintf(stderr, "usage: %s [--steps N] [--set KEY=VALUE]...\n", argv[0]);
			return 2;
		}
	}
	struct world *w;
	struct sph *s;
	sph_fixture_make(&p, &w, &s);
	sph_fixture_bowl(w, s, 7, 3);
	double depth = 2.5, wave = sqrt(s->cfg.gravity * depth);
	int n = sph_fixture_fill(s, w, 30 + depth);
	printf("step\ttime\trms_over_wave\tmax_over_wave\tdensity_over_rest\tfastest_x\tfastest_y"
	       "\tfastest_gap\tfastest_neighbours\n");
	for (int k = 1; k <= steps; k++) {
		sph_fixture_run(s, w, 1);
		if (k % 50)
			continue;
		double vmax = 0, v2 = 0, rho = 0;
		int fast = 0;
		for (int i = 0; i < s->n; i++) {
			double v = s->p.vx[i] * s->p.vx[i] + s->p.vy[i] * s->p.vy[i] +
				   s->p.vz[i] * s->p.vz[i];
			v2 += v;
			rho += s->rho[i];
			if (sqrt(v) > vmax) {
				vmax = sqrt(v);
				fast = i;
			}
		}
		float H, nx, ny, nz;
		sph_terrain_at(s, w, s->p.x[fast], s->p.y[fast], &H, &nx, &ny, &nz);
		printf("%d\t%.2f\t%.4f\t%.4f\t%.4f\t%.1f\t%.1f\t%.3f\t%d\n", k, s->time,
		       sqrt(v2 / n) / wave, vmax / wave, rho / n / s->cfg.rho0, s->p.x[fast],
		       s->p.y[fast], (s->p.z[fast] - H) * nz, s->ncount[fast]);
	}
	sph_destroy(s);
	world_destroy(w);
	return 0;
}
