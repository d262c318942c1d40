/* A layer to a picture or a data file (picture.h). */
#include "cli/picture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "io/image.h"
#include "view/datamap.h"
#include "view/palette.h"
#include "view/shade.h"

/* The pixels as 3 bytes each, as PNG and PPM store them. */
_Static_assert(sizeof(struct rgb) == 3, "struct rgb is three bytes");

void picture_view(struct shade_view *v, const struct world *w, int layer,
		  const struct params *p, unsigned overlays)
{
	memset(v, 0, sizeof *v);
	shade_view_from_params(v, p);
	v->overlays = overlays;
	if (layer != LAYER_HEIGHT) {
		v->ramp_layer = w->layer[layer];
		image_range(w->layer[layer], world_cells(w), &v->ramp_min, &v->ramp_max);
	}
}

static unsigned char *shaded(const struct world *w, int layer, const struct params *p,
			     unsigned overlays)
{
	size_t n = world_cells(w);
	struct rgb *px = malloc(n * sizeof *px);
	if (!px)
		return NULL;
	struct shade_view v;
	picture_view(&v, w, layer, p, overlays);
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

/* The picture as the explorer shows it on a 256-colour terminal: each two
 * rows one row of half blocks, the pair quantised (and dithered) as the
 * explorer does, the top pixel the cell's foreground but in a dithered
 * pair's odd columns, where the explorer draws a lower half block. */
static void as_256_colours(struct rgb *px, int width, int height)
{
	for (int y = 0; y < height; y += 2) {
		for (int x = 0; x < width; x++) {
			struct rgb *top = &px[(size_t)y * (size_t)width + (size_t)x];
			struct rgb *bottom = y + 1 < height ? top + width : NULL;
			int fg, bg;
			if (palette_to_256_pair(*top, bottom ? *bottom : *top, &fg, &bg) &&
			    palette_256_lower(x)) {
				int t = fg;
				fg = bg;
				bg = t;
			}
			*top = palette_from_256(fg);
			if (bottom)
				*bottom = palette_from_256(bg);
		}
	}
}

/* Each pixel as a scale x scale block (scale >= 2). */
static unsigned char *upscale(const unsigned char *px, int width, int height, int scale)
{
	size_t ow = (size_t)width * (size_t)scale, oh = (size_t)height * (size_t)scale;
	unsigned char *out = malloc(ow * oh * 3);
	if (!out)
		return NULL;
	for (size_t y = 0; y < oh; y++)
		for (size_t x = 0; x < ow; x++)
			memcpy(out + (y * ow + x) * 3,
			       px + ((y / (size_t)scale) * (size_t)width + x / (size_t)scale) * 3, 3);
	return out;
}

/* The pixels (width x height) to a .png or .ppm, scaled. */
static int write_picture(const char *path, const unsigned char *rgb, int width, int height,
			 int scale, char *err, size_t errlen)
{
	if (scale < 2)
		return image_write_rgb(path, width, height, rgb, err, errlen);
	unsigned char *big = upscale(rgb, width, height, scale);
	if (!big) {
		snprintf(err, errlen, "%s: out of memory", path);
		return GULLY_ENOMEM;
	}
	int e = image_write_rgb(path, width * scale, height * scale, big, err, errlen);
	free(big);
	return e;
}

/* A data layer's picture: its ramp from min to max, the legend bar below. */
static int data_picture(const char *path, const struct world *w, int which, const float *v,
			int scale, float *mn, float *mx, char *err, size_t errlen)
{
	int ph = w->height + DATAMAP_LEGEND_ROWS;
	struct rgb *pic = malloc((size_t)w->width * (size_t)ph * sizeof *pic);
	if (!pic) {
		snprintf(err, errlen, "%s: out of memory", path);
		return GULLY_ENOMEM;
	}
	image_range(v, world_cells(w), mn, mx);
	datamap_picture(v, w->width, w->height, which, *mn, *mx, pic);
	int e = write_picture(path, (const unsigned char *)pic, w->width, ph, scale, err, errlen);
	free(pic);
	return e;
}

int picture_export_named(const char *path, const struct world *w, const char *layer_name,
			 const struct params *p, const struct picture_opts *po,
			 struct image_span *span, float *ramp_min, float *ramp_max, char *err,
			 size_t errlen)
{
	int fmt = image_format_from_path(path);
	bool picture = (fmt == IMAGE_PNG && !po->values.grey16) || fmt == IMAGE_PPM;
	int which = datamap_find(layer_name), layer = world_layer_find(layer_name);
	if (which < 0 && layer < 0) {
		snprintf(err, errlen, "%s: no layer named '%s'", path, layer_name);
		return GULLY_ENOTFOUND;
	}
	float *data = which >= 0 ? datamap_values(w, which) : NULL;
	const float *v = which >= 0 ? data : w->layer[layer];
	if (!v) {
		snprintf(err, errlen, "%s: out of memory", path);
		return GULLY_ENOMEM;
	}
	float mn = 0, mx = 0;
	int e;
	if (!picture) {
		e = image_write_values_opts(path, w->width, w->height, v, &po->values, span, err,
					    errlen);
	} else if (which >= 0) {
		e = data_picture(path, w, which, v, po->scale, &mn, &mx, err, errlen);
	} else {
		unsigned char *rgb = shaded(w, layer, p, po->overlays);
		if (rgb && po->colors == 256)
			as_256_colours((struct rgb *)rgb, w->width, w->height);
		e = rgb ? write_picture(path, rgb, w->width, w->height, po->scale, err, errlen)
			: GULLY_ENOMEM;
		if (!rgb)
			snprintf(err, errlen, "%s: out of memory", path);
		free(rgb);
	}
	free(data);
	if (ramp_min)
		*ramp_min = mn;
	if (ramp_max)
		*ramp_max = mx;
	return e;
}

void picture_span_note(const char *path, const char *layer_name, const struct image_span *span)
{
	/* A constant layer has no span to stretch: every sample is 0, and
	 * --range MIN:MAX wants MIN < MAX, so any range from the value reads it
	 * back exactly. */
	if (!(span->max > span->min))
		fprintf(stderr, "%s: %s is constant at %.9g, every sample 0 (read back with "
			"--range %.9g:%.9g)\n", path, layer_name, span->min, span->min,
			(double)span->min + 1);
	else
		fprintf(stderr, "%s: %s %.9g to %.9g stretched over 0..65535 (read back with "
			"--range %.9g:%.9g)\n", path, layer_name, span->min, span->max, span->min,
			span->max);
}
