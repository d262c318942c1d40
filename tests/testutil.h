/* cmocka and the few helpers its 1.1 release lacks. */
#ifndef GULLY_TESTUTIL_H
#define GULLY_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

/* cmocka 1.1 compares floats only as float; heights and volumes need doubles. */
#define assert_double_equal(a, b, eps) \
	do { \
		double a_ = (a), b_ = (b); \
		if (!(fabs(a_ - b_) <= (eps))) \
			fail_msg("%s = %.17g, %s = %.17g (tolerance %g)", #a, a_, #b, b_, \
				 (double)(eps)); \
	} while (0)

#include <stdio.h>
#include <stdlib.h>

/* One scratch directory per test program, made by a group setup and removed
 * by its teardown: TESTUTIL_TMPDIR_FIXTURES("snapshot") defines setup(),
 * teardown() and tmp("name") -> "/tmp/gully-test-snapshot-XXXXXX/name". */
static inline char *testutil_tmpdir(void)
{
	static char dir[96];
	return dir;
}

#define TESTUTIL_TMPDIR_FIXTURES(name) \
	static int setup(void **state) \
	{ \
		(void)state; \
		snprintf(testutil_tmpdir(), 96, "/tmp/gully-test-" name "-XXXXXX"); \
		return mkdtemp(testutil_tmpdir()) ? 0 : -1; \
	} \
	static int teardown(void **state) \
	{ \
		(void)state; \
		char cmd[160]; \
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", testutil_tmpdir()); \
		return system(cmd) == 0 ? 0 : -1; \
	} \
	static const char *tmp(const char *file) \
	{ \
		static char path[256]; \
		snprintf(path, sizeof path, "%s/%s", testutil_tmpdir(), file); \
		return path; \
	}

/* A whole file into a malloc'd buffer (one spare byte); fails the test if it
 * cannot be read. */
static inline unsigned char *testutil_read_file(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	long size = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	unsigned char *p = malloc((size_t)size + 1);
	assert_non_null(p);
	assert_int_equal(fread(p, 1, (size_t)size, fp), (size_t)size);
	fclose(fp);
	*n = (size_t)size;
	return p;
}

#endif
