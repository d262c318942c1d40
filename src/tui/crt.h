/* The terminal layer (after htop's CRT.c): start and stop curses, pick the
 * colour tier and glyph set, and put pixels into cells. Everything else in
 * the explorer draws through these calls or plain curses text calls. */
#ifndef GULLY_CRT_H
#define GULLY_CRT_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>
#include <curses.h>

#include "term/tier.h"
#include "view/palette.h"

struct crt_options {
	int tier;        /* enum term_tier; TIER_AUTO picks from the terminal */
	int utf8;        /* 1 half blocks, 0 ASCII, -1 from the locale */
	bool mouse;
	int light;       /* 1 a light background, 0 dark, -1 from COLORFGBG */
};

struct crt_state {
	bool active;
	enum term_tier tier;
	bool utf8;
	bool mouse;
	int pairs_max;   /* colour pairs we may allocate */
	int pairs_used;
	unsigned resets; /* times the pair table filled up and was cleared */
	char note[160];  /* a fallback taken at start, for the status line */
	bool light;      /* a light background: glyph ramps run the other way */
	bool hung_up;    /* the terminal has gone (crt_getch saw it) */
	/* A_BOLD and A_DIM as this terminal loses them on coloured text, and
	 * the colours crt_attrset draws them in instead (emphasis_colours). */
	attr_t emph_lost;
	int bold_fg, dim_fg, text_bg;
	/* Backgrounds 8-15 blink here (term_entry_bright_bg_blinks): the map
	 * shades over 0-7, and any other background is taken down to 0-7. */
	bool dark_bg;
};
extern struct crt_state crt;

/* Whether COLORFGBG ("fg;bg", as rxvt, konsole and others set it) names a
 * light background (7 or 15, white or light grey). */
bool crt_colorfgbg_light(void);

/* Returns 0, or -1 when the terminal cannot be used (message in err). */
int crt_init(const struct crt_options *o, char *err, size_t errlen);
/* A key as getch() reads it, except that an escape sequence the terminal's
 * entry does not know (Ctrl- or Alt-arrows, keys of another terminal) is
 * one CRT_KEY_UNKNOWN, not an Esc and then its characters, each a key of
 * its own here: Ctrl-Left (\e[1;5D) under TERM=screen-256color once
 * cancelled a prompt, chose process 1 and ran D. */
#define CRT_KEY_UNKNOWN (1 << 24) /* past every curses key code */
/* When it reads nothing it also sees whether the terminal has hung up
 * (crt.hung_up; signals_caught() then reports SIGHUP). */
int crt_getch(void);
/* Restores the terminal; safe to call twice and from error paths. */
void crt_done(void);
/* Takes the terminal for gone (signals.c, when it takes no output after a
 * signal asked gully to end): stdout, and stderr when it is the terminal
 * too, go to /dev/null. Async-signal-safe. crt_done then restores only the
 * terminal's modes, on stdin. */
void crt_drop_output(void);

/* A map cell holding two vertical pixels (UTF-8 half block), or one pixel
 * made of both (ASCII and monochrome: a density ramp; without colour '~'
 * on a pool and ':' on a stream). water_*: enum shade_water. */
void crt_put_cell(int y, int x, struct rgb top, struct rgb bottom, int water_top,
		  int water_bottom);
/* The glyph the map draws without colour for a colour, or for water of an
 * overlay (OVERLAY_STREAMS, OVERLAY_POOLS). */
wchar_t crt_ramp_glyph(struct rgb c);
wchar_t crt_water_glyph(int overlay);
/* A blank map cell outside the world. */
void crt_put_blank(int y, int x);
/* A marker drawn over the map (the emitter): a plain character that reads
 * in every tier, black on yellow with colour, reverse bold without. */
void crt_put_mark(int y, int x, char glyph);
/* attrset for text in the theme's colours: bold and dim where the terminal
 * loses them with colour (the Linux console) become colours of their own. */
void crt_attrset(attr_t attrs);
/* Lines and boxes: Unicode line drawing with UTF-8, else - | +. A box of
 * h x w at (y, x) with a rule across it at row `rule` (-1 for none). */
void crt_vline(int y, int x, int n);
void crt_box(int y, int x, int h, int w, int rule);
/* One character in fg on bg: `wide` with UTF-8, `ascii` without; plain
 * (no colour) in monochrome, so `ascii` must read on its own there. */
void crt_put_glyph(int y, int x, wchar_t wide, char ascii, struct rgb fg, struct rgb bg);
/* Two cells showing a colour, for the legend (a glyph when no colour). */
void crt_put_swatch(int y, int x, struct rgb c, char glyph);

#endif
