/* gully presets: the presets a name can find, or one preset's values. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config.h"
#include "core/base/error.h"

#define CMD "presets"

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: %s presets [--paths] [--json]\n"
		"       %s presets [--json] NAME|FILE\n\n"
		"Without an argument, lists the presets `-p NAME` finds, with their\n"
		"process and description; searched in $GULLY_PRESET_PATH, then\n"
		"$XDG_DATA_HOME/gully/presets (~/.local/share/gully/presets), then\n"
		"the shipped presets (installed in %s/presets). One that\n"
		"does not load is marked (broken), the loader's line in place of its\n"
		"description; a file whose name -p cannot take (a space in it) is\n"
		"marked (refused).\n"
		"With one, prints every value it resolves to, marking those that\n"
		"differ from the defaults (as `gully info PRESET`).\n\n"
		"Options:\n"
		"  --paths              show each preset's file\n"
		"  --json               the list as a JSON array of objects (name,\n"
		"                       process, description, readable, error, path);\n"
		"                       with NAME|FILE, the values as one JSON object\n"
		"  --help, --version\n", cli_program, cli_program, GULLY_PKGDATADIR);
}

/* Why each preset cannot be loaded, as `-p NAME` would say it (malloc'd,
 * NULL for a good one): the listing only peeks at the description and
 * process, and a preset that cannot run looked like any other. A full load
 * is a few KiB of YAML, well under a millisecond a preset. */
static char **presets_check(const struct preset_entry *list, int n)
{
	char **why = calloc((size_t)n + 1, sizeof *why);
	for (int i = 0; why && i < n; i++) {
		char err[PRESET_ERR_MAX];
		struct params p;
		const char *msg = NULL;
		if (list[i].refused)
			msg = "not a preset name (" PRESET_NAME_CHARS "): rename it to one, or give "
			      "-p its path";
		else if (preset_load_file(list[i].path, &p, NULL, err, sizeof err) != GULLY_OK)
			msg = err[0] ? err : "cannot be loaded";
		if (msg && !(why[i] = strdup(msg))) {
			for (int k = 0; k < i; k++)
				free(why[k]);
			free(why);
			return NULL;
		}
	}
	return why;
}

/* One piece of the table, a control byte in it shown as '?' (as in an
 * error line): a refused file's name is whatever the directory holds (an
 * escape sequence, a line break), and the table stays one line a preset. */
__attribute__((format(printf, 1, 2)))
static void put_shown(const char *fmt, ...)
{
	char text[PRESET_ERR_MAX + 4200 + 64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	for (char *c = text; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	fputs(text, stdout);
}

/* The table's text for a preset that will not load: the loader's line,
 * the file by its base name (--paths gives the rest). */
static void print_broken(const struct preset_entry *e, const char *why)
{
	const size_t plen = strlen(e->path);
	const char *base = strrchr(e->path, '/');
	base = base ? base + 1 : e->path;
	if (e->refused)
		put_shown("(refused) %s: %s", base, why);
	else if (strncmp(why, e->path, plen) == 0 && why[plen] == ':')
		put_shown("%s %s%s", e->readable ? "(broken)" : "(unreadable)", base, why + plen);
	else
		put_shown("%s %s", e->readable ? "(broken)" : "(unreadable)", why);
}

/* The table: name, process and description (and the file with --paths);
 * a preset that will not load says why in place of its description. */
static void print_table(const struct preset_entry *list, char **why, int n, bool paths)
{
	int w = 4;
	for (int i = 0; i < n; i++)
		if ((int)strlen(list[i].name) > w)
			w = (int)strlen(list[i].name);
	for (int i = 0; i < n; i++) {
		const struct preset_entry *e = &list[i];
		put_shown("%-*s  %-10s  ", w, e->name, e->meta.process[0] ? e->meta.process : "-");
		if (why[i])
			print_broken(e, why[i]);
		else
			put_shown("%s", e->meta.description);
		if (paths)
			put_shown("  [%s]", e->path);
		printf("\n");
	}
}

/* The same as a JSON array, one object a preset: the table's fields, the
 * file always (cheap, and what a script wants next), null for no process;
 * error is why it will not load, or null. */
static void print_json(const struct preset_entry *list, char **why, int n)
{
	printf("[");
	for (int i = 0; i < n; i++) {
		const struct preset_entry *e = &list[i];
		printf("%s\n  {\"name\": ", i ? "," : "");
		cli_json_string(stdout, e->name);
		printf(", \"process\": ");
		if (e->meta.process[0])
			cli_json_string(stdout, e->meta.process);
		else
			printf("null");
		printf(", \"description\": ");
		cli_json_string(stdout, e->meta.description);
		printf(", \"readable\": %s, \"error\": ", e->readable ? "true" : "false");
		if (why[i])
			cli_json_string(stdout, why[i]);
		else
			printf("null");
		printf(", \"path\": ");
		cli_json_string(stdout, e->path);
		printf("}");
	}
	printf("%s]\n", n ? "\n" : "");
}

static int presets_list(bool paths, bool json)
{
	struct preset_entry *list;
	int n;
	if (preset_list(&list, &n)) {
		cli_error("out of memory");
		return 1;
	}
	char **why = presets_check(list, n);
	if (!why) {
		preset_list_free(list, n);
		cli_error("out of memory");
		return 1;
	}
	if (n == 0)
		fprintf(stderr, "%s: no presets found (searched $GULLY_PRESET_PATH, "
			"$XDG_DATA_HOME/gully/presets and the shipped presets)\n", cli_program);
	if (json)
		print_json(list, why, n);
	else
		print_table(list, why, n, paths);
	for (int i = 0; i < n; i++)
		free(why[i]);
	free(why);
	preset_list_free(list, n);
	return cli_flush_stdout("the preset list");
}

enum { OPT_PATHS = 0x200, OPT_JSON_ = 0x201, OPT_HELP_ = 0x202, OPT_VERSION_ = 0x203 };
static const struct option presets_longopts[] = {
	{"paths", no_argument, NULL, OPT_PATHS},
	{"json", no_argument, NULL, OPT_JSON_},
	{"help", no_argument, NULL, OPT_HELP_},
	{"version", no_argument, NULL, OPT_VERSION_},
	{NULL, 0, NULL, 0},
};
static const struct cli_value presets_values[] = {{NULL, CLI_VALUE_NONE, NULL}};
const struct cli_options presets_options = {":h", presets_longopts, presets_values, NULL,
					    CLI_VALUE_PRESET, NULL};

int cmd_presets(int argc, char **argv)
{
	const struct option *longopts = presets_longopts;
	bool paths = false, json = false;
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, presets_options.shortopts, longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_PATHS:
			paths = true;
			break;
		case OPT_JSON_:
			json = true;
			break;
		case OPT_HELP_:
		case 'h':
			usage(stdout);
			return 0;
		case OPT_VERSION_:
			cli_print_version(stdout);
			return 0;
		default:
			return cli_bad_option(CMD, opt, argv, longopts);
		}
	}
	if (argc - optind > 1)
		return cli_usage_error(CMD, "one preset at a time");
	if (optind < argc)
		return info_preset(argv[optind], json);

	return presets_list(paths, json);
}
