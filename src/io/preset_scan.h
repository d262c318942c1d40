/* The line-exact first pass over a preset (internal to src/io).
 *
 * libcyaml loads values but reports no line for a value it accepted, and its
 * error backtraces point at the enclosing mapping rather than the bad key; it
 * also silently ignores a second YAML document. So a libyaml event pass runs
 * first: it checks the shape (a mapping of sections, each a mapping of
 * scalars), names every unknown section or key, duplicate, alias, tag and
 * non-scalar value with its exact line, and records the line of each value
 * for the messages about values that come later. It stops at the first
 * collection where a value belongs, so neither it nor libcyaml after it ever
 * walks a deeply nested document. */
#ifndef GULLY_PRESET_SCAN_H
#define GULLY_PRESET_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "io/preset.h"

struct preset_scan {
	int *line;            /* per registry index: line of its value, 0 if absent */
	int description_line; /* 0 if absent */
	int process_line;
	char description[PRESET_DESC_MAX];
	char process[PRESET_PROCESS_MAX];
};

/* Fills s (line must point at params_count() ints). Returns a gully_err; on
 * failure err holds "NAME:LINE: KEY: message". */
int preset_scan(const char *name, const unsigned char *text, size_t len,
		struct preset_scan *s, char *err, size_t errlen);

/* Lenient: the top-level description and process texts, cut to fit, with
 * anything else skipped unjudged; "" for what is missing. */
void preset_scan_peek(const unsigned char *text, size_t len, struct preset_meta *meta);

/* Copies at most max printable ASCII characters of text for a message; any
 * other byte becomes '?', and "..." marks a cut. */
void preset_quote(char *buf, size_t len, const char *text, size_t max);

#endif
