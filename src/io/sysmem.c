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
 * reclaim at once); else the free pages sysconf counts; else SIZE_MAX,
 * unknown (never 0, which would refuse every checkpoint). */
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
	/* _SC_AVPHYS_PAGES is glibc's and musl's, not POSIX (macOS and the
	 * BSDs have none): without it the machine's free memory is unknown. */
#ifdef _SC_AVPHYS_PAGES
	long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	if (pages > 0 && page > 0 && (unsigned long long)pages <= SIZE_MAX / (unsigned long long)page)
		return (size_t)pages * (size_t)page;
#endif
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

/* The page cache in memory.stat that the kernel drops at once, before it
 * reclaims anything else (`key`: v2's inactive_file, v1's hierarchy-wide
 * total_inactive_file); 0 when not there. The group's usage counts every
 * cached page of the files it read or wrote, so a job that wrote its output
 * sits near its limit with most of that free to take. */
static unsigned long long cgroup_cache(const char *dir, const char *key)
{
	char path[700], line[128];
	unsigned long long v = 0, n;
	const size_t klen = strlen(key);
	if (snprintf(path, sizeof path, "%s/memory.stat", dir) >= (int)sizeof path)
		return 0;
	FILE *fp = fopen(path, "r");
	if (!fp)
		return 0;
	while (fgets(line, sizeof line, fp))
		if (strncmp(line, key, klen) == 0 && line[klen] == ' ' &&
		    sscanf(line + klen, "%llu", &n) == 1) {
			v = n;
			break;
		}
	fclose(fp);
	return v;
}

/* The names one hierarchy gives its files. */
struct cgroup_files {
	const char *max, *used, *cache;
};

/* What is left under the limits of `group` (a path under root) and of each
 * group above it: a limit may sit on an ancestor (Slurm's job or step, a
 * systemd slice) while the process's own group has none. */
static size_t group_left(const char *root, const char *group, const struct cgroup_files *f)
{
	char path[400], dir[600];
	size_t best = SIZE_MAX;
	snprintf(path, sizeof path, "%s", group[0] == '/' ? group : "/");
	for (;;) {
		unsigned long long max, used;
		snprintf(dir, sizeof dir, "%s%s", root, strcmp(path, "/") == 0 ? "" : path);
		if (cgroup_value(dir, f->max, &max) && cgroup_value(dir, f->used, &used)) {
			const unsigned long long cache = cgroup_cache(dir, f->cache);
			used = cache < used ? used - cache : 0;
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
	static const struct cgroup_files v2 = {"memory.max", "memory.current", "inactive_file"};
	static const struct cgroup_files v1 = {"memory.limit_in_bytes", "memory.usage_in_bytes",
					       "total_inactive_file"};
	FILE *fp = fopen(cgroup_file, "r");
	char line[512], group[400];
	size_t best = SIZE_MAX;
	if (!fp)
		return SIZE_MAX;
	while (fgets(line, sizeof line, fp)) {
		size_t left = SIZE_MAX;
		if (sscanf(line, "0::%399[^\n]", group) == 1)
			left = group_left(v2_root, group, &v2);
		else if (sscanf(line, "%*u:memory:%399[^\n]", group) == 1)
			left = group_left(v1_root, group, &v1);
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
