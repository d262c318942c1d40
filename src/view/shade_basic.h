/* A height colour ramp with simple hill shading: the pictures `gully render`
 * writes. Curses-free and small on purpose; the explorer's shading may
 * replace it. */
#ifndef GULLY_SHADE_BASIC_H
#define GULLY_SHADE_BASIC_H

/* The colour of t in [0, 1] (clamped; NaN counts as 0) on a terrain ramp:
 * green lowlands, brown hills, grey rock, white tops. */
void shade_basic_ramp(float t, unsigned char rgb[3]);

/* Light on cell (x, y) of a height map, from the north-west at 45 degrees:
 * 1 on flat ground, more on slopes facing the light, less (down to 0.25)
 * facing away. `scale` is height units per cell (terrain.vertical_scale).
 * Off-map neighbours are the edge cell itself. */
float shade_basic_light(const float *height, int width, int rows, int x, int y, float scale);

/* Fills rgb (3 bytes a cell, row-major) with value's colour, vmin..vmax
 * mapped onto the ramp, lit by the shape of `height`. */
void shade_basic_image(const float *height, const float *value, int width, int rows,
		       float vmin, float vmax, float scale, unsigned char *rgb);

#endif
