/* The level write: the pools of a lake for its new level.
 * Invariants:
 * - Every written depth is depth_at(level, ground), bit for bit, whichever
 *   loop wrote it (scalar, SSE2, or AVX2 picked at run time): tests compare.
 * - The returned gain is the exact fixed-point change of the pools written;
 *   a record's sum and dense copies follow its writes.
 * - A written cell that is on another record's rim tells that record its
 *   new surface (flood_rim_notify), so no rim heap hides a leak.
 * - Cells whose ground stands above the cut (dry after a drain) are listed
 *   in f->dry, and the surface range leaves them out. */
#include "core/hydrology/flood_internal.h"

#include "core/base/cpu.h"

/* SSE2 is the x86_64 baseline; elsewhere, or with -DGULLY_NO_SIMD, the
 * scalar loop (the same bits: see record_depths). */
#if defined(__SSE2__) && !defined(GULLY_NO_SIMD)
#define FLOOD_SSE2 1
#include <emmintrin.h>
#else
#define FLOOD_SSE2 0
#endif
/* An AVX2 copy of a record's level write (record_level_avx2), picked at run
 * time as the particles' lockstep read phase is (particles/lockstep.c). */
#if FLOOD_SSE2 && defined(__GNUC__) && defined(__x86_64__)
#define FLOOD_HAVE_AVX2 1
#include <immintrin.h>
#else
#define FLOOD_HAVE_AVX2 0
#endif
/* Writes the lake's pools for `level`; returns the fixed-point gain and
 * the range of the surfaces written but those of cells whose ground is
 * above `cut`, which go on f->dry instead. A written cell on another
 * record's rim tells that record its new surface (`own`: the lake's
 * record, if any). */
uint64_t flood_write_pools(struct flood *f, const float *height, float *pool, double level,
			   double cut, uint32_t own, double *smin, double *smax)
{
	int32_t *dry = f->dry;
	size_t nd = f->dry_len;
	uint64_t gained = 0, sum = 0;
	double lo = *smin, hi = *smax;
	bool marked = false;
	/* The record these cells go into copies what is written from here,
	 * in order (lake_append), instead of gathering it again. */
	float *wground = f->wground, *wdepth = f->wdepth;
	for (size_t i = 0; i < f->lake_len; i++) {
		int32_t c = f->lake[i];
		float g = height[c], old = pool[c], now = depth_at(level, g);
		pool[c] = now;
		wground[i] = g;
		wdepth[i] = now;
		uint64_t fx = fixed(now);
		sum += fx;
		gained += fx - fixed(old);
		double s = (double)g + (double)now;
		if (g > cut) {
			dry[nd++] = c;
		} else {
			lo = s < lo ? s : lo;
			hi = s > hi ? s : hi;
		}
		if (f->rim_mark[c]) {
			flood_rim_notify(f, c, s, own);
			marked |= f->rim_mark[c];
		}
	}
	f->dry_len = nd;
	f->wsum = sum;
	f->wmarked = marked;
	f->written_dense = true;
	*smin = lo;
	*smax = hi;
	return gained;
}

/* New depths of a record's cells for `level` (depth_at of each ground, bit
 * for bit) into `depth`, and the range of their surfaces but those of the
 * cells whose ground is above `cut`, which are appended to dry[*nd]
 * (flood_write_pools). A compare mask takes them out of the range (+-inf in
 * their lanes) and a rarely taken branch lists them. The SSE2 form
 * gives the same floats: cvtpd2ps rounds as the (float) cast does, and
 * max(v, 0) then min(v, POOL_MAX) gives 0 where !(d > 0) (NaN too) and
 * clamps as depth_at does; minpd/maxpd are the `s < lo ? s : lo` forms. */
static void record_depths(const int32_t *cells, const float *ground, float *depth, size_t n,
			  double level, double cut, int32_t *dry, size_t *nd, double *smin,
			  double *smax)
{
	size_t i = 0, m = *nd;
	double lo = *smin, hi = *smax;
#if FLOOD_SSE2
	const __m128d lv = _mm_set1_pd(level), cv = _mm_set1_pd(cut);
	const __m128d pinf = _mm_set1_pd(INFINITY), ninf = _mm_set1_pd(-INFINITY);
	const __m128 zero = _mm_setzero_ps(), top = _mm_set1_ps(POOL_MAX);
	__m128d vlo = _mm_set1_pd(lo), vhi = _mm_set1_pd(hi);
	for (; i + 2 <= n; i += 2) {
		/* Two floats at a time (__m128i may alias anything). */
		__m128 g2 = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)(ground + i)));
		__m128d g = _mm_cvtps_pd(g2);
		__m128 v = _mm_cvtpd_ps(_mm_sub_pd(lv, g));
		v = _mm_min_ps(_mm_max_ps(v, zero), top);
		_mm_storel_epi64((__m128i *)(void *)(depth + i), _mm_castps_si128(v));
		__m128d sf = _mm_add_pd(g, _mm_cvtps_pd(v));
		__m128d out = _mm_cmpgt_pd(g, cv);
		if (__builtin_expect(_mm_movemask_pd(out) != 0, 0)) {
			int bits = _mm_movemask_pd(out);
			if (bits & 1)
				dry[m++] = cells[i];
			if (bits & 2)
				dry[m++] = cells[i + 1];
		}
		vlo = _mm_min_pd(_mm_or_pd(_mm_and_pd(out, pinf), _mm_andnot_pd(out, sf)), vlo);
		vhi = _mm_max_pd(_mm_or_pd(_mm_and_pd(out, ninf), _mm_andnot_pd(out, sf)), vhi);
	}
	double l2[2], h2[2];
	_mm_storeu_pd(l2, vlo);
	_mm_storeu_pd(h2, vhi);
	lo = l2[0] < l2[1] ? l2[0] : l2[1];
	hi = h2[0] > h2[1] ? h2[0] : h2[1];
#endif
	for (; i < n; i++) {
		float now = depth_at(level, ground[i]);
		depth[i] = now;
		double sf = (double)ground[i] + (double)now;
		if (ground[i] > cut) {
			dry[m++] = cells[i];
			continue;
		}
		lo = sf < lo ? sf : lo;
		hi = sf > hi ? sf : hi;
	}
	*nd = m;
	*smin = lo;
	*smax = hi;
}

/* A record's cells at `level`: their new depths (record_depths), written to
 * the pool layer too, and the fixed-point sum of those depths. */
static uint64_t record_level(const int32_t *cells, const float *ground, float *depth, float *pool,
			    size_t n, double level, double cut, int32_t *dry, size_t *nd,
			    double *smin, double *smax)
{
	record_depths(cells, ground, depth, n, level, cut, dry, nd, smin, smax);
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++) {
		float now = depth[i];
		pool[cells[i]] = now;
		sum += fixed(now);
	}
	return sum;
}

#if FLOOD_HAVE_AVX2
/* record_level four cells at a time, the same bits. The depths as
 * record_depths' SSE2 form, four wide (cvtpd2ps, max, min: the same
 * roundings). fixed(v) without a float-to-integer conversion (AVX2 has
 * none for 64 bits): a depth v >= 0 is m 2^(e-150) with m its 24-bit
 * significand (hidden bit set) and e its biased exponent, so v 2^53 =
 * m 2^(e-97), and the conversion's truncation of a positive value is a
 * right shift: m << (e-97) when e >= 97, else m >> (97-e). Variable shifts
 * by 64 or more (a negative count, as unsigned) give 0, so OR-ing both
 * shifts picks the one that applies; e == 0 (zero, subnormals, whose
 * fixed() is 0) gives 0 from both. Depths are below POOL_MAX < 2^10, so
 * e <= 136 and the shifted value stays below 2^63. Sums of int64 are
 * exact in any order. */
__attribute__((target("avx2"))) static uint64_t record_level_avx2(
	const int32_t *cells, const float *ground, float *depth, float *pool, size_t n, double level,
	double cut, int32_t *dry, size_t *nd, double *smin, double *smax)
{
	size_t i = 0, nd0 = *nd;
	const __m256d lv = _mm256_set1_pd(level), cv = _mm256_set1_pd(cut);
	const __m256d pinf = _mm256_set1_pd(INFINITY), ninf = _mm256_set1_pd(-INFINITY);
	const __m128 zero = _mm_setzero_ps(), top = _mm_set1_ps(POOL_MAX);
	const __m128i emask = _mm_set1_epi32(0xff), mmask = _mm_set1_epi32(0x7fffff);
	const __m128i hidden = _mm_set1_epi32(0x800000), bias = _mm_set1_epi32(97);
	__m256d vlo = _mm256_set1_pd(*smin), vhi = _mm256_set1_pd(*smax);
	__m256i acc = _mm256_setzero_si256();
	for (; i + 4 <= n; i += 4) {
		__m256d g = _mm256_cvtps_pd(_mm_loadu_ps(ground + i));
		__m128 v = _mm256_cvtpd_ps(_mm256_sub_pd(lv, g));
		v = _mm_min_ps(_mm_max_ps(v, zero), top);
		_mm_storeu_ps(depth + i, v);
		__m256d sf = _mm256_add_pd(g, _mm256_cvtps_pd(v));
		__m256d out = _mm256_cmp_pd(g, cv, _CMP_GT_OQ);
		int ob = _mm256_movemask_pd(out);
		if (__builtin_expect(ob != 0, 0)) {
			for (int j = 0; j < 4; j++)
				if (ob >> j & 1)
					dry[nd0++] = cells[i + (size_t)j];
		}
		vlo = _mm256_min_pd(_mm256_blendv_pd(sf, pinf, out), vlo);
		vhi = _mm256_max_pd(_mm256_blendv_pd(sf, ninf, out), vhi);
		__m128i bits = _mm_castps_si128(v);
		__m128i e = _mm_and_si128(_mm_srli_epi32(bits, 23), emask);
		__m256i m = _mm256_cvtepu32_epi64(_mm_or_si128(_mm_and_si128(bits, mmask), hidden));
		__m256i up = _mm256_sllv_epi64(m, _mm256_cvtepi32_epi64(_mm_sub_epi32(e, bias)));
		__m256i down = _mm256_srlv_epi64(m, _mm256_cvtepi32_epi64(_mm_sub_epi32(bias, e)));
		acc = _mm256_add_epi64(acc, _mm256_or_si256(up, down));
		pool[cells[i]] = depth[i];
		pool[cells[i + 1]] = depth[i + 1];
		pool[cells[i + 2]] = depth[i + 2];
		pool[cells[i + 3]] = depth[i + 3];
	}
	double l4[4], h4[4];
	uint64_t a4[4];
	_mm256_storeu_pd(l4, vlo);
	_mm256_storeu_pd(h4, vhi);
	_mm256_storeu_si256((__m256i *)(void *)a4, acc);
	double lo = l4[0], hi = h4[0];
	for (int j = 1; j < 4; j++) {
		lo = l4[j] < lo ? l4[j] : lo;
		hi = h4[j] > hi ? h4[j] : hi;
	}
	/* Lanes summed as unsigned, like every fixed-point sum. */
	uint64_t sum = (uint64_t)a4[0] + (uint64_t)a4[1] + (uint64_t)a4[2] + (uint64_t)a4[3];
	for (; i < n; i++) {
		float now = depth_at(level, ground[i]);
		depth[i] = now;
		pool[cells[i]] = now;
		sum += fixed(now);
		double sf = (double)ground[i] + (double)now;
		if (ground[i] > cut) {
			dry[nd0++] = cells[i];
			continue;
		}
		lo = sf < lo ? sf : lo;
		hi = sf > hi ? sf : hi;
	}
	*nd = nd0;
	*smin = lo;
	*smax = hi;
	return sum;
}
#endif

bool flood_set_avx2(struct flood *f, bool on)
{
	f->avx2 = false;
#if FLOOD_HAVE_AVX2
	if (on) {
		f->avx2 = cpu_has_avx2();
	}
#else
	(void)on;
#endif
	return f->avx2;
}

/* The smallest float at or above x: for a float g, g < x exactly when
 * g < float_at_or_above(x). */
static float float_at_or_above(double x)
{
	if (x > FLT_MAX) /* (a float's height and a pool can sum past it) */
		return INFINITY;
	float v = (float)x;
	return (double)v < x ? nextafterf(v, INFINITY) : v;
}

bool flood_lake_dry_below(const struct lake *k, double floor)
{
	if (!(floor > -INFINITY))
		return false;
	const float *ground = k->ground, *depth = k->depth;
	const float top = float_at_or_above(floor);
	size_t i = 0;
#if FLOOD_SSE2
	const __m128 zero = _mm_setzero_ps(), tv = _mm_set1_ps(top);
	for (; i + 4 <= k->ncells; i += 4) {
		__m128 dry = _mm_cmpngt_ps(_mm_loadu_ps(depth + i), zero);
		__m128 low = _mm_cmplt_ps(_mm_loadu_ps(ground + i), tv);
		if (_mm_movemask_ps(_mm_and_ps(dry, low)))
			return true;
	}
#endif
	for (; i < k->ncells; i++)
		if (!(depth[i] > 0.0f) && ground[i] < top)
			return true;
	return false;
}

/* The same for a record's cells, from its dense copies; its sum follows. */
uint64_t flood_write_record(struct flood *f, struct lake *k, float *pool, double level,
			    double cut, uint32_t own, double *smin, double *smax)
{
	const int32_t *cells = k->cells;
	const float *ground = k->ground;
	float *depth = k->depth;
	uint64_t sum;
#if FLOOD_HAVE_AVX2
	if (f->avx2)
		sum = record_level_avx2(cells, ground, depth, pool, k->ncells, level, cut, f->dry,
					&f->dry_len, smin, smax);
	else
#endif
		sum = record_level(cells, ground, depth, pool, k->ncells, level, cut, f->dry,
				   &f->dry_len, smin, smax);
	if (k->marked) {
		/* Rim notifications read neither pools nor depths: after the
		 * writes, in the cells' order, they push what they pushed
		 * during them. */
		bool marked = false;
		for (size_t i = 0; i < k->ncells; i++) {
			int32_t c = cells[i];
			if (f->rim_mark[c]) {
				flood_rim_notify(f, c, (double)ground[i] + (double)depth[i], own);
				marked |= f->rim_mark[c];
			}
		}
		k->marked = marked;
	}
	uint64_t gained = sum - k->sum;
	k->sum = sum;
	return gained;
}
