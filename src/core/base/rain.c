#include "core/base/rain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"

int rain_create(struct rain **out, const float *weights, int width, int height)
{
	*out = NULL;
	size_t n = (size_t)width * (size_t)height;
	struct rain *r = calloc(1, sizeof *r);
	double *cdf = malloc(n * sizeof *cdf);
	if (!r || !cdf) {
		free(r);
		free(cdf);
		return GULLY_ENOMEM;
	}
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(weights[i]) || weights[i] < 0) {
			free(r);
			free(cdf);
			return GULLY_EINVAL;
		}
		sum += weights[i];
		cdf[i] = sum;
	}
	if (!(sum > 0)) {
		free(r);
		free(cdf);
		return GULLY_EINVAL;
	}
	r->width = width;
	r->height = height;
	r->cdf = cdf;
	*out = r;
	return GULLY_OK;
}

void rain_free(struct rain *r)
{
	if (!r)
		return;
	free(r->cdf);
	free(r);
}

int rain_clone(struct rain **out, const struct rain *src)
{
	*out = NULL;
	if (!src)
		return GULLY_OK;
	size_t n = (size_t)src->width * (size_t)src->height;
	struct rain *r = malloc(sizeof *r);
	double *cdf = malloc(n * sizeof *cdf);
	if (!r || !cdf) {
		free(r);
		free(cdf);
		return GULLY_ENOMEM;
	}
	*r = *src;
	memcpy(cdf, src->cdf, n * sizeof *cdf);
	r->cdf = cdf;
	*out = r;
	return GULLY_OK;
}

/* The first cell whose running sum passes u (0 <= u < total): a cell of
 * weight 0 has the same sum as the one before it and is never chosen. */
static size_t pick_cell(const struct rain *r, double u)
{
	size_t lo = 0, hi = (size_t)r->width * (size_t)r->height - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->cdf[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* A coordinate just inside [0, limit): float rounding can reach limit. */
static float below(float v, float limit)
{
	return v < limit ? v : nextafterf(limit, 0.0f);
}

void world_spawn_point(struct world *w, float *x, float *y)
{
	const struct rain *r = w->rain;
	if (!r || r->width != w->width || r->height != w->height) {
		*x = below(rng_float(&w->rng) * (float)w->width, (float)w->width);
		*y = below(rng_float(&w->rng) * (float)w->height, (float)w->height);
		return;
	}
	size_t n = (size_t)r->width * (size_t)r->height;
	size_t cell = pick_cell(r, rng_double(&w->rng) * r->cdf[n - 1]);
	float cx = (float)(cell % (size_t)r->width), cy = (float)(cell / (size_t)r->width);
	*x = below(cx + rng_float(&w->rng), cx + 1.0f);
	*y = below(cy + rng_float(&w->rng), cy + 1.0f);
}
