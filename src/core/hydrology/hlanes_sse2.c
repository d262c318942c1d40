/* The lanes' read phase at 4 lanes a vector (SSE2, the x86_64 baseline). */
#include "core/hydrology/hlanes_impl.h"

#if HLANES_HAVE_SIMD
#define FLOATW_AVX2 0
#define HLANES_READ hlanes_read_sse2
#include "core/hydrology/hlanes_simd.h"
#endif
