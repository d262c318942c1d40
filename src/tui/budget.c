/* The run's budget and the explorer's numbers. A run stops (pauses) when
 * the process's own count on the world (counts_particles: what it ran, not
 * what another process ran there before a switch) reaches its `budget`
 * parameter (particles.budget; 0 or none: never), so a class sees valleys
 * form and the run end where the preset says; Space runs on past it. Numbers on
 * screen keep one format: counts with thousands separators, values in
 * plain decimals, never an exponent. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"

void num_count(char *buf, size_t len, uint64_t n)
{
	char digits[32];
	snprintf(digits, sizeof digits, "%" PRIu64, n);
	int nd = (int)strlen(digits), o = 0;
	for (int i = 0; i < nd && o + 2 < (int)len; i++) {
		if (i > 0 && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o < (int)len ? o : (int)len - 1] = '\0';
}

void num_value(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", isnan(v) ? "not a number" : v > 0 ? "infinite" : "-infinite");
		return;
	}
	double m = fabs(v);
	if (m >= 999.5) {
		char c[40];
		num_count(c, sizeof c, (uint64_t)llround(m));
		snprintf(buf, len, "%s%s", v < 0 ? "-" : "", c);
		return;
	}
	/* Four significant digits, at most six decimals, trailing zeros off. */
	int dec = m > 0 ? 3 - (int)floor(log10(m)) : 0;
	dec = dec < 0 ? 0 : dec > 6 ? 6 : dec;
	snprintf(buf, len, "%.*f", dec, v);
	if (strchr(buf, '.')) {
		char *e = buf + strlen(buf) - 1;
		while (*e == '0')
			*e-- = '\0';
		if (*e == '.')
			*e = '\0';
	}
	if (strcmp(buf, "-0") == 0)
		snprintf(buf, len, "0");
}

/* The process's slot in the counts; -1 for none. */
static int count_slot(const struct process_ops *p)
{
	for (int i = 0; p && i < process_count() && i < RUN_COUNT_PROCS; i++)
		if (process_get(i) == p)
			return i;
	return -1;
}

void counts_book(struct app *a)
{
	struct run_counts *c = &a->counts;
	const struct world *w = a->world;
	if (!w)
		return;
	int k = count_slot(a->proc);
	/* Counts never go back but by undo, a load or a new world, which set
	 * the marks themselves; below them anyway, nothing is booked. */
	if (k >= 0 && w->particles >= c->mark_particles && w->steps >= c->mark_steps) {
		c->particles[k] += w->particles - c->mark_particles;
		c->steps[k] += w->steps - c->mark_steps;
	}
	c->mark_particles = w->particles;
	c->mark_steps = w->steps;
}

void counts_reset(struct app *a, bool own)
{
	memset(&a->counts, 0, sizeof a->counts);
	/* Marks at 0 book all the world's counts to the running process. */
	if (!own) {
		a->counts.mark_particles = a->world->particles;
		a->counts.mark_steps = a->world->steps;
	}
	counts_book(a);
}

uint64_t counts_own(const struct run_counts *c, const struct process_ops *p, bool steps)
{
	int k = count_slot(p);
	return k < 0 ? 0 : steps ? c->steps[k] : c->particles[k];
}

/* The running process's own, booked or counted by the world since. */
static uint64_t count_now(const struct app *a, bool steps)
{
	const uint64_t world = steps ? a->world->steps : a->world->particles;
	const uint64_t mark = steps ? a->counts.mark_steps : a->counts.mark_particles;
	return counts_own(&a->counts, a->proc, steps) + (world >= mark ? world - mark : 0);
}

uint64_t counts_particles(const struct app *a)
{
	return count_now(a, false);
}

uint64_t counts_steps(const struct app *a)
{
	return count_now(a, true);
}

uint64_t budget_of(const struct app *a)
{
	char key[80];
	snprintf(key, sizeof key, "%s.budget", a->proc->section);
	int i = params_find(key);
	if (i < 0)
		return 0;
	double b = params_get(&a->params, i);
	return b > 0 ? (uint64_t)b : 0;
}

uint64_t budget_left(struct app *a)
{
	uint64_t b = budget_of(a), done = counts_particles(a);
	/* Back under it (a new terrain, undo, a bigger budget): it counts again. */
	if (b == 0 || done < b)
		a->budget_passed = false;
	if (b == 0 || a->budget_passed)
		return UINT64_MAX;
	return done < b ? b - done : 0;
}

bool budget_stop(struct app *a)
{
	if (budget_left(a) > 0)
		return false;
	a->running = false;
	char n[40];
	num_count(n, sizeof n, budget_of(a));
	app_message(a, "stopped at %s %s", n, a->proc->unit);
	return true;
}

void budget_run_on(struct app *a)
{
	if (budget_left(a) == 0) {
		a->budget_passed = true;
		app_message(a, "running on past the budget (%s.budget sets it)", a->proc->section);
	}
}

void budget_status(struct app *a, char *buf, size_t len)
{
	uint64_t left = budget_left(a);
	char n[40];
	buf[0] = '\0';
	if (left == UINT64_MAX)
		return;
	if (left == 0) {
		snprintf(buf, len, "budget reached: Space runs on");
		return;
	}
	num_count(n, sizeof n, left);
	snprintf(buf, len, "%s %s to go", n, a->proc->unit);
}

void num_param(const struct params *p, int index, char *buf, size_t len)
{
	params_format(p, index, buf, len);
	if (!strpbrk(buf, "eE") || params_def(index)->type != PARAM_DOUBLE)
		return;
	/* 1e-05 -> 0.00001: the registry's shortest spelling, without exponent. */
	double v = params_get(p, index);
	snprintf(buf, len, "%.12f", v);
	char *e = buf + strlen(buf) - 1;
	while (e > buf && *e == '0')
		*e-- = '\0';
	if (*e == '.')
		*e = '\0';
}
