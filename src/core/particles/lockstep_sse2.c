/* The lockstep read phase at 4 lanes a vector (SSE2, the x86_64 baseline). */
#include "core/particles/lockstep_impl.h"

#if LOCKSTEP_HAVE_SIMD
#define FLOATW_AVX2 0
#define LOCKSTEP_READ lockstep_read_sse2
#define LOCKSTEP_BOOKS lockstep_books_sse2
#include "core/particles/lockstep_simd.h"
#endif
