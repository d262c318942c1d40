/* Hydrology's descend (DESIGN.md 3.2): one droplet runs downhill with the
 * per-cell effective parameters until it dies, leaves the map, or stops to
 * flood. Private to src/core (and its tests).
 *
 * It is the same arithmetic as the first, plain version (the same float
 * operations in the same order, so the same bits; tests/test_descend.c
 * keeps that version and compares), made fast the way the particles
 * process's droplet loop was (bench/README.md, bench/HYDROLOGY.md):
 * - the droplet lives in locals, not behind a pointer: every height and
 *   track store could alias its fields, and the compiler would reload them;
 * - the interior normal is the droplet's (base/normal.h), inline, with its
 *   constants built once per step() call, not on every step;
 * - position and speed are (x, y) pairs (base/v2.h), and one compare
 *   answers "still on the map" and "is the 3x3 block inside it";
 * - the pit test is three row loads of height and pool and one compare mask
 *   instead of a loop whose exit point the branch predictor cannot guess;
 * - eroded and deposited are a branch-free pair (whether a step erodes or
 *   deposits is a coin toss);
 * - cells whose height moved are listed for the caller, which tells the
 *   flood's lake cache after the descent (flood_forget_cell reads and writes
 *   only the flood's own records, which descend never reads, so calling it
 *   later in the same order changes nothing), instead of a call per step
 *   that spills every register. */
#ifndef GULLY_HYDROLOGY_DESCEND_H
#define GULLY_HYDROLOGY_DESCEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/normal.h"
#include "core/base/params.h"
#include "core/base/world.h"
#include "core/hydrology/hydrology_stream.h"

/* What a descent needs, fixed for a step() call. */
struct hd_env {
	float *h;                           /* height: read and written */
	const float *stream, *pool, *veg;   /* read */
	uint8_t *track;                     /* cells visited: set to 1 */
	/* The stream map's lazy update (NULL: the map is current). When set, a
	 * cell's stream may be read, or its track byte set, only after its tile
	 * was made current (hydrology_stream.h): descend checks `at` and `next`. */
	struct hstream *hs;
	int width, height;
	float dt, density, friction, deposition, evap, scale;
	float stop_stream, stop_accel;
	double min_volume;
	uint32_t max_steps;
	int coupling;                       /* enum hydrology_coupling */
	bool symmetric, pit_stop;
	bool normal2020;  /* hydrology.normal = 2020 (normal_2020 in base/normal.h) */
	bool normal_wrap; /* ... = 2020wrap: with the seed's y-edge neighbours */
	bool concentrate; /* evaporation raises the load's concentration */
	bool capacity_volume; /* c_eq scales with the droplet's volume */
	bool pit_dry;     /* a pit off the streams: the droplet dries there */
	/* Set by hydrology_descend_init from the fields above. */
	struct normal_consts nk;
	struct v2_bounds bounds;
	/* Run the descent's AVX2 copy: the same operations in the same order,
	 * VEX-encoded (fewer register copies), so the same bits. Set where the
	 * CPU has AVX2; a test may clear it to run the baseline copy. */
	bool avx2;
};

/* A droplet. Volume is double: it is the water the books must balance. */
struct hdrop {
	float x, y, vx, vy;
	double volume;
	float sediment; /* the seed's sediment concentration */
	double carried; /* soil really taken from the ground, net */
	uint32_t age;
};

enum descent {
	DESCENT_DIED,  /* dried up or too old */
	DESCENT_LEFT,  /* stepped off the map */
	DESCENT_FLOOD, /* stopped: into a pool, a pit, or slowing on a stream */
	DESCENT_FULL,  /* `changed` is full: pass it on and call again */
	DESCENT_MOVED, /* hydrology_descend_step: one step taken, it goes on */
};

/* Fills env->nk and env->bounds; call after setting the other fields. */
void hydrology_descend_init(struct hd_env *e);
/* Everything from the parameters and the world's layers (then _init). */
void hydrology_descend_env(struct hd_env *e, const struct params *p, struct world *w,
			   uint8_t *track);

/* Runs the droplet from (d->x, d->y), which must be on the map. Adds the
 * float height each step took to *eroded and what it gave to *deposited
 * (their running sums, in step order), and the steps to *steps. Appends
 * each cell whose height moved to changed[*nchanged], in step order; when
 * the list is full it returns DESCENT_FULL before the next step, with the
 * droplet written back, and a second call goes on exactly where it was. */
enum descent hydrology_descend(const struct hd_env *e, struct hdrop *d, double *eroded,
			       double *deposited, uint32_t *changed, size_t cap,
			       size_t *nchanged, uint64_t *steps);

/* On a map with the lazy stream (too big for the caches): the lines a
 * droplet starting at `cell` reads first, fetched ahead (no effect on what
 * is computed). */
void hydrology_descend_prefetch(const struct hd_env *e, uint32_t cell);

/* What one step did, for the explorer's trace. */
enum hd_stop { HD_STOP_NONE, HD_STOP_STREAM, HD_STOP_POOL, HD_STOP_PIT };
struct hd_step {
	int64_t cell;        /* the cell whose height the step set; -1: none */
	float before, after; /* its height before and after */
	float c_eq;          /* the sediment the droplet could carry at this step */
	int stop;            /* enum hd_stop: why a DESCENT_FLOOD step stopped */
	float delta;         /* after = before - delta */
};

/* One step of hydrology_descend, the same arithmetic (the same function):
 * DESCENT_MOVED after a step that goes on; otherwise what hydrology_descend
 * returns when its descent ends at this step (DESCENT_DIED with no step
 * when the droplet has none left). A moved cell is st->cell (when
 * st->after != st->before): the caller tells the flood's lake cache. */
enum descent hydrology_descend_step(const struct hd_env *e, struct hdrop *d, double *eroded,
				    double *deposited, uint64_t *steps, struct hd_step *st);

/* One step for the lanes (hlanes.h): the same arithmetic, reading
 * the map, writing none of it. No height, track byte, book or carried soil
 * changes; the step's cell and delta are in *st (st->cell -1: no step), for
 * the lanes' write phase to apply, and st->stop says why it stopped (a
 * DESCENT_DIED with HD_STOP_PIT is hydrology.pit_dry's: the lanes set that
 * cell's track byte). The lazy stream's tiles it reads are made current. */
enum descent hydrology_descend_lane(const struct hd_env *e, struct hdrop *d, uint64_t *steps,
				    struct hd_step *st);

#endif
