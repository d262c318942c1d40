/* view/shade and view/palette: colours of known heights, light, overlay
 * blending, downsampling, zoom and pan, on hand-built worlds. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/params.h"
#include "core/base/world.h"
#include "view/palette.h"
#include "view/shade.h"

static struct world *flat_world(int w, int h, float height)
{
	struct world *wd;
	assert_int_equal(world_create(&wd, w, h), GULLY_OK);
	for (size_t i = 0; i < world_cells(wd); i++)
		wd->layer[LAYER_HEIGHT][i] = wd->layer[LAYER_BASE][i] = height;
	return wd;
}

static struct shade_view default_view(void)
{
	struct params p;
	params_defaults(&p);
	struct shade_view v = {0};
	shade_view_from_params(&v, &p);
	return v;
}

static void assert_rgb(struct rgb a, struct rgb b)
{
	if (!palette_equal(a, b))
		fail_msg("rgb(%d,%d,%d) != rgb(%d,%d,%d)", a.r, a.g, a.b, b.r, b.g, b.b);
}

static void test_ramp_ends_and_stops(void **state)
{
	(void)state;
	double h;
	assert_rgb(palette_height(0.0), palette_ramp_stop(0, &h));
	assert_rgb(palette_height(-5.0), palette_ramp_stop(0, &h));
	assert_rgb(palette_height(1.0), palette_ramp_stop(palette_ramp_stops() - 1, &h));
	assert_rgb(palette_height(7.0), palette_ramp_stop(palette_ramp_stops() - 1, &h));
	for (int i = 0; i < palette_ramp_stops(); i++) {
		struct rgb c = palette_ramp_stop(i, &h);
		assert_rgb(palette_height(h), c);
	}
	/* Halfway between the first two stops is their rounded mean. */
	double h0, h1;
	struct rgb a = palette_ramp_stop(0, &h0), b = palette_ramp_stop(1, &h1);
	struct rgb m = palette_height((h0 + h1) / 2);
	assert_true(abs(m.r - (a.r + b.r) / 2) <= 1 && abs(m.g - (a.g + b.g) / 2) <= 1 &&
		    abs(m.b - (a.b + b.b) / 2) <= 1);
	/* Snow is lighter than lowland: the ramp reads as height in grey too. */
	assert_true(palette_luma(palette_height(1)) > palette_luma(palette_height(0)) + 0.4);
	assert_rgb(palette_height(NAN), palette_ramp_stop(0, &h));
}

static void test_flat_world_shows_ramp_colour(void **state)
{
	(void)state;
	struct world *w = flat_world(16, 16, 0.5f);
	struct shade_view v = default_view();
	struct shade_frame f;
	assert_int_equal(shade_frame_init(&f, 16, 16), GULLY_OK);
	for (int strength = 0; strength <= 2; strength++) {
		v.shading = strength;
		shade_render(&f, w, &v, NULL, 0);
		for (int i = 0; i < 16 * 16; i++) {
			assert_rgb(f.px[i], palette_height(0.5));
			assert_int_equal(f.water[i], 0);
			assert_int_equal(f.blank[i], 0);
		}
	}
	shade_frame_free(&f);
	world_destroy(w);
}

static void test_light_faces(void **state)
{
	(void)state;
	struct shade_view v = default_view();
	v.azimuth = 270; /* light from the west (left) */
	v.altitude = 45;
	assert_double_equal(shade_light(&v, 0, 0), 1.0, 1e-12);
	/* Ground rising to the right faces the light: brighter. */
	assert_true(shade_light(&v, 0.5, 0) > 1.0);
	assert_true(shade_light(&v, -0.5, 0) < 1.0);
	/* A north-south slope is lit the same from both sides. */
	assert_double_equal(shade_light(&v, 0, 0.5), shade_light(&v, 0, -0.5), 1e-12);
	v.shading = 0;
	assert_double_equal(shade_light(&v, 0.9, 0.3), 1.0, 1e-12);

	/* On a rendered ramp rising to the east, a light from the east is brighter
	 * than one from the west. */
	struct world *w = flat_world(32, 32, 0);
	for (int y = 0; y < 32; y++)
		for (int x = 0; x < 32; x++)
			*world_at(w->layer[LAYER_HEIGHT], w, x, y) = (float)x / 64.0f;
	struct shade_frame f;
	assert_int_equal(shade_frame_init(&f, 32, 32), GULLY_OK);
	v = default_view();
	v.azimuth = 90;
	shade_render(&f, w, &v, NULL, 0);
	double east = palette_luma(f.px[16 * 32 + 16]);
	v.azimuth = 270;
	shade_render(&f, w, &v, NULL, 0);
	double west = palette_luma(f.px[16 * 32 + 16]);
	assert_true(west > east + 0.05);
	shade_frame_free(&f);
	world_destroy(w);
}

static void test_overlay_blending(void **state)
{
	(void)state;
	struct rgb ground = {100, 100, 100};
	struct shade_sample s = {.height = 0.5f, .base = 0.5f};
	bool water = true;
	unsigned all = (1u << OVERLAY_COUNT) - 1;
	/* Nothing to show: the ground colour, no water. */
	assert_rgb(shade_overlay_blend(ground, &s, all, &water), ground);
	assert_false(water);
	/* A full stream is exactly the stream colour, marked as water. */
	s.stream = 1;
	assert_rgb(shade_overlay_blend(ground, &s, OVERLAY_BIT(OVERLAY_STREAMS), &water),
		   palette_stream);
	assert_true(water);
	/* ...and invisible when the overlay is off. */
	assert_rgb(shade_overlay_blend(ground, &s, OVERLAY_BIT(OVERLAY_POOLS), &water), ground);
	assert_false(water);
	/* A weak stream stays close to the ground (ease-in). */
	s.stream = 0.1f;
	struct rgb weak = shade_overlay_blend(ground, &s, OVERLAY_BIT(OVERLAY_STREAMS), &water);
	assert_true(abs(weak.b - ground.b) < 0.1 * abs(palette_stream.b - ground.b));
	s.stream = 0;
	/* A deep pool is exactly the deep colour and covers a stream. */
	s.pool = 1;
	s.stream = 1;
	assert_rgb(shade_overlay_blend(ground, &s, all, &water), palette_pool_deep);
	assert_true(water);
	s.pool = s.stream = 0;
	/* Thinner water draws lighter, on light and dark ground: what makes the
	 * sph process's spray (a quarter of its depth, SPH_SPRAY_SHARE) lighter
	 * than the water on the ground. */
	for (int g = 0; g < 2; g++) {
		struct rgb under = g ? (struct rgb){20, 20, 20} : ground;
		s.pool = 0.02f;
		double pooled = palette_luma(shade_overlay_blend(under, &s, all, &water));
		s.pool = 0.02f * 0.25f;
		double spray = palette_luma(shade_overlay_blend(under, &s, all, &water));
		assert_true(water);
		assert_true(spray > pooled + 0.02); /* measured: 0.07 grey, 0.03 dark */
	}
	s.pool = 0;
	/* Erosion reddens, deposition greens, by the sign of height - base. */
	s.height = 0.4f;
	struct rgb er = shade_overlay_blend(ground, &s, OVERLAY_BIT(OVERLAY_EROSION), NULL);
	assert_true(er.r > ground.r && er.g < ground.g);
	s.height = 0.6f;
	struct rgb de = shade_overlay_blend(ground, &s, OVERLAY_BIT(OVERLAY_EROSION), NULL);
	assert_true(de.g > ground.g && de.r < ground.r);
	/* More change, stronger colour. */
	s.height = 0.49f;
	struct rgb er_small = shade_overlay_blend(ground, &s, OVERLAY_BIT(OVERLAY_EROSION), NULL);
	assert_true(er_small.r < er.r);
	s.height = 0.5f;
	/* Hardness and wetness tint by their value; 0 leaves the ground alone. */
	assert_rgb(shade_overlay_blend(ground, &s, OVERLAY_BIT(OVERLAY_HARDNESS), NULL), ground);
	s.hardness = 1;
	assert_rgb(shade_overlay_blend(ground, &s, OVERLAY_BIT(OVERLAY_HARDNESS), NULL),
		   palette_mix(ground, palette_hard, 0.7));
	s.wetness = 1;
	assert_rgb(shade_overlay_blend(ground, &s, OVERLAY_BIT(OVERLAY_WETNESS), NULL),
		   palette_mix(ground, palette_wet, 0.75));
}

static void test_downsampling_mean_height_max_water(void **state)
{
	(void)state;
	struct world *w = flat_world(32, 32, 0);
	/* Each 2x2 block: heights 0, 0.2, 0.4, 0.6 (mean 0.3); one stream cell. */
	for (int y = 0; y < 32; y++)
		for (int x = 0; x < 32; x++) {
			float h = 0.2f * (float)((x & 1) + 2 * (y & 1));
			*world_at(w->layer[LAYER_HEIGHT], w, x, y) = h;
			*world_at(w->layer[LAYER_BASE], w, x, y) = h;
		}
	*world_at(w->layer[LAYER_STREAM], w, 5, 7) = 0.8f;
	*world_at(w->layer[LAYER_POOL], w, 10, 2) = 0.01f;
	struct shade_view v = default_view();
	v.shading = 0;
	v.overlays = OVERLAY_BIT(OVERLAY_STREAMS) | OVERLAY_BIT(OVERLAY_POOLS);
	struct shade_frame f;
	assert_int_equal(shade_frame_init(&f, 16, 20), GULLY_OK);
	shade_render(&f, w, &v, NULL, 0);
	assert_double_equal(f.geom.cpp, 2.0, 0);
	assert_int_equal(f.geom.used_w, 16);
	assert_int_equal(f.geom.used_h, 16);
	for (int py = 0; py < 16; py++)
		for (int px = 0; px < 16; px++) {
			const struct shade_sample *s = &f.samples[py * 16 + px];
			assert_double_equal(s->height, 0.3, 1e-6);
			bool has_stream = px == 2 && py == 3, has_pool = px == 5 && py == 1;
			assert_double_equal(s->stream, has_stream ? 0.8f : 0, 0);
			assert_double_equal(s->pool, has_pool ? 0.01f : 0, 0);
			assert_int_equal(f.water[py * 16 + px], has_pool     ? WATER_POOL
								: has_stream ? WATER_STREAM
									     : WATER_NONE);
		}
	/* The rows below the map are blank. */
	for (int py = 16; py < 20; py++)
		assert_int_equal(f.blank[py * 16 + 3], 1);
	/* Non-integer ratios still cover every cell exactly once per axis. */
	struct shade_geom g;
	shade_geometry(&v, w, 10, 10, &g);
	assert_double_equal(g.cpp, 3.2, 1e-12);
	assert_int_equal(g.used_w, 10);
	int cx, cy;
	assert_true(shade_cell_at(&g, w, 9, 9, &cx, &cy));
	assert_true(cx >= 28 && cx < 32 && cy >= 28 && cy < 32);
	assert_false(shade_cell_at(&g, w, 10, 0, &cx, &cy));
	shade_frame_free(&f);
	world_destroy(w);

	/* A big block per pixel: the mean is sampled on a centred grid (within
	 * half a 4-cell stride on a ramp); the water maxima still see lines one
	 * cell thin, across and along. */
	w = flat_world(96, 96, 0);
	for (int y = 0; y < 96; y++)
		for (int x = 0; x < 96; x++)
			*world_at(w->layer[LAYER_HEIGHT], w, x, y) = (float)x / 96.0f;
	/* A thin stream: one cell wide, ten long (longer than a 48/6 stride). */
	for (int y = 55; y < 65; y++)
		*world_at(w->layer[LAYER_STREAM], w, 37, y) = 0.5f;
	for (int x = 60; x < 70; x++)
		*world_at(w->layer[LAYER_POOL], w, x, 80) = 0.03f;
	assert_int_equal(shade_frame_init(&f, 2, 2), GULLY_OK);
	shade_render(&f, w, &v, NULL, 0);
	assert_double_equal(f.geom.cpp, 48, 0);
	struct shade_sample exact;
	shade_sample_block(w, 0, 0, 48, 48, &exact);
	assert_double_equal(f.samples[0].height, exact.height, 2.0 / 96);
	assert_double_equal(f.samples[1].height, exact.height + 0.5, 2.0 / 96);
	assert_double_equal(f.samples[2].stream, 0.5, 0);
	assert_double_equal(f.samples[3].stream, 0, 0);
	assert_double_equal(f.samples[3].pool, 0.03f, 0);
	assert_double_equal(f.samples[2].pool, 0, 0);
	/* With the streams overlay off the layer is not even read. */
	v.overlays = 0;
	shade_render(&f, w, &v, NULL, 0);
	assert_double_equal(f.samples[2].stream, 0, 0);
	shade_frame_free(&f);
	world_destroy(w);
}

static void test_zoom_and_pan(void **state)
{
	(void)state;
	struct world *w = flat_world(64, 64, 0);
	for (int y = 0; y < 64; y++)
		for (int x = 0; x < 64; x++)
			*world_at(w->layer[LAYER_HEIGHT], w, x, y) = (float)(x + 64 * y) / 4096.0f;
	struct shade_view v = default_view();
	v.zoom = ZOOM_2;
	struct shade_geom g;
	/* 20x20 pixels at 2:1 show 10x10 cells; pan stops at 54. */
	shade_pan(&v, w, 20, 20, 1000, 1000);
	assert_int_equal(v.pan_x, 54);
	assert_int_equal(v.pan_y, 54);
	shade_pan(&v, w, 20, 20, -2000, -2);
	assert_int_equal(v.pan_x, 0);
	assert_int_equal(v.pan_y, 53);
	shade_geometry(&v, w, 20, 20, &g);
	assert_double_equal(g.cpp, 0.5, 0);
	int cx, cy;
	assert_true(shade_cell_at(&g, w, 0, 0, &cx, &cy));
	assert_int_equal(cx, 0);
	assert_int_equal(cy, 53);
	assert_true(shade_cell_at(&g, w, 3, 5, &cx, &cy));
	assert_int_equal(cx, 1);
	assert_int_equal(cy, 55);
	/* Each cell is a 2x2 block of equal samples. */
	struct shade_frame f;
	assert_int_equal(shade_frame_init(&f, 20, 20), GULLY_OK);
	shade_render(&f, w, &v, NULL, 0);
	assert_double_equal(f.samples[0].height, f.samples[21].height, 0);
	assert_double_equal(f.samples[0].height, *world_at(w->layer[LAYER_HEIGHT], w, 0, 53), 0);
	assert_true(f.samples[2].height > f.samples[1].height);
	/* 4:1 zoom: a cell's 4x4 pixels share one colour, slope included, on
	 * uneven ground. */
	v.zoom = ZOOM_4;
	shade_clamp_pan(&v, w, 20, 20);
	assert_int_equal(v.pan_y, 53);
	for (int y = 0; y < 64; y++)
		for (int x = 0; x < 64; x++)
			*world_at(w->layer[LAYER_HEIGHT], w, x, y) =
				(float)((x * 7 + y * 13) % 17) / 40.0f;
	v.pan_x = 10;
	v.pan_y = 10;
	shade_render(&f, w, &v, NULL, 0);
	for (int py = 4; py < 16; py++)
		for (int px = 4; px < 16; px++)
			assert_rgb(f.px[py * 20 + px], f.px[(py / 4 * 4) * 20 + px / 4 * 4]);
	assert_false(palette_equal(f.px[4 * 20 + 4], f.px[4 * 20 + 8]));
	v.zoom = ZOOM_FIT;
	shade_clamp_pan(&v, w, 20, 20);
	assert_int_equal(v.pan_x, 0);
	assert_int_equal(v.pan_y, 0);
	/* A map smaller than the view at fit is enlarged to fill it. */
	shade_geometry(&v, w, 128, 100, &g);
	assert_double_equal(g.cpp, 0.64, 1e-12);
	assert_int_equal(g.used_h, 100);
	assert_int_equal(g.used_w, 100);
	/* Particle points land on their pixel. */
	struct shade_point pt = {.x = 3.5f, .y = 60.2f};
	v.zoom = ZOOM_1;
	v.pan_x = 0;
	v.pan_y = 44;
	v.overlays = OVERLAY_BIT(OVERLAY_PARTICLES);
	shade_render(&f, w, &v, &pt, 1);
	assert_rgb(f.px[16 * 20 + 3], palette_particle);
	assert_false(palette_equal(f.px[16 * 20 + 4], palette_particle));
	shade_frame_free(&f);
	world_destroy(w);
}

static void test_colour_reductions(void **state)
{
	(void)state;
	for (int i = 16; i < 256; i++) {
		struct rgb c = palette_from_256(i);
		int j = palette_to_256(c);
		assert_true(j >= 16 && j <= 255);
		/* An exact palette colour maps to an index showing that colour. */
		assert_rgb(palette_from_256(j), c);
	}
	assert_int_equal(palette_to_256((struct rgb){255, 0, 0}), 196);
	assert_int_equal(palette_to_ansi((struct rgb){0, 0, 0}, 8), 0);
	assert_int_equal(palette_to_ansi((struct rgb){250, 250, 250}, 16), 15);
	assert_int_equal(palette_to_ansi((struct rgb){250, 250, 250}, 8), 7);
	assert_int_equal(palette_to_ansi((struct rgb){10, 160, 20}, 8), 2);
	/* But a colour: never it, else the nearest as palette_to_ansi finds
	 * it (a glyph kept off its own background's colour). */
	for (int n = 8; n <= 16; n += 8)
		for (int not = 0; not < n; not++) {
			struct rgb c = palette_from_ansi(not);
			int b = palette_to_ansi_but(c, n, not);
			assert_true(b != not && b >= 0 && b < n);
			struct rgb other = palette_from_ansi((not + 1) % n);
			assert_int_equal(palette_to_ansi_but(other, n, not), palette_to_ansi(other, n));
		}
	assert_int_equal(palette_to_ansi_but((struct rgb){10, 160, 20}, 8, 7), 2);
	struct rgb q = palette_quantise((struct rgb){0x12, 0x34, 0xff}, 4);
	assert_rgb(q, (struct rgb){0x18, 0x38, 0xf8});
	assert_rgb(palette_quantise(q, 4), q);
}

/* A picture of the whole map equals one render of it at 1:1, though it is
 * made in bands of rows: slopes at a band's edges see the same neighbours. */
static void test_image_equals_one_render(void **state)
{
	(void)state;
	struct world *w;
	int W = 17, H = 300;
	assert_int_equal(world_create(&w, W, H), GULLY_OK);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			size_t i = (size_t)y * W + x;
			w->layer[LAYER_HEIGHT][i] = 0.5f + 0.3f * sinf(x * 0.7f) * cosf(y * 0.13f);
			w->layer[LAYER_BASE][i] = 0.5f;
			w->layer[LAYER_STREAM][i] = (x == 5) ? 0.8f : 0;
		}
	struct shade_view v = default_view();
	v.overlays = OVERLAY_BIT(OVERLAY_STREAMS) | OVERLAY_BIT(OVERLAY_EROSION);
	v.zoom = ZOOM_FIT; /* ignored: a picture is always 1:1 */
	struct rgb *img = malloc((size_t)W * H * sizeof *img);
	assert_non_null(img);
	assert_int_equal(shade_image(w, &v, img), GULLY_OK);
	struct shade_frame f;
	assert_int_equal(shade_frame_init(&f, W, H), GULLY_OK);
	v.zoom = ZOOM_1;
	shade_render(&f, w, &v, NULL, 0);
	for (size_t i = 0; i < (size_t)W * H; i++)
		assert_rgb(img[i], f.px[i]);
	/* The stream column is blue-er than its neighbour row for row. */
	assert_true(img[5].b > img[4].b || img[5].b > img[6].b);
	shade_frame_free(&f);
	free(img);
	world_destroy(w);
}

/* Another layer on the ramp: its minimum is the ramp's low end, its
 * maximum the high end, on flat (unshaded) ground. */
static void test_image_of_another_layer(void **state)
{
	(void)state;
	struct world *w = flat_world(16, 16, 0.4f);
	for (size_t i = 0; i < 256; i++)
		w->layer[LAYER_WETNESS][i] = 2.0f + (float)i;
	struct shade_view v = default_view();
	v.ramp_layer = w->layer[LAYER_WETNESS];
	v.ramp_min = 2.0f;
	v.ramp_max = 257.0f;
	struct rgb img[256];
	assert_int_equal(shade_image(w, &v, img), GULLY_OK);
	assert_rgb(img[0], palette_height(0));
	assert_rgb(img[255], palette_height(1));
	assert_rgb(img[85], palette_height(85.0 / 255.0));
	world_destroy(w);
}

static void test_overlays_parse(void **state)
{
	(void)state;
	unsigned bits = 99;
	char err[128] = "";
	assert_int_equal(shade_overlays_parse("streams,pools,erosion,hardness,wetness", &bits, err,
					      sizeof err), GULLY_OK);
	assert_int_equal(bits, OVERLAY_BIT(OVERLAY_STREAMS) | OVERLAY_BIT(OVERLAY_POOLS) |
				       OVERLAY_BIT(OVERLAY_EROSION) | OVERLAY_BIT(OVERLAY_HARDNESS) |
				       OVERLAY_BIT(OVERLAY_WETNESS));
	assert_int_equal(shade_overlays_parse("none", &bits, err, sizeof err), GULLY_OK);
	assert_int_equal(bits, 0);
	assert_int_equal(shade_overlays_parse("", &bits, err, sizeof err), GULLY_OK);
	assert_int_equal(bits, 0);
	assert_int_equal(shade_overlays_parse("pools", &bits, err, sizeof err), GULLY_OK);
	assert_int_equal(bits, OVERLAY_BIT(OVERLAY_POOLS));
	const char *bad[] = {"stream", "pools,lava", "particles", "streams,", "Streams"};
	for (int i = 0; i < 5; i++) {
		err[0] = '\0';
		int e = shade_overlays_parse(bad[i], &bits, err, sizeof err);
		if (i == 3) {
			/* A trailing comma is harmless. */
			assert_int_equal(e, GULLY_OK);
			continue;
		}
		assert_int_equal(e, GULLY_EINVAL);
		assert_non_null(strstr(err, "is not an overlay"));
	}
}

/* On every colour of the height ramp, an erosion the legend shows (0.002,
 * 0.01, 0.05) reads red, a deposition green: not orange or olive (the ramp's
 * tan mixed with red read orange). */
static void test_erosion_reads_red_and_green(void **state)
{
	(void)state;
	const double changes[] = {0.002, 0.01, SHADE_EROSION_FULL};
	for (int i = 0; i < palette_ramp_stops(); i++) {
		struct rgb ground = palette_ramp_stop(i, NULL);
		for (int k = 0; k < 3; k++) {
			struct shade_sample s = {.height = 0.5f, .base = 0.5f};
			s.height = (float)(0.5 - changes[k]);
			struct rgb er = shade_overlay_blend(ground, &s, OVERLAY_BIT(OVERLAY_EROSION), NULL);
			s.height = (float)(0.5 + changes[k]);
			struct rgb de = shade_overlay_blend(ground, &s, OVERLAY_BIT(OVERLAY_EROSION), NULL);
			/* Red: r well above g, and g and b close (no yellow cast). */
			assert_true(er.r > er.g + 15);
			assert_true(abs(er.g - er.b) <= 16);
			assert_true(de.g > de.r + 15);
			assert_true(de.g > de.b + 15);
		}
	}
	/* No change leaves the ground as it is. */
	struct rgb tan = palette_ramp_stop(2, NULL);
	struct shade_sample same = {.height = 0.5f, .base = 0.5f};
	assert_rgb(shade_overlay_blend(tan, &same, OVERLAY_BIT(OVERLAY_EROSION), NULL), tan);
}

/* The erosion overlay's scale fits the map: the 99th percentile of the
 * changes, rounded up to a quarter octave; unchanged cells and NaN do not
 * count; nothing changed gives the default; a faint map the floor. A cut at
 * the fitted scale draws as strongly as SHADE_EROSION_FULL did before. */
static void test_erosion_scale_fits_the_map(void **state)
{
	(void)state;
	struct world *w = flat_world(16, 16, 0.5f);
	assert_true(shade_erosion_fit(w) == SHADE_EROSION_FULL);
	float *h = w->layer[LAYER_HEIGHT];
	/* 100 cells: 98 cut 0.004 deep, one 0.006, one 0.5 (an outlier). */
	for (int i = 0; i < 100; i++)
		h[i] = 0.5f - 0.004f;
	h[98] = 0.5f - 0.006f;
	h[99] = 0.0f;
	h[150] = NAN;
	double full = shade_erosion_fit(w);
	/* p99 is the 99th of 100 changes, 0.006: its quarter octave runs from
	 * 2^-7.5 = 0.00552 to 2^-7.25 = 0.00657, at most 2^0.25 = 1.19 times it. */
	assert_true(full >= 0.006 && full <= 0.006 * 1.19 + 1e-12);
	assert_true(full < 0.5);
	assert_true(shade_erosion_strength(full, full) == 0.85);
	assert_true(shade_erosion_strength(0.004, full) > 0.85 * 0.75);
	/* Changes of 1e-5 only: the floor, so they stay pale. */
	for (int i = 0; i < 200; i++)
		h[i] = 0.5f - 1e-5f;
	assert_true(shade_erosion_fit(w) == SHADE_EROSION_FIT_MIN);
	world_destroy(w);
}

/* A fitted ramp maps its low end to 0 and its high end to 1; the legend's
 * inverse gives the heights back; unfitted (0, 0) heights are as they are. */
static void test_ramp_fit(void **state)
{
	(void)state;
	struct shade_view v;
	memset(&v, 0, sizeof v);
	assert_true(shade_ramp_t(&v, 0.25) == 0.25);
	v.height_lo = 0.2f;
	v.height_hi = 0.6f;
	assert_true(fabs(shade_ramp_t(&v, 0.2f)) < 1e-9);
	assert_true(fabs(shade_ramp_t(&v, 0.6f) - 1) < 1e-7);
	for (int k = 0; k <= 3; k++)
		assert_true(fabs(shade_ramp_t(&v, shade_ramp_height(&v, k / 3.0)) - k / 3.0) < 1e-9);
	/* A rendered flat map at the fitted low end shows the ramp's first stop. */
	struct world *w = flat_world(16, 16, 0.2f);
	struct shade_frame f;
	assert_int_equal(shade_frame_init(&f, 16, 16), 0);
	v.zoom = ZOOM_1;
	v.shading = 1;
	v.altitude = 45;
	v.vertical_scale = 1;
	shade_render(&f, w, &v, NULL, 0);
	assert_rgb(f.px[5 * 16 + 5], palette_height(0));
	shade_frame_free(&f);
	world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ramp_ends_and_stops),
		cmocka_unit_test(test_flat_world_shows_ramp_colour),
		cmocka_unit_test(test_light_faces),
		cmocka_unit_test(test_overlay_blending),
		cmocka_unit_test(test_downsampling_mean_height_max_water),
		cmocka_unit_test(test_zoom_and_pan),
		cmocka_unit_test(test_colour_reductions),
		cmocka_unit_test(test_image_equals_one_render),
		cmocka_unit_test(test_image_of_another_layer),
		cmocka_unit_test(test_overlays_parse),
		cmocka_unit_test(test_erosion_reads_red_and_green),
		cmocka_unit_test(test_ramp_fit),
		cmocka_unit_test(test_erosion_scale_fits_the_map),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
