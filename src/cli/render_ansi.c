/* gully render --ansi: the shaded map on stdout as coloured half blocks, a
 * quick look over SSH and in scripts: two map pixels a character, truecolor,
 * xterm's 256 colours, or no colour (an ASCII density ramp). */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/render_ansi.h"
#include "view/shade.h"

int render_ansi_tier(const char *name)
{
	if (!name) {
		const char *ct = getenv("COLORTERM"), *term = getenv("TERM");
		if (getenv("NO_COLOR") && *getenv("NO_COLOR"))
			return ANSI_NONE;
		if (ct && (strcmp(ct, "truecolor") == 0 || strcmp(ct, "24bit") == 0))
			return ANSI_TRUE;
		if (term && strcmp(term, "dumb") == 0)
			return ANSI_NONE;
		return ANSI_256;
	}
	if (strcmp(name, "truecolor") == 0)
		return ANSI_TRUE;
	if (strcmp(name, "256") == 0)
		return ANSI_256;
	if (strcmp(name, "none") == 0)
		return ANSI_NONE;
	return -1;
}

static void colour(FILE *fp, int tier, bool bg, struct rgb c)
{
	if (tier == ANSI_TRUE)
		fprintf(fp, "\033[%d;2;%d;%d;%dm", bg ? 48 : 38, c.r, c.g, c.b);
	else
		fprintf(fp, "\033[%d;5;%dm", bg ? 48 : 38, palette_to_256(c));
}

/* The terminal's width, else $COLUMNS, else 80. */
static int terminal_columns(void)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	const char *c = getenv("COLUMNS");
	int n = c ? atoi(c) : 0;
	return n > 0 ? n : 80;
}

int render_ansi(FILE *fp, const struct world *w, const struct params *p, unsigned overlays,
		int tier, int columns)
{
	int cols = columns > 0 ? columns : terminal_columns();
	if (cols > w->width)
		cols = w->width;
	/* A character is about twice as tall as wide: two pixels a character
	 * keep the map's proportions. */
	int rows = (int)((long)cols * w->height / w->width);
	rows += rows & 1;
	if (rows < 2)
		rows = 2;
	struct shade_frame f;
	if (shade_frame_init(&f, cols, rows))
		return 1;
	struct shade_view v;
	memset(&v, 0, sizeof v);
	shade_view_from_params(&v, p);
	v.zoom = ZOOM_FIT;
	v.overlays = overlays;
	shade_render(&f, w, &v, NULL, 0);
	static const char ramp[] = " .:-=+*#%@";
	for (int y = 0; y < rows; y += 2) {
		for (int x = 0; x < cols; x++) {
			struct rgb top = f.px[y * cols + x], bottom = f.px[(y + 1) * cols + x];
			if (tier == ANSI_NONE) {
				double l = (palette_luma(top) + palette_luma(bottom)) / 2;
				fputc(ramp[(int)(l * 9.999)], fp);
				continue;
			}
			colour(fp, tier, false, top);
			colour(fp, tier, true, bottom);
			fputs("\xe2\x96\x80", fp); /* U+2580 upper half block */
		}
		fputs(tier == ANSI_NONE ? "\n" : "\033[0m\n", fp);
	}
	shade_frame_free(&f);
	return ferror(fp) ? 1 : 0;
}
