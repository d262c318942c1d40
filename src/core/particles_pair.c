#include "core/particles_pair.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/particles_lane.h"

/* Undo entries to start with; the log doubles when a follower outgrows it. */
#define PAIR_LOG_START 16384
/* Past this a follower is given up and rerun: a droplet that lives this long
 * is rare and the log would only thrash memory. */
#define PAIR_LOG_MAX ((size_t)1 << 24)
/* Room kept in the log for the four cells of a follower's deposit on death. */
#define PAIR_LOG_SPARE 4

struct particles_pair {
	int width, height;
	int32_t *stamp;
	size_t stamp_len;
	struct undo_entry *log;
	size_t log_alloc;
	int32_t next_id;
	struct particles_pair_stats stats;
};

static int pair_size(struct particles_pair *pp, int width, int height)
{
	if (pp->stamp && pp->width == width && pp->height == height)
		return GULLY_OK;
	/* One border cell all round for the 3x3 look-ups, plus slack for the
	 * 4-wide loads of the last row. */
	size_t len = ((size_t)width + 2) * ((size_t)height + 2) + 4;
	int32_t *s = calloc(len, sizeof *s);
	if (!s)
		return GULLY_ENOMEM;
	free(pp->stamp);
	pp->stamp = s;
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
	free(pp->stamp);
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

/* A fresh id for the next follower: every older stamp is below it. */
static void pair_new_id(struct particles_pair *pp, struct lane_spec *sp)
{
	if (pp->next_id >= INT32_MAX - 1) {
		memset(pp->stamp, 0, pp->stamp_len * sizeof *pp->stamp);
		pp->next_id = 0;
	}
	sp->id = sp->min_id = ++pp->next_id;
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

static void lane_spawn(struct lane *l, const struct lane_env *e, const struct droplet *d)
{
	lane_from_droplet(l, d, e);
}

enum follower { F_NONE, F_RUNNING, F_DONE, F_REDO };

int particles_pair_run(struct particles_pair *pp, struct world *w,
		       const struct droplet_params *dp, uint64_t budget, uint64_t *steps_out)
{
	*steps_out = 0;
	if (budget == 0)
		return GULLY_OK;
	int err = pair_size(pp, w->width, w->height);
	if (err)
		return err;
	struct lane_env e;
	lane_env_init(&e, w, dp);
	struct lane_spec sp = {
		.stamp = pp->stamp,
		.sstride = (size_t)w->width + 2,
		.id = 0,
		.min_id = INT32_MAX,
		.log = pp->log,
		.log_len = 0,
		.log_cap = pp->log_alloc - PAIR_LOG_SPARE,
	};
	struct particles_pair_stats *st = &pp->stats;
	uint64_t steps = 0, started = 1;
	struct droplet spawn, fspawn;
	struct lane L, F;
	enum follower fs = F_NONE;
	enum lane_result r, rf = LANE_MOVED;

	particles_spawn(w, &spawn);
	lane_spawn(&L, &e, &spawn);
	for (;;) {
		if (fs == F_NONE && started < budget) {
			particles_spawn(w, &fspawn);
			started++;
			lane_spawn(&F, &e, &fspawn);
			pair_new_id(pp, &sp);
			sp.log_len = 0;
			sp.stamp[lane_stamp_index(&sp, F.ix, F.iy)] = sp.id;
			fs = F_RUNNING;
			st->followers++;
		}
		if (fs == F_RUNNING) {
			uint64_t n = 0;
			do {
				r = lane_step(&L, &e, &sp, LANE_LEADER);
				if (r != LANE_MOVED)
					break;
				n++;
				rf = lane_step(&F, &e, &sp, LANE_FOLLOWER);
			} while (rf == LANE_MOVED);
			st->paired_steps += n;
			if (r == LANE_MOVED) {
				/* The follower stopped first. */
				if (rf == LANE_ENDED) {
					lane_finish(&F, &e, &sp, LANE_FOLLOWER);
					fs = F_DONE;
				} else if (!pair_log_grow(pp, &sp)) {
					pair_undo(pp, &sp, e.h);
					fs = F_REDO;
					st->rollbacks++;
				}
				continue;
			}
		} else if (fs == F_DONE) {
			/* The follower's cells still count until the leader ends. */
			while ((r = lane_step(&L, &e, &sp, LANE_LEADER)) == LANE_MOVED)
				;
		} else {
			while ((r = lane_step(&L, &e, &sp, LANE_SOLO)) == LANE_MOVED)
				;
		}
		if (r == LANE_CONFLICT) {
			pair_undo(pp, &sp, e.h);
			fs = F_REDO;
			st->rollbacks++;
			continue;
		}
		/* The leader has ended. */
		if ((fs == F_RUNNING || fs == F_DONE) && lane_finish_conflicts(&L, &e, &sp)) {
			pair_undo(pp, &sp, e.h);
			fs = F_REDO;
			st->rollbacks++;
		}
		lane_finish(&L, &e, &sp, LANE_SOLO);
		lane_commit(&L, w);
		steps += L.age - L.age0;
		switch (fs) {
		case F_RUNNING:
			/* The follower saw nothing the leader changed after it started:
			 * it is now what running it after the leader gives. */
			L = F;
			break;
		case F_DONE:
			lane_commit(&F, w);
			steps += F.age - F.age0;
			if (started == budget) {
				*steps_out = steps;
				return GULLY_OK;
			}
			particles_spawn(w, &spawn);
			started++;
			lane_spawn(&L, &e, &spawn);
			break;
		case F_REDO:
			lane_spawn(&L, &e, &fspawn);
			break;
		case F_NONE:
			if (started == budget) {
				*steps_out = steps;
				return GULLY_OK;
			}
			particles_spawn(w, &spawn);
			started++;
			lane_spawn(&L, &e, &spawn);
			break;
		}
		fs = F_NONE;
		sp.log_len = 0;
		/* No follower yet: nothing may match the leader's look-ups. */
		sp.min_id = INT32_MAX;
	}
}
