/* Colours: the height ramp, the overlay colours and the reductions a
 * terminal tier needs (256-colour index, 16/8 colours, grey level).
 * Pure arithmetic: no curses, no I/O. */
#ifndef GULLY_PALETTE_H
#define GULLY_PALETTE_H

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
/* The nearest colour among xterm indices 16-231 (6x6x6 cube) and 232-255
 * (grey ramp); never 0-15, whose RGB values differ between terminals. */
int palette_to_256(struct rgb c);
/* The RGB an xterm shows for index 16-255. */
struct rgb palette_from_256(int index);
/* The nearest of the 8 (or 16, with bright) ANSI colours: 0-7 or 0-15. */
int palette_to_ansi(struct rgb c, int ncolors);

#endif
