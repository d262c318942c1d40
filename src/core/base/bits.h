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

/* One past the highest set bit: 0 for 0, 64 when bit 63 is set. */
static inline int bits_width64(uint64_t a)
{
#if defined(__GNUC__)
	return a ? 64 - __builtin_clzll(a) : 0;
#else
	int top = 0;
	while (top < 64 && (a >> top))
		top++;
	return top;
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
