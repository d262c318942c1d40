#include "view/datamap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[DATAMAP_COUNT] = {"erosion", "deposition", "flow"};

/* Each ramp's stops, from nothing to most: perceptually rising lightness so
 * the pictures read in greyscale too. */
static const struct rgb ramps[DATAMAP_COUNT][4] = {
	[DATAMAP_EROSION] = {{12, 8, 8}, {128, 24, 20}, {230, 110, 30}, {255, 236, 170}},
	[DATAMAP_DEPOSITION] = {{8, 12, 8}, {20, 96, 48}, {70, 180, 140}, {220, 250, 230}},
	[DATAMAP_FLOW] = {{6, 8, 20}, {20, 50, 140}, {40, 150, 230}, {210, 245, 255}},
};

int datamap_find(const char *name)
{
	for (int i = 0; i < DATAMAP_COUNT; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

const char *datamap_name(int which)
{
	return which >= 0 && which < DATAMAP_COUNT ? names[which] : "?";
}

float *datamap_values(const struct world *w, int which)
{
	size_t n = world_cells(w);
	float *v = malloc(n * sizeof *v);
	if (!v)
		return NULL;
	const float *h = w->layer[LAYER_HEIGHT], *b = w->layer[LAYER_BASE];
	for (size_t i = 0; i < n; i++) {
		float d = which == DATAMAP_EROSION ? b[i] - h[i]
			  : which == DATAMAP_DEPOSITION ? h[i] - b[i]
							: w->layer[LAYER_STREAM][i];
		v[i] = d > 0 ? d : 0.0f;
	}
	return v;
}

struct rgb datamap_colour(int which, double t)
{
	if (!(t > 0))
		t = 0;
	if (t > 1)
		t = 1;
	const struct rgb *r = ramps[which];
	double at = t * 3;
	int i = at >= 3 ? 2 : (int)at;
	return palette_mix(r[i], r[i + 1], at - i);
}

void datamap_picture(const float *values, int width, int height, int which, float mn, float mx,
		     struct rgb *out)
{
	double span = mx > mn ? (double)mx - mn : 1;
	size_t n = (size_t)width * (size_t)height;
	for (size_t i = 0; i < n; i++)
		out[i] = datamap_colour(which, ((double)values[i] - mn) / span);
	/* The legend: two dark rows, then the ramp left (min) to right (max). */
	const struct rgb gap = {0, 0, 0};
	for (int y = 0; y < DATAMAP_LEGEND_ROWS; y++)
		for (int x = 0; x < width; x++)
			out[n + (size_t)y * (size_t)width + (size_t)x] =
				y < 2 ? gap
				      : datamap_colour(which, width > 1 ? (double)x / (width - 1) : 1);
}
