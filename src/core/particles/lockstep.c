/* Droplets in lockstep (lockstep.h has the semantics). This file holds the
 * state, refill, the write and end phases, the books, the state blob, and the
 * portable read phase (droplet_advance slot by slot) that defines the
 * reference; the SIMD read phases (lockstep_simd.h) are the same operations
 * on the same values in the same order, so all give the same bits (IEEE add,
 * multiply, divide and sqrt per lane are exactly rounded; no FMA: the core
 * library is built with -ffp-contract=off). */
#include "core/particles/lockstep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/bytes.h"
#include "core/base/cpu.h"
#include "core/base/error.h"
#include "core/base/workers.h"
#include "core/particles/lockstep_impl.h"

/* ---- state ------------------------------------------------------------ */

static void lockstep_clear_slot(struct lockstep *pl, int i)
{
	/* Harmless values for a slot nobody uses: the vector copies compute on
	 * every lane and throw away what empty ones give. */
	pl->x[i] = pl->y[i] = 1.5f;
	pl->vx[i] = pl->vy[i] = 0.0f;
	pl->volume[i] = 1.0f;
	pl->sediment[i] = 0.0f;
	pl->left[i] = pl->left0[i] = pl->age0[i] = 0;
	pl->carried[i] = 0;
	pl->delta[i] = 0;
	pl->wat[i] = 0;
	pl->before[i] = 0;
}

struct lockstep *lockstep_create(int width, int height)
{
	struct lockstep *pl = calloc(1, sizeof *pl);
	if (!pl)
		return NULL;
	pl->width = width;
	pl->height = height;
	for (int i = 0; i < LOCKSTEP_MAX_LANES; i++)
		lockstep_clear_slot(pl, i);
	lockstep_set_isa(pl, LOCKSTEP_ISA_AUTO);
	return pl;
}

void lockstep_clear(struct lockstep *pl)
{
	for (int i = 0; i < LOCKSTEP_MAX_LANES; i++)
		lockstep_clear_slot(pl, i);
	pl->active = 0;
	pl->counted = false;
}

void lockstep_destroy(struct lockstep *pl)
{
	free(pl);
}

int lockstep_in_flight(const struct lockstep *pl)
{
	return bits_count64(pl->active);
}

double lockstep_soil_in_flight(const struct lockstep *pl)
{
	double soil = 0;
	for (uint64_t a = pl->active; a; a &= a - 1)
		soil += pl->carried[bits_ctz64(a)];
	return soil;
}

static uint32_t lockstep_age(const struct lockstep *pl, int i)
{
	return pl->age0[i] + (pl->left0[i] - pl->left[i]);
}

/* The step counts under the current parameters. A droplet's volume only
 * shrinks by keep_volume, so counting again from its volume and age gives
 * exactly what it had left when nothing changed (the split of a run into
 * calls changes nothing), and follows a changed evap_rate, min_volume or
 * max_steps when something did. */
static void lockstep_count(struct lockstep *pl, const struct droplet_env *e)
{
	if (pl->counted && pl->keep_volume == e->keep_volume && pl->min_volume == e->min_volume &&
	    pl->max_steps == e->max_steps)
		return;
	for (uint64_t a = pl->active; a; a &= a - 1) {
		const int i = bits_ctz64(a);
		const uint32_t age = lockstep_age(pl, i);
		const uint32_t cap = age < e->max_steps ? e->max_steps - age : 0;
		const uint32_t dry =
			droplet_dry_steps(pl->volume[i], e->keep_volume, e->min_volume, cap);
		pl->left[i] = pl->left0[i] = dry < cap ? dry : cap;
		pl->age0[i] = age;
	}
	pl->counted = true;
	pl->keep_volume = e->keep_volume;
	pl->min_volume = e->min_volume;
	pl->max_steps = e->max_steps;
}

static void lockstep_spawn(struct lockstep *pl, struct world *w, const struct droplet_env *e, int i)
{
	struct droplet d;
	droplet_spawn(w, &d);
	pl->x[i] = d.x;
	pl->y[i] = d.y;
	pl->vx[i] = pl->vy[i] = 0.0f;
	pl->volume[i] = 1.0f;
	pl->sediment[i] = 0.0f;
	pl->carried[i] = 0;
	pl->age0[i] = 0;
	pl->left[i] = pl->left0[i] = e->dry_steps1;
	pl->active |= (uint64_t)1 << i;
}

/* ---- the phases every copy shares ------------------------------------- */

/* The write phase, part one: h[wat[i]] -= delta[i] in slot order (a
 * read-modify-write, so two droplets on one cell both count), keeping the
 * height each found. */
static void lockstep_write(struct lockstep *pl, float *h, int n)
{
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
	for (int i = 0; i < n; i++) {
		float *c = h + pl->wat[i];
		const float before = *c;
		*c = before - pl->delta[i];
		pl->before[i] = before;
	}
}

/* Part two, the books: each change as the float heights took it (two
 * floats' difference is exact in double), d = before - after, to the
 * droplet's carried soil, and to eroded (e = max(d, 0)) and deposited
 * (q = max(-d, 0)) in one fixed order whatever the vector width: slot i adds
 * to partial sum i mod 4, slots in order, and the tick adds
 * (v0 + v1) + (v2 + v3) to the running total. Slots past n count 0. */
static void lockstep_books_scalar(struct lockstep *pl, int n, struct lockstep_books *b)
{
	double ve[4] = {0, 0, 0, 0}, vq[4] = {0, 0, 0, 0};
	for (int i = 0; i < n; i++) {
		const float after = pl->before[i] - pl->delta[i];
		const double d = (double)pl->before[i] - (double)after;
		const double nd = (double)after - (double)pl->before[i];
		ve[i % 4] += d > 0 ? d : 0.0;
		vq[i % 4] += nd > 0 ? nd : 0.0;
		pl->carried[i] += d;
	}
	b->eroded += (ve[0] + ve[1]) + (ve[2] + ve[3]);
	b->deposited += (vq[0] + vq[1]) + (vq[2] + vq[3]);
}

/* A droplet's end, droplet_finish's: deposit on death, and what it carried
 * off the map on the books. */
static void lockstep_end_one(struct lockstep *pl, const struct droplet_env *e, int i,
			     struct lockstep_books *b)
{
	struct droplet_walk l = {0};
	l.pos = v2_make(pl->x[i], pl->y[i]);
	l.left_map = (v2_where(l.pos, &e->bounds) & V2_ON_MAP) != V2_ON_MAP;
	l.tally = d2_make(0, 0);
	l.carried0 = pl->carried[i];
	struct droplet_books db;
	droplet_finish(&l, e, &db);
	b->eroded += db.eroded;
	b->deposited += db.deposited;
	b->off_map += db.off_map;
	pl->active &= ~((uint64_t)1 << i);
	lockstep_clear_slot(pl, i);
}

static void lockstep_end(struct lockstep *pl, const struct droplet_env *e, uint64_t ended,
			 struct lockstep_books *b)
{
	for (; ended; ended &= ended - 1)
		lockstep_end_one(pl, e, bits_ctz64(ended), b);
}

/* Slots a tick must cover: every slot below `lanes`, and any higher one still
 * holding a droplet. */
static int lockstep_span(uint64_t active, int lanes)
{
	const int top = bits_width64(active);
	return top > lanes ? top : lanes;
}

/* ---- the read phase: portable reference -------------------------------- */

/* One slot's read half: droplet_advance on the droplet it holds. */
static uint64_t lockstep_read_one(struct lockstep *pl, const struct droplet_env *e, int i,
				  uint64_t *steps)
{
	const uint64_t bit = (uint64_t)1 << i;
	pl->delta[i] = 0.0f;
	pl->wat[i] = 0;
	if (!(pl->active & bit))
		return 0;
	if (pl->left[i] == 0)
		return bit;
	/* A droplet in a slot is on the map: it ends the tick it leaves. */
	struct droplet_walk l = {0};
	l.pos = v2_make(pl->x[i], pl->y[i]);
	l.vel = v2_make(pl->vx[i], pl->vy[i]);
	l.volume = pl->volume[i];
	l.sediment = pl->sediment[i];
	l.left = pl->left[i];
	l.at = v2_cell(l.pos, e->stride);
	l.interior = v2_where(l.pos, &e->bounds) == V2_INTERIOR;
	struct droplet_change c;
	const enum droplet_result r = droplet_advance(&l, e, &c);
	pl->x[i] = v2_x(l.pos);
	pl->y[i] = v2_y(l.pos);
	pl->vx[i] = v2_x(l.vel);
	pl->vy[i] = v2_y(l.vel);
	pl->volume[i] = l.volume;
	pl->sediment[i] = l.sediment;
	pl->left[i] = l.left;
	pl->delta[i] = c.delta;
	pl->wat[i] = c.at;
	(*steps)++;
	return r == DROPLET_ENDED || l.left == 0 ? bit : 0;
}

static struct lockstep_tick lockstep_read_scalar(struct lockstep *pl, const struct droplet_env *e,
						 int begin, int end)
{
	struct lockstep_tick t = {0, 0};
	for (int i = begin; i < end; i++)
		t.ended |= lockstep_read_one(pl, e, i, &t.steps);
	return t;
}

/* ---- the loop ----------------------------------------------------------- */

/* The copy of the read phase and books that pl->isa names, and its width. */
struct lockstep_copy {
	lockstep_read_fn read;
	lockstep_books_fn books;
	int width;
};

static struct lockstep_copy lockstep_copy_of(enum lockstep_isa isa)
{
#if LOCKSTEP_HAVE_SIMD
	if (isa == LOCKSTEP_ISA_AVX2)
		return (struct lockstep_copy){lockstep_read_avx2, lockstep_books_avx2, 8};
	if (isa == LOCKSTEP_ISA_SSE2)
		return (struct lockstep_copy){lockstep_read_sse2, lockstep_books_sse2, 4};
#else
	(void)isa;
#endif
	return (struct lockstep_copy){lockstep_read_scalar, lockstep_books_scalar, 1};
}

void lockstep_set_workers(struct lockstep *pl, struct workers *w)
{
	pl->workers = w;
}

/* One tick's read phase shared out: worker i takes a contiguous run of whole
 * vectors (workers_share), and the parts' outcomes combine by OR and sum,
 * which do not depend on the order. */
struct lockstep_split {
	struct lockstep *pl;
	const struct droplet_env *e;
	lockstep_read_fn read;
	int width, groups;
	struct lockstep_tick part[WORKERS_MAX];
};

static void lockstep_read_part(void *arg, int index, int count)
{
	struct lockstep_split *s = arg;
	long begin, end;
	workers_share(s->groups, index, count, &begin, &end);
	s->part[index] = s->read(s->pl, s->e, (int)begin * s->width, (int)end * s->width);
}

static struct lockstep_tick lockstep_read(struct lockstep *pl, const struct droplet_env *e,
					  const struct lockstep_copy *copy, int n)
{
	const int count = workers_count(pl->workers);
	if (count < 2)
		return copy->read(pl, e, 0, n);
	struct lockstep_split s = {pl, e, copy->read, copy->width, n / copy->width, {{0, 0}}};
	workers_run(pl->workers, lockstep_read_part, &s);
	struct lockstep_tick t = {0, 0};
	for (int i = 0; i < count; i++) {
		t.ended |= s.part[i].ended;
		t.steps += s.part[i].steps;
	}
	return t;
}

/* Refill, then ticks, until `budget` droplets are released (refill_ok) or
 * none is left in flight (!refill_ok: drain). */
static uint64_t lockstep_loop(struct lockstep *pl, struct world *w, const struct droplet_env *e,
			      int lanes, uint64_t budget, bool refill_ok, struct lockstep_books *b)
{
	const struct lockstep_copy copy = lockstep_copy_of(pl->isa);
	uint64_t released = 0, steps = 0;
	const uint64_t mine = lanes >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << lanes) - 1;
	for (;;) {
		if (refill_ok) {
			for (uint64_t empty = mine & ~pl->active; empty; empty &= empty - 1) {
				lockstep_spawn(pl, w, e, bits_ctz64(empty));
				if (++released == budget)
					return steps;
			}
		} else if (!pl->active) {
			return steps;
		}
		const int span = lockstep_span(pl->active, refill_ok ? lanes : 0);
		const int n = (span + copy.width - 1) / copy.width * copy.width;
		const struct lockstep_tick t = lockstep_read(pl, e, &copy, n);
		lockstep_write(pl, e->h, n);
		copy.books(pl, n, b);
		steps += t.steps;
		if (t.ended)
			lockstep_end(pl, e, t.ended, b);
	}
}

static bool lockstep_isa_supported(enum lockstep_isa isa)
{
	switch (isa) {
	case LOCKSTEP_ISA_AUTO:
	case LOCKSTEP_ISA_SCALAR:
		return true;
	case LOCKSTEP_ISA_SSE2:
		return LOCKSTEP_HAVE_SIMD;
	case LOCKSTEP_ISA_AVX2:
#if LOCKSTEP_HAVE_SIMD
		return cpu_has_avx2();
#else
		return false;
#endif
	}
	return false;
}

bool lockstep_set_isa(struct lockstep *pl, enum lockstep_isa isa)
{
	if (!lockstep_isa_supported(isa))
		return false;
	if (isa == LOCKSTEP_ISA_AUTO)
		isa = lockstep_isa_supported(LOCKSTEP_ISA_AVX2)   ? LOCKSTEP_ISA_AVX2
		      : lockstep_isa_supported(LOCKSTEP_ISA_SSE2) ? LOCKSTEP_ISA_SSE2
								  : LOCKSTEP_ISA_SCALAR;
	pl->isa = isa;
	return true;
}

enum lockstep_isa lockstep_isa(const struct lockstep *pl)
{
	return pl->isa;
}

const char *lockstep_isa_name(const struct lockstep *pl)
{
	return pl->isa == LOCKSTEP_ISA_AVX2 ? "avx2" : pl->isa == LOCKSTEP_ISA_SSE2 ? "sse2" : "scalar";
}

static void lockstep_constants(struct lockstep *pl, const struct droplet_env *e)
{
	normal_consts8_init(&pl->nk8, &e->nk);
	for (int j = 0; j < 8; j++) {
		float *k[LOCKSTEP_K_COUNT];
		for (int i = 0; i < LOCKSTEP_K_COUNT; i++)
			k[i] = &pl->kv[i][j];
		*k[K_ONE] = 1.0f;
		*k[K_FW] = (float)e->width;
		*k[K_FH] = (float)e->height;
		*k[K_FW1] = (float)e->width - 1.0f;
		*k[K_FH1] = (float)e->height - 1.0f;
		*k[K_DT] = e->dt;
		*k[K_KEEP] = e->keep_speed;
		*k[K_DENSITY] = e->density;
		*k[K_RATE] = e->rate;
		*k[K_KEEP_VOLUME] = e->keep_volume;
		*k[K_HARDNESS] = e->hardness;
		pl->ki[KI_WMUL][j] = (int32_t)(e->stride << 16 | 1u);
		pl->ki[KI_SAFE][j] = (int32_t)e->stride + 1;
		pl->ki[KI_BITS][j] = 1 << j;
	}
}

static int lockstep_go(struct lockstep *pl, struct world *w, const struct droplet_params *dp,
		       int lanes, uint64_t budget, bool refill_ok, uint64_t *steps)
{
	if (w->width != pl->width || w->height != pl->height)
		return GULLY_EINVAL;
	struct droplet_env e;
	droplet_env_init(&e, w, dp);
	lockstep_constants(pl, &e);
	lockstep_count(pl, &e);
	struct lockstep_books b = {w->tally[TALLY_ERODED], w->tally[TALLY_DEPOSITED],
				   w->tally[TALLY_SEDIMENT_OFF_MAP]};
	*steps += lockstep_loop(pl, w, &e, lanes, budget, refill_ok, &b);
	w->tally[TALLY_ERODED] = b.eroded;
	w->tally[TALLY_DEPOSITED] = b.deposited;
	w->tally[TALLY_SEDIMENT_OFF_MAP] = b.off_map;
	w->tally[TALLY_SEDIMENT_IN_FLIGHT] = lockstep_soil_in_flight(pl);
	return GULLY_OK;
}

int lockstep_run(struct lockstep *pl, struct world *w, const struct droplet_params *dp, int lanes,
		 uint64_t budget, uint64_t *steps)
{
	if (lanes < 1 || lanes > LOCKSTEP_MAX_LANES)
		return GULLY_EINVAL;
	if (budget == 0)
		return GULLY_OK;
	return lockstep_go(pl, w, dp, lanes, budget, true, steps);
}

int lockstep_drain(struct lockstep *pl, struct world *w, const struct droplet_params *dp,
		   uint64_t *steps)
{
	return lockstep_go(pl, w, dp, 0, 0, false, steps);
}

/* ---- the blob --------------------------------------------------------- */

#define BLOB_MAGIC 0x4e4c5047u /* "GPLN" read as a little-endian u32 */
#define BLOB_VERSION 1u
#define BLOB_HEADER 24u
#define BLOB_SLOT 36u

int lockstep_save(const struct lockstep *pl, unsigned char **data, size_t *len)
{
	const size_t n = (size_t)lockstep_in_flight(pl);
	const size_t size = BLOB_HEADER + n * BLOB_SLOT;
	unsigned char *p = malloc(size);
	if (!p)
		return GULLY_ENOMEM;
	put_u32le(p, BLOB_MAGIC);
	put_u32le(p + 4, BLOB_VERSION);
	put_u32le(p + 8, (uint32_t)pl->width);
	put_u32le(p + 12, (uint32_t)pl->height);
	put_u64le(p + 16, pl->active);
	unsigned char *q = p + BLOB_HEADER;
	for (uint64_t a = pl->active; a; a &= a - 1, q += BLOB_SLOT) {
		const int i = bits_ctz64(a);
		const float f[6] = {pl->x[i], pl->y[i], pl->vx[i], pl->vy[i], pl->volume[i],
				    pl->sediment[i]};
		for (int k = 0; k < 6; k++)
			put_f32le(q + 4 * k, f[k]);
		put_f64le(q + 24, pl->carried[i]);
		put_u32le(q + 32, lockstep_age(pl, i));
	}
	*data = p;
	*len = size;
	return GULLY_OK;
}

/* A loaded droplet's speed is held to WORLD_SPEED_LIMIT, and no droplet
 * carries more soil than the height range holds: finite values beyond these
 * overflow its next steps' float arithmetic (fuzz_resume found a sediment
 * of 1.8e25, soil 7e223, that turned heights to inf). */

int lockstep_load(struct lockstep *pl, const unsigned char *data, size_t len)
{
	if (!data || len < BLOB_HEADER || get_u32le(data) != BLOB_MAGIC)
		return GULLY_EFORMAT;
	if (get_u32le(data + 4) != BLOB_VERSION)
		return GULLY_EVERSION;
	if (get_u32le(data + 8) != (uint32_t)pl->width || get_u32le(data + 12) != (uint32_t)pl->height)
		return GULLY_EFORMAT;
	const uint64_t active = get_u64le(data + 16);
	size_t n = 0;
	for (uint64_t a = active; a; a &= a - 1)
		n++;
	if (len != BLOB_HEADER + n * BLOB_SLOT)
		return GULLY_EFORMAT;
	/* Check every droplet before changing anything: finite, on the map, a
	 * volume a droplet can have. */
	const float fw = (float)pl->width, fh = (float)pl->height;
	const unsigned char *q = data + BLOB_HEADER;
	for (size_t s = 0; s < n; s++, q += BLOB_SLOT) {
		float f[6];
		for (int k = 0; k < 6; k++) {
			f[k] = get_f32le(q + 4 * k);
			if (!isfinite(f[k]))
				return GULLY_EFORMAT;
		}
		const double soil = get_f64le(q + 24);
		if (!(0.0f <= f[0] && f[0] < fw && 0.0f <= f[1] && f[1] < fh) ||
		    !(f[4] > 0.0f && f[4] <= 1.0f) || !(fabsf(f[2]) <= WORLD_SPEED_LIMIT) ||
		    !(fabsf(f[3]) <= WORLD_SPEED_LIMIT) || !(fabsf(f[5]) <= WORLD_HEIGHT_LIMIT) ||
		    !(fabs(soil) <= WORLD_HEIGHT_LIMIT))
			return GULLY_EFORMAT;
	}
	for (int i = 0; i < LOCKSTEP_MAX_LANES; i++)
		lockstep_clear_slot(pl, i);
	q = data + BLOB_HEADER;
	for (uint64_t a = active; a; a &= a - 1, q += BLOB_SLOT) {
		const int i = bits_ctz64(a);
		pl->x[i] = get_f32le(q);
		pl->y[i] = get_f32le(q + 4);
		pl->vx[i] = get_f32le(q + 8);
		pl->vy[i] = get_f32le(q + 12);
		pl->volume[i] = get_f32le(q + 16);
		pl->sediment[i] = get_f32le(q + 20);
		pl->carried[i] = get_f64le(q + 24);
		pl->age0[i] = get_u32le(q + 32);
		pl->left[i] = pl->left0[i] = 0;
	}
	pl->active = active;
	/* The step counts come from volume and age under the next call's
	 * parameters. */
	pl->counted = false;
	return GULLY_OK;
}
