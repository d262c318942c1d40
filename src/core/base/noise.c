#include "core/base/noise.h"

#include <math.h>

#include "core/base/rng.h"

void noise_init(struct noise *n, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed, 0x6e6f697365ULL); /* "noise": a stream of its own */
	for (int i = 0; i < 256; i++)
		n->perm[i] = (uint8_t)i;
	for (int i = 255; i > 0; i--) {
		uint32_t j = rng_below(&r, (uint32_t)i + 1);
		uint8_t t = n->perm[i];
		n->perm[i] = n->perm[j];
		n->perm[j] = t;
	}
	for (int i = 0; i < 256; i++)
		n->perm[256 + i] = n->perm[i];
}

static float fade(float t)
{
	return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f);
}

static float lerp(float a, float b, float t)
{
	return a + t * (b - a);
}

/* Eight unit-ish gradient directions: axes and diagonals. */
static float grad(int hash, float x, float y)
{
	switch (hash & 7) {
	case 0: return x + y;
	case 1: return -x + y;
	case 2: return x - y;
	case 3: return -x - y;
	case 4: return 1.41421356f * x;
	case 5: return -1.41421356f * x;
	case 6: return 1.41421356f * y;
	default: return -1.41421356f * y;
	}
}

/* The lattice index, f mod 256. (int)f & 255 is the same for every f an int
 * holds, but high octaves (frequency 64, lacunarity 4, 16 octaves) reach
 * 7e10, where the conversion is undefined (the float-cast-overflow
 * sanitizer caught it); fmod of a whole float is exact. */
static int lattice(float f)
{
	double m = fmod((double)f, 256.0);
	return (int)(m < 0 ? m + 256.0 : m);
}

float noise_gradient(const struct noise *n, float x, float y)
{
	float fx = floorf(x), fy = floorf(y);
	int xi = lattice(fx), yi = lattice(fy);
	x -= fx;
	y -= fy;
	float u = fade(x), v = fade(y);
	const uint8_t *p = n->perm;
	int aa = p[p[xi] + yi], ab = p[p[xi] + yi + 1];
	int ba = p[p[xi + 1] + yi], bb = p[p[xi + 1] + yi + 1];
	float r = lerp(lerp(grad(aa, x, y), grad(ba, x - 1, y), u),
		       lerp(grad(ab, x, y - 1), grad(bb, x - 1, y - 1), u), v);
	return r * 0.7071f * 1.41421356f;
}

float noise_fbm(const struct noise *n, float x, float y, int octaves,
		float persistence, float lacunarity)
{
	float sum = 0, amp = 1, norm = 0;
	for (int o = 0; o < octaves; o++) {
		/* Offset each octave so their lattice points do not line up. */
		sum += amp * noise_gradient(n, x + 17.31f * (float)o, y - 9.17f * (float)o);
		norm += amp;
		amp *= persistence;
		x *= lacunarity;
		y *= lacunarity;
	}
	return norm > 0 ? sum / norm : 0;
}

float noise_ridged(const struct noise *n, float x, float y, int octaves,
		   float persistence, float lacunarity)
{
	float sum = 0, amp = 1, norm = 0, weight = 1;
	for (int o = 0; o < octaves; o++) {
		float r = 1.0f - fabsf(noise_gradient(n, x + 17.31f * (float)o,
						     y - 9.17f * (float)o));
		r *= r;
		r *= weight;
		weight = fminf(1.0f, fmaxf(0.0f, r * 2.0f));
		sum += amp * r;
		norm += amp;
		amp *= persistence;
		x *= lacunarity;
		y *= lacunarity;
	}
	return norm > 0 ? sum / norm : 0;
}
