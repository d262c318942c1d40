/* The world: a grid of float32 layers plus the counters a run accumulates.
 * Every layer is row-major, index y*width + x. */
#ifndef GULLY_WORLD_H
#define GULLY_WORLD_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/rng.h"

/* The map sizes gully supports, in cells a side: the range the parameter
 * registry (params.def) gives world.width and world.height, read from it. */
int world_size_min(void);
int world_size_max(void);

enum world_layer {
	LAYER_HEIGHT,     /* terrain height, nominally 0..1 */
	LAYER_BASE,       /* height when the terrain was made: erosion/deposition reference */
	LAYER_STREAM,     /* stream map 0..1 (hydrology) */
	LAYER_POOL,       /* pool water depth above height (hydrology) */
	LAYER_HARDNESS,   /* 0 soft .. 1 hard (emitter) */
	LAYER_WETNESS,    /* soil saturation 0..1 (sph) */
	LAYER_VEGETATION, /* root density (hydrology) */
	LAYER_COUNT
};

/* Running totals, in height units x cells (volumes). Kept in the world, not in
 * a process, so a snapshot carries them and a resumed run continues the sums. */
enum world_tally {
	TALLY_ERODED,            /* soil removed from the terrain */
	TALLY_DEPOSITED,         /* soil added to the terrain */
	TALLY_SEDIMENT_OFF_MAP,  /* soil carried off the map by particles */
	TALLY_WATER_IN,          /* water volume brought in by droplets/jets */
	TALLY_WATER_EVAPORATED,  /* water lost to evaporation or drying */
	TALLY_WATER_OFF_MAP,     /* water that left the map */
	/* Soil carried by droplets still in flight: a level, not a sum. The
	 * particles process sets it at the end of each step() call, so that
	 * eroded - deposited = sediment_off_map + sediment_in_flight. */
	TALLY_SEDIMENT_IN_FLIGHT,
	TALLY_COUNT
};

struct rain;

struct world {
	int width, height;
	float *layer[LAYER_COUNT];
	uint64_t particles; /* particles (droplets) released so far */
	uint64_t steps;     /* particle or time steps taken so far */
	double tally[TALLY_COUNT];
	struct rng rng;     /* the simulation's random stream */
	/* Optional: where droplets start (base/rain.h); NULL: anywhere. Given
	 * per run (gully run --rain), not kept in snapshots. */
	struct rain *rain;
};

/* Volumes and relief over the whole map: what `gully run` reports. */
struct world_stats {
	double height_min, height_max, height_mean, height_std;
	double pool_volume;
	long pool_cells, stream_cells, wet_cells;
};

/* Thresholds that decide when a cell counts as pool, stream or wet. */
#define WORLD_POOL_EPS 1e-6f
#define WORLD_STREAM_MIN 0.1f
#define WORLD_WET_MIN 0.1f

/* The values the core accepts in each layer, both ends included; NaN and
 * infinity never. Files (snapshots, imported maps) are held to these before
 * any process sees them: the flood's fixed-point pool sums, for one, convert
 * depths to integers and are defined only below 2^11. gully-snapshot(5)
 * lists them. */
#define WORLD_HEIGHT_LIMIT 1.0e6f  /* height and base: -limit to +limit */
/* A droplet in flight in a snapshot (particles' and hydrology's lanes): a
 * droplet still on the map after a step of dt >= 0.05 moves well under
 * 10^6 cells per unit time; finite values beyond it overflow its next
 * steps' float arithmetic. */
#define WORLD_SPEED_LIMIT 1.0e6f
/* A process's running books in a snapshot (a droplet's eroded, deposited,
 * evaporated... not yet in the world's tallies): far past what any run
 * adds up, and small enough that adding one to any finite tally leaves it
 * finite (it is under half an ulp of DBL_MAX). */
#define WORLD_BOOK_LIMIT 1.0e30
#define WORLD_POOL_MAX 1000.0f     /* the flood's cap on a pool's depth */
#define WORLD_VEGETATION_MAX 51.0f /* 255 root units of 0.2 */
void world_layer_range(enum world_layer l, float *min, float *max);
/* GULLY_OK when every cell of layer l is finite and in its range; else
 * GULLY_ERANGE with the first bad cell's index in *cell. */
int world_check_layer(const struct world *w, enum world_layer l, size_t *cell);

/* Checks dimensions before allocating: GULLY_ESIZE outside the supported range. */
int world_check_size(int width, int height);
/* Allocates zeroed layers; hardness starts at 0 (soft), everything else 0. */
int world_create(struct world **out, int width, int height);
void world_destroy(struct world *w);
/* Deep copy (for undo and for tests). */
int world_clone(struct world **out, const struct world *src);
size_t world_cells(const struct world *w);
void world_stats(const struct world *w, struct world_stats *st);
/* The pool volume of cells [first, first + count) added to `acc`, in cell
 * order: the one definition of pool volume (world_stats' pool_volume is
 * world_pool_volume(w, 0, all, 0)), which a caller can take a band at a
 * time and get the same sum bit for bit. */
double world_pool_volume(const struct world *w, size_t first, size_t count, double acc);

const char *world_layer_name(enum world_layer l);
/* -1 when no layer has that name. */
int world_layer_find(const char *name);
const char *world_tally_name(enum world_tally t);
int world_tally_find(const char *name);

static inline float *world_at(float *layer, const struct world *w, int x, int y)
{
	return &layer[(size_t)y * (size_t)w->width + (size_t)x];
}

#endif
