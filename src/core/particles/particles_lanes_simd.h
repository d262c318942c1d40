/* The SSE2 (4 lanes a vector) and AVX2 (8) copies of the lockstep read phase:
 * particles_lanes_kernel.h instantiated with each set of operations below.
 * Included once, by particles_lanes.c, only on x86_64 with GCC or Clang. */
#include <immintrin.h>

/* ---- SSE2: the x86_64 baseline ---------------------------------------- */
#define LV_W 4
#define LV_TARGET
#define LV_FN(name) name##_sse2
#define LV_HW_GATHER 0
typedef __m128 lv_f;
typedef __m128i lv_i;
#define LV_LOAD(p) _mm_loadu_ps(p)
#define LV_STORE(p, v) _mm_storeu_ps(p, v)
#define LV_SET1(f) _mm_set1_ps(f)
#define LV_ZERO() _mm_setzero_ps()
#define LV_ADD(a, b) _mm_add_ps(a, b)
#define LV_SUB(a, b) _mm_sub_ps(a, b)
#define LV_MUL(a, b) _mm_mul_ps(a, b)
#define LV_DIV(a, b) _mm_div_ps(a, b)
#define LV_SQRT(a) _mm_sqrt_ps(a)
#define LV_MAX(a, b) _mm_max_ps(a, b)
#define LV_AND(a, b) _mm_and_ps(a, b)
#define LV_ANDNOT(a, b) _mm_andnot_ps(a, b) /* ~a & b */
#define LV_OR(a, b) _mm_or_ps(a, b)
#define LV_GE(a, b) _mm_cmpge_ps(a, b)
#define LV_LT(a, b) _mm_cmplt_ps(a, b)
#define LV_BLEND(m, a, b) _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)) /* m ? a : b */
#define LV_MOVEMASK(m) ((unsigned)_mm_movemask_ps(m))
#define LV_CVTT(a) _mm_cvttps_epi32(a)
#define LV_I2F(i) _mm_castsi128_ps(i)
#define LV_F2I(f) _mm_castps_si128(f)
#define LV_ILOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define LV_ISTORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)
#define LV_ISET1(i) _mm_set1_epi32(i)
#define LV_IBITS() _mm_setr_epi32(1, 2, 4, 8)
#define LV_IADD(a, b) _mm_add_epi32(a, b)
#define LV_IAND(a, b) _mm_and_si128(a, b)
#define LV_IOR(a, b) _mm_or_si128(a, b)
#define LV_IEQ(a, b) _mm_cmpeq_epi32(a, b)
#define LV_ISLL16(a) _mm_slli_epi32(a, 16)
#define LV_IMADD(a, b) _mm_madd_epi16(a, b)
#define LV_FROM_ARRAY(p) _mm_setr_ps((p)[0], (p)[1], (p)[2], (p)[3])
#define LV_UNPACKLO(a, b) _mm_unpacklo_ps(a, b)
#define LV_UNPACKHI(a, b) _mm_unpackhi_ps(a, b)
#define LV_SHUF(a, b, imm) _mm_shuffle_ps(a, b, imm)
/* The three rows of lane j's 3x3 block, four floats each, as one vector
 * per lane and row. */
#define LV_ROW(j, off) _mm_loadu_ps(LV_P(j) + (off))
#include "core/particles/particles_lanes_kernel.h"
#undef LV_W
#undef LV_TARGET
#undef LV_FN
#undef LV_HW_GATHER
#undef LV_LOAD
#undef LV_STORE
#undef LV_SET1
#undef LV_ZERO
#undef LV_ADD
#undef LV_SUB
#undef LV_MUL
#undef LV_DIV
#undef LV_SQRT
#undef LV_MAX
#undef LV_AND
#undef LV_ANDNOT
#undef LV_OR
#undef LV_GE
#undef LV_LT
#undef LV_BLEND
#undef LV_MOVEMASK
#undef LV_CVTT
#undef LV_I2F
#undef LV_F2I
#undef LV_ILOAD
#undef LV_ISTORE
#undef LV_ISET1
#undef LV_IBITS
#undef LV_IADD
#undef LV_IAND
#undef LV_IOR
#undef LV_IEQ
#undef LV_ISLL16
#undef LV_IMADD
#undef LV_FROM_ARRAY
#undef LV_UNPACKLO
#undef LV_UNPACKHI
#undef LV_SHUF
#undef LV_ROW
#define lv_f lv_f_avx2
#define lv_i lv_i_avx2

/* ---- AVX2: the same operations, eight lanes, VEX-encoded, no FMA ------- */
#define LV_W 8
#define LV_THERE_GATHER 1
#define LV_TARGET __attribute__((target("avx2")))
#define LV_HW_GATHER 0
typedef __m256 lv_f;
typedef __m256i lv_i;
#define LV_LOAD(p) _mm256_loadu_ps(p)
#define LV_STORE(p, v) _mm256_storeu_ps(p, v)
#define LV_SET1(f) _mm256_set1_ps(f)
#define LV_ZERO() _mm256_setzero_ps()
#define LV_ADD(a, b) _mm256_add_ps(a, b)
#define LV_SUB(a, b) _mm256_sub_ps(a, b)
#define LV_MUL(a, b) _mm256_mul_ps(a, b)
#define LV_DIV(a, b) _mm256_div_ps(a, b)
#define LV_SQRT(a) _mm256_sqrt_ps(a)
#define LV_MAX(a, b) _mm256_max_ps(a, b)
#define LV_AND(a, b) _mm256_and_ps(a, b)
#define LV_ANDNOT(a, b) _mm256_andnot_ps(a, b)
#define LV_OR(a, b) _mm256_or_ps(a, b)
#define LV_GE(a, b) _mm256_cmp_ps(a, b, _CMP_GE_OQ)
#define LV_LT(a, b) _mm256_cmp_ps(a, b, _CMP_LT_OQ)
#define LV_BLEND(m, a, b) _mm256_blendv_ps(b, a, m)
#define LV_MOVEMASK(m) ((unsigned)_mm256_movemask_ps(m))
#define LV_CVTT(a) _mm256_cvttps_epi32(a)
#define LV_I2F(i) _mm256_castsi256_ps(i)
#define LV_F2I(f) _mm256_castps_si256(f)
#define LV_ILOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define LV_ISTORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define LV_ISET1(i) _mm256_set1_epi32(i)
#define LV_IBITS() _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128)
#define LV_IADD(a, b) _mm256_add_epi32(a, b)
#define LV_IAND(a, b) _mm256_and_si256(a, b)
#define LV_IOR(a, b) _mm256_or_si256(a, b)
#define LV_IEQ(a, b) _mm256_cmpeq_epi32(a, b)
#define LV_ISLL16(a) _mm256_slli_epi32(a, 16)
#define LV_IMADD(a, b) _mm256_madd_epi16(a, b)
#define LV_FROM_ARRAY(p) _mm256_setr_ps((p)[0], (p)[1], (p)[2], (p)[3], (p)[4], (p)[5], (p)[6], (p)[7])
#define LV_UNPACKLO(a, b) _mm256_unpacklo_ps(a, b)
#define LV_UNPACKHI(a, b) _mm256_unpackhi_ps(a, b)
#define LV_SHUF(a, b, imm) _mm256_shuffle_ps(a, b, imm)
/* Lanes j and j + 4 share a vector, one per 128-bit half: the in-half
 * shuffles of the transpose then put lane j of the result in place j. */
#define LV_ROW(j, off)                                                              \
	_mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(LV_P(j) + (off))),         \
			     _mm_loadu_ps(LV_P((j) + 4) + (off)), 1)
#define LV_FN(name) name##_avx2
#include "core/particles/particles_lanes_kernel.h"
#undef LV_FN
#undef LV_HW_GATHER
/* The same with the hardware gather for the 3x3 block and the next cell. */
#define LV_HW_GATHER 1
#define LV_FN(name) name##_avx2_gather
#include "core/particles/particles_lanes_kernel.h"
