#include "io/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int atomic_open(struct atomic_file *af, const char *path)
{
	memset(af, 0, sizeof *af);
	size_t n = strlen(path);
	af->path = malloc(n + 1);
	af->tmp_path = malloc(n + 16);
	if (!af->path || !af->tmp_path) {
		free(af->path);
		free(af->tmp_path);
		errno = ENOMEM;
		return -1;
	}
	memcpy(af->path, path, n + 1);
	snprintf(af->tmp_path, n + 16, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(af->tmp_path);
	if (fd < 0) {
		int e = errno;
		free(af->path);
		free(af->tmp_path);
		errno = e;
		return -1;
	}
	/* mkstemp makes 0600; a saved file should get the usual umask mode. */
	mode_t mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	af->fp = fdopen(fd, "wb");
	if (!af->fp) {
		int e = errno;
		close(fd);
		unlink(af->tmp_path);
		free(af->path);
		free(af->tmp_path);
		errno = e;
		return -1;
	}
	return 0;
}

static void atomic_free(struct atomic_file *af)
{
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

int file_read_all(const char *path, size_t max_size, char **data, size_t *len)
{
	*data = NULL;
	*len = 0;
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return -1;
	struct stat st;
	if (fstat(fileno(fp), &st) != 0) {
		int e = errno;
		fclose(fp);
		errno = e;
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		fclose(fp);
		errno = EISDIR;
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
				int e = errno ? errno : EIO;
				free(buf);
				fclose(fp);
				errno = e;
				return -1;
			}
			break;
		}
	}
	fclose(fp);
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
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
