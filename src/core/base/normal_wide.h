/* normal_xz's twin across droplets: lane j of each vector is droplet j, and
 * each lane does normal_xz's operations in its order (base/normal.h), so
 * gives its bits. Built at the width base/floatw.h was included for. */
#ifndef GULLY_CORE_BASE_NORMAL_WIDE_H
#define GULLY_CORE_BASE_NORMAL_WIDE_H

#include "core/base/floatw.h"
#include "core/base/normal.h"

/* Each lane's 3x3 block: u the row above, m the cell's, d the row below; 0
 * the column left, 1 the cell's, 2 right. */
struct normal_block {
	floatw u0, u1, u2, m0, m1, m2, d0, d1, d2;
};

/* The blocks around each lane's cell of a map `stride` wide; every lane's
 * block must be on the map. Three 4-wide loads a lane and a transpose: the
 * row above and the cell's row from column -1, the row below from column -2,
 * so that none reads past the map's last cell. */
static inline __attribute__((always_inline)) struct normal_block
normal_block_w(const float *h, intw cell, uint32_t stride)
{
	const ptrdiff_t W = (ptrdiff_t)stride;
	const float *pa[FLOATW_WIDTH];
	fw_pointers(h, cell, pa);
	struct normal_block b;
	floatw unused;
	fw_columns(fw_row(pa, 0, -W - 1), fw_row(pa, 1, -W - 1), fw_row(pa, 2, -W - 1),
		   fw_row(pa, 3, -W - 1), &b.u0, &b.u1, &b.u2, &unused);
	fw_columns(fw_row(pa, 0, -1), fw_row(pa, 1, -1), fw_row(pa, 2, -1), fw_row(pa, 3, -1),
		   &b.m0, &b.m1, &b.m2, &unused);
	fw_columns(fw_row(pa, 0, W - 2), fw_row(pa, 1, W - 2), fw_row(pa, 2, W - 2),
		   fw_row(pa, 3, W - 2), &unused, &b.d0, &b.d1, &b.d2);
	return b;
}

/* d / sqrt(d^2 + c) with d = centre - neighbour: one term. */
static inline floatw normal_q_w(floatw centre, floatw nb, const float *c)
{
	const floatw d = fw_sub(centre, nb);
	return fw_div(d, fw_sqrt(fw_add(fw_mul(d, d), fw_load(c))));
}

/* Lane i's share of x or z: q_ax w_ax + q_dg w_dg. */
static inline floatw normal_v_w(floatw q_ax, floatw q_dg, const float *w_ax, const float *w_dg)
{
	return fw_add(fw_mul(q_ax, fw_load(w_ax)), fw_mul(q_dg, fw_load(w_dg)));
}

/* (nx, nz) of each lane from its block. Axes (+x, -x, +y, -y), diagonals
 * (+x+y, +x-y, -x+y, -x-y). */
static inline void normal_xz_w(const struct normal_block *b, const struct normal_consts8 *k,
			       floatw *nx, floatw *nz)
{
	const floatw m = b->m1;
	const floatw qa0 = normal_q_w(m, b->m2, k->one_s2), qa1 = normal_q_w(m, b->m0, k->one_s2);
	const floatw qa2 = normal_q_w(m, b->d1, k->one_s2), qa3 = normal_q_w(m, b->u1, k->one_s2);
	const floatw qd0 = normal_q_w(m, b->d2, k->two_s2), qd1 = normal_q_w(m, b->u2, k->two_s2);
	const floatw qd2 = normal_q_w(m, b->d0, k->two_s2), qd3 = normal_q_w(m, b->u0, k->two_s2);
	const floatw vx0 = normal_v_w(qa0, qd0, k->wax_x[0], k->wdg_x[0]);
	const floatw vx1 = normal_v_w(qa1, qd1, k->wax_x[1], k->wdg_x[1]);
	const floatw vx2 = normal_v_w(qa2, qd2, k->wax_x[2], k->wdg_x[2]);
	const floatw vx3 = normal_v_w(qa3, qd3, k->wax_x[3], k->wdg_x[3]);
	const floatw vz0 = normal_v_w(qa0, qd0, k->wax_z[0], k->wdg_z[0]);
	const floatw vz1 = normal_v_w(qa1, qd1, k->wax_z[1], k->wdg_z[1]);
	const floatw vz2 = normal_v_w(qa2, qd2, k->wax_z[2], k->wdg_z[2]);
	const floatw vz3 = normal_v_w(qa3, qd3, k->wax_z[3], k->wdg_z[3]);
	*nx = fw_add(fw_add(vx0, vx2), fw_add(vx1, vx3));
	*nz = fw_add(fw_add(vz0, vz2), fw_add(vz1, vz3));
}

#endif
