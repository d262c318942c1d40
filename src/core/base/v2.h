/* Pairs for a droplet's step: an (x, y) pair of floats (position, speed, the
 * normal's x and z) and a pair of doubles (eroded, deposited), each in one
 * SSE register where SSE2 exists (the x86_64 baseline), a plain struct
 * elsewhere or with -DGULLY_NO_SIMD. Both forms do the same IEEE operations
 * lane by lane, so they give the same bits; the register form keeps a
 * step's chain of dependent operations short (one compare tells "on the
 * map" and "3x3 block on the map" for both axes at once). */
#ifndef GULLY_CORE_BASE_V2_H
#define GULLY_CORE_BASE_V2_H

#include <stdint.h>

#if defined(__SSE2__) && !defined(GULLY_NO_SIMD)
#define GULLY_USE_SSE2 1
#include <emmintrin.h>
#else
#define GULLY_USE_SSE2 0
#endif

#if GULLY_USE_SSE2
/* (x, y) in lanes 0 and 1; lanes 2 and 3 are kept 0. */
typedef __m128 v2f;
/* (eroded, deposited). */
typedef __m128d v2d;
/* Bounds of (x, y, x, y) for v2_where. */
struct v2_bounds {
	__m128 lo, hi;
};
#else
typedef struct {
	float x, y;
} v2f;
typedef struct {
	double eroded, deposited;
} v2d;
struct v2_bounds {
	float fw, fh;
};
#endif

/* Bit masks of v2_where. */
#define V2_ON_MAP 3u   /* 0 <= x < width and 0 <= y < height */
#define V2_INTERIOR 15u /* and the cell's 3x3 block is on the map too */

#if GULLY_USE_SSE2
static inline v2f v2_make(float x, float y)
{
	return _mm_setr_ps(x, y, 0.0f, 0.0f);
}
static inline v2f v2_add(v2f a, v2f b)
{
	return _mm_add_ps(a, b);
}
static inline v2f v2_mul(v2f a, v2f b)
{
	return _mm_mul_ps(a, b);
}
static inline v2f v2_scale(v2f a, float s)
{
	return _mm_mul_ps(a, _mm_set1_ps(s));
}
static inline float v2_x(v2f a)
{
	return _mm_cvtss_f32(a);
}
static inline float v2_y(v2f a)
{
	return _mm_cvtss_f32(_mm_shuffle_ps(a, a, 1));
}
/* x * x + y * y */
static inline float v2_norm2(v2f a)
{
	const __m128 q = _mm_mul_ps(a, a);
	return _mm_cvtss_f32(_mm_add_ss(q, _mm_shuffle_ps(q, q, 1)));
}
/* The cell of an on-map position: its index in a layer `stride` wide. */
static inline uint32_t v2_cell(v2f p, uint32_t stride)
{
	const __m128i i = _mm_cvttps_epi32(p);
	return (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(i, 1)) * stride +
	       (uint32_t)_mm_cvtsi128_si32(i);
}
static inline void v2_bounds_init(struct v2_bounds *b, int width, int height)
{
	const float fw = (float)width, fh = (float)height;
	b->lo = _mm_setr_ps(0.0f, 0.0f, 1.0f, 1.0f);
	b->hi = _mm_setr_ps(fw, fh, fw - 1.0f, fh - 1.0f);
}
/* Bits 0 and 1: 0 <= x < width, 0 <= y < height (NaN is off); bits 2 and 3:
 * 1 <= x < width - 1 and the same for y, i.e. the cell's 3x3 block is on the
 * map. -0.0 counts as 0, as (int) truncates it. */
static inline unsigned v2_where(v2f p, const struct v2_bounds *b)
{
	const __m128 pp = _mm_movelh_ps(p, p);
	return (unsigned)_mm_movemask_ps(_mm_and_ps(_mm_cmple_ps(b->lo, pp), _mm_cmplt_ps(pp, b->hi)));
}
static inline v2d d2_make(double eroded, double deposited)
{
	return _mm_set_pd(deposited, eroded);
}
/* Adds (max(here - after, 0), max(after - here, 0)). Two floats' difference
 * is exact in double, so the books hold what the float height really lost or
 * gained. A max, not a branch: whether a step erodes or deposits is close to
 * a coin toss. */
static inline v2d d2_book(v2d acc, float here, float after)
{
	const __m128d ha = _mm_set_pd((double)after, (double)here);
	const __m128d diff = _mm_sub_pd(ha, _mm_shuffle_pd(ha, ha, 1));
	return _mm_add_pd(acc, _mm_max_pd(diff, _mm_setzero_pd()));
}
static inline void d2_get(v2d a, double *eroded, double *deposited)
{
	*eroded = _mm_cvtsd_f64(a);
	*deposited = _mm_cvtsd_f64(_mm_unpackhi_pd(a, a));
}
/* max(v, 0) as the reference writes it (v < 0 ? 0 : v), without a branch:
 * whether c_eq clamps is a coin toss, and a mispredicted branch costs more
 * than a whole step (written in C, GCC makes a branch of it for SSE2). */
static inline float max0f(float v)
{
	return _mm_cvtss_f32(_mm_max_ss(_mm_setzero_ps(), _mm_set_ss(v)));
}
#else
static inline v2f v2_make(float x, float y)
{
	return (v2f){x, y};
}
static inline v2f v2_add(v2f a, v2f b)
{
	return (v2f){a.x + b.x, a.y + b.y};
}
static inline v2f v2_mul(v2f a, v2f b)
{
	return (v2f){a.x * b.x, a.y * b.y};
}
static inline v2f v2_scale(v2f a, float s)
{
	return (v2f){a.x * s, a.y * s};
}
static inline float v2_x(v2f a)
{
	return a.x;
}
static inline float v2_y(v2f a)
{
	return a.y;
}
static inline float v2_norm2(v2f a)
{
	return a.x * a.x + a.y * a.y;
}
static inline uint32_t v2_cell(v2f p, uint32_t stride)
{
	return (uint32_t)(int)p.y * stride + (uint32_t)(int)p.x;
}
static inline void v2_bounds_init(struct v2_bounds *b, int width, int height)
{
	b->fw = (float)width;
	b->fh = (float)height;
}
static inline unsigned v2_where(v2f p, const struct v2_bounds *b)
{
	const float fw = b->fw, fh = b->fh;
	return (unsigned)(0.0f <= p.x && p.x < fw) | (unsigned)(0.0f <= p.y && p.y < fh) << 1 |
	       (unsigned)(1.0f <= p.x && p.x < fw - 1.0f) << 2 |
	       (unsigned)(1.0f <= p.y && p.y < fh - 1.0f) << 3;
}
static inline v2d d2_make(double eroded, double deposited)
{
	return (v2d){eroded, deposited};
}
static inline v2d d2_book(v2d acc, float here, float after)
{
	const double change = (double)here - (double)after;
	acc.eroded += change > 0 ? change : 0.0;
	acc.deposited += -change > 0 ? -change : 0.0;
	return acc;
}
static inline void d2_get(v2d a, double *eroded, double *deposited)
{
	*eroded = a.eroded;
	*deposited = a.deposited;
}
static inline float max0f(float v)
{
	return v < 0.0f ? 0.0f : v;
}
#endif

#endif
