/* A layer of the world to a file by its extension: a picture (.png, .ppm)
 * in the explorer's colours, or the values as data (.pgm, .r16, .f32). The
 * composition of view (pixels) and io (files), which neither knows. */
#ifndef GULLY_CLI_PICTURE_H
#define GULLY_CLI_PICTURE_H

#include <stddef.h>

#include "core/base/params.h"
#include "core/base/world.h"

/* Writes `layer` of w to path, atomically. Pictures (.png, .ppm) are the
 * explorer's colours at 1:1 (view/shade): heights on its ramp (any other
 * layer stretched from its min..max onto the ramp), lit from view.azimuth
 * and view.altitude with view.shading and terrain.vertical_scale's relief,
 * then `overlays` (OVERLAY_BIT()s of view/shade.h) on top. Returns a
 * gully_err code; err names the file. */
int picture_export_view(const char *path, const struct world *w, int layer,
			const struct params *p, unsigned overlays, char *err, size_t errlen);
/* The same with the default view and no overlays; `scale` is
 * terrain.vertical_scale. */
int picture_export(const char *path, const struct world *w, int layer, float scale, char *err,
		   size_t errlen);

#endif
