/* How much memory is free to use, for the explorer's undo budget: a
 * checkpoint of a big map is hundreds of MB, and on a small machine (a
 * remote box, a cluster job's cgroup) one copy too many gets gully killed
 * by the kernel, with the session's work, rather than refused by malloc. */
#include "io/sysmem.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* MemAvailable from /proc/meminfo (free memory plus what the kernel can
 * reclaim at once); else the free pages sysconf counts. */
static size_t machine_available(void)
{
	FILE *fp = fopen("/proc/meminfo", "r");
	char line[128];
	unsigned long long kb;
	if (fp) {
		while (fgets(line, sizeof line, fp))
			if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
				fclose(fp);
				return kb > SIZE_MAX / 1024 ? SIZE_MAX : (size_t)kb * 1024;
			}
		fclose(fp);
	}
	long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	if (pages > 0 && page > 0 && (unsigned long long)pages <= SIZE_MAX / (unsigned long long)page)
		return (size_t)pages * (size_t)page;
	return SIZE_MAX;
}

/* One number from a file of this process's memory cgroup; false for
 * "max", a missing file or anything else. */
static bool cgroup_value(const char *dir, const char *name, unsigned long long *v)
{
	char path[600];
	if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
		return false;
	FILE *fp = fopen(path, "r");
	if (!fp)
		return false;
	bool ok = fscanf(fp, "%llu", v) == 1;
	fclose(fp);
	return ok;
}

/* Under a memory cgroup's limit (v2's memory.max, or v1's
 * memory.limit_in_bytes, as Slurm sets either), what is left of it;
 * SIZE_MAX when the group has none. v1's "no limit" is a huge number, so
 * it comes out as plenty. */
static size_t cgroup_available(void)
{
	FILE *fp = fopen("/proc/self/cgroup", "r");
	char line[512], group[400];
	char v2[450] = "", v1[450] = "";
	if (!fp)
		return SIZE_MAX;
	while (fgets(line, sizeof line, fp)) {
		if (sscanf(line, "0::%399[^\n]", group) == 1)
			snprintf(v2, sizeof v2, "/sys/fs/cgroup%s", group);
		else if (sscanf(line, "%*u:memory:%399[^\n]", group) == 1)
			snprintf(v1, sizeof v1, "/sys/fs/cgroup/memory%s", group);
	}
	fclose(fp);
	unsigned long long max, used;
	if (!((v2[0] && cgroup_value(v2, "memory.max", &max) &&
	       cgroup_value(v2, "memory.current", &used)) ||
	      (v1[0] && cgroup_value(v1, "memory.limit_in_bytes", &max) &&
	       cgroup_value(v1, "memory.usage_in_bytes", &used))))
		return SIZE_MAX;
	const unsigned long long left = used < max ? max - used : 0;
	return left > SIZE_MAX ? SIZE_MAX : (size_t)left;
}

size_t sysmem_available(void)
{
	const size_t m = machine_available(), c = cgroup_available();
	return m < c ? m : c;
}
