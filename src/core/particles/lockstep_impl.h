/* The lockstep engine's state, shared by lockstep.c (state, refill, write and
 * end phases, books, blob, the portable read phase) and the SIMD copies of the
 * read phase (lockstep_simd.h, built once per vector width). Private to
 * src/core/particles. */
#ifndef GULLY_CORE_PARTICLES_LOCKSTEP_IMPL_H
#define GULLY_CORE_PARTICLES_LOCKSTEP_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/bits.h"
#include "core/particles/droplet.h"
#include "core/particles/lockstep.h"

/* The tick's constants, eight copies each (pl->kv), for the vector copies to
 * read as memory operands (a broadcast per use costs an instruction). */
enum lockstep_k {
	K_ONE, K_FW1, K_FH1, K_FW, K_FH, K_DT, K_KEEP, K_DENSITY, K_RATE, K_KEEP_VOLUME, K_HARDNESS,
	LOCKSTEP_K_COUNT
};
/* KI_WMUL: (width << 16 | 1) for a cell's index by one 16-bit multiply-add;
 * KI_SAFE: the index of cell (1, 1); KI_BITS: 1 << lane. */
enum lockstep_ki { KI_WMUL, KI_SAFE, KI_BITS, LOCKSTEP_KI_COUNT };

struct lockstep {
	int width, height;
	enum lockstep_isa isa; /* never LOCKSTEP_ISA_AUTO */
	struct workers *workers; /* the read phase's threads; NULL: one */
	uint64_t active;       /* bit i: slot i holds a droplet */
	/* The droplets, one array per field, slot i at index i. */
	float x[LOCKSTEP_MAX_LANES], y[LOCKSTEP_MAX_LANES];
	float vx[LOCKSTEP_MAX_LANES], vy[LOCKSTEP_MAX_LANES];
	float volume[LOCKSTEP_MAX_LANES], sediment[LOCKSTEP_MAX_LANES];
	uint32_t left[LOCKSTEP_MAX_LANES];                            /* steps it may still take */
	uint32_t left0[LOCKSTEP_MAX_LANES], age0[LOCKSTEP_MAX_LANES]; /* age = age0 + left0 - left */
	double carried[LOCKSTEP_MAX_LANES]; /* net soil taken from the ground */
	/* The tick's write phase: h[wat[i]] -= delta[i] (0 for slots that do
	 * not write: a no-op on cell 0). */
	float delta[LOCKSTEP_MAX_LANES];
	uint32_t wat[LOCKSTEP_MAX_LANES];
	float before[LOCKSTEP_MAX_LANES]; /* the height each found there */
	/* The vector copies' read phase, between its two passes: each slot's
	 * normal, the height of its cell, dt / (V rho), its masks and its cell. */
	float t_nx[LOCKSTEP_MAX_LANES], t_nz[LOCKSTEP_MAX_LANES], t_here[LOCKSTEP_MAX_LANES];
	float t_inv[LOCKSTEP_MAX_LANES], t_step[LOCKSTEP_MAX_LANES], t_act[LOCKSTEP_MAX_LANES];
	int32_t t_at[LOCKSTEP_MAX_LANES];
	float kv[LOCKSTEP_K_COUNT][8];
	int32_t ki[LOCKSTEP_KI_COUNT][8];
	struct normal_consts8 nk8;
	/* The parameters the left counts were made with. */
	bool counted;
	float keep_volume, min_volume;
	uint32_t max_steps;
};

/* A read phase's outcome: which slots ended, how many stepped. */
struct lockstep_tick {
	uint64_t ended;
	uint64_t steps;
};

/* The running sums the phases add to. */
struct lockstep_books {
	double eroded, deposited, off_map;
};

/* A copy of the read phase over slots [begin, end) (multiples of its
 * vector width), and of the books over slots [0, n). */
typedef struct lockstep_tick (*lockstep_read_fn)(struct lockstep *pl, const struct droplet_env *e,
						 int begin, int end);
typedef void (*lockstep_books_fn)(struct lockstep *pl, int n, struct lockstep_books *b);

#if GULLY_USE_SSE2 && defined(__GNUC__) && defined(__x86_64__)
#define LOCKSTEP_HAVE_SIMD 1
struct lockstep_tick lockstep_read_sse2(struct lockstep *pl, const struct droplet_env *e, int begin,
					int end);
void lockstep_books_sse2(struct lockstep *pl, int n, struct lockstep_books *b);
struct lockstep_tick lockstep_read_avx2(struct lockstep *pl, const struct droplet_env *e, int begin,
					int end);
void lockstep_books_avx2(struct lockstep *pl, int n, struct lockstep_books *b);
#else
#define LOCKSTEP_HAVE_SIMD 0
#endif

#endif
