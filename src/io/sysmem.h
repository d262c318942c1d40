#ifndef GULLY_IO_SYSMEM_H
#define GULLY_IO_SYSMEM_H

#include <stddef.h>

/* Bytes this process could still allocate without the machine swapping
 * or its memory cgroup reclaiming more than idle page cache: the smaller of the kernel's
 * MemAvailable and, under a memory cgroup's limit (v2 or v1, as a Slurm
 * job or a container sets), that limit less what the group uses, its
 * page cache the kernel drops first (inactive_file) counted as free.
 * SIZE_MAX when neither is known. */
size_t sysmem_available(void);

/* The cgroup half of that, from a /proc/PID/cgroup file and the roots the
 * v2 and v1 memory hierarchies are mounted at (tests give their own):
 * the least left under any limit of the process's group or its
 * ancestors ("max" and v1's huge "no limit" count as none). */
size_t sysmem_cgroup_left(const char *cgroup_file, const char *v2_root, const char *v1_root);

#endif
