/* The snapshot blob: everything a step reads that the world's layers do not
 * hold, so a resumed run continues bit for bit. Little-endian:
 *   "GSP2", u32 width, height, n, next_id, i32 capacity_q, wx0, wy0, wx1, wy1,
 *   u32 draws_water (0/1),
 *   u64 steps, f64 time, dt, vmax, amax, emit_carry[SPH_JETS + 1],
 *   i64 books (BOOKS of them), then per particle f32 x y z vx vy vz, i64 mud,
 *   u32 id, u8 grounded; then u32 the count of cells whose soil ledger is
 *   not zero, each as u32 index, f32 h0, i64 soil (by index); then for each
 *   cell of the wet box, row by row, i32 water[5].
 * A cell whose ledger is zero stands at its h0 (sph_terrain_add writes h0
 * plus the ledger), so the height a new state copies from the world is its
 * h0; outside the wet box the soil holds no water. A 4096x4096 soil takes a
 * few kilobytes, not 537 MB. "GSP1" blobs (every cell's h0, soil and water)
 * still load. */
#include "core/sph/sph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/bytes.h"
#include "core/base/error.h"

#define MAGIC "GSP2"
#define MAGIC_DENSE "GSP1"
#define BOOKS 10
#define HEADS 10
#define HEADER (4 + HEADS * 4 + 8 + 8 * (4 + SPH_JETS + 1) + 8 * BOOKS)
#define PARTICLE (6 * 4 + 8 + 4 + 1)
#define CELL (4 + 8 + SPH_PORES * 4)  /* GSP1 */
#define LEDGER (4 + 4 + 8)            /* GSP2: a cell whose soil moved */
#define WATER (SPH_PORES * 4)         /* GSP2: a cell of the wet box */

/* A blob's int64 counts are held to what a run's sums can add to without
 * overflowing (signed overflow is undefined): a book or a cell's soil
 * ledger to half the int64 range (a cell moved by WORLD_HEIGHT_LIMIT on
 * the tallest vertical scale, 10^9 cells^3 in quanta of 2^-32, is under
 * it), a
 * particle's mud to 2^40, 256 times the largest mud_cap (sph.mud_max 0.9
 * of a spacing of 1 is under 2^32), so all SPH_CAPACITY_LIMIT particles'
 * mud sums to under 2^59. */
#define COUNT_LIMIT ((int64_t)1 << 62)
#define MUD_LIMIT ((int64_t)1 << 40)

static bool count_ok(int64_t v)
{
	return v >= -COUNT_LIMIT && v <= COUNT_LIMIT;
}

/* A cell's height when the state was made: one the world's layer can hold. */
static bool h0_ok(float h0)
{
	return h0 >= -WORLD_HEIGHT_LIMIT && h0 <= WORLD_HEIGHT_LIMIT; /* NaN fails */
}

struct cursor {
	unsigned char *w;
	const unsigned char *r;
};

/* A cursor over the blob, on base/bytes.h's byte order. */
static void put(struct cursor *c, uint64_t v, int bytes)
{
	if (bytes == 8)
		put_u64le(c->w, v);
	else if (bytes == 4)
		put_u32le(c->w, (uint32_t)v);
	else
		*c->w = (unsigned char)v;
	c->w += bytes;
}

static uint64_t get(struct cursor *c, int bytes)
{
	uint64_t v = bytes == 8 ? get_u64le(c->r) : bytes == 4 ? get_u32le(c->r) : *c->r;
	c->r += bytes;
	return v;
}

static void put_f64(struct cursor *c, double d)
{
	put_f64le(c->w, d);
	c->w += 8;
}

static double get_f64(struct cursor *c)
{
	double d = get_f64le(c->r);
	c->r += 8;
	return d;
}

static void put_f32(struct cursor *c, float f)
{
	put_f32le(c->w, f);
	c->w += 4;
}

static float get_f32(struct cursor *c)
{
	float f = get_f32le(c->r);
	c->r += 4;
	return f;
}

static int64_t *book(struct sph_books *b, int k)
{
	int64_t *all[BOOKS] = {&b->water_emitted, &b->water_refused, &b->water_off_map,
			       &b->water_dried,   &b->soil_terrain,  &b->soil_off_map,
			       &b->splash,        &b->scour,         &b->deposited,
			       &b->absorbed};
	return all[k];
}

static size_t box_cells(const struct sph_box *b)
{
	return b->x1 < b->x0 ? 0 : (size_t)(b->x1 - b->x0 + 1) * (size_t)(b->y1 - b->y0 + 1);
}

int sph_save(const struct sph *s, unsigned char **data, size_t *len)
{
	if (s->unsettled)
		return GULLY_EINVAL; /* sph_run and sph_step settle before they return */
	size_t cells = (size_t)s->width * (size_t)s->height, moved = 0;
	for (size_t i = 0; i < cells; i++)
		moved += s->soil[i] != 0;
	size_t n = HEADER + (size_t)s->n * PARTICLE + 4 + moved * LEDGER + box_cells(&s->wet) * WATER;
	unsigned char *b = malloc(n);
	if (!b)
		return GULLY_ENOMEM;
	struct cursor c = {.w = b};
	memcpy(c.w, MAGIC, 4);
	c.w += 4;
	const int32_t head[HEADS] = {s->width, s->height, s->n, (int32_t)s->next_id, s->capacity_q,
				     s->wet.x0, s->wet.y0, s->wet.x1, s->wet.y1, s->draws_water};
	for (int k = 0; k < HEADS; k++)
		put(&c, (uint32_t)head[k], 4);
	put(&c, s->steps, 8);
	const double f[4] = {s->time, s->dt, s->vmax, s->amax};
	for (int k = 0; k < 4; k++)
		put_f64(&c, f[k]);
	for (int k = 0; k <= SPH_JETS; k++)
		put_f64(&c, s->emit_carry[k]);
	struct sph_books books = s->books;
	for (int k = 0; k < BOOKS; k++)
		put(&c, (uint64_t)*book(&books, k), 8);
	for (int i = 0; i < s->n; i++) {
		const float v[6] = {s->p.x[i], s->p.y[i], s->p.z[i], s->p.vx[i], s->p.vy[i], s->p.vz[i]};
		for (int k = 0; k < 6; k++)
			put_f32(&c, v[k]);
		put(&c, (uint64_t)s->p.mud[i], 8);
		put(&c, s->p.id[i], 4);
		put(&c, s->p.grounded[i], 1);
	}
	put(&c, moved, 4);
	for (size_t i = 0; i < cells; i++)
		if (s->soil[i]) {
			put(&c, i, 4);
			put_f32(&c, s->h0[i]);
			put(&c, (uint64_t)s->soil[i], 8);
		}
	for (int y = s->wet.y0; y <= s->wet.y1 && s->wet.x0 <= s->wet.x1; y++)
		for (int x = s->wet.x0; x <= s->wet.x1; x++)
			for (int k = 0; k < SPH_PORES; k++)
				put(&c, (uint32_t)s->water[((size_t)y * (size_t)s->width + (size_t)x) *
							       SPH_PORES + (size_t)k], 4);
	*data = b;
	*len = n;
	return GULLY_OK;
}

static bool particles_load(struct sph *s, struct cursor *c, int n)
{
	for (int i = 0; i < n; i++) {
		float v[6];
		for (int k = 0; k < 6; k++) {
			v[k] = get_f32(c);
			if (!isfinite(v[k]) || fabsf(v[k]) > 1e6f)
				return false;
		}
		s->p.x[i] = v[0];
		s->p.y[i] = v[1];
		s->p.z[i] = v[2];
		s->p.vx[i] = v[3];
		s->p.vy[i] = v[4];
		s->p.vz[i] = v[5];
		s->p.mud[i] = (int64_t)get(c, 8);
		s->p.id[i] = (uint32_t)get(c, 4);
		s->p.grounded[i] = (uint8_t)get(c, 1);
		if (s->p.mud[i] < 0 || s->p.mud[i] > MUD_LIMIT || s->p.grounded[i] > 1)
			return false;
	}
	return true;
}

static bool in_box(const struct sph_box *b, int x, int y)
{
	return x >= b->x0 && x <= b->x1 && y >= b->y0 && y <= b->y1;
}

static bool water_ok(const struct sph *s, int32_t q)
{
	return q >= 0 && q <= s->capacity_q;
}

/* GSP2: the cells whose ledger moved, by index, then the wet box's water,
 * into a state as sph_create made it (every other cell's h0 is the world's
 * height, its soil and water zero). */
static bool sparse_load(struct sph *s, struct cursor *c, size_t cells)
{
	size_t moved = (size_t)get(c, 4), next = 0;
	for (size_t k = 0; k < moved; k++) {
		size_t i = (size_t)get(c, 4);
		float h0 = get_f32(c);
		int64_t soil = (int64_t)get(c, 8);
		if (i < next || i >= cells || !h0_ok(h0) || soil == 0 || !count_ok(soil))
			return false;
		s->h0[i] = h0;
		s->soil[i] = soil;
		next = i + 1;
	}
	for (int y = s->wet.y0; y <= s->wet.y1 && s->wet.x0 <= s->wet.x1; y++)
		for (int x = s->wet.x0; x <= s->wet.x1; x++)
			for (int k = 0; k < SPH_PORES; k++) {
				int32_t q = (int32_t)(uint32_t)get(c, 4);
				if (!water_ok(s, q))
					return false;
				s->water[((size_t)y * (size_t)s->width + (size_t)x) * SPH_PORES +
					 (size_t)k] = q;
			}
	return true;
}

/* GSP1: every cell. Water outside the wet box would never move or dry:
 * refused. */
static bool cells_load(struct sph *s, struct cursor *c, size_t cells)
{
	for (size_t i = 0; i < cells; i++) {
		s->h0[i] = get_f32(c);
		s->soil[i] = (int64_t)get(c, 8);
		if (!h0_ok(s->h0[i]) || !count_ok(s->soil[i]))
			return false;
		bool inside = in_box(&s->wet, (int)(i % (size_t)s->width), (int)(i / (size_t)s->width));
		for (int k = 0; k < SPH_PORES; k++) {
			int32_t q = (int32_t)(uint32_t)get(c, 4);
			if (!water_ok(s, q) || (q && !inside))
				return false;
			s->water[i * SPH_PORES + (size_t)k] = q;
		}
	}
	/* Darcy swaps the two buffers: the spare must hold no water. */
	memset(s->water_next, 0, cells * SPH_PORES * sizeof *s->water_next);
	return true;
}

/* The magic and the header's words, when the box lies on the map and the
 * blob's length is what its counts (particles; every cell, or the cells
 * whose ledger moved and the box's) make it; c is left after the words,
 * *dense says GSP1. */
static bool read_head(const unsigned char *data, size_t len, struct cursor *c,
		      int32_t head[HEADS], bool *dense)
{
	if (len < HEADER || (memcmp(data, MAGIC, 4) != 0 && memcmp(data, MAGIC_DENSE, 4) != 0))
		return false;
	*dense = memcmp(data, MAGIC_DENSE, 4) == 0;
	c->r = data + 4;
	for (int k = 0; k < HEADS; k++)
		head[k] = (int32_t)(uint32_t)get(c, 4);
	if (head[0] <= 0 || head[1] <= 0 || head[2] < 0 || head[2] > SPH_CAPACITY_LIMIT)
		return false;
	const struct sph_box box = {head[5], head[6], head[7], head[8]};
	if (box.x0 <= box.x1 && (box.x0 < 0 || box.y0 < 0 || box.x1 >= head[0] ||
				 box.y1 >= head[1] || box.y1 < box.y0))
		return false;
	uint64_t cells = (uint64_t)head[0] * (uint64_t)head[1];
	uint64_t at = HEADER + (uint64_t)head[2] * PARTICLE;
	if (*dense)
		return (uint64_t)len == at + cells * CELL;
	if ((uint64_t)len < at + 4)
		return false;
	uint64_t moved = get_u32le(data + at);
	return moved <= cells && (uint64_t)len == at + 4 + moved * LEDGER + box_cells(&box) * WATER;
}

/* A blob that does not fit this state (another map, a cut file, values out
 * of range) is refused whole; the state is then left as create made it only
 * if the header is refused, so callers drop the state on any error. */
int sph_load(struct sph *s, const unsigned char *data, size_t len)
{
	struct cursor c;
	int32_t head[HEADS];
	bool dense;
	size_t cells = (size_t)s->width * (size_t)s->height;
	if (!read_head(data, len, &c, head, &dense) || head[0] != s->width ||
	    head[1] != s->height || head[4] < SPH_PORES || head[9] < 0 || head[9] > 1)
		return GULLY_EFORMAT;
	if (!s->pristine)
		return GULLY_EINVAL; /* a sparse blob fills in a new state */
	s->pristine = false;
	if (sph_reserve(s, head[2] > 0 ? head[2] : 1))
		return GULLY_ENOMEM;
	s->steps = get(&c, 8);
	s->time = get_f64(&c);
	s->dt = get_f64(&c);
	s->vmax = get_f64(&c);
	s->amax = get_f64(&c);
	for (int k = 0; k <= SPH_JETS; k++)
		s->emit_carry[k] = get_f64(&c);
	if (!(s->dt > 0 && s->dt < 1 && isfinite(s->time) && isfinite(s->vmax) &&
	      isfinite(s->amax)))
		return GULLY_EFORMAT;
	for (int k = 0; k <= SPH_JETS; k++)
		if (!(s->emit_carry[k] >= 0 && s->emit_carry[k] < 1e6))
			return GULLY_EFORMAT;
	for (int k = 0; k < BOOKS; k++) {
		*book(&s->books, k) = (int64_t)get(&c, 8);
		if (!count_ok(*book(&s->books, k)))
			return GULLY_EFORMAT;
	}
	s->n = head[2];
	s->unsettled = false; /* a saved state is settled (sph_save) */
	s->dried_untallied = 0; /* and its tallies are whole */
	s->dying = 0;
	s->pre_n = 0;
	s->next_id = (uint32_t)head[3];
	/* The soil keeps the pores it was made with: sph.porosity, soil_depth
	 * and spacing size them only when a soil is made (sph_soil_create), as
	 * a running soil keeps them when the panel changes one. An undo or a
	 * snapshot run after such a change is the same soil, not a bad blob. */
	s->capacity_q = head[4];
	s->wet.x0 = head[5];
	s->wet.y0 = head[6];
	s->wet.x1 = head[7];
	s->wet.y1 = head[8];
	s->layer = s->wet; /* saved settled: the layer was written over the box */
	s->pool = (struct sph_box){0, 0, s->width - 1, s->height - 1};
	s->draws_water = head[9] != 0;
	if (!particles_load(s, &c, s->n) ||
	    !(dense ? cells_load(s, &c, cells) : sparse_load(s, &c, cells))) {
		s->n = 0;
		return GULLY_EFORMAT;
	}
	return GULLY_OK;
}

/* The totals from a blob's header alone, the particles and cells unread,
 * so a big map's snapshot needs no state made. The length must fit the
 * header's counts. */
int sph_blob_summary(const unsigned char *data, size_t len, struct sph_summary *out)
{
	struct cursor c;
	int32_t head[HEADS];
	bool dense;
	if (!read_head(data, len, &c, head, &dense))
		return GULLY_EFORMAT;
	memset(out, 0, sizeof *out);
	out->particles = head[2];
	out->released = (uint32_t)head[3];
	out->wet = (struct sph_box){head[5], head[6], head[7], head[8]};
	out->steps = get(&c, 8);
	out->time = get_f64(&c);
	c.r += 8 * (3 + SPH_JETS + 1); /* dt, vmax, amax, emit_carry */
	for (int k = 0; k < BOOKS; k++)
		*book(&out->books, k) = (int64_t)get(&c, 8);
	return GULLY_OK;
}

