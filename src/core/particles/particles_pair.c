#include "core/particles/particles_pair.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/particles/particles_lane.h"

/* Undo entries to start with; the log doubles when a follower outgrows it. */
#define PAIR_LOG_START 16384
/* Past this a follower is given up and rerun: a droplet that lives this long
 * is rare and the log would only thrash memory. */
#define PAIR_LOG_MAX ((size_t)1 << 24)
/* Room kept in the log for the four cells of a follower's deposit on death. */
#define PAIR_LOG_SPARE 4

struct particles_pair {
	int width, height;
	uint8_t *stamp_buf; /* the stamps with room around (lane_spec) */
	size_t stamp_len;
	struct undo_entry *log;
	size_t log_alloc;
	int next_id;
	enum pair_isa isa; /* never PAIR_ISA_AUTO */
	struct particles_pair_stats stats;
};

/* Bytes before cell 0's stamp: a 3x3 block's 4-byte rows reach one row and
 * one cell back. */
static size_t pair_stamp_pad(int width)
{
	return (size_t)width + 1;
}

static int pair_size(struct particles_pair *pp, int width, int height)
{
	if (pp->stamp_buf && pp->width == width && pp->height == height)
		return GULLY_OK;
	/* ... and one row and three cells past the last one. */
	size_t len = (size_t)width * (size_t)height + 2 * pair_stamp_pad(width) + 2;
	uint8_t *s = calloc(len, 1);
	if (!s)
		return GULLY_ENOMEM;
	free(pp->stamp_buf);
	pp->stamp_buf = s;
	pp->stamp_len = len;
	pp->width = width;
	pp->height = height;
	pp->next_id = 0;
	return GULLY_OK;
}

struct particles_pair *particles_pair_create(int width, int height)
{
	struct particles_pair *pp = calloc(1, sizeof *pp);
	if (!pp)
		return NULL;
	particles_pair_set_isa(pp, PAIR_ISA_AUTO);
	pp->log_alloc = PAIR_LOG_START;
	pp->log = malloc(pp->log_alloc * sizeof *pp->log);
	if (!pp->log || pair_size(pp, width, height) != GULLY_OK) {
		particles_pair_destroy(pp);
		return NULL;
	}
	return pp;
}

void particles_pair_destroy(struct particles_pair *pp)
{
	if (!pp)
		return;
	free(pp->stamp_buf);
	free(pp->log);
	free(pp);
}

const struct particles_pair_stats *particles_pair_stats(const struct particles_pair *pp)
{
	return &pp->stats;
}

void particles_spawn(struct world *w, struct droplet *d)
{
	memset(d, 0, sizeof *d);
	d->x = rng_float(&w->rng) * (float)w->width;
	d->y = rng_float(&w->rng) * (float)w->height;
	d->volume = 1.0f;
	/* x < width always: rng_float < 1 and the product rounds down at most
	 * to width - ulp; guard anyway against float rounding up. */
	if (d->x >= (float)w->width)
		d->x = nextafterf((float)w->width, 0.0f);
	if (d->y >= (float)w->height)
		d->y = nextafterf((float)w->height, 0.0f);
}

/* No stamp is >= this: nothing is speculative. */
#define PAIR_NO_ID 256

/* A fresh id for the next followers: every older stamp is below it. Stamps
 * are bytes; after id 255 the map is cleared (only ever between leaders, when
 * no stamp is live), once per 255 leaders that had followers. */
static void pair_new_id(struct particles_pair *pp, struct lane_spec *sp)
{
	if (pp->next_id >= 255) {
		memset(pp->stamp_buf, 0, pp->stamp_len);
		pp->next_id = 0;
	}
	sp->min_id = ++pp->next_id;
	sp->id4 = (uint32_t)sp->min_id * 0x01010101u;
}

static bool pair_log_grow(struct particles_pair *pp, struct lane_spec *sp)
{
	if (pp->log_alloc >= PAIR_LOG_MAX)
		return false;
	struct undo_entry *log = realloc(pp->log, 2 * pp->log_alloc * sizeof *log);
	if (!log)
		return false;
	pp->log = log;
	pp->log_alloc *= 2;
	pp->stats.log_grows++;
	sp->log = log;
	sp->log_cap = pp->log_alloc - PAIR_LOG_SPARE;
	return true;
}

/* Puts back every height the follower wrote, newest first. */
static void pair_undo(struct particles_pair *pp, struct lane_spec *sp, float *h)
{
	pp->stats.undone_steps += sp->log_len;
	while (sp->log_len) {
		const struct undo_entry u = sp->log[--sp->log_len];
		h[u.at] = u.old;
	}
}

/* Followers that may have ended ahead of the leader and wait, uncommitted, for
 * it: past this the scheduler waits for the leader instead. */
#define PAIR_MAX_DONE 16

/* Droplets in order: the leader; the followers that already ended (done); the
 * running follower; then the queue of droplets to (re)start, which holds
 * followers that were undone, ahead of anything still to be drawn. */
struct pair_run {
	struct particles_pair *pp;
	struct world *w;
	struct lane_env e;
	struct lane_spec sp;
	uint64_t budget, drawn, steps;
	struct lane done[PAIR_MAX_DONE];
	struct droplet done_spawn[PAIR_MAX_DONE];
	int ndone;
	struct droplet queue[PAIR_MAX_DONE + 2];
	int nqueue;
	struct droplet fspawn; /* the running follower's spawn */
	bool running;          /* is there a running follower */
	bool hold;             /* no new follower until the leader ends */
};

static bool run_next(struct pair_run *r, struct droplet *d)
{
	if (r->nqueue) {
		*d = r->queue[0];
		r->nqueue--;
		memmove(r->queue, r->queue + 1, (size_t)r->nqueue * sizeof *r->queue);
		return true;
	}
	if (r->drawn == r->budget)
		return false;
	particles_spawn(r->w, d);
	r->drawn++;
	return true;
}

/* The leader ran into what a follower touched: undo every follower (newest
 * writes first) and queue them all again, in order, ahead of the rest. */
static void run_rollback(struct pair_run *r)
{
	pair_undo(r->pp, &r->sp, r->e.h);
	r->pp->stats.rollbacks++;
	int n = r->ndone + (r->running ? 1 : 0);
	memmove(r->queue + n, r->queue, (size_t)r->nqueue * sizeof *r->queue);
	for (int i = 0; i < r->ndone; i++)
		r->queue[i] = r->done_spawn[i];
	if (r->running)
		r->queue[r->ndone] = r->fspawn;
	r->nqueue += n;
	r->ndone = 0;
	r->running = false;
	r->hold = true;
	/* Nothing speculative is left: no stamp may match any more. */
	r->sp.min_id = PAIR_NO_ID;
}

static void run_commit(struct pair_run *r, const struct lane *l)
{
	lane_commit(l, r->w);
	r->steps += lane_steps(l);
}

/* The scheduler, inlined into one copy per instruction set below. */
static LANE_INLINE int pair_run(struct particles_pair *pp, struct world *w,
				const struct droplet_params *dp, uint64_t budget,
				uint64_t *steps_out)
{
	*steps_out = 0;
	if (budget == 0)
		return GULLY_OK;
	int err = pair_size(pp, w->width, w->height);
	if (err)
		return err;
	/* Big (the done lanes): on the heap, not the stack. */
	struct pair_run *r = calloc(1, sizeof *r);
	if (!r)
		return GULLY_ENOMEM;
	r->pp = pp;
	r->w = w;
	r->budget = budget;
	lane_env_init(&r->e, w, dp);
	r->sp = (struct lane_spec){
		.stamp = pp->stamp_buf + pair_stamp_pad(w->width),
		.stride = (uint32_t)w->width,
		.id4 = 0,
		.min_id = PAIR_NO_ID,
		.log = pp->log,
		.log_len = 0,
		.log_cap = pp->log_alloc - PAIR_LOG_SPARE,
	};
	struct particles_pair_stats *st = &pp->stats;
	const struct lane_env *e = &r->e;
	struct lane_spec *sp = &r->sp;
	struct lane L, F;
	struct droplet d;
	enum lane_result res, rf = LANE_MOVED;

	run_next(r, &d);
	lane_from_droplet(&L, &d, e);
	for (;;) {
		if (!r->running && !r->hold && r->ndone < PAIR_MAX_DONE && run_next(r, &r->fspawn)) {
			lane_from_droplet(&F, &r->fspawn, e);
			if (sp->min_id == PAIR_NO_ID) {
				/* The first follower behind this leader. */
				pair_new_id(pp, sp);
				sp->log_len = 0;
			}
			lane_stamp_around(sp, F.at);
			r->running = true;
			st->followers++;
		}
		if (r->running) {
			uint64_t n = 0;
			/* A copy the loop owns: the stamps are bytes, and a byte
			 * store may alias anything reachable, so through sp every
			 * field would be reloaded after each stamp. */
			struct lane_spec s = *sp;
			do {
				res = lane_step(&L, e, &s, LANE_LEADER);
				if (res != LANE_MOVED)
					break;
				n++;
				rf = lane_step(&F, e, &s, LANE_FOLLOWER);
			} while (rf == LANE_MOVED);
			*sp = s;
			st->paired_steps += n;
			if (res == LANE_MOVED) {
				/* The follower stopped first. */
				if (rf == LANE_ENDED &&
				    sp->log_len + PAIR_LOG_SPARE > pp->log_alloc &&
				    !pair_log_grow(pp, sp)) {
					/* No room for its deposit's undo entries. */
					run_rollback(r);
				} else if (rf == LANE_ENDED) {
					lane_finish(&F, e, sp, LANE_FOLLOWER);
					r->done[r->ndone] = F;
					r->done_spawn[r->ndone] = r->fspawn;
					r->ndone++;
					r->running = false;
				} else if (!pair_log_grow(pp, sp)) {
					run_rollback(r);
				}
				continue;
			}
		} else {
			const enum lane_mode mode = r->ndone ? LANE_LEADER : LANE_SOLO;
			if (mode == LANE_LEADER)
				while ((res = lane_step(&L, e, sp, LANE_LEADER)) == LANE_MOVED)
					;
			else
				while ((res = lane_step(&L, e, sp, LANE_SOLO)) == LANE_MOVED)
					;
		}
		if (res == LANE_CONFLICT) {
			run_rollback(r);
			continue;
		}
		/* The leader has ended. */
		if ((r->running || r->ndone) && lane_finish_conflicts(&L, e, sp))
			run_rollback(r);
		lane_finish(&L, e, sp, LANE_SOLO);
		run_commit(r, &L);
		/* The followers saw nothing the leader changed after they started:
		 * each is now what running it after the leader gives. */
		for (int i = 0; i < r->ndone; i++)
			run_commit(r, &r->done[i]);
		r->ndone = 0;
		r->hold = false;
		sp->min_id = PAIR_NO_ID;
		sp->log_len = 0;
		if (r->running) {
			L = F;
			r->running = false;
		} else if (run_next(r, &d)) {
			lane_from_droplet(&L, &d, e);
		} else {
			break;
		}
	}
	*steps_out = r->steps;
	free(r);
	return GULLY_OK;
}

/* Instruction sets. The same C compiled twice: for the x86_64 baseline (SSE2)
 * and for AVX2, picked at run time. The AVX2 copy is the same operations in
 * the same order, VEX-encoded (three operands: no register copies) with no
 * fused multiply-add (target "avx2" alone does not enable FMA, and the core
 * library is built with -ffp-contract=off), so both give the same bits; the
 * tests run both and compare. */
#if GULLY_USE_SSE2 && defined(__GNUC__) && defined(__x86_64__)
#define PAIR_HAVE_AVX2 1
__attribute__((target("avx2"))) static int pair_run_avx2(struct particles_pair *pp,
							  struct world *w,
							  const struct droplet_params *dp,
							  uint64_t budget, uint64_t *steps)
{
	return pair_run(pp, w, dp, budget, steps);
}
#else
#define PAIR_HAVE_AVX2 0
#endif

static int pair_run_base(struct particles_pair *pp, struct world *w,
			 const struct droplet_params *dp, uint64_t budget, uint64_t *steps)
{
	return pair_run(pp, w, dp, budget, steps);
}

static bool pair_isa_supported(enum pair_isa isa)
{
	switch (isa) {
	case PAIR_ISA_AUTO:
	case PAIR_ISA_BASE:
		return true;
	case PAIR_ISA_AVX2:
#if PAIR_HAVE_AVX2
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx2");
#else
		return false;
#endif
	}
	return false;
}

bool particles_pair_set_isa(struct particles_pair *pp, enum pair_isa isa)
{
	if (!pair_isa_supported(isa))
		return false;
	pp->isa = isa == PAIR_ISA_AUTO ? (pair_isa_supported(PAIR_ISA_AVX2) ? PAIR_ISA_AVX2
									     : PAIR_ISA_BASE)
				       : isa;
	return true;
}

const char *particles_pair_isa_name(const struct particles_pair *pp)
{
	return pp->isa == PAIR_ISA_AVX2 ? "avx2" : PARTICLES_NORMAL_IMPL;
}

int particles_pair_run(struct particles_pair *pp, struct world *w,
		       const struct droplet_params *dp, uint64_t budget, uint64_t *steps)
{
#if PAIR_HAVE_AVX2
	if (pp->isa == PAIR_ISA_AVX2)
		return pair_run_avx2(pp, w, dp, budget, steps);
#endif
	return pair_run_base(pp, w, dp, budget, steps);
}
