#include "view/palette.h"

#include <math.h>
#include <stdbool.h>
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

/* ---- nearest colours in a perceptual space ----
 * OKLab (Ottosson 2020): sRGB decoded to linear light, then a cone-response
 * matrix, a cube root and a second matrix, so Euclidean distance follows
 * how different two colours look. The 6x6x6 cube alone leaves big steps
 * in the dark greens and browns of the height ramp; the 24 greys fill the
 * neutral axis between them, and choosing among all 240 by this distance
 * (rather than channel by channel) keeps the ramp's hue. */

static double srgb_linear(uint8_t v)
{
	double c = v / 255.0;
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static struct lab lab_of_linear(double r, double g, double b)
{
	double l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
	double m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
	double s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
	return (struct lab){0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
			    1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
			    0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s};
}

struct lab palette_oklab(struct rgb c)
{
	return lab_of_linear(srgb_linear(c.r), srgb_linear(c.g), srgb_linear(c.b));
}

double palette_distance(struct rgb a, struct rgb b)
{
	struct lab p = palette_oklab(a), q = palette_oklab(b);
	double dl = p.l - q.l, da = p.a - q.a, db = p.b - q.b;
	return dl * dl + da * da + db * db;
}

/* The 240 entries in OKLab, made once per thread. */
static _Thread_local struct lab xterm_lab[240];
static _Thread_local double xterm_linear[240][3];
static _Thread_local bool xterm_lab_made;

static int nearest_256(struct rgb c)
{
	if (!xterm_lab_made) {
		for (int i = 0; i < 240; i++) {
			struct rgb e = palette_from_256(16 + i);
			xterm_lab[i] = palette_oklab(e);
			xterm_linear[i][0] = srgb_linear(e.r);
			xterm_linear[i][1] = srgb_linear(e.g);
			xterm_linear[i][2] = srgb_linear(e.b);
		}
		xterm_lab_made = true;
	}
	struct lab p = palette_oklab(c);
	int best = 0;
	double best_d = INFINITY;
	for (int i = 0; i < 240; i++) {
		double dl = p.l - xterm_lab[i].l, da = p.a - xterm_lab[i].a, db = p.b - xterm_lab[i].b;
		double d = dl * dl + da * da + db * db;
		if (d < best_d) {
			best_d = d;
			best = i;
		}
	}
	return 16 + best;
}

/* A frame asks for the same few hundred colours again and again: the
 * exact answer is kept per colour in a direct-mapped table. */
#define CACHE_BITS 14
static _Thread_local uint32_t cache_key[1 << CACHE_BITS]; /* rgb + 1, 0 empty */
static _Thread_local uint8_t cache_val[1 << CACHE_BITS];

int palette_to_256(struct rgb c)
{
	uint32_t key = ((uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b) + 1;
	uint32_t h = (key * 2654435761u) >> (32 - CACHE_BITS);
	if (cache_key[h] == key)
		return cache_val[h];
	int idx = nearest_256(c);
	cache_key[h] = key;
	cache_val[h] = (uint8_t)idx;
	return idx;
}

/* ---- two pixels of a half block, dithered ----
 * Where a cell's two pixels are nearly one colour and that colour falls
 * between palette entries, both pixels would show the same entry and the
 * whole smooth area takes one step; showing the nearest entry in one half
 * and its best partner in the other lets the eye average the pair to a
 * colour between. The pattern is ordered (fixed to the screen, so it does
 * not crawl as the map changes) and a checkerboard: the nearest entry on
 * top in even columns and below in odd ones. Rows of one colour, as a
 * 2x1 pattern gives, read as stripes; the checkerboard is finer, and
 * costs no colour codes, since the odd columns draw the same colours
 * through a lower half block. The partner is the entry that brings the
 * pair's mean, in linear light, nearest the cell's colour in OKLab, kept
 * only when it is clearly nearer than the plain entry. */

/* Pixels further apart than this in some channel are an edge: no dither. */
#define DITHER_SMOOTH 12
/* The pair must beat the single entry by this factor in squared distance. */
#define DITHER_GAIN 0.5

static int dither_partner(struct rgb c, int first)
{
	if (!xterm_lab_made)
		nearest_256(c); /* makes the table */
	struct lab want = palette_oklab(c);
	const double *e = xterm_linear[first - 16];
	struct lab p = xterm_lab[first - 16];
	double dl = want.l - p.l, da = want.a - p.a, db = want.b - p.b;
	double alone = dl * dl + da * da + db * db, best_d = alone * DITHER_GAIN;
	int best = first;
	for (int i = 16; i < 256; i++) {
		const double *q = xterm_linear[i - 16];
		struct lab m = lab_of_linear((e[0] + q[0]) / 2, (e[1] + q[1]) / 2, (e[2] + q[2]) / 2);
		dl = want.l - m.l;
		da = want.a - m.a;
		db = want.b - m.b;
		double d = dl * dl + da * da + db * db;
		if (d < best_d) {
			best_d = d;
			best = i;
		}
	}
	return best;
}

static _Thread_local uint32_t pair_key[1 << CACHE_BITS];
static _Thread_local uint8_t pair_val[1 << CACHE_BITS];

bool palette_to_256_pair(struct rgb top, struct rgb bottom, int *fg, int *bg)
{
	*fg = palette_to_256(top);
	*bg = palette_to_256(bottom);
	if (*fg != *bg || abs(top.r - bottom.r) > DITHER_SMOOTH ||
	    abs(top.g - bottom.g) > DITHER_SMOOTH || abs(top.b - bottom.b) > DITHER_SMOOTH)
		return false;
	struct rgb c = palette_mix(top, bottom, 0.5);
	uint32_t key = ((uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b) + 1;
	uint32_t h = (key * 2654435761u) >> (32 - CACHE_BITS);
	if (pair_key[h] != key) {
		pair_key[h] = key;
		pair_val[h] = (uint8_t)dither_partner(c, palette_to_256(c));
	}
	/* The cell's own nearest in the foreground, its partner behind. */
	*fg = palette_to_256(c);
	*bg = pair_val[h];
	return *fg != *bg;
}

bool palette_256_lower(int column)
{
	return column & 1;
}

/* The VGA-like values most terminals use for the ANSI colours. */
static const struct rgb ansi[16] = {
	{0, 0, 0}, {170, 0, 0}, {0, 170, 0}, {170, 85, 0},
	{0, 0, 170}, {170, 0, 170}, {0, 170, 170}, {170, 170, 170},
	{85, 85, 85}, {255, 85, 85}, {85, 255, 85}, {255, 255, 85},
	{85, 85, 255}, {255, 85, 255}, {85, 255, 255}, {255, 255, 255},
};

struct rgb palette_from_ansi(int index)
{
	return ansi[index >= 0 && index < 16 ? index : 0];
}

int palette_to_ansi(struct rgb c, int ncolors)
{
	int n = ncolors >= 16 ? 16 : 8;
	int best = 0;
	for (int i = 1; i < n; i++)
		if (dist2(c, ansi[i]) < dist2(c, ansi[best]))
			best = i;
	return best;
}

int palette_to_ansi_but(struct rgb c, int ncolors, int not)
{
	int n = ncolors >= 16 ? 16 : 8;
	int best = not == 0 ? 1 : 0;
	for (int i = 0; i < n; i++)
		if (i != not && dist2(c, ansi[i]) < dist2(c, ansi[best]))
			best = i;
	return best;
}

/* ---- 16 and 8 colours: two colours and a shading glyph per cell ----
 * Eight or sixteen flat colours band the height ramp into a few patches;
 * a foreground colour over a background one through a shading glyph
 * (25, 50 or 75 per cent foreground) gives each pair three mixes between
 * them, which is what keeps the relief readable. The mix is taken in
 * linear light (what the eye averages over a glyph), compared in OKLab. */

static const double shade_cover[PALETTE_SHADES] = {0, 0.25, 0.5, 0.75};

/* Every (fg, bg, glyph) of 16 colours as it looks, made once per thread. */
static _Thread_local struct lab mix_lab[16][16][PALETTE_SHADES];
static _Thread_local bool mix_made;

static void make_mixes(void)
{
	for (int f = 0; f < 16; f++)
		for (int b = 0; b < 16; b++)
			for (int k = 0; k < PALETTE_SHADES; k++) {
				double t = shade_cover[k];
				double r = t * srgb_linear(ansi[f].r) + (1 - t) * srgb_linear(ansi[b].r);
				double g = t * srgb_linear(ansi[f].g) + (1 - t) * srgb_linear(ansi[b].g);
				double bl = t * srgb_linear(ansi[f].b) + (1 - t) * srgb_linear(ansi[b].b);
				mix_lab[f][b][k] = lab_of_linear(r, g, bl);
			}
	mix_made = true;
}

static struct palette_cell nearest_shade(struct rgb c, int nfg, int nbg)
{
	if (!mix_made)
		make_mixes();
	struct lab p = palette_oklab(c);
	struct palette_cell best = {0, 0, 0};
	double best_d = INFINITY;
	for (int b = 0; b < nbg; b++)
		for (int f = 0; f < nfg; f++)
			for (int k = f == b ? 0 : 1; k < (f == b ? 1 : PALETTE_SHADES); k++) {
				const struct lab *q = &mix_lab[f][b][k];
				double dl = p.l - q->l, da = p.a - q->a, db = p.b - q->b;
				double d = dl * dl + da * da + db * db;
				if (d < best_d) {
					best_d = d;
					best = (struct palette_cell){f, b, k};
				}
			}
	return best;
}

static _Thread_local uint32_t shade_key[1 << CACHE_BITS];
static _Thread_local struct palette_cell shade_val[1 << CACHE_BITS];

struct palette_cell palette_to_ansi_shade(struct rgb c, int nfg, int nbg)
{
	nfg = nfg >= 16 ? 16 : 8;
	nbg = nbg >= 16 ? 16 : 8;
	uint32_t key = (((uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b) + 1) << 2 |
		       (uint32_t)(nfg == 16) | (uint32_t)(nbg == 16) << 1;
	uint32_t h = (key * 2654435761u) >> (32 - CACHE_BITS);
	if (shade_key[h] == key)
		return shade_val[h];
	struct palette_cell r = nearest_shade(c, nfg, nbg);
	shade_key[h] = key;
	shade_val[h] = r;
	return r;
}
