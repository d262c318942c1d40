/* SimpleHydrology 2020's surface normal (hydrology.normal = 2020): the
 * normalised sum of four cross products of the edge vectors from a cell to
 * its four axis neighbours, (0, s dh(+y), 1) x (1, s dh(+x), 0) and its three
 * turns, with dh(n) = h(n) - h(centre) and s the vertical scale. Each product
 * is (-+ s dh(x), 1, -+ s dh(y)) exactly, so the sum is
 *     (2 s (h(x-1) - h(x+1)), 4, 2 s (h(y-1) - h(y+1)))
 * before normalising: a central difference. Against the particles normal
 * (particles_normal.h) it has no diagonal terms and no 1/sqrt(a^2 + 1)
 * damping of steep neighbours; on gentle slopes its sideways part is about
 * twice as large. A neighbour off the map counts as level with the cell
 * (the seed reads past its array there). The sums are in the seed's order
 * (term 1 + 2 + 3 + 4), in float like its glm::vec3. Private to src/core. */
#ifndef GULLY_HYDROLOGY_NORMAL2020_H
#define GULLY_HYDROLOGY_NORMAL2020_H

#include <math.h>
#include <stddef.h>

static inline void hydrology_normal2020(const float *h, int width, int height, int x, int y,
					float scale, float n[3])
{
	const size_t c = (size_t)y * (size_t)width + (size_t)x, w = (size_t)width;
	const float hc = h[c];
	const float px = x + 1 < width ? scale * (h[c + 1] - hc) : 0.0f;
	const float mx = x > 0 ? scale * (h[c - 1] - hc) : 0.0f;
	const float py = y + 1 < height ? scale * (h[c + w] - hc) : 0.0f;
	const float my = y > 0 ? scale * (h[c - w] - hc) : 0.0f;
	const float nx = ((-px + mx) + -px) + mx;
	const float nz = ((-py + my) + my) + -py;
	const float len = sqrtf(nx * nx + 16.0f + nz * nz);
	n[0] = nx / len;
	n[1] = 4.0f / len;
	n[2] = nz / len;
}

#endif
