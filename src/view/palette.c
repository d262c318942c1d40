#include "view/palette.h"

#include <math.h>
#include <stdlib.h>

const struct rgb palette_stream = {110, 190, 255};
const struct rgb palette_pool_shallow = {70, 130, 220};
const struct rgb palette_pool_deep = {15, 40, 130};
const struct rgb palette_erode = {210, 40, 30};
const struct rgb palette_deposit = {30, 170, 60};
const struct rgb palette_hard = {140, 80, 190};
const struct rgb palette_wet = {45, 60, 85};
const struct rgb palette_particle = {255, 225, 40};
const struct rgb palette_tree = {12, 72, 28};

static const struct {
	double h;
	struct rgb c;
} ramp[] = {
	{0.00, {38, 84, 52}},
	{0.25, {78, 128, 64}},
	{0.50, {150, 142, 88}},
	{0.70, {128, 104, 80}},
	{0.87, {160, 158, 152}},
	{1.00, {240, 240, 240}},
};
#define NRAMP ((int)(sizeof ramp / sizeof ramp[0]))

int palette_ramp_stops(void)
{
	return NRAMP;
}

struct rgb palette_ramp_stop(int i, double *h)
{
	if (i < 0)
		i = 0;
	if (i >= NRAMP)
		i = NRAMP - 1;
	if (h)
		*h = ramp[i].h;
	return ramp[i].c;
}

static uint8_t channel(double v)
{
	if (!(v > 0))
		return 0;
	if (v >= 255)
		return 255;
	return (uint8_t)lround(v);
}

struct rgb palette_mix(struct rgb a, struct rgb b, double t)
{
	if (!(t > 0))
		return a;
	if (t >= 1)
		return b;
	return (struct rgb){channel(a.r + (b.r - a.r) * t), channel(a.g + (b.g - a.g) * t),
			    channel(a.b + (b.b - a.b) * t)};
}

struct rgb palette_height(double h)
{
	if (!(h > ramp[0].h))
		return ramp[0].c;
	for (int i = 1; i < NRAMP; i++)
		if (h < ramp[i].h)
			return palette_mix(ramp[i - 1].c, ramp[i].c,
					   (h - ramp[i - 1].h) / (ramp[i].h - ramp[i - 1].h));
	return ramp[NRAMP - 1].c;
}

struct rgb palette_scale(struct rgb c, double k)
{
	return (struct rgb){channel(c.r * k), channel(c.g * k), channel(c.b * k)};
}

double palette_luma(struct rgb c)
{
	return (0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b) / 255.0;
}

struct rgb palette_quantise(struct rgb c, int bits)
{
	if (bits >= 8 || bits <= 0)
		return c;
	int shift = 8 - bits;
	int half = 1 << (shift - 1);
	int mask = 0xff & ~((1 << shift) - 1);
	return (struct rgb){(uint8_t)((c.r & mask) | half), (uint8_t)((c.g & mask) | half),
			    (uint8_t)((c.b & mask) | half)};
}

/* xterm's cube levels. */
static const int cube[6] = {0, 95, 135, 175, 215, 255};

static int cube_index(int v)
{
	int best = 0;
	for (int i = 1; i < 6; i++)
		if (abs(cube[i] - v) < abs(cube[best] - v))
			best = i;
	return best;
}

static int dist2(struct rgb a, struct rgb b)
{
	int dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
	/* Green counts most, blue least, as the eye weighs them. */
	return 3 * dr * dr + 4 * dg * dg + 2 * db * db;
}

struct rgb palette_from_256(int index)
{
	if (index >= 232 && index <= 255) {
		uint8_t v = (uint8_t)(8 + 10 * (index - 232));
		return (struct rgb){v, v, v};
	}
	if (index < 16 || index > 255)
		index = 16;
	int i = index - 16;
	return (struct rgb){(uint8_t)cube[i / 36], (uint8_t)cube[(i / 6) % 6], (uint8_t)cube[i % 6]};
}

int palette_to_256(struct rgb c)
{
	int ci = 16 + 36 * cube_index(c.r) + 6 * cube_index(c.g) + cube_index(c.b);
	int grey = (c.r + c.g + c.b) / 3;
	int gi = grey < 8 ? 0 : (grey - 8 + 5) / 10;
	if (gi > 23)
		gi = 23;
	gi += 232;
	return dist2(c, palette_from_256(gi)) < dist2(c, palette_from_256(ci)) ? gi : ci;
}

/* The VGA-like values most terminals use for the ANSI colours. */
static const struct rgb ansi[16] = {
	{0, 0, 0}, {170, 0, 0}, {0, 170, 0}, {170, 85, 0},
	{0, 0, 170}, {170, 0, 170}, {0, 170, 170}, {170, 170, 170},
	{85, 85, 85}, {255, 85, 85}, {85, 255, 85}, {255, 255, 85},
	{85, 85, 255}, {255, 85, 255}, {85, 255, 255}, {255, 255, 255},
};

int palette_to_ansi(struct rgb c, int ncolors)
{
	int n = ncolors >= 16 ? 16 : 8;
	int best = 0;
	for (int i = 1; i < n; i++)
		if (dist2(c, ansi[i]) < dist2(c, ansi[best]))
			best = i;
	return best;
}
