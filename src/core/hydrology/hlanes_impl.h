/* The lanes' state, shared by hlanes.c (state, write phase, blob, the
 * reference read phase) and the SIMD read phases (hlanes_simd.h, built once
 * per vector width). Private to src/core/hydrology. */
#ifndef GULLY_HYDROLOGY_HLANES_IMPL_H
#define GULLY_HYDROLOGY_HLANES_IMPL_H

#include <stdint.h>

#include "core/base/normal.h"
#include "core/hydrology/hlanes.h"

/* The tick's constants, eight copies each (L->kv), read by the vector copies
 * as memory operands. */
enum hlanes_k {
	HK_ONE, HK_FW1, HK_FH1, HK_FW, HK_FH, HK_DT, HK_DENSITY, HK_FRICTION, HK_DEPOSITION,
	HK_EVAP, HK_STOP_STREAM, HK_STOP_ACCEL, HK_S2, HK_SIXTEEN,
	HLANES_K_COUNT
};
/* HKI_WMUL: (width << 16 | 1), a cell's index by one 16-bit multiply-add;
 * HKI_SAFE: the index of cell (1, 1); HKI_BITS: 1 << lane; HKI_MAX_STEPS. */
enum hlanes_ki { HKI_WMUL, HKI_SAFE, HKI_BITS, HKI_MAX_STEPS, HLANES_KI_COUNT };

struct hlanes {
	int width, height;
	enum hlanes_isa isa; /* never HLANES_ISA_AUTO */
	uint64_t active;     /* bit i: slot i holds a droplet */
	/* The droplets, one array per field, slot i at index i: hdrop's fields
	 * and the rest of a life (hydrology_life.h) at LIFE_DESCENT. */
	_Alignas(32) float x[HLANES_MAX], y[HLANES_MAX], vx[HLANES_MAX], vy[HLANES_MAX];
	_Alignas(32) float sed[HLANES_MAX];
	_Alignas(32) double vol[HLANES_MAX], carried[HLANES_MAX], volume0[HLANES_MAX];
	_Alignas(32) uint32_t age[HLANES_MAX], round[HLANES_MAX];
	/* The books: eroded and deposited here (the write phase adds to them
	 * across slots), the rest of struct books in `books`. */
	_Alignas(32) double eroded[HLANES_MAX], deposited[HLANES_MAX];
	struct books books[HLANES_MAX];
	/* The tick's steps: the cell each stepping slot left, and where it
	 * eroded (`wrote` all ones) h[at] -= delta (delta 0 elsewhere), the
	 * height it found there. */
	_Alignas(32) uint32_t at[HLANES_MAX];
	_Alignas(32) float delta[HLANES_MAX], before[HLANES_MAX];
	_Alignas(32) int32_t wrote[HLANES_MAX];
	/* Between the vector copies' two passes: each slot's normal, its cell's
	 * height, its rates, its volume as a float, 1 / (V rho), its masks. */
	_Alignas(32) float t_nx[HLANES_MAX], t_nz[HLANES_MAX], t_here[HLANES_MAX];
	_Alignas(32) float t_fr[HLANES_MAX], t_ev[HLANES_MAX], t_dep[HLANES_MAX];
	_Alignas(32) float t_vol[HLANES_MAX], t_inv[HLANES_MAX], t_go[HLANES_MAX];
	_Alignas(32) float kv[HLANES_K_COUNT][8];
	_Alignas(32) int32_t ki[HLANES_KI_COUNT][8];
	struct normal_consts8 nk8;
};

/* A copy of the read phase over slots [0, span): every droplet in flight
 * takes its step, into L's arrays and t. */
typedef void (*hlanes_read_fn)(struct hlanes *L, const struct hd_env *e, int span,
			       struct hlanes_tick *t);

/* One slot through the reference (hydrology_descend_lane), into t: the
 * read phase's portable copy, and the vector copies' for slots near the
 * map's edge. */
void hlanes_read_one(struct hlanes *L, const struct hd_env *e, int i, struct hlanes_tick *t);

#if GULLY_USE_SSE2 && defined(__GNUC__) && defined(__x86_64__)
#define HLANES_HAVE_SIMD 1
void hlanes_read_sse2(struct hlanes *L, const struct hd_env *e, int span, struct hlanes_tick *t);
void hlanes_read_avx2(struct hlanes *L, const struct hd_env *e, int span, struct hlanes_tick *t);
#else
#define HLANES_HAVE_SIMD 0
#endif

#endif
