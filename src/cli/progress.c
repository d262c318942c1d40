/* The progress bar of run and sweep: one line on stderr, fitted to the
 * terminal's width so it is redrawn in place and never wraps (a wrapped
 * line cannot be gone back to with \r: each update became a new line).
 * Off a terminal (a log, nohup.out) a plain line a minute instead. */
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
	char text[160], left[32];
	progress_duration(left, sizeof left, eta);
	snprintf(text, sizeof text, " %3.0f%% %llu/%llu %s, %s left", frac * 100,
		 (unsigned long long)done, (unsigned long long)total, unit, left);
	if (strlen(text) + 2 + PROGRESS_BAR_MIN > room) /* the short form */
		snprintf(text, sizeof text, " %3.0f%% %s left", frac * 100, left);
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

void progress_duration(char *buf, size_t len, double seconds)
{
	if (!(seconds >= 0)) /* NaN too */
		seconds = 0;
	if (seconds < 59.95) {
		snprintf(buf, len, "%.1fs", seconds);
		return;
	}
	/* Whole seconds (minutes past an hour), never "1m60s"; capped at 99999h. */
	const double cap = 99999.0 * 3600;
	const long s = (long)(seconds < cap ? seconds + 0.5 : cap);
	if (s < 3600)
		snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
	else
		snprintf(buf, len, "%ldh%02ldm", s / 3600, s / 60 % 60);
}

double progress_eta(struct progress *pg, double now, uint64_t done)
{
	/* A sample a second at most: the ring then spans about 16 s. */
	const int last = (pg->head + PROGRESS_SAMPLES - 1) % PROGRESS_SAMPLES;
	if (pg->count == 0 || now - pg->t[last] >= 1.0) {
		pg->t[pg->head] = now;
		pg->n[pg->head] = done;
		pg->head = (pg->head + 1) % PROGRESS_SAMPLES;
		if (pg->count < PROGRESS_SAMPLES)
			pg->count++;
	}
	const int oldest = (pg->head + PROGRESS_SAMPLES - pg->count) % PROGRESS_SAMPLES;
	double t0 = pg->t[oldest];
	uint64_t n0 = pg->n[oldest];
	/* Until the ring holds a few seconds, the whole run's rate. */
	if (now - t0 < 3.0 || done <= n0) {
		t0 = pg->started;
		n0 = 0;
	}
	if (done >= pg->total)
		return 0;
	if (done <= n0 || now <= t0)
		return 0;
	return (double)(pg->total - done) * (now - t0) / (double)(done - n0);
}

void progress_note(bool quiet, const char *verb, const char *path)
{
	if (quiet || !isatty(STDERR_FILENO))
		return;
	char line[512];
	snprintf(line, sizeof line, "%s %s...", verb, path);
	const int room = cli_terminal_columns(STDERR_FILENO) - 1;
	if (room > 0 && room < (int)sizeof line)
		line[room] = '\0';
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
	cli_signals_progress(true); /* a signal's exit clears it */
}

void progress_note_clear(bool quiet)
{
	if (quiet || !isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
	cli_signals_progress(false);
}

void progress_log_line(char *buf, size_t len, uint64_t done, uint64_t total, const char *unit,
		       double elapsed, double eta)
{
	char in[32], left[32];
	progress_duration(in, sizeof in, elapsed);
	progress_duration(left, sizeof left, eta);
	double frac = total ? (double)done / (double)total : 1.0;
	/* Floored: a line never says 100% before the run is done. */
	snprintf(buf, len, "%s: %d%% %llu/%llu %s, %s in, %s left", cli_program,
		 (int)(frac * 100), (unsigned long long)done, (unsigned long long)total, unit, in,
		 left);
}

bool progress_log_due(struct progress *pg, double now, uint64_t done)
{
	if (!pg->log || done >= pg->total || now - pg->last_log < PROGRESS_LOG_SECONDS)
		return false;
	pg->last_log = now;
	return true;
}

void progress_begin(struct progress *pg, uint64_t total, const char *unit, bool quiet)
{
	memset(pg, 0, sizeof *pg);
	pg->enabled = !quiet && isatty(STDERR_FILENO);
	pg->log = !quiet && !pg->enabled;
	pg->total = total;
	pg->unit = unit;
	pg->started = clock_seconds();
	pg->last_log = pg->started;
	pg->last_draw = 0;
	cli_signals_progress(pg->enabled);
}

/* Off a terminal: a whole line now and then, for a log to be read later. */
static void progress_log(struct progress *pg, uint64_t done)
{
	double now = clock_seconds();
	const double eta = progress_eta(pg, now, done); /* a sample each time */
	if (!progress_log_due(pg, now, done))
		return;
	char line[256];
	progress_log_line(line, sizeof line, done, pg->total, pg->unit, now - pg->started, eta);
	fprintf(stderr, "%s\n", line);
	fflush(stderr);
}

void progress_update(struct progress *pg, uint64_t done)
{
	if (pg->log)
		progress_log(pg, done);
	if (!pg->enabled)
		return;
	double now = clock_seconds();
	if (now - pg->last_draw < 0.1 && done < pg->total)
		return;
	pg->last_draw = now;
	const double eta = progress_eta(pg, now, done);
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
