/* Vegetation: trees spawn on dry, gentle ground off the streams, seed their
 * neighbours and die; their roots hold the soil (hydrology.c scales
 * deposition by them) and are drawn as the vegetation layer.
 *
 * The seed's model visits every tree after every batch: a 1-in-50 chance
 * to seed, 1-in-1000 to die, death in a pool or on a strong stream. Its
 * trees fill a map's gentle ground, so that visit grows with the map's
 * area (two million trees at 4096x4096, most of a run's time). Here each
 * tree draws the batch of its next seeding and of its death by chance from
 * the same chances (geometric waits), and acts only then; a stream can only
 * grow where droplets went, so the trees on the batch's visited cells are
 * checked after each batch, exactly as the seed checks them all; a pool
 * that rises over a tree is found at the tree's next event. Each tree's
 * draws come from its own generator, keyed by its birth serial and the
 * batch, and a batch's events run in birth order, so the run does not
 * depend on memory layout and resumes exactly from a snapshot. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/normal.h"
#include "core/base/rng.h"
#include "core/hydrology/hydrology.h"
#include "core/hydrology/hydrology_internal.h"

/* A wait that never ends (a chance of 0), far from overflowing a sum. */
#define TREE_NEVER ((uint64_t)1 << 62)

void hydro_root(struct hydro_state *s, int32_t cell, int sign)
{
	float *veg = s->w->layer[LAYER_VEGETATION];
	int x = cell % s->width, y = cell / s->width;
	for (int dy = -1; dy <= 1; dy++) {
		for (int dx = -1; dx <= 1; dx++) {
			int nx = x + dx, ny = y + dy;
			if (nx < 0 || ny < 0 || nx >= s->width || ny >= s->height)
				continue;
			int units = dx == 0 && dy == 0 ? ROOT_CENTRE
				    : dx == 0 || dy == 0 ? ROOT_SIDE : ROOT_DIAG;
			size_t c = (size_t)ny * (size_t)s->width + (size_t)nx;
			s->roots[c] = (uint8_t)(s->roots[c] + sign * units);
			veg[c] = (float)s->roots[c] * HYDROLOGY_ROOT_UNIT;
		}
	}
}

/* ---- lists and the wheel ----------------------------------------------- */

static int list_push(struct tree_list *l, uint64_t serial, uint32_t slot)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct tree_event *e = realloc(l->e, cap * sizeof *e);
		if (!e)
			return GULLY_ENOMEM;
		l->e = e;
		l->cap = cap;
	}
	l->e[l->n].serial = serial;
	l->e[l->n].slot = slot;
	l->n++;
	return GULLY_OK;
}

static uint64_t tree_next(const struct tree *t)
{
	return t->seed_at < t->die_at ? t->seed_at : t->die_at;
}

/* Files the tree's next event, due after the batch being ended (now). */
static int tree_schedule(struct forest *f, uint32_t slot)
{
	const struct tree *t = &f->trees[slot];
	uint64_t due = tree_next(t);
	struct tree_list *l = due - f->now < TREE_WHEEL ? &f->wheel[due % TREE_WHEEL] : &f->far;
	return list_push(l, t->serial, slot);
}

/* The wheel turns at the start of every TREE_WHEEL batches: the far events
 * of the coming ones move in. */
static int wheel_turn(struct forest *f)
{
	size_t j = 0;
	for (size_t i = 0; i < f->far.n; i++) {
		const struct tree_event e = f->far.e[i];
		const struct tree *t = &f->trees[e.slot];
		if (t->cell < 0 || t->serial != e.serial)
			continue;
		uint64_t due = tree_next(t);
		if (due - f->now < TREE_WHEEL) {
			if (list_push(&f->wheel[due % TREE_WHEEL], e.serial, e.slot))
				return GULLY_ENOMEM;
		} else {
			f->far.e[j++] = e;
		}
	}
	f->far.n = j;
	return GULLY_OK;
}

/* ---- the trees' draws ------------------------------------------------------ */

static void tree_rng(const struct forest *f, uint64_t serial, uint64_t batch, struct rng *r)
{
	rng_seed(r, f->key ^ (serial * 0x9e3779b97f4a7c15u), batch);
}

/* Batches until an event of chance p per batch: at least 1. */
static uint64_t geometric_wait(struct rng *r, double p)
{
	if (!(p > 0.0))
		return TREE_NEVER;
	if (p >= 1.0)
		return 1;
	double u = 1.0 - rng_double(r); /* (0, 1] */
	double k = floor(log(u) / log1p(-p));
	return k < 1e15 ? 1 + (uint64_t)k : TREE_NEVER;
}

/* ---- birth and death --------------------------------------------------- */

int hydro_tree_plant(struct hydro_state *s, int32_t cell, uint64_t serial, uint64_t seed_at,
		     uint64_t die_at)
{
	struct forest *f = &s->forest;
	uint32_t slot;
	if (f->nfree) {
		slot = f->free[--f->nfree];
	} else {
		if (f->slots == f->cap) {
			size_t cap = f->cap ? 2 * f->cap : 64;
			struct tree *t = realloc(f->trees, cap * sizeof *t);
			uint32_t *fr = t ? realloc(f->free, cap * sizeof *fr) : NULL;
			if (t)
				f->trees = t;
			if (!fr)
				return GULLY_ENOMEM;
			f->free = fr;
			f->cap = cap;
		}
		slot = (uint32_t)f->slots++;
	}
	if (tree_map_put(&f->at, (uint32_t)cell, slot)) {
		f->trees[slot].cell = -1; /* back to the free slots */
		f->free[f->nfree++] = slot;
		return GULLY_ENOMEM;
	}
	f->trees[slot] = (struct tree){cell, serial, seed_at, die_at};
	f->live++;
	if (serial >= f->next_serial)
		f->next_serial = serial + 1;
	hydro_root(s, cell, +1);
	if (seed_at == TREE_UNDRAWN) {
		f->undrawn = true;
		return GULLY_OK;
	}
	return tree_schedule(f, slot);
}

/* A tree's first events, as at a birth in batch now, from its own draws. */
static void tree_first_events(const struct forest *f, const struct params_hydrology *q,
			      uint64_t serial, uint64_t *seed_at, uint64_t *die_at)
{
	struct rng r;
	tree_rng(f, serial, f->now, &r);
	*seed_at = f->now + geometric_wait(&r, q->tree_seed_chance);
	*die_at = f->now + geometric_wait(&r, q->tree_death_chance);
}

static int tree_born(struct hydro_state *s, const struct params_hydrology *q, int32_t cell)
{
	uint64_t seed_at, die_at;
	tree_first_events(&s->forest, q, s->forest.next_serial, &seed_at, &die_at);
	return hydro_tree_plant(s, cell, s->forest.next_serial, seed_at, die_at);
}

/* Trees read from a version 1 snapshot draw their events now. */
static int trees_draw_undrawn(struct forest *f, const struct params_hydrology *q)
{
	for (size_t i = 0; i < f->slots; i++) {
		struct tree *t = &f->trees[i];
		if (t->cell < 0 || t->seed_at != TREE_UNDRAWN)
			continue;
		tree_first_events(f, q, t->serial, &t->seed_at, &t->die_at);
		if (tree_schedule(f, (uint32_t)i))
			return GULLY_ENOMEM;
	}
	f->undrawn = false;
	return GULLY_OK;
}

static void tree_die(struct hydro_state *s, uint32_t slot)
{
	struct forest *f = &s->forest;
	struct tree *t = &f->trees[slot];
	hydro_root(s, t->cell, -1);
	tree_map_remove(&f->at, (uint32_t)t->cell);
	t->cell = -1;
	f->free[f->nfree++] = slot; /* free has room for every slot */
	f->live--;
}

/* Dry, gentle, off the streams, and no tree there yet (which also bounds the
 * root density: at most one tree per cell, so at most 25 steps anywhere).
 * The cheap tests first: the stream read brings its tile up to date. */
static bool tree_fits(struct hydro_state *s, const struct world *w,
		      const struct params_hydrology *q, float scale, int32_t c)
{
	if (s->roots[c] >= ROOT_CENTRE || w->layer[LAYER_POOL][c] > 0 ||
	    hstream_get(&s->hs, (uint32_t)c) >= q->tree_max_stream)
		return false;
	float n[3];
	if (q->normal == HYDROLOGY_NORMAL_2020)
		normal_2020(w->layer[LAYER_HEIGHT], w->width, w->height, c % w->width, c / w->width,
			    scale, n);
	else if (q->normal == HYDROLOGY_NORMAL_2020_WRAP)
		normal_2020_wrap(w->layer[LAYER_HEIGHT], w->width, w->height, c % w->width,
				 c / w->width, scale, n);
	else
		normal_ref(w->layer[LAYER_HEIGHT], w->width, w->height, c % w->width,
			   c / w->width, scale, q->symmetric_normal, n);
	return n[1] > q->tree_min_normal;
}

/* A tree on a cell the batch's droplets visited: its stream may have grown. */
static bool tree_drowned(struct hydro_state *s, const struct params_hydrology *q, int32_t cell)
{
	return s->w->layer[LAYER_POOL][cell] > 0 ||
	       hstream_get(&s->hs, (uint32_t)cell) > q->tree_max_stream;
}

/* ---- a batch ------------------------------------------------------------- */

static int note_tree(struct forest *f, uint32_t slot)
{
	return list_push(&f->tracked, f->trees[slot].serial, slot);
}

/* The trees on the visited cells of [first, first + cells). A tree's cell
 * holds at least its own roots, so eight cells at a time are ruled out
 * from the track and root bytes (visited: track 1; a tree possible:
 * roots >= ROOT_CENTRE, and roots stay below 128) before the tree map is
 * looked up. */
static int note_visited(struct hydro_state *s, size_t first, size_t cells)
{
	struct forest *f = &s->forest;
	const uint64_t high = 0x8080808080808080u;
	const uint64_t to_high = 0x0101010101010101u * (uint64_t)(128 - ROOT_CENTRE);
	size_t c = first, end = first + cells;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; c + 8 <= end; c += 8) {
		uint64_t t, r;
		memcpy(&t, s->track + c, 8);
		memcpy(&r, s->roots + c, 8);
		uint64_t m = (r + to_high) & (t << 7) & high;
		while (m) {
			size_t k = c + (size_t)(__builtin_ctzll(m) >> 3);
			m &= m - 1;
			uint32_t at = tree_map_get(&f->at, (uint32_t)k);
			if (at && note_tree(f, at - 1))
				return GULLY_ENOMEM;
		}
	}
#else
	(void)high;
	(void)to_high;
#endif
	for (; c < end; c++) {
		uint32_t at = s->track[c] && s->roots[c] >= ROOT_CENTRE
				      ? tree_map_get(&f->at, (uint32_t)c)
				      : 0;
		if (at && note_tree(f, at - 1))
			return GULLY_ENOMEM;
	}
	return GULLY_OK;
}

#define NOTE_AHEAD 32
_Static_assert(TREE_MAP_RUN_SHIFT == HSTREAM_SHIFT, "a stream tile is a run of the tree map");

int hydro_trees_note_tracks(struct hydro_state *s)
{
	struct forest *f = &s->forest;
	f->tracked.n = 0;
	if (!f->live)
		return GULLY_OK;
	const struct hstream *hs = &s->hs;
	if (!hs->lazy) {
		/* A small map (hydrology_stream.h): its trees are fewer than its
		 * cells, and the track map is in cache. */
		for (size_t i = 0; i < f->slots; i++)
			if (f->trees[i].cell >= 0 && s->track[f->trees[i].cell] && note_tree(f, (uint32_t)i))
				return GULLY_ENOMEM;
		return GULLY_OK;
	}
	/* Every visited cell's tile was listed when the visit was made. Only
	 * the tiles a tree stands in are read (the tree map's runs are the
	 * tiles), their root bytes fetched a few tiles ahead: the descent read
	 * none. */
	for (size_t i = 0; i < hs->nlist; i++) {
		const size_t ahead = hstream_listed_ahead(hs, i, NOTE_AHEAD);
		if (ahead != SIZE_MAX && tree_map_run_any(&f->at, (uint32_t)ahead)) {
			__builtin_prefetch(s->roots + ahead);
			__builtin_prefetch(s->track + ahead);
		}
		size_t first = (size_t)hs->list[i] * HSTREAM_TILE;
		if (!tree_map_run_any(&f->at, (uint32_t)first))
			continue;
		size_t cells = hs->n - first < HSTREAM_TILE ? hs->n - first : HSTREAM_TILE;
		if (note_visited(s, first, cells))
			return GULLY_ENOMEM;
	}
	return GULLY_OK;
}

/* A seeding tree's draws for this batch, in their order: the batch of its
 * next seeding, then where its seedling falls (-1: off the map). Read by
 * the event, and a few events ahead by the prefetch (tree_prefetch). */
static int32_t tree_seed_draws(const struct hydro_state *s, const struct params_hydrology *q,
			       const struct tree *t, struct rng *r, uint64_t *next_seed_at)
{
	const struct forest *f = &s->forest;
	tree_rng(f, t->serial, f->now, r);
	*next_seed_at = f->now + geometric_wait(r, q->tree_seed_chance);
	const int rad = q->tree_seed_radius;
	int nx = t->cell % s->width + (int)rng_below(r, (uint32_t)(2 * rad + 1)) - rad;
	int ny = t->cell / s->width + (int)rng_below(r, (uint32_t)(2 * rad + 1)) - rad;
	if (nx < 0 || ny < 0 || nx >= s->width || ny >= s->height)
		return -1;
	return ny * s->width + nx;
}

/* A seedling at `c` (tree_seed_draws), if the ground takes it. */
static int tree_seeds(struct hydro_state *s, const struct params_hydrology *q, float scale,
		      int32_t c, struct rng *r)
{
	if (c < 0)
		return GULLY_OK;
	/* Crowded ground takes fewer seedlings. */
	if (rng_double(r) >= (double)s->roots[c] * HYDROLOGY_ROOT_UNIT &&
	    tree_fits(s, s->w, q, scale, c))
		return tree_born(s, q, c);
	return GULLY_OK;
}

static int event_order(const void *a, const void *b)
{
	uint64_t x = ((const struct tree_event *)a)->serial;
	uint64_t y = ((const struct tree_event *)b)->serial;
	return (x > y) - (x < y);
}

/* A batch's events in birth order. On a big map a batch holds tens of
 * thousands, and qsort's comparisons were a large share of a long run
 * (bench/HYDROLOGY.md, "The batch's tree events, sorted by radix"): a
 * radix sort on the serial instead, 11 bits a pass, as many passes as the
 * largest serial in the list needs (two up to four million births). Both
 * sorts are stable, so the order is qsort's. The passes swap the list's
 * array with the spare one. */
#define SORT_BITS 11
static int events_sort(struct forest *f, struct tree_list *due)
{
	const size_t n = due->n;
	if (n < 256) {
		if (n > 1)
			qsort(due->e, n, sizeof *due->e, event_order);
		return GULLY_OK;
	}
	if (f->spare.cap < due->cap) {
		struct tree_event *e = realloc(f->spare.e, due->cap * sizeof *e);
		if (!e)
			return GULLY_ENOMEM;
		f->spare.e = e;
		f->spare.cap = due->cap;
	}
	/* The passes the largest serial in the list needs (read, not assumed
	 * from next_serial: a serial past it would be sorted wrong, not
	 * refused). */
	uint64_t any = 1;
	for (size_t i = 0; i < n; i++)
		any |= due->e[i].serial;
	const unsigned bits = 64u - (unsigned)__builtin_clzll(any);
	for (unsigned shift = 0; shift < bits; shift += SORT_BITS) {
		size_t at[1u << SORT_BITS] = {0};
		const struct tree_event *a = due->e;
		for (size_t i = 0; i < n; i++)
			at[a[i].serial >> shift & ((1u << SORT_BITS) - 1)]++;
		size_t sum = 0;
		for (size_t d = 0; d < (1u << SORT_BITS); d++) {
			const size_t k = at[d];
			at[d] = sum;
			sum += k;
		}
		struct tree_event *b = f->spare.e;
		for (size_t i = 0; i < n; i++)
			b[at[a[i].serial >> shift & ((1u << SORT_BITS) - 1)]++] = a[i];
		const struct tree_list was = *due;
		due->e = f->spare.e;
		due->cap = f->spare.cap;
		f->spare.e = was.e;
		f->spare.cap = was.cap;
	}
	return GULLY_OK;
}

static int run_event(struct hydro_state *s, const struct params_hydrology *q, float scale,
		     struct tree_event e)
{
	struct forest *f = &s->forest;
	struct tree *t = &f->trees[e.slot];
	if (t->cell < 0 || t->serial != e.serial || tree_next(t) != f->now)
		return GULLY_OK; /* dead, or filed again elsewhere */
	f->events_run++;
	/* A pool may have risen over it; its stream is checked where droplets
	 * go (hydro_trees_note_tracks), since only they make it stronger. */
	if (s->w->layer[LAYER_POOL][t->cell] > 0) {
		tree_die(s, e.slot);
		return GULLY_OK;
	}
	if (t->seed_at == f->now) {
		struct rng r;
		const int32_t c = tree_seed_draws(s, q, t, &r, &t->seed_at);
		int err = tree_seeds(s, q, scale, c, &r);
		t = &f->trees[e.slot]; /* a birth may move the array */
		if (err)
			return err;
	}
	if (t->die_at == f->now) {
		tree_die(s, e.slot);
		return GULLY_OK;
	}
	return tree_schedule(f, e.slot);
}

/* A batch's events are trees scattered over the map: each reads its cell's
 * pool, and a seeding one (nearly all) the roots, pool, stream and heights
 * where its seedling falls. On a big map each is a miss, waited for one
 * event after another. So while event i runs, the tree of event i + 16 is
 * fetched, and event i + 8's cells, its seedling's worked out from the
 * same draws the event will make. The tree may have changed by then (a
 * death, a birth in its slot): only a fetch is lost. */
#define TREE_AHEAD 8

static inline __attribute__((always_inline)) void
tree_prefetch(const struct hydro_state *s, const struct params_hydrology *q,
	      const struct tree_list *due, size_t i)
{
	const struct forest *f = &s->forest;
	if (i + 2 * TREE_AHEAD < due->n)
		__builtin_prefetch(&f->trees[due->e[i + 2 * TREE_AHEAD].slot]);
	if (i + TREE_AHEAD >= due->n)
		return;
	const struct tree *t = &f->trees[due->e[i + TREE_AHEAD].slot];
	if (t->cell < 0)
		return;
	const struct world *w = s->w;
	__builtin_prefetch(w->layer[LAYER_POOL] + t->cell);
	if (t->seed_at != f->now)
		return;
	struct rng r;
	uint64_t next;
	const int32_t c = tree_seed_draws(s, q, t, &r, &next);
	if (c < 0)
		return;
	const size_t up = c >= s->width ? (size_t)(c - s->width) : (size_t)c;
	const size_t down = c + s->width < s->width * s->height ? (size_t)(c + s->width) : (size_t)c;
	__builtin_prefetch(s->roots + c);
	__builtin_prefetch(w->layer[LAYER_POOL] + c);
	__builtin_prefetch(w->layer[LAYER_STREAM] + c);
	__builtin_prefetch(w->layer[LAYER_HEIGHT] + up);
	__builtin_prefetch(w->layer[LAYER_HEIGHT] + c);
	__builtin_prefetch(w->layer[LAYER_HEIGHT] + down);
}

int hydro_trees_grow(struct hydro_state *s, struct world *w, const struct params *p)
{
	const struct params_hydrology *q = &p->hydrology;
	struct forest *f = &s->forest;
	float scale = (float)p->terrain.vertical_scale;
	int err = f->undrawn ? trees_draw_undrawn(f, q) : GULLY_OK;
	f->checks_run += f->tracked.n;
	for (size_t i = 0; i < f->tracked.n; i++) {
		const struct tree_event e = f->tracked.e[i];
		const struct tree *t = &f->trees[e.slot];
		if (t->cell >= 0 && t->serial == e.serial && tree_drowned(s, q, t->cell))
			tree_die(s, e.slot);
	}
	f->tracked.n = 0;
	uint32_t ncells = (uint32_t)world_cells(w);
	for (int a = 0; a < q->tree_spawn && !err; a++) {
		int32_t c = (int32_t)rng_below(&w->rng, ncells);
		if (tree_fits(s, w, q, scale, c))
			err = tree_born(s, q, c);
	}
	/* The batch's events; none files a new one for this batch (waits are
	 * at least 1), so the list stays put while it runs. */
	struct tree_list *due = &f->wheel[f->now % TREE_WHEEL];
	if (!err)
		err = events_sort(f, due);
	for (size_t i = 0; i < due->n && !err; i++) {
		if (s->hs.lazy)
			tree_prefetch(s, q, due, i);
		err = run_event(s, q, scale, due->e[i]);
	}
	due->n = 0;
	f->now++;
	if (!err && f->now % TREE_WHEEL == 0)
		err = wheel_turn(f);
	return err;
}

void hydro_trees_free(struct forest *f)
{
	free(f->trees);
	free(f->free);
	tree_map_free(&f->at);
	for (size_t i = 0; i < TREE_WHEEL; i++)
		free(f->wheel[i].e);
	free(f->far.e);
	free(f->tracked.e);
	free(f->spare.e);
}
