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

enum image_format { IMAGE_NONE = -1, IMAGE_PNG, IMAGE_PPM, IMAGE_PGM, IMAGE_R16, IMAGE_F32 };

/* From the path's extension, case-insensitive; IMAGE_NONE when unknown. */
int image_format_from_path(const char *path);
/* "png|ppm|pgm|r16|f32", for messages. */
const char *image_format_names(void);

/* The finite values' range (0, 0 when there are none). */
void image_range(const float *v, size_t n, float *mn, float *mx);
/* v mapped from mn..mx onto 0..65535, rounded; 0 for NaN or mn == mx. */
uint16_t image_to_u16(float v, float mn, float mx);

/* Writes a width x height picture, atomically, as .png or .ppm (by the
 * path): `rgb` is 3 bytes a pixel, rows top down. Whoever makes the pixels
 * (cli/picture.c shades a layer) is above this. Returns a gully_err code;
 * err names the file. */
int image_write_rgb(const char *path, int width, int height, const unsigned char *rgb,
		    char *err, size_t errlen);
/* Writes width x height values, atomically, as data (by the path): .pgm
 * (16-bit grey) and .r16 stretch the finite range onto 0..65535, .f32 keeps
 * them as they are. */
int image_write_values(const char *path, int width, int height, const float *v, char *err,
		       size_t errlen);
/* How values are written: zeros are image_write_values's defaults. */
struct image_value_opts {
	bool grey16;                 /* a .png path: 16-bit greyscale of the values */
	bool range_set;              /* 16-bit formats: MIN..MAX onto 0..65535, clamped */
	double range_min, range_max; /* (else the values' own finite range) */
};
/* What the 16-bit formats stretched over 0..65535. */
struct image_span {
	float min, max;
	bool stretched;              /* false: .f32 keeps the values */
};
/* The same with options; span (may be NULL) gets the range used. */
int image_write_values_opts(const char *path, int width, int height, const float *v,
			    const struct image_value_opts *vo, struct image_span *span, char *err,
			    size_t errlen);

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
 * Sizes are checked against the file and min_side..world_size_max() before
 * allocating; a --size that disagrees with the file is an error; *data is
 * malloc'd, row-major. info may be NULL. */
int image_import_grid_opts(const char *path, int min_side, const struct image_read_opts *ro,
			   int *width, int *height, float **data, struct image_read_info *info,
			   char *err, size_t errlen);
/* Every value a height gully takes (world_layer_range(LAYER_HEIGHT), the
 * range the snapshot loader holds the height layer to): GULLY_ERANGE with one
 * line naming path and the first cell (x, y) outside it, or NaN. */
int image_check_heights(const char *path, const float *data, int width, int height, char *err,
			size_t errlen);
/* The defaults, at least world_size_min() a side, and image_check_heights. */
int image_import(const char *path, int *width, int *height, float **data,
		 char *err, size_t errlen);
/* The defaults for any grid of at least min_side (>= 1) a side, such as a
 * small hardness map that will be stretched over the world. */
int image_import_grid(const char *path, int min_side, int *width, int *height,
		      float **data, char *err, size_t errlen);
/* The last WIDTHxHEIGHT in a file's name (map_1024x512.r16), if any. */
bool image_size_in_name(const char *path, int *width, int *height);

#endif
