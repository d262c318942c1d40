/* The emitter and the jets as the explorer moves them: a process that
 * declares sources (process_ops.sources: which of its parameters are x, y,
 * direction, window and on) has them drawn on the map; a key picks the one
 * the keys and mouse move and switch, so the explorer never asks for a
 * process or a parameter by name. No curses here. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/pi.h"
#include "tui/app.h"

static int source_count(const struct app *a)
{
	return a->proc && a->world ? a->proc->nsources : 0;
}

bool source_get_at(const struct app *a, int i, struct source *s)
{
	if (i < 0 || i >= source_count(a))
		return false;
	const struct process_source *ps = &a->proc->sources[i];
	s->index = i;
	s->ix = params_find(ps->x);
	s->iy = params_find(ps->y);
	s->idir = params_find(ps->direction);
	s->iwin = params_find(ps->window);
	s->ion = ps->on ? params_find(ps->on) : -1;
	if (s->ix < 0 || s->iy < 0 || s->idir < 0 || s->iwin < 0 || (ps->on && s->ion < 0))
		return false;
	/* As the process reads them (emitter_params_from). */
	s->x = params_get(&a->params, s->ix) * a->world->width;
	s->y = params_get(&a->params, s->iy) * a->world->height;
	s->direction = params_get(&a->params, s->idir);
	s->window = params_get(&a->params, s->iwin);
	s->on = s->ion < 0 || params_get(&a->params, s->ion) != 0;
	const int iel = ps->elevation ? params_find(ps->elevation) : -1;
	s->iel = iel;
	s->level = iel < 0 ? 1 : fabs(cos(params_get(&a->params, iel) * GULLY_PI / 180));
	if (ps->window_is_radius)
		s->window *= 2;
	return true;
}

/* The pick is kept across process switches, so it is clamped here. */
static int picked(const struct app *a)
{
	int n = source_count(a);
	return n > 0 && a->source_pick > 0 && a->source_pick < n ? a->source_pick : 0;
}

bool source_get(const struct app *a, struct source *s)
{
	return source_get_at(a, picked(a), s);
}

bool source_pick_next(struct app *a)
{
	int n = source_count(a);
	if (n < 2)
		return false;
	a->source_pick = (picked(a) + 1) % n;
	return true;
}

bool source_toggle(struct app *a)
{
	struct source s;
	if (!source_get(a, &s) || s.ion < 0)
		return false;
	if (params_set(&a->params, s.ion, s.on ? 0 : 1) != GULLY_OK)
		return false;
	a->dirty = true;
	return true;
}

bool source_move(struct app *a, int dx, int dy, int dturn)
{
	struct source s;
	if (!source_get(a, &s))
		return false;
	if (dx)
		params_nudge(&a->params, s.ix, dx);
	if (dy)
		params_nudge(&a->params, s.iy, dy);
	if (dturn) {
		const struct param_def *d = params_def(s.idir);
		double v = s.direction + dturn * d->step;
		/* Round the circle rather than stopping at +-180. */
		double span = d->max - d->min;
		if (span > 0 && (v > d->max || v < d->min))
			v = d->min + fmod(fmod(v - d->min, span) + span, span);
		if (params_set(&a->params, s.idir, v) != GULLY_OK)
			params_nudge(&a->params, s.idir, dturn);
	}
	a->dirty = true;
	return true;
}

bool source_place(struct app *a, int cx, int cy)
{
	struct source s;
	if (!source_get(a, &s))
		return false;
	double fx = (cx + 0.5) / a->world->width, fy = (cy + 0.5) / a->world->height;
	fx = fx < 0 ? 0 : fx > 1 ? 1 : fx;
	fy = fy < 0 ? 0 : fy > 1 ? 1 : fy;
	if (params_set(&a->params, s.ix, fx) || params_set(&a->params, s.iy, fy))
		return false;
	a->dirty = true;
	return true;
}

/* Which processes have something the keys move, by digit and name: the
 * message named only the emitter, though n and N are the jets' keys. A
 * source's name with a number ("jet 1") counts them ("4 jets"). */
void source_say_none(struct app *a)
{
	char who[200] = "";
	size_t used = 0;
	for (int i = 0; i < process_count() && used < sizeof who; i++) {
		const struct process_ops *p = process_get(i);
		if (p->nsources <= 0)
			continue;
		const char *name = p->sources[0].name;
		int stem = (int)strcspn(name, " ");
		used += (size_t)snprintf(who + used, sizeof who - used, "%s%d (%s) has ",
					 used ? ", " : ": ", i + 1, p->name);
		if (used >= sizeof who)
			break;
		if (p->nsources > 1)
			used += (size_t)snprintf(who + used, sizeof who - used, "%d %.*ss",
						 p->nsources, stem, name);
		else
			used += (size_t)snprintf(who + used, sizeof who - used, "%s %s",
						 strchr("aeiou", name[0]) ? "an" : "a", name);
	}
	app_message(a, "nothing to move under %s%s", a->proc->name, who);
}
