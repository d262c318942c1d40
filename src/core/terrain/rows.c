#include "core/terrain/rows.h"

#include "core/base/workers.h"

/* Below this many cells a map's noise takes a few milliseconds, about what
 * starting a thread costs. */
#define ROWS_THREADED_CELLS (256u * 256u)
/* Rows per task: small enough for two threads to end together, large
 * enough that claiming a task costs nothing beside it. */
#define ROWS_PER_TASK 16

struct rows_job {
	terrain_rows_fn fn;
	void *arg;
	int height, per_task;
};

static void rows_task(void *arg, int task, int worker)
{
	(void)worker;
	const struct rows_job *j = arg;
	const int y0 = task * j->per_task;
	const int y1 = y0 + j->per_task < j->height ? y0 + j->per_task : j->height;
	j->fn(j->arg, y0, y1);
}

void terrain_rows(const struct world *w, const struct params *p, terrain_rows_fn fn, void *arg)
{
	const int threads = workers_resolve(p->world.threads);
	struct workers *pool = NULL;
	if (threads < 2 || world_cells(w) < ROWS_THREADED_CELLS ||
	    workers_create(&pool, threads) != 0) {
		fn(arg, 0, w->height);
		return;
	}
	struct rows_job j = {fn, arg, w->height, ROWS_PER_TASK};
	/* A phase holds at most WORKERS_TASKS_MAX tasks. */
	while ((j.height + j.per_task - 1) / j.per_task > WORKERS_TASKS_MAX)
		j.per_task *= 2;
	workers_for(pool, (j.height + j.per_task - 1) / j.per_task, rows_task, &j);
	workers_destroy(pool);
}
