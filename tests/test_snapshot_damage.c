/* Snapshots: refusal of every kind of damaged file (truncated, flipped,
 * bad CRCs, a damaged header, absurd fields, bad contents, garbage, values
 * out of range) with the right code and a one-line message. Files are built
 * here byte by byte from gully-snapshot(5) (snapshot_fixture.h). */
#include "snapshot_fixture.h"
#include "io/snapshot_format.h"

typedef void (*saver)(const char *, struct world **, struct snapshot_info *);

static void every_truncation_is_reported(saver save)
{
	struct snapshot_info info;
	memset(&info, 0, sizeof info);
	const char *path = tmp("trunc.gsnap");
	save(path, NULL, &info);
	size_t n;
	unsigned char *full = testutil_read_file(path, &n);
	free(full);
	/* Shrink the file one byte at a time: every prefix must say "truncated". */
	for (size_t len = n; len-- > 0;) {
		assert_int_equal(truncate(path, (off_t)len), 0);
		struct world *w;
		struct snapshot_info got;
		char err[512] = "";
		int e = snapshot_load(path, &w, &got, err, sizeof err);
		if (e != GULLY_EFORMAT || !strstr(err, "truncated"))
			fail_msg("prefix of %zu bytes: %s: %s", len, gully_strerror(e), err);
		assert_null(w);
		assert_one_line(err, path);
	}
}

static void test_every_truncation_is_reported(void **state)
{
	(void)state;
	every_truncation_is_reported(save_sample);
	every_truncation_is_reported(save_sparse);
}

/* Flips every byte of a saved file in turn; returns how many flips the
 * layers' own CRCs caught. */
static int every_byte_flip_is_caught(saver save)
{
	struct snapshot_info info;
	memset(&info, 0, sizeof info);
	const char *path = tmp("flip.gsnap");
	save(path, NULL, &info);
	size_t n;
	unsigned char *bytes = testutil_read_file(path, &n);
	int crc_layer_hits = 0;
	for (size_t i = 0; i < n; i++) {
		bytes[i] ^= 0x5a;
		FILE *fp = fmemopen(bytes, n, "rb");
		assert_non_null(fp);
		struct world *w;
		struct snapshot_info got;
		char err[512] = "";
		int e = snapshot_read(fp, "mem", 0, &w, &got, NULL, err, sizeof err);
		fclose(fp);
		if (e == GULLY_OK)
			fail_msg("a flipped byte at offset %zu went unnoticed", i);
		assert_null(w);
		assert_one_line(err, "mem");
		crc_layer_hits += e == GULLY_ECORRUPT && strstr(err, "in layer '") != NULL;
		bytes[i] ^= 0x5a;
	}
	free(bytes);
	return crc_layer_hits;
}

static void test_every_byte_flip_is_caught(void **state)
{
	(void)state;
	/* Most layer bytes are caught by the layers' own CRCs (measured against
	 * the layer data, not the file: the parameter table grows with every
	 * process). */
	assert_true(every_byte_flip_is_caught(save_sample) > (int)(LAYER_COUNT * 16 * 16 * 4 * 3 / 4));
	/* Runs: a changed count or reference is caught by the decoder or by
	 * the CRC of the cells it gives. */
	every_byte_flip_is_caught(save_sparse);
}

static void test_bad_layer_crc_names_the_layer(void **state)
{
	(void)state;
	struct snapshot_info info;
	memset(&info, 0, sizeof info);
	const char *path = tmp("crc.gsnap");
	save_sample(path, NULL, &info);
	size_t n;
	unsigned char *bytes = testutil_read_file(path, &n);
	/* 'vegetation' is written last, and the sample's is every cell
	 * different, so raw: its data ends the file. */
	bytes[n - 10] ^= 1;
	char err[512];
	assert_int_equal(load_bytes(bytes, n, err, sizeof err), GULLY_ECORRUPT);
	assert_non_null(strstr(err, "bad CRC in layer 'vegetation'"));

	/* gully info's mode: load anyway and report. */
	FILE *fp = fmemopen(bytes, n, "rb");
	struct world *w;
	struct snapshot_info got;
	struct snapshot_report rep;
	assert_int_equal(snapshot_read(fp, "mem", SNAPSHOT_KEEP_BAD_CRC, &w, &got, &rep, err,
				       sizeof err), GULLY_OK);
	fclose(fp);
	assert_int_equal(rep.bad_crcs, 1);
	assert_false(rep.crc_ok[LAYER_VEGETATION]);
	assert_true(rep.crc_ok[LAYER_HEIGHT]);
	assert_true(rep.present[LAYER_WETNESS]);
	assert_int_equal(rep.version, SNAPSHOT_VERSION);
	assert_int_equal(rep.encoding[LAYER_VEGETATION], SNAPSHOT_ENC_RAW);
	assert_int_equal(rep.file_size, n);
	world_destroy(w);
	snapshot_info_free(&got);
	free(bytes);
}

static void test_header_damage(void **state)
{
	(void)state;
	struct snapshot_info info;
	memset(&info, 0, sizeof info);
	const char *path = tmp("hdr.gsnap");
	save_sample(path, NULL, &info);
	size_t n;
	unsigned char *b = testutil_read_file(path, &n);
	char err[512];

	b[3] = 'X';
	assert_int_equal(load_bytes(b, n, err, sizeof err), GULLY_EFORMAT);
	assert_non_null(strstr(err, "wrong magic"));
	b[3] = 'N';

	b[8] = SNAPSHOT_VERSION + 1;
	assert_int_equal(load_bytes(b, n, err, sizeof err), GULLY_EVERSION);
	assert_non_null(strstr(err, "version 3 is not supported"));
	b[8] = 0;
	assert_int_equal(load_bytes(b, n, err, sizeof err), GULLY_EVERSION);
	assert_non_null(strstr(err, "version 0 is not supported"));
	b[8] = SNAPSHOT_VERSION;

	/* width = 2^31 */
	unsigned char keep[4];
	memcpy(keep, b + 12, 4);
	memcpy(b + 12, "\0\0\0\x80", 4);
	assert_int_equal(load_bytes(b, n, err, sizeof err), GULLY_ESIZE);
	assert_non_null(strstr(err, "2147483648x16"));
	memcpy(b + 12, "\xff\xff\xff\xff", 4);
	assert_int_equal(load_bytes(b, n, err, sizeof err), GULLY_ESIZE);
	memcpy(b + 12, "\0\0\0\0", 4);
	assert_int_equal(load_bytes(b, n, err, sizeof err), GULLY_ESIZE);
	memcpy(b + 12, keep, 4);

	/* A changed counter: only the header CRC can tell. */
	b[20] ^= 4;
	assert_int_equal(load_bytes(b, n, err, sizeof err), GULLY_ECORRUPT);
	assert_non_null(strstr(err, "CRC in the header"));
	b[20] ^= 4;

	/* One byte more. */
	unsigned char *longer = malloc(n + 1);
	memcpy(longer, b, n);
	longer[n] = 0;
	assert_int_equal(load_bytes(longer, n + 1, err, sizeof err), GULLY_EFORMAT);
	assert_non_null(strstr(err, "trailing"));
	free(longer);

	assert_int_equal(load_bytes("hello, world\n", 13, err, sizeof err), GULLY_EFORMAT);
	assert_non_null(strstr(err, "not a gully snapshot"));
	assert_int_equal(load_bytes("", 0, err, sizeof err), GULLY_EFORMAT);
	assert_non_null(strstr(err, "truncated"));
	/* The original still loads: the test did not break it by accident. */
	assert_int_equal(load_bytes(b, n, err, sizeof err), GULLY_OK);
	free(b);
}

static void test_absurd_fields(void **state)
{
	(void)state;
	struct spec s = good_spec();
	expect(&s, GULLY_OK, NULL);

	/* Dimensions gully supports but the file cannot hold. */
	s = good_spec();
	s.width = s.height = 4096;
	s.data_len = 64;
	expect(&s, GULLY_EFORMAT, "truncated in layer 'height'");
	s = good_spec();
	s.width = 1u << 31;
	expect(&s, GULLY_ESIZE, "absurd map size");
	s = good_spec();
	s.height = 9000;
	expect(&s, GULLY_ESIZE, "absurd map size");

	/* Huge lengths: refused by limit or by the file's size, never allocated. */
	s = good_spec();
	s.process_len = 0xffffffffu;
	expect(&s, GULLY_EFORMAT, "the process name has an absurd length of 4294967295");
	s = good_spec();
	s.preset_len = 0x7fffffffu;
	expect(&s, GULLY_EFORMAT, "the preset text has an absurd length");
	s = good_spec();
	s.preset_len = SNAPSHOT_MAX_PRESET_TEXT;
	expect(&s, GULLY_EFORMAT, "truncated in the preset text");
	s = good_spec();
	s.state_len = SNAPSHOT_MAX_STATE;
	expect(&s, GULLY_EFORMAT, "truncated in the process state");
	s = good_spec();
	s.nlayers = 0;
	expect(&s, GULLY_EFORMAT, "absurd layer count 0");
	s = good_spec();
	s.nlayers = 100000;
	expect(&s, GULLY_EFORMAT, "absurd layer count 100000");
	s = good_spec();
	s.tally = "";
	expect(&s, GULLY_EFORMAT, "absurd length of 0");
}

static void test_bad_contents(void **state)
{
	(void)state;
	struct spec s = good_spec();
	s.names[1] = "lava";
	expect(&s, GULLY_EFORMAT, "unknown layer 'lava'");
	s = good_spec();
	s.names[1] = "height";
	expect(&s, GULLY_EFORMAT, "duplicate layer 'height'");
	s = good_spec();
	s.names[0] = "base";
	s.names[1] = "stream";
	expect(&s, GULLY_EFORMAT, "no 'height' layer");
	s = good_spec();
	s.names[1] = "a\nb\033[2J";
	expect(&s, GULLY_EFORMAT, "unknown layer 'a?b?[2J'");
	s = good_spec();
	s.tally = "gold";
	expect(&s, GULLY_EFORMAT, "unknown tally 'gold'");
	s = good_spec();
	s.rng_inc = 4;
	expect(&s, GULLY_EFORMAT, "RNG increment");
	s = good_spec();
	s.process = "lava";
	expect(&s, GULLY_ENOTFOUND, "unknown process 'lava'");
	s = good_spec();
	s.params = "world.width=16\nworld.height=16\nworld.colour=3\n";
	expect(&s, GULLY_EKEY, "unknown parameter 'world.colour'");
	s = good_spec();
	s.params = "world.width=16\nworld.height=16\nparticles.dt=abc\n";
	expect(&s, GULLY_EINVAL, "'particles.dt'");
	s = good_spec();
	s.params = "world.width=16\nworld.height=16\nparticles.dt=99\n";
	expect(&s, GULLY_ERANGE, "'particles.dt'");
	s = good_spec();
	s.params = "world.width=16\nworld.height=16\nworld.width=16\n";
	expect(&s, GULLY_EFORMAT, "given twice");
	s = good_spec();
	s.params = "world.width=16\nworld.height=16\njunk\n";
	expect(&s, GULLY_EFORMAT, "not key=value");
	s = good_spec();
	s.params = "world.width=32\nworld.height=16\n";
	expect(&s, GULLY_EFORMAT, "the parameters say 32x16");
}

/* A version 2 file: the fixture's raw height, then a 'pool' record of
 * `data` whose CRC is that of `cells`. Expects `code` and `words`. */
static void expect_pool(uint32_t encoding, const struct buf *data, const float *cells,
			int code, const char *words)
{
	struct buf rec = {0};
	b_layer(&rec, "pool", cells, 256, encoding, data);
	struct spec s = good_spec();
	s.version = 2;
	s.nlayers = 1;
	s.extra = &rec;
	s.extra_layers = 1;
	expect(&s, code, words);
	free(rec.p);
}

/* Runs of a 16x16 layer against zero: `pairs` (same, written) with the
 * written cells 0.25 each. Fills `cells` with what they stand for. */
static void runs_of(struct buf *d, uint32_t kind, uint32_t word, const uint32_t *pairs, int npairs,
		    float *cells)
{
	memset(d, 0, sizeof *d);
	b_u32(d, kind);
	b_u32(d, word);
	size_t at = 0;
	for (int k = 0; k < npairs; k++) {
		b_u32(d, pairs[2 * k]);
		b_u32(d, pairs[2 * k + 1]);
		for (uint32_t i = 0; i < pairs[2 * k] && at < 256; i++)
			cells[at++] = 0.0f;
		for (uint32_t i = 0; i < pairs[2 * k + 1]; i++) {
			b_f32(d, 0.25f);
			if (at < 256)
				cells[at++] = 0.25f;
		}
	}
}

static void test_bad_runs(void **state)
{
	(void)state;
	float cells[256] = {0};
	struct buf d;
	const uint32_t good[] = {250, 2, 4, 0};
	runs_of(&d, RUNS_REF_VALUE, 0, good, 2, cells);
	expect_pool(SNAPSHOT_ENC_RUNS, &d, cells, GULLY_OK, NULL);
	expect_pool(7, &d, cells, GULLY_EFORMAT, "unknown encoding 7 of layer 'pool'");
	expect_pool(SNAPSHOT_ENC_RAW, &d, cells, GULLY_EFORMAT,
		    "layer 'pool' has an absurd length of 32 bytes (its encoding allows 1024 to 1024)");
	float other[256];
	memcpy(other, cells, sizeof other);
	other[251] = 0.5f;
	expect_pool(SNAPSHOT_ENC_RUNS, &d, other, GULLY_ECORRUPT, "bad CRC in layer 'pool'");
	/* Bytes after the last run. */
	b_u32(&d, 0);
	expect_pool(SNAPSHOT_ENC_RUNS, &d, cells, GULLY_EFORMAT, "layer 'pool': 4 bytes are left after its last run");
	free(d.p);

	/* Runs that do not cover the map as the spec says, and references to
	 * the layer itself (place 1 of the file) or of no known kind. */
	static const struct {
		uint32_t kind, word, pairs[6];
		int npairs;
		size_t keep; /* bytes of the data kept (0: all) */
		const char *words;
	} bad[] = {
		{RUNS_REF_VALUE, 0, {200, 57}, 1, 0, "a run of 200 + 57 cells at cell 0 runs past the map"},
		{RUNS_REF_VALUE, 0, {100, 0, 0, 0, 156, 0}, 3, 0, "a run of 0 + 0 cells at cell 100 is empty"},
		{RUNS_REF_VALUE, 0, {100, 1}, 1, 0, "layer 'pool': its runs end at cell 101 of 256"},
		/* Cut inside its written cells: the length says so, the file agrees. */
		{RUNS_REF_VALUE, 0, {250, 6}, 1, 8 + 8 + 4 * 4,
		 "its data ends inside a run of 6 cells at cell 250"},
		{RUNS_REF_VALUE, 0, {256, 0}, 1, 12, "absurd length of 12 bytes (its encoding allows 16 to"},
		{RUNS_REF_LAYER, 1, {256, 0}, 1, 0,
		 "layer 'pool' is stored against layer 2 of the file, which is not before it"},
		{9, 0, {256, 0}, 1, 0, "unknown kind of reference (9)"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		runs_of(&d, bad[k].kind, bad[k].word, bad[k].pairs, bad[k].npairs, cells);
		if (bad[k].keep)
			d.n = bad[k].keep;
		expect_pool(SNAPSHOT_ENC_RUNS, &d, cells, GULLY_EFORMAT, bad[k].words);
		free(d.p);
	}
}

static void test_garbage_never_crashes(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 7, 1);
	unsigned char buf[4096];
	for (int round = 0; round < 300; round++) {
		size_t n = 12 + rng_below(&r, sizeof buf - 12);
		for (size_t i = 0; i < n; i++)
			buf[i] = (unsigned char)rng_next(&r);
		/* Half of them get past the magic and version. */
		if (round & 1)
			memcpy(buf, "\x89GSNAP\r\n\1\0\0\0", 12);
		FILE *fp = fmemopen(buf, n, "rb");
		assert_non_null(fp);
		struct world *w;
		struct snapshot_info info;
		char err[512] = "";
		assert_int_not_equal(snapshot_read(fp, "mem", 0, &w, &info, NULL, err, sizeof err), 0);
		fclose(fp);
		assert_one_line(err, "mem");
	}
}

/* Issue 14 #2: a file whose CRCs are right but whose cells are NaN,
 * infinite or outside what the core takes (a pool the flood's fixed-point
 * sums cannot hold) is refused at load, naming the layer and the cell; with
 * SNAPSHOT_KEEP_BAD_VALUES (gully info) it loads and the report says so. */
static void test_out_of_range_values_refused(void **state)
{
	(void)state;
	static const struct {
		int layer;
		float value;
	} cases[] = {
		{LAYER_HEIGHT, NAN}, {LAYER_HEIGHT, INFINITY}, {LAYER_BASE, -INFINITY},
		{LAYER_HEIGHT, 3.0e37f}, {LAYER_POOL, NAN}, {LAYER_POOL, -1.0f},
		{LAYER_POOL, 2048.0f}, {LAYER_POOL, 1.0e30f}, {LAYER_STREAM, 1.5f},
		{LAYER_HARDNESS, -0.25f}, {LAYER_WETNESS, 2.0f}, {LAYER_VEGETATION, 100.0f},
	};
	const char *path = tmp("range.gsnap");
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct snapshot_info info;
		memset(&info, 0, sizeof info);
		struct world *w = sample_world(&info.params, 16);
		snprintf(info.process, sizeof info.process, "particles");
		size_t cell = 16 * 5 + 3;
		w->layer[cases[k].layer][cell] = cases[k].value;
		char err[512] = "";
		/* snapshot_save refuses such a world; the stream writer does not. */
		FILE *out = fopen(path, "wb");
		assert_non_null(out);
		assert_int_equal(snapshot_write(out, path, w, &info, err, sizeof err), GULLY_OK);
		assert_int_equal(fclose(out), 0);
		world_destroy(w);
		struct world *back = (struct world *)1;
		struct snapshot_info bi;
		int e = snapshot_load(path, &back, &bi, err, sizeof err);
		assert_int_equal(e, GULLY_ERANGE);
		assert_null(back);
		assert_one_line(err, path);
		char want[96];
		snprintf(want, sizeof want, "layer '%s' cell %zu (x 3, y 5)",
			 world_layer_name((enum world_layer)cases[k].layer), cell);
		if (!strstr(err, want))
			fail_msg("case %zu: '%s' lacks \"%s\"", k, err, want);
		/* gully info's way: loaded, and the report has it. */
		FILE *fp = fopen(path, "rb");
		assert_non_null(fp);
		struct snapshot_report rep;
		assert_int_equal(snapshot_read(fp, path, SNAPSHOT_KEEP_BAD_VALUES, &back, &bi, &rep,
					       err, sizeof err), GULLY_OK);
		fclose(fp);
		assert_int_equal(rep.bad_ranges, 1);
		assert_true(rep.out_of_range[cases[k].layer]);
		assert_int_equal(rep.bad_cell[cases[k].layer], cell);
		world_destroy(back);
		snapshot_info_free(&bi);
		snapshot_info_free(&info);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_truncation_is_reported),
		cmocka_unit_test(test_every_byte_flip_is_caught),
		cmocka_unit_test(test_bad_layer_crc_names_the_layer),
		cmocka_unit_test(test_header_damage),
		cmocka_unit_test(test_absurd_fields),
		cmocka_unit_test(test_bad_contents),
		cmocka_unit_test(test_bad_runs),
		cmocka_unit_test(test_garbage_never_crashes),
		cmocka_unit_test(test_out_of_range_values_refused),
	};
	return cmocka_run_group_tests_name("snapshot_damage", tests, setup, teardown);
}
