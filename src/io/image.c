#include "io/image.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/base/error.h"
#include "core/base/bytes.h"
#include "io/fileio.h"

static const char *const extensions[] = {
	[IMAGE_PNG] = "png", [IMAGE_PPM] = "ppm", [IMAGE_PGM] = "pgm",
	[IMAGE_R16] = "r16", [IMAGE_F32] = "f32",
};
#define NFORMATS ((int)(sizeof extensions / sizeof extensions[0]))


int image_format_from_path(const char *path)
{
	const char *dot = strrchr(path, '.');
	if (!dot || strchr(dot, '/'))
		return IMAGE_NONE;
	for (int i = 0; i < NFORMATS; i++)
		if (strcasecmp(dot + 1, extensions[i]) == 0)
			return i;
	return IMAGE_NONE;
}

const char *image_format_names(void)
{
	return "png|ppm|pgm|r16|f32";
}

void image_range(const float *v, size_t n, float *mn, float *mx)
{
	float lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	if (lo > hi)
		lo = hi = 0;
	*mn = lo;
	*mx = hi;
}

uint16_t image_to_u16(float v, float mn, float mx)
{
	if (!isfinite(v) || !(mx > mn))
		return 0;
	double t = ((double)v - mn) / ((double)mx - mn);
	if (t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	return (uint16_t)lrint(t * 65535.0);
}

/* ---------------------------------------------------------------- export */

static bool write_png_grey16(FILE *fp, const float *v, int width, int height, float mn, float mx)
{
	unsigned char *row = malloc((size_t)width * 2);
	if (!row)
		return false;
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (!info || setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, info ? &info : NULL);
		free(row);
		return false;
	}
	png_init_io(png, fp);
	png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 16, PNG_COLOR_TYPE_GRAY,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int y = 0; y < height; y++) {
		const float *r = v + (size_t)y * (size_t)width;
		for (int x = 0; x < width; x++) {
			uint16_t u = image_to_u16(r[x], mn, mx);
			row[2 * x] = (unsigned char)(u >> 8); /* PNG's samples are big-endian */
			row[2 * x + 1] = (unsigned char)(u & 0xff);
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	free(row);
	return true;
}

static bool write_png(FILE *fp, const unsigned char *rgb, int width, int height)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (!png)
		return false;
	png_infop info = png_create_info_struct(png);
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		return false;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		return false;
	}
	png_init_io(png, fp);
	png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int y = 0; y < height; y++)
		png_write_row(png, rgb + (size_t)y * (size_t)width * 3);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return true;
}

static bool write_u16(FILE *fp, const float *v, size_t n, bool big_endian, float mn, float mx)
{
	unsigned char buf[8192];
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		uint16_t u = image_to_u16(v[i], mn, mx);
		if (big_endian) {
			buf[k] = (unsigned char)(u >> 8);
			buf[k + 1] = (unsigned char)(u & 0xff);
		} else {
			put_u16le(buf + k, u);
		}
		k += 2;
		if (k == sizeof buf || i + 1 == n) {
			if (fwrite(buf, 1, k, fp) != k)
				return false;
			k = 0;
		}
	}
	return true;
}

static bool write_f32(FILE *fp, const float *v, size_t n)
{
	unsigned char buf[8192];
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		put_f32le(buf + k, v[i]);
		k += 4;
		if (k == sizeof buf || i + 1 == n) {
			if (fwrite(buf, 1, k, fp) != k)
				return false;
			k = 0;
		}
	}
	return true;
}

/* Writes one file atomically: the picture `rgb` (.png, .ppm) or the values
 * `v` (.pgm, .r16, .f32), as the path's extension says. */
/* Writes one file atomically: the picture `rgb` (.png, .ppm), or the values
 * `v` (.pgm, .r16, .f32, and .png as 16-bit grey when `grey16`), the 16-bit
 * formats stretching mn..mx onto 0..65535. */
static int write_file(const char *path, int fmt, int width, int height, const unsigned char *rgb,
		      const float *v, bool grey16, float mn, float mx, char *err, size_t errlen)
{
	struct atomic_file af;
	if (atomic_open(&af, path) != 0)
		return io_fail(err, errlen, GULLY_EIO, path, "cannot create: %s", file_strerror(errno));
	size_t n = (size_t)width * (size_t)height;
	bool ok = true;
	switch (fmt) {
	case IMAGE_PNG:
		ok = grey16 ? write_png_grey16(af.fp, v, width, height, mn, mx)
			    : write_png(af.fp, rgb, width, height);
		break;
	case IMAGE_PPM:
		ok = fprintf(af.fp, "P6\n%d %d\n255\n", width, height) > 0 &&
		     fwrite(rgb, 3, n, af.fp) == n;
		break;
	case IMAGE_PGM:
		ok = fprintf(af.fp, "P5\n%d %d\n65535\n", width, height) > 0 &&
		     write_u16(af.fp, v, n, true, mn, mx); /* PGM's 16-bit samples are big-endian */
		break;
	case IMAGE_R16:
		ok = write_u16(af.fp, v, n, false, mn, mx);
		break;
	case IMAGE_F32:
		ok = write_f32(af.fp, v, n);
		break;
	}
	if (!ok) {
		int e = errno;
		atomic_abort(&af);
		return io_fail(err, errlen, GULLY_EIO, path, "write failed: %s", e ? strerror(e) : "libpng error");
	}
	if (atomic_commit(&af) != 0)
		return io_fail(err, errlen, GULLY_EIO, path, "cannot save: %s", file_strerror(errno));
	return GULLY_OK;
}

int image_write_rgb(const char *path, int width, int height, const unsigned char *rgb,
		    char *err, size_t errlen)
{
	int fmt = image_format_from_path(path);
	if (fmt != IMAGE_PNG && fmt != IMAGE_PPM)
		return io_fail(err, errlen, GULLY_EINVAL, path, "not a picture type (use .png or .ppm)");
	return write_file(path, fmt, width, height, rgb, NULL, false, 0, 0, err, errlen);
}

int image_write_values(const char *path, int width, int height, const float *v, char *err,
		       size_t errlen)
{
	return image_write_values_opts(path, width, height, v, NULL, NULL, err, errlen);
}

int image_write_values_opts(const char *path, int width, int height, const float *v,
			    const struct image_value_opts *vo, struct image_span *span, char *err,
			    size_t errlen)
{
	int fmt = image_format_from_path(path);
	bool grey16 = vo && vo->grey16 && fmt == IMAGE_PNG;
	if (fmt != IMAGE_PGM && fmt != IMAGE_R16 && fmt != IMAGE_F32 && !grey16)
		return io_fail(err, errlen, GULLY_EINVAL, path,
			       "not a height data type (use .pgm, .r16, .f32 or a 16-bit grey .png)");
	float mn = vo ? (float)vo->range_min : 0, mx = vo ? (float)vo->range_max : 0;
	if (!vo || !vo->range_set)
		image_range(v, (size_t)width * (size_t)height, &mn, &mx);
	int e = write_file(path, fmt, width, height, NULL, v, grey16, mn, mx, err, errlen);
	if (!e && span) {
		span->min = mn;
		span->max = mx;
		span->stretched = fmt != IMAGE_F32;
	}
	return e;
}
