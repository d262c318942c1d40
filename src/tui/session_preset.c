/* Presets in the explorer: load one (a new world from its parameters, its
 * process) or save the current parameters under a name. No curses here.
 *
 * The unsaved mark: a session is saved when a file holds all of it. A
 * snapshot holds the world and the parameters, so saving or loading one
 * clears the mark. A preset holds only the parameters, so it clears the
 * mark only while the world is still the one they generate ("pristine":
 * just loaded from the preset or made with g, nothing run since). Changing
 * a parameter, switching the process or running the simulation sets it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/error.h"
#include "core/terrain/terrain.h"
#include "io/preset.h"
#include "tui/app.h"

void session_preset_label(struct app *a, const char *arg)
{
	const char *base = strrchr(arg, '/');
	base = base ? base + 1 : arg;
	size_t n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".yaml") == 0)
		n -= 5;
	snprintf(a->preset, sizeof a->preset, "%.*s", (int)n, base);
}

int session_load_preset(struct app *a, const char *name, char *err, size_t errlen)
{
	struct params p;
	struct preset_meta meta;
	int e = preset_load(name, &p, &meta, err, errlen);
	if (e)
		return e;
	const struct process_ops *proc = a->proc;
	if (meta.process[0] && !(proc = process_find(meta.process))) {
		snprintf(err, errlen, "%.64s: process '%s' is not built into this gully", name,
			 meta.process);
		return GULLY_ENOTFOUND;
	}
	struct world *w = NULL;
	if ((e = world_from_params(&w, &p))) {
		snprintf(err, errlen, "%.64s: cannot make a %dx%d world: %s", name, p.world.width,
			 p.world.height, gully_strerror(e));
		return e;
	}
	void *state = NULL;
	if ((e = proc->create(&state, w, &p))) {
		snprintf(err, errlen, "%.64s: %s: %s", name, proc->name, gully_strerror(e));
		world_destroy(w);
		return e;
	}
	/* Nothing above touched the session: a bad preset changes nothing. */
	trace_stop(a);
	if (a->proc && a->state)
		a->proc->destroy(a->state);
	world_destroy(a->world);
	a->world = w;
	a->state = state;
	a->proc = proc;
	counts_reset(a, false);
	a->params = p;
	a->dirty = false;
	a->pristine = true;
	a->file[0] = '\0';
	session_preset_label(a, name);
	a->slice_budget = 0;
	a->rate = 0;
	a->pool_row = 0;
	a->pool_acc = 0;
	a->shown_valid = false;
	session_param_list(a);
	tracer_reset(a);
	return GULLY_OK;
}

bool session_preset_exists(const char *name, char *path, size_t len)
{
	return preset_name_ok(name) && preset_resolve(name, path, len) == GULLY_OK;
}

bool session_preset_is_users(const char *name, const char *found)
{
	char dir[PATH_MAX], mine[PATH_MAX + PRESET_NAME_MAX + 8], first[PATH_MAX];
	if (!found) {
		if (!session_preset_exists(name, first, sizeof first))
			return false;
		found = first;
	}
	if (preset_user_dir(dir, sizeof dir) != GULLY_OK)
		return false;
	snprintf(mine, sizeof mine, "%s/%s.yaml", dir, name);
	char a[PATH_MAX], b[PATH_MAX];
	return realpath(found, a) && realpath(mine, b) && strcmp(a, b) == 0;
}

bool session_preset_users_has(const char *name)
{
	char dir[PATH_MAX], mine[PATH_MAX + PRESET_NAME_MAX + 8];
	if (preset_user_dir(dir, sizeof dir) != GULLY_OK)
		return false;
	snprintf(mine, sizeof mine, "%s/%s.yaml", dir, name);
	return access(mine, F_OK) == 0;
}

int session_save_preset(struct app *a, const char *name, char *path, size_t pathlen,
			char *err, size_t errlen)
{
	struct preset_meta meta;
	memset(&meta, 0, sizeof meta);
	snprintf(meta.description, sizeof meta.description, "saved in the explorer (%s, seed %d)",
		 a->proc->title, a->params.world.seed);
	snprintf(meta.process, sizeof meta.process, "%s", a->proc->name);
	int e = preset_save_named(name, &a->params, &meta, path, pathlen, err, errlen);
	if (e)
		return e;
	snprintf(a->preset, sizeof a->preset, "%s", name);
	if (a->pristine)
		a->dirty = false;
	return GULLY_OK;
}
