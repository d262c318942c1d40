/* Hydrology's droplets in lanes (hlanes.h has the semantics): the state, the
 * reference read phase (hydrology_descend_lane slot by slot), the write
 * phase, and the blob. The SIMD read phases (hlanes_simd.h) do the same
 * operations on the same values in the same order, so all give the same
 * bits (no FMA: the core is built with -ffp-contract=off). */
#include "core/hydrology/hlanes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/bytes.h"
#include "core/base/cpu.h"
#include "core/base/error.h"
#include "core/base/v2.h"
#include "core/hydrology/hlanes_impl.h"

/* ---- state ------------------------------------------------------------ */

/* Harmless values for a slot nobody uses: the vector copies compute on
 * every lane and throw away what empty ones give. */
static void hlanes_clear_slot(struct hlanes *L, int i)
{
	L->x[i] = L->y[i] = 1.5f;
	L->vx[i] = L->vy[i] = L->sed[i] = 0.0f;
	L->vol[i] = 1.0;
	L->carried[i] = L->volume0[i] = 0;
	L->age[i] = L->round[i] = 0;
	L->eroded[i] = L->deposited[i] = 0;
	memset(&L->books[i], 0, sizeof L->books[i]);
	L->at[i] = 0;
	L->delta[i] = L->before[i] = 0.0f;
	L->wrote[i] = 0;
}

struct hlanes *hlanes_create(int width, int height)
{
	struct hlanes *L = aligned_alloc(32, (sizeof *L + 31) / 32 * 32);
	if (!L)
		return NULL;
	memset(L, 0, sizeof *L);
	L->width = width;
	L->height = height;
	hlanes_clear(L);
	hlanes_set_isa(L, HLANES_ISA_AUTO);
	return L;
}

void hlanes_destroy(struct hlanes *L)
{
	free(L);
}

void hlanes_clear(struct hlanes *L)
{
	for (int i = 0; i < HLANES_MAX; i++)
		hlanes_clear_slot(L, i);
	L->active = 0;
}

uint64_t hlanes_active(const struct hlanes *L)
{
	return L->active;
}

int hlanes_in_flight(const struct hlanes *L)
{
	return bits_count64(L->active);
}

double hlanes_soil_in_flight(const struct hlanes *L)
{
	double soil = 0;
	for (uint64_t a = L->active; a; a &= a - 1) {
		const int i = bits_ctz64(a);
		soil += L->eroded[i] - L->deposited[i];
	}
	return soil;
}

void hlanes_get(const struct hlanes *L, int i, struct life *l)
{
	memset(l, 0, sizeof *l);
	l->d = (struct hdrop){L->x[i],   L->y[i],       L->vx[i],  L->vy[i],
			      L->vol[i], L->sed[i],     L->carried[i], L->age[i]};
	l->b = L->books[i];
	l->b.eroded = L->eroded[i];
	l->b.deposited = L->deposited[i];
	l->round = (int)L->round[i];
	l->stage = LIFE_DESCENT;
	l->volume0 = L->volume0[i];
}

void hlanes_put(struct hlanes *L, int i, const struct life *l)
{
	L->x[i] = l->d.x;
	L->y[i] = l->d.y;
	L->vx[i] = l->d.vx;
	L->vy[i] = l->d.vy;
	L->vol[i] = l->d.volume;
	L->sed[i] = l->d.sediment;
	L->carried[i] = l->d.carried;
	L->age[i] = l->d.age;
	L->books[i] = l->b;
	L->eroded[i] = l->b.eroded;
	L->deposited[i] = l->b.deposited;
	L->round[i] = (uint32_t)l->round;
	L->volume0[i] = l->volume0;
	L->active |= (uint64_t)1 << i;
}

void hlanes_free(struct hlanes *L, int i)
{
	L->active &= ~((uint64_t)1 << i);
	hlanes_clear_slot(L, i);
}

/* ---- the read phase: the reference ------------------------------------ */

void hlanes_read_one(struct hlanes *L, const struct hd_env *e, int i, struct hlanes_tick *t)
{
	const uint64_t bit = (uint64_t)1 << i;
	struct hdrop d = {L->x[i], L->y[i], L->vx[i], L->vy[i], L->vol[i], L->sed[i], 0, L->age[i]};
	/* A droplet in a slot is on the map: it ends the tick it leaves. */
	const uint32_t at = (uint32_t)(int)d.y * (uint32_t)e->width + (uint32_t)(int)d.x;
	uint64_t steps = 0;
	struct hd_step st;
	const enum descent out = hydrology_descend_lane(e, &d, &steps, &st);
	L->x[i] = d.x;
	L->y[i] = d.y;
	L->vx[i] = d.vx;
	L->vy[i] = d.vy;
	L->vol[i] = d.volume;
	L->sed[i] = d.sediment;
	L->age[i] = d.age;
	if (steps) {
		t->stepped |= bit;
		t->steps += steps;
		L->at[i] = at;
	}
	if (out == DESCENT_MOVED) {
		L->wrote[i] = -1;
		L->delta[i] = st.delta;
	} else if (out == DESCENT_FLOOD) {
		t->flood |= bit;
	} else if (out == DESCENT_LEFT) {
		t->left |= bit;
	} else {
		t->died |= bit;
		if (st.stop == HD_STOP_PIT)
			t->pit_dry |= bit;
	}
}

static void hlanes_read_scalar(struct hlanes *L, const struct hd_env *e, int span,
			       struct hlanes_tick *t)
{
	for (uint64_t a = L->active & (span >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << span) - 1); a;
	     a &= a - 1)
		hlanes_read_one(L, e, bits_ctz64(a), t);
}

/* ---- the write phase ----------------------------------------------------- */

/* In slot order: each stepping droplet's cell visited and h[at] -= delta
 * (0 where the step did not erode or deposit: the same bits), the height it
 * found kept; the cells that moved to the flood's lake cache. */
static void hlanes_write(struct hlanes *L, const struct hd_env *e, struct flood *f,
			 uint64_t stepped)
{
	float *const h = e->h;
	uint32_t changed[HLANES_MAX];
	size_t n = 0;
	for (uint64_t m = stepped; m; m &= m - 1) {
		const int i = bits_ctz64(m);
		const uint32_t c = L->at[i];
		e->track[c] = 1;
		const float before = h[c], after = before - L->delta[i];
		h[c] = after;
		L->before[i] = before;
		changed[n] = c;
		n += after != before;
	}
	flood_forget_cells(f, changed, n);
}

/* Each change as the float height took it, to the droplet's books, as the
 * descent books it (d2_book: eroded += max(d, 0), deposited += max(-d, 0),
 * d = before - after in double) and to its carried soil; slots that did not
 * write add nothing. Slot by slot, no order between them: a loop the
 * compiler may vectorize. */
static void hlanes_books(struct hlanes *L, int span)
{
#if GULLY_USE_SSE2
	/* Two slots a vector (what the compiler would not vectorize by itself),
	 * the same operations: max(d, 0) is d2_book's maxpd; a slot that did
	 * not write has d = +0, which leaves every sum's bits as they were. */
	const __m128d zero = _mm_setzero_pd();
	for (int i = 0; i < span; i += 2) {
		const __m128 before = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(L->before + i)));
		const __m128 after = _mm_sub_ps(
			before, _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(L->delta + i))));
		const __m128i w = _mm_loadl_epi64((const __m128i *)(L->wrote + i));
		const __m128d mask = _mm_castsi128_pd(_mm_unpacklo_epi32(w, w));
		const __m128d bd = _mm_cvtps_pd(before), ad = _mm_cvtps_pd(after);
		const __m128d d = _mm_and_pd(mask, _mm_sub_pd(bd, ad));
		const __m128d nd = _mm_and_pd(mask, _mm_sub_pd(ad, bd));
		_mm_store_pd(L->eroded + i, _mm_add_pd(_mm_load_pd(L->eroded + i), _mm_max_pd(d, zero)));
		_mm_store_pd(L->deposited + i,
			     _mm_add_pd(_mm_load_pd(L->deposited + i), _mm_max_pd(nd, zero)));
		_mm_store_pd(L->carried + i, _mm_add_pd(_mm_load_pd(L->carried + i), d));
	}
#else
	for (int i = 0; i < span; i++) {
		const float before = L->before[i], after = before - L->delta[i];
		const double d = L->wrote[i] ? (double)before - (double)after : 0.0;
		L->eroded[i] += d > 0 ? d : 0.0;
		L->deposited[i] += -d > 0 ? -d : 0.0;
		L->carried[i] += d;
	}
#endif
}

/* ---- the tick ------------------------------------------------------------ */

static hlanes_read_fn hlanes_read_of(enum hlanes_isa isa)
{
#if HLANES_HAVE_SIMD
	if (isa == HLANES_ISA_AVX2)
		return hlanes_read_avx2;
	if (isa == HLANES_ISA_SSE2)
		return hlanes_read_sse2;
#endif
	(void)isa;
	return hlanes_read_scalar;
}

void hlanes_prepare(struct hlanes *L, const struct hd_env *e)
{
	const float kv[HLANES_K_COUNT] = {
		[HK_ONE] = 1.0f,
		[HK_FW1] = (float)e->width - 1.0f,
		[HK_FH1] = (float)e->height - 1.0f,
		[HK_FW] = (float)e->width,
		[HK_FH] = (float)e->height,
		[HK_DT] = e->dt,
		[HK_DENSITY] = e->density,
		[HK_FRICTION] = e->friction,
		[HK_DEPOSITION] = e->deposition,
		[HK_EVAP] = e->evap,
		[HK_STOP_STREAM] = e->stop_stream,
		[HK_STOP_ACCEL] = e->stop_accel,
		[HK_S2] = 2.0f * e->scale,
		[HK_SIXTEEN] = 16.0f,
	};
	const int32_t ki[HLANES_KI_COUNT] = {
		[HKI_WMUL] = (int32_t)((uint32_t)e->width << 16 | 1u),
		[HKI_SAFE] = e->width + 1,
		[HKI_MAX_STEPS] = (int32_t)e->max_steps,
	};
	for (int j = 0; j < 8; j++) {
		for (int k = 0; k < HLANES_K_COUNT; k++)
			L->kv[k][j] = kv[k];
		for (int k = 0; k < HLANES_KI_COUNT; k++)
			L->ki[k][j] = ki[k];
		L->ki[HKI_BITS][j] = 1 << j;
	}
	normal_consts8_init(&L->nk8, &e->nk);
}

void hlanes_tick(struct hlanes *L, const struct hd_env *e, struct flood *f, int span,
		 struct hlanes_tick *t)
{
	memset(t, 0, sizeof *t);
	memset(L->delta, 0, (size_t)span * sizeof L->delta[0]);
	memset(L->wrote, 0, (size_t)span * sizeof L->wrote[0]);
	/* The vector copies need the map 16-bit addressable (iw_madd16) and
	 * a 3x3 block inside it; otherwise the reference runs. */
	const bool simd = e->width >= 3 && e->height >= 3 && e->width < 32768 && e->height < 32768;
	hlanes_read_fn read = simd ? hlanes_read_of(L->isa) : hlanes_read_scalar;
	read(L, e, span, t);
	hlanes_write(L, e, f, t->stepped);
	hlanes_books(L, span);
}

/* ---- which copy ------------------------------------------------------------ */

bool hlanes_set_isa(struct hlanes *L, enum hlanes_isa isa)
{
#if HLANES_HAVE_SIMD
	const bool avx2 = cpu_has_avx2();
	if (isa == HLANES_ISA_AUTO)
		isa = avx2 ? HLANES_ISA_AVX2 : HLANES_ISA_SSE2;
	if (isa == HLANES_ISA_AVX2 && !avx2)
		return false;
#else
	if (isa == HLANES_ISA_AUTO)
		isa = HLANES_ISA_SCALAR;
	if (isa != HLANES_ISA_SCALAR)
		return false;
#endif
	L->isa = isa;
	return true;
}
