/* The cell-to-tree hash table (tree_map.h). */
#include "core/hydrology/tree_map.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/bigmem.h"
#include "core/base/error.h"

/* Fibonacci hashing: the trees of a stand sit on neighbouring cells, and a
 * multiply spreads consecutive numbers over the whole table. */
static size_t home(const struct tree_map *m, uint32_t cell)
{
	return (size_t)((uint64_t)cell * 0x9e3779b97f4a7c15u >> 32) & (m->cap - 1);
}

void tree_map_init(struct tree_map *m, size_t cells)
{
	*m = (struct tree_map){.cells = cells};
}

uint32_t tree_map_get(const struct tree_map *m, uint32_t cell)
{
	if (m->dense)
		return m->dense[cell];
	if (!m->n)
		return 0;
	for (size_t i = home(m, cell);; i = (i + 1) & (m->cap - 1)) {
		if (m->e[i].cell == cell)
			return m->e[i].slot + 1;
		if (m->e[i].cell == TREE_MAP_EMPTY)
			return 0;
	}
}

static void insert(struct tree_map *m, uint32_t cell, uint32_t slot)
{
	size_t i = home(m, cell);
	while (m->e[i].cell != TREE_MAP_EMPTY)
		i = (i + 1) & (m->cap - 1);
	m->e[i] = (struct tree_map_entry){cell, slot};
	m->n++;
}

/* The table at twice the size, or the array of every cell once the table
 * would take more memory than it. */
static int grow(struct tree_map *m)
{
	size_t cap = m->cap ? 2 * m->cap : 1024;
	if (cap * sizeof *m->e > m->cells * sizeof *m->dense) {
		uint32_t *dense = bigmem_zalloc(m->cells * sizeof *dense);
		if (!dense)
			return GULLY_ENOMEM;
		for (size_t i = 0; i < m->cap; i++)
			if (m->e[i].cell != TREE_MAP_EMPTY)
				dense[m->e[i].cell] = m->e[i].slot + 1;
		free(m->e);
		m->e = NULL;
		m->cap = 0;
		m->dense = dense;
		return GULLY_OK;
	}
	struct tree_map_entry *e = malloc(cap * sizeof *e);
	if (!e)
		return GULLY_ENOMEM;
	memset(e, 0xff, cap * sizeof *e); /* every cell TREE_MAP_EMPTY */
	struct tree_map old = *m;
	m->e = e;
	m->cap = cap;
	m->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.e[i].cell != TREE_MAP_EMPTY)
			insert(m, old.e[i].cell, old.e[i].slot);
	free(old.e);
	return GULLY_OK;
}

static size_t run_words(const struct tree_map *m)
{
	return ((m->cells >> TREE_MAP_RUN_SHIFT) + 1 + 63) / 64;
}

int tree_map_put(struct tree_map *m, uint32_t cell, uint32_t slot)
{
	if (!m->runs && !(m->runs = calloc(run_words(m), sizeof *m->runs)))
		return GULLY_ENOMEM;
	const uint32_t run = cell >> TREE_MAP_RUN_SHIFT;
	if (!m->dense && 2 * (m->n + 1) > m->cap && grow(m))
		return GULLY_ENOMEM;
	m->runs[run >> 6] |= (uint64_t)1 << (run & 63);
	if (m->dense) {
		m->dense[cell] = slot + 1;
		m->n++;
		return GULLY_OK;
	}
	insert(m, cell, slot);
	return GULLY_OK;
}

/* Whether `k` lies cyclically in (i, j]: an entry at j whose home is there
 * is still reachable with i empty, so it stays. */
static int between(size_t i, size_t k, size_t j)
{
	return i <= j ? (i < k && k <= j) : (i < k || k <= j);
}

static void forget(struct tree_map *m, uint32_t cell)
{
	if (m->dense) {
		m->n -= m->dense[cell] != 0;
		m->dense[cell] = 0;
		return;
	}
	if (!m->n)
		return;
	size_t i = home(m, cell);
	while (m->e[i].cell != cell) {
		if (m->e[i].cell == TREE_MAP_EMPTY)
			return;
		i = (i + 1) & (m->cap - 1);
	}
	for (size_t j = (i + 1) & (m->cap - 1); m->e[j].cell != TREE_MAP_EMPTY;
	     j = (j + 1) & (m->cap - 1)) {
		if (!between(i, home(m, m->e[j].cell), j)) {
			m->e[i] = m->e[j];
			i = j;
		}
	}
	m->e[i].cell = TREE_MAP_EMPTY;
	m->n--;
}

/* The run's bit stays while another of its cells holds a tree. */
void tree_map_remove(struct tree_map *m, uint32_t cell)
{
	forget(m, cell);
	if (!tree_map_run_any(m, cell))
		return;
	const uint32_t first = cell >> TREE_MAP_RUN_SHIFT << TREE_MAP_RUN_SHIFT;
	for (uint32_t c = first; c < first + (1u << TREE_MAP_RUN_SHIFT) && c < m->cells; c++)
		if (tree_map_get(m, c))
			return;
	const uint32_t run = cell >> TREE_MAP_RUN_SHIFT;
	m->runs[run >> 6] &= ~((uint64_t)1 << (run & 63));
}

void tree_map_clear(struct tree_map *m)
{
	bigmem_free(m->dense, m->cells * sizeof *m->dense);
	m->dense = NULL;
	if (m->cap)
		memset(m->e, 0xff, m->cap * sizeof *m->e);
	if (m->runs)
		memset(m->runs, 0, run_words(m) * sizeof *m->runs);
	m->n = 0;
}

void tree_map_free(struct tree_map *m)
{
	free(m->e);
	free(m->runs);
	bigmem_free(m->dense, m->cells * sizeof *m->dense);
	tree_map_init(m, m->cells);
}
