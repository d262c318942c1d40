/* One SPH step, in the order sph.h gives, with the two parallel passes
 * split statically over the particles. */
#include "core/sph/sph.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "core/base/error.h"
#include "core/base/workers.h"

/* Tasks a parallel phase is cut into: enough that the workers balance an
 * uneven load (the deep particles of a pool have more neighbours) and a
 * helper that got no core costs at most one task's wait. */
#define TASKS_MAX 64
#define TASK_MIN 256

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
	workers_share(ps->s->n, task, ps->tasks, &from, &to);
	if (ps->force)
		sph_force_pass(ps->s, ps->w, ps->dt, (int)from, (int)to, &ps->vmax[task],
			       &ps->amax[task]);
	else
		sph_density_pass(ps->s, ps->w, (int)from, (int)to);
}

static int tasks_for(const struct sph *s, long items)
{
	if (!s->workers || items < 2 * TASK_MIN)
		return 1;
	long t = items / TASK_MIN;
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

int sph_step(struct sph *s, struct world *w)
{
	double dt = s->dt, t0 = seconds();
	sph_emit(s, w, dt);
	int err = sph_sort(s);
	if (err)
		return err;
	double t1 = seconds();
	memset(s->dead, 0, (size_t)s->n);
	struct pass ps = {.s = s, .w = w, .dt = dt, .force = 0, .tasks = tasks_for(s, s->n)};
	parallel(s, &ps);
	double t2 = seconds();
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
	double t3 = seconds();
	sph_couple(s, w, dt);
	if (s->cfg.wetting) {
		sph_darcy(s, dt);
		sph_dry(s, dt);
	}
	sph_wetness_layer(s, w);
	sph_water_layer(s, w);
	s->time += dt;
	s->steps++;
	s->dt = next_dt(s);
	double t4 = seconds();
	s->split[0] += t1 - t0;
	s->split[1] += t2 - t1;
	s->split[2] += t3 - t2;
	s->split[3] += t4 - t3;
	return GULLY_OK;
}
