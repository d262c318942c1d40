/* The explorer's key table: every key bound once, every binding explained,
 * every action reachable and handled, and the man page section generated
 * from it. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/process.h"
#include "tui/keys.h"

static void test_no_key_bound_twice(void **state)
{
	(void)state;
	assert_true(keys_count() > 20);
	for (int i = 0; i < keys_count(); i++)
		for (int j = i + 1; j < keys_count(); j++)
			if (keys_get(i)->code == keys_get(j)->code)
				fail_msg("key code %d bound twice: '%s' and '%s'", keys_get(i)->code,
					 keys_get(i)->name, keys_get(j)->name);
	for (int i = 0; i < keys_count(); i++)
		for (int j = i + 1; j < keys_count(); j++)
			assert_string_not_equal(keys_get(i)->name, keys_get(j)->name);
}

static void test_every_key_has_help_and_finds_itself(void **state)
{
	(void)state;
	for (int i = 0; i < keys_count(); i++) {
		const struct key_binding *k = keys_get(i);
		assert_non_null(k->name);
		assert_true(strlen(k->name) > 0);
		assert_non_null(k->help);
		if (strlen(k->help) < 4)
			fail_msg("key '%s' has no real help text", k->name);
		assert_ptr_equal(keys_find(k->code), k);
	}
	assert_null(keys_get(-1));
	assert_null(keys_get(keys_count()));
	assert_null(keys_find(0x7fffff));
}

static void test_every_action_bound(void **state)
{
	(void)state;
	for (int a = 0; a < ACT_COUNT; a++) {
		int n = 0;
		for (int i = 0; i < keys_count(); i++)
			n += keys_get(i)->action == (enum key_action)a;
		if (n == 0)
			fail_msg("action %d has no key", a);
	}
	/* The keys, by character. */
	const char must[] = "q? .123<>rgozZhjklS+-";
	for (const char *c = must; *c; c++)
		if (!keys_find(*c))
			fail_msg("no binding for '%c'", *c);
	/* One digit per process, and no more (the process table's count). */
	assert_true(process_count() >= 3 && process_count() <= 9);
	assert_null(process_count() < 9 ? keys_find('1' + process_count()) : NULL);
	for (int p = 0; p < process_count(); p++) {
		const struct key_binding *k = keys_find('1' + p);
		assert_int_equal(k->action, ACT_PROCESS);
		assert_int_equal(k->arg, p);
	}
}

/* Dispatch is the table's: every binding names a handler, and one action
 * has one handler wherever it is bound. */
static void test_every_binding_names_its_handler(void **state)
{
	(void)state;
	key_run_fn *by_action[ACT_COUNT] = {0};
	for (int i = 0; i < keys_count(); i++) {
		const struct key_binding *k = keys_get(i);
		if (!k->run)
			fail_msg("key '%s' has no handler", k->name);
		if (!by_action[k->action])
			by_action[k->action] = k->run;
		else if (by_action[k->action] != k->run)
			fail_msg("key '%s': action %d has two handlers", k->name, (int)k->action);
	}
}

static void test_man_section_from_table(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	keys_print_man(fp);
	fclose(fp);
	assert_true(strncmp(buf, ".SH KEYS\n", 9) == 0);
	/* One .TP entry per group of neighbouring bindings with one action and help. */
	int groups = 0;
	char names[128];
	for (int i = 0; i < keys_count();) {
		i = keys_group(i, ", ", names, sizeof names);
		groups++;
	}
	int tps = 0;
	for (const char *p = buf; (p = strstr(p, ".TP\n")); p++)
		tps++;
	assert_int_equal(tps, groups);
	/* A '-' is escaped for roff; no line starts with a bare '.' text. */
	assert_non_null(strstr(buf, ".B Left, \\-\n"));
	assert_non_null(strstr(buf, ".B \\&.\n"));
	for (const char *p = buf; *p; p = strchr(p, '\n') + 1) {
		if (*p == '.')
			assert_true(strncmp(p, ".SH", 3) == 0 || strncmp(p, ".TP", 3) == 0 ||
				    strncmp(p, ".B ", 3) == 0);
		if (!strchr(p, '\n'))
			break;
	}
	free(buf);
	keys_group(9, ", ", names, sizeof names);
	assert_true(strlen(names) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_key_bound_twice),
		cmocka_unit_test(test_every_key_has_help_and_finds_itself),
		cmocka_unit_test(test_every_action_bound),
		cmocka_unit_test(test_every_binding_names_its_handler),
		cmocka_unit_test(test_man_section_from_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
