/* gully run -o: every output named, each by its extension (a snapshot, or a
 * layer as a picture or raw map), checked before the run so a typo costs
 * nothing, then written after it. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/run_output.h"
#include "cli/picture.h"
#include "core/base/error.h"
#include "io/fileio.h"
#include "io/image.h"
#include "io/snapshot.h"

/* A file made and removed in dir: access() answers yes for root where no
 * file can be made (/proc), and the save comes only after the run, whose
 * work would then be lost. */
static int check_create(const char *cmd, const char *path, const char *dir)
{
	char probe[4200];
	if (snprintf(probe, sizeof probe, "%s/.gully-check-XXXXXX", dir) >= (int)sizeof probe)
		return cli_usage_error(cmd, "-o %s: the path is too long", path);
	int fd = mkstemp(probe);
	if (fd < 0)
		return cli_usage_error(cmd, "-o %s: cannot make a file in %s: %s", path, dir,
				       strerror(errno));
	close(fd);
	unlink(probe);
	return 0;
}

/* The directory a new file at target goes into must exist and take files. */
static int check_directory(const char *cmd, const char *path, const char *target)
{
	const char *slash = strrchr(target, '/');
	char dir[4096];
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s", slash == target ? 1 : (int)(slash - target),
			 target);
	struct stat st;
	if (stat(dir, &st) != 0)
		return cli_usage_error(cmd, "-o %s: no directory %s", path, dir);
	if (!S_ISDIR(st.st_mode))
		return cli_usage_error(cmd, "-o %s: %s is not a directory", path, dir);
	if (access(dir, W_OK | X_OK) != 0)
		return cli_usage_error(cmd, "-o %s: cannot write in %s: %s", path, dir,
				       strerror(errno));
	return check_create(cmd, path, dir);
}

int run_output_check_path(const char *cmd, const char *path)
{
	/* The file the save will replace, through symlinks as atomic_open
	 * follows them: a FIFO, a directory or a link loop is refused now, not
	 * after the run, and a dangling link's target directory must exist. */
	char *target = file_save_target(path);
	if (!target)
		return cli_usage_error(cmd, "-o %s: cannot create: %s", path,
				       file_strerror(errno));
	int status = check_directory(cmd, path, target);
	free(target);
	return status;
}

/* The file a save to path replaces, as one string for all the ways of
 * naming it (b.png, ./b.png, a symlink to it): its directory's real path
 * and its own name. NULL when that cannot be told (the path is then checked
 * by run_output_check_path, which says why). */
static char *output_identity(const char *path)
{
	char *target = file_save_target(path);
	if (!target)
		return NULL;
	char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target;
	if (slash == target)
		slash++; /* "/x": the root's */
	char dir[PATH_MAX], *id = NULL;
	if (slash)
		*slash = '\0';
	if (realpath(slash ? target : ".", dir)) {
		size_t len = strlen(dir) + strlen(base) + 2;
		id = malloc(len);
		if (id)
			snprintf(id, len, "%s/%s", dir, base);
	}
	free(target);
	return id;
}

/* 0, or EXIT_USAGE when path names the same file as an earlier output. */
static int check_not_twice(const char *cmd, const char **paths, int i)
{
	char *id = output_identity(paths[i]);
	int status = 0;
	for (int j = 0; id && !status && j < i; j++) {
		char *other = output_identity(paths[j]);
		if (other && strcmp(id, other) == 0)
			status = strcmp(paths[j], paths[i]) == 0
					 ? cli_usage_error(cmd, "-o %s given twice", paths[i])
					 : cli_usage_error(cmd, "-o %s given twice (as -o %s)", paths[i],
							   paths[j]);
		free(other);
	}
	free(id);
	return status;
}

int outputs_check(const char *cmd, const char **paths, int n, const struct output_rules *r)
{
	bool picture = false;
	for (int i = 0; i < n; i++) {
		const char *path = paths[i];
		int fmt = image_format_from_path(path);
		if (fmt == IMAGE_NONE && !(r->snapshots && snapshot_is_name(path)))
			return cli_usage_error(cmd, "-o %s: unknown extension (%s.%s)", path,
					       r->snapshots ? ".gsnap, or a layer as " : "",
					       "png, .ppm, .pgm, .r16 or .f32");
		picture |= (fmt == IMAGE_PNG && !r->grey16) || fmt == IMAGE_PPM;
		int st = run_output_check_path(cmd, path);
		if (st || (st = check_not_twice(cmd, paths, i)))
			return st;
	}
	/* A .pgm, .r16 or .f32 holds values, not colours: an overlay on one
	 * would be dropped without a word. */
	if (r->overlays && !picture)
		return cli_usage_error(cmd, "--overlay is for a picture: -o FILE.png or FILE.ppm%s",
				       r->grey16 ? " (a .png without --gray16)" : "");
	return 0;
}

int outputs_check_size(const char *cmd, const char **paths, int n, int width, int height)
{
	for (int i = 0; i < n; i++) {
		int fmt = image_format_from_path(paths[i]), nw, nh;
		/* .png and .pgm carry their size; a raw grid has only its name's. */
		if ((fmt != IMAGE_R16 && fmt != IMAGE_F32) || !image_size_in_name(paths[i], &nw, &nh) ||
		    (nw == width && nh == height))
			continue;
		return cli_usage_error(cmd, "-o %s: its name says %dx%d but the map is %dx%d, and "
				       "a raw map is read back at its name's size", paths[i], nw,
				       nh, width, height);
	}
	return 0;
}

int run_outputs_write(const struct sim_options *o, const struct simulation *sim,
		      unsigned overlays)
{
	int status = 0;
	char err[512];
	for (int i = 0; i < o->noutputs; i++) {
		const char *path = o->outputs[i];
		struct picture_opts po = {.overlays = overlays};
		struct image_span span = {0};
		progress_note(o->quiet, "writing", path);
		int e = image_format_from_path(path) == IMAGE_NONE
				? simulation_save(sim, path, err, sizeof err)
				: picture_export_named(path, sim->world, "height", &sim->params, &po,
						       &span, NULL, NULL, err, sizeof err);
		progress_note_clear(o->quiet);
		if (e) {
			cli_error("%s", err);
			status = 1;
		} else if (span.stretched) {
			/* Even with --quiet: it is the only record of the heights. */
			picture_span_note(path, "height", &span);
		}
	}
	return status;
}

bool run_rain_mark(const char *preset_yaml, char *buf, size_t len)
{
	const char *at = preset_yaml ? strstr(preset_yaml, RUN_RAIN_MARK) : NULL;
	if (!at || (at != preset_yaml && at[-1] != '\n'))
		return false;
	at += strlen(RUN_RAIN_MARK);
	snprintf(buf, len, "%.*s", (int)strcspn(at, "\n"), at);
	return buf[0] != '\0';
}
