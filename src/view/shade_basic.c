#include "view/shade_basic.h"

#include <math.h>
#include <stddef.h>

static const struct stop {
	float t;
	unsigned char rgb[3];
} ramp[] = {
	{0.00f, {28, 72, 46}},
	{0.25f, {74, 128, 62}},
	{0.50f, {176, 164, 98}},
	{0.70f, {134, 104, 74}},
	{0.85f, {150, 146, 140}},
	{1.00f, {245, 245, 245}},
};
#define NSTOPS (sizeof ramp / sizeof ramp[0])

void shade_basic_ramp(float t, unsigned char rgb[3])
{
	if (!(t > 0.0f))
		t = 0.0f;
	if (t > 1.0f)
		t = 1.0f;
	size_t i = 1;
	while (i < NSTOPS - 1 && t > ramp[i].t)
		i++;
	const struct stop *a = &ramp[i - 1], *b = &ramp[i];
	float f = (t - a->t) / (b->t - a->t);
	for (int c = 0; c < 3; c++)
		rgb[c] = (unsigned char)lrintf((float)a->rgb[c] + f * ((float)b->rgb[c] - (float)a->rgb[c]));
}

static float at(const float *h, int width, int rows, int x, int y)
{
	if (x < 0)
		x = 0;
	if (x >= width)
		x = width - 1;
	if (y < 0)
		y = 0;
	if (y >= rows)
		y = rows - 1;
	float v = h[(size_t)y * (size_t)width + (size_t)x];
	return isfinite(v) ? v : 0.0f;
}

float shade_basic_light(const float *h, int width, int rows, int x, int y, float scale)
{
	float dx = (at(h, width, rows, x + 1, y) - at(h, width, rows, x - 1, y)) * 0.5f * scale;
	float dy = (at(h, width, rows, x, y + 1) - at(h, width, rows, x, y - 1)) * 0.5f * scale;
	/* Normal (-dx, -dy, 1); light (-1, -1, sqrt 2) / 2, i.e. from the
	 * top-left of the picture, 45 degrees up. Flat ground gets 1/sqrt 2. */
	float len = sqrtf(dx * dx + dy * dy + 1.0f);
	float lambert = (dx + dy + 1.41421356f) / (2.0f * len);
	float light = 0.25f + 0.75f * lambert / 0.70710678f;
	return light < 0.25f ? 0.25f : light;
}

void shade_basic_image(const float *height, const float *value, int width, int rows,
		       float vmin, float vmax, float scale, unsigned char *rgb)
{
	float span = vmax > vmin ? vmax - vmin : 1.0f;
	for (int y = 0; y < rows; y++) {
		for (int x = 0; x < width; x++) {
			size_t i = (size_t)y * (size_t)width + (size_t)x;
			unsigned char c[3];
			shade_basic_ramp((value[i] - vmin) / span, c);
			float light = shade_basic_light(height, width, rows, x, y, scale);
			for (int k = 0; k < 3; k++) {
				float v = (float)c[k] * light;
				rgb[3 * i + (size_t)k] = (unsigned char)(v > 255.0f ? 255 : lrintf(v));
			}
		}
	}
}
