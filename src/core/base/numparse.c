#include "core/base/numparse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"

int num_parse_u64(const char *text, uint64_t max, uint64_t *out)
{
	if (!text || !(*text >= '0' && *text <= '9'))
		return GULLY_EINVAL;
	uint64_t v = 0;
	for (const char *c = text; *c; c++) {
		if (!(*c >= '0' && *c <= '9'))
			return GULLY_EINVAL;
		unsigned d = (unsigned)(*c - '0');
		if (v > (UINT64_MAX - d) / 10)
			return GULLY_ERANGE;
		v = v * 10 + d;
	}
	if (v > max)
		return GULLY_ERANGE;
	*out = v;
	return GULLY_OK;
}

/* Decimal only: strtod would take hex, "inf" and "nan", and YAML 1.1 readers
 * take "010" as octal, so those spellings are refused rather than guessed at.
 * strtod reads in the C locale's LC_NUMERIC (the callers see to it). */
int num_parse_double(const char *t, int integer, double *out)
{
	if (!t)
		return GULLY_EINVAL;
	const char *s = t;
	if (*s == '+' || *s == '-')
		s++;
	if (!(*s >= '0' && *s <= '9') && !(*s == '.' && s[1] >= '0' && s[1] <= '9'))
		return GULLY_EINVAL;
	if (integer && s[0] == '0' && s[1] >= '0' && s[1] <= '9')
		return GULLY_EINVAL;
	for (const char *c = s; *c; c++)
		if (!strchr("0123456789.eE+-", *c))
			return GULLY_EINVAL;
	errno = 0;
	char *end;
	double v = strtod(t, &end);
	if (end == t || *end != '\0' || errno == ERANGE || !isfinite(v))
		return GULLY_EINVAL;
	if (integer && v != floor(v))
		return GULLY_EINVAL;
	*out = v;
	return GULLY_OK;
}
