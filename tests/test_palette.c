/* The 256-colour quantiser: the cube and the greys together, nearest in
 * OKLab, exact whatever the cache holds. */
#include "testutil.h"

#include <math.h>

#include "view/palette.h"

static int brute_nearest(struct rgb c)
{
	int best = 16;
	double best_d = palette_distance(c, palette_from_256(16));
	for (int i = 17; i < 256; i++) {
		double d = palette_distance(c, palette_from_256(i));
		if (d < best_d) {
			best_d = d;
			best = i;
		}
	}
	return best;
}

static void test_oklab_end_points(void **state)
{
	(void)state;
	struct lab w = palette_oklab((struct rgb){255, 255, 255});
	struct lab k = palette_oklab((struct rgb){0, 0, 0});
	assert_true(fabs(w.l - 1) < 1e-6 && fabs(w.a) < 1e-6 && fabs(w.b) < 1e-6);
	assert_true(fabs(k.l) < 1e-12);
	/* Ottosson's published value for sRGB red: L 0.627955, a 0.224863,
	 * b 0.125846. */
	struct lab r = palette_oklab((struct rgb){255, 0, 0});
	assert_true(fabs(r.l - 0.627955) < 1e-4 && fabs(r.a - 0.224863) < 1e-4 &&
		    fabs(r.b - 0.125846) < 1e-4);
}

static void test_every_entry_maps_to_itself(void **state)
{
	(void)state;
	for (int i = 16; i < 256; i++)
		assert_int_equal(palette_to_256(palette_from_256(i)), i);
}

static void check(struct rgb c)
{
	/* Twice: the second answer comes from the cache. */
	int want = brute_nearest(c);
	assert_int_equal(palette_to_256(c), want);
	assert_int_equal(palette_to_256(c), want);
}

static void test_palette_colours_map_to_nearest(void **state)
{
	(void)state;
	/* The height ramp, finely sampled, and every overlay colour, shaded as
	 * the hill shading darkens and lightens them. */
	const struct rgb overlays[] = {palette_stream, palette_pool_shallow, palette_pool_deep,
				       palette_erode, palette_deposit, palette_hard, palette_wet,
				       palette_particle};
	for (int i = 0; i <= 1000; i++) {
		struct rgb c = palette_height(i / 1000.0);
		for (double k = 0.4; k <= 1.6; k += 0.2)
			check(palette_scale(c, k));
	}
	for (size_t i = 0; i < sizeof overlays / sizeof overlays[0]; i++)
		for (double k = 0.4; k <= 1.6; k += 0.1)
			check(palette_scale(overlays[i], k));
	/* And a grid through the whole cube. */
	for (int r = 0; r < 256; r += 17)
		for (int g = 0; g < 256; g += 17)
			for (int b = 0; b < 256; b += 17)
				check((struct rgb){(uint8_t)r, (uint8_t)g, (uint8_t)b});
}

static void test_greys_are_used(void **state)
{
	(void)state;
	/* A mid grey between cube levels (95 and 135) lands on the grey ramp. */
	int i = palette_to_256((struct rgb){118, 118, 118});
	assert_true(i >= 232 && i <= 255);
}

/* How a shaded cell looks: fg over bg, covering shade/4, in linear light. */
static double lin(uint8_t v)
{
	double c = v / 255.0;
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double shaded_error(struct rgb c, struct palette_cell pc)
{
	struct rgb f = palette_from_ansi(pc.fg), b = palette_from_ansi(pc.bg);
	double t = pc.shade / 4.0, m[3];
	const uint8_t fv[3] = {f.r, f.g, f.b}, bv[3] = {b.r, b.g, b.b};
	for (int i = 0; i < 3; i++) {
		double v = t * lin(fv[i]) + (1 - t) * lin(bv[i]);
		v = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
		m[i] = v * 255;
	}
	struct rgb look = {(uint8_t)lround(m[0]), (uint8_t)lround(m[1]), (uint8_t)lround(m[2])};
	return palette_distance(c, look);
}

static void test_shaded_cells(void **state)
{
	(void)state;
	for (int n = 8; n <= 16; n += 8) {
		/* The terminal's own colours are shown flat, as themselves. */
		for (int i = 0; i < n; i++) {
			struct palette_cell pc = palette_to_ansi_shade(palette_from_ansi(i), n, n);
			assert_int_equal(pc.shade, 0);
			assert_int_equal(pc.bg, i);
		}
		/* Over the height ramp, shading comes closer than flat colours,
		 * and every cell is a valid one. */
		double shaded = 0, flat = 0;
		for (int i = 0; i <= 200; i++) {
			struct rgb c = palette_height(i / 200.0);
			struct palette_cell pc = palette_to_ansi_shade(c, n, n);
			assert_true(pc.fg >= 0 && pc.fg < n && pc.bg >= 0 && pc.bg < n);
			assert_true(pc.shade >= 0 && pc.shade < PALETTE_SHADES);
			assert_true(pc.shade == 0 || pc.fg != pc.bg);
			shaded += shaded_error(c, pc);
			flat += palette_distance(c, palette_from_ansi(palette_to_ansi(c, n)));
		}
		assert_true(shaded < 0.5 * flat);
	}
	/* 16 foregrounds over 8 backgrounds (a terminal whose bright
	 * backgrounds blink): every background dark, and the bright colours
	 * still nearer than 8 colours alone can come. */
	double dark = 0, eight = 0;
	for (int i = 0; i <= 200; i++) {
		struct rgb c = palette_height(i / 200.0);
		struct palette_cell pc = palette_to_ansi_shade(c, 16, 8);
		assert_true(pc.fg >= 0 && pc.fg < 16 && pc.bg >= 0 && pc.bg < 8);
		dark += shaded_error(c, pc);
		eight += shaded_error(c, palette_to_ansi_shade(c, 8, 8));
	}
	assert_true(dark < eight);
}

/* How a half block's two entries look together: their mean in linear light. */
static double pair_error(struct rgb c, int fg, int bg)
{
	struct rgb f = palette_from_256(fg), b = palette_from_256(bg);
	const uint8_t fv[3] = {f.r, f.g, f.b}, bv[3] = {b.r, b.g, b.b};
	double m[3];
	for (int i = 0; i < 3; i++) {
		double v = (lin(fv[i]) + lin(bv[i])) / 2;
		v = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
		m[i] = v * 255;
	}
	return palette_distance(c, (struct rgb){(uint8_t)lround(m[0]), (uint8_t)lround(m[1]),
						(uint8_t)lround(m[2])});
}

static void test_half_block_dither(void **state)
{
	(void)state;
	int dithered = 0;
	double plain = 0, pair = 0;
	for (int i = 0; i <= 400; i++) {
		struct rgb c = palette_height(i / 400.0);
		int fg, bg;
		const bool pair_made = palette_to_256_pair(c, c, &fg, &bg);
		/* In the foreground the nearest entry, always. */
		assert_int_equal(fg, palette_to_256(c));
		assert_int_equal(pair_made, fg != bg);
		if (fg != bg)
			dithered++;
		plain += palette_distance(c, palette_from_256(fg));
		pair += pair_error(c, fg, bg);
	}
	/* Somewhere on the ramp the pair helps, and over it the cells come
	 * clearly closer on the whole (rounding the mean to 8 bits costs a
	 * little, so not every single cell). */
	assert_true(dithered > 0);
	assert_true(pair < 0.8 * plain);
	/* An edge is never dithered: pixels far apart keep their own entries. */
	int fg, bg;
	assert_false(palette_to_256_pair((struct rgb){40, 80, 50}, (struct rgb){200, 200, 200}, &fg,
					 &bg));
	assert_int_equal(fg, palette_to_256((struct rgb){40, 80, 50}));
	assert_int_equal(bg, palette_to_256((struct rgb){200, 200, 200}));
	/* A pair is drawn the other way up in every other column. */
	assert_false(palette_256_lower(0));
	assert_true(palette_256_lower(1));
	assert_false(palette_256_lower(2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oklab_end_points),
		cmocka_unit_test(test_every_entry_maps_to_itself),
		cmocka_unit_test(test_palette_colours_map_to_nearest),
		cmocka_unit_test(test_greys_are_used),
		cmocka_unit_test(test_shaded_cells),
		cmocka_unit_test(test_half_block_dither),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
