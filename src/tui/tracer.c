/* Traced droplets for the `t` overlay: the particle physics of process 1 run
 * one step at a time on the current terrain with no mass transfer, so they
 * show where water goes without changing the map or the run's random stream. */
#include <math.h>
#include <string.h>

#include "tui/app.h"

/* The tracers' own random stream, apart from the simulation's. */
#define TRACER_STREAM 0x7472616365ULL

static void spawn(struct app *a, struct tracer *t)
{
	memset(t, 0, sizeof *t);
	t->d.x = rng_float(&a->tracer_rng) * (float)(a->world->width - 1);
	t->d.y = rng_float(&a->tracer_rng) * (float)(a->world->height - 1);
	t->d.volume = 1.0f;
}

void tracer_reset(struct app *a)
{
	rng_seed(&a->tracer_rng, (uint64_t)a->params.world.seed, TRACER_STREAM);
	for (int i = 0; i < TRACERS; i++)
		spawn(a, &a->tracers[i]);
	a->npoints = 0;
}

void tracer_advance(struct app *a, int steps)
{
	struct droplet_params dp;
	droplet_params_from(&dp, &a->params);
	/* No erosion or deposition: heights stay bit-identical. */
	dp.deposition_rate = 0;
	dp.deposit_on_death = false;
	a->npoints = 0;
	for (int i = 0; i < TRACERS; i++) {
		struct tracer *t = &a->tracers[i];
		for (int s = 0; s < steps; s++) {
			uint32_t age = t->d.age;
			struct droplet_params one = dp;
			one.max_steps = age + 1;
			uint32_t took = droplet_run(&t->d, a->world, &one);
			bool inside = t->d.x >= 0 && t->d.y >= 0 && t->d.x < (float)a->world->width &&
				      t->d.y < (float)a->world->height;
			if (took == 0 || !inside || t->d.age >= dp.max_steps) {
				spawn(a, t);
				break;
			}
			memmove(t->x + 1, t->x, (TRACER_TAIL - 1) * sizeof t->x[0]);
			memmove(t->y + 1, t->y, (TRACER_TAIL - 1) * sizeof t->y[0]);
			t->x[0] = t->d.x;
			t->y[0] = t->d.y;
			if (t->n < TRACER_TAIL)
				t->n++;
		}
		for (int k = 0; k < t->n; k++)
			a->points[a->npoints++] = (struct shade_point){t->x[k], t->y[k]};
	}
}
