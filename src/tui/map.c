/* The map panel: shade the visible world into pixels, two per cell. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>

#include "tui/app.h"
#include "tui/crt.h"

/* A pixel keeps the colour it showed last frame until the new one differs
 * by more than this in some channel: the slow drift of hill shading under
 * erosion then stops flipping cells across a quantisation boundary every
 * frame, which is most of a running frame's bytes (bench/TUI.md). */
#define HYSTERESIS 8

static int channel_diff(struct rgb p, struct rgb q)
{
	int d = abs(p.r - q.r), e = abs(p.g - q.g), f = abs(p.b - q.b);
	return d > e ? (d > f ? d : f) : (e > f ? e : f);
}

static void settle(struct app *a)
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
		return;
	for (size_t i = 0; i < n; i++) {
		if (!same_view || channel_diff(f->px[i], a->shown[i]) > HYSTERESIS)
			a->shown[i] = f->px[i];
	}
	a->shown_valid = true;
	a->shown_geom = *g;
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
	settle(a);
	const struct shade_frame *f = &a->frame;
	const struct rgb *px = a->shown ? a->shown : f->px;
	for (int y = 0; y < rows; y++) {
		const size_t top = (size_t)(2 * y) * (size_t)pw, bot = top + (size_t)pw;
		for (int x = 0; x < cols; x++) {
			if (f->blank[top + x]) {
				crt_put_blank(y, x);
				continue;
			}
			/* A lone blank bottom pixel (odd map height) repeats the top. */
			size_t b = f->blank[bot + x] ? top + x : bot + x;
			crt_put_cell(y, x, px[top + x], px[b], f->water[top + x], f->water[b]);
		}
	}
	a->map_rows = rows;
	a->map_cols = cols;
}

bool map_inspect(struct app *a, int row, int col, char *buf, size_t len)
{
	int cx, cy;
	if (row < 0 || col < 0 || row >= a->map_rows || col >= a->map_cols ||
	    !shade_cell_at(&a->frame.geom, a->world, col, row * 2, &cx, &cy))
		return false;
	const struct world *w = a->world;
	size_t i = (size_t)cy * (size_t)w->width + (size_t)cx;
	snprintf(buf, len, "cell %d,%d: height %.4f stream %.3f pool %.4f hardness %.2f wetness %.2f",
		 cx, cy, w->layer[LAYER_HEIGHT][i], w->layer[LAYER_STREAM][i],
		 w->layer[LAYER_POOL][i], w->layer[LAYER_HARDNESS][i], w->layer[LAYER_WETNESS][i]);
	return true;
}
