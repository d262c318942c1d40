/* Seeded 2-D gradient noise (Perlin's improved noise) and its fractal sums. */
#ifndef GULLY_NOISE_H
#define GULLY_NOISE_H

#include <stdint.h>

struct noise {
	uint8_t perm[512];
};

void noise_init(struct noise *n, uint64_t seed);
/* Gradient noise at (x, y), roughly in [-1, 1], 0 at integer lattice points. */
float noise_gradient(const struct noise *n, float x, float y);
/* Fractal Brownian motion: octaves of noise, each at `lacunarity` times the
 * frequency and `persistence` times the amplitude; normalised to about [-1, 1]. */
float noise_fbm(const struct noise *n, float x, float y, int octaves,
		float persistence, float lacunarity);
/* Ridged multifractal: sharp crests where the noise crosses zero; in [0, 1]. */
float noise_ridged(const struct noise *n, float x, float y, int octaves,
		   float persistence, float lacunarity);

#endif
