/* The explorer's entry point, called by the command line. */
#ifndef GULLY_TUI_H
#define GULLY_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/base/params.h"
#include "core/base/world.h"
#include "term/tier.h"

struct tui_options {
	struct params params;   /* after --set/--seed/--size */
	const char *process;    /* --process; NULL: the first in the table */
	const char *snapshot;   /* a snapshot to open, or NULL */
	const char *preset;     /* the preset the parameters came from, or NULL */
	bool resume;            /* open the autosave */
	int tier;               /* enum term_tier (term_tier_parse), or TIER_AUTO */
	int utf8;               /* -1 auto, 0 --ascii, 1 --utf8 */
	bool mouse;
	int theme;              /* -1 from COLORFGBG, 0 dark, 1 light */
	double fps;             /* frame cap */
	double speed;           /* --speed: units a second at most; 0 full speed */
	bool start_paused;      /* --paused: for tests and classes */
	long frames;            /* hidden --frames N: quit after N frames (benchmarks) */
	/* Optional: the first fresh world's heights (a height map given on the
	 * command line; params.world's size), instead of a generated terrain. */
	const float *heights;
	/* Optional: --hardness's grid (its own size), stretched over every new
	 * terrain while hardness.generator is file, as `gully run` loads it. */
	const float *hardness;
	int hardness_width, hardness_height;
};

/* The KEYS section of gully(1), generated from the key table. */
void tui_keys_man(FILE *fp);

/* The terminal library, as it names itself ("ncurses 6.4.20221231"). */
const char *tui_library_version(void);

/* Runs the explorer; returns an exit status. Errors before the screen starts
 * are printed as one line on stderr. */
int tui_main(const struct tui_options *o);

/* Where Ctrl-C (SIGINT), SIGHUP, SIGTERM and SIGQUIT save unsaved work:
 * $XDG_STATE_HOME/gully/autosave-DIR-HASH.gsnap or
 * ~/.local/state/gully/autosave-DIR-HASH.gsnap. false when neither can be
 * named. */
bool tui_autosave_path(char *buf, size_t len);

#endif
