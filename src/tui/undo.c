/* Undo: a small ring of checkpoints of the simulation (the world's layers,
 * counters, tallies and random stream, the process and its saved state).
 * No curses here.
 *
 * The keys (actions.c) take a checkpoint before a `.` step and when a run
 * starts, the worker (worker.c) every UNDO_EVERY_SECONDS while it runs (maps up to UNDO_TIMED_MAX_CELLS); `u`
 * goes back to the newest checkpoint that differs from the world now. Parameters are not part of a checkpoint,
 * so a class can run, undo, change a value and run again from the same
 * ground. Memory is bounded: at most UNDO_DEPTH checkpoints and
 * UNDO_MAX_BYTES in all (or one copy of a bigger map), and no more than
 * half the memory left free (undo_budget), the oldest dropped first; a map
 * whose copy would not fit is kept packed, as an in-memory snapshot, and a
 * checkpoint larger than the whole budget is not kept.
 *
 * Redo: `u` moves the world it replaces (no copy) onto a second ring, and
 * redo moves it back, the world undo replaced going onto the undo ring, so
 * u and redo walk back and forth without copying. A new checkpoint (a run,
 * a step, g, P) starts new history and clears redo. Both rings share the
 * byte budget. g, P and a process switch take a "whole" checkpoint, whose
 * undo restores the parameters too (the preset's or seed's that made it). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "core/base/error.h"
#include "io/snapshot.h"
#include "io/sysmem.h"
#include "tui/app.h"

static size_t copy_bytes(size_t cells)
{
	return cells * LAYER_COUNT * sizeof(float) + sizeof(struct world);
}

static size_t entry_bytes(const struct world *w, size_t state_len)
{
	return copy_bytes(world_cells(w)) + state_len;
}

static struct undo_mark mark_of(const struct world *w)
{
	return (struct undo_mark){w->width, w->height, w->particles, w->steps, w->rng};
}

/* A copy over UNDO_MAX_BYTES (at 4096x4096, 470 MB against 256), or over
 * the budget (little free memory), is packed: the world as an in-memory
 * snapshot, its layers as runs (gully-snapshot(5)), a fraction of the
 * copy but a few tenths of a second to make. Smaller maps keep the cheap
 * copy. */
static bool packs(const struct app *a, size_t budget)
{
	const size_t max = a->undo_copy_max ? a->undo_copy_max : UNDO_MAX_BYTES;
	const size_t copy = entry_bytes(a->world, 0);
	return copy > max || copy > budget;
}

/* The world as a snapshot in memory (layers, counters, tallies, random
 * stream; the parameters and the process state stay in the entry). A
 * world the snapshot could not hold back (a run gone unstable) is refused
 * here rather than at undo. */
static int pack_world(const struct world *w, const char *process, const struct params *p,
		      unsigned char **out, size_t *len)
{
	size_t cell;
	for (int l = 0; l < LAYER_COUNT; l++)
		if (world_check_layer(w, (enum world_layer)l, &cell) != GULLY_OK)
			return GULLY_ERANGE;
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);
	if (!fp)
		return GULLY_ENOMEM;
	struct snapshot_info info;
	memset(&info, 0, sizeof info);
	snprintf(info.process, sizeof info.process, "%s", process);
	info.params = *p;
	char err[256];
	int e = snapshot_write(fp, "checkpoint", w, &info, err, sizeof err);
	if (fclose(fp) != 0 && !e)
		e = GULLY_ENOMEM;
	if (e) {
		free(buf);
		return e;
	}
	*out = (unsigned char *)buf;
	*len = n;
	return GULLY_OK;
}

static int unpack_world(const struct undo_entry *e, struct world **out)
{
	FILE *fp = fmemopen(e->packed, e->packed_len, "rb");
	if (!fp)
		return GULLY_ENOMEM;
	struct snapshot_info info;
	char err[256];
	int k = snapshot_read(fp, "checkpoint", 0, out, &info, NULL, err, sizeof err);
	fclose(fp);
	if (!k)
		snapshot_info_free(&info);
	return k;
}

/* world_clone into a world of the same size. */
static void copy_world(struct world *dst, const struct world *src)
{
	for (int i = 0; i < LAYER_COUNT; i++)
		memcpy(dst->layer[i], src->layer[i], world_cells(src) * sizeof(float));
	dst->particles = src->particles;
	dst->steps = src->steps;
	memcpy(dst->tally, src->tally, sizeof dst->tally);
	dst->rng = src->rng;
}

static void entry_free(struct undo_entry *e)
{
	world_destroy(e->world);
	free(e->packed);
	free(e->state);
	memset(e, 0, sizeof *e);
}

static void ring_clear(struct undo_ring *r)
{
	for (int i = 0; i < UNDO_DEPTH; i++)
		entry_free(&r->e[i]);
	r->count = 0;
	r->head = 0;
	r->bytes = 0;
}

void undo_clear(struct app *a)
{
	ring_clear(&a->undo);
	ring_clear(&a->redo);
	a->undo.said_short = false;
}

/* The i-th newest entry (0 = newest). */
static struct undo_entry *nth(struct undo_ring *r, int i)
{
	return &r->e[(r->head - 1 - i + 2 * UNDO_DEPTH) % UNDO_DEPTH];
}

/* Drops the oldest entry; its world is returned when `keep` wants it (a
 * world to copy into), else freed. */
static struct world *drop_oldest(struct undo_ring *r, bool keep)
{
	struct undo_entry *e = nth(r, r->count - 1);
	struct world *w = keep ? e->world : NULL;
	if (keep)
		e->world = NULL;
	r->bytes -= e->bytes;
	entry_free(e);
	r->count--;
	return w;
}

/* The memory free to undo: the machine's (or its cgroup's), or the test's. */
static size_t memory_left(const struct app *a)
{
	return a->undo_mem_available ? a->undo_mem_available : sysmem_available();
}

/* What an undo allocates on top of the rings: the world unpacked (a copy)
 * and the process started on it, whose own maps take less than a quarter
 * of a copy. */
static size_t undo_reserve(size_t cells)
{
	const size_t copy = copy_bytes(cells);
	return copy + copy / 4;
}

/* The rings' byte budget: UNDO_MAX_BYTES, or on a map whose copy is
 * larger (packed, a checkpoint is a fraction of that) as much as one copy,
 * so that a long run on a 4096x4096 map still has its undo; but never
 * over half the memory free to the rings (what they hold and what the
 * machine or its cgroup has left) once an undo's own allocations are set
 * aside, so that checkpoints do not push a small machine into swapping or
 * get gully killed with the session's work. *by_memory says whether that
 * cap is what limits it. */
static size_t undo_budget(const struct app *a, bool *by_memory)
{
	const size_t copy = entry_bytes(a->world, 0);
	const size_t want = copy > UNDO_MAX_BYTES ? copy : UNDO_MAX_BYTES;
	const size_t left = memory_left(a), held = a->undo.bytes + a->redo.bytes;
	const size_t reserve = undo_reserve(world_cells(a->world));
	size_t cap = want;
	if (left < SIZE_MAX / 2)
		cap = left + held > reserve ? (left + held - reserve) / 2 : 0;
	if (by_memory)
		*by_memory = cap < want;
	return cap < want ? cap : want;
}

/* Makes room in r for an entry of `bytes`, the two rings sharing the
 * budget (undo_budget's); returns a dropped world of w x h to reuse, or NULL. */
static struct world *make_room(struct app *a, struct undo_ring *r, size_t bytes, size_t budget,
			       int w, int h)
{
	struct world *reuse = NULL;
	struct undo_ring *other = r == &a->undo ? &a->redo : &a->undo;
	while (r->count > 0 &&
	       (r->count >= UNDO_DEPTH || r->bytes + other->bytes + bytes > budget)) {
		const struct world *old = nth(r, r->count - 1)->world;
		bool fits = !reuse && old && old->width == w && old->height == h;
		struct world *got = drop_oldest(r, fits);
		if (got)
			reuse = got;
	}
	while (other->count > 0 && r->bytes + other->bytes + bytes > budget)
		drop_oldest(other, false);
	return reuse;
}

/* Puts an entry owning `world` and `state` on r (as its newest). */
static void ring_put(struct undo_ring *r, const struct undo_entry *e)
{
	struct undo_entry *slot = &r->e[r->head];
	entry_free(slot);
	*slot = *e;
	r->head = (r->head + 1) % UNDO_DEPTH;
	r->count++;
	r->bytes += e->bytes;
}

static int save_state(const struct app *a, unsigned char **state, size_t *len)
{
	*state = NULL;
	*len = 0;
	return a->proc->save_state ? a->proc->save_state(a->state, state, len) : GULLY_OK;
}

static int push(struct app *a, double now, bool whole)
{
	struct undo_ring *r = &a->undo;
	r->last = now;
	ring_clear(&a->redo);
	unsigned char *state;
	size_t state_len;
	bool by_memory;
	const size_t budget = undo_budget(a, &by_memory);
	int e = save_state(a, &state, &state_len);
	if (e)
		return e;
	counts_book(a);
	struct undo_entry en = {.proc = a->proc, .mark = mark_of(a->world), .state = state,
				.state_len = state_len, .pristine = a->pristine, .whole = whole,
				.params = a->params, .counts = a->counts};
	if (packs(a, budget)) {
		e = pack_world(a->world, a->proc->name, &a->params, &en.packed, &en.packed_len);
		en.bytes = en.packed_len + state_len;
	} else {
		en.bytes = entry_bytes(a->world, state_len);
	}
	if (!e && en.bytes > budget)
		e = by_memory ? GULLY_ENOMEM : GULLY_ESIZE;
	if (e) {
		free(en.packed);
		free(state);
		return e;
	}
	if (en.packed) {
		world_destroy(make_room(a, r, en.bytes, budget, 0, 0));
	} else {
		/* The oldest checkpoint's world, when one is dropped, takes the
		 * copy: a fresh clone of a big map costs its page faults
		 * (bench/TUI.md). */
		en.world = make_room(a, r, en.bytes, budget, a->world->width, a->world->height);
		if (en.world) {
			copy_world(en.world, a->world);
		} else if ((e = world_clone(&en.world, a->world))) {
			free(state);
			return e;
		}
	}
	ring_put(r, &en);
	return GULLY_OK;
}

int undo_push(struct app *a, double now)
{
	return push(a, now, false);
}

int undo_push_whole(struct app *a, double now)
{
	return push(a, now, true);
}

/* Same counters and the same random stream: nothing ran in between. */
static bool same_as_now(const struct app *a, const struct undo_entry *e)
{
	const struct world *w = a->world;
	const struct undo_mark *c = &e->mark;
	return e->proc == a->proc && c->particles == w->particles && c->steps == w->steps &&
	       c->width == w->width && c->height == w->height &&
	       memcmp(&c->rng, &w->rng, sizeof c->rng) == 0 &&
	       (!e->whole || memcmp(&e->params, &a->params, sizeof e->params) == 0);
}

static void drop_newest(struct undo_ring *r)
{
	r->head = (r->head - 1 + UNDO_DEPTH) % UNDO_DEPTH;
	r->bytes -= r->e[r->head].bytes;
	entry_free(&r->e[r->head]);
	r->count--;
}

/* Takes the newest entry off r, its world and state now the caller's. */
static struct undo_entry take_newest(struct undo_ring *r)
{
	r->head = (r->head - 1 + UNDO_DEPTH) % UNDO_DEPTH;
	struct undo_entry e = r->e[r->head];
	memset(&r->e[r->head], 0, sizeof e);
	r->bytes -= e.bytes;
	r->count--;
	return e;
}

/* The process of from's newest entry, started on its world (unpacked when
 * packed) with its state loaded. An entry whose state does not load is
 * dropped (*dropped). */
static int entry_start(struct app *a, struct undo_ring *from, void **state,
		       struct world **unpacked, bool *dropped)
{
	struct undo_entry *top = nth(from, 0);
	const struct process_ops *proc = top->proc;
	const struct params *params = top->whole ? &top->params : &a->params;
	*state = NULL;
	*unpacked = NULL;
	*dropped = false;
	/* An unpacked world the machine cannot hold would get gully killed
	 * (the kernel overcommits); refused, the entry stays for later. */
	const size_t cells = (size_t)top->mark.width * (size_t)top->mark.height;
	if (top->packed && memory_left(a) < undo_reserve(cells))
		return GULLY_ENOMEM;
	int k = top->packed ? unpack_world(top, unpacked) : GULLY_OK;
	if (!k)
		k = proc->create(state, top->packed ? *unpacked : top->world, params);
	if (!k && top->state && proc->load_state)
		k = proc->load_state(*state, top->state, top->state_len);
	if (k) {
		if (*state)
			proc->destroy(*state);
		*state = NULL;
		world_destroy(*unpacked);
		*unpacked = NULL;
		if (k != GULLY_ENOMEM) {
			*dropped = true;
			drop_newest(from);
		}
	}
	return k;
}

/* The session as it is goes onto `to` (whole when the entry replacing it
 * restores parameters, so going back restores today's; packed on a big
 * map, as a checkpoint is), or, too big to keep even packed, is let go:
 * no way forward again. Its process ends either way. */
static void retire_now(struct app *a, struct undo_ring *to, bool whole, unsigned char *now_state,
		       size_t now_len)
{
	counts_book(a);
	struct undo_entry now = {.world = a->world, .proc = a->proc, .mark = mark_of(a->world),
				 .state = now_state, .state_len = now_len,
				 .pristine = a->pristine, .whole = whole, .params = a->params,
				 .counts = a->counts, .bytes = entry_bytes(a->world, now_len)};
	const size_t budget = undo_budget(a, NULL);
	if (packs(a, budget) && pack_world(a->world, a->proc->name, &a->params, &now.packed,
					   &now.packed_len) == GULLY_OK) {
		now.world = NULL;
		now.bytes = now.packed_len + now_len;
	}
	const bool keep = now.bytes <= budget;
	if (keep) {
		world_destroy(make_room(a, to, now.bytes, budget, 0, 0));
		ring_put(to, &now);
	} else {
		free(now.packed);
		free(now_state);
	}
	trace_stop(a); /* a traced droplet may hold the state (hydrology's) */
	if (a->proc && a->state)
		a->proc->destroy(a->state);
	if (!keep || !now.world)
		world_destroy(a->world); /* not on the ring */
	a->world = NULL;
	a->state = NULL;
}

/* Replaces the session with from's newest entry, the session as it was
 * going onto `to` (moved, not copied; retire_now). An entry whose state
 * does not load is dropped (*dropped); one that cannot be taken for
 * another reason (now's state cannot be kept) stays. */
static int restore(struct app *a, struct undo_ring *from, struct undo_ring *to, bool *dropped,
		   char *err, size_t errlen)
{
	const struct process_ops *proc = nth(from, 0)->proc;
	void *state;
	struct world *unpacked;
	int k = entry_start(a, from, &state, &unpacked, dropped);
	unsigned char *now_state = NULL;
	size_t now_len = 0;
	if (!k && (k = save_state(a, &now_state, &now_len))) {
		proc->destroy(state);
		world_destroy(unpacked);
	}
	if (k == GULLY_ENOMEM) { /* the entry stays (entry_start) */
		const struct undo_mark *m = &nth(from, 0)->mark;
		snprintf(err, errlen, "cannot undo: too little free memory (%zu MB; the map needs %zu)",
			 memory_left(a) >> 20,
			 undo_reserve((size_t)m->width * (size_t)m->height) >> 20);
	} else if (k)
		snprintf(err, errlen, "cannot undo: %s: %s", proc->name, gully_strerror(k));
	if (k)
		return k;
	struct undo_entry e = take_newest(from);
	if (e.packed) {
		e.world = unpacked;
		free(e.packed);
		e.packed = NULL;
	}
	retire_now(a, to, e.whole, now_state, now_len);
	bool proc_changed = a->proc != e.proc;
	a->world = e.world;
	a->proc = e.proc;
	a->state = state;
	a->counts = e.counts;
	a->pristine = e.pristine;
	if (e.whole)
		a->params = e.params;
	a->dirty = true;
	bool whole = e.whole;
	e.world = NULL;
	entry_free(&e);
	if (proc_changed || whole)
		session_param_list(a);
	a->slice_budget = 0;
	a->pool_row = 0;
	a->pool_acc = 0;
	a->shown_valid = false;
	return GULLY_OK;
}

/* restore, past entries that do not load. */
static int restore_loaded(struct app *a, struct undo_ring *from, struct undo_ring *to, char *err,
			  size_t errlen)
{
	int k, dropped = 0;
	bool gone;
	while ((k = restore(a, from, to, &gone, err, errlen)) != GULLY_OK && gone &&
	       from->count > 0)
		dropped++;
	if (k)
		return k;
	if (dropped)
		snprintf(err, errlen, "; %d newer checkpoint%s that would not load dropped", dropped,
			 dropped == 1 ? "" : "s");
	else
		err[0] = '\0';
	return GULLY_OK;
}

int undo_pop(struct app *a, char *err, size_t errlen)
{
	struct undo_ring *r = &a->undo;
	while (r->count > 0 && same_as_now(a, nth(r, 0)))
		drop_newest(r);
	if (r->count == 0) {
		/* Checkpoints refused for memory (app_checkpoint) say so here too. */
		snprintf(err, errlen, "nothing to undo%s",
			 r->said_short ? " (no checkpoint kept: too little free memory)" : "");
		return GULLY_ENOTFOUND;
	}
	return restore_loaded(a, r, &a->redo, err, errlen);
}

int undo_redo(struct app *a, char *err, size_t errlen)
{
	if (a->redo.count == 0) {
		snprintf(err, errlen, "nothing to redo");
		return GULLY_ENOTFOUND;
	}
	int k = restore_loaded(a, &a->redo, &a->undo, err, errlen);
	if (k && strncmp(err, "cannot undo", 11) == 0)
		memcpy(err, "cannot redo", 11);
	return k;
}

int undo_levels(const struct app *a)
{
	return a->undo.count;
}

int redo_levels(const struct app *a)
{
	return a->redo.count;
}
