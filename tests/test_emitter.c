/* Emitter stream (seed 004): steering, straight and rotating paths (eqs. 1,
 * 3, 4), the crater (eqs. 6, 7), hardness, mass balance, determinism, and a
 * result that does not depend on how the budget is split or resumed. */
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/emitter/emitter.h"
#include "core/base/error.h"
#include "core/base/pi.h"
#include "core/terrain/hardness.h"
#include "core/terrain/terrain.h"

/* A flat map at height 0.5 with uniform hardness, and a plain stream. */
static void flat_params(struct params *p, int size, double hardness)
{
	params_defaults(p);
	p->world.width = size;
	p->world.height = size;
	p->terrain.generator = TERRAIN_FLAT;
	p->terrain.roughness = 0;
	p->hardness.generator = HARDNESS_UNIFORM;
	p->hardness.value = hardness;
	p->emitter.depth_scale = 0.001;
}

/* fBm terrain and strata: particles turn, so the tests see real paths. */
static void rich_params(struct params *p, int size)
{
	params_defaults(p);
	p->world.width = size;
	p->world.height = size;
	p->hardness.generator = HARDNESS_STRATA;
	p->hardness.contrast = 0.9;
	p->emitter.x = 0.3;
	p->emitter.per_step = 5;
	p->emitter.lifetime = 40;
	p->emitter.depth_scale = 0.001;
	p->emitter.rotation_radius = 0.4;
}

static struct world *make_world(const struct params *p)
{
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, p), 0);
	return w;
}

static void *start(struct world *w, const struct params *p)
{
	void *st = NULL;
	assert_int_equal(emitter_process.create(&st, w, p), 0);
	return st;
}

static void step(void *st, struct world *w, const struct params *p, uint64_t n)
{
	struct process_report rep = {0};
	assert_int_equal(emitter_process.step(st, w, p, n, &rep), 0);
	assert_int_equal(rep.particles, n);
}

static void assert_worlds_equal(const struct world *a, const struct world *b)
{
	assert_memory_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
			    world_cells(a) * sizeof(float));
	assert_int_equal(a->particles, b->particles);
	assert_int_equal(a->steps, b->steps);
	assert_memory_equal(a->tally, b->tally, sizeof a->tally);
	assert_memory_equal(&a->rng, &b->rng, sizeof a->rng);
}

static void test_registered(void **state)
{
	(void)state;
	assert_ptr_equal(process_find("emitter"), &emitter_process);
	assert_string_equal(emitter_process.unit, "particles");
	assert_true(params_section_find(emitter_process.section) >= 0);
	assert_true(params_find("emitter.deposit") >= 0);
	struct params p;
	params_defaults(&p);
	assert_false(p.emitter.deposit); /* off by default, as in the seed */
}

/* The test's own reading of the rule, sampled with cos/sin of each heading. */
static bool sample(const struct world *w, double x, double y, float *h)
{
	if (!(x >= 0 && y >= 0 && x < w->width && y < w->height))
		return false;
	*h = w->layer[LAYER_HARDNESS][(size_t)y * (size_t)w->width + (size_t)x];
	return true;
}

static void test_steer_turns_toward_softer(void **state)
{
	(void)state;
	struct params p;
	flat_params(&p, 64, 0.5);
	p.emitter.search_angle = 40;
	p.emitter.search_rays = 4;
	p.emitter.max_angle = 15;
	p.emitter.max_speed = 2;
	struct world *w = make_world(&p);
	struct rng r;
	rng_seed(&r, 7, 7);
	for (size_t i = 0; i < world_cells(w); i++)
		w->layer[LAYER_HARDNESS][i] = (float)rng_below(&r, 5) / 4.0f; /* ties happen */
	struct emitter_params ep;
	emitter_params_from(&ep, &p, w);
	int turned = 0, clamped = 0, straight = 0;
	for (int n = 0; n < 5000; n++) {
		struct emitter_particle q = {0};
		q.x = 2 + 60 * rng_double(&r);
		q.y = 2 + 60 * rng_double(&r);
		q.a = 2 * GULLY_PI * rng_double(&r) - GULLY_PI;
		q.v = 0.1 + 1.9 * rng_double(&r);
		q.m = 1;
		double turn = emitter_steer(&q, w, &ep) - q.a;
		double allowed = ep.max_angle * q.v / ep.max_speed;
		assert_true(fabs(turn) <= allowed + 1e-12);
		assert_true(fabs(turn) <= ep.search_angle + 1e-12);

		double look = q.v > 1 ? q.v : 1, hmin = INFINITY, omin = INFINITY;
		double offs[9];
		float hs[9];
		bool on[9];
		for (int k = -4; k <= 4; k++) {
			double o = ep.search_angle * k / 4.0;
			offs[k + 4] = o;
			on[k + 4] = sample(w, q.x + look * cos(q.a + o), q.y + look * sin(q.a + o),
					   &hs[k + 4]);
			if (on[k + 4] && hs[k + 4] < hmin)
				hmin = hs[k + 4];
		}
		for (int k = 0; k < 9; k++)
			if (on[k] && hs[k] == hmin && fabs(offs[k]) < omin)
				omin = fabs(offs[k]);
		if (omin == 0) {
			assert_true(turn == 0); /* already on the softest heading */
			straight++;
			continue;
		}
		/* Toward a softest heading of the smallest turn, by min(turn, allowed). */
		bool ok = false;
		for (int k = 0; k < 9; k++)
			if (on[k] && hs[k] == hmin && fabs(fabs(offs[k]) - omin) < 1e-12 &&
			    turn * offs[k] > 0 && fabs(fabs(turn) - fmin(omin, allowed)) < 1e-12)
				ok = true;
		if (!ok)
			fail_msg("particle %d: turn %g, softest at +-%g, allowed %g", n, turn, omin,
				 allowed);
		turned++;
		clamped += omin > allowed;
	}
	/* Every branch was exercised, so the checks above were not vacuous. */
	assert_true(turned > 1000 && clamped > 500 && straight > 500);
	world_destroy(w);
}

/* Sets one cell's hardness after filling the map with `all`. */
static void field(struct world *w, float all)
{
	for (size_t i = 0; i < world_cells(w); i++)
		w->layer[LAYER_HARDNESS][i] = all;
}

static void test_steer_hand_built(void **state)
{
	(void)state;
	struct params p;
	flat_params(&p, 32, 1.0);
	p.emitter.search_angle = 90;
	p.emitter.search_rays = 2; /* headings 0, +-45, +-90 degrees */
	p.emitter.max_angle = 30;
	p.emitter.max_speed = 2;
	struct world *w = make_world(&p);
	float *d = w->layer[LAYER_HARDNESS];
	struct emitter_params ep;
	emitter_params_from(&ep, &p, w);
	/* v = 1 looks 1 cell ahead: +90 is cell (20, 21) (y grows down), -90 is
	 * (20, 19), +45 is (21, 21); the turn allowed is 30 * 1 / 2 = 15. */
	struct emitter_particle q = {.x = 20.5, .y = 20.5, .a = 0, .v = 1, .m = 1};
	field(w, 1);
	*world_at(d, w, 20, 21) = 0.2f;
	assert_double_equal(emitter_steer(&q, w, &ep), 15 * GULLY_PI / 180, 1e-12);
	*world_at(d, w, 20, 19) = 0.1f;
	assert_double_equal(emitter_steer(&q, w, &ep), -15 * GULLY_PI / 180, 1e-12);
	*world_at(d, w, 20, 21) = 0.1f; /* a tie at +-90: the negative side */
	assert_double_equal(emitter_steer(&q, w, &ep), -15 * GULLY_PI / 180, 1e-12);
	*world_at(d, w, 21, 21) = 0.1f; /* a tie with +45: the smaller turn */
	assert_double_equal(emitter_steer(&q, w, &ep), 15 * GULLY_PI / 180, 1e-12);
	field(w, 0.25f); /* nothing softer: straight on */
	assert_double_equal(emitter_steer(&q, w, &ep), 0, 0);

	/* v = 2 with max_angle 60: 60 degrees allowed, so the 45 degree pick
	 * shows unclamped. From (19.5, 20.5), +45 lands in (20, 21), +90 in (19, 22). */
	p.emitter.max_angle = 60;
	emitter_params_from(&ep, &p, w);
	q = (struct emitter_particle){.x = 19.5, .y = 20.5, .a = 0, .v = 2, .m = 1};
	field(w, 1);
	*world_at(d, w, 19, 22) = 0;
	assert_double_equal(emitter_steer(&q, w, &ep), 60 * GULLY_PI / 180, 1e-12);
	*world_at(d, w, 20, 21) = 0;
	assert_double_equal(emitter_steer(&q, w, &ep), 45 * GULLY_PI / 180, 1e-12);
	/* At half the speed the same choice is held to 30 degrees (eq. 1). */
	q.v = 1;
	q.x = 20.5;
	field(w, 1);
	*world_at(d, w, 21, 21) = 0;
	assert_double_equal(emitter_steer(&q, w, &ep), 30 * GULLY_PI / 180, 1e-12);
	world_destroy(w);
}

static void test_straight_on_uniform(void **state)
{
	(void)state;
	struct params p;
	flat_params(&p, 96, 0.4);
	p.emitter.direction = 30;
	p.emitter.speed = 1.3;
	p.emitter.speed_jitter = 0;
	struct world *w = make_world(&p);
	struct emitter_params ep;
	emitter_params_from(&ep, &p, w);
	struct emitter_particle q = {.x = 10.2, .y = 10.7, .a = ep.direction, .b = 0.3,
				     .v = 1.3, .m = 1};
	for (int i = 1; i <= 50; i++) {
		assert_int_equal(emitter_particle_step(&q, w, &ep), EMITTER_FLYING);
		assert_double_equal(q.a, ep.direction, 0);
		assert_double_equal(q.x, 10.2 + i * 1.3 * cos(ep.direction), 1e-9);
		assert_double_equal(q.y, 10.7 + i * 1.3 * sin(ep.direction), 1e-9);
	}
	world_destroy(w);

	/* The whole stream: eastward from a 1-cell window, nothing changes
	 * farther from the emitter's row than a crater's radius. */
	p.emitter.direction = 0;
	p.emitter.window = 1;
	p.emitter.speed_jitter = 0.5;
	p.emitter.mass_jitter = 0;
	w = make_world(&p);
	void *st = start(w, &p);
	step(st, w, &p, 400);
	double y0 = p.emitter.y * w->height, R = p.emitter.radius_per_mass * p.emitter.mass;
	int changed = 0;
	for (int y = 0; y < w->height; y++)
		for (int x = 0; x < w->width; x++)
			if (*world_at(w->layer[LAYER_HEIGHT], w, x, y) != 0.5f) {
				changed++;
				assert_true(fabs(y + 0.5 - y0) < R + 0.5);
			}
	assert_true(changed > 100);
	emitter_process.destroy(st);
	world_destroy(w);
}

static void test_rotation_eq4(void **state)
{
	(void)state;
	struct params p;
	flat_params(&p, 128, 0.2);
	p.emitter.rotation_radius = 1.5;
	p.emitter.angular_speed = 12;
	struct world *w = make_world(&p);
	struct emitter_params ep;
	emitter_params_from(&ep, &p, w);
	const double a = 20 * GULLY_PI / 180, b0 = 0.5, v = 0.7, r = 1.5, om = 12 * GULLY_PI / 180;
	struct emitter_particle q = {.x = 64, .y = 64, .a = a, .b = b0, .v = v, .m = 1};
	double ex = 64, ey = 64;
	for (int i = 0; i < 60; i++) {
		/* x_i = x_{i-1} + v cos a + r cos b_i,  b_{i+1} = b_i + w (eq. 4). */
		ex += v * cos(a) + r * cos(b0 + i * om);
		ey += v * sin(a) + r * sin(b0 + i * om);
		assert_int_equal(emitter_particle_step(&q, w, &ep), EMITTER_FLYING);
		assert_double_equal(q.x, ex, 1e-9);
		assert_double_equal(q.y, ey, 1e-9);
	}
	/* 60 steps of 12 degrees: two full loops, so it really went round. */
	assert_double_equal(q.b, b0 + 60 * om, 1e-9);
	world_destroy(w);
}

static void test_crater_eq6(void **state)
{
	(void)state;
	struct params p;
	flat_params(&p, 64, 0.0);
	p.emitter.radius_per_mass = 2.5;
	p.emitter.depth_scale = 0.003;
	struct world *w = make_world(&p);
	struct emitter_params ep;
	emitter_params_from(&ep, &p, w);
	struct emitter_particle q = {.x = 30.3, .y = 25.8, .a = 0, .v = 1, .m = 1.3};
	assert_int_equal(emitter_particle_step(&q, w, &ep), EMITTER_FLYING);
	const double x0 = 31.3, y0 = 25.8, R = 2.5 * 1.3;
	double removed = 0;
	int inside = 0;
	for (int y = 0; y < 64; y++) {
		for (int x = 0; x < 64; x++) {
			double r2 = (x + 0.5 - x0) * (x + 0.5 - x0) + (y + 0.5 - y0) * (y + 0.5 - y0);
			double dh = R * R - r2 > 0 ? R * R - r2 : 0;
			double h = *world_at(w->layer[LAYER_HEIGHT], w, x, y);
			assert_double_equal(h, 0.5 - 0.003 * dh, 1e-7);
			removed += 0.5 - h;
			inside += dh > 0;
		}
	}
	/* About pi R^2 cells, and the books hold what the map lost. */
	assert_true(fabs(inside - GULLY_PI * R * R) < 4 * R);
	assert_double_equal(q.carried, removed, 1e-9);
	assert_double_equal(w->tally[TALLY_ERODED], removed, 1e-9);
	world_destroy(w);
}

/* The heights a run leaves must be ones a snapshot of them loads
 * (WORLD_HEIGHT_LIMIT): the emitter at its registry's deepest crater, on a
 * slow stream over one spot, dug past -10^6 within seconds (a 16x16 run of
 * 20,000 particles reached -3e7), and the snapshot it saved was refused.
 * The crater stops at the floor, the mound at the ceiling, and the books
 * hold what really moved. */
static void test_heights_stay_loadable(void **state)
{
	(void)state;
	struct params p;
	flat_params(&p, 16, 0.0);
	p.emitter.depth_scale = 0.01;
	p.emitter.mass = 4;
	p.emitter.radius_per_mass = 8;
	struct world *w = make_world(&p);
	float *h = w->layer[LAYER_HEIGHT];
	const float deep = -WORLD_HEIGHT_LIMIT + 5.0f;
	for (size_t i = 0; i < world_cells(w); i++)
		h[i] = deep;
	double removed = emitter_crater(w, 8.0, 8.0, 32.0, 0.01);
	size_t cell;
	if (world_check_layer(w, LAYER_HEIGHT, &cell))
		fail_msg("the crater left cell %zu at %g", cell, (double)h[cell]);
	double lost = 0;
	for (size_t i = 0; i < world_cells(w); i++)
		lost += (double)deep - (double)h[i];
	assert_true(removed > 0);
	assert_double_equal(removed, lost, 1e-6);
	/* And a mound on a map at the ceiling. */
	const float high = WORLD_HEIGHT_LIMIT - 5.0f;
	for (size_t i = 0; i < world_cells(w); i++)
		h[i] = high;
	double gained = emitter_mound(w, 8.0, 8.0, 4.0, 1e6);
	if (world_check_layer(w, LAYER_HEIGHT, &cell))
		fail_msg("the mound left cell %zu at %g", cell, (double)h[cell]);
	double added = 0;
	for (size_t i = 0; i < world_cells(w); i++)
		added += (double)h[i] - (double)high;
	assert_true(gained > 0 && gained < 1e6);
	assert_double_equal(gained, added, 1e-6);
	world_destroy(w);
}

static void test_erosion_scales_with_softness(void **state)
{
	(void)state;
	struct params p;
	flat_params(&p, 48, 0.0);
	struct world *w = make_world(&p);
	struct rng r;
	rng_seed(&r, 3, 3);
	float *d = w->layer[LAYER_HARDNESS];
	for (size_t i = 0; i < world_cells(w); i++)
		d[i] = (float)rng_below(&r, 3) / 2.0f; /* 0, 0.5, 1 */
	const double x0 = 20.1, y0 = 22.6, R = 4, ds = 0.002;
	emitter_crater(w, x0, y0, R, ds);
	int hard = 0, soft = 0;
	for (int y = 0; y < 48; y++) {
		for (int x = 0; x < 48; x++) {
			double dh = R * R - ((x + 0.5 - x0) * (x + 0.5 - x0) +
					     (y + 0.5 - y0) * (y + 0.5 - y0));
			float dd = *world_at(d, w, x, y);
			double loss = 0.5 - *world_at(w->layer[LAYER_HEIGHT], w, x, y);
			if (dh <= 0 || dd == 1.0f) {
				assert_true(loss == 0); /* none outside, none on hard rock */
				hard += dh > 0;
				continue;
			}
			assert_double_equal(loss, ds * dh * (1 - dd), 1e-7);
			soft += dd == 0.0f;
		}
	}
	assert_true(hard > 5 && soft > 5);
	world_destroy(w);

	/* Whole streams on uniform hardness follow the same paths, so the volume
	 * removed is proportional to 1 - hardness, and zero on hardness 1. */
	double eroded[3];
	const double hv[3] = {0.0, 0.5, 1.0};
	for (int k = 0; k < 3; k++) {
		flat_params(&p, 64, hv[k]);
		w = make_world(&p);
		void *st = start(w, &p);
		step(st, w, &p, 600);
		eroded[k] = w->tally[TALLY_ERODED];
		if (hv[k] == 1.0)
			assert_memory_equal(w->layer[LAYER_HEIGHT], w->layer[LAYER_BASE],
					    world_cells(w) * sizeof(float));
		emitter_process.destroy(st);
		world_destroy(w);
	}
	assert_true(eroded[0] > 1);
	assert_double_equal(eroded[1] / eroded[0], 0.5, 1e-4);
	assert_true(eroded[2] == 0);
}

static double height_change(const struct world *w)
{
	double sum = 0;
	for (size_t i = 0; i < world_cells(w); i++)
		sum += (double)w->layer[LAYER_HEIGHT][i] - (double)w->layer[LAYER_BASE][i];
	return sum;
}

static void test_mass_balance(void **state)
{
	(void)state;
	for (int deposit = 0; deposit <= 1; deposit++) {
		struct params p;
		rich_params(&p, 64);
		p.emitter.deposit = deposit;
		struct world *w = make_world(&p);
		void *st = start(w, &p);
		step(st, w, &p, 3001);
		double er = w->tally[TALLY_ERODED], de = w->tally[TALLY_DEPOSITED];
		double off = w->tally[TALLY_SEDIMENT_OFF_MAP];
		double flying = emitter_in_flight_mass(st);
		assert_true(er > 1);
		assert_true(emitter_in_flight(st) > 0 && flying > 0);
		/* The map changed by exactly what the books say... */
		assert_double_equal(height_change(w), de - er, 1e-9 * er);
		/* ...and every grain removed is on the map again, off it, or in flight,
		 * as the world's own books say too (the metrics' columns). */
		assert_double_equal(er, de + off + flying, 1e-9 * er);
		assert_true(w->tally[TALLY_SEDIMENT_IN_FLIGHT] == flying);
		if (deposit) {
			/* Most paths end on the map here, so most material comes back. */
			assert_true(de > 0.5 * er);
		} else {
			assert_true(de == 0);
		}
		/* Another process takes over: what is in flight lands first. */
		const uint64_t steps = w->steps;
		assert_int_equal(emitter_process.finish(st, w, &p, NULL), GULLY_OK);
		assert_int_equal(emitter_in_flight(st), 0);
		assert_true(w->steps > steps);
		assert_true(w->tally[TALLY_SEDIMENT_IN_FLIGHT] == 0);
		er = w->tally[TALLY_ERODED];
		de = w->tally[TALLY_DEPOSITED];
		off = w->tally[TALLY_SEDIMENT_OFF_MAP];
		assert_double_equal(height_change(w), de - er, 1e-9 * er);
		assert_double_equal(er, de + off, 1e-9 * er);
		emitter_process.destroy(st);
		world_destroy(w);
	}
}

static void test_deterministic(void **state)
{
	(void)state;
	struct params p;
	rich_params(&p, 64);
	struct world *a = make_world(&p), *b = make_world(&p);
	void *sa = start(a, &p), *sb = start(b, &p);
	step(sa, a, &p, 2000);
	step(sb, b, &p, 2000);
	assert_worlds_equal(a, b);
	assert_memory_not_equal(a->layer[LAYER_HEIGHT], a->layer[LAYER_BASE],
				world_cells(a) * sizeof(float));
	emitter_process.destroy(sb);
	world_destroy(b);
	p.world.seed = 43;
	b = make_world(&p);
	sb = start(b, &p);
	step(sb, b, &p, 2000);
	assert_memory_not_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
				world_cells(a) * sizeof(float));
	emitter_process.destroy(sa);
	emitter_process.destroy(sb);
	world_destroy(a);
	world_destroy(b);
}

static void test_budget_split(void **state)
{
	(void)state;
	struct params p;
	rich_params(&p, 64);
	p.emitter.deposit = true;
	struct world *a = make_world(&p), *b = make_world(&p);
	void *sa = start(a, &p), *sb = start(b, &p);
	step(sa, a, &p, 3000);
	/* per_step is 5: these splits stop mid-tick and on tick boundaries. */
	const uint64_t parts[] = {1, 0, 999, 1, 4, 7, 1988};
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		step(sb, b, &p, parts[i]);
	assert_worlds_equal(a, b);
	assert_int_equal(emitter_in_flight(sa), emitter_in_flight(sb));
	emitter_process.destroy(sa);
	emitter_process.destroy(sb);
	world_destroy(a);
	world_destroy(b);
}

/* A snapshot resume: the world copied, the state saved, loaded into a fresh
 * process, and the run continued, is the run that never stopped. */
static void test_save_load_resume(void **state)
{
	(void)state;
	struct params p;
	rich_params(&p, 64);
	struct world *a = make_world(&p), *b = make_world(&p);
	void *sa = start(a, &p), *sb = start(b, &p);
	step(sa, a, &p, 3000);
	step(sb, b, &p, 1203);
	unsigned char *blob;
	size_t len;
	assert_int_equal(emitter_process.save_state(sb, &blob, &len), 0);
	struct world *c;
	assert_int_equal(world_clone(&c, b), 0);
	emitter_process.destroy(sb);
	world_destroy(b);
	void *sc = start(c, &p);
	assert_int_equal(emitter_process.load_state(sc, blob, len), 0);
	free(blob);
	step(sc, c, &p, 1797);
	assert_worlds_equal(a, c);
	emitter_process.destroy(sa);
	emitter_process.destroy(sc);
	world_destroy(a);
	world_destroy(c);
}

static uint64_t bits_of(double d)
{
	uint64_t b;
	memcpy(&b, &d, sizeof b);
	return b;
}

static void test_load_rejects_corrupt(void **state)
{
	(void)state;
	struct params p;
	rich_params(&p, 32);
	struct world *w = make_world(&p);
	void *st = start(w, &p);
	step(st, w, &p, 52);
	size_t flying = emitter_in_flight(st);
	assert_true(flying > 0);
	unsigned char *blob;
	size_t len;
	assert_int_equal(emitter_process.save_state(st, &blob, &len), 0);
	/* Each case: a blob whose one field is broken, refused without change. */
	const size_t first = 16, particle = 60;
	struct {
		const char *what;
		size_t at;     /* where to patch, or SIZE_MAX for none */
		uint64_t bits; /* written little-endian */
		size_t size;
		size_t len;    /* the length passed */
	} cases[] = {
		{"magic", 0, 'X', 1, len},
		{"to_emit 0", 4, 0, 4, len},
		{"to_emit 65", 4, 65, 4, len},
		{"count", 8, flying + 1, 8, len},
		{"x NaN", first, bits_of(NAN), 8, len},
		{"carried inf", first + 6 * 8, bits_of(INFINITY), 8, len},
		{"v negative", first + 4 * 8, bits_of(-1), 8, len},
		{"m zero", first + particle + 5 * 8, bits_of(0), 8, len},
		{"truncated", SIZE_MAX, 0, 0, len - 1},
		{"header truncated", SIZE_MAX, 0, 0, first - 1},
		{"one particle too many", SIZE_MAX, 0, 0, len + particle},
	};
	unsigned char *bad = calloc(1, len + particle);
	assert_non_null(bad);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(bad, 0, len + particle);
		memcpy(bad, blob, len);
		for (size_t k = 0; cases[i].at != SIZE_MAX && k < cases[i].size; k++)
			bad[cases[i].at + k] = (unsigned char)(cases[i].bits >> (8 * k));
		int rc = emitter_process.load_state(st, bad, cases[i].len);
		if (rc != GULLY_EFORMAT)
			fail_msg("%s: load_state returned %d", cases[i].what, rc);
		assert_int_equal(emitter_in_flight(st), flying);
	}
	/* And the untouched blob loads. */
	assert_int_equal(emitter_process.load_state(st, blob, len), 0);
	assert_int_equal(emitter_in_flight(st), flying);
	free(bad);
	free(blob);
	emitter_process.destroy(st);
	world_destroy(w);
}

/* A saved particle's load is dropped as a mound where its path ends: one
 * larger than the whole map's height range could hold is no load a run
 * makes, and dropped it turned the heights to infinity. */
static void test_load_refuses_absurd_carried(void **state)
{
	(void)state;
	struct params p;
	flat_params(&p, 16, 0.5);
	p.emitter.deposit = 1;
	p.emitter.lifetime = 4;
	struct world *w = make_world(&p);
	void *st = start(w, &p);
	step(st, w, &p, 2);
	assert_true(emitter_in_flight(st) > 0);
	unsigned char *blob;
	size_t len;
	assert_int_equal(emitter_process.save_state(st, &blob, &len), 0);
	const size_t carried = 16 + 6 * 8;
	const uint64_t bits = bits_of(1e300);
	for (int k = 0; k < 8; k++)
		blob[carried + k] = (unsigned char)(bits >> (8 * k));
	int rc = emitter_process.load_state(st, blob, len);
	if (rc == 0) {
		step(st, w, &p, 200);
		for (size_t i = 0; i < world_cells(w); i++)
			if (!isfinite(w->layer[LAYER_HEIGHT][i]))
				fail_msg("a loaded load of 1e300 made cell %zu %g", i,
					 (double)w->layer[LAYER_HEIGHT][i]);
	}
	assert_int_equal(rc, GULLY_EFORMAT);
	free(blob);
	emitter_process.destroy(st);
	world_destroy(w);
}

static void test_pool_bounded(void **state)
{
	(void)state;
	struct params p;
	rich_params(&p, 64);
	p.emitter.x = 0.5;
	p.emitter.per_step = 3;
	p.emitter.lifetime = 20;
	struct world *w = make_world(&p);
	void *st = start(w, &p);
	size_t most = 0;
	for (int i = 0; i < 200; i++) {
		step(st, w, &p, 7);
		size_t n = emitter_in_flight(st);
		assert_true(n <= 3 * 20);
		most = n > most ? n : most;
	}
	/* Calls pause right before a release: 57 survivors of a full tick plus
	 * up to 2 of the next are seen, so the pool is really filled. */
	assert_true(most >= 57);
	/* Every released particle took between 1 and lifetime steps. */
	uint64_t retired = w->particles - emitter_in_flight(st);
	assert_true(w->steps >= retired && w->steps <= w->particles * 20);
	emitter_process.destroy(st);
	world_destroy(w);
}

/* Extreme valid parameters and an emitter at the map's corner aimed out of it:
 * no crash, no read outside the map (ASan), nothing non-finite. */
static void test_extremes(void **state)
{
	(void)state;
	struct params p;
	rich_params(&p, 32);
	p.emitter.x = 0;
	p.emitter.y = 1;
	p.emitter.direction = 135;
	p.emitter.window = 256;
	p.emitter.speed = 16;
	p.emitter.max_speed = 0.05;
	p.emitter.mass = 4;
	p.emitter.mass_jitter = 0.9;
	p.emitter.radius_per_mass = 8;
	p.emitter.depth_scale = 0.01;
	p.emitter.rotation_radius = 16;
	p.emitter.search_angle = 180;
	p.emitter.search_rays = 32;
	p.emitter.lifetime = 50;
	p.emitter.deposit = true;
	int bad;
	assert_int_equal(params_validate(&p, &bad), 0);
	struct world *w = make_world(&p);
	void *st = start(w, &p);
	step(st, w, &p, 300);
	for (size_t i = 0; i < world_cells(w); i++)
		assert_true(isfinite(w->layer[LAYER_HEIGHT][i]));
	assert_double_equal(height_change(w),
			    w->tally[TALLY_DEPOSITED] - w->tally[TALLY_ERODED],
			    1e-9 * (1 + w->tally[TALLY_ERODED]));
	emitter_process.destroy(st);
	world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registered),
		cmocka_unit_test(test_steer_turns_toward_softer),
		cmocka_unit_test(test_steer_hand_built),
		cmocka_unit_test(test_straight_on_uniform),
		cmocka_unit_test(test_rotation_eq4),
		cmocka_unit_test(test_crater_eq6),
		cmocka_unit_test(test_heights_stay_loadable),
		cmocka_unit_test(test_erosion_scales_with_softness),
		cmocka_unit_test(test_mass_balance),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_budget_split),
		cmocka_unit_test(test_save_load_resume),
		cmocka_unit_test(test_load_rejects_corrupt),
		cmocka_unit_test(test_load_refuses_absurd_carried),
		cmocka_unit_test(test_pool_bounded),
		cmocka_unit_test(test_extremes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
