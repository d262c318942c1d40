/* Two halves of the droplets side by side (particles.epoch > 0, halves.h):
 * the merge rule on a hand-made epoch, the same bits on 1 and 2 threads and
 * for any split of a run into calls, resume mid-epoch from the state blob and
 * its rejection of damage, the soil books, and switching the halves off. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/particles/droplet.h"
#include "core/particles/halves.h"
#include "core/particles/lockstep.h"
#include "core/particles/particles.h"
#include "core/terrain/terrain.h"
#include "worldutil.h"

static struct world *make_world(const struct params *p)
{
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, p), 0);
	return w;
}

/* A size x size map, 16 lanes, and an epoch of `droplets` droplets. */
static void halves_params(struct params *p, int size, uint64_t droplets)
{
	params_defaults(p);
	p->world.width = size;
	p->world.height = size;
	p->world.threads = 1;
	p->particles.lanes = 16;
	/* particles.epoch counts droplets per 256x256 cells. */
	p->particles.epoch = (int)(droplets * 65536u / ((uint64_t)size * (uint64_t)size));
}

/* worldutil.h's sameness, and the same random stream. */
static void assert_same_run(const struct world *a, const struct world *b)
{
	assert_same_world(a, b);
	assert_memory_equal(&a->rng, &b->rng, sizeof a->rng);
}

#define PARTICLES (&particles_process)

static double height_change(const struct world *w)
{
	double sum = 0;
	for (size_t i = 0; i < world_cells(w); i++)
		sum += (double)w->layer[LAYER_HEIGHT][i] - (double)w->layer[LAYER_BASE][i];
	return sum;
}

/* eroded - deposited = off the map + in flight (deposit on death is on),
 * and the map's change matches the books to float rounding. */
static void assert_books(const struct world *w)
{
	const double er = w->tally[TALLY_ERODED], de = w->tally[TALLY_DEPOSITED];
	const double gone = w->tally[TALLY_SEDIMENT_OFF_MAP] + w->tally[TALLY_SEDIMENT_IN_FLIGHT];
	assert_true(er >= 0 && de >= 0);
	assert_true(fabs((er - de) - gone) <= 1e-6 * er + 1e-12);
	assert_true(fabs(height_change(w) - (de - er)) <= 1e-5 * er + 1e-12);
}

/* One whole epoch against its definition: half A (the even droplets, 9 of
 * 17 lanes) on the world with the world's stream, half B (the odd ones, 8
 * lanes) on a copy with halves_seed's stream, each a lockstep engine of its
 * own; then h = a + (b - base) cell by cell and B's books added to A's. */
static void test_one_epoch_is_the_rule(void **state)
{
	(void)state;
	struct params p;
	const uint64_t n = 601;
	halves_params(&p, 64, n);
	p.particles.lanes = 17;
	struct world *w = make_world(&p);
	void *st = test_process_open(PARTICLES, w, &p);
	test_process_run(PARTICLES, st, w, &p, n);

	struct world *a = make_world(&p), *b = make_world(&p);
	struct droplet_params dp;
	droplet_params_from(&dp, &p);
	halves_seed(&b->rng, &a->rng);
	struct lockstep *la = lockstep_create(64, 64), *lb = lockstep_create(64, 64);
	assert_non_null(la);
	assert_non_null(lb);
	uint64_t steps = 0;
	assert_int_equal(lockstep_run(la, a, &dp, 9, (n + 1) / 2, &steps), 0);
	assert_int_equal(lockstep_run(lb, b, &dp, 8, n / 2, &steps), 0);
	const float *base = w->layer[LAYER_BASE];
	size_t moved_by_both = 0;
	for (size_t c = 0; c < world_cells(w); c++) {
		const float ha = a->layer[LAYER_HEIGHT][c], hb = b->layer[LAYER_HEIGHT][c];
		const float want = ha + (hb - base[c]);
		if (memcmp(&want, &w->layer[LAYER_HEIGHT][c], sizeof want) != 0)
			fail_msg("cell %zu: %.9g, the rule gives %.9g", c, w->layer[LAYER_HEIGHT][c], want);
		moved_by_both += ha != base[c] && hb != base[c];
	}
	assert_true(moved_by_both > 100);
	assert_true(w->tally[TALLY_ERODED] == a->tally[TALLY_ERODED] + b->tally[TALLY_ERODED]);
	assert_true(w->tally[TALLY_DEPOSITED] == a->tally[TALLY_DEPOSITED] + b->tally[TALLY_DEPOSITED]);
	assert_int_equal(w->steps, steps);
	assert_true(w->tally[TALLY_SEDIMENT_IN_FLIGHT] ==
		    lockstep_soil_in_flight(la) + lockstep_soil_in_flight(lb));
	assert_books(w);
	lockstep_destroy(la);
	lockstep_destroy(lb);
	particles_process.destroy(st);
	world_destroy(a);
	world_destroy(b);
	world_destroy(w);
}

/* Calls of these sizes: ends mid-epoch, exactly at one, and across several. */
static const uint64_t calls[] = {1, 150, 173, 26, 700, 2, 349, 1, 1000};
#define NCALLS (sizeof calls / sizeof calls[0])

static struct world *run_calls(const struct params *p, const uint64_t *sizes, size_t count)
{
	struct world *w = make_world(p);
	void *st = test_process_open(PARTICLES, w, p);
	for (size_t i = 0; i < count; i++) {
		test_process_run(PARTICLES, st, w, p, sizes[i]);
		assert_books(w);
	}
	particles_process.destroy(st);
	return w;
}

/* world.threads 1 and 2, and one call against many of uneven sizes: the
 * same bits (two threads on one core too: the work is shared by task, not
 * by timing). */
static void test_threads_and_splits_agree(void **state)
{
	(void)state;
	struct params p;
	halves_params(&p, 48, 350);
	uint64_t total = 0;
	for (size_t i = 0; i < NCALLS; i++)
		total += calls[i];
	struct world *ref = run_calls(&p, &total, 1);
	assert_memory_not_equal(ref->layer[LAYER_HEIGHT], ref->layer[LAYER_BASE],
				world_cells(ref) * sizeof(float));
	struct world *split = run_calls(&p, calls, NCALLS);
	assert_same_run(ref, split);
	for (int threads = 2; threads <= 3; threads++) {
		p.world.threads = threads;
		struct world *w = run_calls(&p, calls, NCALLS);
		assert_same_run(ref, w);
		world_destroy(w);
	}
	/* And the model is not one engine's: the same run with the halves off
	 * differs. */
	p.particles.epoch = 0;
	struct world *one = run_calls(&p, &total, 1);
	assert_memory_not_equal(one->layer[LAYER_HEIGHT], ref->layer[LAYER_HEIGHT],
				world_cells(ref) * sizeof(float));
	world_destroy(one);
	world_destroy(split);
	world_destroy(ref);
}

/* A state saved mid-epoch (views apart, B's droplets in flight) resumes to
 * the bits of a run that never stopped. */
static void test_resume_mid_epoch(void **state)
{
	(void)state;
	struct params p;
	halves_params(&p, 40, 500);
	p.world.threads = 2;
	struct world *straight = make_world(&p);
	void *sst = test_process_open(PARTICLES, straight, &p);
	test_process_run(PARTICLES, sst, straight, &p, 1334);
	struct world *w = make_world(&p);
	void *st = test_process_open(PARTICLES, w, &p);
	test_process_run(PARTICLES, st, w, &p, 1234); /* two epochs and 234 droplets */
	unsigned char *blob;
	size_t len;
	assert_int_equal(particles_process.save_state(st, &blob, &len), 0);
	assert_true(len > 4 * world_cells(w)); /* the base; B's view may be a list */
	assert_memory_equal(blob, "GPHV", 4);
	particles_process.destroy(st);
	struct world *c = NULL;
	assert_int_equal(world_clone(&c, w), 0);
	world_destroy(w);
	p.world.threads = 1;
	void *resumed = test_process_open(PARTICLES, c, &p);
	assert_int_equal(particles_process.load_state(resumed, blob, len), 0);
	test_process_run(PARTICLES, resumed, c, &p, 100); /* still in the epoch */
	assert_same_run(straight, c);
	test_process_run(PARTICLES, resumed, c, &p, 396); /* past its end */
	test_process_run(PARTICLES, sst, straight, &p, 396);
	assert_same_run(straight, c);
	free(blob);
	particles_process.destroy(resumed);
	particles_process.destroy(sst);
	world_destroy(c);
	world_destroy(straight);
}

static uint64_t get_u64(const unsigned char *b)
{
	uint64_t v = 0;
	for (int k = 7; k >= 0; k--)
		v = v << 8 | b[k];
	return v;
}

static void patch_u32(unsigned char *b, size_t at, uint32_t v)
{
	for (int k = 0; k < 4; k++)
		b[at + (size_t)k] = (unsigned char)(v >> (8 * k));
}

static uint32_t get_u32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* How a blob may keep B's view (halves.h): version 1's cells, version 2's
 * cells after encoding 0, or version 2's list of changed cells. */
enum view_form { VIEW_V1, VIEW_RAW, VIEW_CHANGED };

/* `good` (its view at byte `view`, after a base of `cells`) written again
 * with its view in `form`, from the spec alone; *n its length. */
static unsigned char *reform_view(const unsigned char *good, size_t view, size_t cells,
				  enum view_form form, size_t *n)
{
	const unsigned char *base = good + view - 4 * cells;
	uint32_t *cell = malloc(4 * cells);
	assert_non_null(cell);
	if (get_u32(good + view) == 0) {
		for (size_t c = 0; c < cells; c++)
			cell[c] = get_u32(good + view + 4 + 4 * c);
	} else {
		assert_int_equal(get_u32(good + view), 1);
		for (size_t c = 0; c < cells; c++)
			cell[c] = get_u32(base + 4 * c);
		const uint64_t k = get_u64(good + view + 4);
		for (uint64_t i = 0; i < k; i++) {
			const unsigned char *q = good + view + 12 + 8 * i;
			cell[get_u32(q)] = get_u32(q + 4);
		}
	}
	size_t changed = 0;
	for (size_t c = 0; c < cells; c++)
		changed += cell[c] != get_u32(base + 4 * c);
	*n = view + (form == VIEW_V1 ? 4 * cells
		     : form == VIEW_RAW ? 4 + 4 * cells
					: 12 + 8 * changed);
	unsigned char *out = malloc(*n);
	assert_non_null(out);
	memcpy(out, good, view);
	patch_u32(out, 4, form == VIEW_V1 ? 1 : 2);
	unsigned char *q = out + view;
	if (form != VIEW_V1) {
		patch_u32(q, 0, form == VIEW_RAW ? 0 : 1);
		q += 4;
	}
	if (form == VIEW_CHANGED) {
		patch_u32(q, 0, (uint32_t)changed);
		patch_u32(q, 4, 0);
		q += 8;
	}
	for (size_t c = 0; c < cells; c++) {
		if (form == VIEW_CHANGED && cell[c] == get_u32(base + 4 * c))
			continue;
		if (form == VIEW_CHANGED) {
			patch_u32(q, 0, (uint32_t)c);
			q += 4;
		}
		patch_u32(q, 0, cell[c]);
		q += 4;
	}
	free(cell);
	return out;
}

/* A 16x16 run saved mid-epoch (64 droplets an epoch, 100 run): its blob,
 * *len, and *maps, where the base map starts (past the two lockstep blobs
 * and the fields between). */
static unsigned char *blob_mid_epoch(struct params *p, struct world **w, void **st, size_t *len,
				     size_t *maps)
{
	halves_params(p, 16, 64);
	*w = make_world(p);
	*st = test_process_open(PARTICLES, *w, p);
	test_process_run(PARTICLES, *st, *w, p, 100);
	unsigned char *blob;
	assert_int_equal(particles_process.save_state(*st, &blob, len), 0);
	assert_memory_equal(blob, "GPHV", 4);
	const size_t la = (size_t)get_u64(blob + 16), lb = (size_t)get_u64(blob + 24 + la);
	*maps = 16 + 8 + la + 8 + lb + 56;
	return blob;
}

/* The state saves as exactly `want`. */
static void assert_saves_as(const void *st, const unsigned char *want, size_t len)
{
	unsigned char *again;
	size_t alen;
	assert_int_equal(particles_process.save_state(st, &again, &alen), 0);
	assert_int_equal(alen, len);
	assert_memory_equal(again, want, len);
	free(again);
}

/* B's view in each form the spec allows loads to the same state: saved
 * again, it is the blob the process wrote (which picks the smaller). */
static void test_every_view_form_loads(void **state)
{
	(void)state;
	struct params p;
	struct world *w;
	void *st;
	size_t len, maps;
	unsigned char *good = blob_mid_epoch(&p, &w, &st, &len, &maps);
	const size_t view = maps + 4 * 256;
	for (int f = VIEW_V1; f <= VIEW_CHANGED; f++) {
		size_t n;
		unsigned char *blob = reform_view(good, view, 256, (enum view_form)f, &n);
		void *fresh = test_process_open(PARTICLES, w, &p);
		if (particles_process.load_state(fresh, blob, n) != GULLY_OK)
			fail_msg("view form %d was refused", f);
		assert_saves_as(fresh, good, len);
		free(blob);
		particles_process.destroy(fresh);
	}
	free(good);
	particles_process.destroy(st);
	world_destroy(w);
}

/* Damage of every kind is refused, and a refused blob changes nothing. */
static void test_corrupt_blob_rejected(void **state)
{
	(void)state;
	struct params p;
	struct world *w;
	void *st;
	size_t len, maps;
	unsigned char *good = blob_mid_epoch(&p, &w, &st, &len, &maps);
	assert_true(get_u64(good + 16) > 24); /* A has a droplet in flight */
	/* The base, then B's view, here as every cell (VIEW_RAW) so that its
	 * bytes are at fixed places; the list of changed cells has its own
	 * damage below. */
	const size_t view = maps + 4 * 256;
	unsigned char *orig = good;
	const size_t orig_len = len;
	good = reform_view(orig, view, 256, VIEW_RAW, &len);
	assert_int_equal(len, view + 4 + 4 * 256);
	void *fresh = test_process_open(PARTICLES, w, &p);
	for (size_t n = 0; n < len; n++)
		assert_int_not_equal(particles_process.load_state(fresh, good, n), GULLY_OK);
	unsigned char *bad = malloc(len + 1);
	assert_non_null(bad);
	memcpy(bad, good, len);
	bad[len] = 0;
	assert_int_equal(particles_process.load_state(fresh, bad, len + 1), GULLY_EFORMAT);
	const size_t rng_inc = maps - 56 + 16;
	const struct {
		size_t at;
		uint32_t value;
		int err;
	} patches[] = {
		{4, 3, GULLY_EVERSION},                 /* version */
		{4, 0, GULLY_EVERSION},                 /* version */
		{8, 17, GULLY_EFORMAT},                 /* width */
		{16, 9999, GULLY_EFORMAT},              /* A's blob longer than the bytes */
		{16, 100, GULLY_EFORMAT},               /* A's blob cut short */
		{16 + 8 + 24, 0x7fc00000u, GULLY_EFORMAT}, /* A's first droplet's x NaN */
		{rng_inc, 2, GULLY_EFORMAT},            /* an even RNG increment */
		{maps - 4, 0x7ff80000u, GULLY_EFORMAT}, /* B's soil in flight NaN */
		/* B's first book 9e307, finite but no epoch's: added to a tally
		 * as large, it made the tally infinite. */
		{maps - 28, 0x7fe00000u, GULLY_EFORMAT},
		{maps, 0x7f800000u, GULLY_EFORMAT},     /* the base: inf */
		{view, 2, GULLY_EFORMAT},               /* an unknown view encoding */
		{view, 1, GULLY_EFORMAT},               /* a list where the cells are */
		{view + 4, 0x7f000000u, GULLY_EFORMAT}, /* B's view: 1.7e38 */
	};
	for (size_t i = 0; i < sizeof patches / sizeof patches[0]; i++) {
		memcpy(bad, good, len);
		patch_u32(bad, patches[i].at, patches[i].value);
		if (particles_process.load_state(fresh, bad, len) != patches[i].err)
			fail_msg("patch %zu at byte %zu was not refused as expected", i, patches[i].at);
	}
	/* Nothing was taken: the fresh process saves one empty engine. */
	unsigned char *empty;
	size_t elen;
	assert_int_equal(particles_process.save_state(fresh, &empty, &elen), 0);
	assert_int_equal(elen, 24);
	/* The list of changed cells: cut anywhere, a count past its bytes, a
	 * cell off the map or out of order, a value out of range. */
	size_t clen;
	unsigned char *changed = reform_view(orig, view, 256, VIEW_CHANGED, &clen);
	const uint32_t k = get_u32(changed + view + 4);
	assert_true(k >= 2 && clen == view + 12 + 8 * (size_t)k);
	for (size_t n = view; n < clen; n++)
		assert_int_not_equal(particles_process.load_state(fresh, changed, n), GULLY_OK);
	const struct {
		size_t at;
		uint32_t value;
	} list_patches[] = {
		{view + 4, k + 1},                      /* more cells than bytes */
		{view + 4, k - 1},                      /* fewer */
		{view + 8, 1},                          /* a count past 2^32 */
		{view + 12, 256},                       /* a cell off the map */
		{view + 20, get_u32(changed + view + 12)}, /* the first cell again */
		{view + 16, 0x7f800000u},               /* a value inf */
	};
	unsigned char *cbad = malloc(clen);
	assert_non_null(cbad);
	for (size_t i = 0; i < sizeof list_patches / sizeof list_patches[0]; i++) {
		memcpy(cbad, changed, clen);
		patch_u32(cbad, list_patches[i].at, list_patches[i].value);
		if (particles_process.load_state(fresh, cbad, clen) != GULLY_EFORMAT)
			fail_msg("list patch %zu at byte %zu was not refused", i, list_patches[i].at);
	}
	free(cbad);
	free(changed);
	assert_int_equal(particles_process.load_state(fresh, good, len), GULLY_OK);
	assert_saves_as(fresh, orig, orig_len);
	free(empty);
	free(bad);
	free(good);
	free(orig);
	particles_process.destroy(fresh);
	particles_process.destroy(st);
	world_destroy(w);
}

/* The halves switched off mid-epoch: B's droplets end on B's view, the
 * views merge, one engine goes on with A's droplets, the books hold; on
 * again, they start afresh. finish lands everything. */
static void test_switch_off_and_on(void **state)
{
	(void)state;
	struct params p;
	halves_params(&p, 48, 400);
	struct world *w = make_world(&p);
	void *st = test_process_open(PARTICLES, w, &p);
	test_process_run(PARTICLES, st, w, &p, 650);
	const int epoch = p.particles.epoch;
	p.particles.epoch = 0;
	test_process_run(PARTICLES, st, w, &p, 300);
	assert_books(w);
	unsigned char *blob;
	size_t len;
	assert_int_equal(particles_process.save_state(st, &blob, &len), 0);
	assert_memory_equal(blob, "GPLN", 4); /* one engine's blob */
	free(blob);
	p.particles.epoch = epoch;
	test_process_run(PARTICLES, st, w, &p, 333);
	assert_books(w);
	p.particles.lanes = 1; /* the seed's order: both halves end first */
	test_process_run(PARTICLES, st, w, &p, 20);
	assert_true(w->tally[TALLY_SEDIMENT_IN_FLIGHT] == 0);
	assert_books(w);
	p.particles.lanes = 16;
	test_process_run(PARTICLES, st, w, &p, 500);
	struct process_report rep;
	assert_int_equal(particles_process.finish(st, w, &p, &rep), 0);
	assert_true(rep.steps > 0);
	assert_true(w->tally[TALLY_SEDIMENT_IN_FLIGHT] == 0);
	assert_books(w);
	particles_process.destroy(st);
	world_destroy(w);
}

/* Pearson correlation of two runs' height changes. */
static double change_correlation(const struct world *a, const struct world *b)
{
	double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
	const size_t n = world_cells(a);
	for (size_t i = 0; i < n; i++) {
		const double da = (double)a->layer[LAYER_HEIGHT][i] - a->layer[LAYER_BASE][i];
		const double db = (double)b->layer[LAYER_HEIGHT][i] - b->layer[LAYER_BASE][i];
		sa += da;
		sb += db;
		saa += da * da;
		sbb += db * db;
		sab += da * db;
	}
	const double cov = sab - sa * sb / (double)n;
	return cov / sqrt((saa - sa * sa / (double)n) * (sbb - sb * sb / (double)n));
}

/* Soil lost, cell by cell from the map (as bench/fidcompare.c measures it):
 * what a picture of the map shows, not the steps' gross erosion. */
static double map_eroded(const struct world *w)
{
	double sum = 0;
	for (size_t i = 0; i < world_cells(w); i++) {
		const double d = (double)w->layer[LAYER_BASE][i] - w->layer[LAYER_HEIGHT][i];
		sum += d > 0 ? d : 0;
	}
	return sum;
}

static struct world *finished_run(const struct params *p, uint64_t n)
{
	struct world *w = make_world(p);
	void *st = test_process_open(PARTICLES, w, p);
	test_process_run(PARTICLES, st, w, p, n);
	assert_int_equal(particles_process.finish(st, w, p, NULL), 0);
	particles_process.destroy(st);
	return w;
}

/* At the default epoch the halves' map is as close to one engine's as one
 * engine's is to itself on another droplet stream, and its erosion within
 * 2% of one engine's; an epoch sixteen times as long is not (this is what
 * holds the default where it is: bench/PARTICLES.md). */
static void test_default_epoch_stays_with_one_engine(void **state)
{
	(void)state;
	struct params p;
	params_defaults(&p);
	p.world.width = p.world.height = 96;
	p.world.threads = 2;
	const uint64_t n = 20000;
	p.particles.epoch = 0;
	struct world *one = finished_run(&p, n);
	/* One engine on another droplet stream, same terrain: the spread. */
	struct world *stream = make_world(&p);
	void *st = test_process_open(PARTICLES, stream, &p);
	stream->rng.state ^= 0x5eedu;
	test_process_run(PARTICLES, st, stream, &p, n);
	assert_int_equal(particles_process.finish(st, stream, &p, NULL), 0);
	particles_process.destroy(st);
	const double spread = change_correlation(one, stream);
	params_defaults(&p);
	p.world.width = p.world.height = 96;
	p.world.threads = 2;
	struct world *halves = finished_run(&p, n);
	const double close = change_correlation(one, halves);
	const double eroded = map_eroded(halves) / map_eroded(one);
	p.particles.epoch *= 16;
	struct world *long_epoch = finished_run(&p, n);
	const double far = change_correlation(one, long_epoch);
	const double far_eroded = map_eroded(long_epoch) / map_eroded(one);
	print_message("one engine vs another stream %.4f; halves at the default epoch %.4f "
		      "(eroded %.4fx); at 16x %.4f (%.4fx)\n",
		      spread, close, eroded, far, far_eroded);
	assert_true(spread > 0.5);
	assert_true(close >= spread - 0.01);
	assert_true(fabs(eroded - 1.0) <= 0.02);
	assert_true(far < spread - 0.02 || fabs(far_eroded - 1.0) > 0.02);
	world_destroy(one);
	world_destroy(stream);
	world_destroy(halves);
	world_destroy(long_epoch);
}

/* The epoch is droplets per 256x256 cells, at least two, at most 32768. */
static void test_epoch_scales_with_the_map(void **state)
{
	(void)state;
	struct params p;
	params_defaults(&p);
	struct world *w = NULL;
	assert_int_equal(world_create(&w, 512, 128), 0);
	assert_int_equal(particles_epoch(1024, w), 1024);
	assert_int_equal(particles_epoch(1, w), 2);
	world_destroy(w);
	assert_int_equal(world_create(&w, 4096, 4096), 0);
	assert_int_equal(particles_epoch(1, w), 256);
	assert_int_equal(particles_epoch(128, w), 32768);
	assert_int_equal(particles_epoch(512, w), 32768); /* at most PARTICLES_EPOCH_MAX */
	assert_int_equal(particles_epoch(2147483647, w), 32768);
	world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_epoch_is_the_rule),
		cmocka_unit_test(test_threads_and_splits_agree),
		cmocka_unit_test(test_resume_mid_epoch),
		cmocka_unit_test(test_corrupt_blob_rejected),
		cmocka_unit_test(test_every_view_form_loads),
		cmocka_unit_test(test_switch_off_and_on),
		cmocka_unit_test(test_epoch_scales_with_the_map),
		cmocka_unit_test(test_default_epoch_stays_with_one_engine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
