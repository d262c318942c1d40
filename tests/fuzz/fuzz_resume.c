/* Fuzz target: a snapshot taken all the way to a running process. The CRCs
 * are rewritten first (snapfix.c), so mutations reach what the plain
 * snapshot fuzzer rarely gets past the CRCs to: the layer values, the
 * parameter text and the process state. Whatever loads is then resumed as
 * `gully run FILE` does: the process is created, takes the saved state, and
 * steps. Oracles: a failure is one line with no world; a loaded world has
 * every cell in its layer's range (world_layer_range); after stepping, every
 * cell is still finite and every tally finite (ASan/UBSan, clang's
 * float-cast-overflow included, watch the steps themselves). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/process.h"
#include "core/base/world.h"
#include "io/snapshot.h"
#include "snapfix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_finite(const struct world *w, const char *when)
{
	size_t n = world_cells(w);
	for (int l = 0; l < LAYER_COUNT; l++)
		for (size_t i = 0; i < n; i++)
			if (!isfinite(w->layer[l][i])) {
				fprintf(stderr, "fuzz_resume: %s: layer %s cell %zu is %g\n", when,
					world_layer_name((enum world_layer)l), i,
					(double)w->layer[l][i]);
				abort();
			}
	for (int t = 0; t < TALLY_COUNT; t++)
		if (!isfinite(w->tally[t])) {
			fprintf(stderr, "fuzz_resume: %s: tally %s is %g\n", when,
				world_tally_name((enum world_tally)t), w->tally[t]);
			abort();
		}
}

static void resume(struct world *w, struct snapshot_info *info)
{
	const struct process_ops *ops = process_find(info->process);
	if (!ops)
		abort(); /* the loader checks the name */
	struct params p = info->params;
	/* Bounded work per input: a droplet may not wander for 10^7 steps. */
	if (p.particles.max_steps > 2000)
		p.particles.max_steps = 2000;
	if (p.hydrology.max_steps > 2000)
		p.hydrology.max_steps = 2000;
	void *st = NULL;
	if (ops->create(&st, w, &p) != 0)
		return;
	int e = 0;
	if (info->state)
		e = ops->load_state ? ops->load_state(st, info->state, info->state_len) : 1;
	if (!e) {
		struct process_report rep = {0};
		if (ops->step(st, w, &p, 40, &rep) == 0)
			check_finite(w, "after stepping");
	}
	ops->destroy(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	snapfix_crcs(copy, size);
	FILE *fp = fmemopen(copy, size ? size : 1, "rb");
	if (!fp) {
		free(copy);
		return 0;
	}
	struct world *w = NULL;
	struct snapshot_info info;
	char err[512] = "";
	int rc = size ? snapshot_read(fp, "fuzz", 0, &w, &info, NULL, err, sizeof err) : 1;
	fclose(fp);
	free(copy);
	if (rc) {
		if (w || (size && (!err[0] || strchr(err, '\n')))) {
			fprintf(stderr, "fuzz_resume: bad failure: '%s'\n", err);
			abort();
		}
		return 0;
	}
	for (int l = 0; l < LAYER_COUNT; l++) {
		size_t cell;
		if (world_check_layer(w, (enum world_layer)l, &cell)) {
			fprintf(stderr, "fuzz_resume: layer %s cell %zu out of range loaded\n",
				world_layer_name((enum world_layer)l), cell);
			abort();
		}
	}
	check_finite(w, "loaded");
	resume(w, &info);
	snapshot_info_free(&info);
	world_destroy(w);
	return 0;
}
