/* sched_getaffinity and CPU_COUNT (glibc, Linux) are not in POSIX. */
#define _GNU_SOURCE 1

#include "core/base/workers.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/base/error.h"

struct workers {
	int count;
	pthread_t *threads;
	struct worker_seat *seats;
	pthread_mutex_t lock;
	pthread_cond_t start; /* a new round, or quit */
	pthread_cond_t done;  /* the last helper of a round finished */
	uint64_t round;       /* rounds handed out so far */
	int running;          /* helpers still inside this round's fn */
	int quit;
	workers_fn fn;
	void *arg;
	/* workers_for and workers_phases rounds: tasks claimed one by one from
	 * the ticket, which carries the round's number in its high half so that
	 * a helper waking after its round ended claims nothing. The phases are
	 * copied here, and by each helper under the lock, so no one reads the
	 * caller's array after its round. */
	int for_round; /* 1: this round is a workers_for or workers_phases */
	struct workers_phase phases[WORKERS_PHASES_MAX];
	int phase_count, total;
	_Atomic uint64_t ticket;
	atomic_int tasks_done;
	pthread_cond_t for_done; /* a helper finished a round's last task */
	atomic_int waiters;      /* workers asleep in workers_await */
	pthread_cond_t progress; /* a task ended while someone waited */
};

struct worker_seat {
	struct workers *pool;
	int index;
};

long workers_cpus(void)
{
	/* A run that took the machine's count under `taskset -c 0` or a
	 * one-CPU Slurm task would start threads that only take turns. */
#ifdef __linux__
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
#endif
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

int workers_resolve(int requested)
{
	long n = requested > 0 ? requested : workers_cpus();
	return n > WORKERS_MAX ? WORKERS_MAX : (int)n;
}

/* The ticket of a round of phases: its number in the high half, then the
 * phase being claimed, then the tasks of it claimed from the front and from
 * the back, 12 bits each. Worker 0 (and every even worker) takes tasks from
 * the front, the others from the back, so each thread gets the same share
 * of the particles in every phase of a step and finds in its own cache what
 * it wrote in the last one; a helper that wakes late simply finds the
 * middle already taken. */
#define TICKET_ROUND(t) ((uint32_t)((t) >> 32))
#define TICKET_PHASE(t) ((int)((t) >> 24 & 0xFF))
#define TICKET_FRONT(t) ((int)((t) >> 12 & 0xFFF))
#define TICKET_BACK(t) ((int)((t)&0xFFF))
#define TICKET_ONE_FRONT ((uint64_t)1 << 12)

/* Claims the next task of `round`: its phase in *phase, -1 when none is left. */
static int claim(struct workers *w, uint32_t round, const struct workers_phase *ph, int phases,
		 bool back, int *phase)
{
	uint64_t t = atomic_load(&w->ticket), next;
	for (;;) {
		if (TICKET_ROUND(t) != round || TICKET_PHASE(t) >= phases)
			return -1;
		int p = TICKET_PHASE(t), front_n = TICKET_FRONT(t), back_n = TICKET_BACK(t);
		int task = -1;
		if (front_n + back_n >= ph[p].tasks) /* all claimed: the next phase */
			next = (uint64_t)round << 32 | (uint64_t)(p + 1) << 24;
		else {
			task = back ? ph[p].tasks - 1 - back_n : front_n;
			next = t + (back ? 1 : TICKET_ONE_FRONT);
		}
		if (atomic_compare_exchange_weak(&w->ticket, &t, next)) {
			if (task >= 0) {
				*phase = p;
				return task;
			}
			t = next;
		}
	}
}

/* Claims and runs tasks of the round `round` until none is left. */
static void for_claim(struct workers *w, uint32_t round, const struct workers_phase *ph,
		      int phases, int total, int worker)
{
	int p, task;
	while ((task = claim(w, round, ph, phases, worker & 1, &p)) >= 0) {
		ph[p].fn(ph[p].arg, task, worker);
		if (atomic_fetch_add(&w->tasks_done, 1) + 1 == total && worker != 0) {
			/* The empty section orders the count before the caller's
			 * check (done under the lock); the signal after it wakes a
			 * caller already waiting without handing it a held lock. */
			pthread_mutex_lock(&w->lock);
			pthread_mutex_unlock(&w->lock);
			pthread_cond_signal(&w->for_done);
		} else if (atomic_load(&w->waiters) > 0) {
			/* The same for a worker in workers_await: it counted itself
			 * under the lock before asking ready() (sequentially
			 * consistent, like the task's own stores), so either it saw
			 * what this task did or it is counted here. */
			pthread_mutex_lock(&w->lock);
			pthread_mutex_unlock(&w->lock);
			pthread_cond_broadcast(&w->progress);
		}
	}
}

static void *worker_main(void *p)
{
	struct worker_seat *seat = p;
	struct workers *w = seat->pool;
	uint64_t seen = 0;
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->round == seen && !w->quit)
			pthread_cond_wait(&w->start, &w->lock);
		if (w->quit)
			break;
		seen = w->round;
		if (w->for_round) {
			struct workers_phase ph[WORKERS_PHASES_MAX];
			int phases = w->phase_count, total = w->total;
			for (int k = 0; k < phases; k++)
				ph[k] = w->phases[k];
			pthread_mutex_unlock(&w->lock);
			for_claim(w, (uint32_t)seen, ph, phases, total, seat->index);
			pthread_mutex_lock(&w->lock);
			continue;
		}
		workers_fn fn = w->fn;
		void *arg = w->arg;
		pthread_mutex_unlock(&w->lock);
		fn(arg, seat->index, w->count);
		pthread_mutex_lock(&w->lock);
		if (--w->running == 0)
			pthread_cond_signal(&w->done);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void workers_stop(struct workers *w, int started)
{
	pthread_mutex_lock(&w->lock);
	w->quit = 1;
	pthread_cond_broadcast(&w->start);
	pthread_mutex_unlock(&w->lock);
	for (int i = 0; i < started; i++)
		pthread_join(w->threads[i], NULL);
}

int workers_create(struct workers **out, int threads)
{
	*out = NULL;
	if (threads < 1 || threads > WORKERS_MAX)
		return GULLY_ERANGE;
	struct workers *w = calloc(1, sizeof *w);
	if (!w)
		return GULLY_ENOMEM;
	w->count = threads;
	w->threads = calloc((size_t)threads, sizeof *w->threads);
	w->seats = calloc((size_t)threads, sizeof *w->seats);
	if (!w->threads || !w->seats || pthread_mutex_init(&w->lock, NULL) != 0) {
		free(w->threads);
		free(w->seats);
		free(w);
		return GULLY_ENOMEM;
	}
	pthread_cond_init(&w->start, NULL);
	pthread_cond_init(&w->done, NULL);
	pthread_cond_init(&w->for_done, NULL);
	pthread_cond_init(&w->progress, NULL);
	/* Helpers take no signals (a thread inherits its creator's mask): a
	 * signal for the process then goes to a thread that lets it in, the
	 * one that waits on a terminal. Handled on a helper, it interrupted
	 * nothing, and the explorer's interface thread, blocked on a terminal
	 * that takes no output, never learnt of it. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int made = 1;
	while (made < threads) {
		w->seats[made].pool = w;
		w->seats[made].index = made;
		if (pthread_create(&w->threads[made - 1], NULL, worker_main, &w->seats[made]) != 0)
			break;
		made++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (made < threads) {
		workers_stop(w, made - 1);
		w->count = 1; /* nothing else to join */
		workers_destroy(w);
		return GULLY_ENOMEM;
	}
	*out = w;
	return GULLY_OK;
}

void workers_destroy(struct workers *w)
{
	if (!w)
		return;
	if (w->count > 1)
		workers_stop(w, w->count - 1);
	pthread_cond_destroy(&w->start);
	pthread_cond_destroy(&w->done);
	pthread_cond_destroy(&w->for_done);
	pthread_cond_destroy(&w->progress);
	pthread_mutex_destroy(&w->lock);
	free(w->threads);
	free(w->seats);
	free(w);
}

int workers_count(const struct workers *w)
{
	return w ? w->count : 1;
}

void workers_run(struct workers *w, workers_fn fn, void *arg)
{
	if (!w || w->count == 1) {
		fn(arg, 0, 1);
		return;
	}
	pthread_mutex_lock(&w->lock);
	w->for_round = 0;
	w->fn = fn;
	w->arg = arg;
	w->running = w->count - 1;
	w->round++;
	pthread_mutex_unlock(&w->lock);
	pthread_cond_broadcast(&w->start); /* after the unlock: see workers_for */

	fn(arg, 0, w->count);

	pthread_mutex_lock(&w->lock);
	while (w->running > 0)
		pthread_cond_wait(&w->done, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

/* The round on the calling thread alone: phases in order, tasks in order. */
static void phases_here(const struct workers_phase *ph, int phases)
{
	for (int p = 0; p < phases; p++)
		for (int k = 0; k < ph[p].tasks; k++)
			ph[p].fn(ph[p].arg, k, 0);
}

void workers_phases(struct workers *w, const struct workers_phase *ph, int phases)
{
	int total = 0;
	bool fits = phases <= WORKERS_PHASES_MAX;
	for (int p = 0; p < phases; p++) {
		total += ph[p].tasks > 0 ? ph[p].tasks : 0;
		fits = fits && ph[p].tasks <= WORKERS_TASKS_MAX;
	}
	if (total == 0)
		return;
	if (!w || w->count == 1 || total == 1 || !fits) {
		phases_here(ph, phases);
		return;
	}
	pthread_mutex_lock(&w->lock);
	uint32_t round = (uint32_t)++w->round;
	w->for_round = 1;
	for (int p = 0; p < phases; p++) {
		w->phases[p] = ph[p];
		if (w->phases[p].tasks < 0)
			w->phases[p].tasks = 0;
	}
	w->phase_count = phases;
	w->total = total;
	atomic_store(&w->tasks_done, 0);
	atomic_store(&w->ticket, (uint64_t)round << 32);
	pthread_mutex_unlock(&w->lock);
	/* Outside the lock: a helper woken inside it would find the lock held
	 * and sleep again on it, and a second wake-up of a virtual CPU costs
	 * tens of microseconds. No wake-up is lost: a helper not yet waiting
	 * checks the round under the lock, after the change. */
	pthread_cond_broadcast(&w->start);

	for_claim(w, round, w->phases, phases, total, 0);

	/* Only tasks already claimed can be outstanding: a helper still asleep
	 * holds none, so this never waits for a thread that got no core. */
	if (atomic_load(&w->tasks_done) == total)
		return;
	pthread_mutex_lock(&w->lock);
	while (atomic_load(&w->tasks_done) < total)
		pthread_cond_wait(&w->for_done, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

void workers_for(struct workers *w, int tasks, workers_task_fn fn, void *arg)
{
	struct workers_phase ph = {tasks, fn, arg};
	workers_phases(w, &ph, 1);
}

void workers_await(struct workers *w, bool (*ready)(void *arg), void *arg)
{
	if (ready(arg) || !w || w->count == 1)
		return;
	pthread_mutex_lock(&w->lock);
	atomic_fetch_add(&w->waiters, 1);
	while (!ready(arg))
		pthread_cond_wait(&w->progress, &w->lock);
	atomic_fetch_sub(&w->waiters, 1);
	pthread_mutex_unlock(&w->lock);
}

void workers_share(long n, int index, int count, long *begin, long *end)
{
	long base = n / count, extra = n % count;
	*begin = index * base + (index < extra ? index : extra);
	*end = *begin + base + (index < extra ? 1 : 0);
}

/* Weight of task k of `tasks`: largest at the two ends, where the workers
 * start, smallest in the middle, where they meet; the floor keeps the
 * middle tasks worth a claim. */
static long taper_weight(int k, int tasks)
{
	int from_end = k < tasks - 1 - k ? k : tasks - 1 - k;
	return (long)(tasks / 2 - from_end) + tasks / 8 + 1;
}

/* The weights' sum over tasks 0..k-1, in closed form: the first m tasks
 * fall by one each, the rest rise by one each. */
static long taper_prefix(int k, int tasks)
{
	long half = tasks / 2, c = tasks / 8 + 1, m = (tasks + 1) / 2, K = k;
	if (K <= m)
		return K * (half + c) - K * (K - 1) / 2;
	long a = half + c - tasks + 1;
	return m * (half + c) - m * (m - 1) / 2 + (K - m) * a + (K * (K - 1) - m * (m - 1)) / 2;
}

void workers_taper(long n, int index, int count, long *begin, long *end)
{
	long total = taper_prefix(count, count), before = taper_prefix(index, count);
	*begin = (long)((long long)n * before / total);
	*end = (long)((long long)n * (before + taper_weight(index, count)) / total);
}
