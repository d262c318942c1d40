/* The thread pool: every index runs once per round, on any pool size, for
 * many rounds in a row; every task of workers_for runs once, on a worker of
 * the pool, mixed with workers_run rounds; a round of phases runs each task
 * once, and a task that waits for earlier ones sees what they wrote; shares
 * cover a range exactly. */
/* sched_setaffinity and CPU_COUNT (glibc, Linux) are not in POSIX. */
#define _GNU_SOURCE 1

#include "testutil.h"

#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "core/base/error.h"
#include "core/base/workers.h"

struct tally {
	int count_seen[WORKERS_MAX];
	long sum[WORKERS_MAX];
	long n;
	const long *values;
};

static void add_share(void *arg, int index, int count)
{
	struct tally *t = arg;
	long b, e;
	workers_share(t->n, index, count, &b, &e);
	for (long i = b; i < e; i++)
		t->sum[index] += t->values[i];
	t->count_seen[index] = count;
}

static void test_every_index_runs_once_per_round(void **unused)
{
	(void)unused;
	enum { N = 10007 };
	static long values[N];
	long want = 0;
	for (long i = 0; i < N; i++)
		want += values[i] = (i * 7919) % 1000;
	for (int threads = 1; threads <= 4; threads++) {
		struct workers *w = NULL;
		assert_int_equal(workers_create(&w, threads), GULLY_OK);
		assert_int_equal(workers_count(w), threads);
		for (int round = 0; round < 500; round++) {
			struct tally t = {.n = N, .values = values};
			workers_run(w, add_share, &t);
			long got = 0;
			for (int i = 0; i < threads; i++) {
				assert_int_equal(t.count_seen[i], threads);
				got += t.sum[i];
			}
			for (int i = threads; i < WORKERS_MAX; i++)
				assert_int_equal(t.count_seen[i], 0);
			assert_int_equal(got, want);
		}
		workers_destroy(w);
	}
}

struct claims {
	int ran[300];
	int worker[300];
	int threads;
};

static void claim_task(void *arg, int task, int worker)
{
	struct claims *c = arg;
	c->ran[task]++;
	c->worker[task] = worker;
}

static void test_every_task_runs_once(void **unused)
{
	(void)unused;
	enum { N = 1001 };
	static long values[N];
	long want = 0;
	for (long i = 0; i < N; i++)
		want += values[i] = i % 13;
	for (int threads = 1; threads <= 4; threads++) {
		struct workers *w = NULL;
		assert_int_equal(workers_create(&w, threads), GULLY_OK);
		for (int round = 0; round < 400; round++) {
			int tasks = round % 300;
			struct claims c = {.threads = threads};
			workers_for(w, tasks, claim_task, &c);
			for (int k = 0; k < 300; k++) {
				assert_int_equal(c.ran[k], k < tasks ? 1 : 0);
				assert_true(c.worker[k] >= 0 && c.worker[k] < threads);
			}
			/* Two workers meet in the middle: the caller's tasks are a
			 * prefix, the helper's the rest. */
			for (int k = 1; threads == 2 && k < tasks; k++)
				assert_true(c.worker[k] >= c.worker[k - 1]);
			/* A plain round between two task rounds still sees every index. */
			struct tally t = {.n = N, .values = values};
			workers_run(w, add_share, &t);
			long got = 0;
			for (int i = 0; i < threads; i++)
				got += t.sum[i];
			assert_int_equal(got, want);
		}
		workers_destroy(w);
	}
	/* No pool: the caller runs every task, as worker 0. */
	struct claims c = {.threads = 1};
	workers_for(NULL, 7, claim_task, &c);
	for (int k = 0; k < 7; k++)
		assert_int_equal(c.ran[k], 1);
}

static void test_shares_tile_the_range(void **unused)
{
	(void)unused;
	for (long n = 0; n < 70; n++)
		for (int count = 1; count <= 9; count++) {
			long next = 0, lo = n, hi = 0;
			for (int i = 0; i < count; i++) {
				long b, e;
				workers_share(n, i, count, &b, &e);
				assert_int_equal(b, next);
				assert_true(e >= b);
				lo = e - b < lo ? e - b : lo;
				hi = e - b > hi ? e - b : hi;
				next = e;
			}
			assert_int_equal(next, n);
			assert_true(hi - lo <= 1);
		}
}

static void test_taper_tiles_the_range(void **unused)
{
	(void)unused;
	for (int count = 1; count <= 130; count++)
		for (long n = 0; n < 5000; n += n < 40 ? 1 : 173) {
			long next = 0, first = -1, middle = -1;
			for (int i = 0; i < count; i++) {
				long b, e;
				workers_taper(n, i, count, &b, &e);
				assert_int_equal(b, next);
				assert_true(e >= b);
				if (i == 0)
					first = e - b;
				if (i == (count - 1) / 2)
					middle = e - b;
				next = e;
			}
			assert_int_equal(next, n);
			/* Largest where the workers start, smallest where they meet. */
			if (count >= 16 && n >= 100 * count)
				assert_true(first > 2 * middle);
		}
}

/* Three phases: phase 0 writes a[k] (task 0 is slow, so the tasks after it
 * must wait for it), phase 1 sums a[k-1..k+1] once those three are done,
 * phase 2 sums all of phase 1 once it is done; a phase of no tasks between
 * them is skipped. */
enum { PH = 40 };
struct staged {
	long a[PH], b[PH], c[PH];
	atomic_int a_done[PH], b_done[PH];
	int ran[3][PH];
	struct workers *pool;
};

struct staged_wait {
	struct staged *st;
	int lo, hi, which;
};

static bool staged_ready(void *arg)
{
	const struct staged_wait *sw = arg;
	for (int k = sw->lo; k <= sw->hi; k++)
		if (!atomic_load(sw->which ? &sw->st->b_done[k] : &sw->st->a_done[k]))
			return false;
	return true;
}

static void stage_a(void *arg, int task, int worker)
{
	(void)worker;
	struct staged *st = arg;
	if (task == 0) { /* slow: the workers reach its readers before it ends */
		struct timespec nap = {0, 200000};
		nanosleep(&nap, NULL);
	}
	st->a[task] = 3 * task + 1;
	st->ran[0][task]++;
	atomic_store(&st->a_done[task], 1);
}

static void stage_b(void *arg, int task, int worker)
{
	(void)worker;
	struct staged *st = arg;
	struct staged_wait sw = {st, task > 0 ? task - 1 : 0, task + 1 < PH ? task + 1 : PH - 1, 0};
	workers_await(st->pool, staged_ready, &sw);
	long sum = 0;
	for (int k = sw.lo; k <= sw.hi; k++)
		sum += st->a[k];
	st->b[task] = sum;
	st->ran[1][task]++;
	atomic_store(&st->b_done[task], 1);
}

static void stage_c(void *arg, int task, int worker)
{
	(void)worker;
	struct staged *st = arg;
	struct staged_wait sw = {st, 0, PH - 1, 1};
	workers_await(st->pool, staged_ready, &sw);
	long sum = 0;
	for (int k = 0; k < PH; k++)
		sum += st->b[k];
	st->c[task] = sum;
	st->ran[2][task]++;
}

static void test_phases_wait_for_their_inputs(void **unused)
{
	(void)unused;
	long want_c = 0;
	for (int k = 0; k < PH; k++)
		for (int j = k - 1; j <= k + 1; j++)
			want_c += j >= 0 && j < PH ? 3 * j + 1 : 0;
	for (int threads = 1; threads <= 4; threads++) {
		struct workers *w = NULL;
		assert_int_equal(workers_create(&w, threads), GULLY_OK);
		for (int round = 0; round < 60; round++) {
			static struct staged st;
			memset(&st, 0, sizeof st);
			st.pool = w;
			int c_tasks = 1 + round % 7;
			struct workers_phase ph[4] = {
				{PH, stage_a, &st},
				{0, stage_a, &st},
				{PH, stage_b, &st},
				{c_tasks, stage_c, &st},
			};
			workers_phases(w, ph, 4);
			for (int k = 0; k < PH; k++) {
				assert_int_equal(st.ran[0][k], 1);
				assert_int_equal(st.ran[1][k], 1);
				assert_int_equal(st.ran[2][k], k < c_tasks ? 1 : 0);
				long want_b = 0;
				for (int j = k - 1; j <= k + 1; j++)
					want_b += j >= 0 && j < PH ? 3 * j + 1 : 0;
				assert_int_equal(st.b[k], want_b);
				if (k < c_tasks)
					assert_int_equal(st.c[k], want_c);
			}
		}
		workers_destroy(w);
	}
}

static int64_t big_ran;

static void count_big(void *arg, int task, int worker)
{
	(void)arg;
	(void)task;
	assert_int_equal(worker, 0);
	big_ran++;
}

/* More tasks than the ticket counts: all run, on the caller. */
static void test_too_many_tasks_run_on_the_caller(void **unused)
{
	(void)unused;
	struct workers *w = NULL;
	assert_int_equal(workers_create(&w, 2), GULLY_OK);
	big_ran = 0;
	workers_for(w, WORKERS_TASKS_MAX + 5, count_big, NULL);
	assert_int_equal(big_ran, WORKERS_TASKS_MAX + 5);
	workers_destroy(w);
}

static void test_resolve_and_bad_counts(void **unused)
{
	(void)unused;
	assert_true(workers_resolve(0) >= 1);
	assert_int_equal(workers_resolve(3), 3);
	assert_int_equal(workers_resolve(1000), WORKERS_MAX);
	struct workers *w = (struct workers *)1;
	assert_int_equal(workers_create(&w, 0), GULLY_ERANGE);
	assert_null(w);
	assert_int_equal(workers_create(&w, WORKERS_MAX + 1), GULLY_ERANGE);
	workers_destroy(NULL);
}

/* world.threads = 0 takes the CPUs the process may run on, as the sweep's
 * --jobs does: under `taskset -c 0` or a one-CPU Slurm task it took every
 * online core, threads that then only took turns on one. */
static void test_resolve_honours_affinity(void **unused)
{
	(void)unused;
#ifdef __linux__
	cpu_set_t all, one;
	assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
	assert_int_equal(workers_cpus(), CPU_COUNT(&all));
	int cpu = 0;
	while (!CPU_ISSET(cpu, &all))
		cpu++;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
	const long cpus = workers_cpus();
	const int resolved = workers_resolve(0);
	assert_int_equal(sched_setaffinity(0, sizeof all, &all), 0);
	assert_int_equal(cpus, 1);
	assert_int_equal(resolved, 1);
	assert_int_equal(workers_resolve(2), 2); /* a count asked for stays */
#else
	assert_true(workers_cpus() >= 1);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_index_runs_once_per_round),
		cmocka_unit_test(test_every_task_runs_once),
		cmocka_unit_test(test_shares_tile_the_range),
		cmocka_unit_test(test_taper_tiles_the_range),
		cmocka_unit_test(test_phases_wait_for_their_inputs),
		cmocka_unit_test(test_too_many_tasks_run_on_the_caller),
		cmocka_unit_test(test_resolve_and_bad_counts),
		cmocka_unit_test(test_resolve_honours_affinity),
	};
	return cmocka_run_group_tests_name("workers", tests, NULL, NULL);
}
