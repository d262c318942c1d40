/* Hydrology's fast descend (src/core/hydrology_descend.c) against the plain
 * version it replaced, kept here as the reference: bit for bit, droplet by
 * droplet, on maps with streams, pools, pits, roots and edges, in every
 * coupling, with and without pit stops and the symmetric normal. */
#include "testutil.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/hydrology/hydrology.h"
#include "core/hydrology/hydrology_descend.h"
#include "core/terrain/terrain.h"

/* The cells whose height moved, in order (the reference tells the flood's
 * lake cache one at a time; the fast one lists them). */
struct cells {
	uint32_t *c;
	size_t n, cap;
};

static void cells_add(struct cells *l, uint32_t c)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->c = realloc(l->c, l->cap * sizeof *l->c);
		assert_non_null(l->c);
	}
	l->c[l->n++] = c;
}

/* ---- the reference: the first version of descend, unchanged but for
 * where it reads its parameters and reports changed cells ---------------- */

static bool ref_is_pit(const float *h, const float *pool, int width, int height, size_t c)
{
	int x = (int)(c % (size_t)width), y = (int)(c / (size_t)width);
	if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
		return false;
	float here = h[c] + pool[c];
	const ptrdiff_t w = width;
	const ptrdiff_t off[8] = {1, -1, w, -w, w + 1, w - 1, 1 - w, -1 - w};
	for (int k = 0; k < 8; k++) {
		size_t n = (size_t)((ptrdiff_t)c + off[k]);
		if (h[n] + pool[n] < here)
			return false;
	}
	return true;
}

/* The droplet's normal, as particles take it: the short form of x and z
 * inside the map, the reference (which extends the map) at its edges. */
static void ref_normal(const float *h, int width, int height, int x, int y,
		       const struct hd_env *hp, float n[3])
{
	if (hp->normal2020) {
		if (hp->normal_wrap)
			normal_2020_wrap(h, width, height, x, y, hp->scale, n);
		else
			normal_2020(h, width, height, x, y, hp->scale, n);
		return;
	}
	const v2f xz = normal_at_xz(h, width, height, x, y, &hp->nk);
	n[0] = v2_x(xz);
	n[2] = v2_y(xz);
}

struct ref_books {
	double evaporated, eroded, deposited;
};

static enum descent ref_descend(const struct hd_env *hp, struct hdrop *d, struct ref_books *b,
				struct cells *changed, uint64_t *steps)
{
	float *h = hp->h;
	const float *stream = hp->stream;
	const float *pool = hp->pool;
	const float *veg = hp->veg;
	const int width = hp->width, height = hp->height;
	const float fw = (float)width, fh = (float)height, dt = hp->dt;
	double volume_start = d->volume;
	enum descent out = DESCENT_DIED;

	while (d->volume > hp->min_volume && d->age < hp->max_steps) {
		int ix = (int)d->x, iy = (int)d->y;
		size_t ind = (size_t)iy * (size_t)width + (size_t)ix;
		hp->track[ind] = 1;
		float n[3];
		ref_normal(h, width, height, ix, iy, hp, n);
		float fr = hp->friction, ev = hp->evap, dep = hp->deposition;
		if (hp->coupling >= HYDROLOGY_STREAMS) {
			fr *= 1.0f - 0.5f * stream[ind];
			ev *= 1.0f - 0.2f * stream[ind];
		}
		if (hp->coupling == HYDROLOGY_TREES)
			dep *= fmaxf(0.0f, 1.0f - veg[ind]);
		float volume = (float)d->volume;
		float inv_mass = 1.0f / (volume * hp->density);
		float ax = n[0] * inv_mass, ay = n[2] * inv_mass;
		/* The position first, from the old velocity: p + dt v + n dt dt / m. */
		float dtm = dt * inv_mass;
		d->x = (d->x + dt * d->vx) + n[0] * (dt * dtm);
		d->y = (d->y + dt * d->vy) + n[2] * (dt * dtm);
		d->vx = (d->vx + n[0] * dtm) * (1.0f - dt * fr);
		d->vy = (d->vy + n[2] * dtm) * (1.0f - dt * fr);
		d->age++;
		(*steps)++;
		if (!(d->x >= 0.0f && d->x < fw && d->y >= 0.0f && d->y < fh)) {
			out = DESCENT_LEFT;
			break;
		}
		size_t nind = (size_t)(int)d->y * (size_t)width + (size_t)(int)d->x;
		if (stream[nind] > hp->stop_stream &&
		    sqrtf(ax * ax + ay * ay) < hp->stop_accel) {
			out = DESCENT_FLOOD;
			break;
		}
		if (pool[nind] > 0) {
			out = DESCENT_FLOOD;
			break;
		}
		if (hp->pit_stop && nind != ind && ref_is_pit(h, pool, width, height, nind)) {
			out = DESCENT_FLOOD;
			break;
		}
		float here = h[ind], there = h[nind];
		float speed = sqrtf(d->vx * d->vx + d->vy * d->vy);
		float c_eq = (hp->capacity_volume ? volume : 1.0f) * speed * (here - there);
		if (c_eq < 0.0f)
			c_eq = 0.0f;
		float rate = dt * dep;
		float cdiff = c_eq - d->sediment;
		d->sediment += rate * cdiff;
		float after = here - volume * rate * cdiff;
		h[ind] = after;
		if (after != here)
			cells_add(changed, (uint32_t)ind);
		double change = (double)here - (double)after;
		if (change > 0)
			b->eroded += change;
		else
			b->deposited -= change;
		d->carried += change;
		d->volume *= 1.0 - (double)(dt * ev);
	}
	b->evaporated += volume_start - d->volume;
	return out;
}

/* ---- the comparison ------------------------------------------------------ */

static float uniform(struct rng *r, float lo, float hi)
{
	return lo + (hi - lo) * rng_float(r);
}

/* A rough map with every stop in reach: streams (a third of the cells above
 * the stop threshold), scattered pools, roots up to 1.2 (so max(0, 1 - veg)
 * clamps), and the noise's own pits. */
static struct world *make_map(int size, uint32_t seed)
{
	struct params p;
	params_defaults(&p);
	p.world.width = size;
	p.world.height = size;
	p.world.seed = (int)seed;
	p.terrain.vertical_scale = 40;
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, &p), 0);
	struct rng r;
	rng_seed(&r, seed, 99);
	for (size_t i = 0; i < world_cells(w); i++) {
		w->layer[LAYER_STREAM][i] = rng_float(&r) < 0.5f ? uniform(&r, 0, 1) : 0.0f;
		w->layer[LAYER_POOL][i] = rng_float(&r) < 0.03f ? uniform(&r, 0, 0.01f) : 0.0f;
		w->layer[LAYER_VEGETATION][i] = rng_float(&r) < 0.3f ? uniform(&r, 0, 1.2f) : 0.0f;
	}
	return w;
}

/* The normal a comparison runs with: the particles' (symmetric or the
 * seed's form), or hydrology.normal = 2020 or 2020wrap. */
enum ref_normal_kind { NORMAL_PARTICLES, NORMAL_2020, NORMAL_2020_WRAP };

/* hydrology.capacity_volume for the comparisons: on (the default) unless a
 * test turns it off for its own run. */
static bool capacity_volume = true;

static void env_for(struct hd_env *e, struct world *w, uint8_t *track, int coupling,
		    bool pit_stop, bool symmetric, enum ref_normal_kind normal, uint32_t max_steps)
{
	memset(e, 0, sizeof *e);
	e->h = w->layer[LAYER_HEIGHT];
	e->stream = w->layer[LAYER_STREAM];
	e->pool = w->layer[LAYER_POOL];
	e->veg = w->layer[LAYER_VEGETATION];
	e->track = track;
	e->width = w->width;
	e->height = w->height;
	e->dt = 1.2f;
	e->density = 1.0f;
	e->friction = 0.1f;
	e->deposition = 0.08f;
	e->evap = 0.001f;
	e->scale = 40.0f;
	e->stop_stream = 0.5f;
	e->stop_accel = 0.01f;
	e->min_volume = 0.01;
	e->max_steps = max_steps;
	e->coupling = coupling;
	e->symmetric = symmetric;
	e->pit_stop = pit_stop;
	e->normal2020 = normal != NORMAL_PARTICLES;
	e->normal_wrap = normal == NORMAL_2020_WRAP;
	e->capacity_volume = capacity_volume;
	hydrology_descend_init(e);
}

#define DROPLETS 2500

/* Runs DROPLETS droplets through both on two copies of one map; every
 * droplet's end, fields, books, steps and changed cells must match bit for
 * bit, and so must the maps after each. Returns how the droplets ended. */
static void compare(int size, uint32_t seed, int coupling, bool pit_stop, bool symmetric,
		    enum ref_normal_kind normal, uint32_t max_steps, bool avx2, int ends[3])
{
	struct world *a = make_map(size, seed), *b = NULL;
	assert_int_equal(world_clone(&b, a), 0);
	size_t n = world_cells(a);
	uint8_t *ta = calloc(n, 1), *tb = calloc(n, 1);
	assert_non_null(ta);
	assert_non_null(tb);
	struct hd_env ea, eb;
	env_for(&ea, a, ta, coupling, pit_stop, symmetric, normal, max_steps);
	env_for(&eb, b, tb, coupling, pit_stop, symmetric, normal, max_steps);
	eb.avx2 = avx2;
	struct cells ref = {0}, fast = {0};
	struct ref_books rb = {0, 0, 0};
	double eroded = 0, deposited = 0, evaporated = 0;
	uint64_t ref_steps = 0, fast_steps = 0;
	struct rng r;
	rng_seed(&r, seed, 7);
	for (int i = 0; i < DROPLETS; i++) {
		struct hdrop d = {0};
		/* Anywhere, edges included; some already moving, loaded, old. */
		d.x = uniform(&r, 0, (float)size);
		d.y = uniform(&r, 0, (float)size);
		if (!(d.x < (float)size))
			d.x = 0;
		if (!(d.y < (float)size))
			d.y = 0;
		if (i % 3 == 1) {
			d.vx = uniform(&r, -1, 1);
			d.vy = uniform(&r, -1, 1);
			d.sediment = uniform(&r, 0, 0.01f);
			d.carried = (double)uniform(&r, -0.01f, 0.01f);
			d.volume = (double)uniform(&r, 0.005f, 1);
			d.age = (uint32_t)(rng_float(&r) * (float)max_steps);
		} else {
			d.volume = 1.0;
		}
		struct hdrop e = d;
		enum descent want = ref_descend(&ea, &d, &rb, &ref, &ref_steps);
		/* A small list, so DESCENT_FULL and the resume are exercised. */
		enum descent got;
		const double v0 = e.volume;
		do {
			uint32_t chunk[5];
			size_t k = 0;
			got = hydrology_descend(&eb, &e, &eroded, &deposited, chunk, 5, &k,
						&fast_steps);
			assert_true(k <= 5);
			for (size_t j = 0; j < k; j++)
				cells_add(&fast, chunk[j]);
		} while (got == DESCENT_FULL);
		evaporated += v0 - e.volume;
		assert_int_equal(got, want);
		ends[want]++;
		assert_memory_equal(&d.x, &e.x, sizeof d.x);
		assert_memory_equal(&d.y, &e.y, sizeof d.y);
		assert_memory_equal(&d.vx, &e.vx, sizeof d.vx);
		assert_memory_equal(&d.vy, &e.vy, sizeof d.vy);
		assert_memory_equal(&d.volume, &e.volume, sizeof d.volume);
		assert_memory_equal(&d.sediment, &e.sediment, sizeof d.sediment);
		assert_memory_equal(&d.carried, &e.carried, sizeof d.carried);
		assert_int_equal(d.age, e.age);
		assert_memory_equal(&rb.eroded, &eroded, sizeof eroded);
		assert_memory_equal(&rb.deposited, &deposited, sizeof deposited);
		assert_memory_equal(&rb.evaporated, &evaporated, sizeof evaporated);
		assert_int_equal(ref_steps, fast_steps);
		assert_int_equal(ref.n, fast.n);
	}
	assert_memory_equal(ref.c, fast.c, ref.n * sizeof *ref.c);
	assert_memory_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT], n * sizeof(float));
	assert_memory_equal(ta, tb, n);
	/* The droplets did erode and deposit: the comparison had something to see. */
	assert_true(rb.eroded > 0 && rb.deposited > 0 && ref.n > 0);
	free(ref.c);
	free(fast.c);
	free(ta);
	free(tb);
	world_destroy(a);
	world_destroy(b);
}

/* Each mode on each copy of the descent this CPU can run: the baseline one,
 * and the AVX2 one where hydrology_descend_init picks it (env.avx2). */
static void check_modes(bool pit_stop, bool symmetric, enum ref_normal_kind normal)
{
	struct hd_env probe;
	memset(&probe, 0, sizeof probe);
	probe.width = probe.height = 16;
	probe.scale = 40.0f;
	hydrology_descend_init(&probe);
	for (int isa = 0; isa <= (int)probe.avx2; isa++)
		for (int coupling = 0; coupling < HYDROLOGY_COUPLING_COUNT; coupling++) {
			int ends[3] = {0, 0, 0};
			compare(48, 11u + (uint32_t)coupling, coupling, pit_stop, symmetric, normal,
				20000, isa, ends);
			/* Droplets left the map, stopped to flood, and dried up. */
			compare(16, 5u + (uint32_t)coupling, coupling, pit_stop, symmetric, normal,
				60, isa, ends);
			if (!(ends[DESCENT_LEFT] > 0 && ends[DESCENT_FLOOD] > 0 &&
			      ends[DESCENT_DIED] > 0))
				fail_msg("coupling %d, avx2 %d: ends died %d left %d flood %d",
					 coupling, isa, ends[DESCENT_DIED], ends[DESCENT_LEFT],
					 ends[DESCENT_FLOOD]);
		}
}

static void test_matches_reference_pit_stop(void **state)
{
	(void)state;
	check_modes(true, true, NORMAL_PARTICLES);
}

static void test_matches_reference_no_pit_stop(void **state)
{
	(void)state;
	check_modes(false, true, NORMAL_PARTICLES);
}

static void test_matches_reference_seed_normal(void **state)
{
	(void)state;
	check_modes(true, false, NORMAL_PARTICLES);
}

/* hydrology.normal = 2020 and 2020wrap: the descent's inline interior
 * normal against normal_2020 and normal_2020_wrap everywhere. */
static void test_matches_reference_normal_2020(void **state)
{
	(void)state;
	check_modes(false, true, NORMAL_2020);
	check_modes(true, true, NORMAL_2020_WRAP);
}

/* hydrology.capacity_volume off (the 2020 code's c_eq = |v| dh) against the
 * reference, with the 2020 normal as the preset runs it. */
static void test_matches_reference_capacity_speed(void **state)
{
	(void)state;
	capacity_volume = false;
	check_modes(false, true, NORMAL_2020_WRAP);
	check_modes(true, true, NORMAL_PARTICLES);
	capacity_volume = true;
}

/* A step down a plane sloping in x, no streams, pools or roots: a droplet
 * of volume 1 takes the same load either way; one of volume 0.5 takes
 * exactly twice the load with the volume out of c_eq (halving is exact in
 * floating point), and about twice the soil. */
static double one_step(float volume, bool by_volume, float *sediment)
{
	struct params p;
	params_defaults(&p);
	p.world.width = p.world.height = 16;
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, &p), 0);
	for (int y = 0; y < 16; y++)
		for (int x = 0; x < 16; x++) {
			const size_t i = (size_t)y * 16 + (size_t)x;
			w->layer[LAYER_HEIGHT][i] = 0.5f - 0.01f * (float)x;
			w->layer[LAYER_STREAM][i] = w->layer[LAYER_POOL][i] = 0.0f;
			w->layer[LAYER_VEGETATION][i] = 0.0f;
		}
	uint8_t track[256] = {0};
	capacity_volume = by_volume;
	struct hd_env e;
	env_for(&e, w, track, HYDROLOGY_NONE, false, true, NORMAL_2020, 1);
	capacity_volume = true;
	/* The step's velocity is taken before the load, so one step erodes. */
	struct hdrop d = {.x = 6.5f, .y = 8.5f, .volume = (double)volume};
	double eroded = 0, deposited = 0;
	uint32_t changed[8];
	size_t n = 0;
	uint64_t steps = 0;
	assert_int_equal(hydrology_descend(&e, &d, &eroded, &deposited, changed, 8, &n, &steps),
			 DESCENT_DIED);
	assert_int_equal(steps, 1);
	assert_true(d.x > 6.5f && d.x < 16.0f); /* it went down the slope */
	*sediment = d.sediment;
	world_destroy(w);
	return eroded - deposited;
}

static void test_capacity_without_volume(void **state)
{
	(void)state;
	float s_on, s_off;
	double soil_on = one_step(1.0f, true, &s_on), soil_off = one_step(1.0f, false, &s_off);
	assert_true(s_on > 0.0f);
	assert_memory_equal(&s_on, &s_off, sizeof s_on);
	assert_memory_equal(&soil_on, &soil_off, sizeof soil_on);
	soil_on = one_step(0.5f, true, &s_on);
	soil_off = one_step(0.5f, false, &s_off);
	assert_true(s_on > 0.0f && soil_on > 0.0);
	assert_true(s_off == 2.0f * s_on);
	assert_true(fabs(soil_off / soil_on - 2.0) < 1e-3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_reference_pit_stop),
		cmocka_unit_test(test_matches_reference_no_pit_stop),
		cmocka_unit_test(test_matches_reference_seed_normal),
		cmocka_unit_test(test_matches_reference_normal_2020),
		cmocka_unit_test(test_matches_reference_capacity_speed),
		cmocka_unit_test(test_capacity_without_volume),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
