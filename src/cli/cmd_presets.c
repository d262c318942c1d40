/* gully presets: the presets a name can find, or one preset's values. */
#include <getopt.h>
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
		"the shipped presets (installed in %s/presets).\n"
		"With one, prints every value it resolves to, marking those that\n"
		"differ from the defaults (as `gully info PRESET`).\n\n"
		"Options:\n"
		"  --paths              show each preset's file\n"
		"  --json               the list as a JSON array of objects (name,\n"
		"                       process, description, readable, path); with\n"
		"                       NAME|FILE, the values as one JSON object\n"
		"  --help, --version\n", cli_program, cli_program, GULLY_PKGDATADIR);
}

/* The table: name, process and description (and the file with --paths). */
static void print_table(const struct preset_entry *list, int n, bool paths)
{
	int w = 4;
	for (int i = 0; i < n; i++)
		if ((int)strlen(list[i].name) > w)
			w = (int)strlen(list[i].name);
	for (int i = 0; i < n; i++) {
		const struct preset_entry *e = &list[i];
		printf("%-*s  %-10s  %s", w, e->name,
		       e->meta.process[0] ? e->meta.process : "-",
		       !e->readable ? "(unreadable)"
				    : e->meta.description[0] ? e->meta.description : "");
		if (paths)
			printf("  [%s]", e->path);
		printf("\n");
	}
}

/* The same as a JSON array, one object a preset: the table's fields, the
 * file always (cheap, and what a script wants next), null for no process. */
static void print_json(const struct preset_entry *list, int n)
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
		printf(", \"readable\": %s, \"path\": ", e->readable ? "true" : "false");
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
	if (n == 0)
		fprintf(stderr, "%s: no presets found (searched $GULLY_PRESET_PATH, "
			"$XDG_DATA_HOME/gully/presets and the shipped presets)\n", cli_program);
	if (json)
		print_json(list, n);
	else
		print_table(list, n, paths);
	preset_list_free(list, n);
	return cli_flush_stdout("the preset list");
}

int cmd_presets(int argc, char **argv)
{
	enum { OPT_PATHS = 0x200, OPT_JSON_ = 0x201, OPT_HELP_ = 0x202, OPT_VERSION_ = 0x203 };
	static const struct option longopts[] = {
		{"paths", no_argument, NULL, OPT_PATHS},
		{"json", no_argument, NULL, OPT_JSON_},
		{"help", no_argument, NULL, OPT_HELP_},
		{"version", no_argument, NULL, OPT_VERSION_},
		{NULL, 0, NULL, 0},
	};
	bool paths = false, json = false;
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
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
			printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return 0;
		default:
			return cli_bad_option(CMD, opt, argv);
		}
	}
	if (argc - optind > 1)
		return cli_usage_error(CMD, "one preset at a time");
	if (optind < argc)
		return info_preset(argv[optind], json);

	return presets_list(paths, json);
}
