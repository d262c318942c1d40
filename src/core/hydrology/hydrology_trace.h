/* One droplet of process 2 followed a stage at a time, for the explorer's
 * trace: each call runs one step of hydrology's own descent
 * (hydrology_descend_step, the loop the process runs), or the pour into the
 * flood where it stopped, or its end (its books), on the world and the
 * process state it runs on. Followed to its end from the point the process
 * would spawn its next droplet, it leaves the same layers, tallies and
 * counters as the process releasing that droplet, bit for bit; it takes no
 * draw from the world's random stream. */
#ifndef GULLY_HYDROLOGY_TRACE_H
#define GULLY_HYDROLOGY_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/params.h"
#include "core/base/world.h"

struct hydrology_trace;

/* What the last call did. */
enum hydrology_trace_event {
	HTRACE_START, /* nothing yet */
	HTRACE_STEP,  /* a descent step (cell, before, after, c_eq) */
	HTRACE_STOP,  /* a step that stopped it: it pours next (stop says why) */
	HTRACE_POUR,  /* a pour into the flood (level, poured, lake_cells) */
	HTRACE_END,   /* its end: dried up, left the map, or out of rounds */
};

/* Why a descent stopped (as hydrology_descend.h's enum hd_stop). */
enum hydrology_trace_stop { HTRACE_STOP_NONE, HTRACE_STOP_STREAM, HTRACE_STOP_POOL,
			    HTRACE_STOP_PIT };

/* How a pour ended (as flood.h's enum flood_outcome). */
enum hydrology_trace_pour { HTRACE_FILLED, HTRACE_DRAIN, HTRACE_SEA, HTRACE_OVERSHOT };

struct hydrology_trace_state {
	float x, y, vx, vy;   /* position (cells) and velocity */
	double volume;        /* water, in droplet volumes */
	float sediment;       /* the load's concentration */
	double carried;       /* soil really taken from the ground, net */
	int event;            /* enum hydrology_trace_event */
	/* HTRACE_STEP and HTRACE_STOP */
	float c_eq;           /* the sediment it could carry at this step */
	int64_t cell;         /* the cell whose height the step set; -1: none */
	float before, after;  /* that cell's height before and after */
	int stop;             /* enum hydrology_trace_stop */
	/* HTRACE_POUR */
	int outcome;          /* enum hydrology_trace_pour */
	int pour_cell;        /* where it poured */
	double level;         /* the lake's water level after the pour */
	double poured;        /* the water the pools gained (pool units; < 0: a
			       * draining lake gave the droplet water) */
	double settled;       /* the load that settled under the water */
	size_t lake_cells;    /* cells in the lake */
	/* always */
	uint32_t steps;       /* descent steps so far (all rounds) */
	int round;            /* pours so far */
	bool ended, off_map;
	double dropped;       /* at its end: the soil it laid down */
};

/* A droplet at (x, y) (cells) with volume 1, as the process spawns one, on
 * `state` (hydrology's, made for w). */
int hydrology_trace_start(struct hydrology_trace **out, void *state, struct world *w,
			  const struct params *p, float x, float y,
			  struct hydrology_trace_state *s);
/* One stage on w and the state it started on. At its end the droplet books
 * its tallies and counts itself in the world's droplets and steps (a batch
 * that ends there ends as in the process). Returns false, changing nothing,
 * once ended or on another world; GULLY_ENOMEM from a pour is in *err. */
bool hydrology_trace_step(struct hydrology_trace *t, struct world *w, const struct params *p,
			  struct hydrology_trace_state *s, int *err);
void hydrology_trace_free(struct hydrology_trace *t);

#endif
