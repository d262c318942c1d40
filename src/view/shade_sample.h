/* Private to src/view: how shade.c's frames sample the world
 * (shade_sample.c). */
#ifndef GULLY_VIEW_SHADE_SAMPLE_H
#define GULLY_VIEW_SHADE_SAMPLE_H

#include "view/shade.h"

/* The half-open range [*a, *b) of world cells pixel p covers along one
 * axis (origin: the world cell under pixel 0; limit: the map's size). */
void shade_cover(const struct shade_geom *g, int origin, int p, int limit, int *a, int *b);
/* Each pixel's sample (f->samples) of the cells it covers, reading only the
 * layers v's overlays show; pixels past the map are marked blank. */
void shade_sample_pixels(struct shade_frame *f, const struct world *w,
			 const struct shade_view *v);

#endif
