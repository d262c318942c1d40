/* The one checked conversion per type for numbers that come from outside:
 * presets, --set and every other option, snapshots' parameter text, sweep
 * ranges, height-map headers. Strict: the whole text is the number, in
 * decimal, with nothing around it; no hex, octal, "inf", "nan" or
 * whitespace, and no value the type cannot hold. */
#ifndef GULLY_NUMPARSE_H
#define GULLY_NUMPARSE_H

#include <stdint.h>

/* A whole number 0..max, digits only (no sign). GULLY_OK, GULLY_EINVAL (not
 * such a number) or GULLY_ERANGE (above max). */
int num_parse_u64(const char *text, uint64_t max, uint64_t *out);
/* A finite decimal such as -1.5e3 or .5: GULLY_OK, or GULLY_EINVAL (not a
 * decimal, or out of double's range). With `integer`, a whole number too,
 * with no leading zero (YAML 1.1 reads "010" as octal). */
int num_parse_double(const char *text, int integer, double *out);

#endif
