/* gully render --ansi: the shaded map as terminal text on a stream. */
#ifndef GULLY_RENDER_ANSI_H
#define GULLY_RENDER_ANSI_H

#include <stdio.h>

#include "core/base/params.h"
#include "core/base/world.h"

enum ansi_tier { ANSI_NONE, ANSI_256, ANSI_TRUE };

/* "truecolor", "256" or "none"; NULL: from $NO_COLOR, $COLORTERM and $TERM.
 * -1 for another name. */
int render_ansi_tier(const char *name);
/* The whole map fitted to `columns` characters (0: the terminal's width),
 * two pixels a character, in the explorer's colours and light. 0 or 1. */
int render_ansi(FILE *fp, const struct world *w, const struct params *p, unsigned overlays,
		int tier, int columns);

#endif
