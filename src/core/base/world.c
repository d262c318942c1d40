#include "core/base/world.h"

#include "core/base/rain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/bigmem.h"
#include "core/base/error.h"
#include "core/base/params.h"

static const char *const layer_names[LAYER_COUNT] = {
	[LAYER_HEIGHT] = "height",
	[LAYER_BASE] = "base",
	[LAYER_STREAM] = "stream",
	[LAYER_POOL] = "pool",
	[LAYER_HARDNESS] = "hardness",
	[LAYER_WETNESS] = "wetness",
	[LAYER_VEGETATION] = "vegetation",
};

static const char *const tally_names[TALLY_COUNT] = {
	[TALLY_ERODED] = "eroded",
	[TALLY_DEPOSITED] = "deposited",
	[TALLY_SEDIMENT_OFF_MAP] = "sediment_off_map",
	[TALLY_WATER_IN] = "water_in",
	[TALLY_WATER_EVAPORATED] = "water_evaporated",
	[TALLY_WATER_OFF_MAP] = "water_off_map",
	[TALLY_SEDIMENT_IN_FLIGHT] = "sediment_in_flight",
};

const char *world_layer_name(enum world_layer l)
{
	return (unsigned)l < LAYER_COUNT ? layer_names[l] : "?";
}

int world_layer_find(const char *name)
{
	for (int i = 0; i < LAYER_COUNT; i++)
		if (strcmp(layer_names[i], name) == 0)
			return i;
	return -1;
}

const char *world_tally_name(enum world_tally t)
{
	return (unsigned)t < TALLY_COUNT ? tally_names[t] : "?";
}

int world_tally_find(const char *name)
{
	for (int i = 0; i < TALLY_COUNT; i++)
		if (strcmp(tally_names[i], name) == 0)
			return i;
	return -1;
}

void world_layer_range(enum world_layer l, float *min, float *max)
{
	switch (l) {
	case LAYER_HEIGHT:
	case LAYER_BASE:
		*min = -WORLD_HEIGHT_LIMIT;
		*max = WORLD_HEIGHT_LIMIT;
		break;
	case LAYER_POOL:
		*min = 0.0f;
		*max = WORLD_POOL_MAX;
		break;
	case LAYER_VEGETATION:
		*min = 0.0f;
		*max = WORLD_VEGETATION_MAX;
		break;
	case LAYER_STREAM:
	case LAYER_HARDNESS:
	case LAYER_WETNESS:
	default:
		*min = 0.0f;
		*max = 1.0f;
		break;
	}
}

int world_check_layer(const struct world *w, enum world_layer l, size_t *cell)
{
	float mn, mx;
	world_layer_range(l, &mn, &mx);
	const float *v = w->layer[l];
	size_t n = world_cells(w);
	for (size_t i = 0; i < n; i++) {
		/* Written so that NaN fails too. */
		if (!(v[i] >= mn && v[i] <= mx)) {
			*cell = i;
			return GULLY_ERANGE;
		}
	}
	return GULLY_OK;
}

int world_size_min(void)
{
	return (int)params_def(params_find("world.width"))->min;
}

int world_size_max(void)
{
	return (int)params_def(params_find("world.width"))->max;
}

int world_check_size(int width, int height)
{
	int lo = world_size_min(), hi = world_size_max();
	if (width < lo || height < lo || width > hi || height > hi)
		return GULLY_ESIZE;
	return GULLY_OK;
}

size_t world_cells(const struct world *w)
{
	return (size_t)w->width * (size_t)w->height;
}

int world_create(struct world **out, int width, int height)
{
	*out = NULL;
	int err = world_check_size(width, height);
	if (err)
		return err;
	struct world *w = calloc(1, sizeof *w);
	if (!w)
		return GULLY_ENOMEM;
	w->width = width;
	w->height = height;
	size_t n = world_cells(w);
	for (int i = 0; i < LAYER_COUNT; i++) {
		w->layer[i] = bigmem_zalloc(n * sizeof(float));
		if (!w->layer[i]) {
			world_destroy(w);
			return GULLY_ENOMEM;
		}
	}
	rng_seed(&w->rng, 0, 0);
	*out = w;
	return GULLY_OK;
}

void world_destroy(struct world *w)
{
	if (!w)
		return;
	for (int i = 0; i < LAYER_COUNT; i++)
		bigmem_free(w->layer[i], world_cells(w) * sizeof(float));
	rain_free(w->rain);
	free(w);
}

int world_clone(struct world **out, const struct world *src)
{
	struct world *w;
	int err = world_create(&w, src->width, src->height);
	if (err)
		return err;
	size_t n = world_cells(src);
	for (int i = 0; i < LAYER_COUNT; i++)
		memcpy(w->layer[i], src->layer[i], n * sizeof(float));
	w->particles = src->particles;
	w->steps = src->steps;
	memcpy(w->tally, src->tally, sizeof w->tally);
	w->rng = src->rng;
	if ((err = rain_clone(&w->rain, src->rain))) {
		world_destroy(w);
		return err;
	}
	*out = w;
	return GULLY_OK;
}

double world_pool_volume(const struct world *w, size_t first, size_t count, double acc)
{
	const float *pool = w->layer[LAYER_POOL] + first;
	/* All the water counts toward the volume, so it matches the water
	 * tallies (a negative depth is no water). */
	for (size_t i = 0; i < count; i++)
		if (pool[i] > 0)
			acc += pool[i];
	return acc;
}

void world_stats(const struct world *w, struct world_stats *st)
{
	size_t n = world_cells(w);
	const float *h = w->layer[LAYER_HEIGHT];
	const float *pool = w->layer[LAYER_POOL];
	const float *stream = w->layer[LAYER_STREAM];
	const float *wet = w->layer[LAYER_WETNESS];
	double sum = 0, sum2 = 0, mn = INFINITY, mx = -INFINITY;
	long pc = 0, sc = 0, wc = 0;
	for (size_t i = 0; i < n; i++) {
		double v = h[i];
		sum += v;
		sum2 += v * v;
		if (v < mn)
			mn = v;
		if (v > mx)
			mx = v;
		/* Only cells deeper than the threshold count as pool cells. */
		if (pool[i] > WORLD_POOL_EPS)
			pc++;
		if (stream[i] >= WORLD_STREAM_MIN)
			sc++;
		if (wet[i] >= WORLD_WET_MIN)
			wc++;
	}
	double mean = sum / (double)n;
	double var = sum2 / (double)n - mean * mean;
	st->height_min = mn;
	st->height_max = mx;
	st->height_mean = mean;
	st->height_std = var > 0 ? sqrt(var) : 0;
	st->pool_volume = world_pool_volume(w, 0, n, 0);
	st->pool_cells = pc;
	st->stream_cells = sc;
	st->wet_cells = wc;
}
