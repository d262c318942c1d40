/* Image exports decode back to the values they promise; imports read them. */
#include "testutil.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "io/image.h"
#include "view/shade_basic.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/gully-test-image-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *tmp(const char *name)
{
	static char path[160];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	return path;
}

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	long size = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	unsigned char *p = malloc((size_t)size + 1);
	assert_non_null(p);
	assert_int_equal(fread(p, 1, (size_t)size, fp), (size_t)size);
	fclose(fp);
	*n = (size_t)size;
	return p;
}

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
	int e = image_export(tmp(name), w, layer, 60.0f, err, sizeof err);
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
	assert_int_equal(image_export(tmp("x.jpg"), w, LAYER_HEIGHT, 1, err, sizeof err), GULLY_EINVAL);
	assert_non_null(strstr(err, "x.jpg"));
	world_destroy(w);
}

static void test_r16_decodes_to_normalised_values(void **state)
{
	(void)state;
	struct world *w = known_world();
	export(w, "h.r16", LAYER_HEIGHT);
	size_t n;
	unsigned char *b = slurp(tmp("h.r16"), &n);
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
	unsigned char *b = slurp(tmp("h.pgm"), &n);
	const char *hdr = "P5\n16 20\n65535\n";
	size_t hl = strlen(hdr);
	assert_int_equal(n, hl + 640);
	assert_memory_equal(b, hdr, hl);
	for (size_t i = 0; i < 320; i++)
		assert_int_equal(b[hl + 2 * i] << 8 | b[hl + 2 * i + 1], expected_u16(i));
	free(b);
	/* Another layer: stream 0, .25, .5, .75, 1 -> 0, 1/4, ... of 65535. */
	b = slurp(tmp("s.pgm"), &n);
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
	unsigned char *b = slurp(tmp("h.f32"), &n);
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
	unsigned char *ppm = slurp(tmp("h.ppm"), &n);
	const char *hdr = "P6\n16 20\n255\n";
	size_t hl = strlen(hdr);
	assert_int_equal(n, hl + 960);
	assert_memory_equal(ppm, hdr, hl);
	assert_memory_equal(ppm + hl, rows, 960);
	/* Colour, not grey: the ramp is green at the bottom. */
	assert_true(rows[0][1] > rows[0][0] && rows[0][1] > rows[0][2]);
	free(ppm);
	world_destroy(w);
}

static void test_shading(void **state)
{
	(void)state;
	/* Lit from the top-left: a slope rising to the right faces the light,
	 * one falling to the right faces away, flat ground is 1. */
	float up[16 * 16], down[16 * 16], flat[16 * 16];
	for (int i = 0; i < 256; i++) {
		up[i] = (float)(i % 16) * 0.01f;
		down[i] = -up[i];
		flat[i] = 0.3f;
	}
	float lu = shade_basic_light(up, 16, 16, 8, 8, 60);
	float ld = shade_basic_light(down, 16, 16, 8, 8, 60);
	float lf = shade_basic_light(flat, 16, 16, 8, 8, 60);
	assert_double_equal(lf, 1.0, 1e-5);
	assert_true(ld < lf && lf < lu);
	assert_true(ld >= 0.25f);
	unsigned char lo[3], hi[3], nan[3];
	shade_basic_ramp(0, lo);
	shade_basic_ramp(1, hi);
	shade_basic_ramp(NAN, nan);
	assert_memory_equal(lo, nan, 3);
	assert_true(hi[0] > 200 && hi[1] > 200 && hi[2] > 200);
	/* Edges read only inside the map (ASan would say otherwise). */
	assert_true(shade_basic_light(up, 16, 16, 0, 0, 60) > 0);
	assert_true(shade_basic_light(up, 16, 16, 15, 15, 60) > 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_by_extension),
		cmocka_unit_test(test_r16_decodes_to_normalised_values),
		cmocka_unit_test(test_pgm_decodes_to_normalised_values),
		cmocka_unit_test(test_f32_is_the_layer_bit_for_bit),
		cmocka_unit_test(test_png_reads_back_and_matches_ppm),
		cmocka_unit_test(test_shading),
		cmocka_unit_test(test_import_round_trips),
	};
	return cmocka_run_group_tests_name("image", tests, setup, teardown);
}
