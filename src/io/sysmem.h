#ifndef GULLY_IO_SYSMEM_H
#define GULLY_IO_SYSMEM_H

#include <stddef.h>

/* Bytes this process could still allocate without the machine swapping
 * or its memory cgroup reclaiming: the smaller of the kernel's
 * MemAvailable and, under a memory cgroup's limit (v2 or v1, as a Slurm
 * job or a container sets), that limit less what the group uses.
 * SIZE_MAX when neither is known. */
size_t sysmem_available(void);

#endif
