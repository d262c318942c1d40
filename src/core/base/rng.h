/* PCG32 (O'Neill 2014): small, fast, and its whole state fits in a snapshot. */
#ifndef GULLY_RNG_H
#define GULLY_RNG_H

#include <stdint.h>

struct rng {
	uint64_t state;
	uint64_t inc; /* stream selector, always odd */
};

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);
uint32_t rng_next(struct rng *r);
/* Uniform in [0, 1) with 24 bits, exactly representable as float. */
float rng_float(struct rng *r);
/* Uniform in [0, 1) with 53 bits. */
double rng_double(struct rng *r);
/* Uniform integer in [0, n) without modulo bias; n > 0. */
uint32_t rng_below(struct rng *r, uint32_t n);

#endif
