/* Which tree stands on a cell: a hash table from cell to the tree's slot
 * (hydrology_trees.c). Its size follows the trees, not the map: an array
 * of every cell (64 MB at 4096x4096) has its pages first touched one by
 * one as the first trees spread over a big map, a cost of the map's area
 * that the trees' work does not need (bench/HYDROLOGY.md, "The tree map
 * follows the trees"). Open addressing with linear probing, at most half
 * full; a removal shifts the entries behind it back, so no tombstones
 * build up over a long run. A forest so dense that the table would
 * outgrow that array becomes the array, so the memory never passes it.
 * What it answers never depends on its layout, so the run's results do
 * not either. A bit per run of 16 cells (the stream map's tiles) says
 * whether a tree stands in it: the batch's note of the trees on visited
 * cells skips the runs without one and their root bytes, scattered over a
 * big map. */
#ifndef GULLY_HYDROLOGY_TREE_MAP_H
#define GULLY_HYDROLOGY_TREE_MAP_H

#include <stddef.h>
#include <stdint.h>

struct tree_map_entry {
	uint32_t cell; /* TREE_MAP_EMPTY: a free entry */
	uint32_t slot;
};

struct tree_map {
	struct tree_map_entry *e;
	size_t cap;     /* 0 or a power of two */
	size_t n;       /* trees filed */
	size_t cells;   /* the map's */
	uint32_t *dense; /* once the forest is dense: slot + 1 per cell, 0 none */
	uint64_t *runs;  /* a bit per run of cells: a tree stands in it */
};

/* Runs of this many cells (16: the stream map's tiles) have a bit saying
 * whether a tree stands on one of them. */
#define TREE_MAP_RUN_SHIFT 4

#define TREE_MAP_EMPTY UINT32_MAX

/* An empty map for cells [0, cells). */
void tree_map_init(struct tree_map *m, size_t cells);
/* The slot of the tree on `cell` + 1, or 0 when there is none. */
uint32_t tree_map_get(const struct tree_map *m, uint32_t cell);
/* Files the tree in `slot` on `cell`, which has none: GULLY_OK or
 * GULLY_ENOMEM (the map is unchanged then). */
int tree_map_put(struct tree_map *m, uint32_t cell, uint32_t slot);
/* Forgets the tree on `cell`, if any. */
void tree_map_remove(struct tree_map *m, uint32_t cell);
/* Whether a tree stands on a cell of the run holding `cell`. */
static inline int tree_map_run_any(const struct tree_map *m, uint32_t cell)
{
	const uint32_t run = cell >> TREE_MAP_RUN_SHIFT;
	return m->runs && (m->runs[run >> 6] >> (run & 63) & 1);
}
/* Forgets every tree (a dense map becomes a table again). */
void tree_map_clear(struct tree_map *m);
void tree_map_free(struct tree_map *m);

#endif
