/* Colours: the height ramp, the overlay colours and the reductions a
 * terminal tier needs (256-colour index, 16/8 colours, grey level).
 * Pure arithmetic: no curses, no I/O. */
#ifndef GULLY_PALETTE_H
#define GULLY_PALETTE_H

#include <stdbool.h>
#include <stdint.h>

struct rgb {
	uint8_t r, g, b;
};

/* Overlay colours, chosen to read on both light and dark terminals because the
 * map always paints its own background. */
extern const struct rgb palette_stream;     /* light blue */
extern const struct rgb palette_pool_shallow;
extern const struct rgb palette_pool_deep;  /* dark blue */
extern const struct rgb palette_erode;      /* red: height below base */
extern const struct rgb palette_deposit;    /* green: height above base */
extern const struct rgb palette_hard;       /* violet */
extern const struct rgb palette_wet;        /* dark slate */
extern const struct rgb palette_particle;   /* yellow */
extern const struct rgb palette_tree;       /* forest green, darker than deposition */

/* The height ramp: lowland green, tan, brown, grey rock, snow. h is clamped
 * to [0, 1]; h = 0 and h = 1 give the end stops exactly. */
struct rgb palette_height(double h);
int palette_ramp_stops(void);
/* Height and colour of stop i (for the legend). */
struct rgb palette_ramp_stop(int i, double *h);

static inline int palette_equal(struct rgb a, struct rgb b)
{
	return a.r == b.r && a.g == b.g && a.b == b.b;
}

/* a + (b - a) t, t clamped to [0, 1], rounded. */
struct rgb palette_mix(struct rgb a, struct rgb b, double t);
/* Each channel times k, clamped to 0..255. */
struct rgb palette_scale(struct rgb c, double k);
/* Perceived lightness 0..1 (Rec. 709 weights). */
double palette_luma(struct rgb c);
/* Keeps the top `bits` bits of each channel, centred in their bucket, so a
 * frame only ever uses a small, stable set of colours. */
struct rgb palette_quantise(struct rgb c, int bits);
/* OKLab: lightness l (0 black, 1 white) and the two opponent axes. */
struct lab {
	double l, a, b;
};
struct lab palette_oklab(struct rgb c);
/* Squared distance in OKLab: how different two colours look. */
double palette_distance(struct rgb a, struct rgb b);
/* The nearest colour by palette_distance among xterm indices 16-231 (6x6x6
 * cube) and 232-255 (grey ramp) together; never 0-15, whose RGB values
 * differ between terminals. */
int palette_to_256(struct rgb c);
/* A half block's two pixels in 256 colours: each its nearest entry (fg
 * the top, bg the bottom), but where the two are nearly one colour that
 * sits between entries, the cell's nearest entry and the partner that
 * brings the pair's mean nearest (an ordered dither); fg == bg when no pair
 * is better. Returns true for such a pair: the caller draws it up on even
 * columns and down on odd ones (a checkerboard; palette_256_lower). */
bool palette_to_256_pair(struct rgb top, struct rgb bottom, int *fg, int *bg);
/* Whether a dithered pair at this column shows its fg in the lower half
 * (a lower half block, U+2584, with the same colours): odd columns. */
bool palette_256_lower(int column);
/* The RGB an xterm shows for index 16-255. */
struct rgb palette_from_256(int index);
/* The nearest of the 8 (or 16, with bright) ANSI colours: 0-7 or 0-15. */
int palette_to_ansi(struct rgb c, int ncolors);
/* The nearest of them but `not`: a glyph whose colour and background fall
 * on one colour would vanish (light ground on a light theme's white). */
int palette_to_ansi_but(struct rgb c, int ncolors, int not);
/* The RGB most terminals show for ANSI colour 0-15. */
struct rgb palette_from_ansi(int index);

/* A cell of 8 or 16 colours: foreground over background through a shading
 * glyph covering shade/4 of the cell (0 a space: the background alone; 1,
 * 2, 3 the light, medium and dark shades). */
#define PALETTE_SHADES 4
struct palette_cell {
	int fg, bg, shade;
};
/* The (fg, bg, shade) that looks nearest to c (OKLab, mixed in linear
 * light), fg one of the first nfg ANSI colours and bg of the first nbg (8
 * or 16 each: a terminal whose bright backgrounds blink takes 8); fg == bg
 * only with shade 0. */
struct palette_cell palette_to_ansi_shade(struct rgb c, int nfg, int nbg);

#endif
