/* Two halves of the droplets side by side (halves.h has the rule). */
#include "core/particles/halves.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/bigmem.h"
#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/v2.h" /* GULLY_USE_SSE2 */
#include "core/base/workers.h"
#if GULLY_USE_SSE2
#include "core/base/floatw.h"
#endif

/* The tallies a half books as it goes; sediment_in_flight is a level, set
 * from the droplets in flight. */
static const enum world_tally halves_books[] = {TALLY_ERODED, TALLY_DEPOSITED,
						 TALLY_SEDIMENT_OFF_MAP};
#define HALVES_BOOKS 3

struct halves {
	int width, height;
	size_t cells;
	struct lockstep *b;  /* half B's engine */
	float *base, *view;  /* the epoch's first map and B's view; NULL when stopped */
	bool started;
	uint64_t released;   /* droplets released in this epoch, both halves */
	struct rng rng;      /* B's droplets */
	double tally[HALVES_BOOKS]; /* B's since the merge */
	double soil0;        /* B's soil in flight at the merge */
};

struct halves *halves_create(int width, int height)
{
	struct halves *hv = calloc(1, sizeof *hv);
	if (!hv)
		return NULL;
	hv->width = width;
	hv->height = height;
	hv->cells = (size_t)width * (size_t)height;
	hv->b = lockstep_create(width, height);
	if (!hv->b) {
		free(hv);
		return NULL;
	}
	return hv;
}

static void halves_free_views(struct halves *hv)
{
	bigmem_free(hv->base, hv->cells * sizeof(float));
	bigmem_free(hv->view, hv->cells * sizeof(float));
	hv->base = hv->view = NULL;
}

void halves_destroy(struct halves *hv)
{
	if (!hv)
		return;
	halves_free_views(hv);
	lockstep_destroy(hv->b);
	free(hv);
}

bool halves_started(const struct halves *hv)
{
	return hv->started;
}

static int halves_alloc_views(struct halves *hv)
{
	if (hv->base)
		return GULLY_OK;
	hv->base = bigmem_zalloc(hv->cells * sizeof(float));
	hv->view = bigmem_zalloc(hv->cells * sizeof(float));
	if (!hv->base || !hv->view) {
		halves_free_views(hv);
		return GULLY_ENOMEM;
	}
	return GULLY_OK;
}

void halves_seed(struct rng *b, const struct rng *world)
{
	/* splitmix64 of the world's state: a stream of its own that the world's
	 * next draws do not predict, and the world's stream untouched, so half
	 * A's droplets are the ones one engine would have released. */
	uint64_t z = world->state + 0x9e3779b97f4a7c15u;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	rng_seed(b, z ^ (z >> 31), 0x68616c766573u /* "halves" */);
}

/* The first epoch: both views are the world's map. */
static int halves_start(struct halves *hv, struct world *w, const struct lockstep *a)
{
	if (hv->started)
		return GULLY_OK;
	int err = halves_alloc_views(hv);
	if (err)
		return err;
	memcpy(hv->base, w->layer[LAYER_HEIGHT], hv->cells * sizeof(float));
	memcpy(hv->view, w->layer[LAYER_HEIGHT], hv->cells * sizeof(float));
	halves_seed(&hv->rng, &w->rng);
	memset(hv->tally, 0, sizeof hv->tally);
	hv->soil0 = lockstep_soil_in_flight(hv->b);
	hv->released = 0;
	lockstep_set_isa(hv->b, lockstep_isa(a));
	hv->started = true;
	return GULLY_OK;
}

/* ---- both halves at once ---------------------------------------------- */

struct halves_job {
	struct halves *hv;
	struct lockstep *a;
	struct world *w, wb; /* A's world, and B's: the same but for its view, RNG, tallies */
	const struct droplet_params *dp;
	int lanes[2];      /* A takes the odd lane if there is one */
	uint64_t share[2]; /* droplets each releases */
	bool drain[2];     /* run its droplets in flight to their end instead */
	uint64_t steps[2];
	int err[2];
};

static void halves_task(void *arg, int task, int worker)
{
	(void)worker;
	struct halves_job *j = arg;
	struct lockstep *pl = task ? j->hv->b : j->a;
	struct world *w = task ? &j->wb : j->w;
	if (j->drain[task])
		j->err[task] = lockstep_drain(pl, w, j->dp, &j->steps[task]);
	else if (j->share[task])
		j->err[task] =
			lockstep_run(pl, w, j->dp, j->lanes[task], j->share[task], &j->steps[task]);
}

static int halves_both(struct halves_job *j, struct workers *pool, uint64_t *steps)
{
	struct halves *hv = j->hv;
	j->wb = *j->w;
	j->wb.layer[LAYER_HEIGHT] = hv->view;
	j->wb.rng = hv->rng;
	for (int k = 0; k < HALVES_BOOKS; k++)
		j->wb.tally[halves_books[k]] = hv->tally[k];
	const bool busy[2] = {j->drain[0] || j->share[0], j->drain[1] || j->share[1]};
	if (pool && workers_count(pool) > 1 && busy[0] && busy[1]) {
		workers_for(pool, 2, halves_task, j);
	} else {
		for (int t = 0; t < 2; t++)
			if (busy[t])
				halves_task(j, t, 0);
	}
	hv->rng = j->wb.rng;
	for (int k = 0; k < HALVES_BOOKS; k++)
		hv->tally[k] = j->wb.tally[halves_books[k]];
	*steps += j->steps[0] + j->steps[1];
	j->steps[0] = j->steps[1] = 0;
	return j->err[0] ? j->err[0] : j->err[1];
}

/* ---- the merge ---------------------------------------------------------- */

static uint32_t halves_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

struct halves_merge {
	struct halves *hv;
	float *h;
	int tasks;
};

/* h = a + (b - base) where B wrote; where only A did, B's view and the base
 * take A's value; elsewhere all three are the same already. Bits, not ==,
 * so a -0 written over a +0 is kept too. Every cell's three values are
 * stored, so the vector copy has no branch. */
static void halves_merge_cells(float *h, float *base, float *view, long begin, long end)
{
	long c = begin;
#if GULLY_USE_SSE2
	for (; c + FLOATW_WIDTH <= end; c += FLOATW_WIDTH) {
		const floatw a = fw_load(h + c), b0 = fw_load(base + c), b = fw_load(view + c);
		const floatw b_unmoved = fw_from_i(iw_eq(fw_to_i(b), fw_to_i(b0)));
		const floatw out = fw_blend(b_unmoved, a, fw_add(a, fw_sub(b, b0)));
		fw_store(h + c, out);
		fw_store(base + c, out);
		fw_store(view + c, out);
	}
#endif
	for (; c < end; c++) {
		const float out = halves_bits(view[c]) != halves_bits(base[c])
					  ? h[c] + (view[c] - base[c])
					  : h[c];
		h[c] = base[c] = view[c] = out;
	}
}

static void halves_merge_part(void *arg, int task, int worker)
{
	(void)worker;
	const struct halves_merge *m = arg;
	long begin, end;
	workers_share((long)m->hv->cells, task, m->tasks, &begin, &end);
	halves_merge_cells(m->h, m->hv->base, m->hv->view, begin, end);
}

static void halves_merge(struct halves *hv, struct world *w, struct workers *pool)
{
	const int threads = pool ? workers_count(pool) : 1;
	struct halves_merge m = {hv, w->layer[LAYER_HEIGHT], threads > 1 ? 4 * threads : 1};
	if (m.tasks > 1)
		workers_for(pool, m.tasks, halves_merge_part, &m);
	else
		halves_merge_part(&m, 0, 0);
	for (int k = 0; k < HALVES_BOOKS; k++) {
		w->tally[halves_books[k]] += hv->tally[k];
		hv->tally[k] = 0;
	}
	hv->soil0 = lockstep_soil_in_flight(hv->b);
	hv->released = 0;
}

/* ---- run and stop ------------------------------------------------------- */

int halves_run(struct halves *hv, struct lockstep *a, struct world *w,
	       const struct droplet_params *dp, int lanes, uint64_t epoch, uint64_t budget,
	       struct workers *pool, uint64_t *steps)
{
	if (w->width != hv->width || w->height != hv->height || epoch == 0 || lanes < 2)
		return GULLY_EINVAL;
	if (budget == 0)
		return GULLY_OK;
	int err = halves_start(hv, w, a);
	while (!err && budget > 0) {
		if (hv->released >= epoch) /* the epoch was made shorter */
			halves_merge(hv, w, pool);
		const uint64_t room = epoch - hv->released;
		const uint64_t take = budget < room ? budget : room;
		const uint64_t r0 = hv->released, r1 = r0 + take;
		struct halves_job j = {.hv = hv, .a = a, .w = w, .dp = dp,
				       .lanes = {(lanes + 1) / 2, lanes / 2}};
		j.share[0] = (r1 + 1) / 2 - (r0 + 1) / 2; /* the even numbers in [r0, r1) */
		j.share[1] = take - j.share[0];
		err = halves_both(&j, pool, steps);
		hv->released = r1;
		budget -= take;
		if (!err && hv->released == epoch)
			halves_merge(hv, w, pool);
	}
	w->tally[TALLY_SEDIMENT_IN_FLIGHT] = lockstep_soil_in_flight(a) + hv->soil0;
	return err;
}

int halves_stop(struct halves *hv, struct lockstep *a, struct world *w,
		const struct droplet_params *dp, bool drain_a, struct workers *pool,
		uint64_t *steps)
{
	if (!hv->started)
		return GULLY_OK;
	if (w->width != hv->width || w->height != hv->height)
		return GULLY_EINVAL;
	struct halves_job j = {.hv = hv, .a = a, .w = w, .dp = dp, .drain = {drain_a, true}};
	int err = halves_both(&j, pool, steps);
	if (err)
		return err;
	halves_merge(hv, w, pool);
	hv->started = false;
	halves_free_views(hv);
	w->tally[TALLY_SEDIMENT_IN_FLIGHT] = lockstep_soil_in_flight(a);
	return GULLY_OK;
}

void halves_reset(struct halves *hv)
{
	hv->started = false;
	halves_free_views(hv);
	lockstep_clear(hv->b);
}

/* ---- the blob ----------------------------------------------------------- */

#define HALVES_MAGIC 0x56485047u /* "GPHV" read as a little-endian u32 */
#define HALVES_VERSION 2u
#define HALVES_HEAD 16u
/* B's view (version 2): every cell, or the cells where it differs from the
 * base. Between two merges B writes only where its droplets went, so on a
 * big map the list is a fraction of the map (halves.h). */
enum { HALVES_VIEW_RAW = 0, HALVES_VIEW_CHANGED = 1 };
/* After the two lockstep blobs: released, RNG state and inc, three tallies
 * and the soil in flight. */
#define HALVES_MID (8u * 3u + 8u * (HALVES_BOOKS + 1u))

bool halves_is_blob(const unsigned char *data, size_t len)
{
	return data && len >= 4 && get_u32le(data) == HALVES_MAGIC;
}

static unsigned char *halves_put_blob(unsigned char *q, const unsigned char *blob, size_t len)
{
	put_u64le(q, (uint64_t)len);
	memcpy(q + 8, blob, len);
	return q + 8 + len;
}

static unsigned char *halves_put_map(unsigned char *q, const float *map, size_t cells)
{
	for (size_t c = 0; c < cells; c++, q += 4)
		put_f32le(q, map[c]);
	return q;
}

static bool halves_same_bits(float a, float b)
{
	return halves_bits(a) == halves_bits(b);
}

/* The cells where B's view differs from the base. */
static size_t halves_view_changed(const struct halves *hv)
{
	size_t k = 0;
	for (size_t c = 0; c < hv->cells; c++)
		k += !halves_same_bits(hv->view[c], hv->base[c]);
	return k;
}

/* Bytes of B's view after the base: its encoding (u32), then every cell,
 * or a count (u64) and (u32 cell, f32 value) for each changed one,
 * whichever is smaller. */
static size_t halves_view_bytes(const struct halves *hv, size_t changed, uint32_t *encoding)
{
	const size_t raw = 4 * hv->cells, list = 8 + 8 * changed;
	*encoding = list < raw ? HALVES_VIEW_CHANGED : HALVES_VIEW_RAW;
	return 4 + (list < raw ? list : raw);
}

static void halves_put_view(unsigned char *q, const struct halves *hv, uint32_t encoding,
			    size_t changed)
{
	put_u32le(q, encoding);
	q += 4;
	if (encoding == HALVES_VIEW_RAW) {
		halves_put_map(q, hv->view, hv->cells);
		return;
	}
	put_u64le(q, (uint64_t)changed);
	q += 8;
	for (size_t c = 0; c < hv->cells; c++)
		if (!halves_same_bits(hv->view[c], hv->base[c])) {
			put_u32le(q, (uint32_t)c);
			put_f32le(q + 4, hv->view[c]);
			q += 8;
		}
}

int halves_save(const struct halves *hv, const struct lockstep *a, unsigned char **data,
		size_t *len)
{
	if (!hv->started)
		return GULLY_EINVAL;
	unsigned char *ba = NULL, *bb = NULL;
	size_t la = 0, lb = 0;
	int err = lockstep_save(a, &ba, &la);
	if (!err)
		err = lockstep_save(hv->b, &bb, &lb);
	uint32_t encoding;
	const size_t changed = halves_view_changed(hv);
	const size_t size = HALVES_HEAD + 16 + la + lb + HALVES_MID + 4 * hv->cells +
			    halves_view_bytes(hv, changed, &encoding);
	unsigned char *p = err ? NULL : malloc(size);
	if (!err && !p)
		err = GULLY_ENOMEM;
	if (!err) {
		put_u32le(p, HALVES_MAGIC);
		put_u32le(p + 4, HALVES_VERSION);
		put_u32le(p + 8, (uint32_t)hv->width);
		put_u32le(p + 12, (uint32_t)hv->height);
		unsigned char *q = halves_put_blob(p + HALVES_HEAD, ba, la);
		q = halves_put_blob(q, bb, lb);
		put_u64le(q, hv->released);
		put_u64le(q + 8, hv->rng.state);
		put_u64le(q + 16, hv->rng.inc);
		q += 24;
		for (int k = 0; k < HALVES_BOOKS; k++, q += 8)
			put_f64le(q, hv->tally[k]);
		put_f64le(q, hv->soil0);
		q = halves_put_map(q + 8, hv->base, hv->cells);
		halves_put_view(q, hv, encoding, changed);
		*data = p;
		*len = size;
	}
	free(ba);
	free(bb);
	return err;
}

/* A lockstep blob at q (u64 length first), checked by loading it into
 * `into`; *next is past it. */
static int halves_get_blob(const unsigned char *q, const unsigned char *end, struct lockstep *into,
			   const unsigned char **next)
{
	if (end - q < 8)
		return GULLY_EFORMAT;
	const uint64_t n = get_u64le(q);
	if (n > (uint64_t)(end - q - 8))
		return GULLY_EFORMAT;
	*next = q + 8 + n;
	return lockstep_load(into, q + 8, (size_t)n);
}

static int halves_get_map(const unsigned char *q, float *map, size_t cells)
{
	for (size_t c = 0; c < cells; c++, q += 4) {
		const float v = get_f32le(q);
		if (!(fabsf(v) <= WORLD_HEIGHT_LIMIT))
			return GULLY_EFORMAT;
		map[c] = v;
	}
	return GULLY_OK;
}

/* B's view at q (version 2: its encoding first), the base already read;
 * exactly `len` bytes. A changed cell must be on the map and after the one
 * before it. */
static int halves_get_view(const unsigned char *q, size_t len, struct halves *into)
{
	if (len < 4)
		return GULLY_EFORMAT;
	const uint32_t encoding = get_u32le(q);
	q += 4;
	len -= 4;
	if (encoding == HALVES_VIEW_RAW)
		return len == 4 * into->cells ? halves_get_map(q, into->view, into->cells)
					      : GULLY_EFORMAT;
	if (encoding != HALVES_VIEW_CHANGED || len < 8)
		return GULLY_EFORMAT;
	const uint64_t k = get_u64le(q);
	q += 8;
	if (k > into->cells || len - 8 != 8 * k)
		return GULLY_EFORMAT;
	memcpy(into->view, into->base, into->cells * sizeof(float));
	for (uint64_t i = 0, next = 0; i < k; i++, q += 8) {
		const uint32_t c = get_u32le(q);
		const float v = get_f32le(q + 4);
		if (c < next || c >= into->cells || !(fabsf(v) <= WORLD_HEIGHT_LIMIT))
			return GULLY_EFORMAT;
		into->view[c] = v;
		next = (uint64_t)c + 1;
	}
	return GULLY_OK;
}

/* The blob's fields after the lockstep blobs, into a halves of the same
 * size that is not yet the live one. */
static int halves_get_rest(struct halves *into, const unsigned char *q, const unsigned char *end,
			   uint32_t version)
{
	const size_t left = (size_t)(end - q), maps = HALVES_MID + 4 * into->cells;
	if (version == 1 ? left != maps + 4 * into->cells : left < maps)
		return GULLY_EFORMAT;
	into->released = get_u64le(q);
	into->rng.state = get_u64le(q + 8);
	into->rng.inc = get_u64le(q + 16);
	q += 24;
	for (int k = 0; k < HALVES_BOOKS; k++, q += 8)
		into->tally[k] = get_f64le(q);
	into->soil0 = get_f64le(q);
	q += 8;
	/* Books an epoch can make: finite, and no larger than a tally can
	 * take at the merge (WORLD_BOOK_LIMIT). */
	for (int k = 0; k < HALVES_BOOKS; k++)
		if (!(fabs(into->tally[k]) <= WORLD_BOOK_LIMIT))
			return GULLY_EFORMAT;
	if (!isfinite(into->soil0) || !(into->rng.inc & 1u))
		return GULLY_EFORMAT;
	int err = halves_alloc_views(into);
	if (!err)
		err = halves_get_map(q, into->base, into->cells);
	if (!err && version == 1)
		err = halves_get_map(q + 4 * into->cells, into->view, into->cells);
	else if (!err)
		err = halves_get_view(q + 4 * into->cells, left - maps, into);
	return err;
}

int halves_load(struct halves *hv, struct lockstep *a, const unsigned char *data, size_t len)
{
	if (!halves_is_blob(data, len) || len < HALVES_HEAD)
		return GULLY_EFORMAT;
	const uint32_t version = get_u32le(data + 4);
	if (version < 1 || version > HALVES_VERSION)
		return GULLY_EVERSION;
	if (get_u32le(data + 8) != (uint32_t)hv->width || get_u32le(data + 12) != (uint32_t)hv->height)
		return GULLY_EFORMAT;
	struct halves *tmp = halves_create(hv->width, hv->height);
	struct lockstep *ta = lockstep_create(hv->width, hv->height);
	int err = tmp && ta ? GULLY_OK : GULLY_ENOMEM;
	const unsigned char *end = data + len, *q = data + HALVES_HEAD;
	if (!err)
		err = halves_get_blob(q, end, ta, &q);
	if (!err)
		err = halves_get_blob(q, end, tmp->b, &q);
	if (!err)
		err = halves_get_rest(tmp, q, end, version);
	if (!err) {
		/* Everything checked: the same blobs load into the live engines. */
		q = data + HALVES_HEAD;
		halves_get_blob(q, end, a, &q);
		halves_get_blob(q, end, hv->b, &q);
		halves_free_views(hv);
		hv->base = tmp->base;
		hv->view = tmp->view;
		tmp->base = tmp->view = NULL;
		hv->released = tmp->released;
		hv->rng = tmp->rng;
		memcpy(hv->tally, tmp->tally, sizeof hv->tally);
		hv->soil0 = tmp->soil0;
		lockstep_set_isa(hv->b, lockstep_isa(a));
		hv->started = true;
	}
	lockstep_destroy(ta);
	halves_destroy(tmp);
	return err;
}
