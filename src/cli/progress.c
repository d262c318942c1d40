/* The progress bar of run and sweep: one line on stderr, fitted to the
 * terminal's width so it is redrawn in place and never wraps (a wrapped
 * line cannot be gone back to with \r: each update became a new line). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/signals.h"

/* The bar's cells at most, and below which it is left out for the text. */
#define PROGRESS_BAR_MAX 30
#define PROGRESS_BAR_MIN 5

double clock_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* render --ansi's default width too: one reading of the terminal for both. */
int cli_terminal_columns(int fd)
{
	struct winsize ws;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	const char *env = getenv("COLUMNS");
	char *end;
	long n = env ? strtol(env, &end, 10) : 0;
	if (env && *env && !*end && n > 0 && n <= 10000)
		return (int)n;
	return 80;
}

void progress_format(char *buf, size_t len, int columns, uint64_t done, uint64_t total,
		     const char *unit, double eta)
{
	double frac = total ? (double)done / (double)total : 1.0;
	/* One column short: writing the last column wraps some terminals. */
	size_t room = columns > 1 ? (size_t)columns - 1 : 1;
	if (room >= len)
		room = len - 1;
	char text[160];
	snprintf(text, sizeof text, " %3.0f%% %llu/%llu %s, %.1fs left", frac * 100,
		 (unsigned long long)done, (unsigned long long)total, unit, eta);
	if (strlen(text) + 2 + PROGRESS_BAR_MIN > room) /* the short form */
		snprintf(text, sizeof text, " %3.0f%% %.1fs left", frac * 100, eta);
	size_t tlen = strlen(text);
	int bar = tlen + 2 < room ? (int)(room - tlen - 2) : 0;
	if (bar > PROGRESS_BAR_MAX)
		bar = PROGRESS_BAR_MAX;
	size_t k = 0;
	if (bar >= PROGRESS_BAR_MIN) {
		int fill = (int)(frac * bar);
		buf[k++] = '[';
		for (int i = 0; i < bar; i++)
			buf[k++] = i < fill ? '#' : '.';
		buf[k++] = ']';
	}
	/* The text, cut to what is left (on a terminal this narrow, the
	 * percentage first). */
	size_t take = room - k < tlen ? room - k : tlen;
	const char *t = k ? text : text + 1;
	if (!k && take == tlen)
		take--;
	memcpy(buf + k, t, take);
	buf[k + take] = '\0';
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
	double elapsed = now - pg->started;
	double eta = frac > 0 ? elapsed / frac - elapsed : 0;
	char line[512];
	/* Asked every time: the terminal may have been resized. */
	progress_format(line, sizeof line, cli_terminal_columns(STDERR_FILENO), done, pg->total,
			pg->unit, eta);
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
}

void progress_end(struct progress *pg)
{
	if (pg->enabled)
		fprintf(stderr, "\r\033[K");
	cli_signals_progress(false);
}
