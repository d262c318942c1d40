/* The flood's min-heap of cells keyed by surface: a fresh pour's rim, and
 * each lake record's persistent rim heap (flood.c). Private to flood.c. */
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

/* A 4-ary heap: half the levels of a binary one, and a pop walks its hole
 * down to a leaf taking the least child (one comparison per child) and
 * then lifts the last entry from there (usually not far: it came from the
 * bottom). A fresh fill's pops were 40% of its instructions. */
#define HEAP_D 4

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
	size_t i = hp->len++;
	struct node *h = hp->a;
	while (i > 0) {
		size_t parent = (i - 1) / HEAP_D;
		if (h[parent].key <= key)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i].key = key;
	h[i].cell = cell;
	return true;
}

/* heap_push when the caller knows there is room (hp->len < hp->cap). */
static inline void heap_push_reserved(struct heap *hp, double key, int32_t cell)
{
	size_t i = hp->len++;
	struct node *h = hp->a;
	while (i > 0) {
		size_t parent = (i - 1) / HEAP_D;
		if (h[parent].key <= key)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i].key = key;
	h[i].cell = cell;
}

/* The index of the least of h[c..] (c < n), at most HEAP_D of them. */
static inline size_t heap_least(const struct node *h, size_t c, size_t n)
{
	size_t m = c;
	if (c + HEAP_D <= n) {
		size_t a = h[c + 1].key < h[c].key ? c + 1 : c;
		size_t b = h[c + 3].key < h[c + 2].key ? c + 3 : c + 2;
		return h[b].key < h[a].key ? b : a;
	}
	for (size_t j = c + 1; j < n; j++)
		m = h[j].key < h[m].key ? j : m;
	return m;
}

static inline void heap_sift_down(struct heap *hp, size_t i, struct node v)
{
	struct node *h = hp->a;
	size_t n = hp->len;
	for (;;) {
		size_t c = HEAP_D * i + 1;
		if (c >= n)
			break;
		c = heap_least(h, c, n);
		if (v.key <= h[c].key)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = v;
}

static inline void heap_pop(struct heap *hp)
{
	struct node *h = hp->a;
	struct node last = h[--hp->len];
	size_t n = hp->len, i = 0;
	if (!n)
		return;
	for (;;) {
		size_t c = HEAP_D * i + 1;
		if (c >= n)
			break;
		c = heap_least(h, c, n);
		h[i] = h[c];
		i = c;
	}
	while (i > 0) {
		size_t parent = (i - 1) / HEAP_D;
		if (h[parent].key <= last.key)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = last;
}

static inline void heapify(struct heap *hp)
{
	for (size_t i = hp->len / HEAP_D + 1; i-- > 0;)
		if (HEAP_D * i + 1 < hp->len)
			heap_sift_down(hp, i, hp->a[i]);
}

#endif
