/* Nothing lost (safe.c): quitting, saving and the autosave. */
#ifndef GULLY_SAFE_H
#define GULLY_SAFE_H

#include <stdbool.h>
#include <stddef.h>

struct app;

/* true when the session may end: nothing unsaved, or the user said y (or
 * s and the save worked). */
bool safe_quit_confirmed(struct app *a);
/* Asks for a file name (a fresh one by default) and saves; an existing
 * file other than the session's own is replaced only on a yes. */
bool safe_save_prompt(struct app *a);
/* Whether path names a picture or height data (.png, .ppm, .pgm, .r16,
 * .f32, .jpg...): S refuses those, since it writes only snapshots. */
bool safe_picture_name(const char *path);
/* gully-SEED-YYYYMMDD-HHMMSS.gsnap, numbered when that exists. */
void safe_default_name(const struct app *a, char *buf, size_t len);
/* Whether this directory has an autosave (its path in path). */
bool safe_autosave_exists(char *path, size_t len);
enum safe_autosave { SAFE_AUTOSAVE_CLEAN, SAFE_AUTOSAVE_SAVED, SAFE_AUTOSAVE_FAILED };
/* At a signal: saves unsaved work (only) to this directory's autosave, or,
 * when one from an earlier session still waits there, to the next free
 * autosave-DIR-HASH-N.gsnap (*numbered), never over it. saved gets the
 * path, err what failed. */
enum safe_autosave safe_autosave(struct app *a, char *saved, size_t saved_len, bool *numbered,
				 char *err, size_t err_len);
/* Says on the status line that an autosave waits. */
void safe_autosave_notice(struct app *a);
/* Opens this directory's autosave into the session (unsaved) and removes
 * the file; err says "no saved session ..." when there is none. */
int safe_open_autosave(struct app *a, char *err, size_t errlen);
/* The R key: the same, asking first when this session is unsaved. */
void safe_resume_key(struct app *a);
/* P with a snapshot's file: the lesson saved the evening before, opened
 * again for the next class without quitting (it said "no preset named
 * 'lesson.gsnap'"). safe_snapshot_file: the file starts as a snapshot
 * does; safe_open_key opens it (true), paused, asking first when this
 * session holds unsaved work, as R does. */
bool safe_snapshot_file(const char *path);
bool safe_open_key(struct app *a, const char *path);

#endif
