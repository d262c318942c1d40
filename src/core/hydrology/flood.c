/* A pour from start to finish (flood.h), in phases:
 *   pick     the record to start from, if the start cell's lake has one
 *            that is still at the start cell's level (else a fresh flood);
 *   rise     the priority flood raises the level (flood_fill.c) until the
 *            water is placed or a leak is reached;
 *   drain    a draining lake sinks a little toward its leak;
 *   write    the start cell takes its sediment, the lake its new level
 *            (flood_write.c), and the range of the surfaces is taken;
 *   keep     the record grows, is made, shed of its dry cells or dropped
 *            (flood_lakes.c, flood_shed.c).
 * Invariants of a pour:
 * - Out of memory, nothing is written to the layers (only the phases before
 *   the write allocate), and a record whose rim heap lost entries is dropped.
 * - The result, the layers and `gained` are the ones a fresh flood (the
 *   cache off) gives, bit for bit, whichever record the pour started from:
 *   a record is used only while all its cells sit at the start's level.
 * - `gained` is the exact fixed-point change of the pools it wrote. */
#include "core/hydrology/flood_internal.h"

#include "core/base/error.h"

int flood_create_plain(struct flood **out, int width, int height)
{
	*out = NULL;
	if (width < 2 || height < 2)
		return GULLY_EINVAL;
	struct flood *f = calloc(1, sizeof *f);
	if (!f)
		return GULLY_ENOMEM;
	f->width = width;
	f->height = height;
	f->n = (size_t)width * (size_t)height;
	f->seen = calloc(f->n, sizeof *f->seen);
	f->joined = calloc(f->n, sizeof *f->joined);
	f->lake_of = calloc(f->n, sizeof *f->lake_of);
	f->slot = calloc(f->n, sizeof *f->slot);
	f->rim_mark = calloc(f->n, sizeof *f->rim_mark);
	f->watch = calloc((f->n + 63) / 64, sizeof *f->watch);
	f->watch_lines = calloc(((f->n >> WATCH_LINE_SHIFT) + 64) / 64, sizeof *f->watch_lines);
	f->cache = true;
	f->ov_exit = true;
	flood_set_avx2(f, true);
	if (!f->seen || !f->joined || !f->lake_of || !f->slot || !f->rim_mark ||
	    !f->watch || !f->watch_lines) {
		flood_destroy(f);
		return GULLY_ENOMEM;
	}
	*out = f;
	return GULLY_OK;
}

int flood_create(struct flood **out, int width, int height)
{
	int err = flood_create_plain(out, width, height);
#ifdef FLOOD_DEBUG
	/* The debug build checks every pour against a fresh flood. */
	if (!err && (err = flood_set_shadow(*out, true)) != GULLY_OK) {
		flood_destroy(*out);
		*out = NULL;
	}
#endif
	return err;
}

void flood_destroy(struct flood *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nlakes; i++)
		flood_lake_free(&f->lakes[i]);
	free(f->lakes);
	free(f->free_ids);
	free(f->lake_of);
	free(f->slot);
	free(f->rim_mark);
	free(f->watch);
	free(f->watch_lines);
	free(f->seen);
	free(f->joined);
	free(f->heap.a);
	free(f->stack);
	free(f->lake);
	free(f->pushed);
	free(f->leaks);
	free(f->queue);
	free(f->wground);
	free(f->wdepth);
	free(f->dry);
	free(f->spare_cells);
	free(f->spare_ground);
	free(f->spare_depth);
	flood_set_shadow(f, false);
	free(f);
}

void flood_set_overshoot_exit(struct flood *f, bool on)
{
	f->ov_exit = on;
}

void flood_counters(const struct flood *f, struct flood_counters *c)
{
	*c = f->count;
	c->shadow_pours = f->shadow_found.pours;
	c->shadow_differed = f->shadow_found.differed;
}

/* The record a pour from `start` can start from, or NULL. A remembered lake
 * is used only while every cell of it still sits at the start cell's level:
 * then the result is the one a fresh flood gets, only cheaper (tests check
 * that). "At the level" is classify's own test (neither a leak nor above
 * level + tol): a fresh flood from the start joins every such cell
 * connected to it before its first heap pop, so a record in that band is
 * part of its lake. With strict_dry a dry cell of the record below the
 * start would be a leak to a fresh flood: then the pour floods afresh. */
static struct lake *pour_pick(struct flood *f, const struct pour *p, uint32_t *id_out)
{
	uint32_t id = f->cache ? f->lake_of[p->start] : 0;
	if (id && f->lakes[id - 1].live && f->lakes[id - 1].split) {
		flood_lake_settle_split(f, id, p->start);
		id = f->lake_of[p->start];
		next_stamp(f);
	}
	*id_out = id;
	if (!id || p->leak_floor > -INFINITY)
		return NULL;
	struct lake *k = &f->lakes[id - 1];
	if (k->live && !(k->smin < p->level0 - p->tol) && k->smax <= p->level0 + p->tol &&
	    k->sea_level == p->sea_level && !flood_lake_dry_below(k, p->dry_floor))
		return k;
	return NULL;
}

/* A draining lake: the level sinks a little toward the leak (slow
 * drainage), but not below the lake's ground next to it, and gives up no
 * more than the water going on can carry; the load settles at the start. */
static void pour_drain(const struct flood *f, struct pour *p, const struct flood_settle *settle,
		       const struct flood_params *fp)
{
	if (fp->halves)
		flood_halves(f, p, fp->halves_stop);
	if (p->leak_key < p->level) {
		double lower = p->level - fp->drainage * (p->level - p->leak_key);
		double floor = fp->below_floor ? -INFINITY : flood_leak_floor(f, p);
		if (lower < floor)
			lower = floor;
		double room = fp->carry - p->left;
		double most = room > 0 ? p->level - room / (double)(f->nbase + f->lake_len) : p->level;
		if (lower < most)
			lower = most;
		if (lower < p->level)
			p->level = lower;
	}
	if (settle && settle->on_drain > 0) {
		double amount = fmin(settle->on_drain, fmax(0.0, p->level - (double)p->h_start));
		p->h_start_new = (float)((double)p->h_start + amount);
	}
}

/* What the write phase leaves for the keep phase. */
struct pour_write {
	double cut;        /* cells whose ground stands above this are dry */
	double smin, smax; /* range of the lake's surfaces (dry cells left out if listed) */
	bool listed;       /* f->dry lists the dry cells */
	bool moved;        /* the start cell took sediment */
	uint64_t gained;
	size_t written;
};

/* The level stands: nothing to write but a start cell that took sediment. */
static void write_start_only(struct flood *f, struct pour *p, float *height, float *pool,
			     struct lake *rec, uint32_t id, struct pour_write *w)
{
	const int32_t start = p->start;
	if (!w->moved)
		return;
	float old = pool[start], now = depth_at(p->level, height[start]);
	pool[start] = now;
	w->gained = fixed(now) - fixed(old);
	w->written = 1;
	if (rec) {
		uint32_t at = f->slot[start];
		rec->sum += w->gained;
		rec->depth[at] = now;
	}
	if (f->rim_mark[start])
		flood_rim_notify(f, start, surface(height, pool, start), rec ? id : 0);
}

/* The range of the surfaces when the level stood: a record's cells did
 * not move (but the start). When none of the record's cells can be dry
 * (its last cut is under this one), only this call's cells can be: they
 * are listed as a level write lists them. */
static void range_standing(struct flood *f, const struct pour *p, const float *height,
			   const float *pool, const struct lake *rec, struct pour_write *w)
{
	if (rec && !w->moved && rec->gtop <= w->cut &&
	    grow((void **)&f->dry, &f->dry_cap, f->lake_len, sizeof *f->dry)) {
		w->listed = true;
		double lo = rec->smin, hi = rec->smax;
		for (size_t i = 0; i < f->lake_len; i++) {
			int32_t c = f->lake[i];
			if (height[c] > w->cut) {
				f->dry[f->dry_len++] = c;
				continue;
			}
			double s = surface(height, pool, c);
			lo = s < lo ? s : lo;
			hi = s > hi ? s : hi;
		}
		w->smin = lo;
		w->smax = hi;
	} else if (rec || f->cache) {
		double lo = rec ? rec->smin : INFINITY;
		double hi = rec ? rec->smax : -INFINITY;
		for (size_t i = 0; i < f->lake_len; i++) {
			double s = surface(height, pool, f->lake[i]);
			lo = s < lo ? s : lo;
			hi = s > hi ? s : hi;
		}
		double s = surface(height, pool, p->start);
		w->smin = s < lo ? s : lo;
		w->smax = s > hi ? s : hi;
	}
}

/* Settles the start cell, then writes the lake's pools at the level.
 * False: out of memory, before anything was written. */
static bool pour_write(struct flood *f, struct pour *p, float *height, float *pool,
		       struct lake *rec, uint32_t id, struct pour_write *w)
{
	const bool level_moved = p->level != p->level0;
	if (level_moved &&
	    (!grow((void **)&f->wground, &f->wground_cap, f->lake_len, sizeof *f->wground) ||
	     !grow((void **)&f->wdepth, &f->wdepth_cap, f->lake_len, sizeof *f->wdepth) ||
	     !grow((void **)&f->dry, &f->dry_cap, f->nbase + f->lake_len, sizeof *f->dry)))
		return false;
	*w = (struct pour_write){
		.cut = p->level + p->tol / 4,
		.smin = INFINITY,
		.smax = -INFINITY,
		.listed = level_moved,
		.moved = p->h_start_new != p->h_start,
	};
	f->dry_len = 0;
	/* Settling first, so the start cell's pool sees its new ground. */
	if (w->moved) {
		height[p->start] = p->h_start_new;
		if (rec)
			rec->ground[f->slot[p->start]] = p->h_start_new;
	}
	if (level_moved) {
		/* Any other record these cells were in is dropped (a start
		 * record is grown in place by pour_keep). */
		if (!rec)
			flood_forget_lake_cells(f, p);
		else
			w->gained = flood_write_record(f, rec, pool, p->level, w->cut, id, &w->smin,
						       &w->smax);
		w->gained += flood_write_pools(f, height, pool, p->level, w->cut, rec ? id : 0,
					       &w->smin, &w->smax);
		w->written = f->nbase + f->lake_len;
	} else {
		write_start_only(f, p, height, pool, rec, id, w);
		range_standing(f, p, height, pool, rec, w);
	}
	return true;
}

/* The records after the write: the start record grows by this call's
 * cells, or this call's lake is remembered; then the dry cells leave it. */
static void pour_keep(struct flood *f, struct pour *p, const float *height, const float *pool,
		      struct lake *rec, uint32_t id, const struct pour_write *w)
{
	const bool edge_start = grid_on_edge(f->width, f->height, p->start);
	uint32_t kept = 0;
	if (rec) {
		/* A map-edge start that took sediment may have been the edge's
		 * lowest ground: the record's edge floor would be stale. */
		if ((w->moved && edge_start) || !flood_leaks_back(f, p, rec) ||
		    !flood_lake_extend(f, id, height, pool, w->smin, w->smax, p->edge_floor))
			flood_forget_lake_cells(f, p);
		else
			kept = id;
	} else if (f->cache) {
		if (p->level == p->level0)
			flood_forget_lake_cells(f, p);
		/* (Not with a settled map-edge start: the edge floor taken while
		 * walking would be stale.) */
		if (!(w->moved && edge_start))
			kept = flood_lake_remember(f, p, w->smin, w->smax);
	}
	/* A write took the range without the dry cells and listed them (in
	 * the record's order: its old cells, then this call's); if there were
	 * none, its range is that of all cells, as a pass would find. */
	if (kept && w->listed && f->dry_len)
		flood_shed_cells(f, kept, f->dry, f->dry_len);
	else if (kept && !w->listed && w->smax > w->cut)
		flood_shed_dry(f, kept, w->cut);
	/* Every cell left has its ground at or below the cut now: the cells
	 * above it were shed, or the range (at or above every ground) is. */
	if (kept && f->lakes[kept - 1].live)
		f->lakes[kept - 1].gtop = w->cut;
}

static void pour_result(struct flood *f, const struct pour *p, enum flood_outcome outcome,
			const struct pour_write *w, bool from_record, struct flood_result *r)
{
	r->outcome = outcome;
	r->drain = outcome == FLOOD_DRAIN ? p->leak_cell : outcome == FLOOD_OVERSHOT ? p->start : -1;
	r->level = p->level;
	r->gained = (double)fix_signed(w->gained) / FIX_ONE;
	r->settled = (double)p->h_start_new - (double)p->h_start;
	r->lake_cells = f->nbase + f->lake_len + p->ov.cells;
	r->touched = f->pushed_len;
	r->written = w->written;
	f->count.calls++;
	f->count.touched += f->pushed_len;
	f->count.lake_cells += f->nbase + f->lake_len + p->ov.cells;
	f->count.overshot_early += p->ov.cells > 0;
	f->count.written += w->written;
	f->count.cached += from_record;
}

/* Two parameter sets alike, field by field: the struct has padding, which
 * a caller filling it field by field leaves undefined, so no memcmp. A
 * field added to struct flood_params belongs here too. */
static bool params_equal(const struct flood_params *a, const struct flood_params *b)
{
	return a->drainage == b->drainage && a->sea_level == b->sea_level &&
	       a->carry == b->carry && a->below_floor == b->below_floor &&
	       a->leak_high == b->leak_high && a->halves == b->halves &&
	       a->halves_filled == b->halves_filled && a->halves_stop == b->halves_stop &&
	       a->wrap_y == b->wrap_y && a->strict_dry == b->strict_dry &&
	       a->level_join == b->level_join;
}

/* Whether this pour is the memo's (struct flood_memo), on the same map. */
static bool memo_hit(const struct flood *f, const float *height, const float *pool, int start,
		     double water, const struct flood_settle *settle,
		     const struct flood_params *fp)
{
	const struct flood_memo *m = &f->memo;
	return m->valid && m->start == start && m->water == water && m->height == height &&
	       m->pool == pool && m->settle == (settle != NULL) &&
	       (!settle || (m->s.on_drain == settle->on_drain && m->s.on_fill == settle->on_fill)) &&
	       params_equal(&m->fp, fp) && m->h_start == height[start] &&
	       m->p_start == pool[start];
}

/* Keeps a pour that wrote nothing (not a pool, not the start's ground). */
static void memo_keep(struct flood *f, const float *height, const float *pool, int start,
		      double water, const struct flood_settle *settle,
		      const struct flood_params *fp, const struct flood_result *r)
{
	struct flood_memo *m = &f->memo;
	m->valid = f->cache && r->written == 0 && r->settled == 0 && r->gained == 0;
	if (!m->valid)
		return;
	m->height = height;
	m->pool = pool;
	m->start = start;
	m->water = water;
	m->settle = settle != NULL;
	if (settle)
		m->s = *settle;
	m->fp = *fp;
	m->h_start = height[start];
	m->p_start = pool[start];
	m->r = *r;
}

int flood_pour_plain(struct flood *f, float *height, float *pool, int start, double water,
		     const struct flood_settle *settle, const struct flood_params *fp,
		     struct flood_result *r)
{
	if (f->cache && memo_hit(f, height, pool, start, water, settle, fp)) {
		*r = f->memo.r;
		f->count.calls++;
		f->count.repeated++;
		return GULLY_OK;
	}
	f->memo.valid = false;
	memset(r, 0, sizeof *r);
	r->drain = -1;
	next_stamp(f);
	f->heap.len = f->stack_len = f->lake_len = f->pushed_len = f->leaks_len = f->nbase = 0;
	f->written_dense = false;
	const double level0 = surface(height, pool, start);
	struct pour p = {
		.height = height,
		.pool = pool,
		.level = level0,
		.tol = LEVEL_TOL * fmax(1.0, fabs(level0)),
		.leak_floor = fp->strict_dry && !(pool[start] > 0.0f) ? level0 : -INFINITY,
		.dry_floor = fp->strict_dry ? level0 : -INFINITY,
		.join_floor = fp->level_join ? level0 - LEVEL_TOL * fmax(1.0, fabs(level0)) : INFINITY,
		.join_top = NAN,
		.first_area = 0,
		.sea_level = fp->sea_level,
		.leak_high = fp->leak_high,
		.wrap_y = fp->wrap_y,
		.edge_floor = INFINITY,
		.cur = NO_LAKE,
		.heap = &f->heap,
		.start = start,
		.level0 = level0,
		.water = water,
		.left = water,
		.h_start = height[start],
		.h_start_new = height[start],
	};
	/* (Not with a load that settles where the water comes to rest: that
	 * moves the start's ground and the water mid-rise.) */
	p.ov.on = fp->halves_filled && f->ov_exit && water > fp->halves_stop &&
		  !(settle && settle->on_fill > 0);
	uint32_t id;
	struct lake *rec = pour_pick(f, &p, &id);
	if (rec)
		p.cur = id;
	enum flood_outcome outcome = FLOOD_FILLED;
	struct pour_write w;
	if (!(rec ? flood_start_cached(f, &p, rec) : flood_start_fresh(f, &p)) ||
	    !flood_rise(f, &p, settle, &outcome))
		goto nomem;
	if (outcome == FLOOD_DRAIN || outcome == FLOOD_SEA)
		pour_drain(f, &p, settle, fp);
	else if (outcome == FLOOD_FILLED && fp->halves_filled &&
		 flood_halves(f, &p, fp->halves_stop))
		outcome = FLOOD_OVERSHOT;
	if (!pour_write(f, &p, height, pool, rec, id, &w))
		goto nomem;
	/* A fresh pour whose tries all overshot wrote nothing: the records of
	 * its cells still hold, and a record of its lake (the start below
	 * cells that rose above the band) could serve no pour. Left as they
	 * are: a lake whose cell a droplet eroded keeps its record for the
	 * droplets that land elsewhere on it. */
	if (rec || outcome != FLOOD_OVERSHOT || p.level != p.level0 || w.moved)
		pour_keep(f, &p, height, pool, rec, id, &w);
	pour_result(f, &p, outcome, &w, rec != NULL, r);
	r->poured = water - p.left;
	memo_keep(f, height, pool, start, water, settle, fp, r);
	return GULLY_OK;
nomem:
	/* Nothing was written, but a record's rim heap may have lost entries
	 * it popped: drop it. */
	if (rec)
		flood_lake_kill(f, id);
	return GULLY_ENOMEM;
}

int flood_pour(struct flood *f, float *height, float *pool, int start, double water,
	       const struct flood_settle *settle, const struct flood_params *fp,
	       struct flood_result *r)
{
	if (fp->wrap_y && f->cache)
		flood_set_cache(f, false);
	if (f->shadow && f->cache)
		return flood_shadow_pour(f, height, pool, start, water, settle, fp, r);
	return flood_pour_plain(f, height, pool, start, water, settle, fp, r);
}
