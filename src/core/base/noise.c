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

/* Eight unit-ish gradient directions: axes and diagonals (hash & 7: x + y,
 * -x + y, x - y, -x - y, then 1.41421356 times x, -x, y, -y). Written as
 * selects rather than a switch: the hash is random, so a switch's branch
 * was mispredicted about every other call (the terrain's making spent a
 * third of its time here). Each case's value is the same float as the
 * switch gave: negation is exact, and x - y is x + (-y). */
static float grad(int hash, float x, float y)
{
	const float sx = (hash & 1) ? -x : x;
	const float axes = 1.41421356f * ((hash & 1) ? -1.0f : 1.0f) * ((hash & 2) ? y : x);
	const float diagonal = sx + ((hash & 2) ? -y : y);
	return (hash & 4) ? axes : diagonal;
}

/* The lattice index, f mod 256, for a whole f. Inside an int's range it is
 * the low byte of (int)f (two's complement wraps negative f the way fmod
 * plus 256 does). Beyond it (frequency 64, lacunarity 4, 16 octaves reach
 * 7e10) the conversion would be undefined (the float-cast-overflow
 * sanitizer caught it), so fmod, exact for a whole float, takes it there;
 * fmod everywhere cost a sixth of the terrain's making. */
static int lattice(float f)
{
	if (f > -2147483648.0f && f < 2147483648.0f)
		return (int)f & 255;
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
