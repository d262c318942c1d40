/* The colours a terminal type shows, from terminfo alone: the low-level
 * setupterm, no curses screen, so `gully render --ansi` picks its tier as
 * the explorer does (the explorer asks the same of the entry its screen
 * runs on). Its own file because <term.h> defines macros (columns, lines)
 * that clash with ordinary names. */
#include <stdlib.h>
#include <string.h>

/* Before <term.h>, whose macros would rewrite its declarations. */
#include "term/tier.h"

#include <curses.h>
#include <term.h>

enum term_tier term_entry_tier(void)
{
	/* -1 absent (vt100: no colour at all), -2 not a number: none. */
	int colors = tigetnum("colors");
	if (tigetflag("RGB") > 0 && colors >= 0x1000000)
		return TIER_TRUE;
	return colors >= 256 ? TIER_256 : colors >= 16 ? TIER_16 : colors >= 8 ? TIER_8 : TIER_NONE;
}

/* Loads `name` into a new cur_term, the old one kept in *saved; false
 * when the database lacks it. An fd of -1: nothing is asked of a terminal,
 * only the entry is read. */
static bool entry_load(const char *name, TERMINAL **saved)
{
	int err = 0;
	*saved = cur_term;
	if (setupterm((char *)name, -1, &err) == OK)
		return true;
	set_curterm(*saved);
	return false;
}

static void entry_unload(TERMINAL *saved)
{
	del_curterm(cur_term);
	set_curterm(saved);
}

const char *term_entry_name(const char *term)
{
	TERMINAL *saved;
	if (term && strcmp(term, "linux") == 0 && entry_load("linux-16color", &saved)) {
		entry_unload(saved);
		return "linux-16color";
	}
	return term;
}

int term_tier_of(const char *term)
{
	TERMINAL *saved;
	if (!term || !*term || !entry_load(term_entry_name(term), &saved))
		return -1;
	int tier = term_entry_tier();
	entry_unload(saved);
	return tier;
}

/* Whether an SGR sequence in s has a parameter a or b (an empty one
 * counts as 0). */
static bool sgr_has(const char *s, long a, long b)
{
	for (const char *p = strstr(s, "\033["); p; p = strstr(p + 1, "\033[")) {
		const char *q = p + 2;
		size_t n = strspn(q, "0123456789;");
		if (q[n] != 'm')
			continue;
		for (const char *f = q; f <= q + n;) {
			char *end;
			long v = strtol(f, &end, 10);
			if (v == a || v == b)
				return true;
			if (v == 38 || v == 48)
				break; /* the rest are a colour's numbers, 0 among them */
			f = end + 1;
		}
	}
	return false;
}

unsigned term_entry_emphasis_lost(void)
{
	unsigned lost = 0;
	/* terminfo(5)'s ncv bits: 4 dim, 5 bold. */
	int ncv = tigetnum("ncv");
	if (ncv > 0) {
		lost |= ncv & (1 << 5) ? TERM_EMPH_BOLD : 0;
		lost |= ncv & (1 << 4) ? TERM_EMPH_DIM : 0;
	}
	const char *setaf = tigetstr("setaf");
	if (setaf && setaf != (const char *)-1 && *setaf) {
		const char *white = tiparm(setaf, COLOR_WHITE);
		/* Normal intensity: SGR 22, or 0, which resets everything. */
		if (white && sgr_has(white, 0, 22))
			lost |= TERM_EMPH_BOLD | TERM_EMPH_DIM;
	}
	return lost;
}

bool term_entry_bright_bg_blinks(void)
{
	if (tigetnum("colors") < 16)
		return false;
	const char *setab = tigetstr("setab");
	if (!setab || setab == (const char *)-1 || !*setab)
		return false;
	const char *bright = tiparm(setab, 15);
	return bright && sgr_has(bright, 5, 5);
}
