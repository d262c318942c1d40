/* A layer to a picture or a data file (picture.h). */
#include "cli/picture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "io/image.h"
#include "view/shade.h"

/* The pixels as 3 bytes each, as PNG and PPM store them. */
_Static_assert(sizeof(struct rgb) == 3, "struct rgb is three bytes");

static unsigned char *shaded(const struct world *w, int layer, const struct params *p,
			     unsigned overlays)
{
	size_t n = world_cells(w);
	struct rgb *px = malloc(n * sizeof *px);
	if (!px)
		return NULL;
	struct shade_view v;
	memset(&v, 0, sizeof v);
	shade_view_from_params(&v, p);
	v.overlays = overlays;
	if (layer != LAYER_HEIGHT) {
		v.ramp_layer = w->layer[layer];
		image_range(w->layer[layer], n, &v.ramp_min, &v.ramp_max);
	}
	if (shade_image(w, &v, px)) {
		free(px);
		return NULL;
	}
	return (unsigned char *)px;
}

int picture_export_view(const char *path, const struct world *w, int layer,
			const struct params *p, unsigned overlays, char *err, size_t errlen)
{
	int fmt = image_format_from_path(path);
	if (fmt == IMAGE_NONE) {
		snprintf(err, errlen, "%s: unknown picture type (use .%s)", path,
			 "png, .ppm, .pgm, .r16 or .f32");
		return GULLY_EINVAL;
	}
	if (layer < 0 || layer >= LAYER_COUNT) {
		snprintf(err, errlen, "%s: no layer number %d", path, layer);
		return GULLY_ENOTFOUND;
	}
	if (fmt != IMAGE_PNG && fmt != IMAGE_PPM)
		return image_write_values(path, w->width, w->height, w->layer[layer], err, errlen);
	unsigned char *rgb = shaded(w, layer, p, overlays);
	if (!rgb) {
		snprintf(err, errlen, "%s: out of memory", path);
		return GULLY_ENOMEM;
	}
	int e = image_write_rgb(path, w->width, w->height, rgb, err, errlen);
	free(rgb);
	return e;
}

int picture_export(const char *path, const struct world *w, int layer, float scale, char *err,
		   size_t errlen)
{
	struct params p;
	params_defaults(&p);
	p.terrain.vertical_scale = scale;
	return picture_export_view(path, w, layer, &p, 0, err, errlen);
}
