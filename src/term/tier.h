/* The colour tiers a terminal shows, shared by the explorer (tui) and
 * `gully render --ansi` (cli), so both take the same names and pick the
 * same tier on the same terminal. */
#ifndef GULLY_TERM_TIER_H
#define GULLY_TERM_TIER_H

#include <stdbool.h>

/* More colours, higher: a forced tier is capped at the terminal's by <. */
enum term_tier { TIER_NONE, TIER_8, TIER_16, TIER_256, TIER_TRUE, TIER_AUTO = -1 };

/* A tier by name, as --color and --ansi take it: truecolor (or 24bit,
 * direct), 256, 16, 8, none (or mono, 0); -1 for anything else. */
int term_tier_parse(const char *name);
/* The names as help texts and refusals list them. */
#define TERM_TIER_NAMES "truecolor (or 24bit), 256, 16, 8 or none"
/* The tier's name ("truecolor", ...), "auto" for TIER_AUTO. */
const char *term_tier_name(int tier);

/* What the environment asks for, before any screen: */
/* NO_COLOR is set (to anything but ""). */
bool term_no_color(void);
/* COLORTERM is truecolor or 24bit, in any case (as btop, neovim and bat
 * read it: TrueColor is seen in the wild). */
bool term_colorterm_truecolor(void);
/* The locale's character set is UTF-8: half blocks and shades, else ASCII. */
bool term_locale_utf8(void);
/* A TERM naming a direct-colour entry (*-direct): it asks for truecolor
 * even where the database lacks it. */
bool term_name_direct(const char *term);

/* terminfo.c: the colours terminfo gives, without starting curses. */
/* The tier of the entry loaded now (cur_term): RGB with 2^24 colours
 * truecolor, else by colors# (none below 8, or without colors#). */
enum term_tier term_entry_tier(void);
/* The entry to load for TERM: the Linux console shows 16 colours and its
 * 16-colour entry says so (linux says 8), when the database has it. */
const char *term_entry_name(const char *term);
/* The tier of TERM's entry (term_entry_name), read and dropped again
 * (cur_term as it was); -1 when TERM is unset, empty or not in the
 * database. */
int term_tier_of(const char *term);
/* Which of bold (TERM_EMPH_BOLD) and dim (TERM_EMPH_DIM) the entry loaded
 * now loses on coloured text: those its ncv names, and both when its setaf
 * ends in normal intensity (SGR 22 or 0), as the Linux console's 16-colour
 * entry's does: curses sends the attribute first and the colour after it,
 * so the colour turned it off again. */
#define TERM_EMPH_BOLD 1u
#define TERM_EMPH_DIM 2u
unsigned term_entry_emphasis_lost(void);
/* Whether the entry loaded now sends a bright background (colours 8-15)
 * as blink, as the Linux console's 16-colour entry does (its setab adds
 * SGR 5): such a map or sky would blink. */
bool term_entry_bright_bg_blinks(void);

#endif
