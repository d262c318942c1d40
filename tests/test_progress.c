/* The progress bar of gully run fits the terminal: never wider than its
 * columns less one (a wrapped line made every update a new line at 40
 * columns), the bar shrinking first, then the counts, then the text. */
#include "testutil.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits_every_width),
		cmocka_unit_test(test_wide_and_narrow),
		cmocka_unit_test(test_columns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
