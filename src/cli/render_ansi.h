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
/* The whole map fitted to `columns` characters (0: the terminal's width),
 * two pixels a character, in the explorer's colours and light; without
 * utf8 (term_locale_utf8) an ASCII ramp (coloured in the tier). 0, or 1
 * when out of memory (said); whether fp took it all is the caller's to
 * check (cli_flush_stdout). */
int render_ansi(FILE *fp, const struct world *w, const struct params *p, unsigned overlays,
		int tier, int columns, bool utf8);

#endif
