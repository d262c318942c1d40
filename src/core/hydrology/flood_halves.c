/* flood_params.halves: the 2020 code re-floods a droplet's water in tries
 * (flood_halves), and a pour whose first try is sure to keep nothing, on
 * a lake the flood remembers, ends before it walks the lake
 * (flood_overshoot_lake). */
#include "core/hydrology/flood_internal.h"

/* The water a level x holds above the surfaces the pour started from, over
 * the cells the rise joined. It must not depend on whether the pour
 * started from a record (whose cells are only known to sit within tol of
 * level0, and are not listed) or afresh (which lists them in an order of
 * its own): so every cell within tol of level0 counts as at level0 (the
 * band), and the others are summed in fixed point (steps of 2^-32 of a
 * height unit), where the order of the sum cannot change its bits. A cell
 * holds at most POOL_MAX (the cap on a pool's depth), so no conversion
 * overflows whatever heights were imported, and the sum saturates rather
 * than wrap (only a lake of millions of cells 1000 deep could reach it). */
#define HALVES_FIX 4294967296.0

static inline bool halves_band(const struct pour *p, double s)
{
	return fabs(s - p->level0) <= p->tol;
}

/* A cell of surface s (not in the band, s <= x) under a level x. */
static inline uint64_t halves_add(uint64_t sum, double x, double s)
{
	const uint64_t t = (uint64_t)(fmin(x - s, (double)POOL_MAX) * HALVES_FIX);
	return sum > UINT64_MAX - t ? UINT64_MAX : sum + t;
}

static inline double halves_total(const struct pour *p, double x, size_t band, uint64_t sum)
{
	return (double)band * (x - p->level0) + (double)sum / HALVES_FIX;
}

/* The water under x; *n, the cells under x. */
static double halves_volume(const struct flood *f, const struct pour *p, double x, size_t *n)
{
	size_t band = f->nbase, k = 0;
	uint64_t sum = 0;
	for (size_t i = 0; i < f->lake_len; i++) {
		const double s = surface(p->height, p->pool, f->lake[i]);
		if (halves_band(p, s))
			band++;
		else if (s <= x) {
			sum = halves_add(sum, x, s);
			k++;
		}
	}
	*n = band + k ? band + k : 1;
	return halves_total(p, x, band, sum);
}

/* The cells of the 2020 code's first try: the lake at the start's level,
 * `band` (halves_volume's count at level0). With level_join a lake at that
 * level that the rise joined over a sill is in the band too, but not in
 * that try: the rise's first area is. */
static size_t halves_first_n(const struct pour *p, size_t band)
{
	return p->first_area > 0 && p->join_floor < INFINITY ? (size_t)p->first_area : band;
}

/* The 2020 code's tries. Its first try holds nothing; each next one, while
 * more than `stop` is left, raises the plane by half the water left spread
 * over the cells the last try covered (the lake's area at its level then,
 * not the wider area the water will reach) and keeps the water under it if
 * that is no more than is left. A try that holds more (it overshoots) ends
 * the pour, keeping only the tries before it, and so does one whose plane
 * reaches the rim: the leak, or for a pour that would hold all its water,
 * the level that holds it (a plane at or above it holds more than is
 * left). This replays the tries below p->level over the cells the rise
 * joined, and leaves the lake at the last kept plane. So a hollow whose
 * area grows as it fills (a pit: one cell at the start) keeps much less
 * than half a droplet that would fit in it, as the seed's does. Returns
 * whether the tries ended at an overshoot or the rim with water left to
 * try with (the seed's droplet then goes on from where it stood, or from
 * the leak). */
bool flood_halves(const struct flood *f, struct pour *p, double stop)
{
	const double rim = p->level;
	size_t n;
	double level = p->level0, below = halves_volume(f, p, level, &n), left = p->water;
	n = halves_first_n(p, n);
	bool ended = false;
	for (int k = 0; k < 64 && left > stop; k++) {
		const double plane = level + 0.5 * left / (double)n;
		size_t m;
		const double under = plane < rim ? halves_volume(f, p, plane, &m) : 0;
		if (!(plane < rim) || !(under - below <= left)) {
			ended = true;
			break;
		}
		left -= under - below;
		below = under;
		level = plane;
		n = m;
	}
	p->level = level;
	p->left = left;
	return ended;
}

/* A record next to the rise's top cell c (c's own, or a neighbour's). */
static uint32_t record_near(const struct flood *f, int32_t c)
{
	if (f->lake_of[c])
		return f->lake_of[c];
	int32_t nb[8];
	const int m = grid_neighbours(f->width, f->height, c, nb);
	for (int j = 0; j < m; j++)
		if (f->lake_of[nb[j]])
			return f->lake_of[nb[j]];
	return 0;
}

/* The lowest surfaces the rest of the rise could meet outside this call's
 * cells, the record `id` and c are all above `bar`: c's neighbours (read
 * from the map: c joins next), the record's rim (its heap's entries are at
 * or below its rim cells' surfaces) and the rise's own heap. */
static bool nothing_below(const struct flood *f, const struct pour *p, const struct lake *k,
			  uint32_t id, int32_t c, double bar)
{
	int32_t nb[8];
	const int m = grid_neighbours(f->width, f->height, c, nb);
	if ((m < 8 || k->edge_floor < INFINITY) && !(p->sea_level > bar))
		return false;
	for (int j = 0; j < m; j++) {
		const int32_t e = nb[j];
		if (f->joined[e] != f->stamp && f->lake_of[e] != id &&
		    !(surface(p->height, p->pool, e) > bar))
			return false;
	}
	for (size_t i = 0; i < k->rh.len; i++) {
		const int32_t e = k->rh.a[i].cell;
		if (e != SEA_CELL && (e == c || f->lake_of[e] == id || f->joined[e] == f->stamp))
			continue;
		if (!(k->rh.a[i].key > bar))
			return false;
	}
	for (size_t i = 1; i < p->heap->len; i++) {
		const int32_t e = p->heap->a[i].cell;
		if ((e == SEA_CELL || f->lake_of[e] != id) && !(p->heap->a[i].key > bar))
			return false;
	}
	return true;
}

/* A droplet that eroded a cell of a lake a little (more than tol) below the
 * lake's level, or a few cells at one level, and poured there, overshoots
 * at its first try: the plane, half its water over those cells, lies far
 * above the level the lake would take the water to. But the rise finds
 * that out only after walking the whole lake, every droplet that stops
 * there again. The lake's record says as much at once, exactly, where the
 * rise (fresh) is about to raise its level to its top cell c, in the record
 * or next to it: the record's cells sit within tol of each other and of c,
 * above the band, so once c joins, all of them join at c's level (a
 * connected record: not split), or (those the rise sorted before) within
 * tol above it, which the water pays for if it can pay the whole area for
 * the whole height; then the rest spreads over them, so the level ends at
 * most `top`; and nothing around them is at or below top + tol, so nothing
 * else joins and nothing leaks. If the first try's plane, from the band
 * this call has joined (nothing joining later is in it or under level0),
 * is at or above top, flood_halves would end at its first try with nothing
 * kept, the lake being this call's cells, c and the record's. Read only:
 * the record is left as it was. A record that does not qualify is not
 * looked at again in the pour. */
bool flood_overshoot_lake(const struct flood *f, struct pour *p)
{
	const int32_t c = p->heap->a[0].cell;
	const double key = p->heap->a[0].key;
	const uint32_t id = c == SEA_CELL || p->cur != NO_LAKE ? 0 : record_near(f, c);
	if (!id || id == p->ov.tried)
		return false;
	p->ov.tried = id;
	const struct lake *k = &f->lakes[id - 1];
	if (!k->live || k->split || k->sea_level != p->sea_level)
		return false;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < k->ncells; i++) {
		const double s = (double)k->ground[i] + (double)k->depth[i];
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	/* classify's own tests: at c's level and at any up to hi, every cell
	 * of the record is neither a leak nor above the level + tol */
	const bool in = f->lake_of[c] == id;
	if (!(hi <= key + p->tol && lo >= hi - p->tol && lo >= key - p->tol) ||
	    !(lo - p->level0 > p->tol) || !(key - p->level0 > p->tol))
		return false;
	for (size_t i = 0; i < f->lake_len; i++)
		if (f->lake_of[f->lake[i]] == id)
			return false;
	const double area = (double)(f->nbase + f->lake_len);
	const double all = (double)(f->lake_len + !in + k->ncells);
	const double cost = area * (key - p->level);
	const double up = hi > key ? hi : key;
	if (!(cost <= p->left && all * (up - key) * (1.0 + 1e-9) < p->left - cost))
		return false;
	const double top = up + p->left / all + 2.0 * p->tol;
	size_t n;
	halves_volume(f, p, p->level0, &n);
	n = halves_first_n(p, n);
	if (!(p->level0 + 0.5 * p->water / (double)n >= top) ||
	    !nothing_below(f, p, k, id, c, top + p->tol))
		return false;
	p->ov.cells = !in + k->ncells;
	return true;
}
