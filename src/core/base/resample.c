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
			/* In double: the difference of two floats near +-3e38 is
			 * no float, and inf * 0 would be NaN (issue 14 #3). */
			double a = r0[x0], b = r0[x1], c = r1[x0], e = r1[x1];
			double top = a + (b - a) * tx;
			double bot = c + (e - c) * tx;
			dst[(size_t)y * (size_t)dw + (size_t)x] = (float)(top + (bot - top) * ty);
		}
	}
}
