/* A map's layer memory (core/base/bigmem.h): zeroes of the size asked,
 * every byte writable, big blocks aligned to the 2 MB of a huge page (on
 * Linux), small ones calloc's; and a world big enough to take the mapped
 * blocks made, cloned and freed. */
#include "testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/bigmem.h"
#include "core/base/error.h"
#include "core/base/world.h"

static void check_block(size_t bytes)
{
	unsigned char *p = bigmem_zalloc(bytes);
	assert_non_null(p);
	for (size_t i = 0; i < bytes; i++)
		if (p[i]) {
			fail_msg("%zu-byte block: byte %zu is %u, not 0", bytes, i, p[i]);
		}
#if defined(__linux__)
	if (bytes >= BIGMEM_MIN_BYTES)
		assert_int_equal((uintptr_t)p % ((uintptr_t)2 << 20), 0);
#endif
	/* Every byte is ours: a pattern written end to end reads back. */
	for (size_t i = 0; i < bytes; i++)
		p[i] = (unsigned char)(i * 131u >> 3);
	for (size_t i = 0; i < bytes; i++)
		if (p[i] != (unsigned char)(i * 131u >> 3))
			fail_msg("%zu-byte block: byte %zu did not keep its value", bytes, i);
	bigmem_free(p, bytes);
}

static void test_blocks_are_zeroed_and_whole(void **unused)
{
	(void)unused;
	const size_t sizes[] = {0, 1, 100, BIGMEM_MIN_BYTES - 1, BIGMEM_MIN_BYTES,
				BIGMEM_MIN_BYTES + 12345, (size_t)9 << 20};
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
		check_block(sizes[i]);
	bigmem_free(NULL, BIGMEM_MIN_BYTES);
	bigmem_free(NULL, 10);
}

/* The process's size in bytes (Linux's /proc/self/statm), or 0. */
static size_t mapped_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;
	if (f) {
		if (fscanf(f, "%lu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return (size_t)pages * 4096u;
}

/* A freed block is given back whole: twenty 64 MB blocks made, touched and
 * freed in turn leave the process no bigger than one would. */
static void test_blocks_are_given_back(void **unused)
{
	(void)unused;
	const size_t big = (size_t)64 << 20, before = mapped_bytes();
	for (int i = 0; i < 20; i++) {
		unsigned char *p = bigmem_zalloc(big);
		assert_non_null(p);
		p[0] = p[big - 1] = 1;
		bigmem_free(p, big);
	}
	if (before)
		assert_true(mapped_bytes() < before + big);
}

/* 1024x1024 floats is BIGMEM_MIN_BYTES a layer: a world of mapped layers. */
static void test_world_of_mapped_layers(void **unused)
{
	(void)unused;
	struct world *w = NULL, *c = NULL;
	assert_int_equal(world_create(&w, 1024, 1024), GULLY_OK);
	const size_t n = world_cells(w);
	assert_true(n * sizeof(float) >= BIGMEM_MIN_BYTES);
	for (int l = 0; l < LAYER_COUNT; l++) {
		for (size_t i = 0; i < n; i++)
			assert_true(w->layer[l][i] == 0.0f);
		w->layer[l][n - 1] = (float)l + 0.5f;
	}
	assert_int_equal(world_clone(&c, w), GULLY_OK);
	for (int l = 0; l < LAYER_COUNT; l++)
		assert_true(c->layer[l][n - 1] == (float)l + 0.5f);
	world_destroy(w);
	world_destroy(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks_are_zeroed_and_whole),
		cmocka_unit_test(test_blocks_are_given_back),
		cmocka_unit_test(test_world_of_mapped_layers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
