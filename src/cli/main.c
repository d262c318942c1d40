#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config.h"
#include "core/base/process.h"
#include "io/preset_scan.h"

const char *cli_program = "gully";

/* The one list of commands: main dispatches on it, --help lists it and
 * `gully complete` offers it, each with the options table its parse reads. */
static const struct cli_command commands[] = {
	{"run", "[options] [PRESET] [MAP]", "simulate headless and print a row of metrics", cmd_run,
	 &run_options},
	{"sweep", "[PRESET] --vary KEY=V1,V2,..", "a grid of runs on all its CPUs, one table", cmd_sweep,
	 &sweep_options},
	{"params", "[--man] [SECTION]", "every parameter, its default and range", cmd_params,
	 &params_options},
	{"render", "SNAPSHOT -o OUT", "write a layer as .png/.ppm/.pgm/.r16/.f32", cmd_render,
	 &render_options},
	{"info", "FILE", "what a snapshot holds", cmd_info, &info_options},
	{"presets", "[NAME|FILE]", "list the presets, or show one's values", cmd_presets,
	 &presets_options},
	/* Hidden: for the shell's completion script, not for people. */
	{"complete", "[--] WORD...", NULL, cmd_complete, NULL},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

const struct cli_command *cli_command_get(int index)
{
	return index >= 0 && (size_t)index < NCOMMANDS ? &commands[index] : NULL;
}

/* An error is one line whatever it quotes: a control byte (a newline, an
 * escape sequence from a hostile argument or file) is shown as '?', and a
 * message that quotes a huge value is cut. Values are quoted and cut where
 * they are named (cli_quote); this is the net under every message. */
#define CLI_MESSAGE_MAX 1024

static void put_message(const char *fmt, va_list ap)
{
	char msg[CLI_MESSAGE_MAX + 1];
	int n = vsnprintf(msg, sizeof msg, fmt, ap);
	for (char *c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	fputs(msg, stderr);
	if (n > CLI_MESSAGE_MAX)
		fputs("...", stderr);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", cli_program);
	put_message(fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int cli_flush_stdout(const char *what)
{
	/* One line however often it is asked: a command checks after its own
	 * output and main once more after every command. */
	static bool said;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	/* Bytes left in the buffer are tried again and the failure sets errno;
	 * a long write that failed straight through (fputs of a whole preset)
	 * left its errno, not reset since: the reason either way. */
	int err = errno ? errno : EIO;
	if (!said)
		cli_error("cannot write %s to stdout: %s", what, strerror(err));
	said = true;
	return 1;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s%s%s: ", cli_program, cmd ? " " : "", cmd ? cmd : "");
	put_message(fmt, ap);
	fprintf(stderr, "\nTry '%s%s%s --help'.\n", cli_program, cmd ? " " : "", cmd ? cmd : "");
	va_end(ap);
	return EXIT_USAGE;
}

const char *cli_quote(const char *s)
{
	/* A few at once, for a message that quotes two or three values. */
	static char ring[4][CLI_QUOTE_MAX + 8];
	static unsigned next;
	char *buf = ring[next++ % 4];
	preset_quote(buf, sizeof ring[0], s, CLI_QUOTE_MAX);
	return buf;
}

int cli_bad_option(const char *cmd, int opt, char **argv, const struct option *longopts)
{
	const char *arg = argv[optind - 1];
	if (opt == ':')
		return cli_usage_error(cmd, "option '%s' needs a value", arg);
	char hint[160];
	cli_option_hint(arg, longopts, hint, sizeof hint);
	return cli_usage_error(cmd, "unknown option '%s'%s", arg, hint);
}

static void print_help(FILE *fp)
{
	fprintf(fp,
		"Usage: %s [options] [PRESET|SNAPSHOT|HEIGHTMAP]   the explorer\n"
		"       %s COMMAND [options] ...\n\n"
		"A terminal explorer for terrain-erosion simulations.\n\nCommands:\n",
		cli_program, cli_program);
	/* In one column within 80: a summary that would be pushed right, or
	 * past the edge, goes under. */
	for (size_t i = 0; i < NCOMMANDS; i++) {
		const struct cli_command *c = &commands[i];
		if (!c->summary)
			continue;
		int at = fprintf(fp, "  %-8s %-24s", c->name, c->args);
		if (at > 35 || at + 1 + (int)strlen(c->summary) > 80)
			fprintf(fp, "\n%*s", 35, "");
		fprintf(fp, " %s\n", c->summary);
	}
	fprintf(fp, "\nExplorer options:\n");
	explore_options_help(fp);
	fprintf(fp, "\nProcesses: %s\n"
		"Run '%s COMMAND --help' for a command's options; see gully(1).\n",
		process_names(), cli_program);
}

/* The net under every command: a success whose output (help, --version,
 * anything a command did not check itself) was lost is a failure, said. */
static int stdout_checked(int status)
{
	if (status == 0 && cli_flush_stdout("the output"))
		return 1;
	return status;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	/* Numbers in presets, --set and output are always C-locale decimals. */
	setlocale(LC_NUMERIC, "C");

	if (argc >= 2) {
		for (size_t i = 0; i < NCOMMANDS; i++)
			if (strcmp(argv[1], commands[i].name) == 0)
				return stdout_checked(commands[i].exec(argc - 1, argv + 1));
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			print_help(stdout);
			return stdout_checked(0);
		}
		if (strcmp(argv[1], "--version") == 0) {
			cli_print_version(stdout);
			return stdout_checked(0);
		}
	}
	/* No command name: the explorer, with its options and an optional snapshot. */
	return stdout_checked(cmd_explore(argc, argv));
}
