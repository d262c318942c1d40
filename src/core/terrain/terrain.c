#include "core/terrain/terrain.h"

#include <math.h>
#include <string.h>

#include "core/terrain/hardness.h"
#include "core/terrain/rows.h"
#include "core/base/noise.h"

/* Stream numbers keep terrain and simulation draws independent of each other. */
#define TERRAIN_STREAM 1
#define SIMULATION_STREAM 2

void terrain_normalise(float *h, size_t n)
{
	float mn = INFINITY, mx = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		mn = fminf(mn, h[i]);
		mx = fmaxf(mx, h[i]);
	}
	float range = mx - mn;
	for (size_t i = 0; i < n; i++)
		h[i] = range > 0 ? (h[i] - mn) / range : 0.5f;
}

/* The teaching shapes, in [0, 1] before roughness; u, v in [0, 1]. */
static float shape(enum terrain_generator g, float u, float v)
{
	switch (g) {
	case TERRAIN_CONE: {
		float r = sqrtf((u - 0.5f) * (u - 0.5f) + (v - 0.5f) * (v - 0.5f));
		return fmaxf(0.0f, 1.0f - r / 0.5f) * 0.9f + 0.05f;
	}
	case TERRAIN_VALLEY:
		/* A V across x whose floor falls toward y = 1, so water leaves the map. */
		return 0.7f * fabsf(u - 0.5f) / 0.5f + 0.25f * (1.0f - v) + 0.05f;
	case TERRAIN_PLANE:
		return 0.9f * (1.0f - u) + 0.05f;
	case TERRAIN_BASINS: {
		/* The valley above, its floor dipping below 0 (sea level) at y = 1,
		 * with three round hollows down the floor: each fills to the sill
		 * below it and spills into the next, a chain of lakes. */
		float h = 0.7f * fabsf(u - 0.5f) / 0.5f + 0.3f * (1.0f - v) - 0.02f;
		static const float centre[3] = {0.2f, 0.5f, 0.8f};
		for (int k = 0; k < 3; k++) {
			float d2 = ((u - 0.5f) * (u - 0.5f) + (v - centre[k]) * (v - centre[k])) /
				   (0.12f * 0.12f);
			if (d2 < 1.0f)
				h -= 0.12f * (1.0f - d2);
		}
		return h;
	}
	case TERRAIN_FLAT:
	default:
		return 0.5f;
	}
}

/* One row block of terrain_generate's noise (terrain_rows). */
struct terrain_job {
	float *h;
	const struct noise *nz;
	const struct params_terrain *t;
	int width, height;
	float freq;
};

static void terrain_block(void *arg, int y0, int y1)
{
	const struct terrain_job *j = arg;
	const struct params_terrain *t = j->t;
	enum terrain_generator g = (enum terrain_generator)t->generator;
	for (int y = y0; y < y1; y++) {
		float *row = j->h + (size_t)y * (size_t)j->width;
		const float ny = (float)y * j->freq;
		if (g == TERRAIN_RIDGED) {
			for (int x = 0; x < j->width; x++)
				row[x] = noise_ridged(j->nz, (float)x * j->freq, ny, t->octaves,
						      (float)t->persistence, (float)t->lacunarity);
			continue;
		}
		noise_fbm_row(j->nz, 0, j->width, j->freq, ny, t->octaves, (float)t->persistence,
			      (float)t->lacunarity, row);
		if (g == TERRAIN_FBM)
			continue;
		for (int x = 0; x < j->width; x++) {
			float u = (float)x / (float)(j->width - 1);
			float v = (float)y / (float)(j->height - 1);
			row[x] = shape(g, u, v) + (float)t->roughness * 0.5f * row[x];
		}
	}
}

void terrain_generate(struct world *w, const struct params *p)
{
	struct noise nz;
	noise_init(&nz, (uint64_t)p->world.seed * 2654435761ULL + TERRAIN_STREAM);
	const struct params_terrain *t = &p->terrain;
	enum terrain_generator g = (enum terrain_generator)t->generator;
	float *h = w->layer[LAYER_HEIGHT];
	float span = (float)(w->width > w->height ? w->width : w->height);
	struct terrain_job job = {h, &nz, t, w->width, w->height, (float)t->frequency / span};
	terrain_rows(w, p, terrain_block, &job);
	if (g == TERRAIN_FBM || g == TERRAIN_RIDGED)
		terrain_normalise(h, world_cells(w));
	memcpy(w->layer[LAYER_BASE], h, world_cells(w) * sizeof(float));
}

int world_from_params(struct world **out, const struct params *p)
{
	return world_from_params_on(out, p, NULL);
}

int world_from_params_on(struct world **out, const struct params *p, const float *heights)
{
	int err = world_create(out, p->world.width, p->world.height);
	if (err)
		return err;
	if (heights) {
		const size_t bytes = world_cells(*out) * sizeof *heights;
		memcpy((*out)->layer[LAYER_HEIGHT], heights, bytes);
		memcpy((*out)->layer[LAYER_BASE], heights, bytes);
	} else {
		terrain_generate(*out, p);
	}
	hardness_generate(*out, p);
	rng_seed(&(*out)->rng, (uint64_t)p->world.seed, SIMULATION_STREAM);
	return 0;
}
