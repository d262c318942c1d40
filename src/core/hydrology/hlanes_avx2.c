/* The lanes' read phase at 8 lanes a vector (AVX2, VEX-encoded, no FMA:
 * -ffp-contract=off keeps every multiply and add apart). Everything below is
 * compiled for AVX2; hlanes_set_isa runs it only on a CPU that has it. */
#include "core/hydrology/hlanes_impl.h"

#if HLANES_HAVE_SIMD
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
#define FLOATW_AVX2 1
#define HLANES_READ hlanes_read_avx2
#include "core/hydrology/hlanes_simd.h"
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif
