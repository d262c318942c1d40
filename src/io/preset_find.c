/* Finding presets by name: the search path, listings and completion. */
/* realpath(3) is XSI. */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include "io/preset.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/error.h"
#include "io/preset_scan.h"

#ifndef GULLY_PKGDATADIR
#define GULLY_PKGDATADIR "/usr/local/share/gully"
#endif

/* What a build tree puts beside its gully (presets/local.mk): a link to the
 * source's presets. */
#define BUILD_LINK "gully-presets"

#define SUFFIX ".yaml"

bool preset_is_file(const char *arg)
{
	size_t n = strlen(arg);
	return strchr(arg, '/') || (n >= 5 && strcmp(arg + n - 5, SUFFIX) == 0) ||
	       (n >= 4 && strcmp(arg + n - 4, ".yml") == 0);
}

bool preset_name_ok(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n >= PRESET_NAME_MAX || name[0] == '.')
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

int preset_user_dir(char *dir, size_t len)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	int n;
	/* The XDG spec says a relative XDG_DATA_HOME is invalid and ignored. */
	if (xdg && xdg[0] == '/') {
		n = snprintf(dir, len, "%s/gully/presets", xdg);
	} else {
		const char *home = getenv("HOME");
		if (!home || !home[0])
			return GULLY_ENOTFOUND;
		n = snprintf(dir, len, "%s/.local/share/gully/presets", home);
	}
	return n < 0 || (size_t)n >= len ? GULLY_EINVAL : GULLY_OK;
}

static char shipped_override[PATH_MAX];

void preset_set_shipped_dir(const char *dir)
{
	snprintf(shipped_override, sizeof shipped_override, "%s", dir ? dir : "");
}

/* The shipped presets' directory, searched last. A gully run from its build
 * tree finds the link its build made beside it and reads the presets of the
 * source it was built from, whether some gully is installed or not (an
 * installed one, perhaps older, must not stand in for them in make check);
 * any other reads the installed ones. The binary holds no path into the
 * tree it was built in. /proc/self/exe is Linux's; elsewhere only the
 * installed presets are found. */
static const char *shipped_dir(void)
{
	static char dir[PATH_MAX];
	if (shipped_override[0])
		return shipped_override;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash && (size_t)(slash + 1 - exe) + sizeof BUILD_LINK <= sizeof exe) {
			memcpy(slash + 1, BUILD_LINK, sizeof BUILD_LINK);
			if (realpath(exe, dir))
				return dir;
		}
	}
	return GULLY_PKGDATADIR "/presets";
}

int preset_search_path(int (*fn)(const char *dir, void *ctx), void *ctx)
{
	const char *env = getenv("GULLY_PRESET_PATH");
	if (env) {
		const char *s = env;
		while (*s) {
			size_t n = strcspn(s, ":");
			if (n > 0 && n < 4096) {
				char dir[4096];
				memcpy(dir, s, n);
				dir[n] = '\0';
				int r = fn(dir, ctx);
				if (r)
					return r;
			}
			s += n;
			if (*s == ':')
				s++;
		}
	}
	char user[4096];
	if (preset_user_dir(user, sizeof user) == GULLY_OK) {
		int r = fn(user, ctx);
		if (r)
			return r;
	}
	/* The shipped presets always come last, $GULLY_PRESET_PATH or not (it
	 * adds directories, README says, it does not hide these). */
	return fn(shipped_dir(), ctx);
}

bool preset_found_shipped(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct stat d, shipped;
	if (!slash || stat(shipped_dir(), &shipped) != 0)
		return false;
	char dir[4096];
	size_t n = (size_t)(slash - path);
	if (n >= sizeof dir)
		return false;
	memcpy(dir, path, n);
	dir[n] = '\0';
	return stat(dir, &d) == 0 && d.st_dev == shipped.st_dev && d.st_ino == shipped.st_ino;
}

bool preset_user_dir_is_shipped(void)
{
	char user[4096];
	struct stat u, shipped;
	if (preset_user_dir(user, sizeof user) != GULLY_OK || stat(user, &u) != 0)
		return false;
	return stat(shipped_dir(), &shipped) == 0 && u.st_dev == shipped.st_dev &&
	       u.st_ino == shipped.st_ino;
}

struct resolve_ctx {
	const char *name;
	char *path;
	size_t len;
};

static int resolve_in(const char *dir, void *vctx)
{
	struct resolve_ctx *c = vctx;
	char path[4096];
	int n = snprintf(path, sizeof path, "%s/%s" SUFFIX, dir, c->name);
	if (n < 0 || (size_t)n >= sizeof path)
		return 0;
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	if ((size_t)n >= c->len)
		return -1;
	memcpy(c->path, path, (size_t)n + 1);
	return 1;
}

int preset_resolve(const char *arg, char *path, size_t len)
{
	if (preset_is_file(arg)) {
		if (strlen(arg) >= len)
			return GULLY_EINVAL;
		strcpy(path, arg);
		return GULLY_OK;
	}
	if (!preset_name_ok(arg))
		return GULLY_ENOTFOUND;
	struct resolve_ctx c = {arg, path, len};
	int r = preset_search_path(resolve_in, &c);
	return r > 0 ? GULLY_OK : r < 0 ? GULLY_EINVAL : GULLY_ENOTFOUND;
}

/* Why a name preset_name_ok refuses finds nothing: a file of that name on
 * the path is named, with what to do (the name is never looked up, so
 * "not found" alone would leave the user staring at "my valley.yaml"). */
static void refused_name(const char *name, char *err, size_t errlen)
{
	char path[4096], q[80];
	struct resolve_ctx c = {name, path, sizeof path};
	preset_quote(q, sizeof q, name, 64);
	if (name[0] && preset_search_path(resolve_in, &c) > 0)
		snprintf(err, errlen, "'%s' is not a preset name (" PRESET_NAME_CHARS "): rename %s "
			 "to one, or give its path", q, path);
	else
		snprintf(err, errlen, "no preset named '%s' (a name is " PRESET_NAME_CHARS "; see "
			 "`gully presets`)", q);
}

int preset_load(const char *arg, struct params *out, struct preset_meta *meta,
		char *err, size_t errlen)
{
	char path[4096];
	int rc = preset_resolve(arg, path, sizeof path);
	if (rc == GULLY_ENOTFOUND && !preset_is_file(arg) && !preset_name_ok(arg)) {
		refused_name(arg, err, errlen);
		return rc;
	}
	if (rc == GULLY_ENOTFOUND) {
		char q[80];
		snprintf(q, sizeof q, "%.64s", arg);
		snprintf(err, errlen, "no preset named '%s' (see `gully presets`)", q);
		return rc;
	}
	if (rc) {
		snprintf(err, errlen, "%.64s: path too long", arg);
		return rc;
	}
	return preset_load_file(path, out, meta, err, errlen);
}

static int mkdir_p(char *path)
{
	for (char *s = path + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		int r = mkdir(path, 0777);
		*s = '/';
		if (r != 0 && errno != EEXIST)
			return -1;
	}
	return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

int preset_save_named(const char *name, const struct params *p,
		      const struct preset_meta *meta, char *path, size_t pathlen,
		      char *err, size_t errlen)
{
	if (!preset_name_ok(name)) {
		snprintf(err, errlen, "'%.64s' is not a preset name (" PRESET_NAME_CHARS ")", name);
		return GULLY_EINVAL;
	}
	char dir[4096], file[4200];
	if (preset_user_dir(dir, sizeof dir)) {
		snprintf(err, errlen, "no home directory for user presets (set XDG_DATA_HOME)");
		return GULLY_ENOTFOUND;
	}
	if (mkdir_p(dir) != 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return GULLY_EIO;
	}
	snprintf(file, sizeof file, "%s/%s" SUFFIX, dir, name);
	int rc = preset_save(file, p, meta, err, errlen);
	if (!rc && path)
		snprintf(path, pathlen, "%s", file);
	return rc;
}

/* ---- listing ---- */

struct list_ctx {
	struct preset_entry *list;
	int count, cap;
	int err;
};

static int list_in(const char *dir, void *vctx)
{
	struct list_ctx *c = vctx;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n <= 5 || strcmp(e->d_name + n - 5, SUFFIX) != 0)
			continue;
		char name[PRESET_NAME_MAX];
		if (n - 5 >= sizeof name)
			continue;
		memcpy(name, e->d_name, n - 5);
		name[n - 5] = '\0';
		/* A hidden file is no preset; another name -p cannot take is
		 * listed, refused, so that it does not vanish without a word. */
		if (name[0] == '.')
			continue;
		const bool refused = !preset_name_ok(name);
		bool seen = false;
		for (int i = 0; i < c->count && !seen; i++)
			seen = strcmp(c->list[i].name, name) == 0;
		if (seen)
			continue;
		if (c->count == c->cap) {
			int cap = c->cap ? c->cap * 2 : 16;
			struct preset_entry *nl = realloc(c->list, (size_t)cap * sizeof *nl);
			if (!nl) {
				c->err = GULLY_ENOMEM;
				break;
			}
			c->list = nl;
			c->cap = cap;
		}
		struct preset_entry *pe = &c->list[c->count];
		memset(pe, 0, sizeof *pe);
		memcpy(pe->name, name, n - 4);
		size_t plen = strlen(dir) + n + 2;
		pe->path = malloc(plen);
		if (!pe->path) {
			c->err = GULLY_ENOMEM;
			break;
		}
		snprintf(pe->path, plen, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(pe->path, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(pe->path);
			continue;
		}
		pe->refused = refused;
		pe->readable = preset_peek(pe->path, &pe->meta) == GULLY_OK;
		c->count++;
	}
	closedir(d);
	return c->err ? -1 : 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct preset_entry *)a)->name, ((const struct preset_entry *)b)->name);
}

int preset_list(struct preset_entry **list, int *count)
{
	struct list_ctx c = {0};
	preset_search_path(list_in, &c);
	if (c.err) {
		preset_list_free(c.list, c.count);
		*list = NULL;
		*count = 0;
		return c.err;
	}
	if (c.count > 1)
		qsort(c.list, (size_t)c.count, sizeof *c.list, by_name);
	*list = c.list;
	*count = c.count;
	return GULLY_OK;
}

void preset_list_free(struct preset_entry *list, int count)
{
	for (int i = 0; i < count; i++)
		free(list[i].path);
	free(list);
}

void preset_names_free(char **names)
{
	if (!names)
		return;
	for (char **n = names; *n; n++)
		free(*n);
	free(names);
}

int preset_complete(const char *prefix, char ***names, int *count)
{
	*names = NULL;
	*count = 0;
	struct preset_entry *list;
	int n;
	int rc = preset_list(&list, &n);
	if (rc)
		return rc;
	char **out = calloc((size_t)n + 1, sizeof *out);
	if (!out) {
		preset_list_free(list, n);
		return GULLY_ENOMEM;
	}
	int k = 0;
	size_t plen = strlen(prefix);
	for (int i = 0; i < n; i++) {
		if (list[i].refused || strncmp(list[i].name, prefix, plen) != 0)
			continue;
		out[k] = strdup(list[i].name);
		if (!out[k]) {
			preset_names_free(out);
			preset_list_free(list, n);
			return GULLY_ENOMEM;
		}
		k++;
	}
	preset_list_free(list, n);
	*names = out;
	*count = k;
	return GULLY_OK;
}
