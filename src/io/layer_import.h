/* Loading a single map layer (the hardness map) from a file: a height-map
 * style grid read by image_import_grid (.pgm 8/16-bit, .r16, .f32; any size,
 * values 0..1 for the integer formats), or a layer of a snapshot, named as
 * FILE.gsnap (its hardness layer) or FILE.gsnap:LAYER. */
#ifndef GULLY_LAYER_IMPORT_H
#define GULLY_LAYER_IMPORT_H

#include <stddef.h>

#include "core/base/world.h"

/* Reads `spec` into a new width x height array (caller frees). Returns a
 * gully_err code; on failure `err` holds one line naming the file and what is
 * wrong, and *values is NULL. */
int layer_import_read(const char *spec, float **values, int *width, int *height,
		      char *err, size_t errlen);

/* Reads `spec` as a hardness grid, its own size (caller frees *values):
 * refused as layer_import_hardness refuses it. For a front end that makes
 * its worlds later (the explorer: every new terrain gets the map). */
int layer_import_hardness_grid(const char *spec, float **values, int *width, int *height,
			       char *err, size_t errlen);

/* Reads `spec` and fills w's hardness layer, stretched (bilinear) to the
 * map's size. A value that is NaN, infinite or outside 0..1 is refused
 * (GULLY_ERANGE, the layer untouched) with one line naming the file and the
 * cell. */
int layer_import_hardness(struct world *w, const char *spec, char *err, size_t errlen);

#endif
