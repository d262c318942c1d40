/* Seeded 2-D gradient noise (Perlin's improved noise) and its fractal sums. */
#ifndef GULLY_NOISE_H
#define GULLY_NOISE_H

#include <stdint.h>

struct noise {
	uint8_t perm[512];
	float permf[512]; /* perm as floats, for the wide row's gathers */
};

void noise_init(struct noise *n, uint64_t seed);
/* Gradient noise at (x, y), roughly in [-1, 1], 0 at integer lattice points. */
float noise_gradient(const struct noise *n, float x, float y);
/* Fractal Brownian motion: octaves of noise, each at `lacunarity` times the
 * frequency and `persistence` times the amplitude; normalised to about [-1, 1]. */
float noise_fbm(const struct noise *n, float x, float y, int octaves,
		float persistence, float lacunarity);
/* noise_fbm at (x * xfreq, y) for x = x0 .. x0 + count - 1, into out[0 ..
 * count - 1]: the same bits as noise_fbm cell by cell, several cells a
 * vector where SSE2 exists (the terrain's and the hardness map's rows). */
void noise_fbm_row(const struct noise *n, int x0, int count, float xfreq, float y, int octaves,
		   float persistence, float lacunarity, float *out);
/* Ridged multifractal: sharp crests where the noise crosses zero; in [0, 1]. */
float noise_ridged(const struct noise *n, float x, float y, int octaves,
		   float persistence, float lacunarity);

#endif
