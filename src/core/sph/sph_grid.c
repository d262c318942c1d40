/* Neighbour search: a uniform grid of cells one smoothing radius wide over
 * the particles' bounding box, rebuilt every step by a counting sort on
 * x-fastest linear keys, with the particles physically reordered so the 27
 * cells around a particle are 9 contiguous runs of the arrays. */
#include "core/sph/sph.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/v2.h" /* GULLY_USE_SSE2 */
#include "core/base/workers.h"

/* A grid never has more cells than this; extra height layers are merged into
 * the top one (which loses no neighbour: it only costs time). */
#define GRID_MAX_CELLS (1u << 22)

/* Particle i's grid cell: the force pass's, when it found it (the same
 * sph_cell_of of the same positions), or found now. */
static inline void cell_xyz(const struct sph *s, int i, double inv_h, int c[3])
{
	if (i < s->pre_n) {
		const int32_t *k = s->kcell + 3 * (size_t)i;
		c[0] = k[0];
		c[1] = k[1];
		c[2] = k[2];
		return;
	}
	c[0] = sph_cell_of(s->p.x[i], inv_h);
	c[1] = sph_cell_of(s->p.y[i], inv_h);
	c[2] = sph_cell_of(s->p.z[i], inv_h);
}

/* Cell bounds of particles [from, to), less those with dead[i] == 1 when
 * skip is set: lo > hi when none is left. */
static void range_bounds(const struct sph *s, int from, int to, bool skip, double inv_h,
			 int lo[3], int hi[3])
{
	lo[0] = lo[1] = lo[2] = 1;
	hi[0] = hi[1] = hi[2] = 0;
	bool first = true;
	for (int i = from; i < to; i++) {
		if (skip && s->dead[i] == 1)
			continue;
		int c[3];
		cell_xyz(s, i, inv_h, c);
		for (int a = 0; a < 3; a++) {
			if (first || c[a] < lo[a])
				lo[a] = c[a];
			if (first || c[a] > hi[a])
				hi[a] = c[a];
		}
		first = false;
	}
}

/* The grid from the particles' cell bounds (exact min and max, so any split
 * of the particles gives the same grid). */
static void grid_from_bounds(struct sph *s, const int lo[3], const int hi[3])
{
	s->gx0 = lo[0];
	s->gy0 = lo[1];
	s->gz0 = lo[2];
	s->gnx = hi[0] - lo[0] + 1;
	s->gny = hi[1] - lo[1] + 1;
	long layers = (long)(GRID_MAX_CELLS / ((unsigned)s->gnx * (unsigned)s->gny));
	long nz = (long)hi[2] - lo[2] + 1;
	s->gnz = (int)(nz < layers ? nz : (layers > 1 ? layers : 1));
}

static uint32_t key_of(const struct sph *s, int i, double inv_h)
{
	int c[3];
	cell_xyz(s, i, inv_h, c);
	int cx = c[0] - s->gx0, cy = c[1] - s->gy0, cz = c[2] - s->gz0;
	if (cz >= s->gnz)
		cz = s->gnz - 1;
	return ((uint32_t)cz * (uint32_t)s->gny + (uint32_t)cy) * (uint32_t)s->gnx + (uint32_t)cx;
}

static void move(struct sph_particles *to, int j, const struct sph_particles *from, int i)
{
	to->x[j] = from->x[i];
	to->y[j] = from->y[i];
	to->z[j] = from->z[i];
	to->vx[j] = from->vx[i];
	to->vy[j] = from->vy[i];
	to->vz[j] = from->vz[i];
	to->mud[j] = from->mud[i];
	to->id[j] = from->id[i];
	to->grounded[j] = from->grounded[i];
}

int sph_compact_range(struct sph *s, int from, int to, int at)
{
	int n = at;
	for (int i = from; i < to; i++)
		if (s->dead[i] != 1)
			move(&s->q, n++, &s->p, i);
	return n - at;
}

/* The sort's passes: the whole sort as one task (a small scene), or the
 * three that split over the particles: the cell bounds, the keys, and the
 * gathers of the sorted order from the places the serial pass gave. */
enum sort_pass { SORT_WHOLE, SORT_BOUNDS, SORT_KEYS, SORT_GATHER };

#define SORT_TASKS_MAX 64
/* Below this many particles the sort is a few hundred microseconds and
 * three more hand-offs cost more than they save (bench/SPH.md). */
#define SORT_SPLIT_MIN 16384

struct sort_job {
	struct sph *s;
	enum sort_pass pass;
	int tasks; /* the sort's own tasks in a round */
	const struct sph_side *side; /* run in the first round, after them */
	bool skip; /* leave out dead[i] == 1 */
	int err;
	double inv_h;
	int lo[SORT_TASKS_MAX][3], hi[SORT_TASKS_MAX][3];
};

static void sort_rest(struct sort_job *j, bool gather);

static void sort_task(void *arg, int task, int worker)
{
	(void)worker;
	struct sort_job *j = arg;
	struct sph *s = j->s;
	if (task >= j->tasks) {
		j->side->run(j->side->arg, task - j->tasks);
		return;
	}
	long from, to;
	workers_share(s->n, task, j->tasks, &from, &to);
	if (j->pass == SORT_WHOLE) {
		range_bounds(s, 0, s->n, j->skip, j->inv_h, j->lo[0], j->hi[0]);
		sort_rest(j, true);
	} else if (j->pass == SORT_BOUNDS) {
		range_bounds(s, (int)from, (int)to, j->skip, j->inv_h, j->lo[task], j->hi[task]);
	} else if (j->pass == SORT_KEYS) {
		for (long i = from; i < to; i++)
			if (!j->skip || s->dead[i] != 1)
				s->key[i] = key_of(s, (int)i, j->inv_h);
	} else {
		sph_sort_gather(s, (int)from, (int)to);
	}
}

/* One round of the sort's tasks, with the side work when `side` is set.
 * Inside the whole-sort task (one task, no side work) the round is a plain
 * loop on the calling thread: workers_for is never entered twice. */
static void sort_run(struct sort_job *j, enum sort_pass pass, bool side)
{
	j->pass = pass;
	int tasks = j->tasks + (side && j->side ? j->side->tasks : 0);
	workers_for(tasks > 1 ? j->s->workers : NULL, tasks, sort_task, j);
}

/* The grid from the bounds of the first pass: exact min and max over the
 * shares, so any split gives the same grid; one cell when no particle is
 * left. */
static void sort_grid(struct sort_job *j)
{
	int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
	bool any = false;
	for (int t = 0; t < j->tasks; t++) {
		if (j->lo[t][0] > j->hi[t][0])
			continue; /* an empty share */
		for (int a = 0; a < 3; a++) {
			lo[a] = !any || j->lo[t][a] < lo[a] ? j->lo[t][a] : lo[a];
			hi[a] = !any || j->hi[t][a] > hi[a] ? j->hi[t][a] : hi[a];
		}
		any = true;
	}
	grid_from_bounds(j->s, lo, hi);
}

/* Stable counting sort (histogram, exclusive prefix sum, places), so the
 * order, and every result after it, depends on the positions alone. The
 * bounds, the keys and the gathers split over the workers (sph_tasks); the
 * histogram and each particle's place stay serial, in particle order. Then
 * the arrays swap: p is the sorted order, to gather from q (with `gather`
 * here; else by sph_sort_gather). */
static void sort_rest(struct sort_job *j, bool gather)
{
	struct sph *s = j->s;
	sort_grid(j);
	size_t cells = (size_t)s->gnx * (size_t)s->gny * (size_t)s->gnz;
	if (cells + 1 > s->cells_cap) {
		uint32_t *c = realloc(s->cstart, (cells + 1) * sizeof *c);
		if (!c) {
			j->err = GULLY_ENOMEM;
			return;
		}
		s->cstart = c;
		s->cells_cap = cells + 1;
	}
	memset(s->cstart, 0, (cells + 1) * sizeof *s->cstart);
	if (s->n)
		sort_run(j, SORT_KEYS, false);
	for (int i = 0; i < s->n; i++)
		if (!j->skip || s->dead[i] != 1)
			s->cstart[s->key[i] + 1]++;
	for (size_t c = 0; c < cells; c++)
		s->cstart[c + 1] += s->cstart[c];
	/* Each particle's place, with a running cursor per cell: cstart[k]
	 * walks up to cstart[k+1]'s old value, then is restored from the
	 * cursor's end. */
	for (int i = 0; i < s->n; i++)
		if (!j->skip || s->dead[i] != 1)
			s->order[s->cstart[s->key[i]]++] = (uint32_t)i;
	for (size_t c = cells; c > 0; c--)
		s->cstart[c] = s->cstart[c - 1];
	s->cstart[0] = 0;
	struct sph_particles t = s->p;
	s->p = s->q;
	s->q = t;
	s->n = (int)s->cstart[cells];
	s->dying = 0;
	s->pre_n = 0; /* the cells found before are in the old order */
	if (gather && s->n)
		sort_run(j, SORT_GATHER, false);
}

void sph_sort_gather(struct sph *s, int from, int to)
{
	for (int d = from; d < to; d++)
		move(&s->p, d, &s->q, (int)s->order[d]);
}

/* After the sort's rounds (side work touches nothing the sort does). */
static int sort_finish(struct sort_job *j)
{
	j->s->pre_n = 0; /* the particles moved (or the sort failed) */
	return j->err;
}

static int sort_tasks(const struct sph *s)
{
	int tasks = s->n >= SORT_SPLIT_MIN ? sph_tasks(s, s->n) : 1;
	return tasks < SORT_TASKS_MAX ? tasks : SORT_TASKS_MAX;
}

bool sph_sort_splits(const struct sph *s)
{
	return sort_tasks(s) > 1;
}

static void sort_open(struct sph *s, const struct sph_side *side, struct sort_job *j)
{
	if (s->pre_n > s->n || s->pre_h != s->cfg.h)
		s->pre_n = 0;
	*j = (struct sort_job){.s = s, .tasks = sort_tasks(s),
			       .side = side && side->tasks > 0 ? side : NULL,
			       .skip = s->dying > 0, .inv_h = 1.0 / s->cfg.h};
}

int sph_sort_with(struct sph *s, const struct sph_side *side)
{
	struct sort_job j;
	sort_open(s, side, &j);
	if (j.tasks == 1) {
		sort_run(&j, SORT_WHOLE, true);
	} else {
		sort_run(&j, SORT_BOUNDS, true);
		if (!j.err)
			sort_rest(&j, true);
	}
	return sort_finish(&j);
}

int sph_sort_plan(struct sph *s)
{
	struct sort_job j;
	sort_open(s, NULL, &j);
	j.tasks = 1;
	range_bounds(s, 0, s->n, j.skip, j.inv_h, j.lo[0], j.hi[0]);
	sort_rest(&j, false);
	return sort_finish(&j);
}

int sph_sort(struct sph *s)
{
	return sph_sort_with(s, NULL);
}

/* One candidate within reach: its poly6 share to the sum, itself to the
 * list (all but i, the first max of them). */
static inline void neighbour_hit(uint32_t j, int i, float t, float *sum, int32_t *out, int max,
				 int *count)
{
	*sum += t * t * t;
	if ((int)j == i)
		return;
	if (*count < max)
		out[*count] = (int32_t)j;
	(*count)++;
}

/* Candidates a..b-1 of one run against particle i. Most of them are out of
 * reach, and which is a coin toss for a branch predictor, so four are
 * measured at once and only the hits are visited, in order: each lane is
 * the scalar expression's IEEE arithmetic, so the sum and the list are the
 * same bits as a one-by-one loop's. */
static void neighbour_run(const struct sph *s, int i, uint32_t a, uint32_t b, float h2,
			  float *sum, int32_t *out, int max, int *count)
{
	const float *px = s->p.x, *py = s->p.y, *pz = s->p.z;
	const float xi = px[i], yi = py[i], zi = pz[i];
	uint32_t j = a;
#if GULLY_USE_SSE2
	const __m128 vx = _mm_set1_ps(xi), vy = _mm_set1_ps(yi), vz = _mm_set1_ps(zi);
	const __m128 vh2 = _mm_set1_ps(h2);
	for (; j + 4 <= b; j += 4) {
		__m128 dx = _mm_sub_ps(vx, _mm_loadu_ps(px + j));
		__m128 dy = _mm_sub_ps(vy, _mm_loadu_ps(py + j));
		__m128 dz = _mm_sub_ps(vz, _mm_loadu_ps(pz + j));
		__m128 r2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)),
				       _mm_mul_ps(dz, dz));
		unsigned hits = (unsigned)_mm_movemask_ps(_mm_cmplt_ps(r2, vh2));
		if (!hits)
			continue;
		float t[4];
		_mm_storeu_ps(t, _mm_sub_ps(vh2, r2));
		do {
			unsigned k = (unsigned)__builtin_ctz(hits);
			neighbour_hit(j + k, i, t[k], sum, out, max, count);
			hits &= hits - 1;
		} while (hits);
	}
#endif
	for (; j < b; j++) {
		float dx = xi - px[j], dy = yi - py[j], dz = zi - pz[j];
		float r2 = dx * dx + dy * dy + dz * dz;
		if (r2 < h2)
			neighbour_hit(j, i, h2 - r2, sum, out, max, count);
	}
}

/* Walks the 9 runs around particle i; writes up to max neighbours within h
 * and adds m W_poly6 of every neighbour (and of itself) to *rho_sum. */
int sph_neighbours(const struct sph *s, int i, int32_t *out, int max, float *rho_sum)
{
	double inv_h = 1.0 / s->cfg.h;
	int cx = sph_cell_of(s->p.x[i], inv_h) - s->gx0;
	int cy = sph_cell_of(s->p.y[i], inv_h) - s->gy0;
	int cz = sph_cell_of(s->p.z[i], inv_h) - s->gz0;
	if (cz >= s->gnz)
		cz = s->gnz - 1;
	const float h2 = (float)s->cfg.h2;
	int count = 0;
	float sum = 0;
	int xa = cx > 0 ? cx - 1 : 0, xb = cx + 1 < s->gnx ? cx + 1 : s->gnx - 1;
	for (int z = cz - 1; z <= cz + 1; z++) {
		if (z < 0 || z >= s->gnz)
			continue;
		for (int y = cy - 1; y <= cy + 1; y++) {
			if (y < 0 || y >= s->gny)
				continue;
			size_t row = ((size_t)z * (size_t)s->gny + (size_t)y) * (size_t)s->gnx;
			uint32_t a = s->cstart[row + (size_t)xa], b = s->cstart[row + (size_t)xb + 1];
			neighbour_run(s, i, a, b, h2, &sum, out, max, &count);
		}
	}
	*rho_sum = sum * (float)(s->cfg.mass * s->cfg.poly6);
	return count;
}

/* The grid cell holding sorted particle i (i < n): the last with
 * cstart[c] <= i. */
static size_t cell_holding(const struct sph *s, long i)
{
	size_t lo = 0, hi = (size_t)s->gnx * (size_t)s->gny * (size_t)s->gnz;
	while (hi - lo > 1) { /* cstart[lo] <= i < cstart[hi] */
		size_t mid = lo + (hi - lo) / 2;
		if ((long)s->cstart[mid] <= i)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* sph_neighbours' runs lie within one layer, one row and one cell of a
 * particle's key, so the span runs from the first of the cell `reach` keys
 * before the first particle's to the last of the cell `reach` keys after the
 * last one's. */
void sph_neighbour_span(const struct sph *s, long from, long to, long *lo, long *hi)
{
	size_t cells = (size_t)s->gnx * (size_t)s->gny * (size_t)s->gnz;
	size_t reach = (size_t)s->gnx * (size_t)s->gny + (size_t)s->gnx + 1;
	size_t c0 = cell_holding(s, from), c1 = cell_holding(s, to - 1);
	*lo = s->cstart[c0 > reach ? c0 - reach : 0];
	*hi = s->cstart[c1 + reach + 1 < cells ? c1 + reach + 1 : cells];
}
