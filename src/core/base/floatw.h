/* A wide float: FLOATW_WIDTH lanes of float in one vector, for code written
 * once and built for a vector width chosen at compile time (as Box2D v3's
 * b2FloatW). The includer picks the width: FLOATW_AVX2 defined to 1 gives 8
 * lanes of AVX2 (VEX-encoded, no FMA), otherwise 4 lanes of SSE2 (the x86_64
 * baseline). A file built for AVX2 must be compiled for it (lockstep_avx2.c
 * sets the target with a pragma); which copy runs is picked at run time.
 *
 * Every operation is lane-wise IEEE arithmetic, so a lane gives the same bits
 * as the scalar expression it replaces, at either width. x86_64 only. */
#ifndef GULLY_CORE_BASE_FLOATW_H
#define GULLY_CORE_BASE_FLOATW_H

#include <stddef.h>
#include <stdint.h>

#include <immintrin.h>

#if FLOATW_AVX2
#define FLOATW_WIDTH 8
typedef __m256 floatw;   /* also a mask: all ones or all zeros per lane */
typedef __m256i intw;    /* FLOATW_WIDTH lanes of int32 */
typedef __m256d double4; /* four doubles */
#else
#define FLOATW_WIDTH 4
typedef __m128 floatw;
typedef __m128i intw;
typedef struct {
	__m128d lo, hi;
} double4;
#endif

#if FLOATW_AVX2
static inline floatw fw_load(const float *p) { return _mm256_loadu_ps(p); }
static inline void fw_store(float *p, floatw a) { _mm256_storeu_ps(p, a); }
static inline floatw fw_zero(void) { return _mm256_setzero_ps(); }
static inline floatw fw_add(floatw a, floatw b) { return _mm256_add_ps(a, b); }
static inline floatw fw_sub(floatw a, floatw b) { return _mm256_sub_ps(a, b); }
static inline floatw fw_mul(floatw a, floatw b) { return _mm256_mul_ps(a, b); }
static inline floatw fw_div(floatw a, floatw b) { return _mm256_div_ps(a, b); }
static inline floatw fw_sqrt(floatw a) { return _mm256_sqrt_ps(a); }
static inline floatw fw_max(floatw a, floatw b) { return _mm256_max_ps(a, b); }
static inline floatw fw_and(floatw a, floatw b) { return _mm256_and_ps(a, b); }
/* ~a & b */
static inline floatw fw_andnot(floatw a, floatw b) { return _mm256_andnot_ps(a, b); }
static inline floatw fw_or(floatw a, floatw b) { return _mm256_or_ps(a, b); }
static inline floatw fw_ge(floatw a, floatw b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
static inline floatw fw_lt(floatw a, floatw b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
/* m ? a : b, lane by lane */
static inline floatw fw_blend(floatw m, floatw a, floatw b) { return _mm256_blendv_ps(b, a, m); }
static inline unsigned fw_movemask(floatw m) { return (unsigned)_mm256_movemask_ps(m); }
static inline floatw fw_set1(float a) { return _mm256_set1_ps(a); }
static inline floatw fw_eq(floatw a, floatw b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
/* -a, exactly (the sign bit flipped; 0 - a would give +0 for +0). */
static inline floatw fw_neg(floatw a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
/* floorf lane by lane. */
static inline floatw fw_floor(floatw a) { return _mm256_floor_ps(a); }
/* Each int lane converted to float (fw_from_i reinterprets). */
static inline floatw fw_convert_i(intw i) { return _mm256_cvtepi32_ps(i); }
static inline intw fw_trunc(floatw a) { return _mm256_cvttps_epi32(a); }
static inline floatw fw_from_i(intw i) { return _mm256_castsi256_ps(i); }
static inline intw fw_to_i(floatw f) { return _mm256_castps_si256(f); }
static inline intw iw_load(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void iw_store(void *p, intw v) { _mm256_storeu_si256((__m256i *)p, v); }
static inline intw iw_set1(int i) { return _mm256_set1_epi32(i); }
static inline intw iw_add(intw a, intw b) { return _mm256_add_epi32(a, b); }
static inline intw iw_and(intw a, intw b) { return _mm256_and_si256(a, b); }
static inline intw iw_or(intw a, intw b) { return _mm256_or_si256(a, b); }
static inline intw iw_eq(intw a, intw b) { return _mm256_cmpeq_epi32(a, b); }
static inline intw iw_shl16(intw a) { return _mm256_slli_epi32(a, 16); }
static inline intw iw_sub(intw a, intw b) { return _mm256_sub_epi32(a, b); }
/* a > b, signed, lane by lane (all ones where it holds). */
static inline intw iw_gt(intw a, intw b) { return _mm256_cmpgt_epi32(a, b); }
/* Per 32-bit lane: lo16(a) * lo16(b) + hi16(a) * hi16(b). */
static inline intw iw_madd16(intw a, intw b) { return _mm256_madd_epi16(a, b); }
/* p[idx[j]] per lane. */
static inline floatw fw_gather(const float *p, intw idx) { return _mm256_i32gather_ps(p, idx, 4); }

/* Lane j's pointer into h for each lane's cell, for fw_row. */
static inline void fw_pointers(const float *h, intw cell, const float *pa[FLOATW_WIDTH])
{
	/* Made in vectors and read back one by one: fewer instructions than
	 * extracting each index and scaling it. */
	const __m256i hb = _mm256_set1_epi64x((long long)(uintptr_t)h);
	const __m256i lo = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(cell));
	const __m256i hi = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(cell, 1));
	_mm256_storeu_si256((__m256i *)(void *)pa, _mm256_add_epi64(hb, _mm256_slli_epi64(lo, 2)));
	_mm256_storeu_si256((__m256i *)(void *)(pa + 4), _mm256_add_epi64(hb, _mm256_slli_epi64(hi, 2)));
}
/* Four floats from lane j's pointer + off, as a row: lanes j and j + 4
 * share a row, one per 128-bit half, so fw_columns below puts lane j of its
 * result in place j. (Named rows and columns, no arrays: an array of vectors
 * is kept in memory, a spill on every use.) */
static inline floatw fw_row(const float *const pa[FLOATW_WIDTH], int j, ptrdiff_t off)
{
	return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(pa[j] + off)),
				    _mm_loadu_ps(pa[j + 4] + off), 1);
}
/* Within each 128-bit half: four rows of four floats, transposed; the
 * columns, one by one (what is not used is not computed). */
static inline void fw_columns(floatw r0, floatw r1, floatw r2, floatw r3, floatw *c0, floatw *c1,
			      floatw *c2, floatw *c3)
{
	const floatw t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
	const floatw t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
	*c0 = _mm256_shuffle_ps(t0, t2, 0x44);
	*c1 = _mm256_shuffle_ps(t0, t2, 0xEE);
	*c2 = _mm256_shuffle_ps(t1, t3, 0x44);
	*c3 = _mm256_shuffle_ps(t1, t3, 0xEE);
}
static inline unsigned fw_popcount(unsigned m) { return (unsigned)__builtin_popcount(m); }

static inline double4 d4_zero(void) { return _mm256_setzero_pd(); }
static inline double4 d4_from_f(__m128 f) { return _mm256_cvtps_pd(f); }
static inline double4 d4_load(const double *p) { return _mm256_loadu_pd(p); }
static inline void d4_store(double *p, double4 a) { _mm256_storeu_pd(p, a); }
static inline double4 d4_add(double4 a, double4 b) { return _mm256_add_pd(a, b); }
static inline double4 d4_sub(double4 a, double4 b) { return _mm256_sub_pd(a, b); }
static inline double4 d4_max(double4 a, double4 b) { return _mm256_max_pd(a, b); }
/* (v0 + v1) + (v2 + v3) */
static inline double d4_sum(double4 v)
{
	const __m256d s = _mm256_add_pd(v, _mm256_permute_pd(v, 5));
	return _mm_cvtsd_f64(_mm_add_sd(_mm256_castpd256_pd128(s), _mm256_extractf128_pd(s, 1)));
}
/* FLOATW_WIDTH doubles from p, each rounded to float (as (float)d). */
static inline floatw fw_from_doubles(const double *p)
{
	return _mm256_set_m128(_mm256_cvtpd_ps(_mm256_loadu_pd(p + 4)),
			       _mm256_cvtpd_ps(_mm256_loadu_pd(p)));
}
/* Bit j: p[j] > m (false for NaN). */
static inline unsigned fw_doubles_gt(const double *p, double m)
{
	const __m256d mm = _mm256_set1_pd(m);
	return (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(p), mm, _CMP_GT_OQ)) |
	       (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(p + 4), mm, _CMP_GT_OQ))
		       << 4;
}
/* p[j] *= 1.0 - (double)f[j] where lane j of `mask` is set. */
static inline void fw_doubles_keep(double *p, floatw f, floatw mask)
{
	const __m256d one = _mm256_set1_pd(1.0);
	const __m128i m = _mm256_castsi256_si128(_mm256_castps_si256(mask));
	const __m128i mh = _mm256_extracti128_si256(_mm256_castps_si256(mask), 1);
	const __m256d lo = _mm256_loadu_pd(p), hi = _mm256_loadu_pd(p + 4);
	const __m256d nlo =
		_mm256_mul_pd(lo, _mm256_sub_pd(one, _mm256_cvtps_pd(_mm256_castps256_ps128(f))));
	const __m256d nhi =
		_mm256_mul_pd(hi, _mm256_sub_pd(one, _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1))));
	_mm256_storeu_pd(p, _mm256_blendv_pd(lo, nlo, _mm256_castsi256_pd(_mm256_cvtepi32_epi64(m))));
	_mm256_storeu_pd(p + 4,
			 _mm256_blendv_pd(hi, nhi, _mm256_castsi256_pd(_mm256_cvtepi32_epi64(mh))));
}
#else
static inline floatw fw_load(const float *p) { return _mm_loadu_ps(p); }
static inline void fw_store(float *p, floatw a) { _mm_storeu_ps(p, a); }
static inline floatw fw_zero(void) { return _mm_setzero_ps(); }
static inline floatw fw_add(floatw a, floatw b) { return _mm_add_ps(a, b); }
static inline floatw fw_sub(floatw a, floatw b) { return _mm_sub_ps(a, b); }
static inline floatw fw_mul(floatw a, floatw b) { return _mm_mul_ps(a, b); }
static inline floatw fw_div(floatw a, floatw b) { return _mm_div_ps(a, b); }
static inline floatw fw_sqrt(floatw a) { return _mm_sqrt_ps(a); }
static inline floatw fw_max(floatw a, floatw b) { return _mm_max_ps(a, b); }
static inline floatw fw_and(floatw a, floatw b) { return _mm_and_ps(a, b); }
static inline floatw fw_andnot(floatw a, floatw b) { return _mm_andnot_ps(a, b); }
static inline floatw fw_or(floatw a, floatw b) { return _mm_or_ps(a, b); }
static inline floatw fw_ge(floatw a, floatw b) { return _mm_cmpge_ps(a, b); }
static inline floatw fw_lt(floatw a, floatw b) { return _mm_cmplt_ps(a, b); }
static inline floatw fw_blend(floatw m, floatw a, floatw b)
{
	return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b));
}
static inline unsigned fw_movemask(floatw m) { return (unsigned)_mm_movemask_ps(m); }
static inline floatw fw_set1(float a) { return _mm_set1_ps(a); }
static inline floatw fw_eq(floatw a, floatw b) { return _mm_cmpeq_ps(a, b); }
static inline floatw fw_neg(floatw a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); }
/* floorf without SSE4.1's round: a float from 2^23 up is whole already,
 * and so is one that truncation leaves alone (this keeps -0 as -0); below,
 * truncation moves toward zero, one too far up for a negative fraction. */
static inline floatw fw_floor(floatw a)
{
	const floatw t = _mm_cvtepi32_ps(_mm_cvttps_epi32(a));
	const floatw whole = _mm_or_ps(_mm_cmpeq_ps(t, a),
				       _mm_cmpge_ps(_mm_andnot_ps(_mm_set1_ps(-0.0f), a), _mm_set1_ps(8388608.0f)));
	const floatw down = _mm_sub_ps(t, _mm_and_ps(_mm_cmplt_ps(a, t), _mm_set1_ps(1.0f)));
	return _mm_or_ps(_mm_and_ps(whole, a), _mm_andnot_ps(whole, down));
}
static inline floatw fw_convert_i(intw i) { return _mm_cvtepi32_ps(i); }
static inline intw fw_trunc(floatw a) { return _mm_cvttps_epi32(a); }
static inline floatw fw_from_i(intw i) { return _mm_castsi128_ps(i); }
static inline intw fw_to_i(floatw f) { return _mm_castps_si128(f); }
static inline intw iw_load(const void *p) { return _mm_loadu_si128((const __m128i *)p); }
static inline void iw_store(void *p, intw v) { _mm_storeu_si128((__m128i *)p, v); }
static inline intw iw_set1(int i) { return _mm_set1_epi32(i); }
static inline intw iw_add(intw a, intw b) { return _mm_add_epi32(a, b); }
static inline intw iw_and(intw a, intw b) { return _mm_and_si128(a, b); }
static inline intw iw_or(intw a, intw b) { return _mm_or_si128(a, b); }
static inline intw iw_eq(intw a, intw b) { return _mm_cmpeq_epi32(a, b); }
static inline intw iw_shl16(intw a) { return _mm_slli_epi32(a, 16); }
static inline intw iw_sub(intw a, intw b) { return _mm_sub_epi32(a, b); }
static inline intw iw_gt(intw a, intw b) { return _mm_cmpgt_epi32(a, b); }
static inline intw iw_madd16(intw a, intw b) { return _mm_madd_epi16(a, b); }
/* SSE2 has no gather: four loads. */
static inline floatw fw_gather(const float *p, intw idx)
{
	int32_t i[4];
	_mm_storeu_si128((__m128i *)(void *)i, idx);
	return _mm_setr_ps(p[i[0]], p[i[1]], p[i[2]], p[i[3]]);
}
static inline void fw_pointers(const float *h, intw cell, const float *pa[FLOATW_WIDTH])
{
	int32_t i[4];
	_mm_storeu_si128((__m128i *)(void *)i, cell);
	for (int j = 0; j < 4; j++)
		pa[j] = h + i[j];
}
static inline floatw fw_row(const float *const pa[FLOATW_WIDTH], int j, ptrdiff_t off)
{
	return _mm_loadu_ps(pa[j] + off);
}
static inline void fw_columns(floatw r0, floatw r1, floatw r2, floatw r3, floatw *c0, floatw *c1,
			      floatw *c2, floatw *c3)
{
	const floatw t0 = _mm_unpacklo_ps(r0, r1), t1 = _mm_unpackhi_ps(r0, r1);
	const floatw t2 = _mm_unpacklo_ps(r2, r3), t3 = _mm_unpackhi_ps(r2, r3);
	*c0 = _mm_shuffle_ps(t0, t2, 0x44);
	*c1 = _mm_shuffle_ps(t0, t2, 0xEE);
	*c2 = _mm_shuffle_ps(t1, t3, 0x44);
	*c3 = _mm_shuffle_ps(t1, t3, 0xEE);
}
static inline unsigned fw_popcount(unsigned m) { return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3); }

static inline double4 d4_zero(void) { return (double4){_mm_setzero_pd(), _mm_setzero_pd()}; }
static inline double4 d4_from_f(__m128 f)
{
	return (double4){_mm_cvtps_pd(f), _mm_cvtps_pd(_mm_movehl_ps(f, f))};
}
static inline double4 d4_load(const double *p) { return (double4){_mm_loadu_pd(p), _mm_loadu_pd(p + 2)}; }
static inline void d4_store(double *p, double4 a)
{
	_mm_storeu_pd(p, a.lo);
	_mm_storeu_pd(p + 2, a.hi);
}
static inline double4 d4_add(double4 a, double4 b)
{
	return (double4){_mm_add_pd(a.lo, b.lo), _mm_add_pd(a.hi, b.hi)};
}
static inline double4 d4_sub(double4 a, double4 b)
{
	return (double4){_mm_sub_pd(a.lo, b.lo), _mm_sub_pd(a.hi, b.hi)};
}
static inline double4 d4_max(double4 a, double4 b)
{
	return (double4){_mm_max_pd(a.lo, b.lo), _mm_max_pd(a.hi, b.hi)};
}
static inline double d4_sum(double4 v)
{
	return _mm_cvtsd_f64(_mm_add_sd(_mm_add_sd(v.lo, _mm_unpackhi_pd(v.lo, v.lo)),
					_mm_add_sd(v.hi, _mm_unpackhi_pd(v.hi, v.hi))));
}
static inline floatw fw_from_doubles(const double *p)
{
	return _mm_movelh_ps(_mm_cvtpd_ps(_mm_loadu_pd(p)), _mm_cvtpd_ps(_mm_loadu_pd(p + 2)));
}
static inline unsigned fw_doubles_gt(const double *p, double m)
{
	const __m128d mm = _mm_set1_pd(m);
	return (unsigned)_mm_movemask_pd(_mm_cmpgt_pd(_mm_loadu_pd(p), mm)) |
	       (unsigned)_mm_movemask_pd(_mm_cmpgt_pd(_mm_loadu_pd(p + 2), mm)) << 2;
}
static inline void fw_doubles_keep(double *p, floatw f, floatw mask)
{
	const __m128d one = _mm_set1_pd(1.0);
	const __m128d lo = _mm_loadu_pd(p), hi = _mm_loadu_pd(p + 2);
	const __m128d nlo = _mm_mul_pd(lo, _mm_sub_pd(one, _mm_cvtps_pd(f)));
	const __m128d nhi = _mm_mul_pd(hi, _mm_sub_pd(one, _mm_cvtps_pd(_mm_movehl_ps(f, f))));
	const __m128d mlo = _mm_castps_pd(_mm_unpacklo_ps(mask, mask));
	const __m128d mhi = _mm_castps_pd(_mm_unpackhi_ps(mask, mask));
	_mm_storeu_pd(p, _mm_or_pd(_mm_and_pd(mlo, nlo), _mm_andnot_pd(mlo, lo)));
	_mm_storeu_pd(p + 2, _mm_or_pd(_mm_and_pd(mhi, nhi), _mm_andnot_pd(mhi, hi)));
}
#endif

#endif
