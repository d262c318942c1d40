/* Presets: YAML files of parameters, one mapping per section of the registry.
 *
 *   description: "Rivers cut a valley and deposit a fan"   # optional
 *   process: hydrology                                     # optional
 *   terrain:
 *     generator: valley
 *   particles:
 *     friction: 0.08
 *
 * A preset names only what it changes: loading starts from the built-in
 * defaults. Every error is one line "FILE:LINE: KEY: what is wrong", and a
 * failed load changes nothing. Numbers are read and written in the C locale
 * whatever the process locale says. */
#ifndef GULLY_PRESET_H
#define GULLY_PRESET_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/params.h"

/* A preset is a few kilobytes; anything far larger is not one. */
#define PRESET_MAX_BYTES (256 * 1024)
/* Longest value or key text accepted (a double needs at most ~25). */
#define PRESET_MAX_SCALAR 255
#define PRESET_DESC_MAX 512
#define PRESET_PROCESS_MAX 32
/* Longest preset name (file name without .yaml). */
#define PRESET_NAME_MAX 64
/* Suggested size for error buffers. */
#define PRESET_ERR_MAX 512

struct preset_meta {
	char description[PRESET_DESC_MAX]; /* "" when the file has none */
	char process[PRESET_PROCESS_MAX];   /* "" when the file names none */
};

/* Loads a preset: built-in defaults, then the file's values. On success *out
 * and *meta (may be NULL) are replaced; on failure neither is touched and err
 * holds one line naming the file, the line and the key. Returns a gully_err. */
int preset_load_file(const char *path, struct params *out, struct preset_meta *meta,
		     char *err, size_t errlen);
/* The same from memory; `name` stands for the file in messages. text need not
 * be NUL-terminated. */
int preset_load_text(const char *name, const char *text, size_t len, struct params *out,
		     struct preset_meta *meta, char *err, size_t errlen);

/* Every parameter as YAML with a comment header and each key's help and
 * range; meta may be NULL. *text is malloc'd (caller frees). */
int preset_format(const struct params *p, const struct preset_meta *meta, char **text);
/* preset_format without a description or process: what snapshots embed. */
int preset_to_yaml(const struct params *p, char **text);
/* Writes preset_format's text atomically (temporary file, fsync, rename). */
int preset_save(const char *path, const struct params *p, const struct preset_meta *meta,
		char *err, size_t errlen);

/* Reads only description and process, without judging the rest: for
 * listings, where a preset for a process not built in should still show. */
int preset_peek(const char *path, struct preset_meta *meta);

/* ---- finding presets by name (preset_find.c) ----
 * A name is looked up, first match wins, in every directory of
 * $GULLY_PRESET_PATH (colon-separated; for tests and the uninstalled build),
 * then $XDG_DATA_HOME/gully/presets (default ~/.local/share/gully/presets),
 * then the shipped presets, always (installed, or for a gully run from its
 * build tree, the source's, through the gully-presets link beside it). */

/* Calls fn for each directory of that search path, in order, until it
 * returns non-zero; returns that value, or 0. */
int preset_search_path(int (*fn)(const char *dir, void *ctx), void *ctx);
/* True when arg is a file rather than a name: it has a '/' or ends in .yaml. */
bool preset_is_file(const char *arg);
/* A name is letters, digits, '.', '_' and '-', not starting with '.'. */
bool preset_name_ok(const char *name);
/* The file for a name or a path. GULLY_ENOTFOUND when no directory has it. */
int preset_resolve(const char *arg, char *path, size_t len);
/* True when path (as preset_resolve found a name) is in the shipped
 * presets' directory, which every gully install has its own of; false for
 * one found on $GULLY_PRESET_PATH or in the user directory. */
bool preset_found_shipped(const char *path);
/* Makes dir the shipped presets' directory (NULL: back to finding it), for
 * the unit tests, which do not run beside the build's link. */
void preset_set_shipped_dir(const char *dir);
/* Loads a name or a file (preset_resolve, then preset_load_file). */
int preset_load(const char *arg, struct params *out, struct preset_meta *meta,
		char *err, size_t errlen);
/* Where user presets are saved: $XDG_DATA_HOME/gully/presets. */
int preset_user_dir(char *dir, size_t len);
/* True when the user directory is the shipped presets' own (gully installed
 * with --prefix=$HOME/.local puts them in ~/.local/share/gully/presets): a
 * save there can replace a shipped preset for good. */
bool preset_user_dir_is_shipped(void);
/* Saves under a name in the user directory, making it if needed; *path (may
 * be NULL) gets the file written. */
int preset_save_named(const char *name, const struct params *p,
		      const struct preset_meta *meta, char *path, size_t pathlen,
		      char *err, size_t errlen);

/* What a name is made of, for the messages that refuse one. */
#define PRESET_NAME_CHARS "letters, digits, '.', '_' and '-'"

struct preset_entry {
	char name[PRESET_NAME_MAX];
	char *path;
	struct preset_meta meta; /* from preset_peek; empty when unreadable */
	bool readable;
	bool refused; /* NAME.yaml whose NAME is not one (preset_name_ok): listed to say so */
};
/* Every preset visible by name, sorted, a name shadowed by an earlier
 * directory listed once; and the files there whose names -p cannot take
 * (a space in "my valley.yaml"), refused, so that the user learns why
 * rather than missing them. */
int preset_list(struct preset_entry **list, int *count);
void preset_list_free(struct preset_entry *list, int count);
/* Names starting with prefix, sorted, for a prompt's completion: a
 * NULL-terminated malloc'd array of malloc'd strings (free with
 * preset_names_free). */
int preset_complete(const char *prefix, char ***names, int *count);
void preset_names_free(char **names);

#endif
