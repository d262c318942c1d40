/* A layer of the world to a file by its extension: a picture (.png, .ppm)
 * in the explorer's colours, or the values as data (.pgm, .r16, .f32). The
 * composition of view (pixels) and io (files), which neither knows. */
#ifndef GULLY_CLI_PICTURE_H
#define GULLY_CLI_PICTURE_H

#include <stddef.h>

#include "core/base/params.h"
#include "core/base/world.h"
#include "io/image.h"

struct shade_view;
/* The view a picture of world `layer` is drawn with: p's light and relief,
 * `overlays`, and a layer other than height stretched from its min..max
 * onto the height ramp. For files and render --ansi alike. */
void picture_view(struct shade_view *v, const struct world *w, int layer,
		  const struct params *p, unsigned overlays);
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

/* How render writes a layer: zeros are picture_export_view's defaults. */
struct picture_opts {
	unsigned overlays;           /* pictures: OVERLAY_BIT()s */
	int scale;                   /* pictures: each cell as N x N pixels (0, 1: one) */
	int colors;                  /* pictures: 256 as a 256-colour terminal shows them; 0 as made */
	struct image_value_opts values; /* data files: --gray16 .png, --range */
};
/* Writes `layer_name` of w to path: a world layer as picture_export_view
 * does, or a data layer (view/datamap.h: erosion, deposition, flow) as its
 * values or, for .png/.ppm, on its own ramp with a legend bar under it.
 * span (may be NULL) gets the range a 16-bit file stretched over; ramp_min
 * and ramp_max (may be NULL) the data picture's. */
int picture_export_named(const char *path, const struct world *w, const char *layer_name,
			 const struct params *p, const struct picture_opts *po,
			 struct image_span *span, float *ramp_min, float *ramp_max, char *err,
			 size_t errlen);
/* Says on stderr what a 16-bit file's 0..65535 stand for (span from
 * picture_export_named, stretched), with the --range that reads it back:
 * the file itself cannot say it. */
void picture_span_note(const char *path, const char *layer_name, const struct image_span *span);

#endif
