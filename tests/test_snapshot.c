/* Snapshots: bit-exact round trip, exact resume, a file built here byte by
 * byte from gully-snapshot(5) that loads (so the test also checks the spec),
 * and a failed save that keeps the old file. Damaged files are
 * test_snapshot_damage's. */
#include "snapshot_fixture.h"
#include "io/snapshot_format.h"

/* The one rule run, sweep and info use to tell a snapshot by its name. */
static void test_snapshot_names(void **state)
{
	(void)state;
	assert_true(snapshot_is_name("a.gsnap"));
	assert_true(snapshot_is_name("dir/b.GSNAP"));
	assert_false(snapshot_is_name("a.gsnap.f32"));
	assert_false(snapshot_is_name("dir.gsnap/map"));
	assert_false(snapshot_is_name("gsnap"));
	assert_false(snapshot_is_name("river-valley"));
}

static void test_round_trip_bit_exact(void **state)
{
	(void)state;
	struct snapshot_info in;
	memset(&in, 0, sizeof in);
	struct world *w = sample_world(&in.params, 32);
	snprintf(in.process, sizeof in.process, "particles");
	assert_int_equal(params_set_text(&in.params, params_find("particles.dt"), "0.55"), 0);
	assert_int_equal(params_set_text(&in.params, params_find("terrain.generator"), "valley"), 0);
	assert_int_equal(params_set_text(&in.params, params_find("particles.deposit_on_death"), "no"), 0);
	in.params.terrain.frequency = 0.1 + 0.2; /* needs all 17 digits */
	in.preset_yaml = "# made by hand\nparticles:\n  dt: 0.55\n";
	unsigned char blob[300];
	for (size_t i = 0; i < sizeof blob; i++)
		blob[i] = (unsigned char)(i * 13); /* includes NUL bytes */
	in.state = blob;
	in.state_len = sizeof blob;

	const char *path = tmp("round.gsnap");
	char err[256] = "";
	assert_int_equal(snapshot_save(path, w, &in, err, sizeof err), GULLY_OK);
	struct world *r;
	struct snapshot_info out;
	assert_int_equal(snapshot_load(path, &r, &out, err, sizeof err), GULLY_OK);
	assert_worlds_equal(w, r);
	assert_string_equal(out.process, "particles");
	assert_memory_equal(&out.params, &in.params, sizeof in.params);
	assert_string_equal(out.preset_yaml, in.preset_yaml);
	assert_int_equal(out.state_len, sizeof blob);
	assert_memory_equal(out.state, blob, sizeof blob);

	/* Saving what was loaded gives the same bytes. */
	size_t n1, n2;
	unsigned char *f1 = testutil_read_file(path, &n1);
	assert_int_equal(snapshot_save(tmp("again.gsnap"), r, &out, err, sizeof err), GULLY_OK);
	unsigned char *f2 = testutil_read_file(tmp("again.gsnap"), &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(f1, f2, n1);
	free(f1);
	free(f2);
	snapshot_info_free(&out);
	world_destroy(r);
	world_destroy(w);
}

static void test_round_trip_empty_texts(void **state)
{
	(void)state;
	struct snapshot_info in;
	memset(&in, 0, sizeof in);
	const char *path = tmp("empty.gsnap");
	struct world *w;
	save_sample(path, &w, &in);
	struct world *r;
	struct snapshot_info out;
	char err[256];
	assert_int_equal(snapshot_load(path, &r, &out, err, sizeof err), GULLY_OK);
	assert_null(out.preset_yaml);
	assert_null(out.state);
	assert_int_equal(out.state_len, 0);
	assert_worlds_equal(w, r);
	world_destroy(r);
	world_destroy(w);
}

/* Runs n units of a process; with `save`, hands back its state blob, and
 * with `load`, starts from one (as gully run does with snapshots). */
static void run_process_state(struct world *w, const struct params *p, const char *name,
			      uint64_t n, const struct snapshot_info *load,
			      struct snapshot_info *save)
{
	const struct process_ops *ops = process_find(name);
	assert_non_null(ops);
	void *st;
	assert_int_equal(ops->create(&st, w, p), 0);
	if (load && load->state)
		assert_int_equal(ops->load_state(st, load->state, load->state_len), 0);
	assert_int_equal(ops->step(st, w, p, n, NULL), 0);
	if (save && ops->save_state)
		assert_int_equal(ops->save_state(st, &save->state, &save->state_len), 0);
	ops->destroy(st);
}

static void run_process(struct world *w, const struct params *p, const char *name, uint64_t n)
{
	run_process_state(w, p, name, n, NULL, NULL);
}

/* A snapshot carries the process's state (the particles' droplets in
 * flight) so that resuming equals running on, in the seed's order
 * (particles.lanes = 1) and in lockstep (16 lanes). */
static void test_resume_equals_uninterrupted_run(void **state)
{
	(void)state;
	for (int lanes = 1; lanes <= 16; lanes += 15) {
		struct params p;
		params_defaults(&p);
		p.world.width = 64;
		p.world.height = 48;
		p.particles.friction = 0.07;
		p.particles.lanes = lanes;
		struct world *straight, *first;
		assert_int_equal(world_from_params(&straight, &p), 0);
		assert_int_equal(world_from_params(&first, &p), 0);
		run_process(straight, &p, "particles", 1700);

		struct snapshot_info info;
		memset(&info, 0, sizeof info);
		info.params = p;
		snprintf(info.process, sizeof info.process, "particles");
		run_process_state(first, &p, "particles", 900, NULL, &info);
		if (lanes > 1)
			assert_true(info.state_len > 24); /* droplets in flight */
		char err[256];
		const char *path = tmp("resume.gsnap");
		assert_int_equal(snapshot_save(path, first, &info, err, sizeof err), GULLY_OK);
		free(info.state);
		world_destroy(first);

		struct world *resumed;
		struct snapshot_info got;
		assert_int_equal(snapshot_load(path, &resumed, &got, err, sizeof err), GULLY_OK);
		assert_int_equal(got.params.particles.lanes, lanes);
		run_process_state(resumed, &got.params, got.process, 800, &got, NULL);
		assert_memory_equal(straight->layer[LAYER_HEIGHT], resumed->layer[LAYER_HEIGHT],
				    world_cells(straight) * sizeof(float));
		assert_worlds_equal(straight, resumed);
		/* The run did change the terrain, so the equality means something. */
		assert_memory_not_equal(resumed->layer[LAYER_HEIGHT], resumed->layer[LAYER_BASE],
					world_cells(resumed) * sizeof(float));
		snapshot_info_free(&got);
		world_destroy(resumed);
		world_destroy(straight);
	}
}

static void test_hand_built_file_loads(void **state)
{
	(void)state;
	/* Missing keys keep their defaults; missing layers stay zero. */
	struct spec s = good_spec();
	s.params = "world.width=16\nworld.height=16\nparticles.dt=0.5\n";
	struct buf b;
	build(&b, &s);
	const char *path = tmp("hand.gsnap");
	write_file(path, b.p, b.n);
	free(b.p);
	struct world *w;
	struct snapshot_info info;
	char err[256] = "";
	assert_int_equal(snapshot_load(path, &w, &info, err, sizeof err), GULLY_OK);
	struct params def;
	params_defaults(&def);
	assert_double_equal(info.params.particles.dt, 0.5, 0);
	assert_double_equal(info.params.particles.friction, def.particles.friction, 0);
	assert_int_equal(w->particles, 1234);
	assert_int_equal(w->steps, 56789);
	assert_double_equal(w->tally[TALLY_ERODED], 1.5, 0);
	assert_double_equal(w->tally[TALLY_DEPOSITED], 0, 0);
	assert_int_equal(w->rng.state, 0x0123456789abcdefull);
	/* Cell i of layer l is ((7 i + l) mod 129) / 128, read exactly. */
	for (size_t i = 0; i < world_cells(w); i++) {
		assert_true(w->layer[LAYER_HEIGHT][i] == (float)((i * 7) % 129) / 128.0f);
		assert_true(w->layer[LAYER_BASE][i] == (float)((i * 7 + 1) % 129) / 128.0f);
	}
	for (size_t i = 0; i < world_cells(w); i++)
		assert_true(w->layer[LAYER_STREAM][i] == 0.0f);
	snapshot_info_free(&info);
	world_destroy(w);
}

/* Layers that are mostly one value, or the base's, go out as runs, and
 * come back bit for bit. The sizes are the runs the spec describes, cell by
 * cell: a value's runs, then the cells that differ. */
static void test_runs_round_trip_bit_exact(void **state)
{
	(void)state;
	struct snapshot_info in;
	memset(&in, 0, sizeof in);
	struct world *w = sparse_world(&in.params, 64);
	snprintf(in.process, sizeof in.process, "particles");
	char path[512], old[512]; /* tmp() gives one buffer */
	snprintf(path, sizeof path, "%s", tmp("runs.gsnap"));
	snprintf(old, sizeof old, "%s", tmp("runs-v1.gsnap"));
	char err[256] = "";
	assert_int_equal(snapshot_save(path, w, &in, err, sizeof err), GULLY_OK);
	FILE *fp = fopen(old, "wb");
	assert_non_null(fp);
	assert_int_equal(snapshot_write_version(fp, old, w, &in, 1, err, sizeof err), GULLY_OK);
	assert_int_equal(fclose(fp), 0);

	const size_t n = world_cells(w);
	struct snapshot_report rep;
	for (int v = 2; v >= 1; v--) {
		fp = fopen(v == 2 ? path : old, "rb");
		assert_non_null(fp);
		struct world *r;
		struct snapshot_info out;
		assert_int_equal(snapshot_read(fp, "f", 0, &r, &out, &rep, err, sizeof err), GULLY_OK);
		fclose(fp);
		assert_worlds_equal(w, r);
		assert_true(signbit(r->layer[LAYER_POOL][5]));
		assert_int_equal(rep.version, (uint32_t)v);
		world_destroy(r);
		snapshot_info_free(&out);
		if (v == 1)
			break;
		assert_int_equal(rep.encoding[LAYER_BASE], SNAPSHOT_ENC_RAW);
		assert_int_equal(rep.stored_bytes[LAYER_BASE], n * 4);
		/* The droplets changed a few hundred cells of 4096. */
		assert_int_equal(rep.encoding[LAYER_HEIGHT], SNAPSHOT_ENC_RUNS);
		assert_true(rep.stored_bytes[LAYER_HEIGHT] < n * 4 / 2);
		assert_int_equal(rep.stored_bytes[LAYER_HARDNESS], 8 + 8 + 4);   /* 0.625 x n-1, 0.25 */
		assert_int_equal(rep.stored_bytes[LAYER_WETNESS], 8 + 8 + 4);    /* 0 x n-1, 1 */
		assert_int_equal(rep.stored_bytes[LAYER_VEGETATION], 8 + 8);     /* 0 x n */
		assert_int_equal(rep.stored_bytes[LAYER_STREAM], 8 + 2 * 8 + 4); /* 0, 0.5, 0 */
		/* 0 x5, -0 and a subnormal, 0 x n/2-7, the deepest pool, 0 to the end */
		assert_int_equal(rep.stored_bytes[LAYER_POOL], 8 + 3 * 8 + 3 * 4);
	}
	size_t n2, n1;
	free(testutil_read_file(path, &n2));
	free(testutil_read_file(old, &n1));
	assert_true(n2 < n1 / 3);
	world_destroy(w);
}

/* A version 2 file built here from gully-snapshot(5): the base stored
 * against the height (layer 1 of the file) and the pool against 0.5. */
static void test_hand_built_runs_load(void **state)
{
	(void)state;
	float height[256], base[256], pool[256];
	for (size_t i = 0; i < 256; i++) {
		height[i] = (float)((i * 7) % 129) / 128.0f; /* the fixture's */
		base[i] = height[i];
		pool[i] = 0.5f;
	}
	base[10] = 0.75f;
	base[11] = -0.0f;
	pool[255] = 3.0f;
	struct buf rec = {0}, d = {0};
	b_u32(&d, RUNS_REF_LAYER);
	b_u32(&d, 0);
	b_u32(&d, 10);
	b_u32(&d, 2);
	b_f32(&d, 0.75f);
	b_f32(&d, -0.0f);
	b_u32(&d, 244);
	b_u32(&d, 0);
	b_layer(&rec, "base", base, 256, SNAPSHOT_ENC_RUNS, &d);
	free(d.p);
	memset(&d, 0, sizeof d);
	b_u32(&d, RUNS_REF_VALUE);
	b_u32(&d, 0x3f000000u); /* 0.5 */
	b_u32(&d, 255);
	b_u32(&d, 1);
	b_f32(&d, 3.0f);
	b_layer(&rec, "pool", pool, 256, SNAPSHOT_ENC_RUNS, &d);
	free(d.p);
	struct spec s = good_spec();
	s.version = 2;
	s.nlayers = 1;
	s.extra = &rec;
	s.extra_layers = 2;
	struct buf b;
	build(&b, &s);
	free(rec.p);
	const char *path = tmp("hand-runs.gsnap");
	write_file(path, b.p, b.n);
	free(b.p);
	struct world *w;
	struct snapshot_info info;
	char err[256] = "";
	assert_int_equal(snapshot_load(path, &w, &info, err, sizeof err), GULLY_OK);
	assert_memory_equal(w->layer[LAYER_HEIGHT], height, sizeof height);
	assert_memory_equal(w->layer[LAYER_BASE], base, sizeof base);
	assert_true(signbit(w->layer[LAYER_BASE][11]));
	assert_memory_equal(w->layer[LAYER_POOL], pool, sizeof pool);
	snapshot_info_free(&info);
	world_destroy(w);
}

static void test_failed_save_keeps_old_file(void **state)
{
	(void)state;
	struct snapshot_info info;
	memset(&info, 0, sizeof info);
	const char *path = tmp("keep.gsnap");
	struct world *w;
	save_sample(path, &w, &info);
	size_t n1;
	unsigned char *before = testutil_read_file(path, &n1);
	info.process[0] = '\0'; /* refused */
	char err[256] = "";
	assert_int_equal(snapshot_save(path, w, &info, err, sizeof err), GULLY_EINVAL);
	assert_one_line(err, path);
	size_t n2;
	unsigned char *after = testutil_read_file(path, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(before, after, n1);
	/* And no temporary file was left beside it. */
	char cmd[256];
	snprintf(cmd, sizeof cmd, "ls '%s' | grep -q tmp", testutil_tmpdir());
	assert_int_not_equal(system(cmd), 0);
	assert_int_equal(snapshot_save("/nonexistent-dir/x.gsnap", w, &info, err, sizeof err),
			 GULLY_EIO);
	free(after);

	/* A world out of the range the loader takes (a run gone unstable):
	 * not saved, the layer and cell named, the old file as it was. */
	snprintf(info.process, sizeof info.process, "particles");
	const float bad[] = {2e6f, -1e30f, NAN, INFINITY};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		float keep = w->layer[LAYER_HEIGHT][21];
		w->layer[LAYER_HEIGHT][21] = bad[k];
		assert_int_equal(snapshot_save(path, w, &info, err, sizeof err), GULLY_ERANGE);
		assert_one_line(err, path);
		assert_non_null(strstr(err, "not saved: layer 'height' cell 21 (x 5, y 1) is "));
		w->layer[LAYER_HEIGHT][21] = keep;
	}
	after = testutil_read_file(path, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(before, after, n1);
	free(before);
	free(after);
	world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot_names),
		cmocka_unit_test(test_round_trip_bit_exact),
		cmocka_unit_test(test_round_trip_empty_texts),
		cmocka_unit_test(test_resume_equals_uninterrupted_run),
		cmocka_unit_test(test_hand_built_file_loads),
		cmocka_unit_test(test_runs_round_trip_bit_exact),
		cmocka_unit_test(test_hand_built_runs_load),
		cmocka_unit_test(test_failed_save_keeps_old_file),
	};
	return cmocka_run_group_tests_name("snapshot", tests, setup, teardown);
}
