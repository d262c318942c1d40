/* flood_params.halves: the 2020 code re-floods a droplet's water in tries
 * (flood_halves). */
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
