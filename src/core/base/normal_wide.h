/* normal_xz's twin across droplets: lane j of each vector is droplet j, and
 * each lane does normal_xz's operations in its order (base/normal.h), so
 * gives its bits. Built at the width base/floatw.h was included for. */
#ifndef GULLY_CORE_BASE_NORMAL_WIDE_H
#define GULLY_CORE_BASE_NORMAL_WIDE_H

#include "core/base/floatw.h"
#include "core/base/normal.h"

/* The 3x3 blocks around each lane's cell of a map `stride` wide, as nine
 * vectors b[row * 3 + col] (row 0 above, col 0 left). Every lane's block
 * must be on the map. Three 4-wide loads a lane and a transpose: the row
 * above and the cell's row from column -1, the row below from column -2, so
 * that none reads past the map's last cell. */
static inline void normal_block_w(const float *h, intw cell, uint32_t stride, floatw b[9])
{
	const ptrdiff_t W = (ptrdiff_t)stride;
	const float *pa[FLOATW_WIDTH];
	fw_pointers(h, cell, pa);
	floatw r[4], c[4];
	fw_rows(pa, -W - 1, r);
	fw_transpose4(r, c);
	b[0] = c[0], b[1] = c[1], b[2] = c[2];
	fw_rows(pa, -1, r);
	fw_transpose4(r, c);
	b[3] = c[0], b[4] = c[1], b[5] = c[2];
	fw_rows(pa, W - 2, r);
	fw_transpose4(r, c);
	b[6] = c[1], b[7] = c[2], b[8] = c[3];
}

/* d / sqrt(d^2 + c) with d = centre - neighbour: one term. */
static inline floatw normal_q_w(floatw centre, floatw nb, floatw c)
{
	const floatw d = fw_sub(centre, nb);
	return fw_div(d, fw_sqrt(fw_add(fw_mul(d, d), c)));
}

/* The constants of normal_consts, one vector each (lane-broadcast). */
struct normal_consts_w {
	floatw wax_x[4], wax_z[4], wdg_x[4], wdg_z[4];
	floatw one_s2, two_s2;
};

/* (nx, nz) of each lane from its block b (normal_block_w). */
static inline void normal_xz_w(const floatw b[9], const struct normal_consts_w *k, floatw *nx,
			       floatw *nz)
{
	const floatw m = b[4];
	/* Axes (+x, -x, +y, -y), diagonals (+x+y, +x-y, -x+y, -x-y). */
	const floatw qa[4] = {normal_q_w(m, b[5], k->one_s2), normal_q_w(m, b[3], k->one_s2),
			      normal_q_w(m, b[7], k->one_s2), normal_q_w(m, b[1], k->one_s2)};
	const floatw qd[4] = {normal_q_w(m, b[8], k->two_s2), normal_q_w(m, b[2], k->two_s2),
			      normal_q_w(m, b[6], k->two_s2), normal_q_w(m, b[0], k->two_s2)};
	floatw vx[4], vz[4];
	for (int i = 0; i < 4; i++) {
		vx[i] = fw_add(fw_mul(qa[i], k->wax_x[i]), fw_mul(qd[i], k->wdg_x[i]));
		vz[i] = fw_add(fw_mul(qa[i], k->wax_z[i]), fw_mul(qd[i], k->wdg_z[i]));
	}
	*nx = fw_add(fw_add(vx[0], vx[2]), fw_add(vx[1], vx[3]));
	*nz = fw_add(fw_add(vz[0], vz[2]), fw_add(vz[1], vz[3]));
}

#endif
