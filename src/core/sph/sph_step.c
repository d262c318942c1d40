/* One SPH step, in the order sph.h gives: the sort (its plan beside the
 * last step's tail, then its gathers), density and force as one round of
 * phases (base/workers.h, workers_phases), each cut into tasks that
 * whichever worker is free claims; then the coupling. */
#include "core/sph/sph.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "core/base/error.h"
#include "core/base/workers.h"

/* Tasks a parallel phase is cut into: enough that the workers balance an
 * uneven load (the deep particles of a pool have more neighbours) and a
 * helper that got no core costs at most one task's wait. A task is about
 * TASK_GRAIN particles (tapered: larger at the ends, where the workers
 * start, smaller in the middle, where they meet; workers_taper), so the
 * last one a worker waits for is some tens of microseconds; a scene under
 * 2 TASK_MIN particles is not worth waking a thread for. */
#define TASKS_MAX 128
#define TASK_MIN 256
#define TASK_GRAIN 64

int sph_tasks(const struct sph *s, long items)
{
	if (!s->workers || items < 2 * TASK_MIN)
		return 1;
	long t = items / TASK_GRAIN;
	return t < TASKS_MAX ? (int)t : TASKS_MAX;
}

static double seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double thread_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The next step: CFL on sound and flow speed, a force limit, and viscous
 * diffusion. Every input is an exact max, so it is thread-count free. */
static double next_dt(const struct sph *s)
{
	const struct sph_config *c = &s->cfg;
	double dt = c->max_dt;
	double cfl = c->cfl * c->h / (c->c + s->vmax);
	if (cfl < dt)
		dt = cfl;
	if (s->amax > 0) {
		double force = 0.25 * sqrt(c->h / s->amax);
		if (force < dt)
			dt = force;
	}
	double nu = fmax(c->nu_fluid, c->nu_mud);
	if (nu > 0 && 0.125 * c->h2 / nu < dt)
		dt = 0.125 * c->h2 / nu;
	return dt > 1e-5 ? dt : 1e-5;
}

/* After the coupling: the survivors copied out in order (chunks of the
 * particles, each to the offset the live counts before it give), the water
 * layer (one task), and the soil (Darcy, drying, wetness) by rows of the wet
 * box. They touch disjoint data, so one hand-off runs them all. In a run of
 * steps (sort_and_tail) the next step's sort drops the removed particles
 * instead of the chunks and the soil runs beside it, without the layers:
 * both are rewritten whole by the tail that settles the run (over the layer
 * box, sph_soil_open), so nobody could see them. */
struct tail {
	struct sph *s;
	struct world *w;
	const struct sph_soil_step *st;
	bool last, layer;
	int chunks, rows; /* compaction tasks, soil tasks */
	int at[TASKS_MAX + 1];
	int64_t dried[TASKS_MAX];
	struct sph_box held[TASKS_MAX]; /* the last substep's water, by soil task */
};

static void tail_task(void *arg, int task, int worker)
{
	(void)worker;
	struct tail *t = arg;
	struct sph *s = t->s;
	if (t->layer && task-- == 0) {
		sph_water_layer_alive(s, t->w, s->dead);
		return;
	}
	if (task < t->chunks) {
		long from, to;
		workers_taper(s->n, task, t->chunks, &from, &to);
		sph_compact_range(s, (int)from, (int)to, t->at[task]);
		return;
	}
	task -= t->chunks;
	long y0, y1;
	workers_share(s->wet.y1 - s->wet.y0 + 1, task, t->rows, &y0, &y1);
	t->dried[task] = sph_soil_rows(s, t->w, t->st, t->last, s->wet.y0 + (int)y0,
				       s->wet.y0 + (int)y1, &t->held[task]);
}

static void side_task(void *arg, int task)
{
	tail_task(arg, task, 0);
}

/* The tail's tasks: with `particles`, the water layer (when the map shows
 * the particles' water) and the compaction chunks; the soil rows. Returns
 * how many. */
static int tail_plan(struct sph *s, struct tail *t, bool particles)
{
	t->layer = particles && s->draws_water;
	t->chunks = particles ? sph_tasks(s, s->n) : 0;
	long rows = s->wet.x1 < s->wet.x0 ? 0 : s->wet.y1 - s->wet.y0 + 1;
	long cells = rows * (s->wet.x1 - s->wet.x0 + 1);
	t->rows = rows == 0 ? 0 : (int)(cells < TASK_MIN ? 1 : (rows < 16 ? rows : 16));
	if (t->chunks + t->rows > TASKS_MAX)
		t->chunks = TASKS_MAX - t->rows;
	int at = 0;
	for (int k = 0; k < t->chunks; k++) {
		long from, to;
		workers_taper(s->n, k, t->chunks, &from, &to);
		t->at[k] = at;
		for (long i = from; i < to; i++)
			at += s->dead[i] != 1;
	}
	t->at[t->chunks] = at;
	memset(t->dried, 0, sizeof t->dried);
	for (int k = 0; k < t->rows; k++)
		t->held[k] = (struct sph_box){0, 0, -1, -1};
	return t->layer + t->chunks + t->rows;
}

/* A small scene is not worth waking a thread for. */
static bool tail_small(const struct tail *t)
{
	return t->chunks <= 1 && t->rows <= 1;
}

static void tail_end(struct sph *s, struct tail *t, bool compact)
{
	for (int k = 0; k < t->rows; k++) {
		s->books.water_dried += t->dried[k];
		s->dried_untallied += t->dried[k];
	}
	if (compact) {
		struct sph_particles tmp = s->p;
		s->p = s->q;
		s->q = tmp;
		s->n = t->at[t->chunks];
		s->dying = 0;
	}
}

static void tail_run(struct sph *s, struct tail *t, bool particles)
{
	int tasks = tail_plan(s, t, particles);
	workers_for(tail_small(t) ? NULL : s->workers, tasks, tail_task, t);
	tail_end(s, t, particles);
}

/* The soil's substeps but the last at once (each reads the whole lattice
 * the one before wrote); the last, with drying, the layers and the removed
 * particles, waits for sph_settle or the next step's sort. */
static void step_end(struct sph *s, struct world *w, double dt)
{
	struct sph_soil_step st;
	sph_soil_plan(s, dt, s->cfg.wetting, &st);
	struct tail t = {.s = s, .w = w, .st = &st};
	for (int k = 0; k + 1 < st.substeps; k++) {
		sph_soil_open(s, &st, false);
		tail_run(s, &t, false);
		sph_soil_swap(s, &st);
	}
	s->unsettled = true;
	s->unsettled_dt = dt;
}

/* The waiting tail: the plan of the soil's last substep (the same as
 * step_end's: nothing it reads has changed since). */
struct pending {
	struct sph_soil_step st;
	struct tail t;
};

static void pending_open(struct sph *s, struct world *w, struct pending *pd)
{
	sph_soil_plan(s, s->unsettled_dt, s->cfg.wetting, &pd->st);
	sph_soil_open(s, &pd->st, w != NULL);
	pd->t = (struct tail){.s = s, .w = w, .st = &pd->st, .last = true};
}

/* The waiting tail has run (its substep's swap included): the wet box
 * shrinks to the water its rows found. */
static void pending_done(struct sph *s, const struct pending *pd)
{
	struct sph_box held = {0, 0, -1, -1};
	for (int k = 0; k < pd->t.rows; k++)
		sph_box_join(&held, &pd->t.held[k]);
	sph_soil_shrink(s, &held, pd->t.w != NULL);
	s->unsettled = false;
	s->pre_n = 0; /* settling may compact the particles */
}

static void pending_close(struct sph *s, struct pending *pd)
{
	sph_soil_swap(s, &pd->st);
	pending_done(s, pd);
}

static void settle(struct sph *s, struct world *w)
{
	if (!s->unsettled)
		return;
	struct pending pd;
	pending_open(s, w, &pd);
	tail_run(s, &pd.t, true);
	pending_close(s, &pd);
}

/* The sort, with the last step's soil in the same round (the compaction is
 * the sort's: it leaves the removed particles out). */
static int sort_and_tail(struct sph *s)
{
	if (!s->unsettled)
		return sph_sort(s);
	struct pending pd;
	pending_open(s, NULL, &pd);
	struct sph_side side = {.tasks = tail_plan(s, &pd.t, false), .run = side_task,
				.arg = &pd.t};
	int err;
	if (tail_small(&pd.t) && sph_tasks(s, s->n) == 1) {
		for (int k = 0; k < side.tasks; k++)
			side_task(&pd.t, k);
		err = sph_sort(s);
	} else {
		err = sph_sort_with(s, &side);
	}
	tail_end(s, &pd.t, false);
	pending_close(s, &pd);
	return err;
}

/* The phases a step times (SPH_PHASES in sph.h), by wall clock and by the
 * calling thread's CPU clock. */
static void mark(struct sph *s, int phase, double *wall, double *cpu)
{
	double w1 = seconds(), c1 = thread_seconds();
	if (phase >= 0) {
		s->split[phase] += w1 - *wall;
		s->split_cpu[phase] += c1 - *cpu;
	}
	*wall = w1;
	*cpu = c1;
}

/* A step's sort, density and forces as one round of phases (one wake-up of
 * the helpers, not one a phase). Phase 0: the sort's plan, when the sort is
 * one task (a large scene sorts in rounds of its own first), beside the last
 * step's soil rows. Phase 1: the gathers of the sorted particles, after the
 * plan. Phase 2: density, each task after the gathers that fill its
 * particles' neighbours. Phase 3: forces, each task after the density tasks
 * of its particles' neighbours and after the soil (the force pass's look for
 * the coupling reads the saturation). The gather, density and force tasks
 * share one split of the particles, so a worker tends to keep its particles
 * through the step. Each pass writes only its own particles and reads only
 * what it waits for, so the bits are those of the passes one after another. */
struct round {
	struct sph *s;
	struct world *w;
	struct workers *pool;
	double dt;
	struct pending pd;
	bool sort_here;
	int tasks; /* gather, density and force tasks each */
	int err;
	long at[TASKS_MAX + 1]; /* task k's particles [at[k], at[k + 1]) */
	/* The tasks holding task k's particles' neighbours: need0[k]..need1[k]. */
	int need0[TASKS_MAX], need1[TASKS_MAX];
	atomic_int planned, soil_left, soil_ready;
	atomic_int gathered[TASKS_MAX], dense[TASKS_MAX];
	double vmax[TASKS_MAX], amax[TASKS_MAX];
	int phase; /* the caller's, for its clocks (mark) */
	double wall, cpu;
};

/* The caller's clocks go to the phase it is in (the gathers count as the
 * sort's, the force phase as force). */
static void round_enter(struct round *r, int phase, int worker)
{
	if (worker == 0 && phase != r->phase) {
		mark(r->s, r->phase, &r->wall, &r->cpu);
		r->phase = phase;
	}
}

/* The tasks' shares of the sorted particles, and the tasks each one's
 * neighbours lie in (sph_neighbour_span). */
static void round_shares(struct round *r)
{
	const struct sph *s = r->s;
	for (int k = 0; k < r->tasks; k++) {
		long to;
		workers_taper(s->n, k, r->tasks, &r->at[k], &to);
	}
	r->at[r->tasks] = s->n;
	for (int k = 0; k < r->tasks; k++) {
		int d0 = k, d1 = k;
		if (r->at[k] < r->at[k + 1]) {
			long lo, hi;
			sph_neighbour_span(s, r->at[k], r->at[k + 1], &lo, &hi);
			while (d0 > 0 && r->at[d0] > lo)
				d0--;
			while (d1 + 1 < r->tasks && r->at[d1 + 1] < hi)
				d1++;
		}
		r->need0[k] = d0;
		r->need1[k] = d1;
	}
}

static void plan_phase_task(void *arg, int task, int worker)
{
	struct round *r = arg;
	round_enter(r, 0, worker);
	if (r->sort_here && task-- == 0) {
		r->err = sph_sort_plan(r->s);
		if (!r->err)
			round_shares(r);
		atomic_store(&r->planned, 1);
		return;
	}
	tail_task(&r->pd.t, task, worker);
	if (atomic_fetch_sub(&r->soil_left, 1) == 1) {
		sph_soil_swap(r->s, &r->pd.st);
		atomic_store(&r->soil_ready, 1);
	}
}

static bool planned(void *arg)
{
	struct round *r = arg;
	return atomic_load(&r->planned);
}

static void gather_phase_task(void *arg, int task, int worker)
{
	struct round *r = arg;
	round_enter(r, 0, worker);
	workers_await(r->pool, planned, r);
	if (!r->err)
		sph_sort_gather(r->s, (int)r->at[task], (int)r->at[task + 1]);
	atomic_store(&r->gathered[task], 1);
}

/* A task waits for tasks need0..need1 of an earlier phase (flags). */
struct needs {
	struct round *r;
	const atomic_int *done;
	bool soil;
	int task;
};

static bool needs_met(void *arg)
{
	const struct needs *n = arg;
	if (n->soil && !atomic_load(&n->r->soil_ready))
		return false;
	for (int d = n->r->need0[n->task]; d <= n->r->need1[n->task]; d++)
		if (!atomic_load(&n->done[d]))
			return false;
	return true;
}

static void density_phase_task(void *arg, int task, int worker)
{
	struct round *r = arg;
	round_enter(r, 1, worker);
	workers_await(r->pool, planned, r);
	long from = r->at[task], to = r->at[task + 1];
	if (!r->err && from < to) {
		struct needs n = {r, r->gathered, false, task};
		workers_await(r->pool, needs_met, &n);
		memset(r->s->dead + from, 0, (size_t)(to - from));
		sph_density_pass(r->s, r->w, (int)from, (int)to);
	}
	atomic_store(&r->dense[task], 1);
}

static void force_phase_task(void *arg, int task, int worker)
{
	struct round *r = arg;
	round_enter(r, 2, worker);
	workers_await(r->pool, planned, r);
	if (r->err)
		return;
	struct needs n = {r, r->dense, true, task};
	workers_await(r->pool, needs_met, &n);
	long from = r->at[task], to = r->at[task + 1];
	sph_force_pass(r->s, r->w, r->dt, (int)from, (int)to, &r->vmax[task], &r->amax[task]);
}

/* The last step's soil rows for phase 0, when the run left them waiting;
 * with no rows, its substep ends here. */
static void round_open_tail(struct round *r)
{
	struct sph *s = r->s;
	int rows = 0;
	if (s->unsettled) {
		pending_open(s, NULL, &r->pd);
		rows = tail_plan(s, &r->pd.t, false);
		if (rows == 0)
			sph_soil_swap(s, &r->pd.st);
	}
	atomic_store(&r->soil_left, rows);
	atomic_store(&r->soil_ready, rows == 0);
}

/* A large scene's sort, in rounds of its own with the soil beside it: the
 * round that follows finds everything its density and forces wait for. */
static int round_sort_first(struct round *r)
{
	if ((r->err = sort_and_tail(r->s)))
		return r->err;
	round_shares(r);
	atomic_store(&r->planned, 1);
	atomic_store(&r->soil_ready, 1);
	for (int k = 0; k < r->tasks; k++)
		atomic_store(&r->gathered[k], 1);
	return GULLY_OK;
}

/* Runs the round; the caller's clocks continue from *wall and *cpu. */
static int round_run(struct sph *s, struct world *w, double dt, double *wall, double *cpu)
{
	struct round r = {.s = s, .w = w, .dt = dt, .tasks = sph_tasks(s, s->n),
			  .sort_here = !sph_sort_splits(s), .wall = *wall, .cpu = *cpu};
	bool pending = s->unsettled && r.sort_here;
	if (!r.sort_here) {
		if (round_sort_first(&r))
			return r.err;
	} else {
		round_open_tail(&r);
	}
	int soil = atomic_load(&r.soil_left);
	r.pool = r.tasks == 1 && (!pending || tail_small(&r.pd.t)) ? NULL : s->workers;
	struct workers_phase ph[4] = {
		{r.sort_here + soil, plan_phase_task, &r},
		{r.sort_here ? r.tasks : 0, gather_phase_task, &r},
		{r.tasks, density_phase_task, &r},
		{r.tasks, force_phase_task, &r},
	};
	workers_phases(r.pool, ph, 4);
	if (pending) { /* phase 0 swapped the soil */
		tail_end(s, &r.pd.t, false);
		pending_done(s, &r.pd);
	}
	if (r.err)
		return r.err;
	s->vmax = s->amax = 0;
	for (int k = 0; k < r.tasks; k++) {
		s->vmax = fmax(s->vmax, r.vmax[k]);
		s->amax = fmax(s->amax, r.amax[k]);
	}
	mark(s, r.phase, &r.wall, &r.cpu);
	*wall = r.wall;
	*cpu = r.cpu;
	return GULLY_OK;
}

/* The water the tail that just ran dried goes to the world's tallies on
 * its own (one tail completes between two calls of this). */
static void tally_dried(struct sph *s, struct world *w)
{
	if (s->dried_untallied) {
		w->tally[TALLY_WATER_EVAPORATED] += sph_water_tally(s, s->dried_untallied);
		s->dried_untallied = 0;
	}
}

/* One step, its tail left waiting (step_end). The step's water in and the
 * last step's drying go to the tallies as each happens, so the tallies are
 * the same however a run is cut into calls. */
static int step_open(struct sph *s, struct world *w)
{
	double dt = s->dt, wall, cpu;
	mark(s, -1, &wall, &cpu);
	s->pristine = false;
	int64_t emitted = s->books.water_emitted;
	sph_emit(s, w, dt);
	if (s->books.water_emitted != emitted)
		w->tally[TALLY_WATER_IN] += sph_water_tally(s, s->books.water_emitted - emitted);
	int err = round_run(s, w, dt, &wall, &cpu);
	tally_dried(s, w);
	if (err)
		return err;
	s->particle_steps += (uint64_t)s->n;
	struct sph_particles t = s->p;
	s->p = s->q;
	s->q = t;
	s->pre_n = s->n; /* the force pass found their cells */
	s->pre_h = s->cfg.h;
	sph_couple(s, w, dt);
	mark(s, 3, &wall, &cpu);
	step_end(s, w, dt);
	s->time += dt;
	s->steps++;
	s->dt = next_dt(s);
	mark(s, 4, &wall, &cpu);
	return GULLY_OK;
}

void sph_settle(struct sph *s, struct world *w)
{
	double wall, cpu;
	mark(s, -1, &wall, &cpu);
	settle(s, w);
	tally_dried(s, w);
	mark(s, 4, &wall, &cpu);
}

int sph_step(struct sph *s, struct world *w)
{
	int err = step_open(s, w);
	sph_settle(s, w);
	return err;
}

int sph_run(struct sph *s, struct world *w, uint64_t steps, uint64_t *done)
{
	int err = GULLY_OK;
	*done = 0;
	while (*done < steps && !(err = step_open(s, w)))
		(*done)++;
	sph_settle(s, w);
	return err;
}
