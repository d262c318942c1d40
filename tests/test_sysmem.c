/* The free memory the explorer's undo keeps to (src/io/sysmem.c): a memory
 * cgroup's limit, on the process's group or any above it, read from fake
 * /proc/self/cgroup files and hierarchies in a scratch directory. */
#include "testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "io/sysmem.h"

TESTUTIL_TMPDIR_FIXTURES("sysmem")

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s%s%s", dir, name ? "/" : "", name ? name : "");
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static void make_dirs(const char *root, const char *sub)
{
	char path[512];
	mkdir(root, 0755);
	snprintf(path, sizeof path, "%s/%s", root, sub);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	mkdir(path, 0755);
}

/* The fake v1 and v2 roots and /proc/self/cgroup file of one test, named
 * after `tag` so that tests do not share them. */
static void fake_roots(const char *tag, char v1[256], char v2[256], char proc[256])
{
	snprintf(v1, 256, "%s/%s-v1", testutil_tmpdir(), tag);
	snprintf(v2, 256, "%s/%s-v2", testutil_tmpdir(), tag);
	snprintf(proc, 256, "%s/%s-cgroup", testutil_tmpdir(), tag);
}

/* The free memory undo keeps to counts a memory cgroup's limit, on the
 * process's own group or any above it (Slurm puts it on the job, the task
 * below), in v2 ("max": none) or v1 (a huge number: none); the least left
 * under any wins. A fake /proc/self/cgroup and hierarchies. */
static void test_free_memory_counts_cgroup_limits(void **state)
{
	(void)state;
	char v1[256], v2[256], proc[256];
	fake_roots("limits", v1, v2, proc);
	make_dirs(v1, "job_1/step_0/task_0");
	make_dirs(v2, "job_1/step_0");
	put_file(proc, NULL, "9:cpu:/job_1\n4:memory:/job_1/step_0/task_0\n0::/\n");
	assert_int_equal(sysmem_cgroup_left(proc, v2, v1), SIZE_MAX);
	put_file(v1, "job_1/step_0/task_0/memory.limit_in_bytes", "9223372036854771712\n");
	put_file(v1, "job_1/step_0/task_0/memory.usage_in_bytes", "300000\n");
	assert_true(sysmem_cgroup_left(proc, v2, v1) > ((size_t)1 << 40));
	put_file(v1, "job_1/memory.limit_in_bytes", "1000000\n");
	put_file(v1, "job_1/memory.usage_in_bytes", "400000\n");
	assert_int_equal(sysmem_cgroup_left(proc, v2, v1), 600000);
	put_file(proc, NULL, "4:memory:/job_1/step_0/task_0\n0::/job_1/step_0\n");
	put_file(v2, "job_1/step_0/memory.max", "max\n");
	put_file(v2, "job_1/step_0/memory.current", "450000\n");
	assert_int_equal(sysmem_cgroup_left(proc, v2, v1), 600000);
	put_file(v2, "job_1/memory.max", "500000\n");
	put_file(v2, "job_1/memory.current", "450000\n");
	assert_int_equal(sysmem_cgroup_left(proc, v2, v1), 50000);
	put_file(v2, "memory.max", "100\n"); /* the root: over its limit, none left */
	put_file(v2, "memory.current", "200\n");
	assert_int_equal(sysmem_cgroup_left(proc, v2, v1), 0);
	/* This machine: some memory, and a number. */
	assert_true(sysmem_available() > 0);
}

/* The page cache the kernel can drop at once (inactive_file, in v1 the
 * hierarchy's total_inactive_file) counts as free: a job that wrote its
 * output has a cgroup "using" up to its limit in cached file pages, and its
 * undo would be refused with most of the limit reclaimable. */
static void test_free_memory_counts_page_cache_as_free(void **state)
{
	(void)state;
	char v1[256], v2[256], proc[256];
	fake_roots("cache", v1, v2, proc);
	make_dirs(v1, "job_2/task_0");
	make_dirs(v2, "job_2/task_0");
	put_file(proc, NULL, "0::/job_2/task_0\n");
	put_file(v2, "job_2/memory.max", "1000000\n");
	put_file(v2, "job_2/memory.current", "900000\n");
	assert_int_equal(sysmem_cgroup_left(proc, v2, v1), 100000);
	put_file(v2, "job_2/memory.stat", "anon 100000\nfile 800000\nactive_file 300000\n"
					   "inactive_file 500000\nslab 1000\n");
	assert_int_equal(sysmem_cgroup_left(proc, v2, v1), 600000);
	/* A stat that says more than the usage (read at another moment): all
	 * of the limit, no wrap. */
	put_file(v2, "job_2/memory.stat", "inactive_file 950000\n");
	assert_int_equal(sysmem_cgroup_left(proc, v2, v1), 1000000);
	put_file(proc, NULL, "7:memory:/job_2/task_0\n0::/\n");
	put_file(v1, "job_2/memory.limit_in_bytes", "1000000\n");
	put_file(v1, "job_2/memory.usage_in_bytes", "900000\n");
	/* v1: the group's own inactive_file leaves out its children's. */
	put_file(v1, "job_2/memory.stat", "cache 800000\ninactive_file 1000\n"
					   "total_cache 800000\ntotal_inactive_file 400000\n");
	assert_int_equal(sysmem_cgroup_left(proc, v2, v1), 500000);
	/* No cgroup file at all (no /proc): unknown, never 0. */
	assert_int_equal(sysmem_cgroup_left(tmp("no-such-file"), v2, v1), SIZE_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_free_memory_counts_cgroup_limits),
		cmocka_unit_test(test_free_memory_counts_page_cache_as_free),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
