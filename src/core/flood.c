#include "core/flood.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* The heap's stand-in for the sea beyond the map edge. */
#define SEA_CELL (-1)
/* A lake's float pools put its surface within an ulp or so of the level;
 * this much below the level counts as the same surface, not a leak, so the
 * rounding of the last write never reads as a drain. */
#define LEVEL_TOL (8.0 * FLT_EPSILON)

struct node {
	double key;
	int32_t cell;
};

struct flood {
	int width, height;
	uint32_t *seen; /* seen[c] == stamp: c was put on the heap this call */
	uint32_t stamp;
	struct node *heap;
	size_t heap_len, heap_cap;
	int32_t *lake;
	size_t lake_len, lake_cap;
	size_t pushed; /* cells (not the sea) put on the heap this call */
	struct flood_counters count;
};

int flood_create(struct flood **out, int width, int height)
{
	*out = NULL;
	if (width < 2 || height < 2)
		return GULLY_EINVAL;
	struct flood *f = calloc(1, sizeof *f);
	if (!f)
		return GULLY_ENOMEM;
	f->width = width;
	f->height = height;
	f->seen = calloc((size_t)width * (size_t)height, sizeof *f->seen);
	if (!f->seen) {
		free(f);
		return GULLY_ENOMEM;
	}
	*out = f;
	return GULLY_OK;
}

void flood_destroy(struct flood *f)
{
	if (!f)
		return;
	free(f->seen);
	free(f->heap);
	free(f->lake);
	free(f);
}

void flood_counters(const struct flood *f, struct flood_counters *c)
{
	*c = f->count;
}

static bool grow(void **arr, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap : 256;
	while (n < need)
		n *= 2;
	void *p = realloc(*arr, n * size);
	if (!p)
		return false;
	*arr = p;
	*cap = n;
	return true;
}

static bool heap_push(struct flood *f, double key, int32_t cell)
{
	if (!grow((void **)&f->heap, &f->heap_cap, f->heap_len + 1, sizeof *f->heap))
		return false;
	size_t i = f->heap_len++;
	struct node *h = f->heap;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (h[parent].key <= key)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i].key = key;
	h[i].cell = cell;
	return true;
}

static void heap_pop(struct flood *f)
{
	struct node *h = f->heap;
	struct node last = h[--f->heap_len];
	size_t n = f->heap_len, i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1].key < h[c].key)
			c++;
		if (last.key <= h[c].key)
			break;
		h[i] = h[c];
		i = c;
	}
	if (n)
		h[i] = last;
}

static void next_stamp(struct flood *f)
{
	if (++f->stamp == 0) {
		memset(f->seen, 0, (size_t)f->width * (size_t)f->height * sizeof *f->seen);
		f->stamp = 1;
	}
}

static inline double surface(const float *height, const float *pool, int32_t c)
{
	return (double)height[c] + (double)pool[c];
}

/* Puts c's unseen neighbours on the heap, and the sea once the lake touches
 * the edge. False on allocation failure. */
static bool push_neighbours(struct flood *f, const float *height, const float *pool,
			    int32_t c, bool *sea_pushed, double sea_level)
{
	static const int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
	static const int dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
	const int w = f->width, hh = f->height;
	int x = c % w, y = c / w;
	bool edge = x == 0 || y == 0 || x == w - 1 || y == hh - 1;
	if (edge && !*sea_pushed) {
		if (!heap_push(f, sea_level, SEA_CELL))
			return false;
		*sea_pushed = true;
	}
	if (!edge) {
		/* Interior: no bounds checks. */
		const int32_t off[8] = {1, -1, w, -w, w + 1, 1 - w, w - 1, -w - 1};
		for (int k = 0; k < 8; k++) {
			int32_t n = c + off[k];
			if (f->seen[n] == f->stamp)
				continue;
			f->seen[n] = f->stamp;
			f->pushed++;
			if (!heap_push(f, surface(height, pool, n), n))
				return false;
		}
		return true;
	}
	for (int k = 0; k < 8; k++) {
		int nx = x + dx[k], ny = y + dy[k];
		if (nx < 0 || ny < 0 || nx >= w || ny >= hh)
			continue;
		int32_t n = ny * w + nx;
		if (f->seen[n] == f->stamp)
			continue;
		f->seen[n] = f->stamp;
		f->pushed++;
		if (!heap_push(f, surface(height, pool, n), n))
			return false;
	}
	return true;
}

int flood_pour(struct flood *f, float *height, float *pool, int start, double water,
	       const struct flood_settle *settle, const struct flood_params *fp,
	       struct flood_result *r)
{
	memset(r, 0, sizeof *r);
	r->drain = -1;
	next_stamp(f);
	f->heap_len = 0;
	f->lake_len = 0;

	double level = surface(height, pool, start);
	double left = water; /* what the model has not placed yet */
	bool sea_pushed = false;
	/* Settling is decided in the loop but written with the pools at the end,
	 * so an allocation failure leaves the map untouched. */
	double settle_amount = 0;
	bool settled = false;
	const float h_start = height[start];
	float h_start_new = h_start;

	if (!grow((void **)&f->lake, &f->lake_cap, 1, sizeof *f->lake))
		return GULLY_ENOMEM;
	f->seen[start] = f->stamp;
	f->lake[f->lake_len++] = start;
	f->pushed = 1;
	if (!push_neighbours(f, height, pool, start, &sea_pushed, fp->sea_level))
		return GULLY_ENOMEM;

	enum flood_outcome outcome = FLOOD_FILLED;
	double target = level; /* the leak's surface, for drainage */
	for (;;) {
		if (f->heap_len == 0) {
			/* Everything reachable is lake (cannot happen with the sea
			 * around the map, kept for safety): spread what is left. */
			level += left / (double)f->lake_len;
			left = 0;
			break;
		}
		double key = f->heap[0].key;
		int32_t cell = f->heap[0].cell;
		double tol = LEVEL_TOL * fmax(1.0, fabs(level));
		if (cell != SEA_CELL && key < level - tol) {
			outcome = FLOOD_DRAIN;
			r->drain = cell;
			target = key;
			break;
		}
		if (key > level) {
			double area = (double)f->lake_len;
			double cost = area * (key - level);
			if (left < cost) {
				if (!settled && settle && settle->on_fill > 0) {
					/* The droplet ends here: its load settles where it
					 * entered, and the water that displaces is poured
					 * with the rest. */
					settled = true;
					settle_amount = settle->on_fill;
					h_start_new = (float)((double)h_start + settle_amount);
					double before = fmax(0.0, level - (double)h_start);
					double after = fmax(0.0, level - (double)h_start_new);
					left += before - after;
					continue;
				}
				level += left / area;
				left = 0;
				break;
			}
			left -= cost;
			level = key;
		}
		if (cell == SEA_CELL) {
			outcome = FLOOD_SEA;
			target = key;
			break;
		}
		heap_pop(f);
		/* Joining at or a hair below the level: fill it up to the level. */
		if (key < level)
			left -= level - key;
		if (!grow((void **)&f->lake, &f->lake_cap, f->lake_len + 1, sizeof *f->lake))
			return GULLY_ENOMEM;
		f->lake[f->lake_len++] = cell;
		if (!push_neighbours(f, height, pool, cell, &sea_pushed, fp->sea_level))
			return GULLY_ENOMEM;
	}
	if (outcome != FLOOD_FILLED) {
		/* Slow drainage: the level sinks a little toward the leak. */
		if (target < level)
			level -= fp->drainage * (level - target);
		if (settle && settle->on_drain > 0) {
			settle_amount = settle->on_drain;
			h_start_new = (float)((double)h_start + settle_amount);
		}
	}

	/* Write: settle first so the start cell's pool uses its new ground. */
	if (h_start_new != h_start)
		height[start] = h_start_new;
	r->settled = (double)h_start_new - (double)h_start;
	double gained = 0;
	for (size_t i = 0; i < f->lake_len; i++) {
		int32_t c = f->lake[i];
		float old = pool[c];
		double depth = level - (double)height[c];
		float now = depth > 0 ? (float)depth : 0.0f;
		pool[c] = now;
		gained += (double)now - (double)old;
	}
	r->outcome = outcome;
	r->level = level;
	r->gained = gained;
	r->lake_cells = f->lake_len;
	r->touched = f->pushed;
	f->count.calls++;
	f->count.touched += f->pushed;
	f->count.lake_cells += f->lake_len;
	return GULLY_OK;
}
