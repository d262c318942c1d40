#include "core/terrain/hardness.h"

#include <math.h>

#include "core/base/error.h"
#include "core/base/resample.h"
#include "core/base/noise.h"
#include "core/terrain/rows.h"
#include "core/terrain/terrain.h"

/* Its own noise and rng streams, so changing hardness never moves the terrain. */
#define HARDNESS_STREAM 3

/* NaN comes out 0: a comparison with NaN is false. */
static float clamp01(float v)
{
	return v >= 0.0f ? (v > 1.0f ? 1.0f : v) : 0.0f;
}

/* One row block of fbm_field's noise (terrain_rows). */
struct field_job {
	float *out;
	const struct noise *nz;
	int width, octaves;
	float freq;
};

static void field_block(void *arg, int y0, int y1)
{
	const struct field_job *j = arg;
	for (int y = y0; y < y1; y++)
		noise_fbm_row(j->nz, 0, j->width, j->freq, (float)y * j->freq, j->octaves, 0.5f, 2.0f,
			      j->out + (size_t)y * (size_t)j->width);
}

/* The noise field over the map, normalised to exactly [0, 1]. */
static void fbm_field(float *out, const struct world *w, const struct params *p,
		      const struct noise *nz, double frequency, int octaves)
{
	float span = (float)(w->width > w->height ? w->width : w->height);
	struct field_job job = {out, nz, w->width, octaves, (float)frequency / span};
	terrain_rows(w, p, field_block, &job);
	terrain_normalise(out, world_cells(w));
}

/* Bands by height: alternately harder and softer than the mean, each by a
 * seeded amount in [contrast/4, contrast/2], so neighbours always differ by at
 * least contrast/2 (before clamping) and no two soft layers look alike. */
static void strata(struct world *w, const struct params *p, const struct noise *nz)
{
	const struct params_hardness *q = &p->hardness;
	float *d = w->layer[LAYER_HARDNESS];
	const float *h = w->layer[LAYER_HEIGHT];
	size_t n = world_cells(w);
	float band[64];
	/* params_validate keeps strata in 1..64; stay in bounds even without it. */
	int count = q->strata < 1 ? 1 : q->strata > 64 ? 64 : q->strata;
	struct rng r;
	rng_seed(&r, (uint64_t)p->world.seed, HARDNESS_STREAM);
	for (int b = 0; b < count; b++) {
		float sign = (b & 1) ? -1.0f : 1.0f;
		float amount = 0.5f + 0.5f * rng_float(&r);
		band[b] = clamp01((float)q->value + sign * amount * 0.5f * (float)q->contrast);
	}
	float mn = INFINITY, mx = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		mn = fminf(mn, h[i]);
		mx = fmaxf(mx, h[i]);
	}
	float range = mx - mn;
	if (q->warp > 0)
		fbm_field(d, w, p, nz, q->frequency, q->octaves); /* d holds the warp for now */
	for (size_t i = 0; i < n; i++) {
		float t = range > 0 ? (h[i] - mn) / range : 0.5f;
		if (q->warp > 0)
			t += (float)q->warp * (d[i] - 0.5f) / (float)count;
		int b = (int)floorf(t * (float)count);
		if (b < 0)
			b = 0;
		if (b >= count)
			b = count - 1;
		d[i] = band[b];
	}
}

void hardness_generate(struct world *w, const struct params *p)
{
	const struct params_hardness *q = &p->hardness;
	float *d = w->layer[LAYER_HARDNESS];
	size_t n = world_cells(w);
	struct noise nz;
	noise_init(&nz, (uint64_t)p->world.seed * 2654435761ULL + HARDNESS_STREAM);
	switch ((enum hardness_generator)q->generator) {
	case HARDNESS_FBM:
		fbm_field(d, w, p, &nz, q->frequency, q->octaves);
		for (size_t i = 0; i < n; i++)
			d[i] = clamp01((float)q->value + (float)q->contrast * (d[i] - 0.5f));
		break;
	case HARDNESS_STRATA:
		strata(w, p, &nz);
		break;
	case HARDNESS_UNIFORM:
	case HARDNESS_FILE:
	default:
		for (size_t i = 0; i < n; i++)
			d[i] = (float)q->value;
		break;
	}
}

int hardness_fill_from(struct world *w, const float *src, int sw, int sh)
{
	if (sw <= 0 || sh <= 0)
		return GULLY_EINVAL;
	size_t sn = (size_t)sw * (size_t)sh;
	for (size_t i = 0; i < sn; i++)
		if (!isfinite(src[i]))
			return GULLY_EINVAL;
	float *d = w->layer[LAYER_HARDNESS];
	grid_resample(src, sw, sh, d, w->width, w->height);
	for (size_t i = 0; i < world_cells(w); i++)
		d[i] = clamp01(d[i]);
	return GULLY_OK;
}
