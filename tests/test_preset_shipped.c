/* Every preset in presets/ loads, says what to watch for, and runs 1,000
 * droplets of its process (200 steps of one that counts steps). A preset for
 * a process that is not built in yet is skipped, saying why. */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/process.h"
#include "core/terrain/terrain.h"
#include "io/preset.h"

#define DROPLETS 1000
#define SPH_STEPS 200

static void run_preset(void **state)
{
	const char *path = *state;
	struct preset_meta peek;
	assert_int_equal(preset_peek(path, &peek), GULLY_OK);
	const char *proc_name = peek.process[0] ? peek.process : "particles";
	const struct process_ops *proc = process_find(proc_name);
	if (!proc) {
		print_message("%s: process '%s' is not built in yet (one of %s); skipped\n", path,
			      proc_name, process_names());
		skip();
	}

	struct params p;
	struct preset_meta m;
	char err[PRESET_ERR_MAX];
	if (preset_load_file(path, &p, &m, err, sizeof err))
		fail_msg("%s", err);
	assert_true(strlen(m.description) > 10);
	assert_string_equal(m.process, peek.process);
	assert_string_equal(m.description, peek.description);

	/* Its top comment names it and says what to watch for. */
	char *text;
	size_t len;
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	text = calloc(1, PRESET_MAX_BYTES + 1);
	assert_non_null(text);
	len = fread(text, 1, PRESET_MAX_BYTES, fp);
	fclose(fp);
	assert_true(len > 0);
	const char *base = strrchr(path, '/') + 1;
	char head[128];
	snprintf(head, sizeof head, "# %.*s:", (int)(strlen(base) - 5), base);
	assert_true(strncmp(text, head, strlen(head)) == 0);
	char *first_key = strstr(text, "\ndescription:");
	assert_non_null(first_key);
	char *watch = strstr(text, "What to watch for");
	assert_true(watch && watch < first_key);
	free(text);

	struct world *w;
	assert_int_equal(world_from_params(&w, &p), GULLY_OK);
	void *st = NULL;
	assert_int_equal(proc->create(&st, w, &p), GULLY_OK);
	struct process_report rep = {0};
	/* A process counting time steps (sph) runs a second of its water. */
	bool timed = strcmp(proc->unit, "steps") == 0;
	uint64_t budget = timed ? SPH_STEPS : DROPLETS;
	assert_int_equal(proc->step(st, w, &p, budget, &rep), GULLY_OK);
	assert_int_equal(timed ? rep.steps : rep.particles, budget);
	/* The droplets changed the terrain (or, where a preset keeps the ground's
	 * shape to show wetting alone, wetted it), and left it finite. */
	size_t cells = (size_t)w->width * (size_t)w->height;
	size_t moved = 0;
	for (size_t i = 0; i < cells; i++) {
		assert_true(isfinite(w->layer[LAYER_HEIGHT][i]));
		moved += w->layer[LAYER_HEIGHT][i] != w->layer[LAYER_BASE][i] ||
			 w->layer[LAYER_WETNESS][i] > 0;
	}
	assert_true(moved > 0);
	proc->destroy(st);
	world_destroy(w);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	const char *dir = GULLY_SRCDIR "/presets";
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "%s: cannot open\n", dir);
		return 1;
	}
	char *paths[64];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 64) {
		size_t len = strlen(e->d_name);
		if (len > 5 && strcmp(e->d_name + len - 5, ".yaml") == 0) {
			paths[n] = malloc(strlen(dir) + len + 2);
			sprintf(paths[n], "%s/%s", dir, e->d_name);
			n++;
		}
	}
	closedir(d);
	qsort(paths, (size_t)n, sizeof *paths, by_name);
	if (n < 5) {
		fprintf(stderr, "%s: only %d presets\n", dir, n);
		return 1;
	}
	struct CMUnitTest *tests = calloc((size_t)n, sizeof *tests);
	for (int i = 0; i < n; i++) {
		tests[i].name = strrchr(paths[i], '/') + 1;
		tests[i].test_func = run_preset;
		tests[i].initial_state = paths[i];
	}
	int rc = _cmocka_run_group_tests("shipped presets", tests, (size_t)n, NULL, NULL);
	free(tests);
	for (int i = 0; i < n; i++)
		free(paths[i]);
	return rc;
}
