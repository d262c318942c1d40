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

/* What is left under the limits of `group` (a path under root) and of each
 * group above it: a limit may sit on an ancestor (Slurm's job or step, a
 * systemd slice) while the process's own group has none. */
static size_t group_left(const char *root, const char *group, const char *max_name,
			 const char *used_name)
{
	char path[400], dir[600];
	size_t best = SIZE_MAX;
	snprintf(path, sizeof path, "%s", group[0] == '/' ? group : "/");
	for (;;) {
		unsigned long long max, used;
		snprintf(dir, sizeof dir, "%s%s", root, strcmp(path, "/") == 0 ? "" : path);
		if (cgroup_value(dir, max_name, &max) && cgroup_value(dir, used_name, &used)) {
			const unsigned long long left = used < max ? max - used : 0;
			if (left < best)
				best = left > SIZE_MAX ? SIZE_MAX : (size_t)left;
		}
		char *slash = strrchr(path, '/');
		if (!slash || strcmp(path, "/") == 0)
			break;
		slash[slash == path] = '\0'; /* "/a" goes to "/" */
	}
	return best;
}

size_t sysmem_cgroup_left(const char *cgroup_file, const char *v2_root, const char *v1_root)
{
	FILE *fp = fopen(cgroup_file, "r");
	char line[512], group[400];
	size_t best = SIZE_MAX;
	if (!fp)
		return SIZE_MAX;
	while (fgets(line, sizeof line, fp)) {
		size_t left = SIZE_MAX;
		if (sscanf(line, "0::%399[^\n]", group) == 1)
			left = group_left(v2_root, group, "memory.max", "memory.current");
		else if (sscanf(line, "%*u:memory:%399[^\n]", group) == 1)
			left = group_left(v1_root, group, "memory.limit_in_bytes",
					  "memory.usage_in_bytes");
		best = left < best ? left : best;
	}
	fclose(fp);
	return best;
}

size_t sysmem_available(void)
{
	const size_t m = machine_available();
	const size_t c = sysmem_cgroup_left("/proc/self/cgroup", "/sys/fs/cgroup",
					    "/sys/fs/cgroup/memory");
	return m < c ? m : c;
}
