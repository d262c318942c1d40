/* One SPH step, in the order sph.h gives: three parallel phases (the sort
 * with the last step's tail beside it, density, force), each cut into tasks
 * that whichever worker is free claims (base/workers.h, workers_for). */
#include "core/sph/sph.h"

#include <math.h>
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

struct pass {
	struct sph *s;
	struct world *w;
	double dt;
	int force; /* 0: density pass, 1: force pass */
	int tasks;
	double vmax[TASKS_MAX], amax[TASKS_MAX];
};

static void pass_task(void *arg, int task, int worker)
{
	(void)worker;
	struct pass *ps = arg;
	long from, to;
	workers_taper(ps->s->n, task, ps->tasks, &from, &to);
	if (ps->force)
		sph_force_pass(ps->s, ps->w, ps->dt, (int)from, (int)to, &ps->vmax[task],
			       &ps->amax[task]);
	else
		sph_density_pass(ps->s, ps->w, (int)from, (int)to);
}

int sph_tasks(const struct sph *s, long items)
{
	if (!s->workers || items < 2 * TASK_MIN)
		return 1;
	long t = items / TASK_GRAIN;
	return t < TASKS_MAX ? (int)t : TASKS_MAX;
}

/* Both passes are gather-only, so any split gives the same bits; a small
 * scene is not worth waking a thread for. */
static void parallel(struct sph *s, struct pass *ps)
{
	workers_for(s->workers, ps->tasks, pass_task, ps);
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
 * both are rewritten whole by the tail that settles the run (the wet box
 * only grows), so nobody could see them. */
struct tail {
	struct sph *s;
	struct world *w;
	const struct sph_soil_step *st;
	bool last, layer;
	int chunks, rows; /* compaction tasks, soil tasks */
	int at[TASKS_MAX + 1];
	int64_t dried[TASKS_MAX];
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
	workers_share(s->wy1 - s->wy0 + 1, task, t->rows, &y0, &y1);
	t->dried[task] = sph_soil_rows(s, t->w, t->st, t->last, s->wy0 + (int)y0, s->wy0 + (int)y1);
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
	long rows = s->wx1 < s->wx0 ? 0 : s->wy1 - s->wy0 + 1;
	long cells = rows * (s->wx1 - s->wx0 + 1);
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
	return t->layer + t->chunks + t->rows;
}

/* A small scene is not worth waking a thread for. */
static bool tail_small(const struct tail *t)
{
	return t->chunks <= 1 && t->rows <= 1;
}

static void tail_end(struct sph *s, struct tail *t, bool compact)
{
	for (int k = 0; k < t->rows; k++)
		s->books.water_dried += t->dried[k];
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
		sph_soil_grow(s);
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
	if (pd->st.substeps)
		sph_soil_grow(s);
	pd->t = (struct tail){.s = s, .w = w, .st = &pd->st, .last = true};
}

static void pending_close(struct sph *s, struct pending *pd)
{
	sph_soil_swap(s, &pd->st);
	s->unsettled = false;
	s->pre_n = 0; /* settling may compact the particles */
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

/* The coupling, and beside it, when another step of this run follows, the
 * next sort's grid cells (sph_sort_prelude): they depend on the positions
 * alone, which the coupling reads and never writes, so on two threads they
 * come off the next step's serial sort. The caller takes the coupling, a
 * helper the cells (or the caller after it, if no helper came). */
struct couple_job {
	struct sph *s;
	struct world *w;
	double dt;
};

static void couple_task(void *arg, int task, int worker)
{
	(void)worker;
	struct couple_job *j = arg;
	if (task == 0)
		sph_couple(j->s, j->w, j->dt);
	else
		sph_sort_prelude(j->s, 0, j->s->n);
}

static void couple(struct sph *s, struct world *w, double dt, bool more)
{
	s->pre_n = 0;
	if (!more) {
		sph_couple(s, w, dt);
		return;
	}
	struct couple_job j = {s, w, dt};
	const int n = s->n; /* the coupling removes none until the sort */
	workers_for(sph_tasks(s, n) > 1 ? s->workers : NULL, 2, couple_task, &j);
	s->pre_n = n;
	s->pre_h = s->cfg.h;
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

/* One step, its tail left waiting (step_end); `more`: another step of the
 * same run follows. */
static int step_open(struct sph *s, struct world *w, bool more)
{
	double dt = s->dt, wall, cpu;
	mark(s, -1, &wall, &cpu);
	sph_emit(s, w, dt);
	int err = sort_and_tail(s);
	if (err)
		return err;
	mark(s, 0, &wall, &cpu);
	s->particle_steps += (uint64_t)s->n;
	memset(s->dead, 0, (size_t)s->n);
	struct pass ps = {.s = s, .w = w, .dt = dt, .force = 0, .tasks = sph_tasks(s, s->n)};
	parallel(s, &ps);
	mark(s, 1, &wall, &cpu);
	ps.force = 1;
	parallel(s, &ps);
	s->vmax = s->amax = 0;
	for (int k = 0; k < ps.tasks; k++) {
		s->vmax = fmax(s->vmax, ps.vmax[k]);
		s->amax = fmax(s->amax, ps.amax[k]);
	}
	struct sph_particles t = s->p;
	s->p = s->q;
	s->q = t;
	mark(s, 2, &wall, &cpu);
	couple(s, w, dt, more);
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
	mark(s, 4, &wall, &cpu);
}

int sph_step(struct sph *s, struct world *w)
{
	int err = step_open(s, w, false);
	sph_settle(s, w);
	return err;
}

int sph_run(struct sph *s, struct world *w, uint64_t steps, uint64_t *done)
{
	int err = GULLY_OK;
	*done = 0;
	while (*done < steps && !(err = step_open(s, w, *done + 1 < steps)))
		(*done)++;
	sph_settle(s, w);
	return err;
}
