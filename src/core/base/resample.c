#include "core/base/resample.h"

#include <stddef.h>

/* The source coordinate of destination cell i, clamped to the source, as the
 * cell below and the weight of the one after it. */
static void source_at(int i, double scale, int n, int *lo, int *hi, double *t)
{
	double f = ((double)i + 0.5) * scale - 0.5;
	if (f < 0)
		f = 0;
	if (f > n - 1)
		f = n - 1;
	*lo = (int)f;
	*hi = *lo + 1 < n ? *lo + 1 : *lo;
	*t = f - *lo;
}

void grid_resample(const float *src, int sw, int sh, float *dst, int dw, int dh)
{
	double sx = (double)sw / (double)dw, sy = (double)sh / (double)dh;
	for (int y = 0; y < dh; y++) {
		int y0, y1;
		double ty;
		source_at(y, sy, sh, &y0, &y1, &ty);
		const float *r0 = src + (size_t)y0 * (size_t)sw;
		const float *r1 = src + (size_t)y1 * (size_t)sw;
		for (int x = 0; x < dw; x++) {
			int x0, x1;
			double tx;
			source_at(x, sx, sw, &x0, &x1, &tx);
			double top = r0[x0] + (r0[x1] - r0[x0]) * tx;
			double bot = r1[x0] + (r1[x1] - r1[x0]) * tx;
			dst[(size_t)y * (size_t)dw + (size_t)x] = (float)(top + (bot - top) * ty);
		}
	}
}
