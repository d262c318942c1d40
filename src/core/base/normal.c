#include "core/base/normal.h"

void normal_consts_init(struct normal_consts *k, float scale, bool symmetric)
{
	const float r = 1.0f / NORMAL_SQRT2;
	static const float ax_x[4] = {1, -1, 0, 0}, ax_z[4] = {0, 0, 1, -1};
	static const float sx[4] = {1, 1, -1, -1}, sz[4] = {1, -1, 1, -1};
	const float sign = scale < 0.0f ? -1.0f : 1.0f;
	for (int i = 0; i < 4; i++) {
		const float dg_x = symmetric ? sx[i] * r : r;
		const float dg_z = symmetric ? sz[i] * r : r;
		k->wax_x[i] = NORMAL_AXIS_WEIGHT * ax_x[i] * sign;
		k->wax_z[i] = NORMAL_AXIS_WEIGHT * ax_z[i] * sign;
		k->wdg_x[i] = NORMAL_DIAG_WEIGHT * dg_x * sign;
		k->wdg_z[i] = NORMAL_DIAG_WEIGHT * dg_z * sign;
		k->one_s2[i] = 1.0f / (scale * scale);
		k->two_s2[i] = 2.0f / (scale * scale);
	}
	k->scale = scale;
	k->symmetric = symmetric;
}

void normal_consts8_init(struct normal_consts8 *k8, const struct normal_consts *k)
{
	for (int j = 0; j < 8; j++) {
		for (int i = 0; i < 4; i++) {
			k8->wax_x[i][j] = k->wax_x[i];
			k8->wax_z[i][j] = k->wax_z[i];
			k8->wdg_x[i][j] = k->wdg_x[i];
			k8->wdg_z[i][j] = k->wdg_z[i];
		}
		k8->one_s2[j] = k->one_s2[0];
		k8->two_s2[j] = k->two_s2[0];
	}
}

/* Height with the map extended linearly past its edges. */
static float height_ext(const float *h, int w, int hh, int x, int y)
{
	if (x < 0)
		return 2.0f * height_ext(h, w, hh, 0, y) - height_ext(h, w, hh, 1, y);
	if (x >= w)
		return 2.0f * height_ext(h, w, hh, w - 1, y) - height_ext(h, w, hh, w - 2, y);
	if (y < 0)
		return 2.0f * h[x] - h[(size_t)w + (size_t)x];
	if (y >= hh)
		return 2.0f * h[(size_t)(hh - 1) * (size_t)w + (size_t)x] -
		       h[(size_t)(hh - 2) * (size_t)w + (size_t)x];
	return h[(size_t)y * (size_t)w + (size_t)x];
}

static const int dir_dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int dir_dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};

void normal_ref(const float *h, int width, int height, int x, int y, float scale, bool symmetric,
		float n[3])
{
	const float c = h[(size_t)y * (size_t)width + (size_t)x];
	float nx = 0, ny = 0, nz = 0;
	for (int k = 0; k < 8; k++) {
		const float a = scale * (c - height_ext(h, width, height, x + dir_dx[k], y + dir_dy[k]));
		if (k < 4) {
			const float inv = NORMAL_AXIS_WEIGHT / sqrtf(a * a + 1.0f);
			nx += (float)dir_dx[k] * a * inv;
			nz += (float)dir_dy[k] * a * inv;
			ny += inv;
		} else {
			const float inv = NORMAL_DIAG_WEIGHT / sqrtf(a * a + 2.0f);
			const float t = a * inv * (1.0f / NORMAL_SQRT2);
			nx += (symmetric ? (float)dir_dx[k] : 1.0f) * t;
			nz += (symmetric ? (float)dir_dy[k] : 1.0f) * t;
			ny += NORMAL_SQRT2 * inv;
		}
	}
	n[0] = nx;
	n[1] = ny;
	n[2] = nz;
}

v2f normal_edge_xz(const float *h, int width, int height, int x, int y,
		   const struct normal_consts *k)
{
	float n[3];
	normal_ref(h, width, height, x, y, k->scale, k->symmetric, n);
	return v2_make(n[0], n[2]);
}
