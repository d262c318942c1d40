/* The parameter registry: consistent, strict, and round-trips as text. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/params.h"
#include "core/base/process.h"
#include "core/terrain/terrain.h"

static void test_defaults_are_valid_and_in_range(void **state)
{
	(void)state;
	struct params p;
	params_defaults(&p);
	int bad;
	assert_int_equal(params_validate(&p, &bad), GULLY_OK);
	for (int i = 0; i < params_count(); i++) {
		const struct param_def *d = params_def(i);
		assert_non_null(d->help);
		assert_true(strlen(d->help) > 5);
		assert_double_equal(params_get(&p, i), d->def, 0);
		if (d->type == PARAM_DOUBLE || d->type == PARAM_INT) {
			assert_true(d->min <= d->def && d->def <= d->max);
			assert_true(d->step > 0);
		}
	}
}

static void test_keys_unique_and_sections_cover_registry(void **state)
{
	(void)state;
	for (int i = 0; i < params_count(); i++)
		for (int j = i + 1; j < params_count(); j++)
			assert_string_not_equal(params_def(i)->key, params_def(j)->key);
	int covered = 0;
	for (int s = 0; s < params_section_count(); s++) {
		struct param_section sec;
		assert_true(params_section(s, &sec));
		assert_int_equal(sec.first, covered);
		for (int i = sec.first; i < sec.first + sec.count; i++)
			assert_string_equal(params_def(i)->section, sec.name);
		covered += sec.count;
	}
	assert_int_equal(covered, params_count());
}

static void test_set_text_is_strict(void **state)
{
	(void)state;
	struct params p;
	params_defaults(&p);
	int dt = params_find("particles.dt");
	int oct = params_find("terrain.octaves");
	int gen = params_find("terrain.generator");
	int dod = params_find("particles.deposit_on_death");
	assert_true(dt >= 0 && oct >= 0 && gen >= 0 && dod >= 0);
	assert_int_equal(params_find("particles.nope"), -1);

	assert_int_equal(params_set_text(&p, dt, "0.5"), GULLY_OK);
	assert_double_equal(p.particles.dt, 0.5, 0);
	const char *bad_numbers[] = {"0.25x", "", "nan", "inf", "-inf", "0x10", " 1", "1 ", "1e999", "e5", ".", "--1"};
	for (size_t i = 0; i < sizeof bad_numbers / sizeof *bad_numbers; i++)
		assert_int_equal(params_set_text(&p, dt, bad_numbers[i]), GULLY_EINVAL);
	assert_double_equal(p.particles.dt, 0.5, 0);
	assert_int_equal(params_set_text(&p, dt, "100"), GULLY_ERANGE);
	assert_int_equal(params_set_text(&p, dt, "-1"), GULLY_ERANGE);

	assert_int_equal(params_set_text(&p, oct, "010"), GULLY_EINVAL);
	assert_int_equal(params_set_text(&p, oct, "2.5"), GULLY_EINVAL);
	assert_int_equal(params_set_text(&p, oct, "3"), GULLY_OK);
	assert_int_equal(p.terrain.octaves, 3);
	assert_int_equal(params_set_text(&p, oct, "0"), GULLY_ERANGE);

	assert_int_equal(params_set_text(&p, gen, "cone"), GULLY_OK);
	assert_int_equal(p.terrain.generator, TERRAIN_CONE);
	assert_int_equal(params_set_text(&p, gen, "volcano"), GULLY_EINVAL);
	assert_int_equal(params_set_text(&p, dod, "off"), GULLY_OK);
	assert_false(p.particles.deposit_on_death);
	assert_int_equal(params_set_text(&p, dod, "maybe"), GULLY_EINVAL);
}

static void test_assign(void **state)
{
	(void)state;
	struct params p;
	params_defaults(&p);
	int bad;
	assert_int_equal(params_assign(&p, "particles.friction=0.2", &bad), GULLY_OK);
	assert_double_equal(p.particles.friction, 0.2, 0);
	assert_int_equal(params_assign(&p, "particles.frictio=0.2", &bad), GULLY_EKEY);
	assert_int_equal(params_assign(&p, "particles.friction", &bad), GULLY_EINVAL);
	assert_int_equal(params_assign(&p, "particles.friction=9", &bad), GULLY_ERANGE);
	assert_int_equal(bad, params_find("particles.friction"));
}

static void test_format_round_trips(void **state)
{
	(void)state;
	struct params p, q;
	params_defaults(&p);
	p.particles.dt = 0.1 + 0.2; /* not a short decimal */
	p.terrain.persistence = 1.0 / 3.0;
	p.terrain.generator = TERRAIN_VALLEY;
	p.particles.symmetric_normal = false;
	params_defaults(&q);
	for (int i = 0; i < params_count(); i++) {
		char buf[64];
		params_format(&p, i, buf, sizeof buf);
		assert_int_equal(params_set_text(&q, i, buf), GULLY_OK);
	}
	assert_memory_equal(&p.particles, &q.particles, sizeof p.particles);
	assert_memory_equal(&p.terrain, &q.terrain, sizeof p.terrain);
}

static void test_enum_order_matches_c_enum(void **state)
{
	(void)state;
	const struct param_def *d = params_def(params_find("terrain.generator"));
	assert_int_equal(params_choice_count(d), TERRAIN_GENERATOR_COUNT);
	assert_int_equal(params_choice_find(d, "fbm"), TERRAIN_FBM);
	assert_int_equal(params_choice_find(d, "ridged"), TERRAIN_RIDGED);
	assert_int_equal(params_choice_find(d, "cone"), TERRAIN_CONE);
	assert_int_equal(params_choice_find(d, "valley"), TERRAIN_VALLEY);
	assert_int_equal(params_choice_find(d, "plane"), TERRAIN_PLANE);
	assert_int_equal(params_choice_find(d, "flat"), TERRAIN_FLAT);
	assert_int_equal(params_choice_find(d, "basins"), TERRAIN_BASINS);
}

static void test_world_size_range_matches_world(void **state)
{
	(void)state;
	const char *keys[] = {"world.width", "world.height"};
	for (int k = 0; k < 2; k++) {
		const struct param_def *d = params_def(params_find(keys[k]));
		assert_double_equal(d->min, world_size_min(), 0);
		assert_double_equal(d->max, world_size_max(), 0);
	}
	int lo = world_size_min(), hi = world_size_max();
	assert_true(lo >= 2 && lo < hi);
	assert_int_equal(world_check_size(hi, hi), GULLY_OK);
	assert_int_equal(world_check_size(lo, lo), GULLY_OK);
	assert_int_equal(world_check_size(hi + 1, lo), GULLY_ESIZE);
	assert_int_equal(world_check_size(lo, hi + 1), GULLY_ESIZE);
	assert_int_equal(world_check_size(lo, lo - 1), GULLY_ESIZE);
	assert_int_equal(world_check_size(lo - 1, lo), GULLY_ESIZE);
}

/* Pool volume has one definition: world_stats' figure is the band-by-band
 * sum the explorer takes (bit for bit), and a negative depth is no water. */
static void test_pool_volume_one_definition(void **state)
{
	(void)state;
	struct world *w;
	assert_int_equal(world_create(&w, 37, 21), GULLY_OK);
	float *pool = w->layer[LAYER_POOL];
	for (size_t i = 0; i < world_cells(w); i++)
		pool[i] = (float)((i * 7919) % 1000) * 1e-3f - 0.1f; /* some < 0 */
	double whole = 0;
	for (size_t i = 0; i < world_cells(w); i++)
		whole += pool[i] > 0 ? pool[i] : 0;
	struct world_stats st;
	world_stats(w, &st);
	double bands = 0;
	for (int y = 0; y < w->height; y++)
		bands = world_pool_volume(w, (size_t)y * 37, 37, bands);
	assert_memory_equal(&st.pool_volume, &bands, sizeof bands);
	assert_memory_equal(&st.pool_volume, &whole, sizeof whole);
	world_destroy(w);
}

/* A process's on-map source names parameters of the registry in the
 * process's own section (the explorer finds it by them, not by name). */
static void test_process_sources_name_registry_keys(void **state)
{
	(void)state;
	int with = 0;
	for (int i = 0; i < process_count(); i++) {
		const struct process_ops *p = process_get(i);
		assert_true(p->nsources >= 0 && (p->nsources == 0 || p->sources));
		for (int j = 0; j < p->nsources; j++) {
			const struct process_source *ps = &p->sources[j];
			with++;
			assert_non_null(ps->name);
			const char *keys[5] = {ps->x, ps->y, ps->direction, ps->window, ps->on};
			for (int k = 0; k < 5; k++) {
				if (k == 4 && !keys[k])
					continue; /* always on */
				assert_true(params_find(keys[k]) >= 0);
				assert_int_equal(strncmp(keys[k], p->section, strlen(p->section)), 0);
				assert_int_equal(keys[k][strlen(p->section)], '.');
			}
			/* No two sources share a position key. */
			for (int m = 0; m < j; m++)
				assert_string_not_equal(p->sources[m].x, ps->x);
		}
	}
	assert_true(with >= 5); /* the emitter's and the 4 jets */
	assert_int_equal(process_find("emitter")->nsources, 1);
	assert_int_equal(process_find("sph")->nsources, 4);
	assert_int_equal(process_find("particles")->nsources, 0);
}

static void test_nudge_clamps(void **state)
{
	(void)state;
	struct params p;
	params_defaults(&p);
	int i = params_find("particles.friction");
	params_nudge(&p, i, -1000);
	assert_double_equal(p.particles.friction, 0.0, 0);
	params_nudge(&p, i, 3);
	assert_double_equal(p.particles.friction, 0.03, 1e-12);
	params_nudge(&p, i, 1e9);
	assert_double_equal(p.particles.friction, 0.5, 0);
}

/* < and > move ten steps: the value lands on the decimal a person would
 * type (the double nearest it, printing clean with %.17g's shortest), for
 * panels and saved presets (was 0.7000000000000001 from dt 1.2). */
static void test_nudge_lands_on_clean_decimals(void **state)
{
	(void)state;
	static const struct {
		const char *key;
		double from, steps, want;
	} cases[] = {
		{"particles.dt", 1.2, -10, 0.7},   {"particles.dt", 0.7, 10, 1.2},
		{"particles.dt", 1.2, 1, 1.25},    {"particles.dt", 0.1, 2, 0.2},
		{"particles.friction", 0.05, 10, 0.15}, {"particles.friction", 0.1, 2, 0.12},
		{"particles.friction", 0.3, -10, 0.2},  {"sph.max_dt", 0.005, 10, 0.01},
		{"sph.cfl", 0.4, -1, 0.35},        {"emitter.x", 0.125, 1, 0.135},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct params p;
		params_defaults(&p);
		int i = params_find(cases[c].key);
		assert_true(i >= 0);
		assert_int_equal(params_set(&p, i, cases[c].from), GULLY_OK);
		params_nudge(&p, i, cases[c].steps);
		char got[64], want[64];
		snprintf(got, sizeof got, "%.17g", params_get(&p, i));
		snprintf(want, sizeof want, "%.17g", cases[c].want);
		assert_string_equal(got, want);
		/* And the shortest form is the short decimal itself. */
		char text[64];
		params_format(&p, i, text, sizeof text);
		snprintf(want, sizeof want, "%g", cases[c].want);
		assert_string_equal(text, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_are_valid_and_in_range),
		cmocka_unit_test(test_keys_unique_and_sections_cover_registry),
		cmocka_unit_test(test_set_text_is_strict),
		cmocka_unit_test(test_assign),
		cmocka_unit_test(test_format_round_trips),
		cmocka_unit_test(test_enum_order_matches_c_enum),
		cmocka_unit_test(test_nudge_clamps),
		cmocka_unit_test(test_nudge_lands_on_clean_decimals),
		cmocka_unit_test(test_world_size_range_matches_world),
		cmocka_unit_test(test_pool_volume_one_definition),
		cmocka_unit_test(test_process_sources_name_registry_keys),
	};
	return cmocka_run_group_tests_name("params", tests, NULL, NULL);
}
