/* The cross-section: heights along a line of the map as a filled curve in
 * the foot of the map area, with water above the ground in blue, the
 * terrain as it was made (the base layer) showing what was eroded (a red
 * line above the ground) and deposited (green fill), and an axis with
 * values. Drawn from the world every frame, so it follows a running
 * simulation. Eighth blocks in UTF-8 (eight levels a row), # and _ in
 * ASCII, + for deposits and ~ for water where there is no colour. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/crt.h"

/* The margin left of the plot for the height labels: "0.523 |". */
#define AXIS_W 7

/* The sky over the ground: the theme's background, so the plot is not a
 * black block on a light screen. */
static struct rgb air_colour(void)
{
	return crt.light ? (struct rgb){255, 255, 255} : (struct rgb){0, 0, 0};
}
static const struct rgb axis_grey = {150, 150, 150};

/* One position on an old map's axis of n cells, at the same share of a new
 * one's of m (a map of another size: a preset, a snapshot, undo). */
static int rescale(int v, int n, int m)
{
	const long r = (long)v * m / n;
	return r < 0 ? 0 : r >= m ? m - 1 : (int)r;
}

/* The row, column and line follow a change of the map's size: row 64 of
 * 128 becomes row 128 of 256, not row 64. */
static void profile_fit(struct app *a)
{
	struct profile *p = &a->profile;
	const int W = a->world->width, H = a->world->height;
	if (p->width == W && p->height == H)
		return;
	if (p->width > 0 && p->height > 0) {
		p->row = rescale(p->row, p->height, H);
		p->col = rescale(p->col, p->width, W);
		p->x0 = rescale(p->x0, p->width, W);
		p->x1 = rescale(p->x1, p->width, W);
		p->y0 = rescale(p->y0, p->height, H);
		p->y1 = rescale(p->y1, p->height, H);
	}
	p->width = W;
	p->height = H;
}

/* The cell of the droplet T follows, where it is now: a cross-section
 * through it shows the valley it runs down. False with none. */
static bool droplet_cell(const struct app *a, int *x, int *y)
{
	const struct trace_view *v = &a->trace;
	if (!v->on || v->n < 1 || v->world != a->world)
		return false;
	const float fx = v->x[v->n - 1], fy = v->y[v->n - 1];
	if (!(fx >= 0 && fx < (float)a->world->width && fy >= 0 && fy < (float)a->world->height))
		return false;
	*x = (int)fx;
	*y = (int)fy;
	return true;
}

void profile_cycle(struct app *a)
{
	struct profile *p = &a->profile;
	const struct world *w = a->world;
	profile_fit(a);
	p->picking = 0;
	int dx, dy;
	const bool droplet = droplet_cell(a, &dx, &dy);
	const char *through = droplet ? ", through the droplet" : "";
	switch (p->mode) {
	case PROFILE_OFF:
		p->mode = PROFILE_ROW;
		p->row = droplet ? dy : w->height / 2;
		app_message(a, "cross-section along row %d%s: ( ) move it, x turns it", p->row,
			    through);
		break;
	case PROFILE_ROW:
		p->mode = PROFILE_COLUMN;
		p->col = droplet ? dx : w->width / 2;
		app_message(a, "cross-section along column %d%s: ( ) move it, x hides it", p->col,
			    through);
		break;
	default:
		p->mode = PROFILE_OFF;
		app_message(a, "cross-section hidden");
		break;
	}
}

void profile_move(struct app *a, int dir)
{
	struct profile *p = &a->profile;
	const struct world *w = a->world;
	profile_fit(a);
	int step = (p->mode == PROFILE_COLUMN ? w->width : w->height) / 32;
	step = step < 1 ? dir : step * dir;
	if (p->mode == PROFILE_ROW) {
		p->row += step;
		p->row = p->row < 0 ? 0 : p->row >= w->height ? w->height - 1 : p->row;
		app_message(a, "cross-section along row %d", p->row);
	} else if (p->mode == PROFILE_COLUMN) {
		p->col += step;
		p->col = p->col < 0 ? 0 : p->col >= w->width ? w->width - 1 : p->col;
		app_message(a, "cross-section along column %d", p->col);
	} else if (p->mode == PROFILE_LINE) {
		int dy = step;
		if (p->y0 + dy < 0 || p->y1 + dy < 0)
			dy = -(p->y0 < p->y1 ? p->y0 : p->y1);
		if (p->y0 + dy >= w->height || p->y1 + dy >= w->height)
			dy = w->height - 1 - (p->y0 > p->y1 ? p->y0 : p->y1);
		p->y0 += dy;
		p->y1 += dy;
		app_message(a, "cross-section from %d,%d to %d,%d", p->x0, p->y0, p->x1, p->y1);
	} else {
		app_message(a, "no cross-section: x shows one");
	}
}

void profile_pick(struct app *a)
{
	if (!crt.mouse) {
		app_message(a, "picking a line needs the mouse: start gully with --mouse "
			       "(x shows a row or column without it)");
		return;
	}
	a->profile.picking = 2;
	app_message(a, "cross-section: click its start on the map");
}

bool profile_click(struct app *a, int cx, int cy)
{
	struct profile *p = &a->profile;
	profile_fit(a);
	if (p->picking == 2) {
		p->x0 = cx;
		p->y0 = cy;
		p->picking = 1;
		app_message(a, "from %d,%d: click its end", cx, cy);
		return true;
	}
	if (p->picking == 1) {
		p->x1 = cx;
		p->y1 = cy;
		p->picking = 0;
		if (p->x0 == cx && p->y0 == cy) {
			app_message(a, "the two ends are one cell: no line (X picks again)");
			return true;
		}
		p->mode = PROFILE_LINE;
		app_message(a, "cross-section from %d,%d to %d,%d", p->x0, p->y0, cx, cy);
		return true;
	}
	return false;
}

void profile_ends(const struct app *a, int *x0, int *y0, int *x1, int *y1)
{
	const struct profile *p = &a->profile;
	const struct world *w = a->world;
	switch (p->mode) {
	case PROFILE_ROW:
		*x0 = 0, *x1 = w->width - 1, *y0 = *y1 = p->row < w->height ? p->row : w->height - 1;
		break;
	case PROFILE_COLUMN:
		*y0 = 0, *y1 = w->height - 1, *x0 = *x1 = p->col < w->width ? p->col : w->width - 1;
		break;
	default:
		*x0 = p->x0 < w->width ? p->x0 : w->width - 1;
		*y0 = p->y0 < w->height ? p->y0 : w->height - 1;
		*x1 = p->x1 < w->width ? p->x1 : w->width - 1;
		*y1 = p->y1 < w->height ? p->y1 : w->height - 1;
		break;
	}
}

int profile_rows(const struct app *a, int map_rows)
{
	if (a->profile.mode == PROFILE_OFF)
		return 0;
	int r = map_rows * 2 / 5;
	return r < 7 ? (map_rows >= 10 ? 7 : 0) : r > 16 ? 16 : r;
}

int profile_sample(const struct world *w, int x0, int y0, int x1, int y1, int n,
		   struct profile_point *out)
{
	int dx = x1 - x0, dy = y1 - y0;
	int len = (abs(dx) > abs(dy) ? abs(dx) : abs(dy)) + 1;
	const float *H = w->layer[LAYER_HEIGHT], *B = w->layer[LAYER_BASE];
	const float *P = w->layer[LAYER_POOL];
	for (int i = 0; i < n; i++) {
		/* The cells of the line this column covers (one at least). */
		int a = (int)((long)i * len / n), b = (int)((long)(i + 1) * len / n);
		if (b <= a)
			b = a + 1;
		double h = 0, base = 0, water = 0;
		for (int k = a; k < b; k++) {
			double t = len > 1 ? (double)k / (len - 1) : 0;
			int x = x0 + (int)lround(t * dx), y = y0 + (int)lround(t * dy);
			size_t c = (size_t)y * (size_t)w->width + (size_t)x;
			h += H[c];
			base += B[c];
			if (P[c] > water)
				water = P[c];
		}
		out[i].height = (float)(h / (b - a));
		out[i].base = (float)(base / (b - a));
		out[i].pool = (float)water;
	}
	return len;
}

/* The heights the plot spans: the legend's fitted range, widened to what
 * the line shows, so the same height sits on the same row all session. */
static void plot_range(const struct app *a, const struct profile_point *pt, int n, double *lo,
		       double *hi)
{
	*lo = shade_ramp_height(&a->view, 0);
	*hi = shade_ramp_height(&a->view, 1);
	for (int i = 0; i < n; i++) {
		double top = (double)pt[i].height + pt[i].pool;
		*lo = fmin(*lo, fmin(pt[i].height, pt[i].base));
		*hi = fmax(*hi, fmax(top, pt[i].base));
	}
	if (!(*hi - *lo > 1e-6))
		*hi = *lo + 1;
}

/* Eighth blocks: index k draws the lower k eighths. */
static const wchar_t eighths[9] = {L' ', L'\u2581', L'\u2582', L'\u2583', L'\u2584',
				   L'\u2585', L'\u2586', L'\u2587', L'\u2588'};

static void plot_column(const struct app *a, int col, int top, int rows,
			const struct profile_point *pt, double lo, double hi)
{
	double per = (hi - lo) / (rows * 8); /* height per eighth */
	int g = (int)lround((pt->height - lo) / per);
	int b = (int)lround((pt->base - lo) / per);
	int wtop = pt->pool > WORLD_POOL_EPS ? (int)lround((pt->height + pt->pool - lo) / per) : g;
	bool mono = crt.tier == TIER_NONE;
	const struct rgb air = air_colour();
	struct rgb ground = palette_height(shade_ramp_t(&a->view, pt->height));
	for (int r = 0; r < rows; r++) {
		int y = top + rows - 1 - r, base8 = r * 8;
		int k = g - base8;
		k = k < 0 ? 0 : k > 8 ? 8 : k;
		/* The solid part: deposits (above the base) green. */
		bool deposit = base8 + k > b && g > b + 1;
		struct rgb solid = deposit ? palette_deposit : ground;
		bool wet = wtop > base8 + k && k < 8;
		struct rgb above = wet ? palette_pool_shallow : air;
		wchar_t wide = eighths[k];
		char ascii = k >= 4 ? (deposit ? '+' : '#') : k > 0 ? '_' : wet ? '~' : ' ';
		if (mono && deposit && k == 8)
			wide = L'+';
		if (k == 0 && wet && mono)
			wide = L'~';
		/* Eroded: the base line drawn in the air (or water) it left. */
		if (k == 0 && b > g + 1 && b >= base8 && b < base8 + 8) {
			wide = L'\u2500';
			ascii = '-';
			solid = palette_erode;
		}
		if (k == 0 && wide == L' ')
			crt_put_glyph(y, col, L' ', ' ', air, above);
		else
			crt_put_glyph(y, col, wide, ascii, k > 0 ? solid : palette_erode, above);
	}
}

void profile_draw(struct app *a, int y0, int rows, int cols)
{
	if (a->profile.mode == PROFILE_OFF || rows < 5 || cols < AXIS_W + 8)
		return;
	profile_fit(a);
	int x0, y0c, x1, y1c;
	profile_ends(a, &x0, &y0c, &x1, &y1c);
	int n = cols - AXIS_W - 1;
	if (n > PROFILE_MAX_COLS)
		n = PROFILE_MAX_COLS;
	struct profile_point *pt = a->profile.points;
	int len = profile_sample(a->world, x0, y0c, x1, y1c, n, pt);
	double lo, hi;
	plot_range(a, pt, n, &lo, &hi);
	for (int y = y0; y < y0 + rows; y++)
		mvprintw(y, 0, "%*s", cols, "");
	crt_attrset(A_BOLD);
	mvprintw(y0, 0, "%.*s", cols, "");
	char title[160];
	if (a->profile.mode == PROFILE_ROW)
		snprintf(title, sizeof title, " cross-section along row %d (x: turn, ( ): move)", y0c);
	else if (a->profile.mode == PROFILE_COLUMN)
		snprintf(title, sizeof title, " cross-section along column %d (x: hide, ( ): move)",
			 x0);
	else
		snprintf(title, sizeof title, " cross-section from %d,%d to %d,%d (x: hide)", x0, y0c,
			 x1, y1c);
	/* A title too long for the row gives up its key hint, not its end
	 * ("...( ): move" lost its bracket at 80 columns). */
	char *hint = strstr(title, " (");
	if ((int)strlen(title) > cols - 3 && hint)
		*hint = '\0';
	mvhline(y0, 0, '-', cols);
	mvprintw(y0, 1, "%.*s ", cols - 3, title);
	crt_attrset(A_NORMAL);
	int top = y0 + 1, plot_rows = rows - 2;
	for (int i = 0; i < n; i++)
		plot_column(a, AXIS_W + i, top, plot_rows, &pt[i], lo, hi);
	/* The axis: heights at the top, middle and bottom rows' lower edges. */
	for (int r = 0; r < plot_rows; r++) {
		int y = top + plot_rows - 1 - r;
		bool label = r == 0 || r == plot_rows - 1 || r == plot_rows / 2;
		char buf[16] = "      ";
		if (label)
			snprintf(buf, sizeof buf, "%6.3f",
				 lo + (hi - lo) * (r == plot_rows - 1 ? plot_rows : r) / plot_rows);
		crt_attrset(A_DIM);
		mvprintw(y, 0, "%.6s", buf);
		crt_attrset(A_NORMAL);
		crt_put_glyph(y, AXIS_W - 1, label ? L'\u2524' : L'\u2502', label ? '+' : '|', axis_grey,
			      air_colour());
	}
	/* The bottom line: where the line starts and ends, and its length. */
	char foot[160];
	snprintf(foot, sizeof foot, "A %d,%d", x0, y0c);
	crt_attrset(A_DIM);
	mvprintw(top + plot_rows, 0, "%*s", cols, "");
	mvprintw(top + plot_rows, AXIS_W, "%s", foot);
	char mid[64];
	snprintf(mid, sizeof mid, "%d cells; blue water, green deposits, red line: eroded", len);
	int mw = (int)strlen(mid);
	if (AXIS_W + (int)strlen(foot) + 2 + mw + 12 < cols)
		mvprintw(top + plot_rows, AXIS_W + (int)strlen(foot) + 2, "%s", mid);
	snprintf(foot, sizeof foot, "B %d,%d", x1, y1c);
	mvprintw(top + plot_rows, cols - (int)strlen(foot) - 1, "%s", foot);
	crt_attrset(A_NORMAL);
}

void profile_mark(struct app *a)
{
	if (a->profile.mode == PROFILE_OFF && a->profile.picking != 1)
		return;
	int x0, y0, x1, y1;
	if (a->profile.picking == 1) {
		map_mark(a, a->profile.x0 + 0.5, a->profile.y0 + 0.5, 'A');
		return;
	}
	profile_ends(a, &x0, &y0, &x1, &y1);
	/* Dots along the line, then its ends on top. */
	int len = abs(x1 - x0) > abs(y1 - y0) ? abs(x1 - x0) : abs(y1 - y0);
	double cpp = a->frame.geom.cpp > 0 ? a->frame.geom.cpp : 1;
	int every = (int)ceil(3 * cpp);
	for (int k = every; k < len; k += every) {
		double t = (double)k / len;
		map_mark(a, x0 + t * (x1 - x0) + 0.5, y0 + t * (y1 - y0) + 0.5, '.');
	}
	map_mark(a, x0 + 0.5, y0 + 0.5, 'A');
	map_mark(a, x1 + 0.5, y1 + 0.5, 'B');
}
