/* What hydrology.lanes buys: the process itself, droplets one after another
 * (lanes 1) against N in SIMD lanes, run from copies of one warmed world in
 * the same process, alternated (bench/HYDROLOGY.md, "Droplets in lanes").
 *
 *   bench/hydro_lanes [--2020] [--lanes N] [SEED [WARM [DROPLETS [REPEATS]]]]
 *
 * 256x256, vertical scale 40, the hydrology defaults; --2020 sets the
 * seed-hydrology-2020 preset's hydrology options (as tests/test_golden.c
 * spells them; max_steps stays the defaults'). Both sides start from the
 * world WARM droplets of lanes 1 left (its state copied through the
 * snapshot blob), run DROPLETS with the process's step() and finish() (the
 * droplets in flight end), and print CPU seconds, steps, ns per step and
 * us per droplet; the last line is the medians over REPEATS and their
 * ratio. The lanes' maps are their own (droplets see each other's erosion a
 * tick late), so the steps and the soil moved are printed beside them. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "descendutil.h"

static const char *const options_2020[] = {
	"hydrology.normal=2020wrap", "hydrology.drain_loss=1",    "hydrology.pour_halves=1",
	"hydrology.halves_filled=1", "hydrology.concentrate=1",   "hydrology.edge=wall",
	"hydrology.settle=0",        "hydrology.pit_stop=0",      "hydrology.capacity_volume=0",
	"hydrology.strict_leak=1",   "hydrology.stop_stream=0.3", "hydrology.coupling=trees",
	NULL,
};

/* DROPLETS of the process from a copy of w and its state, with `lanes`;
 * CPU seconds, and the steps and soil moved into *steps and *moved. */
static double run_copy(const struct world *w, const void *st, struct params p, int lanes,
		       long droplets, uint64_t *steps, double *moved)
{
	struct world *c;
	void *cs;
	unsigned char *blob;
	size_t len;
	if (world_clone(&c, w) || hydrology_process.create(&cs, c, &p) ||
	    hydrology_process.save_state(st, &blob, &len) ||
	    hydrology_process.load_state(cs, blob, len)) {
		fprintf(stderr, "hydro_lanes: cannot copy the world\n");
		exit(1);
	}
	free(blob);
	p.hydrology.lanes = lanes;
	const uint64_t steps0 = c->steps;
	const double e0 = c->tally[TALLY_ERODED] + c->tally[TALLY_DEPOSITED];
	const double t0 = bench_cpu_seconds();
	if (hydrology_process.step(cs, c, &p, (uint64_t)droplets, NULL) ||
	    hydrology_process.finish(cs, c, &p, NULL)) {
		fprintf(stderr, "hydro_lanes: the run failed\n");
		exit(1);
	}
	const double t = bench_cpu_seconds() - t0;
	*steps = c->steps - steps0;
	*moved = c->tally[TALLY_ERODED] + c->tally[TALLY_DEPOSITED] - e0;
	hydrology_process.destroy(cs);
	world_destroy(c);
	return t;
}

int main(int argc, char **argv)
{
	bool preset2020 = false;
	int lanes = 64;
	for (; argc > 1 && argv[1][0] == '-' && argv[1][1] == '-'; argc--, argv++) {
		if (strcmp(argv[1], "--2020") == 0) {
			preset2020 = true;
		} else if (strcmp(argv[1], "--lanes") == 0 && argc > 2) {
			lanes = atoi(argv[2]);
			argc--, argv++;
		} else {
			printf("usage: hydro_lanes [--2020] [--lanes N] [SEED [WARM [DROPLETS [REPEATS]]]]\n");
			return strcmp(argv[1], "--help") == 0 ? 0 : 2;
		}
	}
	struct params p;
	params_defaults(&p);
	p.terrain.vertical_scale = 40;
	p.world.seed = argc > 1 ? atoi(argv[1]) : 1;
	const long warm = argc > 2 ? atol(argv[2]) : 20000;
	const long droplets = argc > 3 ? atol(argv[3]) : 200000;
	const int reps = argc > 4 ? atoi(argv[4]) : 5;
	if (warm < 0 || droplets <= 0 || reps < 1 || reps > 100 || lanes < 1 || lanes > 64) {
		fprintf(stderr, "hydro_lanes: WARM >= 0, DROPLETS > 0, REPEATS 1..100, lanes 1..64\n");
		return 2;
	}
	for (int i = 0; preset2020 && options_2020[i]; i++) {
		int bad = -1;
		if (params_assign(&p, options_2020[i], &bad)) {
			fprintf(stderr, "hydro_lanes: %s: refused\n", options_2020[i]);
			return 2;
		}
	}
	struct world *w;
	void *st;
	if (descend_warm_world(&w, &st, &p, warm)) {
		fprintf(stderr, "hydro_lanes: cannot make the world\n");
		return 1;
	}
	double *us[2] = {malloc((size_t)reps * sizeof(double)), malloc((size_t)reps * sizeof(double))};
	if (!us[0] || !us[1])
		return 1;
	const int side[2] = {1, lanes};
	for (int r = 0; r < reps; r++) {
		for (int k = 0; k < 2; k++) {
			uint64_t steps;
			double moved;
			const double t = run_copy(w, st, p, side[k], droplets, &steps, &moved);
			us[k][r] = t * 1e6 / (double)droplets;
			printf("lanes %2d: %ld droplets, %llu steps, %.3f s CPU, %.2f ns/step, "
			       "%.3f us/droplet, soil moved %.3f\n",
			       side[k], droplets, (unsigned long long)steps, t,
			       t * 1e9 / (double)steps, us[k][r], moved);
		}
	}
	qsort(us[0], (size_t)reps, sizeof(double), bench_cmp_double);
	qsort(us[1], (size_t)reps, sizeof(double), bench_cmp_double);
	printf("median us/droplet (CPU): lanes 1 %.3f, lanes %d %.3f, ratio %.2f\n", us[0][reps / 2],
	       lanes, us[1][reps / 2], us[0][reps / 2] / us[1][reps / 2]);
	free(us[0]);
	free(us[1]);
	hydrology_process.destroy(st);
	world_destroy(w);
	return 0;
}
