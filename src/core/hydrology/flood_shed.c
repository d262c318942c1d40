/* Cells leaving a record: a cell whose height changed (flood_lake_detach),
 * dry cells after a drain lowered the level (flood_shed_dry,
 * flood_shed_cells), and the pieces a record may have broken into.
 * Invariants:
 * - A record stays 8-connected, as the lake a fresh flood would find: a
 *   cell leaves at once when its ring of lake neighbours has no gap
 *   (ring_ok) or its runs meet within a small box (ring_rejoins); else the
 *   record is marked split, and the next pour from it walks it once
 *   (flood_lake_settle_split) and keeps the piece it is in, or drops it.
 * - A cell that leaves goes on the record's rim heap with a key below every
 *   surface (stale-low: the next pop re-keys it).
 * - A map-edge cell leaving may raise the edge floor: it is taken again. */
#include "core/hydrology/flood_internal.h"

/* True when taking `c` out of record `id` keeps the rest connected for a
 * local reason: its neighbours in the lake form one 8-connected run around
 * it (no gap in the ring). */
static bool ring_ok(const struct flood *f, uint32_t id, int32_t c)
{
	const int w = f->width;
	/* The ring in order: E, SE, S, SW, W, NW, N, NE (even: sides). */
	const int32_t off[8] = {1, w + 1, w, w - 1, -1, -w - 1, -w, 1 - w};
	bool in[8];
	int members = 0;
	for (int i = 0; i < 8; i++) {
		in[i] = f->lake_of[c + off[i]] == id;
		members += in[i];
	}
	/* Components of the ring's members: neighbours along the ring touch,
	 * and so do consecutive sides (E and S are diagonal to each other). */
	int parent[8];
	for (int i = 0; i < 8; i++)
		parent[i] = i;
	int comps = members;
	for (int i = 0; i < 8; i++) {
		if (!in[i])
			continue;
		int links[2] = {(i + 1) % 8, (i + 2) % 8};
		int nlinks = i % 2 == 0 ? 2 : 1;
		for (int l = 0; l < nlinks; l++) {
			int j = links[l];
			if (!in[j])
				continue;
			int a = i, b = j;
			while (parent[a] != a)
				a = parent[a];
			while (parent[b] != b)
				b = parent[b];
			if (a != b) {
				parent[a] = b;
				comps--;
			}
		}
	}
	return comps == 1;
}

/* True when the lake cells around `c` still meet without it inside the
 * (2R+1)^2 box around it: the ring's runs are joined a little further out
 * (round a small island or a bay). A walk of at most (2R+1)^2 cells. */
#define NEAR_R 3
static bool ring_rejoins(const struct flood *f, uint32_t id, int32_t c)
{
	enum { S = 2 * NEAR_R + 1 };
	const int w = f->width, hh = f->height;
	int cx = c % w, cy = c / w;
	bool in[S][S], seen[S][S];
	for (int j = 0; j < S; j++) {
		for (int i = 0; i < S; i++) {
			int x = cx + i - NEAR_R, y = cy + j - NEAR_R;
			in[j][i] = x >= 0 && y >= 0 && x < w && y < hh && f->lake_of[y * w + x] == id;
			seen[j][i] = false;
		}
	}
	in[NEAR_R][NEAR_R] = false;
	int qx[S * S], qy[S * S], head = 0, tail = 0;
	for (int j = NEAR_R - 1; j <= NEAR_R + 1 && !tail; j++) {
		for (int i = NEAR_R - 1; i <= NEAR_R + 1 && !tail; i++) {
			if (in[j][i]) {
				seen[j][i] = true;
				qx[tail] = i;
				qy[tail++] = j;
			}
		}
	}
	while (head < tail) {
		int i0 = qx[head], j0 = qy[head++];
		for (int dj = -1; dj <= 1; dj++) {
			for (int di = -1; di <= 1; di++) {
				int i = i0 + di, j = j0 + dj;
				if (i < 0 || j < 0 || i >= S || j >= S || !in[j][i] || seen[j][i])
					continue;
				seen[j][i] = true;
				qx[tail] = i;
				qy[tail++] = j;
			}
		}
	}
	for (int j = NEAR_R - 1; j <= NEAR_R + 1; j++)
		for (int i = NEAR_R - 1; i <= NEAR_R + 1; i++)
			if (in[j][i] && !seen[j][i])
				return false;
	return true;
}

/* Takes `c` out of record `id` and puts it on its rim. False: no memory. */
static bool lake_remove(struct flood *f, uint32_t id, int32_t c)
{
	struct lake *k = &f->lakes[id - 1];
	/* Its new surface is not known here: a key below every surface is
	 * stale-low, and the next pop re-keys it. */
	if (!heap_push(&k->rh, -INFINITY, c))
		return false;
	rim_mark_on(f, c);
	uint32_t at = f->slot[c];
	k->sum -= fixed(k->depth[at]);
	size_t end = --k->ncells;
	int32_t last = k->cells[end];
	k->cells[at] = last;
	k->ground[at] = k->ground[end];
	k->depth[at] = k->depth[end];
	f->slot[last] = at;
	f->lake_of[c] = 0;
	/* Cells beside c that touched the lake only through c are rim no more:
	 * pops check that until the next compaction. */
	k->rim_stale = true;
	return true;
}

/* How many of record `id`'s cells are 8-connected to its cell `from` (a
 * walk over them: cheaper than a fresh flood of the lake, which sorts its
 * rim too); those reached carry this call's stamp in `seen` until the next
 * stamp. 0 when out of memory. */
static size_t lake_walk(struct flood *f, uint32_t id, int32_t from)
{
	const struct lake *k = &f->lakes[id - 1];
	if (!k->ncells)
		return 0;
	if (!grow((void **)&f->queue, &f->queue_cap, k->ncells, sizeof *f->queue))
		return 0;
	next_stamp(f);
	int32_t *q = f->queue;
	size_t head = 0, tail = 0;
	q[tail++] = from;
	f->seen[from] = f->stamp;
	const uint32_t *lake_of = f->lake_of;
	uint32_t *seen = f->seen;
	const uint32_t stamp = f->stamp;
	while (head < tail) {
		int32_t nb[8];
		int m = grid_neighbours(f->width, f->height, q[head++], nb);
		for (int j = 0; j < m; j++) {
			int32_t n = nb[j];
			if (lake_of[n] == id && seen[n] != stamp) {
				seen[n] = stamp;
				q[tail++] = n;
			}
		}
	}
	return tail;
}

/* After lake_walk found record `id` in pieces: it keeps the piece the walk
 * reached (the other cells leave it; none of them touches that piece, so
 * none is on its rim) when that is big enough to be worth a record, and
 * takes its range and edge floor again. A fresh flood from a cell of the
 * piece finds the piece and what its rim heap leads to, as from any
 * record; a pour into another piece starts afresh. False: drop it. */
static bool lake_keep_walked(struct flood *f, uint32_t id, size_t reached)
{
	struct lake *k = &f->lakes[id - 1];
	if (reached < CACHE_MIN_CELLS)
		return false;
	const int w = f->width, hh = f->height;
	double lo = INFINITY, hi = -INFINITY, floor = INFINITY;
	size_t j = 0;
	for (size_t i = 0; i < k->ncells; i++) {
		int32_t c = k->cells[i];
		if (f->seen[c] != f->stamp) {
			f->lake_of[c] = 0;
			k->sum -= fixed(k->depth[i]);
			continue;
		}
		float g = k->ground[i];
		double s = (double)g + (double)k->depth[i];
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
		int x = c % w, y = c / w;
		if ((x == 0 || y == 0 || x == w - 1 || y == hh - 1) && g < floor)
			floor = g;
		k->cells[j] = c;
		k->ground[j] = g;
		k->depth[j] = k->depth[i];
		f->slot[c] = (uint32_t)j;
		j++;
	}
	k->ncells = j;
	k->smin = lo;
	k->smax = hi;
	k->edge_floor = floor;
	/* Cells next to the pieces that left may still be on the rim heap. */
	k->rim_stale = true;
	return true;
}

/* Takes one changed cell out of its lake's record, when what is left is
 * what a fresh flood would find: the remaining cells are all still at the
 * level (their surfaces did not move) and still connected (a gapless ring
 * around it says so at once, or its runs meeting a little further out).
 * The cell goes on
 * the rim, where the next pour sorts it by its new surface. An edge cell
 * (the sea's floor) or a lake cut in two drops the record instead. */
bool flood_lake_detach(struct flood *f, uint32_t id, int32_t c)
{
	struct lake *k = &f->lakes[id - 1];
	const int w = f->width, hh = f->height;
	int x = c % w, y = c / w;
	if (x < 1 || y < 1 || x >= w - 1 || y >= hh - 1 || k->ncells < 2)
		return false;
	if (!ring_ok(f, id, c) && !ring_rejoins(f, id, c)) {
		/* Maybe in pieces: the next pour from it finds out (and a
		 * record is worth keeping while no pour comes). */
		if (!lake_remove(f, id, c))
			return false;
		k->split = true;
		return true;
	}
	return lake_remove(f, id, c);
}

/* Before a pour from cell `start` of a record that may be in pieces: one
 * walk from `start` keeps the piece it is in (what a fresh flood from it
 * finds, as after a drain's shed: lake_keep_walked), or drops the record. */
void flood_lake_settle_split(struct flood *f, uint32_t id, int32_t start)
{
	struct lake *k = &f->lakes[id - 1];
	size_t reached = lake_walk(f, id, start);
	bool ok = reached && (reached == k->ncells || lake_keep_walked(f, id, reached));
	next_stamp(f);
	if (ok)
		k->split = false;
	else
		flood_lake_kill(f, id);
}
/* After a drain lowered a lake, cells whose ground stands above the new
 * level are dry: a fresh flood would leave them out (as rim) and the
 * record, holding them, could not be used. They leave it the way a changed
 * cell does (flood_lake_detach), and the range is taken again without them; if
 * one cannot leave, the record is dropped. */

void flood_shed_dry(struct flood *f, uint32_t id, double cut)
{
	struct lake *k = &f->lakes[id - 1];
	if (!grow((void **)&f->stack, &f->stack_cap, k->ncells, sizeof *f->stack)) {
		flood_lake_kill(f, id);
		return;
	}
	/* One pass: the dry cells, and the range of the cells that stay (what
	 * is left after the removals below). */
	size_t n = 0;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < k->ncells; i++) {
		float g = k->ground[i];
		if (g > cut) {
			f->stack[n++] = k->cells[i];
			continue;
		}
		double s = (double)g + (double)k->depth[i];
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	if (!n)
		return;
	k->smin = lo;
	k->smax = hi;
	flood_shed_cells(f, id, f->stack, n);
}

/* Takes the dry cells `dry` out of record `id`, whose range is already
 * that of the cells that stay (flood_shed_dry, or the level write that
 * listed them). */
void flood_shed_cells(struct flood *f, uint32_t id, const int32_t *dry, size_t n)
{
	struct lake *k = &f->lakes[id - 1];
	const int w = f->width, hh = f->height;
	/* The edge floor is the lowest ground of the edge cells: only the
	 * leaving of a cell at that ground can raise it. */
	bool rings = true, edge = false;
	for (size_t i = 0; i < n; i++) {
		int32_t c = dry[i];
		int x = c % w, y = c / w;
		if (k->ncells < 2) {
			flood_lake_kill(f, id);
			return;
		}
		if (x < 1 || y < 1 || x >= w - 1 || y >= hh - 1) {
			/* On the map edge the ring is cut by the map's border:
			 * only the box walk (which stays on the map) applies.
			 * Its edge floor is taken again below if it was the
			 * lowest. */
			edge = edge || !(k->ground[f->slot[c]] > k->edge_floor);
			rings = rings && ring_rejoins(f, id, c);
		} else {
			rings = rings && (ring_ok(f, id, c) || ring_rejoins(f, id, c));
		}
		if (!lake_remove(f, id, c)) {
			flood_lake_kill(f, id);
			return;
		}
	}
	if (edge) {
		/* An edge cell left: the lake's edge floor is taken again
		 * (INFINITY: it no longer touches the edge, and heap_top drops
		 * its sea entries). */
		double floor = INFINITY;
		for (size_t i = 0; i < k->ncells; i++) {
			int32_t c = k->cells[i];
			int x = c % w, y = c / w;
			if ((x == 0 || y == 0 || x == w - 1 || y == hh - 1) && k->ground[i] < floor)
				floor = k->ground[i];
		}
		k->edge_floor = floor;
	}
	/* One walk for all of them, if a ring had a gap; a lake the drain cut
	 * in pieces keeps the piece the walk reached. */
	if (!rings) {
		size_t reached = lake_walk(f, id, k->cells[0]);
		bool ok = reached && (reached == k->ncells || lake_keep_walked(f, id, reached));
		next_stamp(f);
		if (!ok)
			flood_lake_kill(f, id);
	}
}
