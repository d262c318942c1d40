/* gully [options] [PRESET|SNAPSHOT]: the explorer's command line. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "config.h"
#include "core/base/process.h"
#include "io/image.h"
#include "io/preset.h"
#include "term/tier.h"
#include "tui/tui.h"

#define CMD NULL

enum {
	OPT_COLOR = 0x200, OPT_ASCII, OPT_UTF8, OPT_MOUSE, OPT_FPS, OPT_SPEED, OPT_RESUME, OPT_PAUSED,
	OPT_KEYS_MAN, OPT_FRAMES, OPT_THEME,
};

void explore_options_help(FILE *fp)
{
	fprintf(fp,
		"  -p, --preset NAME|FILE  start from a preset (see `gully presets`)\n"
		"  --process NAME       the erosion process: %s\n"
		"  --seed S             random seed (world.seed)\n"
		"  --size WxH           map size (world.width, world.height); with a height\n"
		"                       map, its size (as for `gully run`)\n"
		SIM_HEIGHTMAP_HELP
		"  --set KEY=VALUE      set a parameter; repeatable\n"
		"  --hardness FILE      hardness map for a new terrain, as `gully run` loads it\n"
		"  --resume             reopen this directory's autosave (the newest): the\n"
		"                       unsaved work Ctrl-C, a hang-up, TERM or QUIT saved\n"
		"  --paused             start paused\n"
		"  --dump-preset        print the effective preset as YAML and open nothing\n"
		"  --color=TIER         " TERM_TIER_NAMES " (default: the\n"
		"                       terminal's, truecolor when COLORTERM is truecolor\n"
		"                       or 24bit; NO_COLOR set means none)\n"
		"  --ascii, --utf8      force the ASCII ramp or UTF-8 half blocks\n"
		"  --theme light|dark   the terminal's background (default: from COLORFGBG,\n"
		"                       else dark); without colour it turns the glyph ramp\n"
		"  --mouse              a click on the map inspects a cell\n"
		"  --fps N              at most N frames a second (default 20; without it,\n"
		"                       fewer while a big map runs, so the simulation keeps\n"
		"                       three quarters of the time)\n"
		"  --speed N            slow motion: at most N droplets (particles, sph\n"
		"                       steps) a second, 1 to 100000; m and M change it\n",
		process_names());
}

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: %s [options] [PRESET|SNAPSHOT|HEIGHTMAP]\n\n"
		"The explorer: the map, its erosion process and its parameters on the\n"
		"terminal. Press ? inside for the keys. Without a preset or snapshot it\n"
		"starts on the built-in default; a height map (.r16 .f32 .pgm .png, read\n"
		"with --size, --range and --transpose as by `gully run`) is the terrain.\n\n"
		"Options:\n", cli_program);
	explore_options_help(fp);
	fprintf(fp, "  --help, --version\n\nCommands: see '%s --help'.\n", cli_program);
}

/* Not an exit status: the command goes on. */
#define GO_ON (-1)

static const struct option explore_longopts[] = {
	SIM_LONG_OPTIONS,
	{"color", required_argument, NULL, OPT_COLOR},
	{"colour", required_argument, NULL, OPT_COLOR},
	{"ascii", no_argument, NULL, OPT_ASCII},
	{"utf8", no_argument, NULL, OPT_UTF8},
	{"mouse", no_argument, NULL, OPT_MOUSE},
	{"fps", required_argument, NULL, OPT_FPS},
	{"speed", required_argument, NULL, OPT_SPEED},
	{"resume", no_argument, NULL, OPT_RESUME},
	{"paused", no_argument, NULL, OPT_PAUSED},
	{"keys-man", no_argument, NULL, OPT_KEYS_MAN},
	{"frames", required_argument, NULL, OPT_FRAMES},
	{"theme", required_argument, NULL, OPT_THEME},
	{NULL, 0, NULL, 0},
};

const char *cli_tier_name(int index, void *ctx)
{
	(void)ctx;
	return index >= 0 && index <= TIER_TRUE ? term_tier_name(index) : NULL;
}

/* --theme's values, in tui_options.theme's order (0 dark, 1 light). */
static const char *const themes[] = {"dark", "light"};

static const char *theme_name(int index, void *ctx)
{
	(void)ctx;
	return index >= 0 && index < (int)(sizeof themes / sizeof themes[0]) ? themes[index] : NULL;
}

static const struct cli_value explore_values[] = {
	SIM_OPTION_VALUES,
	{"color", CLI_VALUE_NAME, cli_tier_name},
	{"colour", CLI_VALUE_NAME, cli_tier_name},
	{"theme", CLI_VALUE_NAME, theme_name},
	{NULL, CLI_VALUE_NONE, NULL},
};
/* The simulation options only `gully run` uses: refused with a word. */
static const int explore_refused[] = {'o', OPT_JSON, OPT_PARTICLES, OPT_QUIET, OPT_RAIN, 0};
static const char *const explore_hidden[] = {"keys-man", "frames", NULL};
const struct cli_options explore_options = {SIM_SHORT_OPTIONS, explore_longopts, explore_values,
					    explore_refused, CLI_VALUE_PRESET, explore_hidden};

/* A simulation option (sim_options_take), less those only `gully run` has.
 * longindex: getopt_long's, so the refusal names the option as spelt in
 * full (--steps, not the value after it); -1 for a short option. */
static int explore_sim_option(struct sim_options *so, int opt, int longindex)
{
	int took = sim_options_take(so, CMD, opt, optarg);
	if (took < 0)
		return EXIT_USAGE;
	bool refused = false;
	for (const int *r = explore_refused; *r; r++)
		refused |= opt == *r;
	if (refused) {
		char name[64];
		if (longindex >= 0)
			snprintf(name, sizeof name, "--%s", explore_longopts[longindex].name);
		else
			snprintf(name, sizeof name, "-%c", opt);
		return cli_usage_error(CMD, "%s is for '%s run', not the explorer", name,
				       cli_program);
	}
	return GO_ON;
}

/* One option from getopt_long: GO_ON, or the status to exit with (0 after
 * --help, --version and --keys-man). */
static int explore_option(struct tui_options *o, struct sim_options *so, int opt,
			  int longindex, char **argv)
{
	uint64_t n;
	switch (opt) {
	case OPT_HELP:
	case 'h':
		usage(stdout);
		return 0;
	case OPT_VERSION:
		cli_print_version(stdout);
		return 0;
	case OPT_KEYS_MAN:
		tui_keys_man(stdout);
		return 0;
	case OPT_COLOR:
		if ((o->tier = term_tier_parse(optarg)) < 0)
			return cli_usage_error(CMD, "--color: '%s' is not " TERM_TIER_NAMES,
					       cli_quote(optarg));
		return GO_ON;
	case OPT_ASCII:
		o->utf8 = 0;
		return GO_ON;
	case OPT_THEME:
		o->theme = -1;
		for (int t = 0; theme_name(t, NULL); t++)
			if (strcmp(optarg, theme_name(t, NULL)) == 0)
				o->theme = t;
		if (o->theme < 0) {
			char names[32];
			cli_join_names(names, sizeof names, " or ", theme_name, NULL);
			return cli_usage_error(CMD, "--theme: '%s' is not %s", optarg, names);
		}
		return GO_ON;
	case OPT_UTF8:
		o->utf8 = 1;
		return GO_ON;
	case OPT_MOUSE:
		o->mouse = true;
		return GO_ON;
	case OPT_FPS:
		if (!parse_u64(optarg, &n) || n < 1 || n > 120)
			return cli_usage_error(CMD, "--fps: '%s' is not a whole number from 1 to 120", cli_quote(optarg));
		o->fps = (double)n;
		return GO_ON;
	case OPT_SPEED:
		if (!parse_u64(optarg, &n) || n < 1 || n > 100000)
			return cli_usage_error(CMD, "--speed: '%s' is not a whole number from 1 to 100000",
					       cli_quote(optarg));
		o->speed = (double)n;
		return GO_ON;
	case OPT_FRAMES:
		if (!parse_u64(optarg, &n) || n < 1 || n > 1000000)
			return cli_usage_error(CMD, "--frames: '%s' is not a count", cli_quote(optarg));
		o->frames = (long)n;
		return GO_ON;
	case OPT_RESUME:
		o->resume = true;
		return GO_ON;
	case OPT_PAUSED:
		o->start_paused = true;
		return GO_ON;
	case '?':
	case ':':
		return cli_bad_option(CMD, opt, argv, explore_longopts);
	default:
		return explore_sim_option(so, opt, longindex);
	}
}

/* The options and at most one argument (*arg, or NULL). */
static int explore_parse(int argc, char **argv, struct tui_options *o, struct sim_options *so,
			 const char **arg)
{
	optind = 1;
	opterr = 0;
	int opt, status, longindex = -1;
	while ((opt = getopt_long(argc, argv, explore_options.shortopts, explore_longopts,
				  &longindex)) != -1) {
		if ((status = explore_option(o, so, opt, longindex, argv)) != GO_ON)
			return status;
		longindex = -1;
	}
	*arg = optind < argc ? argv[optind++] : NULL;
	if (optind < argc)
		return cli_usage_error(CMD, "one preset or snapshot at most ('%s' is extra)",
				       argv[optind]);
	return GO_ON;
}

/* The argument is a preset (a .yaml file or a preset's name), a height map
 * or a snapshot; then the options that do not go with what it is. */
static int explore_argument(const char *arg, struct tui_options *o, struct sim_options *so,
			    const char **heightmap_path)
{
	const enum cli_arg_kind kind = arg ? cli_arg_kind(arg) : CLI_ARG_MAP;
	if (arg && kind == CLI_ARG_PRESET) {
		if (so->preset)
			return cli_usage_error(CMD, "two presets: -p %s and %s", so->preset, arg);
		so->preset = arg;
	} else if (arg) {
		if (kind == CLI_ARG_MISSING)
			return cli_arg_missing(CMD, arg, "command, snapshot or preset");
		if (image_format_from_path(arg) != IMAGE_NONE)
			*heightmap_path = arg;
		else
			o->snapshot = arg;
	}
	int status = sim_options_check_start(so, CMD, *heightmap_path);
	if (status)
		return status;
	if (o->resume && (arg || so->preset))
		return cli_usage_error(CMD, "--resume takes no preset, snapshot or height map: it "
				       "reopens the autosave as it was");
	if ((o->snapshot || o->resume) && (so->nsets || so->seed >= 0 || so->width))
		return cli_usage_error(CMD, "%s carries its parameters: change them in the "
				       "explorer's panel, or with '%s run --set'",
				       o->resume ? "--resume's autosave" : "a snapshot", cli_program);
	/* The explorer starts a snapshot's process at once, on its own layer;
	 * run replaces the layer before its process starts. */
	if ((o->snapshot || o->resume) && so->hardness)
		return cli_usage_error(CMD, "--hardness is for a new terrain: %s carries its "
				       "hardness layer (replace it with '%s run SNAPSHOT --hardness "
				       "FILE --particles 0 -o NEW.gsnap')",
				       o->resume ? "the autosave" : "a snapshot", cli_program);
	if (o->snapshot && so->preset)
		return cli_usage_error(CMD, "a snapshot carries its parameters: -p %s does not go "
				       "with it", so->preset);
	return GO_ON;
}

/* The parameters (defaults or preset, then the options), the height map
 * when one is given, and the process to start. */
static int explore_load(struct tui_options *o, const struct sim_options *so,
			const char *heightmap_path, struct heightmap *hm, float **hardness,
			struct preset_meta *meta)
{
	int status;
	struct sim_options sized = *so;
	if (heightmap_path)
		sized.width = sized.height = 0; /* --size describes the map file */
	if ((status = sim_options_load(&sized, CMD, &o->params, meta)))
		return status;
	if (heightmap_path) {
		if ((status = heightmap_read(so, CMD, heightmap_path, &o->params, hm)))
			return status;
		o->heights = hm->heights;
	}
	/* Read as `gully run` reads it, kept for every new terrain. */
	struct sim_grid grid = {0};
	if ((status = sim_options_hardness(so, CMD, &o->params, o->snapshot || o->resume, NULL,
					   &grid)))
		return status;
	*hardness = grid.values;
	o->hardness = grid.values;
	o->hardness_width = grid.width;
	o->hardness_height = grid.height;
	o->process = so->process ? so->process : meta->process[0] ? meta->process : NULL;
	if (o->process && !process_find(o->process))
		return cli_usage_error(CMD, "no process named '%s' (one of %s)", o->process,
				       process_names());
	return GO_ON;
}

/* Curses on a file or a pipe draws escapes into it and never ends. */
static int explore_need_terminal(void)
{
	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
		return GO_ON;
	cli_error("the explorer needs a terminal on stdin and stdout (%s is not one); "
		  "for a run without a screen use '%s run', for a picture '%s render --ansi'",
		  !isatty(STDIN_FILENO) ? "stdin" : "stdout", cli_program, cli_program);
	return 1;
}

static int explore(int argc, char **argv, struct tui_options *o, struct sim_options *so,
		   struct heightmap *hm, float **hardness)
{
	const char *arg = NULL, *heightmap_path = NULL;
	struct preset_meta meta;
	int status;
	if ((status = explore_parse(argc, argv, o, so, &arg)) != GO_ON ||
	    (status = explore_argument(arg, o, so, &heightmap_path)) != GO_ON ||
	    (status = explore_load(o, so, heightmap_path, hm, hardness, &meta)) != GO_ON)
		return status;
	if (so->dump_preset)
		return cli_dump_preset(&o->params, &meta,
				       o->process ? o->process : process_default()->name);
	/* Shown in the status line while no snapshot names the session; --set on
	 * top makes it the preset's parameters no more. */
	o->preset = so->nsets ? NULL : so->preset;
	if ((status = explore_need_terminal()) != GO_ON)
		return status;
	return tui_main(o);
}

int cmd_explore(int argc, char **argv)
{
	struct sim_options so;
	sim_options_init(&so);
	struct heightmap hm = {0};
	struct tui_options o;
	memset(&o, 0, sizeof o);
	o.tier = TIER_AUTO;
	o.utf8 = -1;
	o.theme = -1;
	o.fps = 20;
	float *hardness = NULL;
	int status = explore(argc, argv, &o, &so, &hm, &hardness);
	free(hardness);
	heightmap_free(&hm);
	sim_options_free(&so);
	return status;
}
