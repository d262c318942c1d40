/* What the snapshot tests share (test_snapshot, test_snapshot_damage): a
 * temporary folder, files built byte by byte from gully-snapshot(5), and
 * sample worlds saved and compared. */
#ifndef GULLY_TESTS_SNAPSHOT_FIXTURE_H
#define GULLY_TESTS_SNAPSHOT_FIXTURE_H

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

static inline void assert_one_line(const char *err, const char *label)
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

static inline void b_bytes(struct buf *b, const void *p, size_t n)
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

static inline void b_u32(struct buf *b, uint32_t v)
{
	unsigned char x[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
			      (unsigned char)(v >> 24)};
	b_bytes(b, x, 4);
}

static inline void b_u64(struct buf *b, uint64_t v)
{
	b_u32(b, (uint32_t)v);
	b_u32(b, (uint32_t)(v >> 32));
}

static inline void b_str(struct buf *b, const char *s)
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
	const struct buf *extra;  /* version 2: more layer records after them */
	uint32_t extra_layers;    /* how many records `extra` holds */
};

static inline struct spec good_spec(void)
{
	struct spec s = {
		.version = 1, .width = 16, .height = 16, .tally = "eroded", .rng_inc = 5,
		.process = "particles", .nlayers = 2, .names = {"height", "base"},
	};
	return s;
}

static inline void build(struct buf *b, const struct spec *s)
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
	b_u32(b, s->nlayers + s->extra_layers);
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
		if (s->version >= 2) {
			b_u32(b, 0); /* raw */
			b_u64(b, len);
		}
		b_bytes(b, data, len);
		free(data);
	}
	if (s->extra)
		b_bytes(b, s->extra->p, s->extra->n);
}

/* The CRC of cells as the file's little-endian floats, worked out here
 * from gully-snapshot(5) rather than by the loader's snapshot_cells_crc, so
 * that hand-built files check the loader against the spec. */
static inline uint32_t cells_crc(const float *v, size_t n)
{
	uLong c = crc32(0L, Z_NULL, 0);
	for (size_t i = 0; i < n; i++) {
		unsigned char x[4];
		put_f32le(x, v[i]);
		c = crc32(c, x, 4);
	}
	return (uint32_t)c;
}

/* A version 2 layer record: name, the CRC of the cells it stands for,
 * encoding, length and data as given. */
static inline void b_layer(struct buf *b, const char *name, const float *cells, size_t n,
			   uint32_t encoding, const struct buf *data)
{
	b_str(b, name);
	b_u32(b, cells_crc(cells, n));
	b_u32(b, encoding);
	b_u64(b, data->n);
	b_bytes(b, data->p, data->n);
}

static inline void b_f32(struct buf *b, float f)
{
	unsigned char x[4];
	put_f32le(x, f);
	b_bytes(b, x, 4);
}

static inline void write_file(const char *path, const void *p, size_t n)
{
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(p, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
}

/* Loads bytes from a file; returns the code and leaves the message in err. */
static inline int load_bytes(const void *p, size_t n, char *err, size_t errlen)
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

static inline void expect(const struct spec *s, int code, const char *words)
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

/* A size x size world of the defaults after `droplets` particles. */
static inline struct world *eroded_world(struct params *p, int size, uint64_t droplets)
{
	params_defaults(p);
	p->world.width = size;
	p->world.height = size;
	struct world *w;
	assert_int_equal(world_from_params(&w, p), 0);
	void *st;
	assert_int_equal(particles_process.create(&st, w, p), 0);
	assert_int_equal(particles_process.step(st, w, p, droplets, NULL), 0);
	particles_process.destroy(st);
	return w;
}

static inline struct world *sample_world(struct params *p, int size)
{
	struct world *w = eroded_world(p, size, 200);
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

/* A world as runs store it: the height changed only where droplets went,
 * layers mostly one value (zero, or one hardness), a few awkward floats. */
static inline struct world *sparse_world(struct params *p, int size)
{
	struct world *w = eroded_world(p, size, 3);
	size_t n = world_cells(w);
	for (size_t i = 0; i < n; i++)
		w->layer[LAYER_HARDNESS][i] = 0.625f;
	w->layer[LAYER_HARDNESS][n - 1] = 0.25f;
	w->layer[LAYER_POOL][5] = -0.0f;
	w->layer[LAYER_POOL][6] = 1e-42f; /* subnormal */
	w->layer[LAYER_POOL][n / 2] = WORLD_POOL_MAX;
	w->layer[LAYER_STREAM][n / 3] = 0.5f;
	w->layer[LAYER_WETNESS][n - 1] = 1.0f;
	return w;
}

static inline void assert_worlds_equal(const struct world *a, const struct world *b)
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

static inline void save_world(const char *path, struct world *w, struct world **wout,
			      struct snapshot_info *info)
{
	snprintf(info->process, sizeof info->process, "particles");
	char err[256];
	assert_int_equal(snapshot_save(path, w, info, err, sizeof err), GULLY_OK);
	if (wout)
		*wout = w;
	else
		world_destroy(w);
}

/* A 16x16 sample saved: one whose layers but the height have every cell
 * different (stored raw), or a sparse one (stored as runs). */
static inline void save_sample(const char *path, struct world **wout, struct snapshot_info *info)
{
	save_world(path, sample_world(&info->params, 16), wout, info);
}

static inline void save_sparse(const char *path, struct world **wout, struct snapshot_info *info)
{
	save_world(path, sparse_world(&info->params, 16), wout, info);
}

#endif
