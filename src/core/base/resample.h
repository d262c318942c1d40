/* Resampling a grid of floats to another size: one copy of the bilinear
 * stretch every imported map (hardness, rain) goes through. */
#ifndef GULLY_RESAMPLE_H
#define GULLY_RESAMPLE_H

/* dst (dw x dh) from src (sw x sh), bilinear with cell centres on cell
 * centres, so equal sizes copy exactly. Sizes must be positive. */
void grid_resample(const float *src, int sw, int sh, float *dst, int dw, int dh);

#endif
