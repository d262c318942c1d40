/* The flood's min-heap of cells keyed by surface: a fresh pour's rim and
 * each lake record's persistent rim heap (the whole-map flood, whose levels
 * never fall, queues in flood_radix.h's radix heap instead).
 * Private to the flood's files (src/core/hydrology/flood*.c). */
#ifndef GULLY_FLOOD_HEAP_H
#define GULLY_FLOOD_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

struct node {
	double key;
	int32_t cell;
};

/* A min-heap of cells ordered by key. Equal keys come off in any order:
 * every cell the level reaches joins before a leak counts (flood_pour), so
 * which of them comes first never shows in the result. */
struct heap {
	struct node *a;
	size_t len, cap;
};

/* heap_push when the caller made room first (hp->len < hp->cap). */
static inline void heap_push_reserved(struct heap *hp, double key, int32_t cell)
{
	size_t i = hp->len++;
	struct node *h = hp->a;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (h[parent].key <= key)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i].key = key;
	h[i].cell = cell;
}

/* False when out of memory (the heap is unchanged). */
static inline bool heap_push(struct heap *hp, double key, int32_t cell)
{
	if (hp->len == hp->cap) {
		size_t cap = hp->cap ? 2 * hp->cap : 256;
		struct node *a = realloc(hp->a, cap * sizeof *a);
		if (!a)
			return false;
		hp->a = a;
		hp->cap = cap;
	}
	heap_push_reserved(hp, key, cell);
	return true;
}

static inline void heap_sift_down(struct heap *hp, size_t i, struct node v)
{
	struct node *h = hp->a;
	size_t n = hp->len;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1].key < h[c].key)
			c++;
		if (v.key <= h[c].key)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = v;
}

/* The pop walks the hole down to a leaf, taking the lesser child without
 * a branch (which child is a coin toss for the predictor: that branch cost
 * more than the rest of a fresh fill's pop), then lifts the last entry from
 * there, usually not far: it came from the bottom. (A 4-ary heap ran fewer
 * instructions but more mispredicted selects: slower.) */
static inline void heap_pop(struct heap *hp)
{
	struct node *h = hp->a;
	struct node last = h[--hp->len];
	size_t n = hp->len, i = 0;
	if (!n)
		return;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n)
			c += h[c + 1].key < h[c].key;
		h[i] = h[c];
		i = c;
	}
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (h[parent].key <= last.key)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = last;
}

static inline void heapify(struct heap *hp)
{
	for (size_t i = hp->len / 2; i-- > 0;)
		heap_sift_down(hp, i, hp->a[i]);
}

#endif
