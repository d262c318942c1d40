/* gully params: the parameter registry, as a table or as the man page's list. */
#include <getopt.h>
#include <string.h>

#include "cli/cli.h"
#include "config.h"
#include "io/roff.h"

#define CMD "params"

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: %s params [--man] [SECTION | KEY]\n\n"
		"Lists every parameter: key, default, range and what it does; those of\n"
		"one section (hydrology), or one parameter (hydrology.normal).\n"
		"Set one with --set KEY=VALUE or in a preset's SECTION mapping.\n\n"
		"  --man     print the list as roff, for the manual page\n"
		"  --help, --version\n", cli_program);
}

static void range_text(const struct param_def *d, char *buf, size_t len)
{
	switch (d->type) {
	case PARAM_DOUBLE:
		snprintf(buf, len, "%g..%g", d->min, d->max);
		break;
	case PARAM_INT:
		snprintf(buf, len, "%.0f..%.0f", d->min, d->max);
		break;
	case PARAM_BOOL:
		snprintf(buf, len, "true|false");
		break;
	case PARAM_ENUM:
		snprintf(buf, len, "%s", d->choices);
		break;
	}
}

static const char *section_name(int index, void *ctx)
{
	(void)ctx;
	struct param_section sec;
	if (index >= params_section_count())
		return NULL;
	params_section(index, &sec);
	return sec.name;
}

/* An unknown SECTION: the nearest name and every one, as --process and
 * --set answer a name they do not know. */
static int no_section(const char *only)
{
	char names[256];
	cli_join_names(names, sizeof names, "|", section_name, NULL);
	const char *near = cli_nearest(only, section_name, NULL);
	char hint[64] = "";
	if (near)
		snprintf(hint, sizeof hint, "did you mean %s? ", near);
	return cli_usage_error(CMD, "no section named '%s' (%sone of %s)", cli_quote(only), hint,
			       names);
}

static const struct option params_longopts[] = {
	{"man", no_argument, NULL, 'm'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};
static const struct cli_value params_values[] = {{NULL, CLI_VALUE_NONE, NULL}};
const struct cli_options params_options = {"h", params_longopts, params_values, NULL,
					   CLI_VALUE_SECTION, NULL};

int cmd_params(int argc, char **argv)
{
	const struct option *longopts = params_longopts;
	bool man = false;
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, params_options.shortopts, longopts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return 0;
		} else if (opt == 'V') {
			cli_print_version(stdout);
			return 0;
		} else if (opt == 'm') {
			man = true;
		} else {
			return cli_bad_option(CMD, opt, argv, longopts);
		}
	}
	const char *only = optind < argc ? argv[optind] : NULL;
	/* SECTION.KEY names one parameter: its section's heading and its row. */
	int key = -1;
	if (only && strchr(only, '.')) {
		if ((key = params_find(only)) < 0)
			return cli_unknown_key(CMD, NULL, only);
	} else if (only && params_section_find(only) < 0) {
		return no_section(only);
	}
	if (optind + 1 < argc)
		return cli_usage_error(CMD, "one section or parameter at most");

	struct params defaults;
	params_defaults(&defaults);
	int shown = 0;
	for (int s = 0; s < params_section_count(); s++) {
		struct param_section sec;
		params_section(s, &sec);
		if (key >= 0 ? key < sec.first || key >= sec.first + sec.count
			     : only && strcmp(only, sec.name) != 0)
			continue;
		if (man) {
			fprintf(stdout, ".SS %s \\(em ", sec.name);
			roff_text(stdout, sec.help);
			fputc('\n', stdout);
		} else {
			printf("%s%s: %s\n", shown++ ? "\n" : "", sec.name, sec.help);
		}
		for (int i = sec.first; i < sec.first + sec.count; i++) {
			if (key >= 0 && i != key)
				continue;
			const struct param_def *d = params_def(i);
			char def[64], range[160];
			params_format(&defaults, i, def, sizeof def);
			range_text(d, range, sizeof range);
			if (man) {
				printf(".TP\n.B %s\n", d->key);
				roff_wrapped(stdout, d->help, 64);
				printf("\n.br\ndefault ");
				roff_text(stdout, def);
				printf(", range ");
				roff_text(stdout, range);
				fputc('\n', stdout);
			} else {
				printf("  %-30s %-10s %-24s %s\n", d->key, def, range, d->help);
			}
		}
	}
	return cli_flush_stdout("the parameters");
}
