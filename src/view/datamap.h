/* Data layers for export: what erosion did (erosion: base - height where
 * positive; deposition: height - base where positive) and where water runs
 * (flow: the stream map), each with its own colour ramp and a legend bar, not
 * the terrain's colours and hill shading. Pure arithmetic, no I/O. */
#ifndef GULLY_DATAMAP_H
#define GULLY_DATAMAP_H

#include "core/base/world.h"
#include "view/palette.h"

enum datamap { DATAMAP_EROSION, DATAMAP_DEPOSITION, DATAMAP_FLOW, DATAMAP_COUNT };

/* Rows of legend under a data picture: a gap, then the ramp from min to max. */
#define DATAMAP_LEGEND_ROWS 10

/* The index of "erosion", "deposition" or "flow"; -1 for any other name. */
int datamap_find(const char *name);
const char *datamap_name(int which);
/* The layer's values, one per cell (malloc'd; NULL when out of memory). */
float *datamap_values(const struct world *w, int which);
/* The ramp's colour at t in [0, 1] (clamped): dark for nothing, bright for most. */
struct rgb datamap_colour(int which, double t);
/* The picture of values (width x height) from mn..mx on the ramp, with the
 * legend's rows below: width x (height + DATAMAP_LEGEND_ROWS) pixels, into
 * out (that many). */
void datamap_picture(const float *values, int width, int height, int which, float mn, float mx,
		     struct rgb *out);

#endif
