/* One droplet of process 1 followed a step at a time, for the explorer's
 * trace: the step is droplet.h's droplet_step, the one every runner of the
 * process takes, on the world's own height layer, so what the trace shows
 * is what the simulation does and the map changes by exactly that droplet.
 * A run of steps to the droplet's end gives the same map, tallies and
 * droplet, bit for bit, as the process releasing that droplet (in the
 * one-after-another order, particles.lanes = 1). */
#ifndef GULLY_PARTICLES_TRACE_H
#define GULLY_PARTICLES_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/params.h"
#include "core/base/world.h"
#include "core/particles/particles.h"

struct particles_trace;

/* The droplet after a step, and what the step did. */
struct particles_trace_state {
	struct droplet d;     /* position, speed, volume, sediment, age */
	float c_eq;           /* the sediment it could carry at this step */
	int64_t cell;         /* the cell whose height the step changed; -1: none */
	float before, after;  /* that cell's height before and after */
	uint32_t steps;       /* steps taken so far */
	bool ended;           /* it has ended (dried up, too old, or off the map) */
	bool off_map;         /* it ended by leaving the map */
	double dropped;       /* at its end: the soil it laid down (deposit on death) */
};

/* A droplet at (x, y) (cells) at rest with volume 1, as the process spawns
 * one. Reads the parameters once: they hold for the droplet's life. */
int particles_trace_start(struct particles_trace **out, struct world *w, const struct params *p,
			  float x, float y, struct particles_trace_state *s);
/* One step on w (the world it started on). At the droplet's end it drops
 * its load (deposit on death), books its tallies and counts itself in the
 * world's particles and steps. Returns false, changing nothing, once ended. */
bool particles_trace_step(struct particles_trace *t, struct world *w,
			  struct particles_trace_state *s);
void particles_trace_free(struct particles_trace *t);

#endif
