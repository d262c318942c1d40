#include "view/shade.h"
#include "view/shade_sample.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/pi.h"

static const char *const overlay_names[OVERLAY_COUNT] = {
	"streams", "pools", "erosion", "hardness", "wetness", "vegetation", "particles",
};

const char *shade_overlay_name(int overlay)
{
	return overlay >= 0 && overlay < OVERLAY_COUNT ? overlay_names[overlay] : "none";
}

bool shade_overlay_listed(int overlay)
{
	return overlay >= 0 && overlay < OVERLAY_COUNT && overlay != OVERLAY_PARTICLES;
}

struct rgb shade_overlay_colour(int overlay)
{
	switch (overlay) {
	case OVERLAY_STREAMS: return palette_stream;
	case OVERLAY_POOLS: return palette_pool_deep;
	case OVERLAY_EROSION: return palette_erode;
	case OVERLAY_HARDNESS: return palette_hard;
	case OVERLAY_WETNESS: return palette_wet;
	case OVERLAY_VEGETATION: return palette_tree;
	default: return palette_particle;
	}
}

const char *shade_zoom_name(int zoom)
{
	static const char *const names[ZOOM_COUNT] = {"fit", "1:1", "2:1", "4:1"};
	return zoom >= 0 && zoom < ZOOM_COUNT ? names[zoom] : "?";
}

void shade_view_from_params(struct shade_view *v, const struct params *p)
{
	v->azimuth = p->view.azimuth;
	v->altitude = p->view.altitude;
	v->shading = p->view.shading;
	v->vertical_scale = p->terrain.vertical_scale;
}

double shade_ramp_t(const struct shade_view *v, double h)
{
	double range = (double)v->height_hi - v->height_lo;
	return range > 0 ? (h - v->height_lo) / range : h;
}

double shade_ramp_height(const struct shade_view *v, double t)
{
	double range = (double)v->height_hi - v->height_lo;
	return range > 0 ? v->height_lo + t * range : t;
}

static int pixels_per_cell(int zoom)
{
	return zoom == ZOOM_4 ? 4 : zoom == ZOOM_2 ? 2 : 1;
}

void shade_geometry(const struct shade_view *v, const struct world *w, int pw, int ph,
		    struct shade_geom *g)
{
	memset(g, 0, sizeof *g);
	if (pw <= 0 || ph <= 0)
		return;
	if (v->zoom == ZOOM_FIT) {
		double sx = (double)w->width / pw, sy = (double)w->height / ph;
		g->cpp = sx > sy ? sx : sy;
		g->x0 = g->y0 = 0;
	} else {
		g->cpp = 1.0 / pixels_per_cell(v->zoom);
		g->x0 = v->pan_x;
		g->y0 = v->pan_y;
	}
	/* Pixels until the map's far edge. */
	double fw = (w->width - g->x0) / g->cpp, fh = (w->height - g->y0) / g->cpp;
	g->used_w = fw >= pw ? pw : (int)ceil(fw - 1e-9);
	g->used_h = fh >= ph ? ph : (int)ceil(fh - 1e-9);
}

void shade_clamp_pan(struct shade_view *v, const struct world *w, int pw, int ph)
{
	if (v->zoom == ZOOM_FIT) {
		v->pan_x = v->pan_y = 0;
		return;
	}
	int k = pixels_per_cell(v->zoom);
	int vis_w = pw / k, vis_h = ph / k; /* whole cells visible */
	int max_x = w->width - vis_w, max_y = w->height - vis_h;
	if (max_x < 0)
		max_x = 0;
	if (max_y < 0)
		max_y = 0;
	if (v->pan_x > max_x)
		v->pan_x = max_x;
	if (v->pan_y > max_y)
		v->pan_y = max_y;
	if (v->pan_x < 0)
		v->pan_x = 0;
	if (v->pan_y < 0)
		v->pan_y = 0;
}

void shade_pan(struct shade_view *v, const struct world *w, int pw, int ph, int dx, int dy)
{
	int k = pixels_per_cell(v->zoom);
	v->pan_x += dx / k ? dx / k : (dx > 0) - (dx < 0);
	v->pan_y += dy / k ? dy / k : (dy > 0) - (dy < 0);
	shade_clamp_pan(v, w, pw, ph);
}

bool shade_cell_at(const struct shade_geom *g, const struct world *w, int px, int py,
		   int *cx, int *cy)
{
	if (px < 0 || py < 0 || px >= g->used_w || py >= g->used_h)
		return false;
	int a, b;
	shade_cover(g, g->x0, px, w->width, &a, &b);
	*cx = a + (b - a) / 2;
	shade_cover(g, g->y0, py, w->height, &a, &b);
	*cy = a + (b - a) / 2;
	return *cx >= 0 && *cy >= 0 && *cx < w->width && *cy < w->height;
}

int shade_frame_init(struct shade_frame *f, int width, int height)
{
	memset(f, 0, sizeof *f);
	if (width <= 0 || height <= 0)
		return GULLY_EINVAL;
	size_t n = (size_t)width * (size_t)height;
	f->px = calloc(n, sizeof *f->px);
	f->water = calloc(n, 1);
	f->blank = calloc(n, 1);
	f->samples = calloc(n, sizeof *f->samples);
	f->colmax = calloc(2 * (size_t)width, sizeof *f->colmax);
	if (!f->px || !f->water || !f->blank || !f->samples || !f->colmax) {
		shade_frame_free(f);
		return GULLY_ENOMEM;
	}
	f->width = width;
	f->height = height;
	return GULLY_OK;
}

void shade_frame_free(struct shade_frame *f)
{
	free(f->px);
	free(f->water);
	free(f->blank);
	free(f->samples);
	free(f->colmax);
	memset(f, 0, sizeof *f);
}

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* Smoothstep: faint streams stay faint, strong ones saturate. */
static double ease_in_out(double t)
{
	t = clamp01(t);
	return t * t * (3 - 2 * t);
}

/* A stream this strong (its colour at least half mixed in) gets the stream
 * glyph where there is no colour; weaker ones only tint. */
#define STREAM_GLYPH_MIN 0.5

int shade_water_kind(const struct shade_sample *s, unsigned overlays, bool wet)
{
	/* A pool over a stream; a stream where its colour shows at least half. */
	if (!wet)
		return WATER_NONE;
	if ((overlays & OVERLAY_BIT(OVERLAY_POOLS)) && s->pool > WORLD_POOL_EPS)
		return WATER_POOL;
	return s->stream >= STREAM_GLYPH_MIN ? WATER_STREAM : WATER_NONE;
}

double shade_erosion_strength(double change, double full)
{
	return 0.85 * sqrt(clamp01(fabs(change) / full));
}

/* Quarter-octave bins of |change| from 2^-24 up to 1 height unit: one pass,
 * no scratch memory, so the explorer can fit every frame. */
#define FIT_BINS 96

double shade_erosion_fit(const struct world *w)
{
	long count[FIT_BINS] = {0}, total = 0;
	const float *h = w->layer[LAYER_HEIGHT], *b = w->layer[LAYER_BASE];
	size_t cells = world_cells(w);
	for (size_t i = 0; i < cells; i++) {
		double d = fabs((double)h[i] - (double)b[i]);
		if (!(d > 0x1p-24)) /* unchanged, or NaN */
			continue;
		double k = floor(4 * log2(d)) + FIT_BINS;
		int bin = k < FIT_BINS - 1 ? (int)k : FIT_BINS - 1;
		count[bin]++;
		total++;
	}
	if (!total)
		return SHADE_EROSION_FULL;
	long want = (long)ceil(0.99 * (double)total), seen = 0;
	int bin = 0;
	while (bin < FIT_BINS - 1 && (seen += count[bin]) < want)
		bin++;
	double full = exp2((double)(bin + 1 - FIT_BINS) / 4); /* the bin's top */
	return full > SHADE_EROSION_FIT_MIN ? full : SHADE_EROSION_FIT_MIN;
}

struct rgb shade_overlay_blend(struct rgb c, const struct shade_sample *s, unsigned ov,
			       bool *water)
{
	bool wet = false;
	if (ov & OVERLAY_BIT(OVERLAY_HARDNESS))
		c = palette_mix(c, palette_hard, 0.7 * clamp01(s->hardness));
	if (ov & OVERLAY_BIT(OVERLAY_WETNESS))
		c = palette_mix(c, palette_wet, 0.75 * clamp01(s->wetness));
	if (ov & OVERLAY_BIT(OVERLAY_VEGETATION))
		c = palette_mix(c, palette_tree, 0.85 * clamp01(s->vegetation / SHADE_TREES_FULL));
	if (ov & OVERLAY_BIT(OVERLAY_EROSION)) {
		double d = (double)s->height - (double)s->base;
		/* On the ramp's tan and brown, red read as orange: the ground is
		 * greyed first (keeping its lightness, so the shading stays), so
		 * the only hues left are the legend's red and green. */
		double t = shade_erosion_strength(d, s->erosion_full > 0 ? s->erosion_full
								       : SHADE_EROSION_FULL);
		uint8_t grey = (uint8_t)lround(255 * palette_luma(c));
		if (d != 0)
			c = palette_mix(c, (struct rgb){grey, grey, grey}, 8 * t);
		if (d < 0)
			c = palette_mix(c, palette_erode, t);
		else if (d > 0)
			c = palette_mix(c, palette_deposit, t);
	}
	if ((ov & OVERLAY_BIT(OVERLAY_STREAMS)) && s->stream > 0) {
		c = palette_mix(c, palette_stream, ease_in_out(s->stream));
		wet = s->stream >= WORLD_STREAM_MIN;
	}
	if ((ov & OVERLAY_BIT(OVERLAY_POOLS)) && s->pool > WORLD_POOL_EPS) {
		double t = clamp01(s->pool / SHADE_POOL_FULL);
		struct rgb water_c = palette_mix(palette_pool_shallow, palette_pool_deep, t);
		c = palette_mix(c, water_c, 0.6 + 0.4 * t);
		wet = true;
	}
	if (water)
		*water = wet;
	return c;
}

double shade_light(const struct shade_view *v, double dzdx, double dzdy)
{
	double az = v->azimuth * GULLY_PI / 180, alt = v->altitude * GULLY_PI / 180;
	/* Screen axes: x right, y down, z up; azimuth 0 is up the screen. */
	double lx = sin(az) * cos(alt), ly = -cos(az) * cos(alt), lz = sin(alt);
	double nx = -dzdx, ny = -dzdy, nz = 1;
	double len = sqrt(nx * nx + ny * ny + nz * nz);
	double lambert = (nx * lx + ny * ly + nz * lz) / len;
	if (lambert < 0)
		lambert = 0;
	/* Relative to flat ground, so flat maps keep the ramp's colours. */
	/* Half the lambert swing: steep noise terrain would otherwise go black
	 * on its shadow sides and lose its colours. */
	double k = 1 + 0.6 * v->shading * (lambert - lz);
	return k < 0.3 ? 0.3 : k;
}

/* Each pixel's colour: the ramp's, lit by the slope between its
 * neighbours, under the overlays (the erosion overlay's full scale fitted
 * to the map when the view sets none). */
static void colour_pixels(struct shade_frame *f, const struct world *w,
			  const struct shade_view *v)
{
	const struct shade_geom *g = &f->geom;
	int pw = f->width;
	/* Slopes come from neighbouring pixels, a pixel apart = cpp cells. */
	double span = g->cpp > 0 ? g->cpp : 1;
	/* Zoomed in, neighbours k pixels away are the neighbouring cells, so a
	 * cell's pixels share one slope instead of striping at its edges. */
	int k = g->cpp > 0 && g->cpp < 1 ? (int)lround(1 / g->cpp) : 1;
	float erosion_full = v->erosion_full;
	if ((v->overlays & OVERLAY_BIT(OVERLAY_EROSION)) && !(erosion_full > 0))
		erosion_full = (float)shade_erosion_fit(w);
	for (int py = 0; py < f->height; py++) {
		for (int px = 0; px < pw; px++) {
			size_t i = (size_t)py * (size_t)pw + (size_t)px;
			f->samples[i].erosion_full = erosion_full;
			if (f->blank[i]) {
				f->px[i] = (struct rgb){0, 0, 0};
				f->water[i] = 0;
				continue;
			}
			const struct shade_sample *s = &f->samples[i];
			int l = px > k ? px - k : 0, r = px + k < g->used_w ? px + k : g->used_w - 1;
			int u = py > k ? py - k : 0, d = py + k < g->used_h ? py + k : g->used_h - 1;
			double dzdx = 0, dzdy = 0;
			if (r != l)
				dzdx = (f->samples[(size_t)py * pw + r].height -
					f->samples[(size_t)py * pw + l].height) /
				       ((r - l) * span);
			if (d != u)
				dzdy = (f->samples[(size_t)d * pw + px].height -
					f->samples[(size_t)u * pw + px].height) /
				       ((d - u) * span);
			dzdx *= v->vertical_scale;
			dzdy *= v->vertical_scale;
			double t = shade_ramp_t(v, s->height);
			if (v->ramp_layer) {
				double range = (double)v->ramp_max - v->ramp_min;
				t = range > 0 && isfinite(s->ramp) ? (s->ramp - v->ramp_min) / range : 0;
			}
			struct rgb c = palette_scale(palette_height(t), shade_light(v, dzdx, dzdy));
			bool wet;
			f->px[i] = shade_overlay_blend(c, s, v->overlays, &wet);
			f->water[i] = (uint8_t)shade_water_kind(s, v->overlays, wet);
		}
	}
}

void shade_render(struct shade_frame *f, const struct world *w, const struct shade_view *v,
		  const struct shade_point *points, int npoints)
{
	shade_geometry(v, w, f->width, f->height, &f->geom);
	const struct shade_geom *g = &f->geom;
	shade_sample_pixels(f, w, v);
	colour_pixels(f, w, v);
	if (!(v->overlays & OVERLAY_BIT(OVERLAY_PARTICLES)) || !points)
		return;
	for (int n = 0; n < npoints; n++) {
		double px = (points[n].x - g->x0) / g->cpp, py = (points[n].y - g->y0) / g->cpp;
		if (!(px >= 0 && py >= 0 && px < g->used_w && py < g->used_h))
			continue;
		f->px[(size_t)py * (size_t)f->width + (size_t)px] = palette_particle;
	}
}

/* Rows a band of shade_image renders at once. */
#define IMAGE_BAND 128

int shade_image(const struct world *w, const struct shade_view *v, struct rgb *out)
{
	struct shade_view one = *v;
	if ((one.overlays & OVERLAY_BIT(OVERLAY_EROSION)) && !(one.erosion_full > 0))
		one.erosion_full = (float)shade_erosion_fit(w); /* once, for every band */
	one.zoom = ZOOM_1;
	one.pan_x = 0;
	one.overlays &= ~OVERLAY_BIT(OVERLAY_PARTICLES);
	int band = w->height < IMAGE_BAND ? w->height : IMAGE_BAND;
	struct shade_frame f;
	/* A row above and below each band, so slopes at its edges see the same
	 * neighbours as one render of the whole map would. */
	int e = shade_frame_init(&f, w->width, band + 2);
	if (e)
		return e;
	for (int y = 0; y < w->height; y += band) {
		int top = y > 0 ? y - 1 : 0;
		one.pan_y = top;
		shade_render(&f, w, &one, NULL, 0);
		int rows = w->height - y < band ? w->height - y : band;
		memcpy(out + (size_t)y * (size_t)w->width, f.px + (size_t)(y - top) * (size_t)w->width,
		       (size_t)rows * (size_t)w->width * sizeof *out);
	}
	shade_frame_free(&f);
	return GULLY_OK;
}

int shade_overlays_parse(const char *list, unsigned *bits, char *err, size_t errlen)
{
	*bits = 0;
	const char *p = list;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		int found = -1;
		for (int o = 0; o < OVERLAY_COUNT; o++)
			if (shade_overlay_listed(o) && strlen(overlay_names[o]) == n &&
			    strncmp(overlay_names[o], p, n) == 0)
				found = o;
		if (found >= 0)
			*bits |= OVERLAY_BIT(found);
		else if (!(n == 4 && strncmp(p, "none", 4) == 0)) {
			/* The names from the table parsing reads, then "or none". */
			char names[160] = "";
			size_t at = 0;
			for (int o = 0; o < OVERLAY_COUNT && at < sizeof names; o++)
				if (shade_overlay_listed(o))
					at += (size_t)snprintf(names + at, sizeof names - at, "%s, ",
							       overlay_names[o]);
			if (at >= 2 && at < sizeof names)
				names[at - 2] = '\0';
			snprintf(err, errlen, "'%.*s' is not an overlay (%s or none)",
				 (int)(n > 40 ? 40 : n), p, names);
			return GULLY_EINVAL;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return GULLY_OK;
}
