/* The map panel: shade the visible world into pixels, two per cell. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/pi.h"
#include "tui/app.h"
#include "tui/crt.h"

/* A pixel keeps the colour it showed last frame until the new one differs
 * by more than this in some channel: the slow drift of hill shading under
 * erosion then stops flipping cells across a quantisation boundary every
 * frame, which is most of a running frame's bytes (bench/TUI.md). */
#define HYSTERESIS 8

/* A running frame's map bytes are held under a budget: the cells whose
 * colour moved most are sent first, the rest in the frames after (the map
 * settles within a few frames once the change slows). What a changed cell
 * costs was measured over a pty at 160x48 (bench/TUI.md): a colour change,
 * often a cursor move, the glyph. The budgets keep a whole frame, status
 * and panel included, under 4 KB at 256 colours and 8 KB in truecolor. */
#define FRAME_MAP_BYTES_256 3300
#define FRAME_MAP_BYTES_TRUE 6800
#define CELL_BYTES_256 24
#define CELL_BYTES_TRUE 40
#define CELL_BYTES_FEW 12 /* 16/8 colours, monochrome: shorter escapes */

static int channel_diff(struct rgb p, struct rgb q)
{
	int d = abs(p.r - q.r), e = abs(p.g - q.g), f = abs(p.b - q.b);
	return d > e ? (d > f ? d : f) : (e > f ? e : f);
}

static size_t cell_budget(void)
{
	switch (crt.tier) {
	case TIER_TRUE: return FRAME_MAP_BYTES_TRUE / CELL_BYTES_TRUE;
	case TIER_256: return FRAME_MAP_BYTES_256 / CELL_BYTES_256;
	default: return FRAME_MAP_BYTES_256 / CELL_BYTES_FEW;
	}
}

/* How far a map cell (its two pixels) has moved from what it shows. */
static int cell_diff(const struct rgb *px, const struct rgb *shown, size_t top, size_t bot)
{
	int d = channel_diff(px[top], shown[top]), e = channel_diff(px[bot], shown[bot]);
	return d > e ? d : e;
}

/* Updates a->shown from the frame: every pixel on a new view, else the
 * cells that moved past the hysteresis, the most moved first, at most a
 * frame's budget of them. Returns true when some were left for later. */
static bool settle(struct app *a)
{
	const struct shade_frame *f = &a->frame;
	size_t n = (size_t)f->width * (size_t)f->height;
	const struct shade_geom *g = &f->geom, *o = &a->shown_geom;
	bool same_view = a->shown_valid && a->nshown == n && g->x0 == o->x0 && g->y0 == o->y0 &&
			 g->cpp == o->cpp && g->used_w == o->used_w && g->used_h == o->used_h;
	if (a->nshown != n) {
		free(a->shown);
		a->shown = malloc(n * sizeof *a->shown);
		a->nshown = a->shown ? n : 0;
		same_view = false;
	}
	if (!a->shown)
		return false;
	a->shown_valid = true;
	a->shown_geom = *g;
	if (!same_view) {
		memcpy(a->shown, f->px, n * sizeof *a->shown);
		return false;
	}
	size_t w = (size_t)f->width, rows = (size_t)f->height / 2;
	size_t hist[256] = {0}, moved = 0;
	for (size_t y = 0; y < rows; y++)
		for (size_t x = 0; x < w; x++) {
			int d = cell_diff(f->px, a->shown, 2 * y * w + x, (2 * y + 1) * w + x);
			if (d > HYSTERESIS) {
				hist[d]++;
				moved++;
			}
		}
	/* The threshold: cells moved more than it fit the budget. */
	size_t budget = cell_budget(), taken = moved;
	int threshold = HYSTERESIS;
	while (taken > budget && threshold < 255)
		taken -= hist[++threshold];
	for (size_t y = 0; y < rows; y++)
		for (size_t x = 0; x < w; x++) {
			size_t top = 2 * y * w + x, bot = top + w;
			if (cell_diff(f->px, a->shown, top, bot) > threshold) {
				a->shown[top] = f->px[top];
				a->shown[bot] = f->px[bot];
			}
		}
	/* An odd last pixel row (no cell below it) follows at once. */
	if (f->height % 2)
		memcpy(a->shown + 2 * rows * w, f->px + 2 * rows * w, w * sizeof *a->shown);
	return taken < moved;
}

void map_draw(struct app *a, int rows, int cols)
{
	int pw = cols, ph = rows * 2;
	if (a->frame.width != pw || a->frame.height != ph) {
		shade_frame_free(&a->frame);
		if (shade_frame_init(&a->frame, pw, ph))
			return;
	}
	shade_view_from_params(&a->view, &a->params);
	shade_clamp_pan(&a->view, a->world, pw, ph);
	shade_render(&a->frame, a->world, &a->view, a->points, a->npoints);
	/* Cells left over are sent in the next frames, paused or not. */
	if (settle(a))
		a->needs_draw = true;
	const struct shade_frame *f = &a->frame;
	const struct rgb *px = a->shown ? a->shown : f->px;
	/* A map narrower than its area is centred: on a wide terminal a square
	 * map would otherwise leave the whole gap between it and the panel. */
	int left = f->geom.used_w < cols ? (cols - f->geom.used_w) / 2 : 0;
	for (int y = 0; y < rows; y++) {
		const size_t top = (size_t)(2 * y) * (size_t)pw, bot = top + (size_t)pw;
		for (int x = 0; x < cols; x++) {
			int sx = x - left;
			if (sx < 0 || sx >= pw || f->blank[top + sx]) {
				crt_put_blank(y, x);
				continue;
			}
			/* A lone blank bottom pixel (odd map height) repeats the top. */
			size_t b = f->blank[bot + sx] ? top + sx : bot + sx;
			crt_put_cell(y, x, px[top + sx], px[b], f->water[top + sx], f->water[b]);
		}
	}
	a->map_rows = rows;
	a->map_cols = cols;
	a->map_left = left;
}

bool map_cell(const struct app *a, int row, int col, int *cx, int *cy)
{
	return row >= 0 && col >= a->map_left && row < a->map_rows && col < a->map_cols &&
	       shade_cell_at(&a->frame.geom, a->world, col - a->map_left, row * 2, cx, cy);
}

bool map_inspect(struct app *a, int row, int col, char *buf, size_t len)
{
	int cx, cy;
	if (!map_cell(a, row, col, &cx, &cy))
		return false;
	const struct world *w = a->world;
	size_t i = (size_t)cy * (size_t)w->width + (size_t)cx;
	snprintf(buf, len, "cell %d,%d: height %.4f stream %.3f pool %.4f hardness %.2f wetness %.2f",
		 cx, cy, w->layer[LAYER_HEIGHT][i], w->layer[LAYER_STREAM][i],
		 w->layer[LAYER_POOL][i], w->layer[LAYER_HARDNESS][i], w->layer[LAYER_WETNESS][i]);
	return true;
}

/* The map cell under world point (wx, wy); false off the shown map. */
static bool cell_of(const struct app *a, double wx, double wy, int *row, int *col)
{
	const struct shade_geom *g = &a->frame.geom;
	if (g->cpp <= 0)
		return false;
	double px = (wx - g->x0) / g->cpp, py = (wy - g->y0) / g->cpp;
	if (!(px >= 0 && py >= 0 && px < g->used_w && py < g->used_h))
		return false;
	*col = (int)px + a->map_left;
	*row = (int)py / 2;
	return *row < a->map_rows && *col < a->map_cols;
}

void map_mark(const struct app *a, double wx, double wy, char glyph)
{
	int r, c;
	if (cell_of(a, wx, wy, &r, &c))
		crt_put_mark(r, c, glyph);
}

/* The window as a box when it is at least three cells each way on screen. */
static void source_box(const struct app *a, const struct source *s)
{
	double cpp = a->frame.geom.cpp, h = s->window / 2;
	if (!(s->window / cpp >= 3 && s->window / cpp / 2 >= 3))
		return;
	for (double t = -h; t <= h + 1e-9; t += cpp) {
		map_mark(a, s->x + t, s->y - h, '-');
		map_mark(a, s->x + t, s->y + h - 1e-6, '-');
	}
	for (double t = -h; t <= h + 1e-9; t += 2 * cpp) {
		map_mark(a, s->x - h, s->y + t, '|');
		map_mark(a, s->x + h - 1e-6, s->y + t, '|');
	}
	map_mark(a, s->x - h, s->y - h, '+');
	map_mark(a, s->x + h - 1e-6, s->y - h, '+');
	map_mark(a, s->x - h, s->y + h - 1e-6, '+');
	map_mark(a, s->x + h - 1e-6, s->y + h - 1e-6, '+');
}

/* An arrow along its heading: a shaft of screen cells from the centre,
 * then a head. A screen cell is two pixels high, so y moves half as fast
 * in cells. */
static void source_arrow(const struct app *a, const struct source *s)
{
	double cpp = a->frame.geom.cpp, h = s->window / 2;
	double rad = s->direction * GULLY_PI / 180;
	double dx = cos(rad), dy = sin(rad);
	int oct = (int)lround(s->direction / 45.0);
	oct = ((oct % 8) + 8) % 8; /* 0 east, 2 south, 4 west, 6 north */
	static const char shaft[8] = {'-', '\\', '|', '/', '-', '\\', '|', '/'};
	static const char head[8] = {'>', '\\', 'v', '/', '<', '\\', '^', '/'};
	double reach = h / cpp + 4; /* pixels: past the box */
	if (reach > 24)
		reach = 24;
	/* As seen from above: a jet tilted down reaches less far, and one
	 * pointing (nearly) straight down has no sideways arrow at all. */
	reach *= s->level;
	int n = s->level < 0.2 ? 0 : (int)reach;
	for (int i = 1; i <= n; i++) {
		double len = i * cpp;
		double wx = s->x + dx * len, wy = s->y + dy * len * 2;
		map_mark(a, wx, wy, i == n ? head[oct] : shaft[oct]);
	}
}

/* The sources, all plain characters so they read in ASCII and monochrome as
 * well as in colour: each one's centre as its number (a process with one
 * source: the section's initial, "E"), an arrow along its heading when it
 * is on (shorter as a jet tilts down; none straight down), and the picked
 * one's window as a box. The picked one is drawn
 * last, over the others. */
void source_draw(struct app *a)
{
	struct source pick, s;
	if (!source_get(a, &pick) || a->frame.geom.cpp <= 0)
		return;
	int n = a->proc->nsources;
	for (int k = 1; k <= n; k++) {
		int i = (pick.index + k) % n; /* the picked one last */
		if (!source_get_at(a, i, &s))
			continue;
		if (i == pick.index)
			source_box(a, &s);
		if (s.on)
			source_arrow(a, &s);
		char c = n > 1 ? (char)('1' + i % 9) : a->proc->section[0];
		map_mark(a, s.x, s.y, (char)(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c));
	}
}
