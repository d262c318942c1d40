/* The priority flood: the lake grows from its start by a min-heap of the
 * cells around it (its rim) keyed on their surface (height + pool). A fresh
 * pour starts from the start cell; a pour from a record starts from the
 * record's cells and its persistent rim heap (flood_lakes.c).
 * Invariants:
 * - Every cell is sorted (classify) at most once per call: a leak (surface
 *   below level - tol, or below the pour's floor for its kind of cell: see
 *   struct pour), a level cell (joins now, through f->stack) or a rim
 *   cell (on the heap). seen[] says which cells were; joined[] which joined.
 * - The heap's top, after heap_top, is a valid rim cell keyed by its surface
 *   now, or the sea (SEA_CELL, keyed sea_level); a fresh pour's heap holds
 *   each cell once, so every entry is valid.
 * - Every cell the level reaches joins before a leak counts, and leaks are
 *   chosen by surface then cell index: the result does not depend on the
 *   order equal keys come off the heap.
 * - A fresh pour reserved room for the whole map first (fresh_reserve) and
 *   checks no room per cell; a pour from a record grows its lists per cell. */
#include "core/hydrology/flood_internal.h"

/* The leak a lake drains at: the lowest surface, or with leak_high the
 * highest below the level (the 2020 code's choice); then the lowest cell. */
static inline void leak_offer(struct pour *p, double key, int32_t cell)
{
	const bool better = p->leak_high ? key > p->leak_key : key < p->leak_key;
	if (!p->leak || better || (key == p->leak_key && cell < p->leak_cell)) {
		p->leak = true;
		p->leak_key = key;
		p->leak_cell = cell;
	}
}

/* A cell below the level is a leak, and so is one below the floors
 * (strict_dry). With flood_params.level_join, a wet cell at or above the
 * start's level (less the tolerance) is none while the rise is within the
 * 2020 code's second plane: the seed's drains are below the level it last
 * filled to, at its second try the start's level exactly, where float
 * pools put a lake that a drain split from this one within a rounding of
 * it. */
static inline bool is_leak(const struct pour *p, int32_t c, double key)
{
	const bool wet = p->pool[c] > 0.0f;
	if (key < (wet ? p->leak_floor : p->dry_floor))
		return true;
	if (!(key < p->level - p->tol))
		return false;
	/* (join_top is NAN, so this is false, until the rise's first step) */
	return !(wet && key >= p->join_floor && p->level <= p->join_top);
}

/* A cell that is no leak and at most tol above the level joins now. One
 * below the level (a lake at the start's level that level_join lets in
 * over a sill) takes its water from the pour. */
static inline void join_level_cell(struct flood *f, struct pour *p, int32_t c, double key)
{
	if (key < p->level - p->tol)
		p->left -= p->level - key;
	f->stack[f->stack_len++] = c;
}

/* Sorts a newly seen cell by its surface against the level: a leak below it,
 * a level cell that joins now, or a rim cell for the heap. */
static bool classify(struct flood *f, struct pour *p, int32_t c)
{
	f->seen[c] = f->stamp;
	f->pushed[f->pushed_len++] = c;
	double key = surface(p->height, p->pool, c);
	if (is_leak(p, c, key)) {
		leak_offer(p, key, c);
		/* A record's leaks stay on its rim heap. */
		if (p->cur != NO_LAKE)
			f->leaks[f->leaks_len++] = c;
		return true;
	}
	if (key <= p->level + p->tol) {
		join_level_cell(f, p, c, key);
		return true;
	}
	/* A record's rim heap keeps it: marked, so its surface changes reach
	 * the record. (A fresh pour's rim is marked if it is remembered.) */
	if (p->cur != NO_LAKE)
		rim_mark_set(f, c);
	return heap_push(p->heap, key, c);
}

static bool see_sea(struct flood *f, struct pour *p)
{
	if (p->sea_seen)
		return true;
	p->sea_seen = true;
	/* Water at or above the sea's surface runs into it. */
	if (p->sea_level <= p->level + p->tol) {
		leak_offer(p, p->sea_level, SEA_CELL);
		if (p->cur != NO_LAKE) {
			if (!grow((void **)&f->leaks, &f->leaks_cap, f->leaks_len + 1, sizeof *f->leaks))
				return false;
			f->leaks[f->leaks_len++] = SEA_CELL;
		}
		return true;
	}
	return heap_push(p->heap, p->sea_level, SEA_CELL);
}

/* A lake cell's neighbours (flood_neighbours). */
static inline int lake_neighbours(const struct flood *f, const struct pour *p, int32_t c,
				  int32_t nb[8], bool *edge)
{
	return flood_neighbours(f, p->wrap_y, c, nb, edge);
}

/* True when a cell next to `c` is one of the start record's cells: then c
 * is on its rim, and its rim heap holds it. */
static bool touches_record(const struct flood *f, const struct pour *p, int32_t c)
{
	int32_t nb[8];
	int m = grid_neighbours(f->width, f->height, c, nb);
	for (int k = 0; k < m; k++)
		if (f->lake_of[nb[k]] == p->cur)
			return true;
	return false;
}

/* A new neighbour of a joined cell is sorted now, against the level now,
 * unless a fresh flood would have sorted it already: a rim cell of the
 * start record was, at the start level (it waits in the rim heap). */
static inline bool sort_now(const struct flood *f, const struct pour *p, int32_t n)
{
	return f->seen[n] != f->stamp && f->lake_of[n] != p->cur &&
	       (p->cur == NO_LAKE || !touches_record(f, p, n));
}

/* A fresh pour's classify and join: no record, so no record tests, and
 * no room checks (flood_pour reserved room for every cell of the map in
 * every list first: a fresh pour sorts each cell at most once). */
static inline void classify_fresh(struct flood *f, struct pour *p, int32_t c)
{
	f->seen[c] = f->stamp;
	f->pushed[f->pushed_len++] = c;
	double key = surface(p->height, p->pool, c);
	if (is_leak(p, c, key)) {
		leak_offer(p, key, c);
		return;
	}
	if (key <= p->level + p->tol) {
		join_level_cell(f, p, c, key);
		return;
	}
	heap_push_reserved(&f->heap, key, c);
}

/* A lake cell on the map edge: the sea is a neighbour. */
static inline bool join_edge(struct flood *f, struct pour *p, int32_t c)
{
	if (p->height[c] < p->edge_floor)
		p->edge_floor = p->height[c];
	return see_sea(f, p);
}

static bool join_fresh(struct flood *f, struct pour *p, int32_t c)
{
	f->joined[c] = f->stamp;
	f->lake[f->lake_len++] = c;
	const uint32_t *seen = f->seen, stamp = f->stamp;
	int32_t nb[8];
	bool edge;
	int m = lake_neighbours(f, p, c, nb, &edge);
	if (edge && !join_edge(f, p, c))
		return false;
	for (int k = 0; k < m; k++)
		if (seen[nb[k]] != stamp)
			classify_fresh(f, p, nb[k]);
	return true;
}

static bool join_record(struct flood *f, struct pour *p, int32_t c)
{
	/* Room for c and its neighbours in every list they may go to. */
	if (!grow((void **)&f->pushed, &f->pushed_cap, f->pushed_len + 8, sizeof *f->pushed) ||
	    !grow((void **)&f->stack, &f->stack_cap, f->stack_len + 8, sizeof *f->stack) ||
	    (p->cur != NO_LAKE &&
	     !grow((void **)&f->leaks, &f->leaks_cap, f->leaks_len + 8, sizeof *f->leaks)) ||
	    !grow((void **)&f->lake, &f->lake_cap, f->lake_len + 1, sizeof *f->lake))
		return false;
	/* seen too: a cell off a record's rim heap joins unsorted this call
	 * (a fresh pour's cells were all sorted first). */
	f->joined[c] = f->stamp;
	if (p->cur != NO_LAKE)
		f->seen[c] = f->stamp;
	f->lake[f->lake_len++] = c;
	int32_t nb[8];
	bool edge;
	int m = lake_neighbours(f, p, c, nb, &edge);
	if (edge && !join_edge(f, p, c))
		return false;
	for (int k = 0; k < m; k++)
		if (sort_now(f, p, nb[k]) && !classify(f, p, nb[k]))
			return false;
	return true;
}

/* Joins `c` to the lake and sorts its new neighbours. */
static inline bool join(struct flood *f, struct pour *p, int32_t c)
{
	return p->cur == NO_LAKE ? join_fresh(f, p, c) : join_record(f, p, c);
}

/* True when a cell next to `c` is in the lake. */
static bool touches_lake(const struct flood *f, const struct pour *p, int32_t c)
{
	int32_t nb[8];
	bool edge;
	int m = lake_neighbours(f, p, c, nb, &edge);
	for (int k = 0; k < m; k++)
		if (in_lake(f, p, nb[k]))
			return true;
	return false;
}

/* Brings a valid entry to the top of the pour's heap, dropping and re-keying
 * the others (see struct lake): afterwards the top, if any, is a rim cell
 * keyed by its surface, or the sea. `first`: the start from a record, where
 * a cell already sorted this call was a leak (its entries are duplicates);
 * later, a cell sorted this call is one pushed this call. */
static bool heap_top(struct flood *f, struct pour *p, bool first)
{
	struct heap *hp = p->heap;
	/* A fresh pour's heap holds each cell once, keyed by its surface, and
	 * only its pop joins it: every entry is valid. */
	if (p->cur == NO_LAKE)
		return true;
	while (hp->len) {
		struct node n = hp->a[0];
		if (n.cell == SEA_CELL) {
			/* Left from when the lake touched the map edge. */
			if (!p->sea_seen) {
				heap_pop(hp);
				continue;
			}
			return true;
		}
		int32_t c = n.cell;
		if (in_lake(f, p, c) || (first && f->seen[c] == f->stamp)) {
			heap_pop(hp);
			continue;
		}
		double s = surface(p->height, p->pool, c);
		if (n.key != s) {
			heap_pop(hp);
			/* Stale-low: back in at its surface. Stale-high: a newer
			 * entry holds it (the invariant). */
			if (n.key < s && f->seen[c] != f->stamp && !heap_push(hp, s, c))
				return false;
			continue;
		}
		if (p->stale && !touches_lake(f, p, c)) {
			heap_pop(hp);
			continue;
		}
		return true;
	}
	return true;
}

/* Rebuilds a record's rim heap from its distinct rim cells keyed by their
 * surfaces, when stale entries have piled up. Uses (and spends) a stamp. */
static void rim_compact(struct flood *f, struct pour *p, struct lake *k)
{
	struct heap *hp = &k->rh;
	size_t j = 0;
	bool sea = false;
	for (size_t i = 0; i < hp->len; i++) {
		int32_t c = hp->a[i].cell;
		if (c == SEA_CELL) {
			if (!sea && k->edge_floor < INFINITY)
				hp->a[j++] = (struct node){p->sea_level, SEA_CELL};
			sea = true;
			continue;
		}
		if (f->seen[c] == f->stamp || f->lake_of[c] == p->cur)
			continue;
		f->seen[c] = f->stamp;
		if (k->rim_stale && !touches_lake(f, p, c))
			continue;
		hp->a[j++] = (struct node){surface(p->height, p->pool, c), c};
	}
	hp->len = j;
	heapify(hp);
	k->rh_base = j;
	k->rim_stale = false;
	next_stamp(f);
}

/* Starts from a remembered lake: its cells join at once (lake_of marks
 * them, so nothing per cell but a copy), and only the rim cells at or below
 * the level come off its rim heap to be sorted: what a fresh flood would
 * find after joining them, without sorting the rest of the rim again. */
bool flood_start_cached(struct flood *f, struct pour *p, struct lake *k)
{
	f->nbase = k->ncells;
	p->edge_floor = k->edge_floor;
	p->sea_seen = k->edge_floor < INFINITY;
	if (k->rh.len > 2 * k->rh_base + 64)
		rim_compact(f, p, k);
	p->heap = &k->rh;
	p->stale = k->rim_stale;
	for (;;) {
		if (!heap_top(f, p, true))
			return false;
		if (!k->rh.len || k->rh.a[0].key > p->level + p->tol)
			return true;
		int32_t c = k->rh.a[0].cell;
		heap_pop(&k->rh);
		if (!grow((void **)&f->leaks, &f->leaks_cap, f->leaks_len + 1, sizeof *f->leaks) ||
		    !grow((void **)&f->pushed, &f->pushed_cap, f->pushed_len + 1, sizeof *f->pushed) ||
		    !grow((void **)&f->stack, &f->stack_cap, f->stack_len + 1, sizeof *f->stack))
			return false;
		if (c == SEA_CELL) {
			/* At or above the sea's surface: it runs into the sea. */
			leak_offer(p, p->sea_level, SEA_CELL);
			f->leaks[f->leaks_len++] = SEA_CELL;
		} else if (!classify(f, p, c)) {
			return false;
		}
	}
}

/* The heap's top has been reached by the level: it joins, or, for the sea,
 * it is a leak (the rest runs off the map unless a lower leak was found at
 * this level; a record keeps the sea on its rim). */
static inline bool join_top(struct flood *f, struct pour *p)
{
	int32_t c = p->heap->a[0].cell;
	heap_pop(p->heap);
	if (c != SEA_CELL)
		return join(f, p, c);
	leak_offer(p, p->sea_level, SEA_CELL);
	if (p->cur == NO_LAKE)
		return true;
	if (!grow((void **)&f->leaks, &f->leaks_cap, f->leaks_len + 1, sizeof *f->leaks))
		return false;
	f->leaks[f->leaks_len++] = SEA_CELL;
	return true;
}

/* The lowest ground next to the leak that belongs to the lake: the lake can
 * drain through the leak down to there and no lower. */
double flood_leak_floor(const struct flood *f, const struct pour *p)
{
	if (p->leak_cell == SEA_CELL)
		return p->edge_floor;
	double floor = INFINITY;
	int32_t nb[8];
	bool edge;
	int m = lake_neighbours(f, p, p->leak_cell, nb, &edge);
	for (int k = 0; k < m; k++)
		if (in_lake(f, p, nb[k]) && p->height[nb[k]] < floor)
			floor = p->height[nb[k]];
	return floor;
}

/* Room for a fresh pour: it sorts each cell of the map at most once, so
 * every list (and the heap, with the sea) holds at most a map's worth.
 * Reserved once; the pages a small pour never reaches are never touched. */
static bool fresh_reserve(struct flood *f)
{
	return grow((void **)&f->pushed, &f->pushed_cap, f->n, sizeof *f->pushed) &&
	       grow((void **)&f->stack, &f->stack_cap, f->n, sizeof *f->stack) &&
	       grow((void **)&f->lake, &f->lake_cap, f->n, sizeof *f->lake) &&
	       grow((void **)&f->heap.a, &f->heap.cap, f->n + 1, sizeof *f->heap.a);
}

/* A fresh pour starts with its start cell sorted and joined. */
bool flood_start_fresh(struct flood *f, struct pour *p)
{
	f->seen[p->start] = f->stamp;
	if (!fresh_reserve(f))
		return false;
	f->pushed[f->pushed_len++] = p->start;
	return join(f, p, p->start);
}

/* The droplet ends in the lake: its load settles where it entered (up to
 * the water's surface), and the water that displaces is poured with the
 * rest. Once per pour; false when there is nothing to settle. */
static bool settle_on_fill(struct pour *p, const struct flood_settle *settle)
{
	if (p->settle_fill_done || !settle || !(settle->on_fill > 0))
		return false;
	p->settle_fill_done = true;
	double amount = fmin(settle->on_fill, fmax(0.0, p->level - (double)p->h_start));
	p->h_start_new = (float)((double)p->h_start + amount);
	double before = fmax(0.0, p->level - (double)p->h_start);
	double after = fmax(0.0, p->level - (double)p->h_start_new);
	p->left += before - after;
	return true;
}

/* Raises the level from the lowest rim up until the water is placed
 * (FLOOD_FILLED) or a leak is found (FLOOD_DRAIN, FLOOD_SEA), or, with the
 * tries, until a remembered lake shows the first try keeps nothing
 * (FLOOD_OVERSHOT, the level back at level0: flood_overshoot_lake). Every rim
 * cell the level has reached joins before any leak counts: the lake is then
 * the same whatever order cells with equal surfaces come off the heap in.
 * False: out of memory. */
bool flood_rise(struct flood *f, struct pour *p, const struct flood_settle *settle,
		enum flood_outcome *outcome)
{
	*outcome = FLOOD_FILLED;
	for (;;) {
		while (f->stack_len)
			if (!join(f, p, f->stack[--f->stack_len]))
				return false;
		if (!heap_top(f, p, false))
			return false;
		if (p->heap->len && p->heap->a[0].key <= p->level) {
			if (!join_top(f, p))
				return false;
			continue;
		}
		if (p->leak) {
			*outcome = p->leak_cell == SEA_CELL ? FLOOD_SEA : FLOOD_DRAIN;
			return true;
		}
		if (p->ov.on && p->heap->len && flood_overshoot_lake(f, p)) {
			/* What the rest of the rise and flood_halves would
			 * leave: nothing kept. */
			p->level = p->level0;
			p->left = p->water;
			*outcome = FLOOD_OVERSHOT;
			return true;
		}
		double area = (double)(f->nbase + f->lake_len);
		if (isnan(p->join_top)) {
			/* The seed's second plane: half the water over the
			 * lake at the start's level. */
			p->first_area = area;
			p->join_top = p->join_floor < INFINITY ? p->level0 + 0.5 * p->water / area
							       : -INFINITY;
		}
		if (p->heap->len == 0) {
			/* Everything reachable is lake (cannot happen with the sea
			 * around the map; kept for safety): spread what is left. */
			p->level += p->left / area;
			p->left = 0;
			return true;
		}
		double key = p->heap->a[0].key;
		double cost = area * (key - p->level);
		if (p->left < cost) {
			if (settle_on_fill(p, settle))
				continue;
			p->level += p->left / area;
			p->left = 0;
			return true;
		}
		p->left -= cost;
		p->level = key;
		/* Risen to it: it joins now (what the next turn would do). */
		if (!join_top(f, p))
			return false;
	}
}
