/* gully sweep: a grid of headless runs over parameter values, a metrics table.
 *
 * Each grid point is one `gully run` in a child process (the same binary), so
 * a sweep gives exactly the rows those runs would, runs on every CPU it may
 * use, and `--emit` can hand the very same runs to GNU parallel or a Slurm
 * job array (sweep_emit.c), whose files `--collect` joins (sweep_collect.c). This file
 * reads the command line and picks the job. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/signals.h"
#include "cli/sweep.h"
#include "core/base/error.h"
#include "core/base/workers.h"
#include "io/fileio.h"
#include "io/image.h"
#include "io/simulation.h"
#include "io/snapshot.h"
#include "config.h"

#define CMD SWEEP_CMD

enum { OPT_VARY = 0x300, OPT_JOBS, OPT_EMIT, OPT_GULLY, OPT_OUT, OPT_SAVE_MAPS, OPT_COLLECT,
       OPT_POINT, OPT_RESUME };

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: %s sweep [PRESET] [MAP] --vary KEY=V1,V2,... [--vary ...] [options]\n"
		"       %s sweep --collect DIR\n\n"
		"Runs `gully run` once for every combination of the --vary values and prints\n"
		"one table: the varied keys, then run's metrics columns, one row per run in\n"
		"grid order (the last --vary changes fastest). A value list may be\n"
		"START:STOP:STEP, such as 0.02:0.1:0.02; each value once. MAP, a height\n"
		"map (.f32 .r16 .pgm .png) or a snapshot (.gsnap), is where every run\n"
		"starts, as with `gully run MAP`; without it each run makes its\n"
		"terrain. Every run reads MAP again: it must be a regular file, not a\n"
		"directory or a FIFO.\n\n"
		"Options:\n"
		"  --vary KEY=LIST      a parameter and its values; repeatable\n"
		"  --jobs N             runs at once (default: the CPUs gully may use, %ld\n"
		"                       here: taskset and Slurm's --cpus-per-task count)\n"
		"  --out DIR            also keep each run's table as DIR/run-NNNN.tsv (point\n"
		"                       N counts from 0 in grid order) and the grid as\n"
		"                       DIR/sweep.grid\n"
		"  --save-maps DIR      keep each run's map and picture, DIR/run-NNNN.gsnap/.png\n"
		"                       (and the grid, as --out: a DIR of another sweep is\n"
		"                       refused)\n"
		"  --resume             with --out DIR: a point whose row DIR holds (and its\n"
		"                       maps, with --save-maps) is not run again, its row\n"
		"                       taken from there, so the same sweep started again\n"
		"                       after it was cut short runs only the rest; a row\n"
		"                       file that is not this grid's is refused (exit 1).\n"
		"                       With --emit: commands for the points left only\n"
		"  --emit[=parallel|slurm]\n"
		"                       run nothing; print one command per grid point (for GNU\n"
		"                       parallel), or with =slurm a job-array script (one point\n"
		"                       per task; needs --out). With --out each command is\n"
		"                       `gully sweep ... --point N`, writing DIR/run-NNNN.tsv\n"
		"  --gully PATH         the gully the emitted commands run (default: this one,\n"
		"                       by its absolute path)\n"
		"  --point N            run grid point N only (what the emitted commands do)\n"
		"  --collect DIR        print the table from DIR's files, in grid order; a\n"
		"                       missing or failed run is named and marked (exit 1)\n"
		"  -p, --preset NAME|FILE, --process NAME, --particles N, --seed S,\n"
		"  --size WxH, --set KEY=VALUE, --hardness FILE, --rain FILE, --range MIN:MAX,\n"
		"  --transpose\n"
		"                       as for `gully run`, the same for every point\n"
		"  --json               JSON lines instead of TSV\n"
		"  --quiet              no progress on stderr\n"
		"  --help, --version\n",
		cli_program, cli_program, workers_cpus());
}

/* A height map or snapshot, by its name, as `gully run` tells them apart. */
struct sweep_args {
	struct sweep s;
	long jobs, point;
	enum sweep_emit emit;
	const char *collect;
};

static int add_axis(struct sweep *s, const char *arg)
{
	if (s->naxes >= SWEEP_MAX_AXES)
		return cli_usage_error(CMD, "at most %d --vary", SWEEP_MAX_AXES);
	struct sweep_axis *na = realloc(s->axes, (size_t)(s->naxes + 1) * sizeof *na);
	if (!na)
		return cli_usage_error(CMD, "out of memory");
	s->axes = na;
	return sweep_parse_vary(&s->axes[s->naxes++], arg);
}

/* --emit's values, in enum sweep_emit's order from SWEEP_EMIT_PARALLEL. */
static const char *emit_name(int index, void *ctx)
{
	(void)ctx;
	static const char *const names[] = {"parallel", "slurm"};
	return index >= 0 && index < (int)(sizeof names / sizeof names[0]) ? names[index] : NULL;
}

/* One sweep option; 0 when taken, -1 when not a sweep option, else a status. */
static int take_sweep_option(struct sweep_args *a, int opt, const char *arg)
{
	uint64_t n;
	switch (opt) {
	case OPT_VARY:
		return add_axis(&a->s, arg);
	case OPT_JOBS:
		if (!parse_u64(arg, &n) || n < 1 || n > 1024)
			return cli_usage_error(CMD, "--jobs: '%s' is not a count from 1 to 1024", arg);
		a->jobs = (long)n;
		return 0;
	case OPT_EMIT: {
		int i = 0; /* --emit alone: parallel */
		while (arg && emit_name(i, NULL) && strcmp(arg, emit_name(i, NULL)) != 0)
			i++;
		if (!emit_name(i, NULL)) {
			char names[64];
			cli_join_names(names, sizeof names, ", ", emit_name, NULL);
			return cli_usage_error(CMD, "--emit=%s: one of %s", arg, names);
		}
		a->emit = (enum sweep_emit)(SWEEP_EMIT_PARALLEL + i);
		return 0;
	}
	case OPT_GULLY:
		/* '' (an unset variable, --gully "$GULLY") would print commands
		 * that start with '' and fail on every machine. */
		if (!arg[0])
			return cli_usage_error(CMD, "--gully: an empty path; give the gully the "
					       "emitted commands run, or leave --gully out for this one");
		a->s.gully = arg;
		return 0;
	case OPT_OUT:
		a->s.out_dir = arg;
		return 0;
	case OPT_SAVE_MAPS:
		a->s.maps_dir = arg;
		return 0;
	case OPT_COLLECT:
		a->collect = arg;
		return 0;
	case OPT_RESUME:
		a->s.resume = true;
		return 0;
	case OPT_POINT:
		if (!parse_u64(arg, &n) || n >= SWEEP_MAX_POINTS)
			return cli_usage_error(CMD, "--point: '%s' is not a grid point number", arg);
		a->point = (long)n;
		return 0;
	default:
		return -1;
	}
}

/* A bare argument, told apart as `gully run` tells it (cli_arg_kind), so
 * the runs read it as the sweep did: a directory or a snapshot without its
 * extension is a map to start from, and refused as run refuses it, not
 * taken for a preset that is not there. */
static int take_argument(struct sweep *s, const char *arg)
{
	switch (cli_arg_kind(arg)) {
	case CLI_ARG_PRESET:
		if (s->o.preset)
			return cli_usage_error(CMD, "two presets: %s and %s", s->o.preset, arg);
		s->o.preset = arg;
		return 0;
	case CLI_ARG_MISSING:
		return cli_arg_missing(CMD, arg, "file or preset");
	case CLI_ARG_MAP:
		break;
	}
	if (s->start)
		return cli_usage_error(CMD, "two maps to start from: %s and %s", s->start, arg);
	s->start = arg;
	return 0;
}

static const struct option sweep_longopts[] = {
	SIM_LONG_OPTIONS,
	{"vary", required_argument, NULL, OPT_VARY},
	{"jobs", required_argument, NULL, OPT_JOBS},
	{"emit", optional_argument, NULL, OPT_EMIT},
	{"gully", required_argument, NULL, OPT_GULLY},
	{"out", required_argument, NULL, OPT_OUT},
	{"save-maps", required_argument, NULL, OPT_SAVE_MAPS},
	{"collect", required_argument, NULL, OPT_COLLECT},
	{"point", required_argument, NULL, OPT_POINT},
	{"resume", no_argument, NULL, OPT_RESUME},
	{NULL, 0, NULL, 0},
};
static const struct cli_value sweep_values[] = {
	SIM_OPTION_VALUES,
	{"vary", CLI_VALUE_PARAM_VARY, NULL},
	{"emit", CLI_VALUE_NAME, emit_name},
	{"gully", CLI_VALUE_FILE, NULL},
	{"out", CLI_VALUE_DIR, NULL},
	{"save-maps", CLI_VALUE_DIR, NULL},
	{"collect", CLI_VALUE_DIR, NULL},
	{NULL, CLI_VALUE_NONE, NULL},
};
/* Refused after the line is read (parse_args): a sweep's runs keep no -o
 * file and print no preset. */
static const int sweep_refused[] = {'o', OPT_DUMP_PRESET, 0};
const struct cli_options sweep_options = {SIM_SHORT_OPTIONS, sweep_longopts, sweep_values,
					  sweep_refused, CLI_VALUE_PRESET, NULL};

static int parse_args(struct sweep_args *a, int argc, char **argv)
{
	const struct option *longopts = sweep_longopts;
	optind = 1;
	opterr = 0;
	char o_name[16] = ""; /* -o or --output, as given */
	int opt, longindex = -1;
	for (; (opt = getopt_long(argc, argv, sweep_options.shortopts, longopts, &longindex)) != -1;
	     longindex = -1) {
		if (opt == OPT_HELP || opt == 'h') {
			usage(stdout);
			return -1;
		}
		if (opt == OPT_VERSION) {
			cli_print_version(stdout);
			return -1;
		}
		if (opt == '?' || opt == ':')
			return cli_bad_option(CMD, opt, argv, longopts);
		int st = take_sweep_option(a, opt, optarg);
		if (st >= 0) {
			if (st)
				return st;
			continue;
		}
		if (sim_options_take(&a->s.o, CMD, opt, optarg) < 0)
			return EXIT_USAGE;
		/* Named as matched: argv[optind - 1] is -o's value, not -o. */
		if (opt == 'o' && !o_name[0])
			snprintf(o_name, sizeof o_name, "%s%s", longindex >= 0 ? "--" : "-o",
				 longindex >= 0 ? longopts[longindex].name : "");
	}
	/* Refused after the whole line is read: with both, the user wants the
	 * preset in a file, and the -o answer alone would not say how. */
	if (a->s.o.dump_preset)
		return cli_usage_error(CMD, "--dump-preset is for single runs: `%s run` with the "
				       "shared options and one point's --set values prints its "
				       "preset%s", cli_program,
				       o_name[0] ? " on stdout (> FILE.yaml keeps it; -o is for maps)"
						 : "");
	if (o_name[0])
		return cli_usage_error(CMD, "%s is for single runs: --save-maps DIR keeps each "
				       "run's map", o_name);
	for (; optind < argc; optind++) {
		int st = take_argument(&a->s, argv[optind]);
		if (st)
			return st;
	}
	return 0;
}

/* --out and --save-maps before any run: an existing path that is not a
 * directory (or a symlink to nothing) would fail every run's write. */
static int check_dir_option(const char *opt, const char *dir)
{
	struct stat st;
	if (!dir)
		return 0;
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
		return cli_usage_error(CMD, "%s %s: not a directory", opt, dir);
	if (stat(dir, &st) != 0 && lstat(dir, &st) == 0)
		return cli_usage_error(CMD, "%s %s: a symlink to nothing", opt, dir);
	return 0;
}

/* Every run reads MAP again: a FIFO would feed the first run alone and a
 * directory fail every run, so anything but a readable regular file is
 * refused once, here, before any run starts, by the check a snapshot is
 * opened with. A bad file, as for `gully run` (in its words: a snapshot
 * "cannot open", a height map "cannot read"): exit 1, not a usage error. */
static int check_start_file(const char *path)
{
	FILE *fp = file_open_regular(path);
	if (!fp) {
		cli_error("%s: cannot %s: %s", path,
			  image_format_from_path(path) == IMAGE_NONE ? "open" : "read",
			  file_strerror(errno));
		return 1;
	}
	fclose(fp);
	return 0;
}

/* Each point's parameters over the snapshot's, checked as `gully run`
 * checks its one: a --set or --vary value that the snapshot's state keeps
 * from when it was made (sph's soil pores) would fail every run that has
 * it, each with run's usage line, so it is said once, before any run. */
static int check_kept(const struct sweep *s, struct simulation *sim,
		      const struct snapshot_info *snap)
{
	const struct process_ops *proc = process_find(s->o.process ? s->o.process : snap->process);
	char err[512];
	if (!proc || sim_options_apply(&s->o, CMD, &sim->params))
		return 0; /* said by the runs, as without this check */
	const struct params shared = sim->params;
	if (simulation_check_kept(sim, proc, snap, s->start, err, sizeof err))
		return cli_usage_error(CMD, "--set: %s", err);
	for (int i = 0; i < s->naxes; i++)
		for (int k = 0; k < s->axes[i].count; k++) {
			sim->params = shared;
			if (params_set_text(&sim->params, params_find(s->axes[i].key),
					    s->axes[i].values[k]) == GULLY_OK &&
			    simulation_check_kept(sim, proc, snap, s->start, err, sizeof err))
				return cli_usage_error(CMD, "--vary %s=%s: %s", s->axes[i].key,
						       s->axes[i].values[k], err);
		}
	return 0;
}

/* The map every run starts from, read as `gully run` reads it (and then
 * dropped); *w x *h is its size. 0, or 1 with run's own line said (2 for
 * an option it cannot take). */
static int check_start_map(const struct sweep *s, const struct params *shared, int *w, int *h)
{
	if (image_format_from_path(s->start) != IMAGE_NONE) {
		struct sim_options quiet = s->o; /* no "read WxH ..." line for a check */
		quiet.quiet = true;
		struct params p = *shared;
		struct heightmap hm;
		int st = heightmap_read(&quiet, CMD, s->start, &p, &hm);
		*w = hm.width;
		*h = hm.height;
		heightmap_free(&hm);
		return st;
	}
	char err[512];
	struct simulation sim;
	struct snapshot_info snap;
	memset(&snap, 0, sizeof snap);
	progress_note(s->o.quiet, "reading", s->start);
	const int failed = simulation_open(&sim, &snap, s->start, err, sizeof err);
	progress_note_clear(s->o.quiet);
	if (failed) {
		cli_error("%s", err);
		return 1;
	}
	*w = sim.world->width;
	*h = sim.world->height;
	const int st = check_kept(s, &sim, &snap);
	world_destroy(sim.world);
	snapshot_info_free(&snap);
	return st;
}

static bool size_varied(const struct sweep *s)
{
	for (int i = 0; i < s->naxes; i++)
		if (strcmp(s->axes[i].key, "world.width") == 0 ||
		    strcmp(s->axes[i].key, "world.height") == 0)
			return true;
	return false;
}

/* The files every run reads (the map it starts from, --hardness, --rain)
 * are read once here, as `gully run` reads them, before any run starts: a
 * bad one is then run's one line and exit 1, not the same failure from
 * every point. What depends on a point's own values is left to its run;
 * --rain is stretched to the runs' size where all share one (else read at
 * its own), so only a file no run could take is refused. */
static int check_inputs(const struct sweep *s, const struct params *shared)
{
	int w = 0, h = 0;
	int st = s->start ? check_start_map(s, shared, &w, &h) : 0;
	if (st)
		return st;
	if (!s->start && !size_varied(s)) {
		w = shared->world.width;
		h = shared->world.height;
	}
	if (s->o.hardness) {
		struct params p = *shared;
		struct sim_grid grid = {0};
		const bool snapshot = s->start && image_format_from_path(s->start) == IMAGE_NONE;
		st = sim_options_hardness(&s->o, CMD, &p, snapshot, NULL, &grid);
		free(grid.values);
		if (st)
			return st;
	}
	return sim_options_rain_check(&s->o, w, h);
}

/* A varied key that a shared option also fixes: the --vary would win in
 * every run without a word, and the sweep is not the one asked for. */
static int check_vary_not_fixed(const struct sweep *s)
{
	for (int i = 0; i < s->naxes; i++) {
		const char *key = s->axes[i].key;
		int k = params_find(key);
		if (k == params_find("world.seed") && s->o.seed >= 0)
			return cli_usage_error(CMD, "--vary %s and --seed both set the seed: give one", key);
		if ((k == params_find("world.width") || k == params_find("world.height")) && s->o.width)
			return cli_usage_error(CMD, "--vary %s and --size both set the map's size: give one",
					       key);
		for (int j = 0; j < s->o.nsets; j++) {
			char set[128];
			snprintf(set, sizeof set, "%.*s", (int)strcspn(s->o.sets[j], "="), s->o.sets[j]);
			if (k >= 0 && params_find(set) == k)
				return cli_usage_error(CMD, "--vary %s and --set %s both set it: give one",
						       key, cli_quote(s->o.sets[j]));
		}
	}
	return 0;
}

/* A varied key of another process than the runs': every row would be the
 * same run, labelled with values that never acted (`--vary sph.jet1_speed`
 * without --process sph would run process 1 with identical rows). */
static int check_vary_read(const struct sweep *s, const struct process_ops *proc)
{
	for (int i = 0; proc && i < s->naxes; i++) {
		int k = params_find(s->axes[i].key);
		const char *section = k >= 0 ? params_def(k)->section : "";
		for (int j = 0; j < process_count(); j++) {
			const struct process_ops *q = process_get(j);
			if (q != proc && strcmp(q->section, section) == 0)
				return cli_usage_error(CMD, "--vary %s: the runs are the %s process, "
						       "which does not read %s.*: add --process %s",
						       s->axes[i].key, proc->name, section, q->name);
		}
	}
	return 0;
}

/* The grid's size, and the options that only make sense together. */
static int check_args(struct sweep_args *a)
{
	struct sweep *s = &a->s;
	if (s->naxes == 0)
		return cli_usage_error(CMD, "nothing to vary: give --vary KEY=V1,V2,...");
	s->points = 1;
	for (int i = 0; i < s->naxes; i++) {
		for (int j = 0; j < i; j++)
			if (strcmp(s->axes[i].key, s->axes[j].key) == 0)
				return cli_usage_error(CMD, "--vary %s given twice", s->axes[i].key);
		s->points *= s->axes[i].count;
		if (s->points > SWEEP_MAX_POINTS)
			return cli_usage_error(CMD, "the grid has more than %d points",
					       SWEEP_MAX_POINTS);
	}
	int st = check_vary_not_fixed(s);
	if (st)
		return st;
	if (a->point >= s->points)
		return cli_usage_error(CMD, "--point %ld: the grid has points 0 to %ld", a->point,
				       s->points - 1);
	if (a->point >= 0 && a->emit)
		return cli_usage_error(CMD, "--point runs one point; --emit prints them all");
	if (s->gully && !a->emit)
		return cli_usage_error(CMD, "--gully names the binary of emitted commands: add --emit");
	if (s->resume && !s->out_dir)
		return cli_usage_error(CMD, "--resume takes the rows a sweep left in --out DIR: "
				       "give --out");
	if (!s->gully)
		s->gully = sweep_self_path() ? sweep_self_path() : cli_program;
	st = s->start ? check_start_file(s->start) : 0;
	if (st || (st = sim_options_check_start(&s->o, CMD, s->start)))
		return st;
	const bool snapshot = s->start && image_format_from_path(s->start) == IMAGE_NONE;
	/* The map's size is the start's: varying it would label rows with sizes
	 * the runs never had (a height map) or fail every run (a snapshot). */
	for (int i = 0; s->start && i < s->naxes; i++)
		if (strcmp(s->axes[i].key, "world.width") == 0 ||
		    strcmp(s->axes[i].key, "world.height") == 0)
			return cli_usage_error(CMD, "--vary %s: %s sets the map's size", s->axes[i].key,
					       s->start);
	if (snapshot && (s->o.preset || s->o.width))
		return cli_usage_error(CMD, "%s: a snapshot carries its parameters and size: no "
				       "preset or --size with it; change them with --set or --vary",
				       s->start);
	st = check_dir_option("--out", s->out_dir);
	if (st || (st = check_dir_option("--save-maps", s->maps_dir)))
		return st;
	/* The shared options are checked once here rather than in every run;
	 * the files too, unless this is one point's run (--point), which
	 * reads them itself. */
	struct params p;
	struct preset_meta meta;
	st = sim_options_load(&s->o, CMD, &p, &meta);
	/* A snapshot's process is its own (unless --process): its runs say. */
	if (!st && (!snapshot || s->o.process)) {
		const struct process_ops *proc = process_find(sim_options_process(&s->o, &meta));
		st = sim_options_rain_process(&s->o, CMD, proc);
		if (!st)
			st = check_vary_read(s, proc);
	}
	return st || a->point >= 0 ? st : check_inputs(s, &p);
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_args a = {.jobs = workers_cpus(), .point = -1};
	sim_options_init(&a.s.o);
	int status = parse_args(&a, argc, argv);
	if (status == 0 && a.collect) {
		if (a.s.naxes || a.emit || a.point >= 0 || a.s.resume)
			status = cli_usage_error(CMD, "--collect DIR reads the grid from DIR/%s: "
						 "give it alone", SWEEP_GRID_FILE);
		else
			status = sweep_collect(a.collect);
	} else if (status == 0 && !(status = check_args(&a))) {
		if (a.emit)
			status = sweep_emit(&a.s, a.emit);
		else if (a.point >= 0)
			status = sweep_run_point(&a.s, a.point);
		else {
			cli_signals_install(CLI_SIGNALS_DEFER);
			status = sweep_run_grid(&a.s, a.jobs < a.s.points ? a.jobs : a.s.points);
		}
	}
	sweep_free_axes(a.s.axes, a.s.naxes);
	sim_options_free(&a.s.o);
	return status < 0 ? 0 : status;
}
