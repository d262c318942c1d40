/* .gsnap snapshots: a whole session in one little-endian binary file.
 * The format is specified in man/gully-snapshot.5. */
#ifndef GULLY_SNAPSHOT_H
#define GULLY_SNAPSHOT_H

#include <stddef.h>

#include "core/params.h"
#include "core/world.h"

/* What a snapshot holds besides the world's layers, counters and RNG. */
struct snapshot_info {
	char process[32];       /* the process that was running ("particles") */
	struct params params;   /* the exact parameters, for a bit-exact resume */
	char *preset_yaml;      /* the effective preset as YAML text; may be NULL */
	unsigned char *state;   /* the process's save_state() blob; may be NULL */
	size_t state_len;
};

/* Writes atomically (temporary file, fsync, rename). Returns a gully_err code;
 * on failure `err` holds a one-line message naming the file. */
int snapshot_save(const char *path, const struct world *w,
		  const struct snapshot_info *info, char *err, size_t errlen);
/* Checks every field and size before allocating; on failure `err` says what
 * is wrong ("FILE: truncated in layer 'height'"), *out is NULL and info is
 * empty. */
int snapshot_load(const char *path, struct world **out, struct snapshot_info *info,
		  char *err, size_t errlen);
void snapshot_info_free(struct snapshot_info *info);

#endif
