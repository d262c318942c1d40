/* What one map cell shows in 16 or 8 colours, for the explorer's map
 * (curses) and `gully render --ansi` (escapes on a stream) alike. */
#ifndef GULLY_TERM_CELL_H
#define GULLY_TERM_CELL_H

#include <stdbool.h>
#include <wchar.h>

#include "view/palette.h"

/* A cell of ANSI colours 0-15 (0-7 in 8 colours): fg over bg through a
 * shading glyph, as UTF-8 and as a wide character. */
struct term_shaded {
	int fg, bg;
	const char *utf8;
	wchar_t wide;
};
/* The cell's two pixels mixed into one, shaded (palette_to_ansi_shade) in
 * the tier's colours (TIER_16, else 8); with dark_bg the background is one
 * of the first 8 (term_entry_bright_bg_blinks). */
struct term_shaded term_cell_shaded(struct rgb top, struct rgb bottom, int tier, bool dark_bg);

#endif
