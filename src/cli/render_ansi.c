/* gully render --ansi: the shaded map on stdout as coloured text, a quick
 * look over SSH and in scripts, drawn as the explorer would draw it on the
 * same terminal: two map pixels a character as half blocks (truecolor, 256
 * colours), one shaded pixel (16 or 8 colours), or, without a UTF-8 locale
 * or without colour, an ASCII density ramp. --layer picks what is drawn, in
 * the colours render's pictures give it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/picture.h"
#include "cli/render_ansi.h"
#include "core/base/resample.h"
#include "io/image.h"
#include "term/cell.h"
#include "term/tier.h"
#include "view/datamap.h"
#include "view/shade.h"

/* The explorer's rule (tui/crt.c: crt_init and detect_tier) on terminfo:
 * NO_COLOR none; COLORTERM truecolor; else the entry's colors#. */
static int auto_tier(void)
{
	const char *term = getenv("TERM");
	if (term_no_color())
		return TIER_NONE;
	if (term_colorterm_truecolor())
		return TIER_TRUE;
	if (term && strcmp(term, "dumb") == 0)
		return TIER_NONE;
	int tier = term_tier_of(term);
	/* Not in the database (or no TERM: a script): 256, what nearly every
	 * terminal shows; the explorer would refuse, render has no screen to lose. */
	if (tier < 0)
		return term_name_direct(term) ? TIER_TRUE : TIER_256;
	return tier;
}

int render_ansi_tier(const char *name)
{
	if (!name)
		return auto_tier();
	return term_tier_parse(name);
}

/* An ANSI colour index 0-15 as foreground or background. */
static void ansi_index(FILE *fp, bool bg, int i)
{
	fprintf(fp, "\033[%dm", (i < 8 ? 30 + i : 90 + i - 8) + (bg ? 10 : 0));
}

/* The tier's escape for colour c as foreground or background. */
static void colour(FILE *fp, int tier, bool bg, struct rgb c)
{
	if (tier == TIER_TRUE)
		fprintf(fp, "\033[%d;2;%d;%d;%dm", bg ? 48 : 38, c.r, c.g, c.b);
	else if (tier == TIER_256)
		fprintf(fp, "\033[%d;5;%dm", bg ? 48 : 38, palette_to_256(c));
	else
		ansi_index(fp, bg, palette_to_ansi(c, tier == TIER_16 ? 16 : 8));
}

/* One character for two pixels, as the explorer's crt_put_cell draws it
 * in column x. */
static void put_cell(FILE *fp, int tier, bool utf8, struct rgb top, struct rgb bottom, int x)
{
	static const char ramp[] = " .:-=+*#%@";
	struct rgb mix = palette_mix(top, bottom, 0.5);
	if (tier == TIER_NONE || !utf8) {
		char g = ramp[(int)(palette_luma(mix) * 9.999)];
		if (tier != TIER_NONE) {
			/* Painted on black so it reads the same on light terminals. */
			colour(fp, tier, false, mix);
			colour(fp, tier, true, (struct rgb){0, 0, 0});
			g = g == ' ' ? '.' : g;
		}
		fputc(g, fp);
	} else if (tier == TIER_16 || tier == TIER_8) {
		/* A file's reader: aixterm's bright backgrounds (100-107) do not blink. */
		struct term_shaded sc = term_cell_shaded(top, bottom, tier, false);
		ansi_index(fp, false, sc.fg);
		ansi_index(fp, true, sc.bg);
		fputs(sc.utf8, fp);
	} else if (tier == TIER_256) {
		int fg, bg;
		const bool lower = palette_to_256_pair(top, bottom, &fg, &bg) && palette_256_lower(x);
		fprintf(fp, "\033[38;5;%dm\033[48;5;%dm", fg, bg);
		/* U+2584 lower half block for a dithered pair's odd columns */
		fputs(lower ? "\xe2\x96\x84" : "\xe2\x96\x80", fp);
	} else {
		colour(fp, tier, false, top);
		colour(fp, tier, true, bottom);
		fputs("\xe2\x96\x80", fp); /* U+2580 upper half block */
	}
}

/* World layer `layer` fitted to cols x rows pixels, shaded as the explorer
 * draws it (and as render's pictures are: picture_view). NULL: no memory. */
static struct rgb *terrain_pixels(const struct world *w, const struct params *p, int layer,
				  unsigned overlays, int cols, int rows)
{
	struct shade_frame f;
	if (shade_frame_init(&f, cols, rows))
		return NULL;
	struct rgb *px = malloc((size_t)cols * (size_t)rows * sizeof *px);
	if (px) {
		struct shade_view v;
		picture_view(&v, w, layer, p, overlays);
		v.zoom = ZOOM_FIT;
		shade_render(&f, w, &v, NULL, 0);
		memcpy(px, f.px, (size_t)cols * (size_t)rows * sizeof *px);
	}
	shade_frame_free(&f);
	return px;
}

/* Data layer `which` fitted to cols x rows on its own ramp from the whole
 * map's min..max, with datamap_picture's legend rows below, as render's
 * data pictures are drawn. NULL: no memory. */
static struct rgb *data_pixels(const struct world *w, int which, int cols, int rows, float *mn,
			       float *mx)
{
	float *values = datamap_values(w, which);
	float *fit = malloc((size_t)cols * (size_t)rows * sizeof *fit);
	struct rgb *px = malloc((size_t)cols * (size_t)(rows + DATAMAP_LEGEND_ROWS) * sizeof *px);
	if (values && fit && px) {
		image_range(values, world_cells(w), mn, mx);
		grid_resample(values, w->width, w->height, fit, cols, rows);
		datamap_picture(fit, cols, rows, which, *mn, *mx, px);
	} else {
		free(px);
		px = NULL;
	}
	free(values);
	free(fit);
	return px;
}

/* Pixel rows y and y + 1 of px (cols wide) as one line of characters. */
static void put_line(FILE *fp, const struct rgb *px, int cols, int y, int tier, bool utf8)
{
	for (int x = 0; x < cols; x++)
		put_cell(fp, tier, utf8, px[y * cols + x], px[(y + 1) * cols + x], x);
	fputs(tier == TIER_NONE ? "\n" : "\033[0m\n", fp);
}

int render_ansi(FILE *fp, const struct world *w, const struct params *p,
		const struct render_ansi_opts *o, float *ramp_min, float *ramp_max)
{
	int cols = o->columns > 0 ? o->columns : cli_terminal_columns(STDOUT_FILENO);
	if (cols > w->width)
		cols = w->width;
	/* A character is about twice as tall as wide: two pixels a character
	 * keep the map's proportions. */
	int rows = (int)((long)cols * w->height / w->width);
	rows += rows & 1;
	if (rows < 2)
		rows = 2;
	int which = datamap_find(o->layer), layer = world_layer_find(o->layer);
	if (which < 0 && layer < 0) {
		cli_error("--ansi: no layer named '%s'", cli_quote(o->layer));
		return 1;
	}
	float mn = 0, mx = 0;
	struct rgb *px = which >= 0 ? data_pixels(w, which, cols, rows, &mn, &mx)
				    : terrain_pixels(w, p, layer, o->overlays, cols, rows);
	if (!px) {
		cli_error("--ansi: out of memory for a %dx%d map", cols, rows);
		return 1;
	}
	for (int y = 0; y < rows; y += 2)
		put_line(fp, px, cols, y, o->tier, o->utf8);
	/* A data layer's legend in one line: the ramp from min (left) to max
	 * (right), below its gap rows, which as half a line would only dim it. */
	if (which >= 0)
		put_line(fp, px, cols, rows + 2, o->tier, o->utf8);
	free(px);
	if (ramp_min)
		*ramp_min = mn;
	if (ramp_max)
		*ramp_max = mx;
	return 0;
}
