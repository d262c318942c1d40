#include "core/base/rng.h"

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	r->state = 0;
	r->inc = (stream << 1u) | 1u;
	rng_next(r);
	r->state += seed;
	rng_next(r);
}

uint32_t rng_next(struct rng *r)
{
	uint64_t old = r->state;
	r->state = old * 6364136223846793005ULL + r->inc;
	uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
	uint32_t rot = (uint32_t)(old >> 59u);
	return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

float rng_float(struct rng *r)
{
	return (float)(rng_next(r) >> 8) * (1.0f / 16777216.0f);
}

double rng_double(struct rng *r)
{
	uint64_t hi = rng_next(r) >> 5, lo = rng_next(r) >> 6;
	return (double)(hi * 67108864.0 + lo) * (1.0 / 9007199254740992.0);
}

uint32_t rng_below(struct rng *r, uint32_t n)
{
	uint32_t threshold = (uint32_t)(-n) % n;
	for (;;) {
		uint32_t x = rng_next(r);
		if (x >= threshold)
			return x % n;
	}
}
