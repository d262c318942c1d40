/* The parameter registry: struct params and the table that describes it. */
#ifndef GULLY_PARAMS_H
#define GULLY_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/params.def"

#define PARAMS_FIELD_D(s, n, def, mn, mx, st, help) double n;
#define PARAMS_FIELD_I(s, n, def, mn, mx, st, help) int n;
#define PARAMS_FIELD_B(s, n, def, help) bool n;
#define PARAMS_FIELD_E(s, n, def, choices, help) int n;
#define PARAMS_SECTION_STRUCT(s, help) \
	struct params_##s { \
		PARAMS_##s(PARAMS_FIELD_D, PARAMS_FIELD_I, PARAMS_FIELD_B, PARAMS_FIELD_E) \
	} s;

struct params {
	PARAMS_SECTIONS(PARAMS_SECTION_STRUCT)
};

/* How many parameters the registry holds, as a constant (params_count()'s
 * value), for arrays of parameter indices. */
#define PARAMS_COUNT_ONE(...) +1
#define PARAMS_SECTION_COUNT(s, help) \
	PARAMS_##s(PARAMS_COUNT_ONE, PARAMS_COUNT_ONE, PARAMS_COUNT_ONE, PARAMS_COUNT_ONE)
#define PARAMS_MAX (0 PARAMS_SECTIONS(PARAMS_SECTION_COUNT))

enum param_type { PARAM_DOUBLE, PARAM_INT, PARAM_BOOL, PARAM_ENUM };

struct param_def {
	const char *key;     /* "section.name" */
	const char *section;
	const char *name;
	enum param_type type;
	double def, min, max, step;
	const char *choices; /* enums: "a|b|c" */
	const char *help;
	size_t offset;       /* into struct params */
};

struct param_section {
	const char *name;
	const char *help;
	int first, count;    /* range in the registry */
};

int params_count(void);
const struct param_def *params_def(int index);
/* Index of "section.name", or -1. */
int params_find(const char *key);
int params_section_count(void);
bool params_section(int index, struct param_section *out);
int params_section_find(const char *name);

void params_defaults(struct params *p);
/* The value as a double (bool 0/1, enum index). */
double params_get(const struct params *p, int index);
/* GULLY_ERANGE when outside [min, max], GULLY_EINVAL for NaN/inf or a
 * non-integer where an int, bool or enum is expected; p is unchanged on error. */
int params_set(struct params *p, int index, double value);
/* Parses text strictly: decimal numbers (no trailing junk, no leading zeros on
 * integers, no NaN/inf), true/false/yes/no/on/off for bools, a choice name for
 * enums. Uses strtod, so the caller must have LC_NUMERIC in the C locale. */
int params_set_text(struct params *p, int index, const char *text);
/* "KEY=VALUE": GULLY_EKEY for an unknown key; *bad_index is set when known. */
int params_assign(struct params *p, const char *assignment, int *bad_index);
/* Writes the value as text that params_set_text reads back exactly. */
void params_format(const struct params *p, int index, char *buf, size_t len);
/* Index of the choice named `name` in an enum's list, or -1. */
int params_choice_find(const struct param_def *d, const char *name);
/* Copies choice number `i` into buf; returns false when out of range. */
bool params_choice_name(const struct param_def *d, int i, char *buf, size_t len);
int params_choice_count(const struct param_def *d);
/* Every value in range; on failure *bad_index names the first bad one. */
int params_validate(const struct params *p, int *bad_index);
/* Adds `steps` steps (negative to lower), clamped to the range. */
void params_nudge(struct params *p, int index, double steps);

#endif
