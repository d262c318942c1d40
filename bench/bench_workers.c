/* The cost of handing a phase to a helper thread (base/workers.h): how long
 * after workers_for() starts a round its helper begins its first task, and
 * what a round of 16 equal tasks takes on 1 and 2 threads, for a few sizes
 * of work. On a virtual machine the wake-up of an idle virtual CPU is most
 * of the cost of a short parallel phase (bench/SPH.md).
 *
 *   bench/bench_workers [ROUNDS]      (2000 by default)
 * Never run by make check: timings on a shared machine are noise there. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/base/workers.h"
#include "benchutil.h"

struct round {
	int spin;             /* multiply-adds per task */
	_Atomic double first; /* when a helper began its first task, or 0 */
	volatile double sink;
};

static void task(void *arg, int t, int worker)
{
	struct round *r = arg;
	if (worker != 0) {
		double zero = 0;
		atomic_compare_exchange_strong(&r->first, &zero, bench_wall_seconds());
	}
	double x = t;
	for (int i = 0; i < r->spin; i++)
		x = x * 1.0000001 + 1e-9;
	r->sink = x;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 2000;
	if (rounds < 10 || rounds > 1000000) {
		fprintf(stderr, "usage: %s [ROUNDS: 10..1000000]\n", argv[0]);
		return 2;
	}
	struct workers *w;
	if (workers_create(&w, 2)) {
		fprintf(stderr, "%s: cannot start a helper thread\n", argv[0]);
		return 1;
	}
	double *lat = malloc((size_t)rounds * sizeof *lat);
	if (!lat) {
		fprintf(stderr, "%s: out of memory for %d rounds\n", argv[0], rounds);
		workers_destroy(w);
		return 1;
	}
	printf("round_1_thread_us\tround_2_threads_us\tspeedup\t"
	       "helper_start_us_p10\tp50\tp90\trounds_without_helper\n");
	static const int spins[] = {200, 2000, 20000, 100000};
	for (size_t k = 0; k < sizeof spins / sizeof *spins; k++) {
		struct round r = {.spin = spins[k]};
		double t0 = bench_wall_seconds();
		for (int i = 0; i < rounds / 10; i++)
			for (int t = 0; t < 16; t++)
				task(&r, t, 0);
		double one = (bench_wall_seconds() - t0) / (rounds / 10);
		int n = 0, none = 0;
		t0 = bench_wall_seconds();
		for (int i = 0; i < rounds; i++) {
			atomic_store(&r.first, 0.0);
			double start = bench_wall_seconds();
			workers_for(w, 16, task, &r);
			double f = atomic_load(&r.first);
			if (f > 0)
				lat[n++] = 1e6 * (f - start);
			else
				none++;
		}
		double two = (bench_wall_seconds() - t0) / rounds;
		qsort(lat, (size_t)n, sizeof *lat, cmp);
		printf("%.1f\t%.1f\t%.2f\t%.1f\t%.1f\t%.1f\t%d\n", 1e6 * one, 1e6 * two,
		       one / two, n ? lat[n / 10] : 0, n ? lat[n / 2] : 0, n ? lat[9 * n / 10] : 0,
		       none);
		if (spins[k] >= 20000)
			rounds = rounds > 200 ? rounds / 4 : rounds;
	}
	free(lat);
	workers_destroy(w);
	return 0;
}
