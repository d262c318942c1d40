/* Zeroed memory for a map's layers. On a big map it is asked to be backed
 * by huge pages (Linux's transparent huge pages, by madvise; where the
 * system says never, or has none free, it is plain pages as before): a
 * droplet on a 4096x4096 map steps onto another 4 KB page of every layer
 * it reads whenever it moves a row; huge pages took a tenth off a
 * hydrology run there (bench/HYDROLOGY.md, "Huge pages for the layers").
 * Small blocks come from calloc. */
#ifndef GULLY_BASE_BIGMEM_H
#define GULLY_BASE_BIGMEM_H

#include <stddef.h>

/* Blocks of at least this many bytes are mapped on their own, aligned to
 * the 2 MB a huge page spans; smaller ones are calloc's. */
#define BIGMEM_MIN_BYTES ((size_t)4 << 20)

/* bytes of zeroes, or NULL when there is no memory. */
void *bigmem_zalloc(size_t bytes);
/* Frees what bigmem_zalloc(bytes) gave (the same bytes); NULL is ignored. */
void bigmem_free(void *p, size_t bytes);

#endif
