/* One running simulation for both front ends (simulation.h). */
#include "io/simulation.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "io/preset.h"

int simulation_open(struct simulation *s, struct snapshot_info *saved, const char *path,
		    char *err, size_t errlen)
{
	struct world *w = NULL;
	struct snapshot_info info;
	memset(&info, 0, sizeof info);
	int e = snapshot_load(path, &w, &info, err, errlen);
	if (e)
		return e;
	int bad;
	if (!process_find(info.process)) {
		snprintf(err, errlen, "%s: process '%s' is not built into this gully (one of %s)",
			 path, info.process, process_names());
		e = GULLY_ENOTFOUND;
	} else if (params_validate(&info.params, &bad)) {
		snprintf(err, errlen, "%s: parameter %s is out of range", path,
			 params_def(bad)->key);
		e = GULLY_EFORMAT;
	}
	if (e) {
		world_destroy(w);
		snapshot_info_free(&info);
		return e;
	}
	*s = (struct simulation){.world = w, .params = info.params};
	*saved = info;
	return GULLY_OK;
}

/* The process that saved `saved` takes its state back on s->world and ends
 * what it had in flight (the droplets part-way down a lockstep run), so
 * their soil lands in the world instead of vanishing with the state. */
static int finish_saver(struct simulation *s, const struct snapshot_info *saved,
			const char *label, char *err, size_t errlen)
{
	const struct process_ops *old = process_find(saved->process);
	if (!old || !old->finish || !old->load_state)
		return GULLY_OK;
	void *state = NULL;
	int e = old->create(&state, s->world, &s->params);
	if (!e)
		e = old->load_state(state, saved->state, saved->state_len);
	if (!e)
		e = old->finish(state, s->world, &s->params, NULL);
	if (state)
		old->destroy(state);
	if (e)
		snprintf(err, errlen, "%s: the %s process cannot finish this snapshot's state: %s",
			 label, old->name, gully_strerror(e));
	return e;
}

/* proc and its new state replace the session's process, whose state ends. */
static void adopt(struct simulation *s, const struct process_ops *proc, void *state)
{
	if (s->proc && s->state)
		s->proc->destroy(s->state);
	s->proc = proc;
	s->state = state;
}

/* A state resumed from `saved` keeps what it was made with (made_with): a
 * value set over the snapshot's would be shown and saved but not act. */
int simulation_check_kept(const struct simulation *s, const struct process_ops *proc,
			  const struct snapshot_info *saved, const char *label, char *err,
			  size_t errlen)
{
	if (!saved || !saved->state || strcmp(saved->process, proc->name) != 0)
		return GULLY_OK;
	for (const char *const *k = proc->made_with; k && *k; k++) {
		int i = params_find(*k);
		if (i < 0 || params_get(&s->params, i) == params_get(&saved->params, i))
			continue;
		char was[64], now[64];
		params_format(&saved->params, i, was, sizeof was);
		params_format(&s->params, i, now, sizeof now);
		snprintf(err, errlen,
			 "%s: its %s state was made with %s=%s and keeps it, so %s=%s would not "
			 "act; run from its terrain for a new one (gully render %s -o FILE.f32)",
			 label, proc->name, *k, was, *k, now, label);
		return GULLY_EINVAL;
	}
	return GULLY_OK;
}

int simulation_start(struct simulation *s, const struct process_ops *proc,
		     const struct snapshot_info *saved, const char *label, char *err,
		     size_t errlen)
{
	/* Another process's droplets in flight land before the new process is
	 * made: sph keeps the ground it was made on (its h0) and would take
	 * their work back where it later digs. */
	bool other = saved && saved->state && strcmp(saved->process, proc->name) != 0;
	int e = other ? finish_saver(s, saved, label, err, errlen) : GULLY_OK;
	if (!e && saved && saved->state && !other)
		e = simulation_check_kept(s, proc, saved, label, err, errlen);
	if (e)
		return e;
	void *state = NULL;
	if ((e = proc->create(&state, s->world, &s->params))) {
		snprintf(err, errlen, "%s: %s", proc->name, gully_strerror(e));
		return e;
	}
	if (saved && saved->state && !other) {
		e = proc->load_state ? proc->load_state(state, saved->state, saved->state_len)
				     : GULLY_EFORMAT;
		if (e)
			snprintf(err, errlen, "%s: the %s process cannot take this snapshot's state: %s",
				 label, proc->name, gully_strerror(e));
	}
	if (e) {
		proc->destroy(state);
		return e;
	}
	adopt(s, proc, state);
	return GULLY_OK;
}

int simulation_switch(struct simulation *s, const struct process_ops *proc, char *err,
		      size_t errlen)
{
	/* The world goes on without the old process: what it has in flight
	 * lands first, so no soil goes missing, and before the new process is
	 * made, so it starts from that ground (sph keeps the ground it was made
	 * on and would take the landed work back where it later digs). A failed
	 * create leaves the old process finished, its world whole. */
	int e = GULLY_OK;
	if (s->proc && s->state && s->proc->finish &&
	    (e = s->proc->finish(s->state, s->world, &s->params, NULL))) {
		snprintf(err, errlen, "%s: %s", s->proc->name, gully_strerror(e));
		return e;
	}
	void *state = NULL;
	if ((e = proc->create(&state, s->world, &s->params))) {
		snprintf(err, errlen, "%s: %s", proc->name, gully_strerror(e));
		return e;
	}
	adopt(s, proc, state);
	return GULLY_OK;
}

/* note, then a newline, before the YAML (a comment line, so still YAML). */
static int prepend_note(char **yaml, const char *note)
{
	size_t len = strlen(note) + strlen(*yaml) + 2;
	char *text = malloc(len);
	if (!text)
		return -1;
	snprintf(text, len, "%s\n%s", note, *yaml);
	free(*yaml);
	*yaml = text;
	return 0;
}

int simulation_save(const struct simulation *s, const char *path, char *err, size_t errlen)
{
	struct snapshot_info out;
	memset(&out, 0, sizeof out);
	snprintf(out.process, sizeof out.process, "%s", s->proc->name);
	out.params = s->params;
	/* The effective preset, so `gully info` and a reader see what made it. */
	if (preset_to_yaml(&s->params, &out.preset_yaml) ||
	    (s->note && prepend_note(&out.preset_yaml, s->note))) {
		free(out.preset_yaml);
		snprintf(err, errlen, "%s: cannot write the preset text", path);
		return GULLY_ENOMEM;
	}
	int e = GULLY_OK;
	if (s->proc->save_state && (e = s->proc->save_state(s->state, &out.state, &out.state_len)))
		snprintf(err, errlen, "%s: cannot save the %s state: %s", path, s->proc->name,
			 gully_strerror(e));
	if (!e)
		e = snapshot_save(path, s->world, &out, err, errlen);
	free(out.state);
	free(out.preset_yaml);
	return e;
}

void simulation_end(struct simulation *s)
{
	if (s->proc && s->state)
		s->proc->destroy(s->state);
	world_destroy(s->world);
	*s = (struct simulation){0};
}

/* The largest |height| of the terrain as it was made or imported (the
 * base layer), for the hint: a map that began near the limit needs
 * smaller heights, not other parameters. */
static float base_extreme(const struct world *w)
{
	const float *b = w->layer[LAYER_BASE];
	float m = 0;
	for (size_t c = 0; c < world_cells(w); c++)
		m = fabsf(b[c]) > m ? fabsf(b[c]) : m;
	return m;
}

/* What to change for an unstable run. A map whose own heights reach half
 * the limit went past it by the ordinary digging and filling of a run:
 * its heights are what to change. Otherwise, for a process whose droplets
 * have these parameters (particles, hydrology): light droplets speed up the
 * most, and the transfer rate times the step is how much of the gap to
 * c_eq one step digs (past the drop to the next cell, a pit grows). */
static void watch_hint(const struct world *w, const struct process_ops *proc, char *hint,
		       size_t len)
{
	char dep[64], dens[64];
	const float base = base_extreme(w);
	snprintf(dep, sizeof dep, "%s.deposition_rate", proc->section);
	snprintf(dens, sizeof dens, "%s.density", proc->section);
	if (base >= WORLD_HEIGHT_LIMIT / 2)
		snprintf(hint, len, "; the terrain itself reaches %.3g, near the limit: give it "
			 "smaller heights (a .png, .pgm or .r16 map: a smaller --range)",
			 (double)base);
	else if (params_find(dep) >= 0 && params_find(dens) >= 0)
		snprintf(hint, len, "; raise %s, or lower %s or %s.dt", dens, dep, proc->section);
	else
		hint[0] = '\0';
}

int sim_watch(struct sim_watch *wt, const struct world *w, const struct process_ops *proc,
	      uint64_t steps, uint64_t done, uint64_t budget, bool now, char *err, size_t errlen)
{
	wt->steps += steps;
	if (!now && wt->steps / SIM_WATCH_STEPS_PER_CELL < world_cells(w))
		return GULLY_OK;
	wt->steps = 0;
	size_t cell;
	if (world_check_layer(w, LAYER_HEIGHT, &cell) == GULLY_OK)
		return GULLY_OK;
	char when[96], hint[256];
	if (budget)
		snprintf(when, sizeof when, "%llu of %llu %s", (unsigned long long)done,
			 (unsigned long long)budget, proc->unit);
	else
		snprintf(when, sizeof when, "%llu %s", (unsigned long long)done, proc->unit);
	watch_hint(w, proc, hint, sizeof hint);
	const size_t x = cell % (size_t)w->width, y = cell / (size_t)w->width;
	snprintf(err, errlen, "%s went unstable after %s: height %.3g at x %zu, y %zu (past +-%g)%s",
		 proc->name, when, (double)w->layer[LAYER_HEIGHT][cell], x, y,
		 (double)WORLD_HEIGHT_LIMIT, hint);
	return GULLY_ERANGE;
}
