/* The legend under the side panel: the height ramp with the heights its
 * colours stand for, and each overlay shown with its colours and the values
 * they mean. Its swatches are drawn by the map's own cell call, so in every
 * colour tier and glyph set they look exactly like the map. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"
#include "tui/crt.h"

/* The heights' range over one layer (finite values only). */
static bool layer_range(const struct world *w, int layer, float *lo, float *hi)
{
	const float *L = w->layer[layer];
	size_t n = world_cells(w);
	float mn = INFINITY, mx = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (L[i] < mn)
			mn = L[i];
		if (L[i] > mx)
			mx = L[i];
	}
	if (!(isfinite(mn) && isfinite(mx)))
		return false;
	*lo = mn;
	*hi = mx;
	return true;
}

static void fit_to(struct app *a, float lo, float hi)
{
	/* A flat map gets a range around its height, so it shows the ramp's
	 * middle rather than one end. */
	if (!(hi - lo > 1e-6f)) {
		lo -= 0.5f;
		hi += 0.5f;
	}
	a->view.height_lo = lo;
	a->view.height_hi = hi;
}

void legend_fit_now(struct app *a)
{
	float lo, hi;
	if (layer_range(a->world, LAYER_HEIGHT, &lo, &hi))
		fit_to(a, lo, hi);
	a->fitted_world = a->world;
}

void legend_fit_if_new(struct app *a)
{
	if (a->fitted_world == a->world)
		return;
	/* Fitted to the terrain as it was made (the base layer), so undo,
	 * which swaps in another copy of the same terrain, keeps the colours;
	 * a new terrain or a loaded file gets its own. */
	float lo, hi;
	if (layer_range(a->world, LAYER_BASE, &lo, &hi) &&
	    (lo != a->fitted_base_lo || hi != a->fitted_base_hi || !a->fitted_world)) {
		a->fitted_base_lo = lo;
		a->fitted_base_hi = hi;
		fit_to(a, lo, hi);
	}
	a->fitted_world = a->world;
}

static void text(int y, int x, int w, attr_t attr, const char *s)
{
	crt_attrset(attr);
	mvprintw(y, x, "%-*.*s", w, w, s);
	crt_attrset(A_NORMAL);
}

/* A one-cell swatch of the colour an overlay gives sample s on grey ground. */
static void overlay_swatch(int y, int x, unsigned overlay_bit, struct shade_sample s)
{
	struct rgb ground = {128, 128, 128};
	bool water = false;
	struct rgb c = shade_overlay_blend(ground, &s, overlay_bit, &water);
	int kind = shade_water_kind(&s, overlay_bit, water);
	crt_put_cell(y, x, c, c, kind, kind);
}

struct legend_row {
	int overlay;
	const char *label;
	const char *fmt;          /* one format for the row's three values; NULL: fitted */
	double values[3];
};

/* What each overlay's colours mean. Heights, depths and height changes are
 * in the map's height units (%.3f); shares and densities 0..1 (%.2f). The
 * erosion rows are shares of the scale the map fits to (shade_erosion_fit),
 * shown as height changes, whose size the map decides (fmt NULL: see
 * legend_value). */
static const struct legend_row rows_of[] = {
	{OVERLAY_STREAMS, "streams", "%.2f", {0.10, 0.50, 1.00}},
	{OVERLAY_POOLS, "pools", "%.3f", {0.005, 0.020, SHADE_POOL_FULL}},
	{OVERLAY_EROSION, "eroded", NULL, {-0.04, -0.2, -1.0}},
	{OVERLAY_EROSION, "deposits", NULL, {0.04, 0.2, 1.0}},
	{OVERLAY_HARDNESS, "hardness", "%.2f", {0.00, 0.50, 1.00}},
	{OVERLAY_WETNESS, "wetness", "%.2f", {0.25, 0.50, 1.00}},
	{OVERLAY_VEGETATION, "trees", "%.2f", {0.20, 0.50, SHADE_TREES_FULL}},
};
#define NROWS ((int)(sizeof rows_of / sizeof rows_of[0]))

static struct shade_sample sample_for(int overlay, double v)
{
	struct shade_sample s = {.height = 0.5f, .base = 0.5f};
	switch (overlay) {
	case OVERLAY_STREAMS: s.stream = (float)v; break;
	case OVERLAY_POOLS: s.pool = (float)v; break;
	case OVERLAY_EROSION: s.height = (float)(0.5 + v); break;
	case OVERLAY_HARDNESS: s.hardness = (float)v; break;
	case OVERLAY_WETNESS: s.wetness = (float)v; break;
	case OVERLAY_VEGETATION: s.vegetation = (float)v; break;
	default: break;
	}
	return s;
}

int legend_lines(const struct app *a)
{
	int n = 3; /* title, ramp, its values */
	for (int r = 0; r < NROWS; r++)
		n += (a->view.overlays & OVERLAY_BIT(rows_of[r].overlay)) != 0;
	n += (a->view.overlays & OVERLAY_BIT(OVERLAY_PARTICLES)) != 0;
	return n;
}

static void ramp_rows(struct app *a, int y, int x, int w)
{
	/* The ramp as the map draws flat ground, left (low) to right (high). */
	int cells = w - 1;
	for (int i = 0; i < cells; i++) {
		double t = cells > 1 ? (double)i / (cells - 1) : 0;
		struct rgb c = palette_height(t);
		crt_put_cell(y, x + 1 + i, c, c, false, false);
	}
	/* min, max and two heights between, under their places on the ramp. */
	char v[4][16];
	for (int k = 0; k < 4; k++)
		snprintf(v[k], sizeof v[k], "%.3f", shade_ramp_height(&a->view, k / 3.0));
	char buf[96];
	int len = (int)strlen(v[3]);
	memset(buf, ' ', sizeof buf);
	buf[w < (int)sizeof buf ? w : (int)sizeof buf - 1] = '\0';
	for (int k = 0; k < 4; k++) {
		int at = 1 + (int)lround(k / 3.0 * (w - 1 - len));
		if (at + (int)strlen(v[k]) < (int)sizeof buf && at + (int)strlen(v[k]) <= w)
			memcpy(buf + at, v[k], strlen(v[k]));
	}
	text(y + 1, x, w, A_NORMAL, buf);
}

/* How a row writes its three values, tried in this order until the row
 * fits the panel; every value of a row in one style, so a row never mixes
 * "4e-05" with ".0002". */
enum legend_style {
	LEGEND_PLAIN,   /* the row's format; a fitted row's decimals (0.00004) */
	LEGEND_COMPACT, /* the same without the 0 before the point (.00004) */
	LEGEND_EXP1,    /* a fitted row's exponent form, two digits (4.9e-5) */
	LEGEND_EXP0,    /* one digit (5e-5) */
	LEGEND_STYLES
};

/* Drops the '+' and the leading zeros of an exponent: 4.9e-05 as 4.9e-5. */
static void short_exponent(char *s)
{
	char *e = strchr(s, 'e');
	if (!e)
		return;
	char *src = e + 1, *dst = e + 1;
	if (*src == '+')
		src++;
	else if (*src == '-')
		*dst++ = *src++;
	while (*src == '0' && src[1])
		src++;
	memmove(dst, src, strlen(src) + 1);
}

/* v >= 0 in decimals with two significant digits (0.000049, 0.2, 12), no
 * exponent and no trailing zeros. */
static void plain_value(char *out, size_t len, double v)
{
	int d = v > 0 ? 1 - (int)floor(log10(v)) : 0;
	d = d < 0 ? 0 : d > 12 ? 12 : d;
	snprintf(out, len, "%.*f", d, v);
	char *dot = strchr(out, '.');
	if (!dot)
		return;
	char *end = out + strlen(out) - 1;
	while (end > dot && *end == '0')
		*end-- = '\0';
	if (end == dot)
		*end = '\0';
}

/* One value in the row's style (a fixed-format row knows the first two). */
static void legend_value(char *out, size_t len, const char *fmt, double v,
			 enum legend_style style)
{
	char buf[40];
	if (fmt || style <= LEGEND_COMPACT) {
		if (fmt)
			snprintf(buf, sizeof buf, fmt, v);
		else
			plain_value(buf, sizeof buf, v);
	} else {
		snprintf(buf, sizeof buf, style == LEGEND_EXP1 ? "%.1e" : "%.0e", v);
		short_exponent(buf);
	}
	const bool compact = style == LEGEND_COMPACT && buf[0] == '0' && buf[1] == '.';
	snprintf(out, len, "%s", compact ? buf + 1 : buf);
}

/* A row's text: its label, then three values each after a cell left for
 * its swatch, whose columns go to at[]. Returns the text's length (96 at
 * most). */
static int legend_row_text(const struct legend_row *row, double scale, enum legend_style style,
			   char line[96], int at[3])
{
	int n = snprintf(line, 96, "%-8s ", row->label);
	for (int k = 0; k < 3; k++) {
		char v[40];
		legend_value(v, sizeof v, row->fmt, fabs(row->values[k] * scale), style);
		at[k] = n;
		int m = snprintf(line + n, 96 - (size_t)n, k < 2 ? " %s " : " %s", v);
		n = n + m < 95 ? n + m : 95;
	}
	return n;
}

/* In place of the rows that do not fit: how many, and what makes room. */
static int more_rows(int y, int x, int w, int n)
{
	char buf[64];
	snprintf(buf, sizeof buf, " ...%d more: fewer overlays", n);
	text(y, x, w, A_DIM, buf);
	return 1;
}

int legend_draw(struct app *a, int y, int x, int w, int bottom)
{
	int y0 = y;
	if (y >= bottom)
		return 0;
	text(y++, x, w, A_BOLD, "-- legend (c re-fits) --");
	if (y + 1 >= bottom)
		return y - y0;
	text(y, x, w, A_NORMAL, "");
	ramp_rows(a, y, x, w);
	y += 2;
	double erosion_full = 0;
	if (a->view.overlays & OVERLAY_BIT(OVERLAY_EROSION))
		erosion_full = a->view.erosion_full > 0 ? a->view.erosion_full
							: shade_erosion_fit(a->world);
	/* The overlays' rows still to draw: when they do not all fit, the last
	 * row there is says how many went, rather than the legend ending as
	 * if it were whole (at 80x24 with six overlays on, wetness, trees and
	 * the droplet paths would go without a word, their colours unnamed). */
	int left = legend_lines(a) - 3;
	for (int r = 0; r < NROWS && y < bottom; r++) {
		const struct legend_row *row = &rows_of[r];
		if (!(a->view.overlays & OVERLAY_BIT(row->overlay)))
			continue;
		if (y == bottom - 1 && left > 1)
			return y + more_rows(y, x, w, left) - y0;
		left--;
		double scale = row->overlay == OVERLAY_EROSION ? erosion_full : 1;
		char line[96];
		int at[3];
		/* Too wide for the panel: the values without their leading 0s,
		 * then (a fitted row) in exponent form, all three alike. */
		const int styles = row->fmt ? LEGEND_EXP1 : LEGEND_STYLES;
		for (int st = 0; st < styles; st++)
			if (legend_row_text(row, scale, (enum legend_style)st, line, at) <= w)
				break;
		text(y, x, w, A_NORMAL, line);
		for (int k = 0; k < 3; k++)
			if (at[k] < w) {
				struct shade_sample s = sample_for(row->overlay, row->values[k] * scale);
				s.erosion_full = (float)erosion_full;
				overlay_swatch(y, x + at[k], OVERLAY_BIT(row->overlay), s);
			}
		y++;
	}
	if ((a->view.overlays & OVERLAY_BIT(OVERLAY_PARTICLES)) && y < bottom) {
		/* 29 columns: the panel's width (it lost its bracket at 30). */
		text(y, x, w, A_NORMAL, "   droplet paths (no erosion)");
		crt_put_swatch(y, x + 1, palette_particle, '*');
		y++;
	}
	return y - y0;
}
