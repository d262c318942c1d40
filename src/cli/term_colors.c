/* The colours a terminal type shows, from terminfo alone: the low-level
 * setupterm, no curses screen, so `gully render --ansi` picks its tier by
 * the explorer's rule (tui/crt.c detect_tier) without starting curses. Its
 * own file because <term.h> defines macros (columns, lines) that clash with
 * ordinary names. */
#include <stdio.h>
#include <string.h>

/* Before <term.h>, whose macros would rewrite its declarations. */
#include "cli/render_ansi.h"

#include <curses.h>
#include <term.h>

/* colors# of one entry (and its RGB flag); -1 when it is not in the database. */
static int entry_colors(const char *name, bool *rgb)
{
	int err = 0;
	TERMINAL *saved = cur_term;
	/* An fd of -1: setupterm asks no terminal anything, it only reads the entry. */
	if (setupterm((char *)name, -1, &err) != OK)
		return -1;
	/* -1 absent (vt100: no colour at all), -2 not a number: none. */
	int colors = tigetnum("colors");
	if (colors < 0)
		colors = 0;
	*rgb = tigetflag("RGB") > 0;
	del_curterm(cur_term);
	set_curterm(saved);
	return colors;
}

int term_colors(const char *name, bool *rgb)
{
	*rgb = false;
	if (!name || !*name)
		return -1;
	/* The Linux console shows 16 colours; its 16-colour entry says so (the
	 * explorer takes that entry too). */
	if (strcmp(name, "linux") == 0) {
		int n = entry_colors("linux-16color", rgb);
		if (n >= 0)
			return n;
	}
	return entry_colors(name, rgb);
}
