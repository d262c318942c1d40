/* The processor's vector features, asked in one place (cpu.h). */
#include "core/base/cpu.h"

bool cpu_has_avx(void)
{
#if CPU_X86_COPIES
	/* Needed when asked before the constructors that would run it. */
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx");
#else
	return false;
#endif
}

bool cpu_has_avx2(void)
{
#if CPU_X86_COPIES
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2");
#else
	return false;
#endif
}

const char *cpu_simd_in_use(void)
{
	if (!CPU_X86_COPIES)
		return "scalar";
	return cpu_has_avx2() ? "AVX2" : "SSE2";
}
