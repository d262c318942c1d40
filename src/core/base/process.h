/* The process interface: every erosion process is driven through this shape,
 * so the explorer and the command line never switch on process names. */
#ifndef GULLY_PROCESS_H
#define GULLY_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/params.h"
#include "core/base/world.h"

/* What one step() call did; the world's own counters hold the totals. */
struct process_report {
	uint64_t particles;
	uint64_t steps;
};

/* An on-map source that the explorer draws and its keys and mouse move
 * (the emitter's): the registry keys of the process's parameters that are
 * its position, heading and window. */
struct process_source {
	const char *name;       /* what the explorer's messages call it: "jet 1" */
	const char *x, *y;      /* fractions of the map's width and height */
	const char *direction;  /* degrees: 0 east, 90 south (y grows down) */
	const char *window;     /* the side of the square it emits from, cells */
	int window_is_radius;   /* window names a radius (a jet's nozzle): the side is twice it */
	const char *on;         /* its on/off switch (a boolean key); NULL: always on */
	const char *elevation;  /* degrees above the horizontal (a jet's); NULL: level */
};

struct process_ops {
	const char *name;     /* "particles": the --process and preset name */
	const char *title;    /* "Particle erosion" */
	const char *section;  /* the params section it reads */
	const char *unit;     /* what a budget counts: "droplets", "steps" */
	/* The equations, for the explorer's class panel: fixed text, or made
	 * for the settings by describe_for (then describe is NULL), into buf
	 * (PROCESS_DESCRIBE_MAX bytes), with the same lines for any settings
	 * (the droplet trace cites them by number). Read through
	 * process_describe. */
	const char *describe;
	const char *(*describe_for)(const struct params *p, char *buf, size_t len);
	/* The sources on the map, in the order the explorer's key picks them
	 * (jet 1 first); none when nsources is 0. */
	const struct process_source *sources;
	int nsources;
	/* Builds whatever the process keeps between calls from the world and
	 * params alone, so a snapshot resumes it exactly. */
	int (*create)(void **state, struct world *w, const struct params *p);
	/* Runs `budget` units; adds to the world's counters and tallies. */
	int (*step)(void *state, struct world *w, const struct params *p,
		    uint64_t budget, struct process_report *rep);
	void (*destroy)(void *state);
	/* Optional: state that is not in the world's layers, saved in snapshots.
	 * save allocates *data (caller frees); load gets what save wrote. */
	int (*save_state)(const void *state, unsigned char **data, size_t *len);
	int (*load_state)(void *state, const unsigned char *data, size_t len);
	/* Optional: ends what is still in flight (droplets part-way down) so
	 * the world holds all of it. For a state about to be dropped while its
	 * world goes on with another process; a saved state needs none of it.
	 * Adds the steps taken to the world's counters and to *rep (may be NULL);
	 * releases nothing new. */
	int (*finish)(void *state, struct world *w, const struct params *p,
		      struct process_report *rep);
	/* Optional: a process that keeps a layer lazily (hydrology's stream
	 * map, caught up tile by tile) brings every layer up to date; with
	 * `lag`, the step() calls after it may leave such a layer behind what
	 * the state holds until the next catch_up(). Without it (and by
	 * default) every step() ends with the world whole. A caller that
	 * turns lag on reads no layer and saves nothing until it catches
	 * up again without it; the bits are the same either way. For `gully
	 * run`, whose chunks would otherwise each end with a pass over the
	 * whole map. */
	void (*catch_up)(void *state, bool lag);
	/* gully run ends a budget with finish: a budget of droplets means those
	 * droplets to their end. Off where the unit is time (sph's steps): the
	 * water in flight is the state a snapshot must keep to resume. */
	bool finish_ends_run;
	/* Optional: the registry keys (NULL-ended) whose values a state takes
	 * when it is made and keeps (sph's soil pores): a change to one acts
	 * only on a state made after it. The explorer says so when the panel
	 * changes one; gully run refuses a --set of one on a snapshot's state,
	 * which would otherwise go on without it. */
	const char *const *made_with;
	/* Its particles start where world_spawn_point puts them, so a rain
	 * mask (world.rain, base/rain.h) acts on it; a process whose particles
	 * start elsewhere (an emitter's window, jets) would take one and drop
	 * it, and gully run refuses it there instead. */
	bool uses_rain;
};

int process_count(void);
const struct process_ops *process_get(int index);
/* The process gully runs when none is named (by --process or a preset):
 * the first of the table, for `gully run` and the explorer alike. */
const struct process_ops *process_default(void);
/* NULL when no process has that name. */
const struct process_ops *process_find(const char *name);
/* True for a process whose budget counts time steps (sph), not particles
 * released: the explorer's panel and undo count its steps, and gully run
 * gives it fewer units a call. */
bool process_counts_time(const struct process_ops *p);
/* The equations for these settings (NULL: the defaults), in buf when they
 * are made for them; NULL when the process gives none. */
#define PROCESS_DESCRIBE_MAX 1024
const char *process_describe(const struct process_ops *ops, const struct params *p, char *buf,
			     size_t len);
/* The list of names as "a|b|c", for help texts. */
const char *process_names(void);

#endif
