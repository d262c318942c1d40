/* A radix heap (Ahuja, Mehlhorn, Orlin, Tarjan 1990) of cells keyed by
 * surface, for the whole-map flood (flood_map.c), whose keys never fall:
 * a cell is queued at a level at or above the one last taken out. Exact:
 * a key is a double's bits mapped to an unsigned integer in the same
 * order, no quantising. A push is an append to the bucket named by the
 * highest bit in which the key differs from the last key taken out; a pop
 * takes from bucket 0 (keys equal to it) or empties the lowest non-empty
 * bucket into lower ones around its least key. Each entry moves down at
 * most 64 times, in practice once or twice: cheaper than a binary heap's
 * log2(len) mispredicted steps. Equal keys come off in any order (the
 * flood's result does not depend on it). Private to the flood's files. */
#ifndef GULLY_FLOOD_RADIX_H
#define GULLY_FLOOD_RADIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct radix_node {
	uint64_t key;
	int32_t cell;
};

struct radix_bucket {
	struct radix_node *a;
	size_t len, cap;
};

struct radix_heap {
	uint64_t last;     /* the key last taken out (0 before any) */
	uint64_t nonempty; /* bit i - 1 set: bucket i (1..64) holds entries */
	size_t len;
	struct radix_bucket b[65];
};

/* The double's order as an unsigned integer's: negative numbers' bits
 * reversed, positive ones above them. -0 is +0 first (they compare equal,
 * and a key must never fall below the last). */
static inline uint64_t radix_key(double k)
{
	uint64_t u;
	k += 0.0;
	memcpy(&u, &k, sizeof u);
	return (u >> 63) ? ~u : u | (UINT64_C(1) << 63);
}

static inline double radix_level(uint64_t u)
{
	u = (u >> 63) ? u & ~(UINT64_C(1) << 63) : ~u;
	double k;
	memcpy(&k, &u, sizeof k);
	return k;
}

static inline unsigned radix_bucket_of(uint64_t key, uint64_t last)
{
	uint64_t x = key ^ last;
	return x ? 64u - (unsigned)__builtin_clzll(x) : 0u;
}

static inline bool radix_append(struct radix_bucket *b, uint64_t key, int32_t cell)
{
	if (b->len == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		struct radix_node *a = realloc(b->a, cap * sizeof *a);
		if (!a)
			return false;
		b->a = a;
		b->cap = cap;
	}
	b->a[b->len].key = key;
	b->a[b->len].cell = cell;
	b->len++;
	return true;
}

/* False when out of memory (the heap is unchanged). The key must not be
 * below the last one taken out. */
static inline bool radix_push(struct radix_heap *r, double level, int32_t cell)
{
	uint64_t key = radix_key(level);
	unsigned i = radix_bucket_of(key, r->last);
	if (!radix_append(&r->b[i], key, cell))
		return false;
	if (i)
		r->nonempty |= UINT64_C(1) << (i - 1);
	r->len++;
	return true;
}

/* Takes out an entry with the least key (the heap must not be empty);
 * its level goes to *level. False when out of memory: then the heap has
 * lost entries, and is only fit for radix_free. */
static inline bool radix_pop(struct radix_heap *r, double *level, int32_t *cell)
{
	if (!r->b[0].len) {
		unsigned i = 1u + (unsigned)__builtin_ctzll(r->nonempty);
		struct radix_bucket *b = &r->b[i];
		uint64_t least = b->a[0].key;
		for (size_t k = 1; k < b->len; k++)
			least = b->a[k].key < least ? b->a[k].key : least;
		r->last = least;
		/* Every entry lands in a bucket below i: it shares bits i.. with
		 * the least key. Bucket i is emptied before any is appended. */
		size_t n = b->len;
		b->len = 0;
		r->nonempty &= ~(UINT64_C(1) << (i - 1));
		for (size_t k = 0; k < n; k++) {
			unsigned j = radix_bucket_of(b->a[k].key, least);
			if (!radix_append(&r->b[j], b->a[k].key, b->a[k].cell))
				return false;
			if (j)
				r->nonempty |= UINT64_C(1) << (j - 1);
		}
	}
	struct radix_bucket *z = &r->b[0];
	z->len--;
	r->len--;
	*cell = z->a[z->len].cell;
	*level = radix_level(z->a[z->len].key);
	return true;
}

static inline void radix_free(struct radix_heap *r)
{
	for (int i = 0; i < 65; i++)
		free(r->b[i].a);
}

#endif
