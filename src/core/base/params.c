#include "core/base/params.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/numparse.h"

#define DEF_D(s, n, def, mn, mx, st, help) \
	{#s "." #n, #s, #n, PARAM_DOUBLE, def, mn, mx, st, NULL, help, offsetof(struct params, s.n)},
#define DEF_I(s, n, def, mn, mx, st, help) \
	{#s "." #n, #s, #n, PARAM_INT, def, mn, mx, st, NULL, help, offsetof(struct params, s.n)},
#define DEF_B(s, n, def, help) \
	{#s "." #n, #s, #n, PARAM_BOOL, def, 0, 1, 1, NULL, help, offsetof(struct params, s.n)},
#define DEF_E(s, n, def, choices, help) \
	{#s "." #n, #s, #n, PARAM_ENUM, def, 0, 0, 1, choices, help, offsetof(struct params, s.n)},
#define DEF_SECTION(s, help) PARAMS_##s(DEF_D, DEF_I, DEF_B, DEF_E)

static const struct param_def registry[] = {PARAMS_SECTIONS(DEF_SECTION)};
#define REGISTRY_COUNT ((int)(sizeof registry / sizeof registry[0]))
_Static_assert(sizeof registry / sizeof registry[0] == PARAMS_MAX, "PARAMS_MAX counts the registry");

#define COUNT_ONE(...) +1
#define SECTION_ENTRY(s, help) \
	{#s, help, 0, 0 PARAMS_##s(COUNT_ONE, COUNT_ONE, COUNT_ONE, COUNT_ONE)},

/* count comes from the same X-macro; first is summed on request, so the
 * table stays const and safe to read from several threads. */
static const struct param_section sections[] = {PARAMS_SECTIONS(SECTION_ENTRY)};
#define SECTION_COUNT ((int)(sizeof sections / sizeof sections[0]))

int params_count(void)
{
	return REGISTRY_COUNT;
}

const struct param_def *params_def(int index)
{
	return index >= 0 && index < REGISTRY_COUNT ? &registry[index] : NULL;
}

int params_find(const char *key)
{
	for (int i = 0; i < REGISTRY_COUNT; i++)
		if (strcmp(registry[i].key, key) == 0)
			return i;
	return -1;
}

int params_section_count(void)
{
	return SECTION_COUNT;
}

bool params_section(int index, struct param_section *out)
{
	if (index < 0 || index >= SECTION_COUNT)
		return false;
	*out = sections[index];
	for (int i = 0; i < index; i++)
		out->first += sections[i].count;
	return true;
}

int params_section_find(const char *name)
{
	for (int i = 0; i < SECTION_COUNT; i++)
		if (strcmp(sections[i].name, name) == 0)
			return i;
	return -1;
}

int params_choice_count(const struct param_def *d)
{
	if (d->type != PARAM_ENUM)
		return 0;
	int n = 1;
	for (const char *c = d->choices; *c; c++)
		n += *c == '|';
	return n;
}

bool params_choice_name(const struct param_def *d, int i, char *buf, size_t len)
{
	if (d->type != PARAM_ENUM || i < 0 || len == 0)
		return false;
	const char *c = d->choices;
	for (int k = 0; k < i; k++) {
		c = strchr(c, '|');
		if (!c)
			return false;
		c++;
	}
	size_t n = strcspn(c, "|");
	if (n >= len)
		n = len - 1;
	memcpy(buf, c, n);
	buf[n] = '\0';
	return true;
}

int params_choice_find(const struct param_def *d, const char *name)
{
	if (d->type != PARAM_ENUM)
		return -1;
	size_t want = strlen(name);
	const char *c = d->choices;
	for (int i = 0;; i++) {
		size_t n = strcspn(c, "|");
		if (n == want && strncmp(c, name, n) == 0)
			return i;
		if (!c[n])
			return -1;
		c += n + 1;
	}
}

static void *field(struct params *p, const struct param_def *d)
{
	return (char *)p + d->offset;
}

static const void *cfield(const struct params *p, const struct param_def *d)
{
	return (const char *)p + d->offset;
}

double params_get(const struct params *p, int index)
{
	const struct param_def *d = params_def(index);
	if (!d)
		return NAN;
	switch (d->type) {
	case PARAM_DOUBLE:
		return *(const double *)cfield(p, d);
	case PARAM_INT:
	case PARAM_ENUM:
		return *(const int *)cfield(p, d);
	case PARAM_BOOL:
		return *(const bool *)cfield(p, d) ? 1.0 : 0.0;
	}
	return NAN;
}

static int check_value(const struct param_def *d, double v)
{
	if (!isfinite(v))
		return GULLY_EINVAL;
	if (d->type != PARAM_DOUBLE && v != floor(v))
		return GULLY_EINVAL;
	double mn = d->min, mx = d->max;
	if (d->type == PARAM_ENUM) {
		mn = 0;
		mx = params_choice_count(d) - 1;
	}
	if (v < mn || v > mx)
		return GULLY_ERANGE;
	return GULLY_OK;
}

int params_set(struct params *p, int index, double value)
{
	const struct param_def *d = params_def(index);
	if (!d)
		return GULLY_EKEY;
	int err = check_value(d, value);
	if (err)
		return err;
	switch (d->type) {
	case PARAM_DOUBLE:
		*(double *)field(p, d) = value;
		break;
	case PARAM_INT:
	case PARAM_ENUM:
		*(int *)field(p, d) = (int)value;
		break;
	case PARAM_BOOL:
		*(bool *)field(p, d) = value != 0;
		break;
	}
	return GULLY_OK;
}

void params_defaults(struct params *p)
{
	memset(p, 0, sizeof *p);
	for (int i = 0; i < REGISTRY_COUNT; i++)
		params_set(p, i, registry[i].def);
}

static int parse_bool(const char *t, double *out)
{
	static const char *const yes[] = {"true", "yes", "on", "1"};
	static const char *const no[] = {"false", "no", "off", "0"};
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		if (strcmp(t, yes[i]) == 0) {
			*out = 1;
			return GULLY_OK;
		}
		if (strcmp(t, no[i]) == 0) {
			*out = 0;
			return GULLY_OK;
		}
	}
	return GULLY_EINVAL;
}

int params_set_text(struct params *p, int index, const char *text)
{
	const struct param_def *d = params_def(index);
	if (!d)
		return GULLY_EKEY;
	double v;
	int err;
	switch (d->type) {
	case PARAM_DOUBLE:
		err = num_parse_double(text, 0, &v);
		break;
	case PARAM_INT:
		err = num_parse_double(text, 1, &v);
		break;
	case PARAM_BOOL:
		err = parse_bool(text, &v);
		break;
	case PARAM_ENUM: {
		int c = params_choice_find(d, text);
		err = c < 0 ? GULLY_EINVAL : GULLY_OK;
		v = c;
		break;
	}
	default:
		err = GULLY_EINVAL;
	}
	if (err)
		return err;
	return params_set(p, index, v);
}

int params_assign(struct params *p, const char *assignment, int *bad_index)
{
	*bad_index = -1;
	const char *eq = strchr(assignment, '=');
	if (!eq)
		return GULLY_EINVAL;
	char key[128];
	size_t n = (size_t)(eq - assignment);
	if (n == 0 || n >= sizeof key)
		return GULLY_EKEY;
	memcpy(key, assignment, n);
	key[n] = '\0';
	int i = params_find(key);
	if (i < 0)
		return GULLY_EKEY;
	*bad_index = i;
	return params_set_text(p, i, eq + 1);
}

void params_format(const struct params *p, int index, char *buf, size_t len)
{
	const struct param_def *d = params_def(index);
	if (!d || len == 0) {
		if (len)
			buf[0] = '\0';
		return;
	}
	double v = params_get(p, index);
	switch (d->type) {
	case PARAM_DOUBLE:
		/* The shortest spelling that reads back to the same double. */
		for (int prec = 6; prec <= 17; prec++) {
			snprintf(buf, len, "%.*g", prec, v);
			if (strtod(buf, NULL) == v)
				break;
		}
		/* Keep a decimal point so YAML and readers see a float. */
		if (!strpbrk(buf, ".eE") && strlen(buf) + 2 < len)
			strcat(buf, ".0");
		break;
	case PARAM_INT:
		snprintf(buf, len, "%d", (int)v);
		break;
	case PARAM_BOOL:
		snprintf(buf, len, "%s", v != 0 ? "true" : "false");
		break;
	case PARAM_ENUM:
		if (!params_choice_name(d, (int)v, buf, len))
			snprintf(buf, len, "?");
		break;
	}
}

int params_validate(const struct params *p, int *bad_index)
{
	*bad_index = -1;
	for (int i = 0; i < REGISTRY_COUNT; i++) {
		int err = check_value(&registry[i], params_get(p, i));
		if (err) {
			*bad_index = i;
			return err;
		}
	}
	return GULLY_OK;
}

/* The fewest decimal places (0 to 15) that write x exactly as a double
 * reads it back, or -1 when none do (x is not a short decimal). */
static int short_decimals(double x)
{
	double scale = 1;
	for (int k = 0; k <= 15; k++, scale *= 10) {
		double r = round(x * scale);
		if (fabs(r) < 9e15 && r / scale == x)
			return k;
	}
	return -1;
}

/* v rounded to k decimal places: an integer over a power of ten, which
 * IEEE division rounds to the double nearest that decimal, so 1.2 - 0.5
 * gives the 0.7 a person typed, not 0.7000000000000001. */
static double round_decimals(double v, int k)
{
	double scale = 1;
	for (int i = 0; i < k; i++)
		scale *= 10;
	double r = round(v * scale);
	return fabs(r) < 9e15 ? r / scale : v;
}

/* A nudged double lands on as many decimals as the old value or the move
 * has (a typed 0.123 keeps its thousandths), so panels and presets show
 * clean numbers. */
static double nudge_double(double v, double move)
{
	int kv = short_decimals(v), km = short_decimals(move);
	if (kv < 0 || km < 0)
		return v + move;
	return round_decimals(v + move, kv > km ? kv : km);
}

void params_nudge(struct params *p, int index, double steps)
{
	const struct param_def *d = params_def(index);
	if (!d)
		return;
	double v = params_get(p, index);
	double mn = d->min, mx = d->max;
	if (d->type == PARAM_ENUM) {
		mn = 0;
		mx = params_choice_count(d) - 1;
	}
	if (d->type == PARAM_BOOL) {
		v = steps != 0 ? (v != 0 ? 0 : 1) : v;
	} else {
		if (d->type != PARAM_DOUBLE)
			v = round(v + steps * d->step);
		else
			v = nudge_double(v, steps * d->step);
	}
	if (v < mn)
		v = mn;
	if (v > mx)
		v = mx;
	params_set(p, index, v);
}
