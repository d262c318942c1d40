/* gully render --ansi: the shaded map as terminal text on a stream. */
#ifndef GULLY_RENDER_ANSI_H
#define GULLY_RENDER_ANSI_H

#include <stdio.h>

#include "core/base/params.h"
#include "core/base/world.h"

#include <stdbool.h>

/* A tier by name as the explorer's --color takes it (term_tier_parse);
 * NULL: the terminal's, by the explorer's rule ($NO_COLOR, $COLORTERM,
 * then terminfo's colors for $TERM; 256 when TERM is not in the
 * database). -1 for another name. */
int render_ansi_tier(const char *name);
struct render_ansi_opts {
	const char *layer; /* a world layer or a data layer (view/datamap.h) by name */
	unsigned overlays; /* OVERLAY_BIT()s, over a world layer */
	int tier;          /* TIER_* */
	int columns;       /* characters wide; 0: the terminal's width */
	bool utf8;         /* term_locale_utf8(): without it an ASCII ramp */
};
/* The whole map fitted to o->columns characters, two pixels a character, in
 * the colours render's pictures give o->layer: a world layer in the
 * explorer's colours and light (another than height on its ramp), a data
 * layer on its own ramp with a one-line legend under it, its ramp's ends in
 * *ramp_min and *ramp_max (may be NULL; 0 for a world layer). Without utf8
 * an ASCII ramp (coloured in the tier). 0, or 1 when out of memory (said);
 * whether fp took it all is the caller's to check (cli_flush_stdout). */
int render_ansi(FILE *fp, const struct world *w, const struct params *p,
		const struct render_ansi_opts *o, float *ramp_min, float *ramp_max);

#endif
