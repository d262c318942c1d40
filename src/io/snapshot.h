/* .gsnap snapshots: a whole session in one little-endian binary file.
 * The format is specified in man/gully-snapshot.5. */
#ifndef GULLY_SNAPSHOT_H
#define GULLY_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/base/params.h"
#include "core/base/world.h"

/* What a snapshot holds besides the world's layers, counters and RNG. */
struct snapshot_info {
	char process[32];       /* the process that was running ("particles") */
	struct params params;   /* the exact parameters, for a bit-exact resume */
	char *preset_yaml;      /* the effective preset as YAML text; may be NULL */
	unsigned char *state;   /* the process's save_state() blob; may be NULL */
	size_t state_len;
};

/* Whether a path is named as a snapshot: it ends in .gsnap, in any case
 * (how run, sweep and info tell one from a height map or a preset). */
bool snapshot_is_name(const char *path);

/* Writes atomically (temporary file, fsync, rename). Returns a gully_err code;
 * on failure `err` holds a one-line message naming the file. A world with a
 * cell the loader would refuse (world_check_layer) is not saved. */
int snapshot_save(const char *path, const struct world *w,
		  const struct snapshot_info *info, char *err, size_t errlen);
/* Checks every field and size before allocating; on failure `err` says what
 * is wrong ("FILE: truncated in layer 'height'"), *out is NULL and info is
 * empty. */
int snapshot_load(const char *path, struct world **out, struct snapshot_info *info,
		  char *err, size_t errlen);
void snapshot_info_free(struct snapshot_info *info);

/* The format's constants and the limits a loader enforces (gully-snapshot(5)). */
#define SNAPSHOT_MAGIC "\x89GSNAP\r\n" /* 8 bytes, no terminator in the file */
#define SNAPSHOT_MAGIC_LEN 8
#define SNAPSHOT_VERSION 2u          /* written; version 1 still loads */
#define SNAPSHOT_VERSION_MIN 1u
#define SNAPSHOT_MAX_NAME 63u             /* tally and layer names */
#define SNAPSHOT_MAX_PROCESS 31u          /* fits snapshot_info.process */
#define SNAPSHOT_MAX_TALLIES 256u
#define SNAPSHOT_MAX_LAYERS 64u
#define SNAPSHOT_MAX_PARAMS_TEXT (1u << 20)
#define SNAPSHOT_MAX_PRESET_TEXT (16u << 20)
#define SNAPSHOT_MAX_STATE (1u << 30)

/* How a layer is stored (version 2; version 1's are all raw). */
enum snapshot_encoding {
	SNAPSHOT_ENC_RAW = 0,  /* width x height f32 */
	SNAPSHOT_ENC_RUNS = 1, /* runs of cells equal to a value or an earlier layer */
};

/* What a load found beyond the world itself, for `gully info`. */
struct snapshot_report {
	uint32_t version;
	uint64_t file_size;
	bool present[LAYER_COUNT];   /* the layer was in the file */
	uint32_t encoding[LAYER_COUNT];     /* enum snapshot_encoding */
	uint64_t stored_bytes[LAYER_COUNT]; /* in how many bytes */
	bool crc_ok[LAYER_COUNT];
	uint32_t crc_stored[LAYER_COUNT], crc_computed[LAYER_COUNT];
	int bad_crcs;                /* layers whose CRC did not match */
	/* A cell outside its layer's range (world_layer_range): the first one. */
	bool out_of_range[LAYER_COUNT];
	size_t bad_cell[LAYER_COUNT];
	float bad_value[LAYER_COUNT];
	int bad_ranges;              /* layers with such a cell */
};

/* snapshot_read flags. */
enum {
	/* Load layers whose CRC does not match (and say so in the report)
	 * instead of failing: `gully info` shows what is there. */
	SNAPSHOT_KEEP_BAD_CRC = 1u,
	/* The same for layers with a value outside the range the core accepts
	 * (NaN, a negative pool, ...), which a load otherwise refuses. */
	SNAPSHOT_KEEP_BAD_VALUES = 2u,
};

/* "layer 'pool' cell 37 (x 5, y 2) is nan, outside 0 to 1000" for a report's
 * layer l, into buf. */
void snapshot_describe_bad_value(char *buf, size_t len, const struct snapshot_report *rep,
				 int width, int l);

/* The same on an open stream, for tests and fuzzing (fmemopen works): the
 * stream must be seekable; `label` names it in messages; rep may be NULL. */
int snapshot_read(FILE *fp, const char *label, unsigned flags, struct world **out,
		  struct snapshot_info *info, struct snapshot_report *rep,
		  char *err, size_t errlen);
/* snapshot_write writes whatever the world holds, in or out of range. */
int snapshot_write(FILE *fp, const char *label, const struct world *w,
		   const struct snapshot_info *info, char *err, size_t errlen);
/* The same in a given format version: 1 (every layer raw, which gully
 * builds before version 2 read; tests patch its bytes) or 2. */
int snapshot_write_version(FILE *fp, const char *label, const struct world *w,
			   const struct snapshot_info *info, uint32_t version,
			   char *err, size_t errlen);

#endif
