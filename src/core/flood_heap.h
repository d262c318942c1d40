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
		size_t parent = (i - 1) / 2;
		if (h[parent].key <= key)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i].key = key;
	h[i].cell = cell;
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

static inline void heap_pop(struct heap *hp)
{
	struct node *h = hp->a;
	struct node last = h[--hp->len];
	size_t n = hp->len, i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1].key < h[c].key)
			c++;
		if (last.key <= h[c].key)
			break;
		h[i] = h[c];
		i = c;
	}
	if (n)
		h[i] = last;
}

static inline void heapify(struct heap *hp)
{
	for (size_t i = hp->len / 2; i-- > 0;)
		heap_sift_down(hp, i, hp->a[i]);
}

#endif
