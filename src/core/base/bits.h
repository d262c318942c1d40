/* Bit masks of up to 64 slots (the lockstep engines' lanes). */
#ifndef GULLY_CORE_BASE_BITS_H
#define GULLY_CORE_BASE_BITS_H

#include <stdint.h>

/* The lowest set bit of a non-zero mask. */
static inline int bits_ctz64(uint64_t a)
{
#if defined(__GNUC__)
	return __builtin_ctzll(a);
#else
	int i = 0;
	while (!(a & 1)) {
		a >>= 1;
		i++;
	}
	return i;
#endif
}

/* How many bits are set. */
static inline int bits_count64(uint64_t a)
{
#if defined(__GNUC__)
	return __builtin_popcountll(a);
#else
	int n = 0;
	for (; a; a &= a - 1)
		n++;
	return n;
#endif
}

#endif
