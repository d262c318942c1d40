/* A world warmed by the real hydrology process (bench_hydrology descend and
 * bench/hydro_lanes start from it), and, for `bench_hydrology descend`,
 * droplets sent through hydrology_descend one after another, as the process
 * descends (without its pours: a droplet that stops to flood ends). */
#ifndef GULLY_BENCH_DESCENDUTIL_H
#define GULLY_BENCH_DESCENDUTIL_H

#include <stdint.h>
#include <stdlib.h>

#include "benchutil.h"
#include "core/base/params.h"
#include "core/base/process.h"
#include "core/base/rng.h"
#include "core/base/world.h"
#include "core/hydrology/flood.h"
#include "core/hydrology/hydrology.h"
#include "core/hydrology/hydrology_descend.h"
#include "core/terrain/terrain.h"

/* The world p makes, after `warm` droplets of the process (whose state is
 * *st, for the caller to destroy). Non-zero when it cannot be made. */
static inline int descend_warm_world(struct world **w, void **st, const struct params *p,
				     long warm)
{
	if (world_from_params(w, p))
		return 1;
	if (hydrology_process.create(st, *w, p)) {
		world_destroy(*w);
		return 1;
	}
	return warm && hydrology_process.step(*st, *w, p, (uint64_t)warm, NULL) ? 1 : 0;
}

/* The track bytes and the flood (for its lake cache's forgetting) a descent
 * on c needs; exits when out of memory. */
static inline uint8_t *descend_track_and_flood(const struct world *c, struct flood **f)
{
	uint8_t *track = calloc(world_cells(c), 1);
	if (!track || flood_create(f, c->width, c->height))
		exit(1);
	return track;
}

/* `droplets` from spawn points drawn from c's stream, each descended to its
 * end; adds the steps to *steps and sets *moved to the soil eroded plus
 * deposited. Returns the CPU seconds. */
static inline double descend_droplets(struct world *c, const struct params *p, long droplets,
				      uint64_t *steps, double *moved)
{
	struct flood *f;
	uint8_t *track = descend_track_and_flood(c, &f);
	struct hd_env e;
	hydrology_descend_env(&e, p, c, track);
	double eroded = 0, deposited = 0;
	uint32_t changed[256];
	const double t0 = bench_cpu_seconds();
	for (long i = 0; i < droplets; i++) {
		struct hdrop d = {0};
		d.x = rng_float(&c->rng) * (float)c->width;
		d.y = rng_float(&c->rng) * (float)c->height;
		d.volume = 1.0;
		enum descent o;
		do {
			size_t n = 0;
			o = hydrology_descend(&e, &d, &eroded, &deposited, changed, 256, &n, steps);
			for (size_t j = 0; j < n; j++)
				flood_forget_cell(f, (int)changed[j]);
		} while (o == DESCENT_FULL);
	}
	const double t = bench_cpu_seconds() - t0;
	*moved = eroded + deposited;
	flood_destroy(f);
	free(track);
	return t;
}

#endif
