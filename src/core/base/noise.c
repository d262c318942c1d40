#include "core/base/noise.h"

#include <math.h>

#include "core/base/rng.h"
#include "core/base/v2.h"

#if GULLY_USE_SSE2
#include "core/base/floatw.h"
#endif

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
	for (int i = 0; i < 512; i++)
		n->permf[i] = (float)n->perm[i];
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
 * is mispredicted about every other call (bench/HISTORY.md, "making the
 * terrain"). Each case's value is the same float as a switch's: negation
 * is exact, and x - y is x + (-y). */
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
 * sanitizer caught it), so fmod, exact for a whole float, takes it there
 * and only there, since it is slow (bench/HISTORY.md, "making the
 * terrain"). */
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

#if GULLY_USE_SSE2
/* The wide twin of the functions above: lane j is cell j, doing their
 * operations in their order (base/floatw.h: lane-wise IEEE arithmetic, so
 * the same bits). */

static inline floatw fade_w(floatw t)
{
	const floatw t3 = fw_mul(fw_mul(t, t), t);
	const floatw in = fw_add(fw_mul(t, fw_sub(fw_mul(t, fw_set1(6.0f)), fw_set1(15.0f))),
				 fw_set1(10.0f));
	return fw_mul(t3, in);
}

static inline floatw lerp_w(floatw a, floatw b, floatw t)
{
	return fw_add(a, fw_mul(t, fw_sub(b, a)));
}

/* grad's selects; the hash arrives as a float (a perm entry, 0..255). */
static inline floatw grad_w(floatw hash, floatw x, floatw y)
{
	const intw h = fw_trunc(hash);
	const intw b1 = iw_set1(1), b2 = iw_set1(2), b4 = iw_set1(4);
	const floatw m1 = fw_from_i(iw_eq(iw_and(h, b1), b1));
	const floatw m2 = fw_from_i(iw_eq(iw_and(h, b2), b2));
	const floatw m4 = fw_from_i(iw_eq(iw_and(h, b4), b4));
	const floatw c = fw_blend(m1, fw_set1(-1.41421356f), fw_set1(1.41421356f));
	const floatw axes = fw_mul(c, fw_blend(m2, y, x));
	const floatw diagonal = fw_add(fw_blend(m1, fw_neg(x), x), fw_blend(m2, fw_neg(y), y));
	return fw_blend(m4, axes, diagonal);
}

/* The lattice index of a whole f: the low byte of its truncation. A float
 * too big for an int truncates to INT_MIN, whose low byte 0 is what fmod
 * gives there too (from 2^31 up a float is a multiple of 256), so no lane
 * needs the scalar lattice's fmod. */
static inline intw lattice_w(floatw f)
{
	return iw_and(fw_trunc(f), iw_set1(255));
}

static floatw gradient_w(const struct noise *n, floatw x, floatw y)
{
	const floatw fx = fw_floor(x), fy = fw_floor(y);
	const intw xi = lattice_w(fx), yi = lattice_w(fy), one = iw_set1(1);
	x = fw_sub(x, fx);
	y = fw_sub(y, fy);
	const floatw u = fade_w(x), v = fade_w(y);
	const intw a = fw_trunc(fw_gather(n->permf, xi));
	const intw b = fw_trunc(fw_gather(n->permf, iw_add(xi, one)));
	const floatw aa = fw_gather(n->permf, iw_add(a, yi));
	const floatw ab = fw_gather(n->permf, iw_add(iw_add(a, yi), one));
	const floatw ba = fw_gather(n->permf, iw_add(b, yi));
	const floatw bb = fw_gather(n->permf, iw_add(iw_add(b, yi), one));
	const floatw x1 = fw_sub(x, fw_set1(1.0f)), y1 = fw_sub(y, fw_set1(1.0f));
	const floatw r = lerp_w(lerp_w(grad_w(aa, x, y), grad_w(ba, x1, y), u),
				lerp_w(grad_w(ab, x, y1), grad_w(bb, x1, y1), u), v);
	return fw_mul(fw_mul(r, fw_set1(0.7071f)), fw_set1(1.41421356f));
}

/* noise_fbm for FLOATW_WIDTH cells from x0. */
static void fbm_w(const struct noise *n, int x0, float xfreq, float y, int octaves,
		  float persistence, float lacunarity, float *out)
{
	_Alignas(16) int32_t lane[FLOATW_WIDTH];
	for (int j = 0; j < FLOATW_WIDTH; j++)
		lane[j] = x0 + j;
	floatw x = fw_mul(fw_convert_i(iw_load(lane)), fw_set1(xfreq));
	float yo = y, amp = 1, norm = 0;
	floatw sum = fw_zero();
	for (int o = 0; o < octaves; o++) {
		const floatw xo = fw_add(x, fw_set1(17.31f * (float)o));
		const floatw g = gradient_w(n, xo, fw_set1(yo - 9.17f * (float)o));
		sum = fw_add(sum, fw_mul(fw_set1(amp), g));
		norm += amp;
		amp *= persistence;
		x = fw_mul(x, fw_set1(lacunarity));
		yo *= lacunarity;
	}
	fw_store(out, norm > 0 ? fw_div(sum, fw_set1(norm)) : fw_zero());
}
#endif

void noise_fbm_row(const struct noise *n, int x0, int count, float xfreq, float y, int octaves,
		   float persistence, float lacunarity, float *out)
{
	int i = 0;
#if GULLY_USE_SSE2
	for (; i + FLOATW_WIDTH <= count; i += FLOATW_WIDTH)
		fbm_w(n, x0 + i, xfreq, y, octaves, persistence, lacunarity, out + i);
#endif
	for (; i < count; i++)
		out[i] = noise_fbm(n, (float)(x0 + i) * xfreq, y, octaves, persistence, lacunarity);
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
