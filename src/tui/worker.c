/* The simulation on a thread of its own, so drawing and keys never wait
 * for a slice (issue 15, item 6), and a terminal slow to take a frame
 * never stalls the simulation.
 *
 * One mutex guards the session (world, process state, parameters, undo):
 * the interface thread holds it all the time except while the main loop
 * waits for a key or for the terminal to take a frame (refresh), and the
 * worker runs slices only while it holds it. A prompt (prompt.c) keeps it
 * throughout, a resize's frame too, so the world stands still under an
 * open question. When the interface wants it back, it
 * says so first (ui_waiting); the worker finishes the slice it is in (about
 * WORKER_SLICE_SECONDS) and waits on a condition variable, so neither side
 * spins. The worker calls nothing of curses.
 *
 * Results are those of the single-threaded loop: the same session_step
 * calls on the same state, one at a time, in the order they are made; a
 * slice's size never changes what a run of N units gives (the processes'
 * resume-exactness), which tests/test_safe.c checks against one
 * uninterrupted step. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "core/base/error.h"
#include "tui/app.h"

#define FIRST_BUDGET 16
/* A step that does nothing (no water in flight) takes no time, and the
 * budget grows 4x a slice: a cap keeps it a count. */
#define SLICE_BUDGET_MAX 1e12

struct sim_worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	atomic_int ui_waiting;
	bool stop;
};

int sim_run_slice(struct app *a, double seconds)
{
	/* slice_budget is a worker slice's; a slice of another length (the
	 * step key's) takes its share, and its measure comes back as a
	 * worker slice's. */
	const double scale = seconds / WORKER_SLICE_SECONDS;
	const double want = a->slice_budget ? (double)a->slice_budget * scale : FIRST_BUDGET;
	uint64_t budget = want < 1 ? 1 : want > SLICE_BUDGET_MAX ? (uint64_t)SLICE_BUDGET_MAX : (uint64_t)want;
	uint64_t left = budget_left(a);
	if (left > 0 && budget > left)
		budget = left; /* stop exactly at the run's budget */
	/* Slow motion: what the cap allows; the slice then says nothing of
	 * what a slice could run, so the measure is kept for full speed. */
	const uint64_t allowed = speed_allow(a, budget, seconds);
	const bool slowed = allowed < budget;
	budget = allowed;
	double t0 = app_now();
	uint64_t done = 0;
	int e = session_step(a, budget, &done);
	double dt = app_now() - t0;
	speed_spend(a, done);
	a->units_run += done;
	if (dt < 1e-6)
		dt = 1e-6;
	if (slowed) {
		/* The units a second the screen shows: the cap's, not the
		 * speed of the few units run at once. */
		a->rate = a->speed_cap;
		return e;
	}
	double ratio = seconds / dt;
	/* Grow at most 4x, shrink at most 2x a slice, so one slow slice (a busy
	 * machine) does not swing the budget. */
	if (ratio > 4)
		ratio = 4;
	if (ratio < 0.5)
		ratio = 0.5;
	double next = (double)budget * ratio / scale;
	a->slice_budget = next < 1 ? 1 : next > SLICE_BUDGET_MAX ? (uint64_t)SLICE_BUDGET_MAX : (uint64_t)next;
	double rate = (double)done / dt;
	a->rate = a->rate > 0 ? 0.8 * a->rate + 0.2 * rate : rate;
	return e;
}

static bool may_run(const struct app *a)
{
	return a->running && !a->sim_hold && a->sim_error == GULLY_OK;
}

/* A run going unstable (sim_watch) is past saving before the watch pauses
 * it: such a world as a timed checkpoint would be the one u brings back,
 * and its process state may not even load. A look at a map this small
 * (UNDO_TIMED_MAX_CELLS) every few seconds costs nothing. */
static bool timed_checkpoint_ok(const struct app *a)
{
	size_t cell;
	return world_check_layer(a->world, LAYER_HEIGHT, &cell) == GULLY_OK;
}

/* Waits up to `seconds` on the worker's condition variable (the lock
 * released meanwhile); the interface's signal ends it early. */
static void worker_sleep(struct sim_worker *w, double seconds)
{
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	const double s = seconds > 1 ? 1 : seconds;
	long ns = until.tv_nsec + (long)(s * 1e9);
	until.tv_sec += ns / 1000000000L;
	until.tv_nsec = ns % 1000000000L;
	pthread_cond_timedwait(&w->wake, &w->lock, &until);
}

static void *worker_main(void *arg)
{
	struct app *a = arg;
	struct sim_worker *w = a->worker;
	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		if (atomic_load(&w->ui_waiting) > 0 || !may_run(a)) {
			/* The interface sees the world whole; what that took is
			 * part of a frame's cost (pace_interval). */
			const double t0 = app_now();
			session_whole(a);
			a->whole_seconds = app_now() - t0;
			pthread_cond_wait(&w->wake, &w->lock);
			continue;
		}
		if (app_now() - a->undo.last >= UNDO_EVERY_SECONDS &&
		    world_cells(a->world) <= UNDO_TIMED_MAX_CELLS && timed_checkpoint_ok(a)) {
			session_whole(a);
			app_checkpoint(a);
		}
		/* At the run's budget it pauses, saying so. Slice after slice
		 * the layers may lag (hydrology's stream map would otherwise be
		 * brought up to date after every 8 ms slice, a pass over the
		 * whole map); they are made whole when the interface takes the
		 * session, a frame or a key. */
		if (!budget_stop(a)) {
			/* Slow motion: wait for the cap's next unit, woken early
			 * by the interface wanting the session. */
			const double wait = speed_wait(a);
			if (wait > 0) {
				worker_sleep(w, wait);
				continue;
			}
			session_lag(a);
			a->sim_error = sim_run_slice(a, WORKER_SLICE_SECONDS);
		}
		a->needs_draw = true;
	}
	session_whole(a);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int sim_worker_start(struct app *a)
{
	struct sim_worker *w = calloc(1, sizeof *w);
	if (!w)
		return GULLY_ENOMEM;
	atomic_init(&w->ui_waiting, 0);
	if (pthread_mutex_init(&w->lock, NULL) != 0) {
		free(w);
		return GULLY_ENOMEM;
	}
	/* Slow motion's waits are timed on the monotonic clock: a change of
	 * the wall clock must not stall or hurry them. */
	pthread_condattr_t attr;
	bool cond_ok = pthread_condattr_init(&attr) == 0;
	if (cond_ok) {
		pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
		cond_ok = pthread_cond_init(&w->wake, &attr) == 0;
		pthread_condattr_destroy(&attr);
	}
	if (!cond_ok) {
		pthread_mutex_destroy(&w->lock);
		free(w);
		return GULLY_ENOMEM;
	}
	a->worker = w;
	/* The interface holds the session from here. */
	pthread_mutex_lock(&w->lock);
	/* Signals go to the interface thread, whose loop watches for them. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int e = pthread_create(&w->thread, NULL, worker_main, a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e != 0) {
		pthread_mutex_unlock(&w->lock);
		pthread_cond_destroy(&w->wake);
		pthread_mutex_destroy(&w->lock);
		free(w);
		a->worker = NULL;
		return GULLY_ENOMEM;
	}
	return GULLY_OK;
}

void sim_ui_release(struct app *a)
{
	struct sim_worker *w = a->worker;
	if (!w)
		return;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
}

void sim_ui_take(struct app *a)
{
	struct sim_worker *w = a->worker;
	if (!w)
		return;
	atomic_fetch_add(&w->ui_waiting, 1);
	pthread_mutex_lock(&w->lock);
	atomic_fetch_sub(&w->ui_waiting, 1);
}

void sim_worker_stop(struct app *a)
{
	struct sim_worker *w = a->worker;
	if (!w)
		return;
	/* Called holding the lock. */
	w->stop = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w);
	a->worker = NULL;
}
