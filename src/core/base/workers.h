/* A small pool of worker threads for the processes' parallel phases.
 *
 * workers_run() hands one function to every worker at once and returns when
 * all have returned: the caller runs as worker 0, so a pool of 1 starts no
 * thread at all. Each worker gets its index and the count, and splits the work
 * by them in a fixed way, so results never depend on timing. Idle workers wait
 * on a condition variable, never spin: on a busy shared machine a pool of 2
 * must not cost more than 1. */
#ifndef GULLY_WORKERS_H
#define GULLY_WORKERS_H

#include <stdbool.h>

struct workers;

typedef void (*workers_fn)(void *arg, int index, int count);

/* The CPUs this process may run on: its affinity mask, which taskset,
 * cgroup cpusets and a Slurm allocation (--cpus-per-task) narrow below the
 * machine's count, else the online cores; at least 1. */
long workers_cpus(void);

/* The thread count a setting asks for: `requested` as it is, or
 * workers_cpus() when it is 0; always in 1..WORKERS_MAX. */
#define WORKERS_MAX 64
int workers_resolve(int requested);

/* GULLY_ENOMEM when a thread or its memory cannot be had (none is left running). */
int workers_create(struct workers **out, int threads);
void workers_destroy(struct workers *w);
int workers_count(const struct workers *w);

/* Runs fn(arg, i, count) for every i in 0..count-1, i = 0 on the caller's
 * thread; returns when every call has returned. Not reentrant: fn must not
 * call workers_run on the same pool. */
void workers_run(struct workers *w, workers_fn fn, void *arg);

/* Runs fn(arg, task, worker) for every task in 0..tasks-1 and returns when
 * all have returned. Tasks are claimed one at a time by whichever worker is
 * free, so an uneven load or a helper the machine left without a core costs
 * no waiting: the caller (worker 0) takes the tasks no helper claimed and
 * waits only for tasks already under way. The caller claims from the front
 * and helpers from the back, so with two threads each keeps about the same
 * share from one call to the next, and finds it in its own cache. Results
 * must not depend on which worker ran a task (write per task, not per
 * worker, unless the combination is exact such as a max or an integer sum).
 * Not reentrant. */
typedef void (*workers_task_fn)(void *arg, int task, int worker);
/* More tasks than this in a phase run on the caller alone (the ticket counts
 * in 12 bits). */
#define WORKERS_TASKS_MAX 4095
void workers_for(struct workers *w, int tasks, workers_task_fn fn, void *arg);

/* Several such phases as one round: one wake-up of the helpers instead of
 * one per phase. Workers claim phase p's tasks (front and back as above)
 * and move on to phase p + 1 once every task of p is claimed, not finished:
 * a task that reads what an earlier phase's tasks write says so with
 * workers_await, which sleeps until those are done. Waits point only at
 * earlier phases, whose tasks are all claimed by running workers, so no
 * wait can last forever. Not reentrant. */
#define WORKERS_PHASES_MAX 8
struct workers_phase {
	int tasks;
	workers_task_fn fn;
	void *arg;
};
void workers_phases(struct workers *w, const struct workers_phase *phases, int count);

/* Inside a task of workers_phases: returns once ready(arg) holds, sleeping
 * (never spinning) while it does not; ready is asked again whenever a task
 * of the round ends. What it reads must be set with sequentially consistent
 * atomic stores by the tasks it waits for, before they return. When the
 * round runs on the caller alone, every earlier task has run and ready()
 * must already hold. */
void workers_await(struct workers *w, bool (*ready)(void *arg), void *arg);

/* The half-open share [*begin, *end) of n items that worker `index` of `count`
 * takes: contiguous, in order, sizes differing by at most one. */
void workers_share(long n, int index, int count, long *begin, long *end);

/* The same for workers_for's tasks: contiguous and in order, but largest at
 * the two ends, where the caller and a helper start, and smallest in the
 * middle, where they meet, so neither waits long for the other's last task.
 * Any split gives the same results to a gather-only pass. */
void workers_taper(long n, int index, int count, long *begin, long *end);

#endif
