/* madvise and MAP_ANONYMOUS are not in POSIX 2008. */
#define _DEFAULT_SOURCE 1

#include "core/base/bigmem.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__linux__) && defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
#define BIGMEM_MAPPED 1
#else
#define BIGMEM_MAPPED 0
#endif

#define HUGE_BYTES ((size_t)2 << 20)

#if BIGMEM_MAPPED
static size_t huge_round(size_t bytes)
{
	return (bytes + HUGE_BYTES - 1) & ~(HUGE_BYTES - 1);
}

/* A fresh anonymous mapping is zeroes, filled in as it is first touched.
 * It is mapped 2 MB longer and trimmed to a 2 MB boundary at both ends, so
 * that every 2 MB of it can be one huge page. */
static void *map_huge(size_t bytes)
{
	const size_t size = huge_round(bytes);
	if (size < bytes || size + HUGE_BYTES < size)
		return NULL;
	const size_t span = size + HUGE_BYTES;
	char *m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	const uintptr_t at = ((uintptr_t)m + HUGE_BYTES - 1) & ~(uintptr_t)(HUGE_BYTES - 1);
	const size_t head = (size_t)(at - (uintptr_t)m), tail = span - head - size;
	if (head)
		munmap(m, head);
	if (tail)
		munmap(m + head + size, tail);
	/* Advice: where it is refused the pages are plain ones. */
	(void)madvise(m + head, size, MADV_HUGEPAGE);
	return m + head;
}
#endif

void *bigmem_zalloc(size_t bytes)
{
#if BIGMEM_MAPPED
	if (bytes >= BIGMEM_MIN_BYTES)
		return map_huge(bytes);
#endif
	return calloc(1, bytes ? bytes : 1);
}

void bigmem_free(void *p, size_t bytes)
{
	if (!p)
		return;
#if BIGMEM_MAPPED
	if (bytes >= BIGMEM_MIN_BYTES) {
		munmap(p, huge_round(bytes));
		return;
	}
#endif
	free(p);
}
