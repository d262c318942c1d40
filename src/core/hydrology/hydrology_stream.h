/* The stream map's per-batch update, applied lazily (issue 15 item 5).
 * Private to src/core/hydrology.
 *
 * After every batch each cell of the stream map takes
 *     stream += lrate (visited - stream), clamped to [0, 1]
 * a pass over the whole map (every 250 droplets), which at 4096x4096 cost
 * more than the droplets. Instead the map is cut into tiles of HSTREAM_TILE
 * consecutive cells, each with a stamp: how many of the window's batches
 * its cells have taken. A tile is brought up to date before a droplet or a
 * tree reads it (hstream_fresh), which also lists it for the batch's end;
 * the batch's end applies the batch (visited or not) to the listed tiles
 * alone; every other tile lags, and takes the batches it missed (all
 * unvisited: stream += lrate (0 - stream)) when it is next read or when the
 * window closes (hstream_sync: after HSTREAM_WINDOW batches, and at the end
 * of a step() call unless its caller asked for the lag, process.h's
 * catch_up, so nothing outside sees a lagging cell it did not ask for). A
 * close decays only the cells that are not +0 once it owes enough batches
 * for that to pay. Each cell takes the same float operations in the same
 * order as in the whole-map pass, so the bits are the same; only fewer
 * passes over memory and fewer operations do it. */
#ifndef GULLY_HYDROLOGY_STREAM_H
#define GULLY_HYDROLOGY_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct workers;

#define HSTREAM_SHIFT 4
#define HSTREAM_TILE (1u << HSTREAM_SHIFT)
/* Maps of at most this many cells take the whole-map pass after every
 * batch: there it costs less than the checks before each read
 * (bench/HYDROLOGY.md, "The stream map, lazily"). */
#define HSTREAM_LAZY_CELLS (512u * 512u)
/* A window closes after this many batches. A close reads the whole stream
 * map, a read's catch-up waits on a chain as long as the batches its tile
 * owes: 240 costs less than 120 or 480 (bench/HYDROLOGY.md, "A longer
 * stream window, the trees' tiles, the flood's watch lines"). */
#define HSTREAM_WINDOW 240u
/* A tile's stamp: the batches of the window it has taken, or this when it
 * is listed in the current batch (and so current). */
#define HSTREAM_LISTED 255u
_Static_assert(HSTREAM_WINDOW < HSTREAM_LISTED, "a stamp is a byte");

struct hstream {
	float *stream;     /* the world's stream layer */
	uint8_t *track;    /* cells visited in the current batch */
	size_t n, ntiles;
	uint8_t *stamp;    /* per tile: batches taken, or HSTREAM_LISTED */
	uint32_t *list;    /* tiles listed in the current batch */
	size_t nlist;
	uint32_t now;      /* batches ended in the window */
	float lrate;       /* the window's lrate */
	bool avx;          /* the CPU has AVX: the long catch-ups use it */
	bool lazy;         /* false: the whole-map pass after every batch */
};

int hstream_init(struct hstream *hs, float *stream, uint8_t *track, size_t n);
void hstream_free(struct hstream *hs);

/* What a descent checks before its reads: NULL for the whole-map pass. */
static inline struct hstream *hstream_env(struct hstream *hs)
{
	return hs->lazy ? hs : NULL;
}

/* Brings tile t up to date and lists it for the batch's end. */
void hstream_list(struct hstream *hs, uint32_t t);

/* Before a cell's stream is read, or its track byte set. */
static inline void hstream_fresh(struct hstream *hs, uint32_t cell)
{
	const uint32_t t = cell >> HSTREAM_SHIFT;
	if (hs->stamp[t] != HSTREAM_LISTED)
		hstream_list(hs, t);
}

static inline float hstream_get(struct hstream *hs, uint32_t cell)
{
	if (hs->lazy)
		hstream_fresh(hs, cell);
	return hs->stream[cell];
}

/* The first cell of the tile listed `ahead` places after list[i], or
 * SIZE_MAX past the list's end: the listed tiles lie where the batch's
 * droplets went, scattered over a big map, so a pass over them fetches a
 * few tiles ahead of the one it works on. */
static inline size_t hstream_listed_ahead(const struct hstream *hs, size_t i, size_t ahead)
{
	return i + ahead < hs->nlist ? (size_t)hs->list[i + ahead] * HSTREAM_TILE : SIZE_MAX;
}

/* The end of a batch: the listed tiles take it (their visits with it). */
void hstream_batch_end(struct hstream *hs, float lrate, struct workers *wk);
/* Every tile up to date; a new window begins (the listed tiles stay listed). */
void hstream_sync(struct hstream *hs, struct workers *wk);
/* After the track map was replaced (a snapshot's): the window is synced,
 * and the tiles holding visits are listed. */
void hstream_relist(struct hstream *hs);

/* Lazy or the whole-map pass, between windows (the map is current). */
void hstream_set_lazy(struct hstream *hs, bool on);

#endif
