/* The 16/8-colour cell: too few colours for two pixels a cell, so one
 * pixel, made of two colours through a shading glyph, the relief still
 * reading. */
#include "term/cell.h"
#include "term/tier.h"

struct term_shaded term_cell_shaded(struct rgb top, struct rgb bottom, int tier, bool dark_bg)
{
	static const char *const utf8[PALETTE_SHADES] = {" ", "\xe2\x96\x91", "\xe2\x96\x92",
							 "\xe2\x96\x93"};
	static const wchar_t wide[PALETTE_SHADES] = {L' ', L'\u2591', L'\u2592', L'\u2593'};
	const int n = tier == TIER_16 ? 16 : 8;
	struct palette_cell pc = palette_to_ansi_shade(palette_mix(top, bottom, 0.5), n,
						       dark_bg ? 8 : n);
	/* A space shows no foreground: one fixed for each background (white
	 * on black, else black) so cells of one colour are one colour pair. */
	int fg = pc.shade ? pc.fg : pc.bg == 0 ? 7 : 0;
	return (struct term_shaded){fg, pc.bg, utf8[pc.shade], wide[pc.shade]};
}
