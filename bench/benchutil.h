/* What the bench programs share: a clock in seconds, a median, and an
 * FNV-1a fingerprint to show two runs or builds gave the same bytes. Header
 * only; bench/ is not installed. */
#ifndef GULLY_BENCH_BENCHUTIL_H
#define GULLY_BENCH_BENCHUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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

#endif
