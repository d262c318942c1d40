/* Exports of one layer by file extension: pictures (.png, .ppm: shaded
 * colour; .pgm: 16-bit grey) and raw height data (.r16: 16-bit little-endian,
 * .f32: float32 little-endian), and imports of height maps (.r16, .pgm, .f32). */
#ifndef GULLY_IMAGE_H
#define GULLY_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/params.h"
#include "core/base/world.h"
#include "view/palette.h"

enum image_format { IMAGE_NONE = -1, IMAGE_PNG, IMAGE_PPM, IMAGE_PGM, IMAGE_R16, IMAGE_F32 };

/* From the path's extension, case-insensitive; IMAGE_NONE when unknown. */
int image_format_from_path(const char *path);
/* "png|ppm|pgm|r16|f32", for messages. */
const char *image_format_names(void);

/* The finite values' range (0, 0 when there are none). */
void image_range(const float *v, size_t n, float *mn, float *mx);
/* v mapped from mn..mx onto 0..65535, rounded; 0 for NaN or mn == mx. */
uint16_t image_to_u16(float v, float mn, float mx);

/* Writes `layer` of w to path, atomically. Pictures (.png, .ppm) are the
 * explorer's colours at 1:1 (view/shade): heights on its ramp (any other
 * layer stretched from its min..max onto the ramp), lit from view.azimuth
 * and view.altitude with view.shading and terrain.vertical_scale's relief,
 * then `overlays` (OVERLAY_BIT()s of view/shade.h) on top. Returns a
 * gully_err code; err names the file. */
int image_export_view(const char *path, const struct world *w, int layer,
		      const struct params *p, unsigned overlays, char *err, size_t errlen);
/* How to write: all zero is image_export_view's defaults. */
struct image_export_opts {
	unsigned overlays;        /* pictures: OVERLAY_BIT()s */
	bool gray16;              /* .png: the layer as 16-bit grey, not a picture */
	int scale;                /* pictures: each cell as N x N pixels (0, 1: one) */
	bool range_set;           /* 16-bit formats: MIN..MAX onto 0..65535, clamped */
	double range_min, range_max; /* (else the layer's own min..max) */
};
/* What the 16-bit formats stretched over 0..65535. */
struct image_span {
	float min, max;
	bool stretched;           /* false: the format keeps values (f32) or is a picture */
};
int image_export_full(const char *path, const struct world *w, int layer, const struct params *p,
		      const struct image_export_opts *eo, struct image_span *span, char *err,
		      size_t errlen);
/* Writes values (width x height) by path's extension: .pgm, .r16 and a
 * --gray16 .png from the values; .png and .ppm from `picture` (width x
 * picture_height pixels, scaled by eo->scale); .f32 as they are. Atomic. */
int image_write(const char *path, const float *values, int width, int height,
		const struct rgb *picture, int picture_height, const struct image_export_opts *eo,
		struct image_span *span, char *err, size_t errlen);

/* The same with the default view and no overlays; `scale` is
 * terrain.vertical_scale. */
int image_export(const char *path, const struct world *w, int layer, float scale,
		 char *err, size_t errlen);

/* How to read a height map (image_import_grid_opts); zeros: the defaults. */
struct image_read_opts {
	int width, height;        /* the map's size, 0: from the file, its name or square */
	bool transpose;           /* the file runs down columns (x-major) */
	bool range_set;           /* integer samples 0..maxval map onto min..max */
	double range_min, range_max; /* (default 0..1) */
};
/* What was read, for the message that says so. */
struct image_read_info {
	int bits;                 /* 8, 16 or 32 (float) */
	bool is_float;
	float min, max;           /* the heights' range after conversion */
};

/* Reads a height map: .r16 (16-bit little-endian) or .f32 (float32
 * little-endian) of any size, given, named (map_1024x512.r16) or square;
 * .pgm (8 or 16 bits) or greyscale .png (1 to 16 bits; alpha ignored).
 * Sizes are checked against the file and min_side..WORLD_MAX_SIZE before
 * allocating; a --size that disagrees with the file is an error; *data is
 * malloc'd, row-major. info may be NULL. */
int image_import_grid_opts(const char *path, int min_side, const struct image_read_opts *ro,
			   int *width, int *height, float **data, struct image_read_info *info,
			   char *err, size_t errlen);
/* The defaults, at least WORLD_MIN_SIZE a side. */
int image_import(const char *path, int *width, int *height, float **data,
		 char *err, size_t errlen);
/* The defaults for any grid of at least min_side (>= 1) a side, such as a
 * small hardness map that will be stretched over the world. */
int image_import_grid(const char *path, int min_side, int *width, int *height,
		      float **data, char *err, size_t errlen);
/* The last WIDTHxHEIGHT in a file's name (map_1024x512.r16), if any. */
bool image_size_in_name(const char *path, int *width, int *height);

#endif
