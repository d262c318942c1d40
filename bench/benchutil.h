/* What the bench programs share: a clock in seconds, a median, an FNV-1a
 * fingerprint to show two runs or builds gave the same bytes, and float32
 * map files read and written whole. Header only; bench/ is not installed. */
#ifndef GULLY_BENCH_BENCHUTIL_H
#define GULLY_BENCH_BENCHUTIL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CLOCK_MONOTONIC for wall time, CLOCK_PROCESS_CPUTIME_ID for CPU. */
static inline double bench_seconds(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The same as functions of no argument, for a clock a caller takes by
 * pointer (hydrology_set_clock). CPU time is what the figures quote: on a
 * shared machine wall time mostly measures the neighbours. */
static inline double bench_cpu_seconds(void)
{
	return bench_seconds(CLOCK_PROCESS_CPUTIME_ID);
}

static inline double bench_wall_seconds(void)
{
	return bench_seconds(CLOCK_MONOTONIC);
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Sorts v; the middle value, or the mean of the two middle ones. */
static inline double bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* FNV-1a of len bytes, from h (each program keeps the start it has always
 * printed hashes from). */
static inline uint64_t bench_fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *b = data;
	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/* Reads a whole float32 file; *count gets its number of floats. NULL, with
 * a line naming `prog` and the file, when it cannot. */
static inline float *bench_read_f32(const char *prog, const char *path, size_t *count)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return NULL;
	}
	float *buf = NULL;
	if (fseek(f, 0, SEEK_END) == 0) {
		long len = ftell(f);
		if (len > 0 && len % 4 == 0 && fseek(f, 0, SEEK_SET) == 0) {
			buf = malloc((size_t)len);
			if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
				free(buf);
				buf = NULL;
			}
			*count = (size_t)len / 4;
		}
	}
	fclose(f);
	if (!buf)
		fprintf(stderr, "%s: %s: not a float32 map\n", prog, path);
	return buf;
}

/* Writes n floats of a, then n of b if b is not NULL; nonzero, with a line
 * naming `prog` and the file, when it cannot. */
static inline int bench_write_f32(const char *prog, const char *path, const float *a,
				  const float *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(a, 4, n, f) != n || (b && fwrite(b, 4, n, f) != n)) {
		fprintf(stderr, "%s: cannot write %s\n", prog, path);
		if (f)
			fclose(f);
		return 1;
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "%s: cannot write %s\n", prog, path);
		return 1;
	}
	return 0;
}

#endif
