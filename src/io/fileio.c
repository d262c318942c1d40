#include "io/fileio.h"

#include <stdint.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/numparse.h"

/* The save in progress, for atomic_signal_cleanup: a fixed buffer and a
 * flag, all a signal handler may touch. */
static char live_tmp[4096];
static volatile sig_atomic_t live_tmp_set;

void atomic_signal_cleanup(void)
{
	if (live_tmp_set)
		unlink(live_tmp);
}

static void live_tmp_begin(const char *tmp)
{
	size_t n = strlen(tmp);
	if (live_tmp_set || n >= sizeof live_tmp)
		return;
	memcpy(live_tmp, tmp, n + 1);
	live_tmp_set = 1;
}

static void live_tmp_end(const char *tmp)
{
	if (live_tmp_set && strcmp(live_tmp, tmp) == 0)
		live_tmp_set = 0;
}

const char *file_strerror(int err)
{
	if (err == ENOTSUP)
		return "not a regular file (gully reads and replaces only regular files)";
	if (err == EPIPE)
		return "not a regular file but a FIFO with no writer (nothing to read)";
	return strerror(err);
}

/* Follows symlinks (fileio.h): the one rule a save and a check before a run share. */
char *file_save_target(const char *path)
{
	char *cur = strdup(path);
	for (int hops = 0; cur && hops < 40; hops++) {
		struct stat st;
		if (lstat(cur, &st) != 0) {
			if (errno == ENOENT)
				return cur;
			free(cur);
			return NULL;
		}
		if (S_ISREG(st.st_mode))
			return cur;
		if (!S_ISLNK(st.st_mode)) {
			errno = S_ISDIR(st.st_mode) ? EISDIR : ENOTSUP;
			free(cur);
			return NULL;
		}
		char link[4096];
		ssize_t n = readlink(cur, link, sizeof link - 1);
		if (n < 0 || (size_t)n >= sizeof link - 1) {
			int e = n < 0 ? errno : ENAMETOOLONG;
			free(cur);
			errno = e;
			return NULL;
		}
		link[n] = '\0';
		/* A relative target is relative to the link's directory. */
		const char *slash = strrchr(cur, '/');
		size_t dirlen = link[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
		char *next = malloc(dirlen + (size_t)n + 1);
		if (next) {
			memcpy(next, cur, dirlen);
			memcpy(next + dirlen, link, (size_t)n + 1);
		}
		free(cur);
		cur = next;
		if (!cur)
			errno = ENOMEM;
	}
	if (cur) {
		free(cur);
		errno = ELOOP;
	}
	return NULL;
}

/* Removes TARGET.tmp.PID.* files whose PID is no live process: saves that
 * a kill -9 or a power cut ended. A PID that is alive (or not ours to
 * signal) keeps its file. */
static void remove_stale_temps(const char *target)
{
	const char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target;
	char dir[4096];
	if (!slash) {
		strcpy(dir, ".");
	} else {
		size_t dirlen = slash == target ? 1 : (size_t)(slash - target);
		if (dirlen >= sizeof dir)
			return;
		memcpy(dir, target, dirlen);
		dir[dirlen] = '\0';
	}
	DIR *d = opendir(dir);
	if (!d)
		return;
	size_t blen = strlen(base);
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *n = e->d_name;
		if (strncmp(n, base, blen) != 0 || strncmp(n + blen, ".tmp.", 5) != 0)
			continue;
		/* NAME.tmp.PID.XXXXXX: the PID's digits, then six random characters. */
		const char *digits = n + blen + 5, *end = digits + strspn(digits, "0123456789");
		char pidtext[24];
		uint64_t pid;
		if (end == digits || (size_t)(end - digits) >= sizeof pidtext || *end != '.' ||
		    strlen(end + 1) != 6)
			continue;
		memcpy(pidtext, digits, (size_t)(end - digits));
		pidtext[end - digits] = '\0';
		if (num_parse_u64(pidtext, INT32_MAX, &pid) || pid == 0 || pid == (uint64_t)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char full[8192];
		if ((size_t)snprintf(full, sizeof full, "%s/%s", dir, n) < sizeof full)
			unlink(full);
	}
	closedir(d);
}

int atomic_open(struct atomic_file *af, const char *path)
{
	memset(af, 0, sizeof *af);
	char *target = file_save_target(path);
	if (!target)
		return -1;
	size_t n = strlen(target);
	af->path = target;
	af->tmp_path = malloc(n + 40);
	if (!af->tmp_path) {
		free(af->path);
		errno = ENOMEM;
		return -1;
	}
	remove_stale_temps(target);
	snprintf(af->tmp_path, n + 40, "%s.tmp.%ld.XXXXXX", target, (long)getpid());
	/* No signal between the file's creation and its registration, or a
	 * handler could end the process and leave it behind. */
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	int fd = mkstemp(af->tmp_path);
	int e = errno;
	if (fd >= 0)
		live_tmp_begin(af->tmp_path);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		free(af->path);
		free(af->tmp_path);
		errno = e;
		return -1;
	}
	/* mkstemp makes 0600. A file being replaced keeps its permissions, as
	 * an edit in place would (a 0640 result stays private, a 0664 one in a
	 * shared sweep directory stays writable by the group); a new file gets
	 * the usual umask mode. */
	struct stat old_st;
	if (stat(target, &old_st) == 0 && S_ISREG(old_st.st_mode)) {
		(void)fchmod(fd, old_st.st_mode & 0777);
	} else {
		mode_t mask = umask(0);
		umask(mask);
		(void)fchmod(fd, 0666 & ~mask);
	}
	af->fp = fdopen(fd, "wb");
	if (!af->fp) {
		e = errno;
		close(fd);
		unlink(af->tmp_path);
		live_tmp_end(af->tmp_path);
		free(af->path);
		free(af->tmp_path);
		errno = e;
		return -1;
	}
	return 0;
}

static void atomic_free(struct atomic_file *af)
{
	if (af->tmp_path)
		live_tmp_end(af->tmp_path);
	free(af->path);
	free(af->tmp_path);
	memset(af, 0, sizeof *af);
}

void atomic_abort(struct atomic_file *af)
{
	if (af->fp)
		fclose(af->fp);
	if (af->tmp_path)
		unlink(af->tmp_path);
	atomic_free(af);
}

int atomic_commit(struct atomic_file *af)
{
	int err = 0;
	if (fflush(af->fp) != 0 || ferror(af->fp))
		err = errno ? errno : EIO;
	if (!err && fsync(fileno(af->fp)) != 0)
		err = errno;
	if (fclose(af->fp) != 0 && !err)
		err = errno;
	af->fp = NULL;
	if (!err && rename(af->tmp_path, af->path) != 0)
		err = errno;
	if (err) {
		unlink(af->tmp_path);
		atomic_free(af);
		errno = err;
		return -1;
	}
	atomic_free(af);
	return 0;
}

/* Opens for reading without waiting for a FIFO's writer (O_NONBLOCK, left
 * set), refusing a directory, a block device and, with regular_only,
 * anything but a regular file. The descriptor, or -1 with errno. */
static int open_for_reading(const char *path, bool regular_only)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	int e = 0;
	if (fstat(fd, &st) != 0)
		e = errno;
	else if (S_ISDIR(st.st_mode))
		e = EISDIR;
	else if (S_ISBLK(st.st_mode) || (regular_only && !S_ISREG(st.st_mode)))
		e = ENOTSUP;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int file_read_all(const char *path, size_t max_size, char **data, size_t *len)
{
	*data = NULL;
	*len = 0;
	/* Reads block again once open, and a FIFO with no writer reads as
	 * empty at once. */
	int fd = open_for_reading(path, false), e;
	if (fd < 0)
		return -1;
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	FILE *fp = fdopen(fd, "rb");
	if (!fp) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	/* Read in chunks rather than trusting st_size: pipes and /proc lie. */
	size_t cap = 0, n = 0;
	char *buf = NULL;
	for (;;) {
		if (n + 1 >= cap) {
			size_t want = cap ? cap * 2 : 65536;
			if (want > max_size + 2)
				want = max_size + 2;
			if (want <= n + 1) {
				free(buf);
				fclose(fp);
				errno = EFBIG;
				return -1;
			}
			char *nb = realloc(buf, want);
			if (!nb) {
				free(buf);
				fclose(fp);
				errno = ENOMEM;
				return -1;
			}
			buf = nb;
			cap = want;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, fp);
		n += got;
		if (n > max_size) {
			free(buf);
			fclose(fp);
			errno = EFBIG;
			return -1;
		}
		if (got == 0) {
			if (ferror(fp)) {
				e = errno ? errno : EIO;
				free(buf);
				fclose(fp);
				errno = e;
				return -1;
			}
			break;
		}
	}
	/* A FIFO nobody writes to reads as empty at once: said as that, for
	 * every loader alike, rather than as an empty or a too small file. */
	struct stat st;
	if (n == 0 && fstat(fileno(fp), &st) == 0 && S_ISFIFO(st.st_mode)) {
		free(buf);
		fclose(fp);
		errno = EPIPE;
		return -1;
	}
	fclose(fp);
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

FILE *file_open_regular(const char *path)
{
	int fd = open_for_reading(path, true), e;
	if (fd < 0)
		return NULL;
	FILE *fp = fdopen(fd, "rb");
	if (!fp) {
		e = errno;
		close(fd);
		errno = e;
	}
	return fp;
}

int io_fail(char *err, size_t errlen, int code, const char *label, const char *fmt, ...)
{
	if (err && errlen) {
		int n = snprintf(err, errlen, "%s: ", label);
		if (n >= 0 && (size_t)n < errlen) {
			va_list ap;
			va_start(ap, fmt);
			vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	return code;
}
