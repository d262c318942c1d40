/* The noise fields' rows over world.threads threads: the terrain and the
 * hardness map are one noise sum per cell, each cell on its own, so any
 * split of the rows gives the same bits. At 4096x4096 the terrain is
 * seconds of one core's work before a run or the explorer can start
 * (bench/README.md, "making a 4096x4096 terrain"). */
#ifndef GULLY_TERRAIN_ROWS_H
#define GULLY_TERRAIN_ROWS_H

#include "core/base/params.h"
#include "core/base/world.h"

/* Fills rows [y0, y1) of whatever arg describes. */
typedef void (*terrain_rows_fn)(void *arg, int y0, int y1);

/* Runs fn over rows 0 .. w->height - 1 in blocks, on p->world.threads
 * threads (0: every CPU it may run on) for a map big enough to pay for
 * them, else (or when threads cannot be had: the result is the same) on
 * the caller's. */
void terrain_rows(const struct world *w, const struct params *p, terrain_rows_fn fn, void *arg);

#endif
