/* The explorer's undo on a map too big to copy (bench/TUI.md, "Undo on a
 * 4096x4096 map"): what a packed checkpoint costs, in time and bytes,
 * beside a plain copy of the same world made in the same minute.
 *
 *   bench/bench_undo PROCESS SIZE DROPLETS [ROUNDS]
 *
 * Makes SIZE x SIZE, runs DROPLETS units of PROCESS, then ROUNDS times in
 * turn: a world_clone (the copy a smaller map's checkpoint is), a whole
 * checkpoint (g's: packed when the copy would not fit the budget), a new
 * terrain and u. Prints each round and the medians, wall and CPU seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/benchutil.h"
#include "core/base/error.h"
#include "core/base/process.h"
#include "tui/app.h"

static struct app *make_app(const char *process, int size)
{
	struct app *a = calloc(1, sizeof *a);
	char err[256];
	if (!a)
		return NULL;
	params_defaults(&a->params);
	a->params.world.width = a->params.world.height = size;
	const struct process_ops *proc = process_find(process);
	if (!proc || session_new_world(a, err, sizeof err) != GULLY_OK ||
	    session_set_process(a, proc, err, sizeof err) != GULLY_OK) {
		fprintf(stderr, "bench_undo: %s: %s\n", process, proc ? err : "no such process");
		free(a);
		return NULL;
	}
	return a;
}

struct timing {
	double wall, cpu;
};

static struct timing since(struct timing t0)
{
	return (struct timing){bench_wall_seconds() - t0.wall, bench_cpu_seconds() - t0.cpu};
}

static struct timing now(void)
{
	return (struct timing){bench_wall_seconds(), bench_cpu_seconds()};
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: bench_undo PROCESS SIZE DROPLETS [ROUNDS]\n");
		return 2;
	}
	const int size = atoi(argv[2]), rounds = argc > 4 ? atoi(argv[4]) : 5;
	const uint64_t droplets = strtoull(argv[3], NULL, 10);
	if (size < 16 || rounds < 1 || rounds > 99) {
		fprintf(stderr, "bench_undo: SIZE 16 or more, ROUNDS 1 to 99\n");
		return 2;
	}
	struct app *a = make_app(argv[1], size);
	if (!a)
		return 1;
	uint64_t done;
	if (droplets && session_step(a, droplets, &done) != GULLY_OK) {
		fprintf(stderr, "bench_undo: the run failed\n");
		return 1;
	}
	double copy_w[99], push_w[99], push_c[99], undo_w[99], undo_c[99];
	size_t bytes = 0;
	const size_t copy_bytes = world_cells(a->world) * LAYER_COUNT * sizeof(float);
	printf("round\tcopy_wall_s\tcheckpoint_wall_s\tcheckpoint_cpu_s\tundo_wall_s\tundo_cpu_s\tbytes\n");
	for (int r = 0; r < rounds; r++) {
		struct timing t = now();
		struct world *copy;
		if (world_clone(&copy, a->world) != GULLY_OK)
			return 1;
		copy_w[r] = since(t).wall;
		world_destroy(copy);
		t = now();
		int e = undo_push_whole(a, 0);
		const struct timing push = since(t);
		if (e) {
			fprintf(stderr, "bench_undo: checkpoint: %s\n", gully_strerror(e));
			return 1;
		}
		bytes = a->undo.bytes;
		char err[256];
		a->params.world.seed++;
		if (session_new_world(a, err, sizeof err) != GULLY_OK)
			return 1;
		t = now();
		if (undo_pop(a, err, sizeof err) != GULLY_OK) {
			fprintf(stderr, "bench_undo: undo: %s\n", err);
			return 1;
		}
		const struct timing undo = since(t);
		undo_clear(a);
		push_w[r] = push.wall;
		push_c[r] = push.cpu;
		undo_w[r] = undo.wall;
		undo_c[r] = undo.cpu;
		printf("%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%zu\n", r + 1, copy_w[r], push.wall, push.cpu,
		       undo.wall, undo.cpu, bytes);
	}
	const double cw = bench_median(copy_w, rounds), pw = bench_median(push_w, rounds);
	printf("median\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%zu (a copy: %zu; checkpoint/copy wall %.1fx)\n",
	       cw, pw, bench_median(push_c, rounds), bench_median(undo_w, rounds),
	       bench_median(undo_c, rounds), bytes, copy_bytes, pw / cw);
	session_free(a);
	free(a);
	return 0;
}
