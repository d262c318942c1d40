/* What the processor offers the simulation's vector copies. Each copy is
 * compiled where the build targets x86-64 with GCC or clang (CPU_X86_COPIES)
 * and picked at run time by asking here, so one binary runs on any x86-64
 * and uses AVX2 where the processor has it. */
#ifndef GULLY_CORE_BASE_CPU_H
#define GULLY_CORE_BASE_CPU_H

#include <stdbool.h>

#include "core/base/v2.h"

#if GULLY_USE_SSE2 && defined(__GNUC__) && defined(__x86_64__)
#define CPU_X86_COPIES 1
#else
#define CPU_X86_COPIES 0
#endif

/* False wherever this build has no x86 copies. */
bool cpu_has_avx(void);
bool cpu_has_avx2(void);
/* The widest copy the simulation uses on this processor: "AVX2", "SSE2", or
 * "scalar" (the portable code), for --version and bug reports. */
const char *cpu_simd_in_use(void);

#endif
