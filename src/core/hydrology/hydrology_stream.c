#include "core/hydrology/hydrology_stream.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/cpu.h"
#include "core/base/error.h"
#include "core/base/v2.h"
#include "core/base/workers.h"

/* An AVX copy of the long catch-up (decay64_avx), picked at run time as the
 * particles' lockstep read phase is (particles/lockstep.c): the same IEEE
 * operations lane by lane, eight lanes a vector. */
#if GULLY_USE_SSE2 && defined(__GNUC__) && defined(__x86_64__)
#define HSTREAM_HAVE_AVX 1
#include <immintrin.h>
#else
#define HSTREAM_HAVE_AVX 0
#endif

int hstream_init(struct hstream *hs, float *stream, uint8_t *track, size_t n)
{
	memset(hs, 0, sizeof *hs);
	hs->stream = stream;
	hs->track = track;
	hs->n = n;
	hs->ntiles = (n + HSTREAM_TILE - 1) / HSTREAM_TILE;
	hs->stamp = calloc(hs->ntiles ? hs->ntiles : 1, 1);
	hs->list = malloc((hs->ntiles ? hs->ntiles : 1) * sizeof *hs->list);
	hs->lazy = n > HSTREAM_LAZY_CELLS;
#if HSTREAM_HAVE_AVX
	hs->avx = cpu_has_avx();
#endif
	return hs->stamp && hs->list ? GULLY_OK : GULLY_ENOMEM;
}

void hstream_free(struct hstream *hs)
{
	free(hs->stamp);
	free(hs->list);
	hs->stamp = NULL;
	hs->list = NULL;
}

/* One batch, visited or not: stream += lrate (visited - stream), clamped to
 * [0, 1]. The core library is built at -O2 (CFLAGS comes after its -O3),
 * where GCC does not vectorise this loop: four cells at a time by hand, the
 * same IEEE operations per cell (NaN stays NaN, as in the scalar tail). */
static void stream_learn(float *stream, const uint8_t *track, size_t n, float lrate)
{
	size_t i = 0;
#if GULLY_USE_SSE2
	const __m128 lr = _mm_set1_ps(lrate), zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
	const __m128i z = _mm_setzero_si128();
	for (; i + 4 <= n; i += 4) {
		int32_t t4;
		memcpy(&t4, track + i, 4);
		const __m128i b = _mm_unpacklo_epi16(
			_mm_unpacklo_epi8(_mm_cvtsi32_si128(t4), z), z);
		const __m128 s = _mm_loadu_ps(stream + i);
		const __m128 v = _mm_add_ps(s, _mm_mul_ps(lr, _mm_sub_ps(_mm_cvtepi32_ps(b), s)));
		const __m128 gt = _mm_cmpgt_ps(v, one);
		const __m128 r = _mm_or_ps(_mm_and_ps(gt, one), _mm_andnot_ps(gt, v));
		_mm_storeu_ps(stream + i, _mm_andnot_ps(_mm_cmplt_ps(v, zero), r));
	}
#endif
	for (; i < n; i++) {
		float v = stream[i] + lrate * ((float)track[i] - stream[i]);
		stream[i] = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
	}
}

/* k unvisited batches: stream_learn with every track byte 0, k times over.
 * After the first, the value is in [+0, 1] or NaN, where
 * v + lrate (0 - v) (lrate <= 1) stays in [+0, v]: the clamp changes nothing
 * and is left out. Groups of +0 cells stay +0 and are skipped. Four SSE
 * vectors (a tile) or eight AVX ones go through the k batches side by side
 * in registers, so the adds and multiplies of different cells overlap
 * instead of waiting on each other. */
#if GULLY_USE_SSE2
#define HS_FIRST(x)                                                                  \
	do {                                                                         \
		const __m128 v_ = _mm_add_ps(x, _mm_mul_ps(lr, _mm_sub_ps(zero, x))); \
		const __m128 gt_ = _mm_cmpgt_ps(v_, one);                            \
		const __m128 r_ = _mm_or_ps(_mm_and_ps(gt_, one), _mm_andnot_ps(gt_, v_)); \
		x = _mm_andnot_ps(_mm_cmplt_ps(v_, zero), r_);                       \
	} while (0)
#define HS_NEXT(x) x = _mm_add_ps(x, _mm_mul_ps(lr, _mm_sub_ps(zero, x)))

static inline bool hs_zero(__m128 a, __m128 b, __m128 c, __m128 d)
{
	const __m128i o = _mm_or_si128(_mm_or_si128(_mm_castps_si128(a), _mm_castps_si128(b)),
				       _mm_or_si128(_mm_castps_si128(c), _mm_castps_si128(d)));
	return _mm_movemask_epi8(_mm_cmpeq_epi32(o, _mm_setzero_si128())) == 0xffff;
}

/* 16 cells. */
static void decay16(float *p, uint32_t k, __m128 lr)
{
	const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
	__m128 a = _mm_loadu_ps(p), b = _mm_loadu_ps(p + 4);
	__m128 c = _mm_loadu_ps(p + 8), d = _mm_loadu_ps(p + 12);
	if (hs_zero(a, b, c, d))
		return;
	HS_FIRST(a); HS_FIRST(b); HS_FIRST(c); HS_FIRST(d);
	for (uint32_t i = 1; i < k; i++) {
		HS_NEXT(a); HS_NEXT(b); HS_NEXT(c); HS_NEXT(d);
	}
	_mm_storeu_ps(p, a); _mm_storeu_ps(p + 4, b);
	_mm_storeu_ps(p + 8, c); _mm_storeu_ps(p + 12, d);
}

#endif

#if HSTREAM_HAVE_AVX
/* The clamp above 1 as vminps(1, v): 1 where 1 < v, else v, so NaN and -0
 * keep their bits. (A blendv on the comparison compiled to a branch for
 * every lane under GCC 12.) */
#define HA_FIRST(x)                                                                        \
	do {                                                                               \
		const __m256 v_ = _mm256_add_ps(x, _mm256_mul_ps(lr, _mm256_sub_ps(zero, x))); \
		const __m256 r_ = _mm256_min_ps(one, v_);                                    \
		x = _mm256_andnot_ps(_mm256_cmp_ps(v_, zero, _CMP_LT_OQ), r_);          \
	} while (0)
#define HA_NEXT(x) x = _mm256_add_ps(x, _mm256_mul_ps(lr, _mm256_sub_ps(zero, x)))
/* The same for a value that is no NaN, in two operations: v - lrate v.
 * Rounding is symmetric, so lrate (-v) is -(lrate v) to the bit, and
 * v + -(w) is v - w; at v = +0 and -0 both forms give +0. A read's
 * catch-up waits on this chain: a multiply and a subtract a batch, with no
 * sign flip in it. */
#define HA_FAST(x) x = _mm256_sub_ps(x, _mm256_mul_ps(lr, x))
#define HA_NAN(x) _mm256_cmp_ps(x, x, _CMP_UNORD_Q)

/* 64 cells, eight vectors of eight. The clamp is HS_FIRST's: a lane above 1
 * takes 1, a lane below 0 takes +0, any other (NaN too) keeps its value. */
__attribute__((target("avx"))) static void decay64_avx(float *p, uint32_t k, float lrate)
{
	const __m256 lr = _mm256_set1_ps(lrate), zero = _mm256_setzero_ps(),
		     one = _mm256_set1_ps(1.0f);
	__m256 a = _mm256_loadu_ps(p), b = _mm256_loadu_ps(p + 8);
	__m256 c = _mm256_loadu_ps(p + 16), d = _mm256_loadu_ps(p + 24);
	__m256 e = _mm256_loadu_ps(p + 32), f = _mm256_loadu_ps(p + 40);
	__m256 g = _mm256_loadu_ps(p + 48), h = _mm256_loadu_ps(p + 56);
	const __m256 o = _mm256_or_ps(_mm256_or_ps(_mm256_or_ps(a, b), _mm256_or_ps(c, d)),
				      _mm256_or_ps(_mm256_or_ps(e, f), _mm256_or_ps(g, h)));
	if (_mm256_testz_si256(_mm256_castps_si256(o), _mm256_castps_si256(o)))
		return;
	HA_FIRST(a); HA_FIRST(b); HA_FIRST(c); HA_FIRST(d);
	HA_FIRST(e); HA_FIRST(f); HA_FIRST(g); HA_FIRST(h);
	const __m256 nan = _mm256_or_ps(_mm256_or_ps(_mm256_or_ps(HA_NAN(a), HA_NAN(b)),
						     _mm256_or_ps(HA_NAN(c), HA_NAN(d))),
					_mm256_or_ps(_mm256_or_ps(HA_NAN(e), HA_NAN(f)),
						     _mm256_or_ps(HA_NAN(g), HA_NAN(h))));
	if (_mm256_movemask_ps(nan) == 0) {
		for (uint32_t i = 1; i < k; i++) {
			HA_FAST(a); HA_FAST(b); HA_FAST(c); HA_FAST(d);
			HA_FAST(e); HA_FAST(f); HA_FAST(g); HA_FAST(h);
		}
	} else {
		for (uint32_t i = 1; i < k; i++) {
			HA_NEXT(a); HA_NEXT(b); HA_NEXT(c); HA_NEXT(d);
			HA_NEXT(e); HA_NEXT(f); HA_NEXT(g); HA_NEXT(h);
		}
	}
	_mm256_storeu_ps(p, a); _mm256_storeu_ps(p + 8, b);
	_mm256_storeu_ps(p + 16, c); _mm256_storeu_ps(p + 24, d);
	_mm256_storeu_ps(p + 32, e); _mm256_storeu_ps(p + 40, f);
	_mm256_storeu_ps(p + 48, g); _mm256_storeu_ps(p + 56, h);
}

/* One tile, two vectors of eight: a read's catch-up waits on this chain
 * alone, two float operations a batch where decay16 has three. */
__attribute__((target("avx"))) static void decay16_avx(float *p, uint32_t k, float lrate)
{
	const __m256 lr = _mm256_set1_ps(lrate), zero = _mm256_setzero_ps(),
		     one = _mm256_set1_ps(1.0f);
	__m256 a = _mm256_loadu_ps(p), b = _mm256_loadu_ps(p + 8);
	const __m256 o = _mm256_or_ps(a, b);
	if (_mm256_testz_si256(_mm256_castps_si256(o), _mm256_castps_si256(o)))
		return;
	HA_FIRST(a); HA_FIRST(b);
	if (_mm256_movemask_ps(_mm256_or_ps(HA_NAN(a), HA_NAN(b))) == 0) {
		for (uint32_t i = 1; i < k; i++) {
			HA_FAST(a); HA_FAST(b);
		}
	} else {
		for (uint32_t i = 1; i < k; i++) {
			HA_NEXT(a); HA_NEXT(b);
		}
	}
	_mm256_storeu_ps(p, a);
	_mm256_storeu_ps(p + 8, b);
}

/* The cells of whole tiles that owe the same k batches and are not +0
 * (bits, so -0 counts): a window's close decays only these. A run's trails
 * are thin, so the 64-cell groups decay64_avx skips when all +0 still hold
 * twenty +0 cells for each one that is not. Each cell takes its own
 * operations, wherever it sits in a vector, so the bits are the same. */
#define GATHER_CELLS 64
/* Below this many batches owed, the cells cost more to gather than to
 * decay in place with the +0 cells around them (a frame's close in the
 * explorer owes a few, a window's 120). */
#define HSTREAM_GATHER_BATCHES 32u
struct gather {
	uint32_t k;
	uint32_t n;
	uint32_t cell[GATHER_CELLS]; /* stream map indices */
};

__attribute__((target("avx"))) static void gather_flush(struct gather *g, float *stream,
							 float lrate)
{
	float v[GATHER_CELLS];
	for (uint32_t i = 0; i < g->n; i++)
		v[i] = stream[g->cell[i]];
	for (uint32_t i = g->n; i < GATHER_CELLS; i++)
		v[i] = 0.0f;
	decay64_avx(v, g->k, lrate);
	for (uint32_t i = 0; i < g->n; i++)
		stream[g->cell[i]] = v[i];
	g->n = 0;
}

/* A bit for each of a tile's 16 cells whose bits are not all 0. */
static unsigned tile_nonzero(const float *p)
{
	const __m128i z = _mm_setzero_si128();
	unsigned m = 0;
	for (int i = 0; i < 4; i++) {
		const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 4 * i));
		m |= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, z))) << (4 * i);
	}
	return ~m & 0xffffu;
}

/* The cells of the tile starting at stream[first] that are not +0. */
static void gather_tile(struct gather *g, float *stream, size_t first, float lrate)
{
	for (unsigned m = tile_nonzero(stream + first); m; m &= m - 1) {
		g->cell[g->n++] = (uint32_t)first + (uint32_t)__builtin_ctz(m);
		if (g->n == GATHER_CELLS)
			gather_flush(g, stream, lrate);
	}
}

#endif

static void stream_decay(float *stream, size_t n, uint32_t k, float lrate, bool avx)
{
	size_t i = 0;
	if (k == 0)
		return;
#if HSTREAM_HAVE_AVX
	if (avx) {
		for (; i + 64 <= n; i += 64)
			decay64_avx(stream + i, k, lrate);
		for (; i + 16 <= n; i += 16)
			decay16_avx(stream + i, k, lrate);
	}
#endif
#if GULLY_USE_SSE2
	const __m128 lr = _mm_set1_ps(lrate);
	for (; i + 16 <= n; i += 16)
		decay16(stream + i, k, lr);
#endif
	(void)avx;
	for (; i < n; i++) {
		float v = stream[i] + lrate * (0.0f - stream[i]);
		v = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
		for (uint32_t b = 1; b < k; b++)
			v = v + lrate * (0.0f - v);
		stream[i] = v;
	}
}

static size_t tile_cells(const struct hstream *hs, size_t t)
{
	const size_t begin = t * HSTREAM_TILE;
	return hs->n - begin < HSTREAM_TILE ? hs->n - begin : HSTREAM_TILE;
}

/* The batches tile t owes (a listed tile is current). */
static uint32_t stamp_lag(const struct hstream *hs, size_t t)
{
	return hs->stamp[t] == HSTREAM_LISTED ? 0 : hs->now - hs->stamp[t];
}

/* Tile t's stamp for a new window, once it is current (listed stays listed). */
static void stamp_restart(struct hstream *hs, size_t t)
{
	if (hs->stamp[t] != HSTREAM_LISTED)
		hs->stamp[t] = 0;
}

void hstream_list(struct hstream *hs, uint32_t t)
{
	stream_decay(hs->stream + (size_t)t * HSTREAM_TILE, tile_cells(hs, t), stamp_lag(hs, t),
		     hs->lrate, hs->avx);
	hs->stamp[t] = HSTREAM_LISTED;
	hs->list[hs->nlist++] = t;
}

#if HSTREAM_HAVE_AVX
/* sync_range with the AVX copy: every tile's cells that are not +0 go to
 * the gather of the batches the tile owes, and decay there 64 at a time. A
 * tile a read touched in the window owes fewer batches than the window,
 * and its visits are a few of its 16 cells: decayed in place, most of its
 * lanes would carry +0. A short last tile decays alone. */
static void sync_sparse(struct hstream *hs, size_t begin, size_t end)
{
	/* By the batches owed: 64 KB, on a stack of megabytes. */
	struct gather g[HSTREAM_WINDOW + 1];
	for (uint32_t k = 1; k <= hs->now; k++)
		g[k] = (struct gather){.k = k, .n = 0};
	for (size_t t = begin; t < end; t++) {
		const uint32_t lag = stamp_lag(hs, t);
		const size_t first = t * HSTREAM_TILE, cells = tile_cells(hs, t);
		stamp_restart(hs, t);
		if (cells < HSTREAM_TILE)
			stream_decay(hs->stream + first, cells, lag, hs->lrate, true);
		else if (lag && lag <= hs->now) /* a stamp is never ahead of now */
			gather_tile(&g[lag], hs->stream, first, hs->lrate);
	}
	for (uint32_t k = 1; k <= hs->now; k++)
		if (g[k].n)
			gather_flush(&g[k], hs->stream, hs->lrate);
}
#endif

/* Tiles [begin, end) up to date, their stamps restarted for a new window;
 * runs of tiles that missed the same batches decay as one range. */
static void sync_range(struct hstream *hs, size_t begin, size_t end)
{
#if HSTREAM_HAVE_AVX
	if (hs->avx && hs->now >= HSTREAM_GATHER_BATCHES) {
		sync_sparse(hs, begin, end);
		return;
	}
#endif
	size_t t = begin;
	while (t < end) {
		const uint32_t lag = stamp_lag(hs, t);
		size_t u = t;
		while (u < end && stamp_lag(hs, u) == lag) {
			stamp_restart(hs, u);
			u++;
		}
		const size_t first = t * HSTREAM_TILE;
		const size_t last = u * HSTREAM_TILE < hs->n ? u * HSTREAM_TILE : hs->n;
		stream_decay(hs->stream + first, last - first, lag, hs->lrate, hs->avx);
		t = u;
	}
}

static void sync_part(void *arg, int index, int count)
{
	struct hstream *hs = arg;
	long begin, end;
	workers_share((long)hs->ntiles, index, count, &begin, &end);
	sync_range(hs, (size_t)begin, (size_t)end);
}

void hstream_sync(struct hstream *hs, struct workers *wk)
{
	if (hs->now == 0)
		return;
	if (wk)
		workers_run(wk, sync_part, hs);
	else
		sync_range(hs, 0, hs->ntiles);
	hs->now = 0;
}

/* The whole-map pass (a small map), split by rows of cells over the
 * workers: each cell's update reads and writes that cell alone, with the
 * same operations whichever part it falls in, so any split gives the same
 * bits. */
struct learn_part {
	struct hstream *hs;
	float lrate;
};

static void learn_part(void *arg, int index, int count)
{
	const struct learn_part *lp = arg;
	long begin, end;
	workers_share((long)lp->hs->n, index, count, &begin, &end);
	stream_learn(lp->hs->stream + begin, lp->hs->track + begin, (size_t)(end - begin),
		     lp->lrate);
	memset(lp->hs->track + begin, 0, (size_t)(end - begin));
}

#define HSTREAM_LEARN_AHEAD 8

void hstream_batch_end(struct hstream *hs, float lrate, struct workers *wk)
{
	if (!hs->lazy) {
		struct learn_part lp = {hs, lrate};
		if (wk)
			workers_run(wk, learn_part, &lp);
		else
			learn_part(&lp, 0, 1);
		return;
	}
	/* The lagging tiles owe batches at the window's rate. */
	if (lrate != hs->lrate && hs->now)
		hstream_sync(hs, wk);
	hs->lrate = lrate;
	const uint8_t taken = (uint8_t)(hs->now + 1);
	for (size_t i = 0; i < hs->nlist; i++) {
		const size_t ahead = hstream_listed_ahead(hs, i, HSTREAM_LEARN_AHEAD);
		if (ahead != SIZE_MAX) {
			__builtin_prefetch(hs->stream + ahead, 1);
			__builtin_prefetch(hs->track + ahead, 1);
		}
		const uint32_t t = hs->list[i];
		const size_t first = (size_t)t * HSTREAM_TILE, cells = tile_cells(hs, t);
		stream_learn(hs->stream + first, hs->track + first, cells, lrate);
		memset(hs->track + first, 0, cells);
		hs->stamp[t] = taken;
	}
	hs->nlist = 0;
	hs->now++;
	if (hs->now >= HSTREAM_WINDOW)
		hstream_sync(hs, wk);
}

void hstream_relist(struct hstream *hs)
{
	if (!hs->lazy)
		return;
	hs->now = 0;
	hs->nlist = 0;
	for (size_t t = 0; t < hs->ntiles; t++) {
		const size_t first = t * HSTREAM_TILE, cells = tile_cells(hs, t);
		bool visited = false;
		for (size_t i = 0; i < cells; i++)
			visited |= hs->track[first + i] != 0;
		hs->stamp[t] = visited ? HSTREAM_LISTED : 0;
		if (visited)
			hs->list[hs->nlist++] = (uint32_t)t;
	}
}

void hstream_set_lazy(struct hstream *hs, bool on)
{
	hs->lazy = on;
	hs->now = 0;
	hs->nlist = 0;
	hstream_relist(hs);
}
