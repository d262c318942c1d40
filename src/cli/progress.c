#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/signals.h"

double clock_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_begin(struct progress *pg, uint64_t total, const char *unit, bool quiet)
{
	pg->enabled = !quiet && isatty(STDERR_FILENO);
	pg->total = total;
	pg->unit = unit;
	pg->started = clock_seconds();
	pg->last_draw = 0;
	cli_signals_progress(pg->enabled);
}

void progress_update(struct progress *pg, uint64_t done)
{
	if (!pg->enabled)
		return;
	double now = clock_seconds();
	if (now - pg->last_draw < 0.1 && done < pg->total)
		return;
	pg->last_draw = now;
	double frac = pg->total ? (double)done / (double)pg->total : 1.0;
	int width = 30, fill = (int)(frac * width);
	double elapsed = now - pg->started;
	double eta = frac > 0 ? elapsed / frac - elapsed : 0;
	fprintf(stderr, "\r[");
	for (int i = 0; i < width; i++)
		fputc(i < fill ? '#' : '.', stderr);
	fprintf(stderr, "] %3.0f%% %llu/%llu %s, %.1fs left ", frac * 100,
		(unsigned long long)done, (unsigned long long)pg->total, pg->unit, eta);
	fflush(stderr);
}

void progress_end(struct progress *pg)
{
	if (pg->enabled)
		fprintf(stderr, "\r\033[K");
	cli_signals_progress(false);
}
