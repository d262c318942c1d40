/* The world's own parameters in the panel: terrain.*, hardness.* and the
 * world's seed and size make the terrain, so a change to one makes it
 * again at once (the seed kept, a checkpoint first: u takes it back), for
 * a terrain artist trying octaves or frequency, or a class comparing two
 * hardness maps on one terrain. world.threads changes only the speed. */
#include <string.h>

#include "core/terrain/hardness.h"
#include "tui/app.h"

/* The sections that describe the world, not a process or the view, in the
 * panel's order (session_param_list): a change to any of their parameters
 * but world.threads makes the terrain again. */
static const char *const world_sections[] = {"terrain", "hardness", "world"};

const char *world_param_section(int k)
{
	const int n = (int)(sizeof world_sections / sizeof world_sections[0]);
	return k >= 0 && k < n ? world_sections[k] : NULL;
}

static bool makes_the_world(const struct param_def *d)
{
	if (strcmp(d->key, "world.threads") == 0)
		return false;
	for (int k = 0; world_param_section(k); k++)
		if (strcmp(d->section, world_param_section(k)) == 0)
			return true;
	return false;
}

bool world_param_changed(struct app *a, int index, double old)
{
	const struct param_def *d = params_def(index);
	if (!d || !makes_the_world(d))
		return false;
	const double now = params_get(&a->params, index);
	if (now == old)
		return false;
	/* As gully explore refuses it at the start: a hardness from a file
	 * needs the file (--hardness), or the map would quietly go uniform. */
	if (a->params.hardness.generator == HARDNESS_FILE && !a->hardness_map) {
		params_set(&a->params, index, old);
		app_message(a, "%s unchanged: hardness.generator=file needs --hardness FILE at the "
			       "start (this session has no hardness file)", d->key);
		return true;
	}
	/* The checkpoint holds the parameters too: taken with the old value,
	 * so u brings back the terrain and the value that made it. */
	params_set(&a->params, index, old);
	if (!app_checkpoint_whole(a, "a new terrain")) {
		app_message(a, "kept this terrain; %s unchanged", d->key);
		return true;
	}
	params_set(&a->params, index, now);
	app_note_making(a);
	char err[512], val[64];
	if (session_new_world(a, err, sizeof err) != 0) {
		params_set(&a->params, index, old);
		app_message(a, "%s", err);
		return true;
	}
	num_param(&a->params, index, val, sizeof val);
	app_message(a, "%s = %s: the terrain made again, seed %d (u brings the last one back)",
		    d->key, val, a->params.world.seed);
	app_refresh_stats(a, true);
	return true;
}
