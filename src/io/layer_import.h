/* Loading a single map layer (the hardness map) from an image file:
 * binary or ASCII PGM (P5/P2, 8 or 16 bits) or a raw .r16 (square, 16-bit
 * little-endian samples, the usual heightmap-tool export). Values become
 * 0..1 (sample / maxval). A snapshot's layer needs no loader here: take it
 * from snapshot_load's world and pass it to hardness_fill_from. */
#ifndef GULLY_LAYER_IMPORT_H
#define GULLY_LAYER_IMPORT_H

#include <stddef.h>

#include "core/world.h"

/* Largest file read (a 16-bit 8192 x 8192 image plus its header). */
#define LAYER_IMPORT_MAX_BYTES ((size_t)160 << 20)

/* Reads `path` into a new width x height array of values in [0, 1] (caller
 * frees). The type comes from the magic number (P2, P5), else the extension
 * (.r16). Returns a gully_err code; on failure `err` holds one line naming the
 * file and what is wrong, and *values is NULL. */
int layer_import_read(const char *path, float **values, int *width, int *height,
		      char *err, size_t errlen);

/* Reads `path` and fills w's hardness layer, resampled to the map's size. */
int layer_import_hardness(struct world *w, const char *path, char *err, size_t errlen);

#endif
