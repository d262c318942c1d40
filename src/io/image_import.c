/* Height maps in: .r16 and .f32 raw grids of any size (square, the size in
 * the name as map_1024x512.r16, or given), row-major or transposed; binary
 * PGM and greyscale PNG of 1 to 16 bits. Integer samples map 0..maxval onto
 * the range asked for (0..1 by default), so an export with a range comes
 * back as the same heights. */
#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/bytes.h"
#include "io/fileio.h"
#include "io/image.h"

/* The side of a square map of `cells` cells, or 0 when it is not square. */
static int square_side(size_t cells)
{
	size_t s = (size_t)llround(sqrt((double)cells));
	return s * s == cells && s <= (size_t)world_size_max() ? (int)s : 0;
}

bool image_size_in_name(const char *path, int *width, int *height)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	bool found = false;
	/* The last WxH in the name, digits on both sides of an x. */
	for (const char *x = base; (x = strpbrk(x, "xX")); x++) {
		const char *a = x;
		while (a > base && a[-1] >= '0' && a[-1] <= '9')
			a--;
		char *end;
		if (a == x || !(x[1] >= '0' && x[1] <= '9') || x - a > 5)
			continue;
		long w = strtol(a, NULL, 10), h = strtol(x + 1, &end, 10);
		if (end - (x + 1) > 5 || (*end >= '0' && *end <= '9'))
			continue;
		*width = (int)w;
		*height = (int)h;
		found = true;
	}
	return found;
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

/* What a file holds before its samples are converted. */
struct grid {
	size_t w, h, pos;      /* size; where the samples start */
	unsigned bytes;        /* per sample: 1, 2 (big-endian unless r16) or 4 */
	unsigned long maxval;  /* integer formats' full scale */
	bool little;           /* 16-bit samples are little-endian (.r16) */
	unsigned char *pixels; /* PNG: the decoded samples (else NULL: in the file) */
};

static int pgm_header(const char *path, const char *d, size_t len, struct grid *g, char *err,
		      size_t errlen)
{
	unsigned long a = 0, b = 0;
	if (len < 2 || d[0] != 'P' || d[1] != '5')
		return io_fail(err, errlen, GULLY_EFORMAT, path, "not a binary PGM (no P5 magic)");
	g->pos = 2;
	if (!pgm_number(d, len, &g->pos, &a) || !pgm_number(d, len, &g->pos, &b) ||
	    !pgm_number(d, len, &g->pos, &g->maxval) || g->pos >= len ||
	    !strchr(" \t\r\n", d[g->pos]) || !d[g->pos])
		return io_fail(err, errlen, GULLY_EFORMAT, path, "malformed PGM header");
	if (g->maxval < 1 || g->maxval > 65535)
		return io_fail(err, errlen, GULLY_EFORMAT, path, "PGM maxval %lu is not 1..65535",
			       g->maxval);
	g->pos++;
	g->w = a;
	g->h = b;
	g->bytes = g->maxval < 256 ? 1 : 2;
	return GULLY_OK;
}

/* A raw grid's size: given, else in the name, else square. */
static int raw_header(const char *path, size_t len, const struct image_read_opts *ro,
		      bool f32, struct grid *g, char *err, size_t errlen)
{
	size_t unit = f32 ? 4 : 2;
	g->bytes = (unsigned)unit;
	g->little = true;
	g->maxval = 65535;
	int w = ro ? ro->width : 0, h = ro ? ro->height : 0;
	const char *from = "--size";
	int nw, nh;
	if (image_size_in_name(path, &nw, &nh)) {
		if (w && (w != nw || h != nh))
			return io_fail(err, errlen, GULLY_EFORMAT, path, "its name says %dx%d, not the "
				       "%dx%d --size gives", nw, nh, w, h);
		if (!w) {
			w = nw;
			h = nh;
			from = "its name";
		}
	}
	if (w) {
		if ((size_t)w * (size_t)h * unit != len)
			return io_fail(err, errlen, GULLY_EFORMAT, path,
				       "%zu bytes is not the %dx%d map %s gives (%zu bytes of "
				       "%zu-byte cells)", len, w, h, from, (size_t)w * (size_t)h * unit,
				       unit);
		g->w = (size_t)w;
		g->h = (size_t)h;
		return GULLY_OK;
	}
	int side = len % unit == 0 ? square_side(len / unit) : 0;
	if (!side)
		return io_fail(err, errlen, GULLY_EFORMAT, path,
			       "%zu bytes is not a square map of %zu-byte cells: give --size WxH "
			       "or name it as map_WxH.%s", len, unit, f32 ? "f32" : "r16");
	g->w = g->h = (size_t)side;
	return GULLY_OK;
}

struct png_source {
	const unsigned char *data;
	size_t len, pos;
	char why[96]; /* libpng's reason, for our one line */
};

/* libpng's own messages go into ours, one line naming the file, never
 * to stderr (its default handlers print there). */
static void png_quiet_error(png_structp png, png_const_charp msg)
{
	struct png_source *src = png_get_error_ptr(png);
	snprintf(src->why, sizeof src->why, "%s", msg);
	png_longjmp(png, 1);
}

static void png_quiet_warning(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

static void png_read_mem(png_structp png, png_bytep out, png_size_t n)
{
	struct png_source *src = png_get_io_ptr(png);
	if (n > src->len - src->pos)
		png_error(png, "truncated");
	memcpy(out, src->data + src->pos, n);
	src->pos += n;
}

/* Decodes a greyscale PNG (alpha dropped) into g->pixels, 1 or 2 bytes a sample. */
static int png_header(const char *path, const unsigned char *d, size_t len, struct grid *g,
		      char *err, size_t errlen)
{
	if (len < 8 || png_sig_cmp(d, 0, 8))
		return io_fail(err, errlen, GULLY_EFORMAT, path, "not a PNG (bad signature)");
	struct png_source src = {d, len, 0, ""};
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, png_quiet_error,
						 png_quiet_warning);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (!info) {
		png_destroy_read_struct(&png, NULL, NULL);
		return io_fail(err, errlen, GULLY_ENOMEM, path, "out of memory");
	}
	unsigned char *volatile pixels = NULL;
	volatile int e = GULLY_OK;
	if (setjmp(png_jmpbuf(png))) {
		free(pixels);
		g->pixels = NULL;
		png_destroy_read_struct(&png, &info, NULL);
		return e ? e : io_fail(err, errlen, GULLY_EFORMAT, path, "damaged PNG (%s)", src.why);
	}
	png_set_read_fn(png, &src, png_read_mem);
	png_set_user_limits(png, (png_uint_32)world_size_max(), (png_uint_32)world_size_max());
	png_read_info(png, info);
	png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
	int type = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
	if (type != PNG_COLOR_TYPE_GRAY && type != PNG_COLOR_TYPE_GRAY_ALPHA) {
		e = io_fail(err, errlen, GULLY_EINVAL, path, "a colour PNG: height maps are "
			    "greyscale (8 or 16 bits)");
		png_error(png, "colour");
	}
	if (depth < 8)
		png_set_expand_gray_1_2_4_to_8(png);
	if (type == PNG_COLOR_TYPE_GRAY_ALPHA)
		png_set_strip_alpha(png);
	png_read_update_info(png, info);
	size_t row = png_get_rowbytes(png, info);
	g->w = w;
	g->h = h;
	g->bytes = depth == 16 ? 2 : 1;
	g->maxval = depth == 16 ? 65535 : depth == 8 ? 255 : (1ul << depth) - 1;
	if (row != (size_t)w * g->bytes || !(pixels = malloc(row * h))) {
		e = io_fail(err, errlen, GULLY_ENOMEM, path, "out of memory");
		png_error(png, "memory");
	}
	for (png_uint_32 y = 0; y < h; y++)
		png_read_row(png, pixels + (size_t)y * row, NULL);
	png_destroy_read_struct(&png, &info, NULL);
	g->pixels = pixels;
	return GULLY_OK;
}

/* Sample i (file order) as a height. */
static float sample(const unsigned char *p, const struct grid *g, bool f32, double lo, double hi)
{
	if (f32)
		return get_f32le(p);
	unsigned v = g->bytes == 1 ? p[0] : g->little ? get_u16le(p) : (unsigned)p[0] << 8 | p[1];
	return (float)(lo + (hi - lo) * ((double)v / (double)g->maxval));
}

static int convert(const char *path, const unsigned char *u, const struct grid *g, bool f32,
		   const struct image_read_opts *ro, float *out, char *err, size_t errlen)
{
	double lo = ro && ro->range_set ? ro->range_min : 0, hi = ro && ro->range_set ? ro->range_max : 1;
	bool transpose = ro && ro->transpose;
	for (size_t i = 0; i < g->w * g->h; i++) {
		const unsigned char *p = u + i * g->bytes;
		if (!f32 && g->bytes == 2 && !g->little && ((unsigned)p[0] << 8 | p[1]) > g->maxval)
			return io_fail(err, errlen, GULLY_EFORMAT, path, "sample above maxval %lu",
				       g->maxval);
		if (!f32 && g->bytes == 1 && p[0] > g->maxval)
			return io_fail(err, errlen, GULLY_EFORMAT, path, "sample above maxval %lu",
				       g->maxval);
		float v = sample(p, g, f32, lo, hi);
		/* Transposed: the file runs down columns (x-major). */
		size_t at = transpose ? (i % g->h) * g->w + i / g->h : i;
		/* Named as the map's cell, as image_check_heights names one, so
		 * the user finds it with --transpose too. */
		if (!isfinite(v))
			return io_fail(err, errlen, GULLY_EFORMAT, path,
				       "cell %zu (x %zu, y %zu) is not a finite number", at, at % g->w,
				       at / g->w);
		out[at] = v;
	}
	return GULLY_OK;
}

int image_import_grid_opts(const char *path, int min_side, const struct image_read_opts *ro,
			   int *width, int *height, float **data, struct image_read_info *info,
			   char *err, size_t errlen)
{
	*data = NULL;
	int fmt = image_format_from_path(path);
	if (fmt != IMAGE_PGM && fmt != IMAGE_R16 && fmt != IMAGE_F32 && fmt != IMAGE_PNG)
		return io_fail(err, errlen, GULLY_EINVAL, path,
			       "cannot import this type (use .r16, .f32, .pgm or .png)");
	char *d;
	size_t len;
	size_t cap = (size_t)world_size_max() * (size_t)world_size_max() * 4 + 64;
	if (file_read_all(path, cap, &d, &len) != 0)
		return io_fail(err, errlen, GULLY_EIO, path, "cannot read: %s",
			       errno == EFBIG ? "larger than any map gully supports" : file_strerror(errno));
	struct grid g = {0};
	int e = fmt == IMAGE_PGM ? pgm_header(path, d, len, &g, err, errlen)
		: fmt == IMAGE_PNG ? png_header(path, (const unsigned char *)d, len, &g, err, errlen)
				   : raw_header(path, len, ro, fmt == IMAGE_F32, &g, err, errlen);
	const size_t max_side = (size_t)world_size_max();
	if (!e && (g.w < (size_t)min_side || g.w > max_side || g.h < (size_t)min_side ||
		   g.h > max_side))
		e = io_fail(err, errlen, GULLY_ESIZE, path, "map size %zux%zu is outside %d..%d a side",
			    g.w, g.h, min_side, world_size_max());
	if (!e && ro && ro->width && (g.w != (size_t)ro->width || g.h != (size_t)ro->height))
		e = io_fail(err, errlen, GULLY_EFORMAT, path, "the file is %zux%zu, not the %dx%d --size "
			    "gives", g.w, g.h, ro->width, ro->height);
	size_t avail = g.pixels ? g.w * g.h * g.bytes : len - g.pos;
	if (!e && avail != g.w * g.h * g.bytes)
		e = io_fail(err, errlen, GULLY_EFORMAT, path, "%s: %zux%zu needs %zu bytes of data, found %zu",
			    avail < g.w * g.h * g.bytes ? "truncated" : "trailing data", g.w, g.h,
			    g.w * g.h * g.bytes, avail);
	float *out = NULL;
	if (!e && !(out = malloc(g.w * g.h * sizeof *out)))
		e = io_fail(err, errlen, GULLY_ENOMEM, path, "out of memory");
	if (!e)
		e = convert(path, g.pixels ? g.pixels : (const unsigned char *)d + g.pos, &g,
			    fmt == IMAGE_F32, ro, out, err, errlen);
	free(d);
	free(g.pixels);
	if (e) {
		free(out);
		return e;
	}
	*width = (int)g.w;
	*height = (int)g.h;
	*data = out;
	if (info) {
		info->bits = fmt == IMAGE_F32 ? 32 : g.maxval > 255 ? 16 : 8;
		info->is_float = fmt == IMAGE_F32;
		image_range(out, g.w * g.h, &info->min, &info->max);
	}
	return GULLY_OK;
}

int image_check_heights(const char *path, const float *data, int width, int height, char *err,
			size_t errlen)
{
	/* A .f32 holds any float: heights must be ones the processes can take
	 * and a snapshot of them can be loaded again (snapshot.c's range). */
	float mn, mx;
	world_layer_range(LAYER_HEIGHT, &mn, &mx);
	size_t n = (size_t)width * (size_t)height;
	for (size_t i = 0; i < n; i++)
		if (!(data[i] >= mn && data[i] <= mx))
			return io_fail(err, errlen, GULLY_ERANGE, path,
				       "cell %zu (x %zu, y %zu) is %g, outside the heights gully takes "
				       "(%.10g to %.10g)", i, i % (size_t)width, i / (size_t)width,
				       (double)data[i], (double)mn, (double)mx);
	return GULLY_OK;
}

int image_import(const char *path, int *width, int *height, float **data, char *err,
		 size_t errlen)
{
	int e = image_import_grid_opts(path, world_size_min(), NULL, width, height, data, NULL, err,
				       errlen);
	if (!e && (e = image_check_heights(path, *data, *width, *height, err, errlen))) {
		free(*data);
		*data = NULL;
	}
	return e;
}

int image_import_grid(const char *path, int min_side, int *width, int *height, float **data,
		      char *err, size_t errlen)
{
	return image_import_grid_opts(path, min_side, NULL, width, height, data, NULL, err, errlen);
}
