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

static bool write_u16(FILE *fp, const float *v, size_t n, bool big_endian)
{
	float mn, mx;
	image_range(v, n, &mn, &mx);
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
static int write_file(const char *path, int fmt, int width, int height,
		      const unsigned char *rgb, const float *v, char *err, size_t errlen)
{
	struct atomic_file af;
	if (atomic_open(&af, path) != 0)
		return io_fail(err, errlen, GULLY_EIO, path, "cannot create: %s", file_strerror(errno));
	size_t n = (size_t)width * (size_t)height;
	bool ok = true;
	switch (fmt) {
	case IMAGE_PNG:
		ok = write_png(af.fp, rgb, width, height);
		break;
	case IMAGE_PPM:
		ok = fprintf(af.fp, "P6\n%d %d\n255\n", width, height) > 0 &&
		     fwrite(rgb, 3, n, af.fp) == n;
		break;
	case IMAGE_PGM:
		ok = fprintf(af.fp, "P5\n%d %d\n65535\n", width, height) > 0 &&
		     write_u16(af.fp, v, n, true); /* PGM's 16-bit samples are big-endian */
		break;
	case IMAGE_R16:
		ok = write_u16(af.fp, v, n, false);
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
	return write_file(path, fmt, width, height, rgb, NULL, err, errlen);
}

int image_write_values(const char *path, int width, int height, const float *v, char *err,
		       size_t errlen)
{
	int fmt = image_format_from_path(path);
	if (fmt != IMAGE_PGM && fmt != IMAGE_R16 && fmt != IMAGE_F32)
		return io_fail(err, errlen, GULLY_EINVAL, path,
			       "not a height data type (use .pgm, .r16 or .f32)");
	return write_file(path, fmt, width, height, NULL, v, err, errlen);
}

/* ---------------------------------------------------------------- import */

/* The side of a square map of `cells` cells, or 0 when it is not square. */
static int square_side(size_t cells)
{
	size_t s = (size_t)llround(sqrt((double)cells));
	return s * s == cells && s <= (size_t)world_size_max() ? (int)s : 0;
}

/* One header number of a PGM: skips whitespace and # comments. */
static bool pgm_number(const char *d, size_t len, size_t *pos, unsigned long *out)
{
	size_t p = *pos;
	for (;;) {
		while (p < len && strchr(" \t\r\n", d[p]) && d[p])
			p++;
		if (p < len && d[p] == '#') {
			while (p < len && d[p] != '\n')
				p++;
			continue;
		}
		break;
	}
	unsigned long v = 0;
	size_t start = p;
	while (p < len && d[p] >= '0' && d[p] <= '9' && p - start < 9)
		v = v * 10 + (unsigned long)(d[p++] - '0');
	if (p == start || (p < len && d[p] >= '0' && d[p] <= '9'))
		return false;
	*pos = p;
	*out = v;
	return true;
}

int image_import(const char *path, int *width, int *height, float **data, char *err,
		 size_t errlen)
{
	int e = image_import_grid(path, world_size_min(), width, height, data, err, errlen);
	if (e)
		return e;
	/* A .f32 holds any float: heights must be ones the processes can take. */
	float mn, mx;
	world_layer_range(LAYER_HEIGHT, &mn, &mx);
	size_t n = (size_t)*width * (size_t)*height;
	for (size_t i = 0; i < n; i++)
		if (!((*data)[i] >= mn && (*data)[i] <= mx)) {
			e = io_fail(err, errlen, GULLY_ERANGE, path,
				    "cell %zu (x %zu, y %zu) is %g, outside the heights gully takes (%.10g to %.10g)",
				    i, i % (size_t)*width, i / (size_t)*width, (double)(*data)[i],
				    (double)mn, (double)mx);
			free(*data);
			*data = NULL;
			return e;
		}
	return GULLY_OK;
}

int image_import_grid(const char *path, int min_side, int *width, int *height, float **data,
		      char *err, size_t errlen)
{
	*data = NULL;
	int fmt = image_format_from_path(path);
	if (fmt != IMAGE_PGM && fmt != IMAGE_R16 && fmt != IMAGE_F32)
		return io_fail(err, errlen, GULLY_EINVAL, path,
			    "cannot import this type (use .r16, .pgm or .f32)");
	char *d;
	size_t len;
	size_t cap = (size_t)world_size_max() * world_size_max() * 4 + 64;
	if (file_read_all(path, cap, &d, &len) != 0)
		return io_fail(err, errlen, GULLY_EIO, path, "cannot read: %s",
			    errno == EFBIG ? "larger than any map gully supports" : file_strerror(errno));
	const unsigned char *u = (const unsigned char *)d;
	int e = GULLY_OK;
	size_t w = 0, h = 0, pos = 0, bytes = 2;
	unsigned long maxval = 65535;
	if (fmt == IMAGE_PGM) {
		unsigned long a = 0, b = 0; /* read even when the header is malformed */
		if (len < 2 || d[0] != 'P' || d[1] != '5') {
			e = io_fail(err, errlen, GULLY_EFORMAT, path, "not a binary PGM (no P5 magic)");
		} else {
			pos = 2;
			if (!pgm_number(d, len, &pos, &a) || !pgm_number(d, len, &pos, &b) ||
			    !pgm_number(d, len, &pos, &maxval) || pos >= len ||
			    !strchr(" \t\r\n", d[pos]) || !d[pos])
				e = io_fail(err, errlen, GULLY_EFORMAT, path, "malformed PGM header");
			else if (maxval < 1 || maxval > 65535)
				e = io_fail(err, errlen, GULLY_EFORMAT, path, "PGM maxval %lu is not 1..65535",
					 maxval);
			pos++;
			w = a;
			h = b;
			bytes = maxval < 256 ? 1 : 2;
		}
	} else {
		size_t unit = fmt == IMAGE_R16 ? 2 : 4;
		bytes = unit;
		int side = len % unit == 0 ? square_side(len / unit) : 0;
		if (!side)
			e = io_fail(err, errlen, GULLY_EFORMAT, path,
				 "%zu bytes is not a square map of %zu-byte cells", len, unit);
		w = h = (size_t)side;
	}
	const size_t max_side = (size_t)world_size_max();
	if (!e && (w < (size_t)min_side || w > max_side || h < (size_t)min_side || h > max_side))
		e = io_fail(err, errlen, GULLY_ESIZE, path, "map size %zux%zu is outside %d..%d a side",
			 w, h, min_side, world_size_max());
	if (!e && len - pos != w * h * bytes)
		e = io_fail(err, errlen, GULLY_EFORMAT, path, "%s: %zux%zu needs %zu bytes of data, found %zu",
			 len - pos < w * h * bytes ? "truncated" : "trailing data", w, h,
			 w * h * bytes, len - pos);
	float *out = NULL;
	if (!e && !(out = malloc(w * h * sizeof *out)))
		e = io_fail(err, errlen, GULLY_ENOMEM, path, "out of memory");
	for (size_t i = 0; !e && i < w * h; i++) {
		const unsigned char *p = u + pos + i * bytes;
		if (fmt == IMAGE_F32) {
			out[i] = get_f32le(p);
			if (!isfinite(out[i]))
				e = io_fail(err, errlen, GULLY_EFORMAT, path, "cell %zu is not a finite number", i);
		} else {
			unsigned v = fmt == IMAGE_R16 ? get_u16le(p)
				     : bytes == 1 ? p[0] : (unsigned)p[0] << 8 | p[1];
			if (v > maxval)
				e = io_fail(err, errlen, GULLY_EFORMAT, path, "sample %u above maxval %lu", v, maxval);
			out[i] = (float)((double)v / (double)maxval);
		}
	}
	free(d);
	if (e) {
		free(out);
		return e;
	}
	*width = (int)w;
	*height = (int)h;
	*data = out;
	return GULLY_OK;
}
