/* gully run -o: every output named, each by its extension (a snapshot, or a
 * layer as a picture or raw map), checked before the run so a typo costs
 * nothing, then written after it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/run_output.h"
#include "core/base/error.h"
#include "io/image.h"
#include "io/snapshot.h"

static bool is_snapshot_name(const char *path)
{
	const char *dot = strrchr(path, '.');
	return dot && !strchr(dot, '/') && strcasecmp(dot, ".gsnap") == 0;
}

/* The directory a new file at path goes into must exist and take files. */
static int check_directory(const char *cmd, const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	struct stat st;
	if (stat(dir, &st) != 0)
		return cli_usage_error(cmd, "-o %s: no directory %s", path, dir);
	if (!S_ISDIR(st.st_mode))
		return cli_usage_error(cmd, "-o %s: %s is not a directory", path, dir);
	if (access(dir, W_OK | X_OK) != 0)
		return cli_usage_error(cmd, "-o %s: cannot write in %s: %s", path, dir,
				       strerror(errno));
	return 0;
}

int run_outputs_check(const char *cmd, const struct sim_options *o, bool overlays)
{
	bool picture = false;
	for (int i = 0; i < o->noutputs; i++) {
		const char *path = o->outputs[i];
		int fmt = image_format_from_path(path);
		if (fmt == IMAGE_NONE && !is_snapshot_name(path))
			return cli_usage_error(cmd, "-o %s: unknown extension (.gsnap, or a layer as "
					       ".%s)", path, "png, .ppm, .pgm, .r16 or .f32");
		picture |= fmt == IMAGE_PNG || fmt == IMAGE_PPM;
		for (int j = 0; j < i; j++)
			if (strcmp(o->outputs[j], path) == 0)
				return cli_usage_error(cmd, "-o %s given twice", path);
		int st = check_directory(cmd, path);
		if (st)
			return st;
	}
	if (overlays && !picture)
		return cli_usage_error(cmd, "--overlay is for a picture: -o FILE.png or FILE.ppm");
	return 0;
}

/* The preset text's first line, a YAML comment `gully info` shows. */
static int mark_interrupted(char **yaml, const struct run_result *r)
{
	size_t len = strlen(*yaml) + sizeof RUN_INTERRUPTED_MARK + 64;
	char *marked = malloc(len);
	if (!marked)
		return -1;
	snprintf(marked, len, "%s %llu of %llu\n%s", RUN_INTERRUPTED_MARK,
		 (unsigned long long)r->interrupted_done,
		 (unsigned long long)r->interrupted_budget, *yaml);
	free(*yaml);
	*yaml = marked;
	return 0;
}

static int write_snapshot(const char *path, const struct run_result *r)
{
	char err[512];
	struct snapshot_info out;
	memset(&out, 0, sizeof out);
	snprintf(out.process, sizeof out.process, "%s", r->proc->name);
	out.params = *r->params;
	/* The effective preset, so `gully info` and a reader see what made it. */
	if (preset_to_yaml(r->params, &out.preset_yaml) ||
	    (r->interrupted_budget && mark_interrupted(&out.preset_yaml, r))) {
		free(out.preset_yaml);
		cli_error("%s: cannot write the preset text", path);
		return 1;
	}
	if (r->proc->save_state) {
		int e = r->proc->save_state(r->state, &out.state, &out.state_len);
		if (e) {
			cli_error("%s: cannot save the %s state: %s", path, r->proc->name,
				  gully_strerror(e));
			free(out.preset_yaml);
			return 1;
		}
	}
	int e = snapshot_save(path, r->world, &out, err, sizeof err);
	free(out.state);
	free(out.preset_yaml);
	if (e) {
		cli_error("%s", err);
		return 1;
	}
	return 0;
}

int run_outputs_write(const struct sim_options *o, const struct run_result *r)
{
	int status = 0;
	char err[512];
	for (int i = 0; i < o->noutputs; i++) {
		const char *path = o->outputs[i];
		if (image_format_from_path(path) == IMAGE_NONE) {
			status |= write_snapshot(path, r);
		} else if (image_export_view(path, r->world, LAYER_HEIGHT, r->params, r->overlays, err,
					     sizeof err)) {
			cli_error("%s", err);
			status = 1;
		}
	}
	return status;
}
