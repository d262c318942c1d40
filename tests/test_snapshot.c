/* Snapshots: bit-exact round trip, exact resume, and refusal of every kind of
 * damaged file with the right code and a one-line message. Files are built
 * here byte by byte from gully-snapshot(5), so the test also checks the spec. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/base/error.h"
#include "core/particles/particles.h"
#include "core/base/process.h"
#include "core/terrain/terrain.h"
#include "core/base/bytes.h"
#include "io/snapshot.h"

TESTUTIL_TMPDIR_FIXTURES("snapshot")

static void assert_one_line(const char *err, const char *label)
{
	assert_non_null(strstr(err, label));
	assert_null(strchr(err, '\n'));
	assert_true(strlen(err) > strlen(label) + 5);
}

/* ------------------------------------------------------------ file bytes */

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void b_bytes(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	if (n)
		memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void b_u32(struct buf *b, uint32_t v)
{
	unsigned char x[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
			      (unsigned char)(v >> 24)};
	b_bytes(b, x, 4);
}

static void b_u64(struct buf *b, uint64_t v)
{
	b_u32(b, (uint32_t)v);
	b_u32(b, (uint32_t)(v >> 32));
}

static void b_str(struct buf *b, const char *s)
{
	b_u32(b, (uint32_t)strlen(s));
	b_bytes(b, s, strlen(s));
}

/* A hand-made snapshot; the defaults make a valid 16x16 file. */
struct spec {
	uint32_t version, width, height;
	const char *tally;        /* one tally of this name */
	uint64_t rng_inc;
	const char *process;
	const char *params;       /* NULL: "world.width=W\nworld.height=H\n" */
	uint32_t preset_len;      /* nonzero: declare this length, write no bytes */
	uint32_t state_len;       /* likewise */
	uint32_t nlayers;         /* layers written: names[0..nlayers) */
	const char *names[4];
	uint32_t data_len;        /* bytes of data per layer; 0: width*height*4 */
	uint32_t process_len;     /* nonzero: declared process-name length */
};

static struct spec good_spec(void)
{
	struct spec s = {
		.version = 1, .width = 16, .height = 16, .tally = "eroded", .rng_inc = 5,
		.process = "particles", .nlayers = 2, .names = {"height", "base"},
	};
	return s;
}

static void build(struct buf *b, const struct spec *s)
{
	memset(b, 0, sizeof *b);
	b_bytes(b, "\x89GSNAP\r\n", 8);
	b_u32(b, s->version);
	b_u32(b, s->width);
	b_u32(b, s->height);
	b_u64(b, 1234);
	b_u64(b, 56789);
	b_u32(b, 1);
	b_str(b, s->tally);
	b_u64(b, 0x3ff8000000000000ull); /* 1.5 */
	b_u64(b, 0x0123456789abcdefull);
	b_u64(b, s->rng_inc);
	if (s->process_len) {
		b_u32(b, s->process_len);
		b_bytes(b, s->process, strlen(s->process));
	} else {
		b_str(b, s->process);
	}
	char params[128];
	if (s->params)
		snprintf(params, sizeof params, "%s", s->params);
	else
		snprintf(params, sizeof params, "world.width=%u\nworld.height=%u\n", s->width, s->height);
	b_str(b, params);
	if (s->preset_len)
		b_u32(b, s->preset_len);
	else
		b_str(b, "");
	if (s->state_len)
		b_u32(b, s->state_len);
	else
		b_str(b, "");
	b_u32(b, s->nlayers);
	b_u32(b, (uint32_t)crc32(0L, b->p, (uInt)b->n));
	size_t len = s->data_len ? s->data_len : (size_t)s->width * s->height * 4;
	if (s->width > 8192 || s->height > 8192)
		len = 64; /* the loader must stop at the header anyway */
	for (uint32_t l = 0; l < s->nlayers && l < 4 && s->names[l]; l++) {
		unsigned char *data = calloc(len + 4, 1);
		assert_non_null(data);
		/* Floats every layer accepts (0 to 1, in steps of 1/128). */
		for (size_t i = 0; i < len; i += 4)
			put_f32le(data + i, (float)((i / 4 * 7 + l) % 129) / 128.0f);
		b_str(b, s->names[l]);
		b_u32(b, (uint32_t)crc32(0L, data, (uInt)len));
		b_bytes(b, data, len);
		free(data);
	}
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(p, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
}

/* Loads bytes from a file; returns the code and leaves the message in err. */
static int load_bytes(const void *p, size_t n, char *err, size_t errlen)
{
	const char *path = tmp("case.gsnap");
	write_file(path, p, n);
	struct world *w = (struct world *)1;
	struct snapshot_info info;
	int e = snapshot_load(path, &w, &info, err, errlen);
	if (e) {
		assert_null(w);
		assert_null(info.preset_yaml);
		assert_null(info.state);
		assert_one_line(err, path);
	} else {
		world_destroy(w);
		snapshot_info_free(&info);
	}
	return e;
}

static void expect(const struct spec *s, int code, const char *words)
{
	struct buf b;
	build(&b, s);
	char err[512] = "";
	int e = load_bytes(b.p, b.n, err, sizeof err);
	if (e != code || (words && !strstr(err, words)))
		fail_msg("expected %s ('%s'), got %s: %s", gully_strerror(code), words ? words : "",
			 gully_strerror(e), err);
	free(b.p);
}

/* ------------------------------------------------------------ worlds */

static struct world *sample_world(struct params *p, int size)
{
	params_defaults(p);
	p->world.width = size;
	p->world.height = size;
	struct world *w;
	assert_int_equal(world_from_params(&w, p), 0);
	void *st;
	assert_int_equal(particles_process.create(&st, w, p), 0);
	assert_int_equal(particles_process.step(st, w, p, 200, NULL), 0);
	particles_process.destroy(st);
	/* Every layer different, with the awkward floats a text format would lose. */
	size_t n = world_cells(w);
	for (int l = LAYER_STREAM; l < LAYER_COUNT; l++)
		for (size_t i = 0; i < n; i++)
			w->layer[l][i] = (float)((i * 2654435761u + (size_t)l * 97) % 1000) / 7.0f / 143.0f;
	w->layer[LAYER_POOL][0] = -0.0f;
	w->layer[LAYER_POOL][1] = 1e-42f; /* subnormal */
	w->layer[LAYER_POOL][2] = nextafterf(WORLD_POOL_MAX, 0.0f);
	w->layer[LAYER_POOL][3] = WORLD_POOL_MAX;
	for (int t = 0; t < TALLY_COUNT; t++)
		w->tally[t] += 0.1 * (t + 1);
	return w;
}

static void assert_worlds_equal(const struct world *a, const struct world *b)
{
	assert_int_equal(a->width, b->width);
	assert_int_equal(a->height, b->height);
	for (int l = 0; l < LAYER_COUNT; l++)
		assert_memory_equal(a->layer[l], b->layer[l], world_cells(a) * sizeof(float));
	assert_int_equal(a->particles, b->particles);
	assert_int_equal(a->steps, b->steps);
	assert_memory_equal(a->tally, b->tally, sizeof a->tally);
	assert_int_equal(a->rng.state, b->rng.state);
	assert_int_equal(a->rng.inc, b->rng.inc);
}

static void save_sample(const char *path, struct world **wout, struct snapshot_info *info)
{
	struct world *w = sample_world(&info->params, 16);
	snprintf(info->process, sizeof info->process, "particles");
	char err[256];
	assert_int_equal(snapshot_save(path, w, info, err, sizeof err), GULLY_OK);
	if (wout)
		*wout = w;
	else
		world_destroy(w);
}

/* ------------------------------------------------------------ tests */

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

static void test_every_truncation_is_reported(void **state)
{
	(void)state;
	struct snapshot_info info;
	memset(&info, 0, sizeof info);
	const char *path = tmp("trunc.gsnap");
	save_sample(path, NULL, &info);
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

static void test_every_byte_flip_is_caught(void **state)
{
	(void)state;
	struct snapshot_info info;
	memset(&info, 0, sizeof info);
	const char *path = tmp("flip.gsnap");
	save_sample(path, NULL, &info);
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
	/* Most layer bytes are caught by the layers' own CRCs (measured against
	 * the layer data, not the file: the parameter table grows with every
	 * process). */
	assert_true(crc_layer_hits > (int)(LAYER_COUNT * 16 * 16 * 4 * 3 / 4));
	free(bytes);
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
	/* Layers are written in enum order, each 16*16*4 bytes plus its name
	 * and CRC; 'vegetation' is last, so its data ends the file. */
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
	assert_int_equal(rep.version, 1);
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

	b[8] = 2;
	assert_int_equal(load_bytes(b, n, err, sizeof err), GULLY_EVERSION);
	assert_non_null(strstr(err, "version 2"));
	b[8] = 1;

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
		assert_int_equal(snapshot_save(path, w, &info, err, sizeof err), GULLY_OK);
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
		cmocka_unit_test(test_every_truncation_is_reported),
		cmocka_unit_test(test_every_byte_flip_is_caught),
		cmocka_unit_test(test_bad_layer_crc_names_the_layer),
		cmocka_unit_test(test_header_damage),
		cmocka_unit_test(test_absurd_fields),
		cmocka_unit_test(test_bad_contents),
		cmocka_unit_test(test_garbage_never_crashes),
		cmocka_unit_test(test_failed_save_keeps_old_file),
		cmocka_unit_test(test_out_of_range_values_refused),
	};
	return cmocka_run_group_tests_name("snapshot", tests, setup, teardown);
}
