/* File helpers shared by snapshots, presets and exports. */
#ifndef GULLY_FILEIO_H
#define GULLY_FILEIO_H

#include <stdio.h>
#include <stddef.h>

/* An atomic save: write into a temporary file beside `path`, then
 * atomic_commit() fsyncs and renames it over `path`, so a failed or
 * interrupted save never leaves a half-written file where the old one was. */
struct atomic_file {
	FILE *fp;
	char *path;
	char *tmp_path;
};

/* Returns 0, or -1 with errno set (file_strerror() words it). Only a
 * regular file is ever replaced: a symlink is followed and its target
 * replaced (the temporary file beside the target), and a device, FIFO,
 * socket or directory is refused (ENOTSUP, EISDIR). The temporary file is
 * NAME.tmp.PID.XXXXXX; one left by a process that is gone (killed during a
 * save) is removed by the next save to NAME. A file replaced keeps its
 * permission bits; a new one gets 0666 less the umask. */
int atomic_open(struct atomic_file *af, const char *path);
/* Flushes, fsyncs, closes and renames; -1 with errno set on failure, in which
 * case the temporary file is removed and `path` is untouched. */
int atomic_commit(struct atomic_file *af);
/* Gives up: closes and removes the temporary file. */
void atomic_abort(struct atomic_file *af);

/* Follows symlinks to the path a save must replace: the last link's target,
 * which may not exist yet. Returns a malloc'd path, or NULL with errno
 * (EISDIR for a directory, ENOTSUP for a FIFO, device or socket, ELOOP).
 * The front ends check an output with it before a long run. */
char *file_save_target(const char *path);

/* Async-signal-safe: removes the temporary file of a save in progress, if
 * any, so a signal handler that is about to end the process leaves none. */
void atomic_signal_cleanup(void);

/* Opens a regular file for reading without blocking on a FIFO or a device:
 * NULL with errno ENOTSUP (not a regular file) or EISDIR for those. */
FILE *file_open_regular(const char *path);
/* strerror(), with ENOTSUP and EPIPE from these functions said as what
 * they mean. */
const char *file_strerror(int err);

/* Reads a whole regular file (or a pipe with a writer) of at most max_size
 * bytes into a NUL-terminated buffer. Returns 0; -1 with errno set (EFBIG
 * when larger than max_size; ENOTSUP (a device) or EISDIR, found without
 * blocking; EPIPE for a FIFO that gave nothing, as one with no writer does
 * at once; file_strerror words them). */
int file_read_all(const char *path, size_t max_size, char **data, size_t *len);

/* Writes "LABEL: message" into err (when err is not NULL) and returns code:
 * the one-line errors every loader reports, naming the file. */
int io_fail(char *err, size_t errlen, int code, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));


#endif
