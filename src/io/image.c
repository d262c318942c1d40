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
#include "view/shade.h"

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

/* 16-bit grey samples, big-endian as PNG stores them, one row. */
static void grey16_row(const float *v, int width, float mn, float mx, unsigned char *row)
{
	for (int x = 0; x < width; x++) {
		uint16_t u = image_to_u16(v[x], mn, mx);
		row[2 * x] = (unsigned char)(u >> 8);
		row[2 * x + 1] = (unsigned char)(u & 0xff);
	}
}

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
		grey16_row(v + (size_t)y * (size_t)width, width, mn, mx, row);
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

int image_export(const char *path, const struct world *w, int layer, float scale,
		 char *err, size_t errlen)
{
	struct params p;
	params_defaults(&p);
	p.terrain.vertical_scale = scale;
	return image_export_view(path, w, layer, &p, 0, err, errlen);
}

int image_export_view(const char *path, const struct world *w, int layer,
		      const struct params *p, unsigned overlays, char *err, size_t errlen)
{
	struct image_export_opts eo = {.overlays = overlays};
	return image_export_full(path, w, layer, p, &eo, NULL, err, errlen);
}

int image_export_full(const char *path, const struct world *w, int layer, const struct params *p,
		      const struct image_export_opts *eo, struct image_span *span, char *err,
		      size_t errlen)
{
	int fmt = image_format_from_path(path);
	if (fmt == IMAGE_NONE)
		return io_fail(err, errlen, GULLY_EINVAL, path, "unknown picture type (use .%s)",
			    "png, .ppm, .pgm, .r16 or .f32");
	if (layer < 0 || layer >= LAYER_COUNT)
		return io_fail(err, errlen, GULLY_ENOTFOUND, path, "no layer number %d", layer);
	struct rgb *rgb = NULL;
	if ((fmt == IMAGE_PNG && !eo->gray16) || fmt == IMAGE_PPM) {
		rgb = (struct rgb *)shaded(w, layer, p, eo->overlays);
		if (!rgb)
			return io_fail(err, errlen, GULLY_ENOMEM, path, "out of memory");
	}
	int e = image_write(path, w->layer[layer], w->width, w->height, rgb, w->height, eo, span,
			    err, errlen);
	free(rgb);
	return e;
}

/* Each pixel as a scale x scale block. */
static struct rgb *upscale(const struct rgb *px, int width, int height, int scale)
{
	size_t ow = (size_t)width * (size_t)scale;
	struct rgb *out = malloc(ow * (size_t)height * (size_t)scale * sizeof *out);
	if (!out)
		return NULL;
	for (size_t y = 0; y < (size_t)height * (size_t)scale; y++)
		for (size_t x = 0; x < ow; x++)
			out[y * ow + x] = px[(y / (size_t)scale) * (size_t)width + x / (size_t)scale];
	return out;
}

static bool write_body(FILE *fp, int fmt, const float *v, int width, int height,
		       const struct rgb *pic, int pw, int ph, const struct image_export_opts *eo,
		       float mn, float mx)
{
	size_t n = (size_t)width * (size_t)height;
	switch (fmt) {
	case IMAGE_PNG:
		return eo->gray16 ? write_png_grey16(fp, v, width, height, mn, mx)
				  : write_png(fp, (const unsigned char *)pic, pw, ph);
	case IMAGE_PPM:
		return fprintf(fp, "P6\n%d %d\n255\n", pw, ph) > 0 &&
		       fwrite(pic, 3, (size_t)pw * (size_t)ph, fp) == (size_t)pw * (size_t)ph;
	case IMAGE_PGM: /* PGM's 16-bit samples are big-endian */
		return fprintf(fp, "P5\n%d %d\n65535\n", width, height) > 0 &&
		       write_u16(fp, v, n, true, mn, mx);
	case IMAGE_R16:
		return write_u16(fp, v, n, false, mn, mx);
	default:
		return write_f32(fp, v, n);
	}
}

int image_write(const char *path, const float *values, int width, int height,
		const struct rgb *picture, int picture_height, const struct image_export_opts *eo,
		struct image_span *span, char *err, size_t errlen)
{
	int fmt = image_format_from_path(path);
	if (fmt == IMAGE_NONE)
		return io_fail(err, errlen, GULLY_EINVAL, path, "unknown picture type (use .%s)",
			       "png, .ppm, .pgm, .r16 or .f32");
	bool is_picture = (fmt == IMAGE_PNG && !eo->gray16) || fmt == IMAGE_PPM;
	if (is_picture && !picture)
		return io_fail(err, errlen, GULLY_EINVAL, path, "no picture to write");
	float mn = (float)eo->range_min, mx = (float)eo->range_max;
	if (!eo->range_set)
		image_range(values, (size_t)width * (size_t)height, &mn, &mx);
	int scale = eo->scale > 1 && is_picture ? eo->scale : 1;
	struct rgb *big = NULL;
	if (scale > 1 && !(big = upscale(picture, width, picture_height, scale)))
		return io_fail(err, errlen, GULLY_ENOMEM, path, "out of memory");
	struct atomic_file af;
	if (atomic_open(&af, path) != 0) {
		free(big);
		return io_fail(err, errlen, GULLY_EIO, path, "cannot create: %s", strerror(errno));
	}
	bool ok = write_body(af.fp, fmt, values, width, height, big ? big : picture, width * scale,
			     picture_height * scale, eo, mn, mx);
	free(big);
	if (!ok) {
		int e = errno;
		atomic_abort(&af);
		return io_fail(err, errlen, GULLY_EIO, path, "write failed: %s",
			       e ? strerror(e) : "libpng error");
	}
	if (atomic_commit(&af) != 0)
		return io_fail(err, errlen, GULLY_EIO, path, "cannot save: %s", strerror(errno));
	if (span) {
		span->min = mn;
		span->max = mx;
		span->stretched = fmt == IMAGE_PGM || fmt == IMAGE_R16 || (fmt == IMAGE_PNG && eo->gray16);
	}
	return GULLY_OK;
}
