/* The visible part of a world as RGB pixels: height ramp, hill shading and
 * overlays, with downsampling, zoom and pan. No curses: the terminal layer
 * turns pixels into cells, and tests check the pixels directly. */
#ifndef GULLY_SHADE_H
#define GULLY_SHADE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/params.h"
#include "core/base/world.h"
#include "view/palette.h"

/* Overlays as bits; the order is the order `o` cycles through them. */
enum shade_overlay {
	OVERLAY_STREAMS,
	OVERLAY_POOLS,
	OVERLAY_EROSION,   /* height - base: red eroded, green deposited */
	OVERLAY_HARDNESS,
	OVERLAY_WETNESS,
	OVERLAY_VEGETATION, /* tree roots (hydrology's trees) */
	OVERLAY_PARTICLES, /* points handed to shade_render (tracer droplets) */
	OVERLAY_COUNT
};
#define OVERLAY_BIT(o) (1u << (o))
const char *shade_overlay_name(int overlay);
/* True for an overlay a list names (--overlay, shade_overlays_parse): all
 * but the tracer's droplets, which are no layer of the map. */
bool shade_overlay_listed(int overlay);
/* A legend swatch: the colour the overlay is drawn with at full strength. */
struct rgb shade_overlay_colour(int overlay);

enum shade_zoom { ZOOM_FIT, ZOOM_1, ZOOM_2, ZOOM_4, ZOOM_COUNT };
const char *shade_zoom_name(int zoom);

struct shade_view {
	int zoom;             /* enum shade_zoom */
	int pan_x, pan_y;     /* world cell at the top-left pixel (zoomed views) */
	unsigned overlays;    /* OVERLAY_BIT()s */
	double azimuth;       /* degrees clockwise from up */
	double altitude;      /* degrees above the horizon */
	double shading;       /* 0 = flat ramp, 1 = normal, 2 = strong */
	double vertical_scale;/* cells a height of 1 stands for, as terrain.vertical_scale */
	/* The layer the colour ramp shows, stretched from ramp_min..ramp_max
	 * onto it; NULL (the explorer) shows heights as they are. Shading
	 * always follows the height's slopes. */
	const float *ramp_layer;
	float ramp_min, ramp_max;
	/* Without a ramp layer, the heights the ramp's ends stand for: the
	 * explorer fits them to the terrain once, so a height keeps its colour
	 * while the map erodes. Equal (0 and 0): heights 0..1 as they are. */
	float height_lo, height_hi;
	/* The height change the erosion overlay draws at full strength; 0: fit
	 * it to the whole map at each render (shade_erosion_fit). */
	float erosion_full;
};

/* Takes light and scale from view.* and terrain.vertical_scale. */
void shade_view_from_params(struct shade_view *v, const struct params *p);

/* How pixels map onto the world for a frame of pw x ph pixels. */
struct shade_geom {
	double cpp;           /* world cells per pixel (< 1 when zoomed in) */
	int x0, y0;           /* world cell under pixel (0, 0) */
	int used_w, used_h;   /* pixels that show the world; the rest is blank */
};
void shade_geometry(const struct shade_view *v, const struct world *w, int pw, int ph,
		    struct shade_geom *g);
/* Keeps the pan inside the map for that frame size (0 when it all fits). */
void shade_clamp_pan(struct shade_view *v, const struct world *w, int pw, int ph);
/* Moves by (dx, dy) pixels' worth of cells, then clamps. */
void shade_pan(struct shade_view *v, const struct world *w, int pw, int ph, int dx, int dy);
/* The world cell under pixel (px, py); false outside the map. */
bool shade_cell_at(const struct shade_geom *g, const struct world *w, int px, int py,
		   int *cx, int *cy);

/* The ramp position 0..1 of height h in the view (its height_lo..hi). */
double shade_ramp_t(const struct shade_view *v, double h);
/* The height at ramp position t, the inverse (for the legend). */
double shade_ramp_height(const struct shade_view *v, double t);

/* What one pixel covers, reduced: means for height, base, hardness and
 * wetness; maxima for stream and pool so thin water survives downsampling. */
struct shade_sample {
	float height, base, stream, pool, hardness, wetness, vegetation;
	float ramp; /* the mean of the view's ramp_layer (height without one) */
	/* The erosion overlay's full-strength change for this frame (the
	 * renderer sets it); 0: SHADE_EROSION_FULL. */
	float erosion_full;
};
/* Reduces world cells [x0, x1) x [y0, y1) (clipped to the map, at least one
 * cell) exactly. The renderer samples means on a grid of at most 12x12 cells
 * per pixel, water maxima along every row and column of a 6x6 cross-hatch
 * (any stream or pool wider than a sixth of the pixel's block is seen), and
 * reads only the layers its overlays show. */
void shade_sample_block(const struct world *w, int x0, int y0, int x1, int y1,
			struct shade_sample *s);

struct shade_point {
	float x, y;           /* world coordinates, cells */
};

enum shade_water { WATER_NONE, WATER_STREAM, WATER_POOL };

struct shade_frame {
	int width, height;    /* pixels */
	struct rgb *px;
	uint8_t *water;       /* enum shade_water: what water an overlay shows here */
	uint8_t *blank;       /* 1 outside the map */
	struct shade_geom geom;
	struct shade_sample *samples; /* scratch, one per pixel */
	float *colmax;                /* scratch, two per pixel column (shade_sample.c) */
};

int shade_frame_init(struct shade_frame *f, int width, int height);
void shade_frame_free(struct shade_frame *f);

/* The overlays' scales, for the legend: a height change (height units)
 * shown at full strength when nothing else says (sqrt below it keeps small
 * changes visible), the pool depth drawn fully deep, the root density drawn
 * as full forest. */
#define SHADE_EROSION_FULL 0.05
#define SHADE_POOL_FULL 0.05
#define SHADE_TREES_FULL 1.0
/* The fitted scale never goes below this: a map barely touched stays pale. */
#define SHADE_EROSION_FIT_MIN 0.001
/* How strongly a height change (height - base) colours a pixel, 0..0.85,
 * when `full` (height units) is drawn at full strength. */
double shade_erosion_strength(double change, double full);
/* The erosion overlay's scale fitted to a map: the 99th percentile of
 * |height - base| over the cells that changed, at least
 * SHADE_EROSION_FIT_MIN; SHADE_EROSION_FULL when none changed. */
double shade_erosion_fit(const struct world *w);

/* Colour of one sample before shading and the light factor: exposed for tests. */
/* What water a sample shows (enum shade_water), given the blend's `wet`:
 * for glyphs where there is no colour (map and legend alike). */
int shade_water_kind(const struct shade_sample *s, unsigned overlays, bool wet);
struct rgb shade_overlay_blend(struct rgb base, const struct shade_sample *s, unsigned overlays,
			       bool *water);
/* Light factor for a surface slope (dz/dx, dz/dy in height units per cell):
 * exactly 1 on flat ground, brighter facing the light, darker away. */
double shade_light(const struct shade_view *v, double dzdx, double dzdy);

/* Renders the world into f (sized by shade_frame_init). points may be NULL. */
void shade_render(struct shade_frame *f, const struct world *w, const struct shade_view *v,
		  const struct shade_point *points, int npoints);

/* The whole world at one pixel a cell for a picture file: exactly what
 * shade_render draws at zoom 1:1 (the view's light, scale, overlays and
 * ramp layer; zoom and pan are ignored), rendered in bands of rows so the
 * memory stays small on the largest maps. out holds width x height pixels,
 * row by row. Returns a gully_err. */
int shade_image(const struct world *w, const struct shade_view *v, struct rgb *out);

/* "streams,pools,erosion,hardness,wetness,vegetation" (any of them, comma-separated;
 * "none" or "" for none) -> OVERLAY_BIT()s. Particles are not allowed:
 * they live in the explorer only. On error err names the bad entry. */
int shade_overlays_parse(const char *list, unsigned *bits, char *err, size_t errlen);

#endif
