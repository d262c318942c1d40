/* Writing .gsnap snapshots (man/gully-snapshot.5; snapshot.c reads them):
 * the header with its CRC, then each layer with its own, floats as
 * little-endian bytes whatever the host. */
#include "io/snapshot.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <zlib.h>

#include "core/base/error.h"
#include "core/base/process.h"
#include "core/base/bytes.h"
#include "io/fileio.h"
#include "io/snapshot_format.h"


struct writer {
	FILE *fp;
	uint32_t crc; /* of everything written so far, for the header CRC */
	bool failed;
};

static void put(struct writer *wr, const void *p, size_t n)
{
	if (wr->failed || n == 0)
		return;
	if (fwrite(p, 1, n, wr->fp) != n)
		wr->failed = true;
	wr->crc = snapshot_crc_update(wr->crc, p, n);
}

static void put32(struct writer *wr, uint32_t v)
{
	unsigned char b[4];
	put_u32le(b, v);
	put(wr, b, 4);
}

static void put64(struct writer *wr, uint64_t v)
{
	unsigned char b[8];
	put_u64le(b, v);
	put(wr, b, 8);
}

static void put_string(struct writer *wr, const void *s, size_t n)
{
	put32(wr, (uint32_t)n);
	put(wr, s, n);
}

/* Floats go out as little-endian bytes: as they lie on a little-endian host
 * (snapshot_format.h), else in chunks converted to them. */
#define CHUNK_FLOATS 4096

static void put_floats(struct writer *wr, const float *v, size_t n)
{
	unsigned char buf[CHUNK_FLOATS * 4];
	if (SNAPSHOT_FLOATS_AS_STORED) {
		if (!wr->failed && fwrite(v, sizeof *v, n, wr->fp) != n)
			wr->failed = true;
		return;
	}
	for (size_t i = 0; i < n && !wr->failed; i += CHUNK_FLOATS) {
		size_t k = n - i < CHUNK_FLOATS ? n - i : CHUNK_FLOATS;
		for (size_t j = 0; j < k; j++)
			put_f32le(buf + 4 * j, v[i + j]);
		if (fwrite(buf, 1, 4 * k, wr->fp) != 4 * k)
			wr->failed = true;
	}
}

/* The file's order: a layer after the one it may be stored against (the
 * height against the terrain it was made from). */
static const enum world_layer write_order[LAYER_COUNT] = {
	LAYER_BASE, LAYER_HEIGHT, LAYER_STREAM, LAYER_POOL,
	LAYER_HARDNESS, LAYER_WETNESS, LAYER_VEGETATION,
};

/* The reference that stores the layer at write_order[k] in the fewest
 * bytes: zero, its first cell's value, or for the height the base. Sets
 * *bytes to that size and *ref_word to the reference's u32. */
static struct runs_ref best_ref(const struct world *w, int k, uint64_t *bytes,
				uint32_t *kind, uint32_t *ref_word)
{
	const float *v = w->layer[write_order[k]];
	size_t n = world_cells(w);
	uint32_t first;
	memcpy(&first, v, sizeof first);
	struct runs_ref best = {NULL, 0};
	*kind = RUNS_REF_VALUE;
	*ref_word = 0;
	*bytes = runs_may_pay(v, &best, n) ? runs_bytes(v, &best, n) : UINT64_MAX;
	if (first != 0) {
		struct runs_ref r = {NULL, first};
		uint64_t b = runs_may_pay(v, &r, n) ? runs_bytes(v, &r, n) : UINT64_MAX;
		if (b < *bytes) {
			best = r;
			*bytes = b;
			*ref_word = first;
		}
	}
	if (write_order[k] == LAYER_HEIGHT && write_order[0] == LAYER_BASE) {
		struct runs_ref r = {w->layer[LAYER_BASE], 0};
		uint64_t b = runs_may_pay(v, &r, n) ? runs_bytes(v, &r, n) : UINT64_MAX;
		if (b < *bytes) {
			best = r;
			*bytes = b;
			*kind = RUNS_REF_LAYER;
			*ref_word = 0; /* the base's place in the file */
		}
	}
	return best;
}

/* One layer record: name, CRC, encoding, length, data. Runs when they take
 * fewer bytes than the cells themselves. */
static void put_layer(struct writer *wr, const struct world *w, uint32_t version, int k)
{
	const enum world_layer l = write_order[k];
	const float *v = w->layer[l];
	const size_t n = world_cells(w);
	const char *name = world_layer_name(l);
	put_string(wr, name, strlen(name));
	put32(wr, snapshot_cells_crc(v, n));
	if (version < 2) {
		put_floats(wr, v, n);
		return;
	}
	uint64_t bytes;
	uint32_t kind, ref_word;
	struct runs_ref r = {NULL, 0};
	if (n <= RUNS_MAX_CELLS)
		r = best_ref(w, k, &bytes, &kind, &ref_word);
	if (n > RUNS_MAX_CELLS || bytes >= (uint64_t)n * 4) {
		put32(wr, SNAPSHOT_ENC_RAW);
		put64(wr, (uint64_t)n * 4);
		put_floats(wr, v, n);
		return;
	}
	put32(wr, SNAPSHOT_ENC_RUNS);
	put64(wr, bytes);
	put32(wr, kind);
	put32(wr, ref_word);
	for (size_t i = 0; i < n && !wr->failed;) {
		uint32_t same, lit;
		size_t next = runs_next(v, &r, n, i, &same, &lit);
		put32(wr, same);
		put32(wr, lit);
		put_floats(wr, v + i + same, lit);
		i = next;
	}
}

/* "key=value\n" for every parameter, with the world's own size: the text
 * params_set_text reads back to the same struct. */
static int params_text(const struct params *in, const struct world *w, char **out, size_t *len)
{
	struct params p = *in;
	int wi = params_find("world.width"), hi = params_find("world.height");
	if (params_set(&p, wi, w->width) || params_set(&p, hi, w->height))
		return GULLY_ESIZE;
	size_t cap = 256, n = 0;
	char *buf = malloc(cap);
	if (!buf)
		return GULLY_ENOMEM;
	for (int i = 0; i < params_count(); i++) {
		char value[128];
		params_format(&p, i, value, sizeof value);
		const char *key = params_def(i)->key;
		size_t need = strlen(key) + strlen(value) + 3;
		if (n + need > cap) {
			while (n + need > cap)
				cap *= 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return GULLY_ENOMEM;
			}
			buf = nb;
		}
		n += (size_t)snprintf(buf + n, cap - n, "%s=%s\n", key, value);
	}
	*out = buf;
	*len = n;
	return GULLY_OK;
}

int snapshot_write(FILE *fp, const char *label, const struct world *w,
		   const struct snapshot_info *info, char *err, size_t errlen)
{
	return snapshot_write_version(fp, label, w, info, SNAPSHOT_VERSION, err, errlen);
}

int snapshot_write_version(FILE *fp, const char *label, const struct world *w,
			   const struct snapshot_info *info, uint32_t version,
			   char *err, size_t errlen)
{
	if (version < SNAPSHOT_VERSION_MIN || version > SNAPSHOT_VERSION)
		return io_fail(err, errlen, GULLY_EVERSION, label, "cannot write format version %" PRIu32,
			    version);
	size_t plen = strnlen(info->process, sizeof info->process);
	if (plen == 0 || plen > SNAPSHOT_MAX_PROCESS)
		return io_fail(err, errlen, GULLY_EINVAL, label, "no process name to save");
	size_t ylen = info->preset_yaml ? strlen(info->preset_yaml) : 0;
	if (ylen > SNAPSHOT_MAX_PRESET_TEXT)
		return io_fail(err, errlen, GULLY_ESIZE, label, "preset text of %zu bytes is over the limit of %u",
			    ylen, SNAPSHOT_MAX_PRESET_TEXT);
	size_t slen = info->state ? info->state_len : 0;
	if (slen > SNAPSHOT_MAX_STATE)
		return io_fail(err, errlen, GULLY_ESIZE, label, "process state of %zu bytes is over the limit of %u",
			    slen, SNAPSHOT_MAX_STATE);
	if (world_check_size(w->width, w->height))
		return io_fail(err, errlen, GULLY_ESIZE, label, "map size %dx%d is not supported",
			    w->width, w->height);
	char *ptext;
	size_t ptlen;
	int e = params_text(&info->params, w, &ptext, &ptlen);
	if (e)
		return io_fail(err, errlen, e, label, "the parameters cannot describe a %dx%d map: %s",
			    w->width, w->height, gully_strerror(e));

	struct writer wr = {fp, (uint32_t)crc32(0L, Z_NULL, 0), false};
	put(&wr, SNAPSHOT_MAGIC, SNAPSHOT_MAGIC_LEN);
	put32(&wr, version);
	put32(&wr, (uint32_t)w->width);
	put32(&wr, (uint32_t)w->height);
	put64(&wr, w->particles);
	put64(&wr, w->steps);
	put32(&wr, TALLY_COUNT);
	for (int t = 0; t < TALLY_COUNT; t++) {
		const char *name = world_tally_name((enum world_tally)t);
		put_string(&wr, name, strlen(name));
		unsigned char b[8];
		put_f64le(b, w->tally[t]);
		put(&wr, b, 8);
	}
	put64(&wr, w->rng.state);
	put64(&wr, w->rng.inc);
	put_string(&wr, info->process, plen);
	put_string(&wr, ptext, ptlen);
	put_string(&wr, info->preset_yaml, ylen);
	put_string(&wr, info->state, slen);
	put32(&wr, LAYER_COUNT);
	put32(&wr, wr.crc);
	free(ptext);

	for (int k = 0; k < LAYER_COUNT && !wr.failed; k++)
		put_layer(&wr, w, version, k);
	if (wr.failed)
		return io_fail(err, errlen, GULLY_EIO, label, "write failed: %s", strerror(errno));
	return GULLY_OK;
}

int snapshot_save(const char *path, const struct world *w,
		  const struct snapshot_info *info, char *err, size_t errlen)
{
	/* A file gully would refuse to load is not written: a run whose
	 * parameters drove it out of the model's range says so here, not on
	 * the next load. */
	for (int l = 0; l < LAYER_COUNT; l++) {
		size_t cell;
		if (world_check_layer(w, (enum world_layer)l, &cell) == GULLY_OK)
			continue;
		float lo, hi;
		world_layer_range((enum world_layer)l, &lo, &hi);
		return io_fail(err, errlen, GULLY_ERANGE, path,
			    "not saved: layer '%s' cell %zu (x %zu, y %zu) is %g, outside %.10g to %.10g, and could not be loaded back",
			    world_layer_name((enum world_layer)l), cell, cell % (size_t)w->width,
			    cell / (size_t)w->width, (double)w->layer[l][cell], (double)lo, (double)hi);
	}
	struct atomic_file af;
	if (atomic_open(&af, path) != 0)
		return io_fail(err, errlen, GULLY_EIO, path, "cannot create: %s", file_strerror(errno));
	int e = snapshot_write(af.fp, path, w, info, err, errlen);
	if (e) {
		atomic_abort(&af);
		return e;
	}
	if (atomic_commit(&af) != 0)
		return io_fail(err, errlen, GULLY_EIO, path, "cannot save: %s", strerror(errno));
	return GULLY_OK;
}
