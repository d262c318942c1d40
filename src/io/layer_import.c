#include "io/layer_import.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "core/hardness.h"
#include "io/fileio.h"

static int fail(char *err, size_t errlen, int code, const char *path, const char *fmt, ...)
{
	if (err && errlen) {
		int n = snprintf(err, errlen, "%s: ", path);
		if (n >= 0 && (size_t)n < errlen) {
			va_list ap;
			va_start(ap, fmt);
			vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	return code;
}

/* The PGM header's tokens: whitespace and '#' comments between numbers. */
static int pgm_number(const char *d, size_t len, size_t *pos, long *out)
{
	for (;;) {
		while (*pos < len && isspace((unsigned char)d[*pos]))
			(*pos)++;
		if (*pos < len && d[*pos] == '#') {
			while (*pos < len && d[*pos] != '\n')
				(*pos)++;
			continue;
		}
		break;
	}
	if (*pos >= len || !isdigit((unsigned char)d[*pos]))
		return -1;
	long v = 0;
	while (*pos < len && isdigit((unsigned char)d[*pos])) {
		v = v * 10 + (d[*pos] - '0');
		if (v > 1000000)
			return -1;
		(*pos)++;
	}
	*out = v;
	return 0;
}

static int read_pgm(const char *path, const char *d, size_t len, float **values,
		    int *width, int *height, char *err, size_t errlen)
{
	bool ascii = d[1] == '2';
	size_t pos = 2;
	long w, h, maxval;
	if (pgm_number(d, len, &pos, &w) || pgm_number(d, len, &pos, &h) ||
	    pgm_number(d, len, &pos, &maxval))
		return fail(err, errlen, GULLY_EFORMAT, path, "bad PGM header");
	if (w < 1 || h < 1 || w > WORLD_MAX_SIZE || h > WORLD_MAX_SIZE)
		return fail(err, errlen, GULLY_EFORMAT, path,
			    "PGM size %ldx%ld outside 1..%d", w, h, WORLD_MAX_SIZE);
	if (maxval < 1 || maxval > 65535)
		return fail(err, errlen, GULLY_EFORMAT, path, "PGM maxval %ld outside 1..65535", maxval);
	size_t n = (size_t)w * (size_t)h;
	size_t bps = maxval > 255 ? 2 : 1;
	if (!ascii) {
		/* Exactly one whitespace byte ends the header of a binary PGM. */
		if (pos >= len || !isspace((unsigned char)d[pos]))
			return fail(err, errlen, GULLY_EFORMAT, path, "bad PGM header");
		pos++;
		if (len - pos < n * bps)
			return fail(err, errlen, GULLY_EFORMAT, path,
				    "truncated: %zu bytes of pixels, %zu needed", len - pos, n * bps);
	}
	float *v = malloc(n * sizeof *v);
	if (!v)
		return fail(err, errlen, GULLY_ENOMEM, path, "out of memory for %ldx%ld", w, h);
	const unsigned char *u = (const unsigned char *)d + pos;
	for (size_t i = 0; i < n; i++) {
		long s;
		if (ascii) {
			if (pgm_number(d, len, &pos, &s)) {
				free(v);
				return fail(err, errlen, GULLY_EFORMAT, path,
					    "pixel %zu of %zu missing or not a number", i + 1, n);
			}
		} else {
			s = bps == 2 ? (long)u[2 * i] << 8 | u[2 * i + 1] : u[i];
		}
		if (s > maxval) {
			free(v);
			return fail(err, errlen, GULLY_EFORMAT, path,
				    "pixel %zu is %ld, above maxval %ld", i + 1, s, maxval);
		}
		v[i] = (float)((double)s / (double)maxval);
	}
	*values = v;
	*width = (int)w;
	*height = (int)h;
	return GULLY_OK;
}

static int read_r16(const char *path, const char *d, size_t len, float **values,
		    int *width, int *height, char *err, size_t errlen)
{
	size_t samples = len / 2, side = 0;
	while ((side + 1) * (side + 1) <= samples)
		side++;
	if (len % 2 || side * side != samples || side < 1 || side > WORLD_MAX_SIZE)
		return fail(err, errlen, GULLY_EFORMAT, path,
			    ".r16 of %zu bytes is not a square of 16-bit samples (1..%d a side)",
			    len, WORLD_MAX_SIZE);
	float *v = malloc(samples * sizeof *v);
	if (!v)
		return fail(err, errlen, GULLY_ENOMEM, path, "out of memory");
	const unsigned char *u = (const unsigned char *)d;
	for (size_t i = 0; i < samples; i++)
		v[i] = (float)((double)(u[2 * i] | u[2 * i + 1] << 8) / 65535.0);
	*values = v;
	*width = *height = (int)side;
	return GULLY_OK;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

int layer_import_read(const char *path, float **values, int *width, int *height,
		      char *err, size_t errlen)
{
	*values = NULL;
	char *d;
	size_t len;
	if (file_read_all(path, LAYER_IMPORT_MAX_BYTES, &d, &len) != 0)
		return fail(err, errlen, GULLY_EIO, path, "%s",
			    errno == EFBIG ? "file too large" : strerror(errno));
	int rc;
	if (len >= 2 && d[0] == 'P' && (d[1] == '2' || d[1] == '5'))
		rc = read_pgm(path, d, len, values, width, height, err, errlen);
	else if (ends_with(path, ".r16"))
		rc = read_r16(path, d, len, values, width, height, err, errlen);
	else
		rc = fail(err, errlen, GULLY_EFORMAT, path, "not a PGM (P2/P5) or .r16 file");
	free(d);
	return rc;
}

int layer_import_hardness(struct world *w, const char *path, char *err, size_t errlen)
{
	float *v;
	int sw, sh;
	int rc = layer_import_read(path, &v, &sw, &sh, err, errlen);
	if (rc)
		return rc;
	rc = hardness_fill_from(w, v, sw, sh);
	free(v);
	if (rc)
		return fail(err, errlen, rc, path, "cannot use as a hardness map");
	return GULLY_OK;
}
