/* A snapshot layer as runs (gully-snapshot(5), version 2): cells equal to a
 * reference (one value, or a layer stored before this one) are counted, not
 * written. Most layers are mostly one value (no pools, no wet soil, one
 * hardness), and a height map differs from the terrain it was made from
 * only where water went, so most of a snapshot's bytes were copies of a
 * value or of another layer.
 *
 * Equality is of bit patterns, so -0.0 and 0.0 stay apart and a load gives
 * back exactly the floats saved. The writer (snapshot_write.c) and the size
 * it compares with a raw layer's both cut the cells with runs_next, so the
 * size is the bytes written. */
#include "io/snapshot_format.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/base/bytes.h"
#include "core/base/error.h"

static inline uint32_t bits_of(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static inline bool same_at(const float *v, const struct runs_ref *r, size_t i)
{
	return bits_of(v[i]) == (r->layer ? bits_of(r->layer[i]) : r->value_bits);
}

/* The first cell from i that differs from the reference (n if none): eight
 * cells at a time, since most of a mostly-zero layer is this scan. */
static size_t equal_until(const float *v, const struct runs_ref *r, size_t i, size_t n)
{
	for (; i + 8 <= n; i += 8) {
		uint32_t a[8], b[8], d = 0;
		memcpy(a, v + i, sizeof a);
		if (r->layer)
			memcpy(b, r->layer + i, sizeof b);
		else
			for (int k = 0; k < 8; k++)
				b[k] = r->value_bits;
		for (int k = 0; k < 8; k++)
			d |= a[k] ^ b[k];
		if (d)
			break;
	}
	while (i < n && same_at(v, r, i))
		i++;
	return i;
}

/* Equal cells shorter than this inside written ones are written with them:
 * a new pair costs 8 bytes, two floats. */
#define RUNS_MIN_SAME 3

size_t runs_next(const float *v, const struct runs_ref *r, size_t n, size_t i,
		 uint32_t *same, uint32_t *lit)
{
	size_t s = equal_until(v, r, i, n);
	size_t e = s;
	while (e < n) {
		if (!same_at(v, r, e)) {
			e++;
			continue;
		}
		size_t k = 1;
		while (k < RUNS_MIN_SAME && e + k < n && same_at(v, r, e + k))
			k++;
		if (k >= RUNS_MIN_SAME || e + k == n)
			break;
		e += k;
	}
	*same = (uint32_t)(s - i);
	*lit = (uint32_t)(e - s);
	return e;
}

bool runs_may_pay(const float *v, const struct runs_ref *r, size_t n)
{
	/* Odd, so the probes do not all fall in one column of a square map. */
	const size_t probes = 4096, step = (n / probes) | 1;
	size_t equal = 0, seen = 0;
	for (size_t i = 0; i < n; i += step, seen++)
		equal += same_at(v, r, i);
	return equal * 32 >= seen;
}

uint64_t runs_bytes(const float *v, const struct runs_ref *r, size_t n)
{
	uint64_t bytes = RUNS_REF_BYTES;
	for (size_t i = 0; i < n;) {
		uint32_t same, lit;
		i = runs_next(v, r, n, i, &same, &lit);
		bytes += RUNS_PAIR_BYTES + 4 * (uint64_t)lit;
	}
	return bytes;
}

/* Reads exactly n bytes, counting them against the layer's length. */
static int take(FILE *fp, void *buf, size_t n, uint64_t *left)
{
	if (n > *left)
		return GULLY_EFORMAT;
	if (fread(buf, 1, n, fp) != n)
		return GULLY_EIO;
	*left -= n;
	return GULLY_OK;
}

int runs_read(FILE *fp, float *v, const struct runs_ref *r, size_t n, uint64_t len,
	      char *why, size_t whylen)
{
	uint64_t left = len;
	for (size_t i = 0; i < n;) {
		unsigned char pair[RUNS_PAIR_BYTES];
		int e = take(fp, pair, sizeof pair, &left);
		if (e) {
			snprintf(why, whylen, "its runs end at cell %zu of %zu", i, n);
			return e;
		}
		uint32_t same = get_u32le(pair), lit = get_u32le(pair + 4);
		if ((uint64_t)same + lit == 0 || same > n - i || lit > n - i - same) {
			snprintf(why, whylen, "a run of %" PRIu32 " + %" PRIu32 " cells at cell %zu %s",
				 same, lit, i, same + (uint64_t)lit == 0 ? "is empty" : "runs past the map");
			return GULLY_EFORMAT;
		}
		if (r->layer)
			memcpy(v + i, r->layer + i, same * sizeof *v);
		else
			for (size_t k = 0; k < same; k++)
				memcpy(v + i + k, &r->value_bits, sizeof *v);
		i += same;
		e = take(fp, v + i, 4 * (size_t)lit, &left);
		if (e) {
			snprintf(why, whylen, "its data ends inside a run of %" PRIu32 " cells at cell %zu", lit, i);
			return e;
		}
		if (!SNAPSHOT_FLOATS_AS_STORED)
			for (size_t k = 0; k < lit; k++)
				v[i + k] = get_f32le((const unsigned char *)(v + i + k));
		i += lit;
	}
	if (left) {
		snprintf(why, whylen, "%" PRIu64 " bytes are left after its last run", left);
		return GULLY_EFORMAT;
	}
	return GULLY_OK;
}
