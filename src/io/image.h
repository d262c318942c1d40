/* Exports of one layer by file extension: pictures (.png, .ppm: shaded
 * colour; .pgm: 16-bit grey) and raw height data (.r16: 16-bit little-endian,
 * .f32: float32 little-endian), and imports of height maps (.r16, .pgm, .f32). */
#ifndef GULLY_IMAGE_H
#define GULLY_IMAGE_H

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

/* Reads a height map: .pgm (8 or 16 bits, scaled to 0..1), .r16 (square,
 * scaled to 0..1) or .f32 (square, as stored). Sizes are checked against the
 * file's size and world_check_size() before allocating; *data is malloc'd. */
int image_import(const char *path, int *width, int *height, float **data,
		 char *err, size_t errlen);
/* The same for any grid of at least min_side (>= 1) a side, such as a small
 * hardness map that will be stretched over the world. */
int image_import_grid(const char *path, int min_side, int *width, int *height,
		      float **data, char *err, size_t errlen);

#endif
