/* TEMPORARY STUB from the tui branch, so the explorer links before the
 * snapshot helper's real snapshot.c lands. The lead drops this file at
 * merge in favour of the real one. Every call fails with GULLY_ENOTIMPL. */
#include "io/snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

int snapshot_save(const char *path, const struct world *w,
		  const struct snapshot_info *info, char *err, size_t errlen)
{
	(void)w;
	(void)info;
	snprintf(err, errlen, "%s: snapshots are %s", path, gully_strerror(GULLY_ENOTIMPL));
	return GULLY_ENOTIMPL;
}

int snapshot_load(const char *path, struct world **out, struct snapshot_info *info,
		  char *err, size_t errlen)
{
	*out = NULL;
	memset(info, 0, sizeof *info);
	snprintf(err, errlen, "%s: snapshots are %s", path, gully_strerror(GULLY_ENOTIMPL));
	return GULLY_ENOTIMPL;
}

void snapshot_info_free(struct snapshot_info *info)
{
	free(info->preset_yaml);
	free(info->state);
	info->preset_yaml = NULL;
	info->state = NULL;
	info->state_len = 0;
}
