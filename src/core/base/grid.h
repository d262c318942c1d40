/* Cells of a width x height map by index (y * width + x): the 8 neighbours
 * of a cell, the ones on the map only. One bounds-checked walk for every
 * process, instead of a dx/dy double loop with its four tests written out
 * at each use. */
#ifndef GULLY_GRID_H
#define GULLY_GRID_H

#include <stdbool.h>
#include <stdint.h>

/* True when `cell` is on the map's border (its neighbours are fewer than 8). */
static inline bool grid_on_edge(int width, int height, int32_t cell)
{
	int x = cell % width, y = cell / width;
	return x == 0 || y == 0 || x == width - 1 || y == height - 1;
}

/* The neighbours of `cell` that are on the map, into `out`, in the order
 * E, W, S, N, SE, NE, SW, NW; returns how many: 8 inside the map, 5 on an
 * edge, 3 in a corner (so fewer than 8 says the cell is on the edge). */
static inline int grid_neighbours(int width, int height, int32_t cell, int32_t out[8])
{
	int x = cell % width, y = cell / width;
	if (x > 0 && y > 0 && x < width - 1 && y < height - 1) {
		/* Inside: no bound to test. */
		out[0] = cell + 1;
		out[1] = cell - 1;
		out[2] = cell + width;
		out[3] = cell - width;
		out[4] = cell + width + 1;
		out[5] = cell - width + 1;
		out[6] = cell + width - 1;
		out[7] = cell - width - 1;
		return 8;
	}
	static const int8_t dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
	static const int8_t dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
	int n = 0;
	for (int k = 0; k < 8; k++) {
		int nx = x + dx[k], ny = y + dy[k];
		if (nx >= 0 && ny >= 0 && nx < width && ny < height)
			out[n++] = ny * width + nx;
	}
	return n;
}

#endif
