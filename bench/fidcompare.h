/* Fidelity measures between two runs on the same starting terrain (issue 15,
 * /work/shared/reference/README.md): eroded and deposited volume, the
 * correlation of the height change (plain and after a radius-3 box blur),
 * pool cells and volume, the overlap (intersection over union) of the pool
 * masks, and pool cells on the map's edge. Used by bench_fidelity and by
 * tests/test_fidelity.c. */
#ifndef GULLY_BENCH_FIDCOMPARE_H
#define GULLY_BENCH_FIDCOMPARE_H

#include <stddef.h>

/* One run against its start. */
struct fid_run {
	double eroded, deposited;  /* sum of the height lost / gained per cell */
	size_t pool_cells;         /* cells with pool > 0 */
	double pool_volume;        /* sum of pool */
	size_t edge_pool_cells;    /* pool cells on the map's outer ring */
	size_t big_edge_lakes;     /* 8-connected pools of >= 100 cells touching the edge */
	size_t pools, small_pools; /* 8-connected pools; those under 10 cells */
};

/* Two runs against each other. */
struct fid_pair {
	double corr;      /* Pearson correlation of (after - before) */
	double corr_blur; /* the same after a radius-3 box blur of both */
	double iou;       /* |A and B| / |A or B| of the pool masks */
	double eroded_ratio; /* a's eroded volume / b's */
};

/* `pool` may be NULL (no pools). Returns 0, or -1 when out of memory. */
int fid_run_measure(const float *before, const float *after, const float *pool, int width,
		    int height, struct fid_run *r);
int fid_pair_measure(const float *before, const float *after_a, const float *pool_a,
		     const float *after_b, const float *pool_b, int width, int height,
		     struct fid_pair *p);

#endif
