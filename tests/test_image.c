/* Image exports decode back to the values they promise; imports read them. */
#include "testutil.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/error.h"
#include "cli/picture.h"
#include "io/image.h"
#include "view/shade.h"

TESTUTIL_TMPDIR_FIXTURES("image")

/* 16 wide, 20 high, height = cell index: known min 0, max 319. */
static struct world *known_world(void)
{
	struct world *w;
	assert_int_equal(world_create(&w, 16, 20), 0);
	for (size_t i = 0; i < world_cells(w); i++) {
		w->layer[LAYER_HEIGHT][i] = (float)i;
		w->layer[LAYER_STREAM][i] = (float)(i % 5) * 0.25f;
	}
	return w;
}

static unsigned expected_u16(size_t i)
{
	return (unsigned)lrint((double)i * 65535.0 / 319.0);
}

static void export(const struct world *w, const char *name, int layer)
{
	char err[256] = "";
	int e = picture_export(tmp(name), w, layer, 60.0f, err, sizeof err);
	if (e)
		fail_msg("%s", err);
}

static void test_format_by_extension(void **state)
{
	(void)state;
	assert_int_equal(image_format_from_path("out.png"), IMAGE_PNG);
	assert_int_equal(image_format_from_path("a/b.PPM"), IMAGE_PPM);
	assert_int_equal(image_format_from_path("x.pgm"), IMAGE_PGM);
	assert_int_equal(image_format_from_path("x.r16"), IMAGE_R16);
	assert_int_equal(image_format_from_path("x.f32"), IMAGE_F32);
	assert_int_equal(image_format_from_path("x.jpg"), IMAGE_NONE);
	assert_int_equal(image_format_from_path("png"), IMAGE_NONE);
	assert_int_equal(image_format_from_path("dir.png/file"), IMAGE_NONE);
	struct world *w = known_world();
	char err[256];
	assert_int_equal(picture_export(tmp("x.jpg"), w, LAYER_HEIGHT, 1, err, sizeof err), GULLY_EINVAL);
	assert_non_null(strstr(err, "x.jpg"));
	/* io writes pixels as pictures and values as data, never the other
	 * way round, and leaves no file when it refuses. */
	unsigned char px[3 * 16 * 16] = {0};
	assert_int_equal(image_write_rgb(tmp("p.pgm"), 16, 16, px, err, sizeof err), GULLY_EINVAL);
	assert_non_null(strstr(err, "p.pgm"));
	assert_int_equal(image_write_values(tmp("v.png"), w->width, w->height,
					    w->layer[LAYER_HEIGHT], err, sizeof err),
			 GULLY_EINVAL);
	assert_non_null(strstr(err, "v.png"));
	FILE *fp = fopen(tmp("v.png"), "rb");
	assert_null(fp);
	assert_int_equal(image_write_rgb(tmp("p.ppm"), 16, 16, px, err, sizeof err), GULLY_OK);
	size_t n;
	unsigned char *back = testutil_read_file(tmp("p.ppm"), &n);
	assert_int_equal(n, strlen("P6\n16 16\n255\n") + sizeof px);
	free(back);
	world_destroy(w);
}

static void test_r16_decodes_to_normalised_values(void **state)
{
	(void)state;
	struct world *w = known_world();
	export(w, "h.r16", LAYER_HEIGHT);
	size_t n;
	unsigned char *b = testutil_read_file(tmp("h.r16"), &n);
	assert_int_equal(n, 16 * 20 * 2);
	for (size_t i = 0; i < 320; i++)
		assert_int_equal(b[2 * i] | b[2 * i + 1] << 8, expected_u16(i));
	assert_int_equal(b[0] | b[1] << 8, 0);
	assert_int_equal(b[638] | b[639] << 8, 65535);
	free(b);
	world_destroy(w);
}

static void test_pgm_decodes_to_normalised_values(void **state)
{
	(void)state;
	struct world *w = known_world();
	export(w, "s.pgm", LAYER_STREAM);
	export(w, "h.pgm", LAYER_HEIGHT);
	size_t n;
	unsigned char *b = testutil_read_file(tmp("h.pgm"), &n);
	const char *hdr = "P5\n16 20\n65535\n";
	size_t hl = strlen(hdr);
	assert_int_equal(n, hl + 640);
	assert_memory_equal(b, hdr, hl);
	for (size_t i = 0; i < 320; i++)
		assert_int_equal(b[hl + 2 * i] << 8 | b[hl + 2 * i + 1], expected_u16(i));
	free(b);
	/* Another layer: stream 0, .25, .5, .75, 1 -> 0, 1/4, ... of 65535. */
	b = testutil_read_file(tmp("s.pgm"), &n);
	for (size_t i = 0; i < 320; i++)
		assert_int_equal(b[hl + 2 * i] << 8 | b[hl + 2 * i + 1],
				 (unsigned)lrint((double)(i % 5) / 4.0 * 65535.0));
	free(b);
	world_destroy(w);
}

static void test_f32_is_the_layer_bit_for_bit(void **state)
{
	(void)state;
	struct world *w = known_world();
	w->layer[LAYER_HEIGHT][3] = -0.0f;
	w->layer[LAYER_HEIGHT][4] = 1e-40f;
	export(w, "h.f32", LAYER_HEIGHT);
	size_t n;
	unsigned char *b = testutil_read_file(tmp("h.f32"), &n);
	assert_int_equal(n, 320 * 4);
	for (size_t i = 0; i < 320; i++) {
		uint32_t u = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
			     (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
		uint32_t want;
		memcpy(&want, &w->layer[LAYER_HEIGHT][i], 4);
		assert_int_equal(u, want);
	}
	free(b);
	world_destroy(w);
}

static void test_png_reads_back_and_matches_ppm(void **state)
{
	(void)state;
	struct world *w = known_world();
	export(w, "h.png", LAYER_HEIGHT);
	export(w, "h.ppm", LAYER_HEIGHT);
	FILE *fp = fopen(tmp("h.png"), "rb");
	assert_non_null(fp);
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(png);
	assert_non_null(info);
	if (setjmp(png_jmpbuf(png)))
		fail_msg("libpng could not read the file");
	png_init_io(png, fp);
	png_read_info(png, info);
	assert_int_equal(png_get_image_width(png, info), 16);
	assert_int_equal(png_get_image_height(png, info), 20);
	assert_int_equal(png_get_color_type(png, info), PNG_COLOR_TYPE_RGB);
	assert_int_equal(png_get_bit_depth(png, info), 8);
	unsigned char rows[20][48];
	for (int y = 0; y < 20; y++)
		png_read_row(png, rows[y], NULL);
	png_read_end(png, NULL);
	png_destroy_read_struct(&png, &info, NULL);
	fclose(fp);

	size_t n;
	unsigned char *ppm = testutil_read_file(tmp("h.ppm"), &n);
	const char *hdr = "P6\n16 20\n255\n";
	size_t hl = strlen(hdr);
	assert_int_equal(n, hl + 960);
	assert_memory_equal(ppm, hdr, hl);
	assert_memory_equal(ppm + hl, rows, 960);
	free(ppm);
	world_destroy(w);
}

/* A hill in 0..1 heights with a stream down column 20 and eroded ground
 * in one corner: something for light and overlays to show. */
static struct world *hill_world(void)
{
	struct world *w;
	assert_int_equal(world_create(&w, 40, 32), 0);
	for (int y = 0; y < 32; y++)
		for (int x = 0; x < 40; x++) {
			size_t i = (size_t)y * 40 + (size_t)x;
			double r = hypot(x - 20.0, y - 16.0);
			/* Flat (0) beyond radius 12, so the far corners are level. */
			w->layer[LAYER_HEIGHT][i] = r < 12 ? (float)(0.8 * (1 - r / 12) * (1 - r / 12)) : 0;
			w->layer[LAYER_BASE][i] = w->layer[LAYER_HEIGHT][i];
			if (x == 20)
				w->layer[LAYER_STREAM][i] = 1.0f;
			if (x < 5 && y < 5)
				w->layer[LAYER_HEIGHT][i] -= 0.04f;
		}
	return w;
}

static unsigned char *read_ppm(const char *name, int width, int height)
{
	size_t n;
	unsigned char *b = testutil_read_file(tmp(name), &n);
	char hdr[32];
	snprintf(hdr, sizeof hdr, "P6\n%d %d\n255\n", width, height);
	size_t hl = strlen(hdr);
	assert_int_equal(n, hl + (size_t)width * height * 3);
	assert_memory_equal(b, hdr, hl);
	memmove(b, b + hl, n - hl);
	return b;
}

/* Pictures are the explorer's colours: exactly what view/shade renders for
 * the same parameters at 1:1. */
static void test_picture_is_the_explorer_view(void **state)
{
	(void)state;
	struct world *w = hill_world();
	struct params p;
	params_defaults(&p);
	p.view.azimuth = 100;
	p.view.shading = 1.5;
	unsigned ov = OVERLAY_BIT(OVERLAY_STREAMS) | OVERLAY_BIT(OVERLAY_EROSION);
	char err[256] = "";
	assert_int_equal(picture_export_view(tmp("v.ppm"), w, LAYER_HEIGHT, &p, ov, err, sizeof err), 0);
	unsigned char *b = read_ppm("v.ppm", 40, 32);
	struct shade_frame f;
	assert_int_equal(shade_frame_init(&f, 40, 32), 0);
	struct shade_view v;
	memset(&v, 0, sizeof v);
	shade_view_from_params(&v, &p);
	v.zoom = ZOOM_1;
	v.overlays = ov;
	shade_render(&f, w, &v, NULL, 0);
	assert_memory_equal(b, f.px, 40 * 32 * 3);
	shade_frame_free(&f);
	free(b);
	world_destroy(w);
}

/* In 256 colours a smooth area is dithered as a checkerboard, not in rows:
 * on a slope that rises down the map (each pixel row one colour), a
 * half block whose two pixels differ has them either as its neighbour
 * does (two rows that round to different entries) or, dithered, the other
 * way up. Rows of one colour would read as stripes. */
static void test_256_colours_dither_as_a_checkerboard(void **state)
{
	(void)state;
	const int width = 16, height = 256;
	struct world *w;
	assert_int_equal(world_create(&w, width, height), 0);
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++)
			w->layer[LAYER_HEIGHT][y * width + x] = (float)y / (float)height;
	struct params p;
	params_defaults(&p);
	struct picture_opts po = {.colors = 256};
	char err[256] = "";
	assert_int_equal(picture_export_named(tmp("d.ppm"), w, "height", &p, &po, NULL, NULL, NULL,
					      err, sizeof err),
			 0);
	unsigned char *b = read_ppm("d.ppm", width, height);
	int swapped = 0, same = 0;
	for (int y = 0; y + 1 < height; y += 2)
		for (int x = 0; x + 1 < width; x++) {
			const unsigned char *top = b + ((size_t)y * width + x) * 3;
			const unsigned char *bottom = top + width * 3;
			if (memcmp(top, bottom, 3) == 0)
				continue;
			if (memcmp(top, bottom + 3, 3) == 0 && memcmp(bottom, top + 3, 3) == 0)
				swapped++;
			else if (memcmp(top, top + 3, 3) == 0 && memcmp(bottom, bottom + 3, 3) == 0)
				same++;
			else
				fail_msg("row %d, column %d: neither as its neighbour nor swapped", y, x);
		}
	assert_true(swapped > 0);
	free(b);
	world_destroy(w);
}

/* Overlays change the pixels they cover and only those; the light comes
 * from view.azimuth, and flat ground does not care where it comes from. */
static void test_overlays_and_light(void **state)
{
	(void)state;
	struct world *w = hill_world();
	struct params p;
	params_defaults(&p);
	char err[256] = "";
	assert_int_equal(picture_export_view(tmp("a.ppm"), w, LAYER_HEIGHT, &p, 0, err, sizeof err), 0);
	assert_int_equal(picture_export_view(tmp("s.ppm"), w, LAYER_HEIGHT, &p,
					   OVERLAY_BIT(OVERLAY_STREAMS), err, sizeof err), 0);
	assert_int_equal(picture_export_view(tmp("e.ppm"), w, LAYER_HEIGHT, &p,
					   OVERLAY_BIT(OVERLAY_EROSION), err, sizeof err), 0);
	unsigned char *a = read_ppm("a.ppm", 40, 32), *s = read_ppm("s.ppm", 40, 32),
		      *e = read_ppm("e.ppm", 40, 32);
	for (int y = 0; y < 32; y++)
		for (int x = 0; x < 40; x++) {
			size_t i = ((size_t)y * 40 + (size_t)x) * 3;
			bool stream = x == 20, eroded = x < 5 && y < 5;
			assert_true((memcmp(a + i, s + i, 3) != 0) == stream);
			assert_true((memcmp(a + i, e + i, 3) != 0) == eroded);
			if (stream) /* towards the stream's light blue */
				assert_true(s[i + 2] > a[i + 2]);
			if (eroded) /* towards red */
				assert_true(e[i] >= a[i] && e[i + 1] < a[i + 1]);
		}
	/* Light from the other side: the hill's slopes change, the flat far
	 * corner (height ~0, no slope) stays. */
	p.view.azimuth = 135;
	assert_int_equal(picture_export_view(tmp("l.ppm"), w, LAYER_HEIGHT, &p, 0, err, sizeof err), 0);
	unsigned char *l = read_ppm("l.ppm", 40, 32);
	size_t slope = ((size_t)16 * 40 + 14) * 3, flat = ((size_t)31 * 40 + 39) * 3;
	assert_true(memcmp(a + slope, l + slope, 3) != 0);
	assert_memory_equal(a + flat, l + flat, 3);
	free(a);
	free(s);
	free(e);
	free(l);
	world_destroy(w);
}

static void test_import_round_trips(void **state)
{
	(void)state;
	struct world *w = known_world();
	/* Imports need a square map. */
	struct world *sq;
	assert_int_equal(world_create(&sq, 16, 16), 0);
	for (size_t i = 0; i < 256; i++)
		sq->layer[LAYER_HEIGHT][i] = (float)i * 0.5f - 7.0f;
	export(sq, "sq.f32", LAYER_HEIGHT);
	export(sq, "sq.r16", LAYER_HEIGHT);
	export(w, "h.pgm", LAYER_HEIGHT);
	char err[256] = "";
	int iw, ih;
	float *d;
	assert_int_equal(image_import(tmp("sq.f32"), &iw, &ih, &d, err, sizeof err), 0);
	assert_int_equal(iw, 16);
	assert_int_equal(ih, 16);
	assert_memory_equal(d, sq->layer[LAYER_HEIGHT], 256 * sizeof(float));
	free(d);
	assert_int_equal(image_import(tmp("sq.r16"), &iw, &ih, &d, err, sizeof err), 0);
	for (size_t i = 0; i < 256; i++)
		assert_double_equal(d[i], (double)i / 255.0, 1.0 / 65535.0);
	free(d);
	assert_int_equal(image_import(tmp("h.pgm"), &iw, &ih, &d, err, sizeof err), 0);
	assert_int_equal(iw, 16);
	assert_int_equal(ih, 20);
	for (size_t i = 0; i < 320; i++)
		assert_double_equal(d[i], expected_u16(i) / 65535.0, 1e-7);
	free(d);

	/* Refusals: not square, too small, truncated, wrong type. */
	FILE *fp = fopen(tmp("bad.r16"), "wb");
	fwrite("abc", 1, 3, fp);
	fclose(fp);
	assert_int_equal(image_import(tmp("bad.r16"), &iw, &ih, &d, err, sizeof err), GULLY_EFORMAT);
	assert_null(d);
	fp = fopen(tmp("small.f32"), "wb");
	float z[64] = {0};
	fwrite(z, 4, 64, fp);
	fclose(fp);
	assert_int_equal(image_import(tmp("small.f32"), &iw, &ih, &d, err, sizeof err), GULLY_ESIZE);
	fp = fopen(tmp("cut.pgm"), "wb");
	fputs("P5\n# a comment\n16 16\n65535\n", fp);
	fwrite(z, 1, 100, fp);
	fclose(fp);
	assert_int_equal(image_import(tmp("cut.pgm"), &iw, &ih, &d, err, sizeof err), GULLY_EFORMAT);
	assert_non_null(strstr(err, "truncated"));
	fp = fopen(tmp("huge.pgm"), "wb");
	fputs("P5\n999999999 999999999\n65535\n", fp);
	fclose(fp);
	assert_int_equal(image_import(tmp("huge.pgm"), &iw, &ih, &d, err, sizeof err), GULLY_ESIZE);
	assert_int_equal(image_import(tmp("h.png"), &iw, &ih, &d, err, sizeof err), GULLY_EINVAL);
	world_destroy(sq);
	world_destroy(w);
}

/* Writes w*h little-endian 16-bit samples, v(i) each. */
static void write_r16(const char *name, int w, int h, unsigned (*v)(int x, int y), bool x_major)
{
	FILE *fp = fopen(tmp(name), "wb");
	assert_non_null(fp);
	for (int a = 0; a < (x_major ? w : h); a++)
		for (int b = 0; b < (x_major ? h : w); b++) {
			unsigned u = x_major ? v(a, b) : v(b, a);
			fputc((int)(u & 0xff), fp);
			fputc((int)(u >> 8), fp);
		}
	fclose(fp);
}

static unsigned ramp_xy(int x, int y)
{
	return (unsigned)(x * 1000 + y * 7);
}

static void test_import_any_size(void **state)
{
	(void)state;
	char err[256] = "";
	int iw, ih;
	float *d;
	/* 40x24: not square, so the size comes from the name or --size. */
	write_r16("plain.r16", 40, 24, ramp_xy, false);
	assert_int_equal(image_import(tmp("plain.r16"), &iw, &ih, &d, err, sizeof err), GULLY_EFORMAT);
	assert_non_null(strstr(err, "--size"));
	struct image_read_opts ro = {.width = 40, .height = 24};
	assert_int_equal(image_import_grid_opts(tmp("plain.r16"), 16, &ro, &iw, &ih, &d, NULL, err,
						sizeof err), 0);
	assert_int_equal(iw, 40);
	assert_int_equal(ih, 24);
	for (int y = 0; y < 24; y++)
		for (int x = 0; x < 40; x++)
			assert_double_equal(d[y * 40 + x], ramp_xy(x, y) / 65535.0, 1e-7);
	free(d);
	/* A --size that disagrees with the file is an error, not a guess. */
	struct image_read_opts wrong = {.width = 24, .height = 41};
	assert_int_equal(image_import_grid_opts(tmp("plain.r16"), 16, &wrong, &iw, &ih, &d, NULL, err,
						sizeof err), GULLY_EFORMAT);
	assert_null(d);
	/* The size in the name. */
	write_r16("map_40x24.r16", 40, 24, ramp_xy, false);
	assert_int_equal(image_import(tmp("map_40x24.r16"), &iw, &ih, &d, err, sizeof err), 0);
	assert_int_equal(iw * 100 + ih, 4024);
	free(d);
	int nw, nh;
	assert_true(image_size_in_name("dir_9x9/terrain_1025x513.r16", &nw, &nh));
	assert_int_equal(nw, 1025);
	assert_int_equal(nh, 513);
	assert_false(image_size_in_name("x9/plain.r16", &nw, &nh));
	/* Transposed: the file runs down columns; the map is the same. */
	write_r16("cols.r16", 40, 24, ramp_xy, true);
	struct image_read_opts tr = {.width = 40, .height = 24, .transpose = true};
	assert_int_equal(image_import_grid_opts(tmp("cols.r16"), 16, &tr, &iw, &ih, &d, NULL, err,
						sizeof err), 0);
	for (int y = 0; y < 24; y++)
		for (int x = 0; x < 40; x++)
			assert_double_equal(d[y * 40 + x], ramp_xy(x, y) / 65535.0, 1e-7);
	free(d);
	/* --range: 0..65535 stands for MIN..MAX. */
	struct image_read_opts rg = {.width = 40, .height = 24, .range_set = true,
				     .range_min = -100, .range_max = 300};
	struct image_read_info info;
	assert_int_equal(image_import_grid_opts(tmp("plain.r16"), 16, &rg, &iw, &ih, &d, &info, err,
						sizeof err), 0);
	assert_double_equal(d[0], -100, 1e-9);
	assert_double_equal(d[39], -100 + 400 * ramp_xy(39, 0) / 65535.0, 1e-4);
	assert_int_equal(info.bits, 16);
	free(d);
}

/* A 16-bit grey PNG as gully writes it, and an 8-bit one as libpng writes
 * it, both read back as the values they hold. */
static void test_png_grey_import(void **state)
{
	(void)state;
	struct world *w = known_world();
	char err[256] = "";
	struct image_value_opts vo = {.grey16 = true};
	struct image_span span;
	assert_int_equal(image_write_values_opts(tmp("g16.png"), w->width, w->height,
						 w->layer[LAYER_HEIGHT], &vo, &span, err, sizeof err), 0);
	assert_true(span.stretched);
	assert_double_equal(span.max, 319, 0);
	int iw, ih;
	float *d;
	struct image_read_opts ro = {.range_set = true, .range_min = 0, .range_max = 319};
	assert_int_equal(image_import_grid_opts(tmp("g16.png"), 16, &ro, &iw, &ih, &d, NULL, err,
						sizeof err), 0);
	assert_int_equal(iw * 100 + ih, 1620);
	for (size_t i = 0; i < 320; i++)
		assert_double_equal(d[i], (double)i, 319.0 / 65535 / 2 + 1e-5);
	free(d);
	/* 8 bits, written straight with libpng: 16x16, value x*16+y. */
	FILE *fp = fopen(tmp("g8.png"), "wb");
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop pi = png_create_info_struct(png);
	png_init_io(png, fp);
	png_set_IHDR(png, pi, 16, 16, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, pi);
	for (int y = 0; y < 16; y++) {
		png_byte row[16];
		for (int x = 0; x < 16; x++)
			row[x] = (png_byte)(x * 16 + y);
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &pi);
	fclose(fp);
	assert_int_equal(image_import(tmp("g8.png"), &iw, &ih, &d, err, sizeof err), 0);
	for (int y = 0; y < 16; y++)
		for (int x = 0; x < 16; x++)
			assert_double_equal(d[y * 16 + x], (x * 16 + y) / 255.0, 1e-7);
	free(d);
	/* A truncated PNG is refused, naming the file. */
	fp = fopen(tmp("g8.png"), "r+b");
	assert_int_equal(ftruncate(fileno(fp), 60), 0);
	fclose(fp);
	assert_int_equal(image_import(tmp("g8.png"), &iw, &ih, &d, err, sizeof err), GULLY_EFORMAT);
	assert_non_null(strstr(err, "g8.png"));
	world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_by_extension),
		cmocka_unit_test(test_r16_decodes_to_normalised_values),
		cmocka_unit_test(test_pgm_decodes_to_normalised_values),
		cmocka_unit_test(test_f32_is_the_layer_bit_for_bit),
		cmocka_unit_test(test_png_reads_back_and_matches_ppm),
		cmocka_unit_test(test_picture_is_the_explorer_view),
		cmocka_unit_test(test_256_colours_dither_as_a_checkerboard),
		cmocka_unit_test(test_overlays_and_light),
		cmocka_unit_test(test_import_round_trips),
		cmocka_unit_test(test_import_any_size),
		cmocka_unit_test(test_png_grey_import),
	};
	return cmocka_run_group_tests_name("image", tests, setup, teardown);
}
