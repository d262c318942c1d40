/* Undo: a small ring of checkpoints of the simulation (the world's layers,
 * counters, tallies and random stream, the process and its saved state).
 * No curses here.
 *
 * app.c takes a checkpoint before a `.` step, when a run starts, and every
 * UNDO_EVERY_SECONDS while it runs (maps up to UNDO_TIMED_MAX_CELLS); `u`
 * goes back to the newest checkpoint that differs from the world now. Parameters are not part of a checkpoint,
 * so a class can run, undo, change a value and run again from the same
 * ground. Memory is bounded: at most UNDO_DEPTH checkpoints and
 * UNDO_MAX_BYTES in all, the oldest dropped first; a world larger than the
 * whole budget gets no undo. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "core/base/error.h"
#include "tui/app.h"

static size_t entry_bytes(const struct world *w, size_t state_len)
{
	return world_cells(w) * LAYER_COUNT * sizeof(float) + state_len + sizeof *w;
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
	free(e->state);
	memset(e, 0, sizeof *e);
}

void undo_clear(struct app *a)
{
	struct undo_ring *r = &a->undo;
	for (int i = 0; i < UNDO_DEPTH; i++)
		entry_free(&r->e[i]);
	r->count = 0;
	r->head = 0;
	r->bytes = 0;
}

/* The i-th newest entry (0 = newest). */
static struct undo_entry *nth(struct undo_ring *r, int i)
{
	return &r->e[(r->head - 1 - i + 2 * UNDO_DEPTH) % UNDO_DEPTH];
}

static void drop_oldest(struct undo_ring *r)
{
	struct undo_entry *e = nth(r, r->count - 1);
	r->bytes -= e->bytes;
	entry_free(e);
	r->count--;
}

int undo_push(struct app *a, double now)
{
	struct undo_ring *r = &a->undo;
	r->last = now;
	unsigned char *state = NULL;
	size_t state_len = 0;
	int e;
	if (a->proc->save_state && (e = a->proc->save_state(a->state, &state, &state_len)))
		return e;
	size_t bytes = entry_bytes(a->world, state_len);
	if (bytes > UNDO_MAX_BYTES) {
		free(state);
		return GULLY_ESIZE;
	}
	/* The oldest checkpoint's world, when one is dropped, takes the copy:
	 * a fresh clone of a big map costs its page faults (a median of 95 ms
	 * against 23 ms to copy into memory already touched, at 1024x1024 on
	 * the loaded 2-core build machine). */
	struct world *w = NULL;
	while (r->count > 0 && (r->count >= UNDO_DEPTH || r->bytes + bytes > UNDO_MAX_BYTES)) {
		struct undo_entry *old = nth(r, r->count - 1);
		if (!w && old->world && old->world->width == a->world->width &&
		    old->world->height == a->world->height) {
			w = old->world;
			old->world = NULL;
		}
		drop_oldest(r);
	}
	if (w) {
		copy_world(w, a->world);
	} else if ((e = world_clone(&w, a->world))) {
		free(state);
		return e;
	}
	struct undo_entry *slot = &r->e[r->head];
	entry_free(slot);
	*slot = (struct undo_entry){w, a->proc, state, state_len, a->pristine, bytes};
	r->head = (r->head + 1) % UNDO_DEPTH;
	r->count++;
	r->bytes += bytes;
	return GULLY_OK;
}

/* Same counters and the same random stream: nothing ran in between. */
static bool same_as_now(const struct app *a, const struct undo_entry *e)
{
	const struct world *w = a->world, *c = e->world;
	return e->proc == a->proc && c->particles == w->particles && c->steps == w->steps &&
	       c->width == w->width && c->height == w->height &&
	       memcmp(&c->rng, &w->rng, sizeof c->rng) == 0;
}

static void drop_newest(struct undo_ring *r)
{
	r->head = (r->head - 1 + UNDO_DEPTH) % UNDO_DEPTH;
	r->bytes -= r->e[r->head].bytes;
	entry_free(&r->e[r->head]);
	r->count--;
}

int undo_pop(struct app *a, char *err, size_t errlen)
{
	struct undo_ring *r = &a->undo;
	while (r->count > 0 && same_as_now(a, nth(r, 0)))
		drop_newest(r);
	if (r->count == 0) {
		snprintf(err, errlen, "nothing to undo");
		return GULLY_ENOTFOUND;
	}
	struct undo_entry *e = nth(r, 0);
	void *state = NULL;
	int k = e->proc->create(&state, e->world, &a->params);
	if (!k && e->state && e->proc->load_state)
		k = e->proc->load_state(state, e->state, e->state_len);
	if (k) {
		if (state)
			e->proc->destroy(state);
		snprintf(err, errlen, "cannot undo: %s: %s", e->proc->name, gully_strerror(k));
		drop_newest(r);
		return k;
	}
	trace_stop(a);
	if (a->proc && a->state)
		a->proc->destroy(a->state);
	world_destroy(a->world);
	bool proc_changed = a->proc != e->proc;
	a->world = e->world;
	a->proc = e->proc;
	a->state = state;
	a->pristine = e->pristine;
	a->dirty = true;
	e->world = NULL;
	drop_newest(r);
	if (proc_changed)
		session_param_list(a);
	a->pool_row = 0;
	a->pool_acc = 0;
	a->shown_valid = false;
	return GULLY_OK;
}

int undo_levels(const struct app *a)
{
	return a->undo.count;
}
