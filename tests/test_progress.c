/* The progress bar of gully run fits the terminal: never wider than its
 * columns less one (a wrapped line made every update a new line at 40
 * columns), the bar shrinking first, then the counts, then the text. */
#include "testutil.h"
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/signals.h"

/* progress.c tells the signal handlers when a bar is up; not here. */
void cli_signals_progress(bool shown)
{
	(void)shown;
}

/* main.c's, for the lines off a terminal. */
const char *cli_program = "gully";

static void test_fits_every_width(void **state)
{
	(void)state;
	char buf[512];
	for (int cols = 1; cols <= 200; cols++) {
		progress_format(buf, sizeof buf, cols, 123456, 300000, "particles", 4.5);
		assert_true(strlen(buf) <= (size_t)(cols > 1 ? cols - 1 : 1));
	}
}

static void test_wide_and_narrow(void **state)
{
	(void)state;
	char buf[512];
	/* Wide: the full bar of 30 cells and the whole text, as before. */
	progress_format(buf, sizeof buf, 200, 150000, 300000, "particles", 4.5);
	assert_string_equal(buf, "[###############...............]  50% 150000/300000 "
				 "particles, 4.5s left");
	/* 40 columns: a shorter bar, the percentage and time still there. */
	progress_format(buf, sizeof buf, 40, 150000, 300000, "particles", 4.5);
	assert_true(strlen(buf) <= 39);
	assert_non_null(strstr(buf, "50%"));
	assert_non_null(strstr(buf, "left"));
	assert_int_equal(buf[0], '[');
	/* Too narrow for a bar: the text alone, cut. */
	progress_format(buf, sizeof buf, 8, 150000, 300000, "particles", 4.5);
	assert_string_equal(buf, " 50% 4.");
}

static void test_columns(void **state)
{
	(void)state;
	/* Not a terminal (a pipe in make check): $COLUMNS, else 80. */
	setenv("COLUMNS", "40", 1);
	assert_int_equal(cli_terminal_columns(-1), 40);
	setenv("COLUMNS", "x", 1);
	assert_int_equal(cli_terminal_columns(-1), 80);
	unsetenv("COLUMNS");
	assert_int_equal(cli_terminal_columns(-1), 80);
}

static void test_duration(void **state)
{
	(void)state;
	char b[32];
	const struct {
		double s;
		const char *text;
	} cases[] = {
		{4.5, "4.5s"},	    {0, "0.0s"},	 {-3, "0.0s"},	     {59.94, "59.9s"},
		{59.96, "1m00s"},   {65, "1m05s"},	 {3599.4, "59m59s"}, {3599.6, "1h00m"},
		{7380, "2h03m"},    {1e300, "99999h00m"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		progress_duration(b, sizeof b, cases[i].s);
		assert_string_equal(b, cases[i].text);
	}
	progress_duration(b, sizeof b, nan(""));
	assert_string_equal(b, "0.0s");
	/* The bar shows it. */
	char wide[256];
	progress_format(wide, sizeof wide, 200, 1, 2, "x", 125);
	assert_non_null(strstr(wide, "2m05s left"));
}

/* Feeds a run's progress as the bar would see it, a draw every 0.1 s, at
 * `rate` a second from (t0, n0) to t1; returns the last estimate. */
static double feed(struct progress *pg, double t0, double t1, double n0, double rate)
{
	double eta = 0;
	for (double t = t0; t <= t1 + 1e-9; t += 0.1)
		eta = progress_eta(pg, t, (uint64_t)(n0 + rate * (t - t0)));
	return eta;
}

static void test_eta_follows_the_recent_rate(void **state)
{
	(void)state;
	struct progress pg;
	memset(&pg, 0, sizeof pg);
	pg.total = 1000;
	pg.started = 0;
	/* The first seconds: the whole run's rate (10 a second). */
	double eta = feed(&pg, 0.0, 2.0, 0, 10);
	assert_true(fabs(eta - 98.0) < 1.0);
	/* Steady at 10 a second to 200 done, then slowing to 5 a second. */
	feed(&pg, 2.1, 20.0, 21, 10);
	eta = feed(&pg, 20.1, 40.0, 200, 5);
	/* 700 left at 5 a second: 140 s; the whole run's 7.5 would say 93. */
	assert_true(eta > 130.0 && eta < 150.0);
	/* Speeding up again is seen as soon. */
	eta = feed(&pg, 40.1, 60.0, 300, 20);
	assert_true(eta > 14.0 && eta < 22.0); /* 300 left at 20 a second */
	/* A stall: no progress in the window gives the whole run's rate, not
	 * a division by nothing. */
	const uint64_t at = (uint64_t)(300 + 20 * 19.9);
	for (double t = 60.1; t < 80.0; t += 0.1)
		eta = progress_eta(&pg, t, at);
	assert_true(isfinite(eta) && eta > 0);
	/* Done: nothing left. */
	assert_true(progress_eta(&pg, 81.0, 1000) == 0);
}

/* Off a terminal (nohup.out, 2>log) a long run logs a line a minute, so
 * whoever looks at the log later sees how far it got and what is left; a
 * run shorter than a minute, and --quiet, log nothing. */
static void test_log_a_line_a_minute(void **state)
{
	(void)state;
	struct progress pg;
	progress_begin(&pg, 2000000, "droplets", false);
	pg.enabled = false; /* as on a log file, whatever the test's stderr is */
	pg.log = true;
	pg.started = pg.last_log = 100.0;
	int lines = 0;
	for (double t = 100.0; t < 100.0 + 59.9; t += 0.5)
		lines += progress_log_due(&pg, t, (uint64_t)((t - 100.0) * 1000));
	assert_int_equal(lines, 0);
	/* Ten minutes: ten lines, one a minute. */
	for (double t = 160.0; t < 700.0; t += 0.5)
		lines += progress_log_due(&pg, t, (uint64_t)((t - 100.0) * 1000));
	assert_int_equal(lines, 9);
	/* Done: no line, the row follows. */
	assert_false(progress_log_due(&pg, 2000.0, 2000000));
	/* --quiet, or a terminal's bar: no lines. */
	struct progress q;
	progress_begin(&q, 100, "droplets", true);
	q.started = q.last_log = 0;
	assert_false(q.log);
	assert_false(progress_log_due(&q, 1000.0, 50));
	char line[256];
	progress_log_line(line, sizeof line, 700000, 2000000, "droplets", 130.0, 241.0);
	assert_string_equal(line, "gully: 35% 700000/2000000 droplets, 2m10s in, 4m01s left");
	/* Floored: never 100% before the end. */
	progress_log_line(line, sizeof line, 1999999, 2000000, "droplets", 3700.0, 0.1);
	assert_string_equal(line, "gully: 99% 1999999/2000000 droplets, 1h01m in, 0.1s left");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits_every_width),
		cmocka_unit_test(test_wide_and_narrow),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_eta_follows_the_recent_rate),
		cmocka_unit_test(test_log_a_line_a_minute),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
