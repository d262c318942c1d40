/* gully run: simulate without a screen and print one row of metrics. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/signals.h"
#include "cli/run_output.h"
#include "config.h"
#include "core/base/error.h"
#include "core/base/process.h"
#include "core/base/workers.h"
#include "core/terrain/terrain.h"
#include "cli/picture.h"
#include "io/image.h"
#include "io/preset.h"
#include "io/simulation.h"
#include "io/snapshot.h"
#include "view/shade.h"

#define CMD "run"
/* Units per step() call: small enough for a lively progress bar and a
 * prompt Ctrl-C. A time step (sph) moves every particle and the wet soil,
 * up to 1000 times a droplet's work on a big map: it goes a few at a time.
 * Fixed counts, not timed ones, though a split never changes the bits. */
#define RUN_CHUNK 2000
#define RUN_CHUNK_STEPS 16

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: %s run [options] [-o FILE]... [PRESET] [SNAPSHOT|HEIGHTMAP]\n\n"
		"Simulates without a screen and prints a TSV header and one row of metrics\n"
		"(or one JSON object with --json). --particles N runs N droplets to their\n"
		"end. Given a snapshot (.gsnap), continues from it exactly: its map,\n"
		"parameters, random stream and process, with --set on top (--size is\n"
		"refused; --seed, or a new world.seed, restarts its random stream).\n"
		"Given a height map (.r16, .f32, .pgm, .png), starts from that terrain.\n"
		"Given a preset (a name or a .yaml file), takes it as -p does, with a\n"
		"height map or alone. Ctrl-C, SIGTERM or a hang-up stops the run early:\n"
		"the -o files get what is done (a snapshot marked interrupted,\n"
		"resumable exactly), then exit 130, 143 or 129.\n\n"
		"Options:\n" SIM_OPTIONS_HELP
		"  --overlay LIST       with -o a .png or .ppm: overlays on the picture,\n"
		"                       streams,pools,erosion,hardness,wetness,vegetation\n"
		"  --threads N          threads this run uses (0: every CPU it may use),\n"
		"                       whatever world.threads says; a -o snapshot keeps\n"
		"                       world.threads as it was (what a sweep's runs use)\n"
		"  --help, --version\n",
		cli_program, process_names());
}

/* p as the run uses it: --threads in place of world.threads. Only the
 * speed changes (any count gives the same bits); what the -o snapshots
 * keep is p itself, so a sweep's maps, run on one thread each, go on
 * later with the world.threads their preset and --set gave. */
static struct params run_params(const struct sim_options *o, const struct params *p)
{
	struct params q = *p;
	if (o->threads >= 0)
		q.world.threads = o->threads;
	return q;
}

/* Defaults or the preset, then --seed, --size and --set: a new terrain. */
static int open_fresh(const struct sim_options *o, struct params *p, struct world **w,
		      struct preset_meta *meta)
{
	int status = sim_options_load(o, CMD, p, meta);
	if (status)
		return status;
	const struct params q = run_params(o, p);
	int err = world_from_params(w, &q);
	if (err) {
		cli_error("cannot make a %dx%d world: %s", p->world.width, p->world.height,
			  gully_strerror(err));
		return 1;
	}
	return 0;
}

/* A snapshot's world, parameters and random stream, with the options on top.
 * Its map size is fixed; --seed (or --set world.seed) restarts its random
 * stream from that seed. */
static int open_snapshot(const struct sim_options *o, const char *path, struct params *p,
			 struct world **w, struct snapshot_info *snap, struct preset_meta *meta)
{
	if (o->width)
		return cli_usage_error(CMD, "--size cannot resize the snapshot '%s'", path);
	if (o->preset)
		return cli_usage_error(CMD, "a preset (%s) and the snapshot '%s', which carries its "
				       "own parameters: change them with --set", o->preset, path);
	char err[512];
	struct simulation s;
	progress_note(o->quiet, "reading", path);
	const int failed = simulation_open(&s, snap, path, err, sizeof err);
	progress_note_clear(o->quiet);
	if (failed) {
		cli_error("%s", err);
		return 1;
	}
	*w = s.world;
	*p = s.params;
	const int saved_seed = p->world.seed;
	int status = sim_options_apply(o, CMD, p);
	if (!status && (p->world.width != (*w)->width || p->world.height != (*w)->height))
		status = cli_usage_error(CMD, "--set cannot resize the snapshot '%s' (%dx%d)", path,
					 (*w)->width, (*w)->height);
	if (status) {
		world_destroy(*w);
		*w = NULL;
		snapshot_info_free(snap);
		return status;
	}
	/* --set world.seed restarts the stream as --seed does: a seed that
	 * changed only the metrics' column would be a trap (a sweep over seeds
	 * from one snapshot gave the same row for every seed). */
	if (o->seed >= 0 || p->world.seed != saved_seed)
		rng_seed(&(*w)->rng, (uint64_t)p->world.seed, (*w)->rng.inc >> 1);
	memset(meta, 0, sizeof *meta);
	snprintf(meta->process, sizeof meta->process, "%s", o->process ? o->process : snap->process);
	return 0;
}

/* A height map (.r16 .f32 .pgm .png) as the starting terrain; its size is
 * the map's (--size, when given, must agree). */
static int open_heightmap(const struct sim_options *o, const char *path, struct params *p,
			  struct world **w, struct preset_meta *meta)
{
	struct sim_options no_size = *o;
	no_size.width = no_size.height = 0;
	int status = sim_options_load(&no_size, CMD, p, meta);
	struct heightmap hm;
	if (status || (status = heightmap_read(o, CMD, path, p, &hm)))
		return status;
	/* Made as usual (the random stream and the hardness map start as for
	 * any run) on the height map's heights. */
	const struct params q = run_params(o, p);
	int e = world_from_params_on(w, &q, hm.heights);
	heightmap_free(&hm);
	if (e) {
		cli_error("cannot make a %dx%d world: %s", p->world.width, p->world.height,
			  gully_strerror(e));
		return 1;
	}
	return 0;
}

static volatile sig_atomic_t run_signal;

static void on_stop_signal(int sig)
{
	run_signal = sig;
}

/* SIGINT, SIGTERM and SIGHUP end the run between chunks instead of killing
 * it, so what is done is written and the run can resume: a hang-up is the
 * SSH connection that dropped under a run in the foreground, whose work
 * the explorer would have autosaved. One ignored when gully
 * started stays ignored (gully(1), SIGNALS): a shell's background job is
 * not for ^C, and a sweep's runs get what the sweep was given, so a sweep
 * that ignores SIGINT does not see its runs fail on a ^C meant for another
 * program. cli_signals_install left such a one at SIG_IGN. */
static void catch_stop_signals(bool on)
{
	static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
	static bool ignored[sizeof stops / sizeof stops[0]];
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on ? on_stop_signal : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
		struct sigaction old;
		if (on)
			ignored[i] = sigaction(stops[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN;
		if (!ignored[i])
			sigaction(stops[i], &sa, NULL);
	}
}

/* Runs `budget` units in chunks, then lets the process finish what is in
 * flight, so a run of N droplets is N droplets to their end. A stop signal
 * ends it early without finishing (*stopped = the signal): the state keeps
 * the droplets in flight and a resumed run continues exactly. */
static int run_budget(struct simulation *sim, uint64_t budget, bool quiet, struct run_metrics *m,
		      uint64_t *done, int *stopped, char *msg, size_t msglen)
{
	struct sim_watch watch = {0};
	const struct process_ops *proc = sim->proc;
	struct progress pg;
	int err = GULLY_OK;
	run_signal = 0;
	catch_stop_signals(true);
	progress_begin(&pg, budget, proc->unit, quiet);
	double t0 = clock_seconds();
	/* Between chunks nothing reads the layers: a lazily kept one may lag
	 * (process.h, catch_up) and is made whole once, below. */
	if (proc->catch_up)
		proc->catch_up(sim->state, true);
	const uint64_t chunk = process_counts_time(proc) ? RUN_CHUNK_STEPS : RUN_CHUNK;
	while (*done < budget && !err && !run_signal) {
		uint64_t n = budget - *done < chunk ? budget - *done : chunk;
		struct process_report rep = {0};
		err = proc->step(sim->state, sim->world, &sim->params, n, &rep);
		m->particles += rep.particles;
		m->steps += rep.steps;
		*done += n;
		if (!err)
			err = sim_watch(&watch, sim->world, proc, rep.steps, *done, budget, false,
					msg, msglen);
		progress_update(&pg, *done);
	}
	if (proc->catch_up)
		proc->catch_up(sim->state, false);
	*stopped = *done < budget ? run_signal : 0;
	if (!err && !*stopped && proc->finish && proc->finish_ends_run) {
		struct process_report rep = {0};
		err = proc->finish(sim->state, sim->world, &sim->params, &rep);
		m->steps += rep.steps;
	}
	if (!err)
		err = sim_watch(&watch, sim->world, proc, 0, *done, budget, true, msg, msglen);
	m->seconds = clock_seconds() - t0;
	progress_end(&pg);
	catch_stop_signals(false);
	return err;
}

/* Not an exit status: the command goes on. */
#define GO_ON (-1)

/* An argument as the explorer and `gully sweep` take it: a height map or a
 * snapshot (by its name, or any other file that is no preset) is what the
 * run starts from (*from); a preset (a .yaml file or a preset's name) is
 * -p's; a name that is no file at all is refused here, with the preset it
 * may have meant. */
static int run_argument(struct sim_options *o, const char *arg, const char **from)
{
	switch (cli_arg_kind(arg)) {
	case CLI_ARG_PRESET:
		if (o->preset)
			return cli_usage_error(CMD, "two presets: %s and %s", o->preset, arg);
		o->preset = arg;
		return GO_ON;
	case CLI_ARG_MISSING:
		return cli_arg_missing(CMD, arg, "file or preset");
	case CLI_ARG_MAP:
		break;
	}
	if (*from)
		return cli_usage_error(CMD, "two maps to start from: %s and %s", *from, arg);
	*from = arg;
	return GO_ON;
}

/* The options, at most one preset and at most one SNAPSHOT or HEIGHTMAP
 * (*from, or NULL); a bad -o fails now, not after the run. GO_ON, or the
 * status to exit with. */
enum { OPT_OVERLAY = 0x300, OPT_THREADS };
static const struct option run_longopts[] = {
	SIM_LONG_OPTIONS,
	{"overlay", required_argument, NULL, OPT_OVERLAY},
	{"threads", required_argument, NULL, OPT_THREADS},
	{NULL, 0, NULL, 0},
};
static const struct cli_value run_values[] = {
	SIM_OPTION_VALUES,
	{"overlay", CLI_VALUE_NAME_LIST, cli_overlay_name},
	{NULL, CLI_VALUE_NONE, NULL},
};
const struct cli_options run_options = {SIM_SHORT_OPTIONS, run_longopts, run_values, NULL,
					CLI_VALUE_PRESET, NULL};

static int run_parse(int argc, char **argv, struct sim_options *o, unsigned *overlays,
		     const char **from)
{
	const struct option *longopts = run_longopts;
	bool overlay_set = false;
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, run_options.shortopts, longopts, NULL)) != -1) {
		if (opt == OPT_HELP || opt == 'h') {
			usage(stdout);
			return 0;
		}
		if (opt == OPT_VERSION) {
			cli_print_version(stdout);
			return 0;
		}
		if (opt == '?' || opt == ':')
			return cli_bad_option(CMD, opt, argv, longopts);
		if (opt == OPT_OVERLAY) {
			char oerr[128];
			if (shade_overlays_parse(optarg, overlays, oerr, sizeof oerr))
				return cli_usage_error(CMD, "--overlay: %s", oerr);
			overlay_set = true;
			continue;
		}
		if (opt == OPT_THREADS) {
			uint64_t n;
			if (!parse_u64(optarg, &n) || n > WORKERS_MAX)
				return cli_usage_error(CMD, "--threads: '%s' is not a count from 0 "
						       "to %d", cli_quote(optarg), WORKERS_MAX);
			o->threads = (int)n;
			continue;
		}
		if (sim_options_take(o, CMD, opt, optarg) < 0)
			return EXIT_USAGE;
	}
	/* --dump-preset runs nothing: the -o files were left unwritten
	 * without a word, and a preset meant for FILE went to stdout alone. */
	if (o->dump_preset && o->noutputs)
		return cli_usage_error(CMD, "--dump-preset runs nothing, so -o %s would get no map: "
				       "give one of them (the preset goes to stdout: > FILE.yaml "
				       "keeps it)", o->outputs[0]);
	if (optind + 2 < argc)
		return cli_usage_error(CMD, "a preset and a map at most ('%s' is extra)",
				       argv[optind + 2]);
	*from = NULL;
	int status = GO_ON;
	for (; optind < argc && status == GO_ON; optind++)
		status = run_argument(o, argv[optind], from);
	if (status == GO_ON)
		status = outputs_check(CMD, o->outputs, o->noutputs,
				       &(struct output_rules){.snapshots = true,
							      .overlays = overlay_set});
	return status ? status : GO_ON;
}

/* The world to run (a height map's, a snapshot's or a fresh terrain) with
 * the options' hardness and rain, and the process that runs it. */
static int run_open(const struct sim_options *o, const char *from, bool is_heightmap,
		    struct params *p, struct world **w, struct snapshot_info *snap,
		    struct preset_meta *meta, const struct process_ops **proc)
{
	int status;
	if (is_heightmap)
		status = open_heightmap(o, from, p, w, meta);
	else if (from)
		status = open_snapshot(o, from, p, w, snap, meta);
	else
		status = open_fresh(o, p, w, meta);
	if (!status)
		status = sim_options_hardness(o, CMD, p, from && !is_heightmap, *w, NULL);
	if (!status)
		status = sim_options_rain(o, *w);
	if (status)
		return status;
	*proc = process_find(sim_options_process(o, meta));
	if (!*proc) {
		cli_error("no process named '%s' (one of %s)", sim_options_process(o, meta),
			  process_names());
		return 1;
	}
	return sim_options_rain_process(o, CMD, *proc);
}

/* The metrics row (or JSON) on stdout; 1 when stdout lost them (said: a
 * closed stdout, EPIPE with SIGPIPE ignored, or a full disk), else 0. */
static int run_print_metrics(const struct sim_options *o, const struct run_metrics *m)
{
	if (o->json)
		metrics_print_json(stdout, m);
	else {
		metrics_print_header(stdout);
		metrics_print_row(stdout, m);
	}
	return cli_flush_stdout("the metrics");
}

/* A snapshot of an interrupted run says how far it got ("after N of M",
 * the mark run_and_report writes): without --particles the run goes on
 * with the rest, so `gully run stopped.gsnap` finishes what Ctrl-C stopped.
 * 0 when the snapshot has no such mark. */
static uint64_t interrupted_rest(const struct sim_options *o, const char *from,
				 const struct snapshot_info *snap, const char *unit)
{
	const char *y = snap->preset_yaml;
	const size_t mark = strlen(RUN_INTERRUPTED_MARK);
	unsigned long long done, total;
	if (o->particles_set || o->process || !y || strncmp(y, RUN_INTERRUPTED_MARK, mark) != 0 ||
	    sscanf(y + mark, " %llu of %llu", &done, &total) != 2 || done >= total)
		return 0;
	if (!o->quiet)
		cli_error("%s stopped after %llu of %llu %s: running the other %llu "
			  "(--particles sets another count)", from, done, total, unit, total - done);
	return total - done;
}

/* The lines before a -o snapshot's preset text: an interrupted run's mark
 * first (interrupted_rest reads it there), then the rain mask's, by its
 * full path so a run from another directory finds it. "" for none. */
static void run_note(const struct sim_options *o, int stopped, uint64_t done, uint64_t budget,
		     char *note, size_t len)
{
	note[0] = '\0';
	size_t k = 0;
	if (stopped)
		k = (size_t)snprintf(note, len, "%s %llu of %llu", RUN_INTERRUPTED_MARK,
				     (unsigned long long)done, (unsigned long long)budget);
	if (o->rain && k < len) {
		char full[PATH_MAX];
		snprintf(note + k, len - k, "%s%s%s", k ? "\n" : "", RUN_RAIN_MARK,
			 realpath(o->rain, full) ? full : o->rain);
	}
}

/* A snapshot of a run with --rain, continued without it, would start its
 * droplets anywhere from here on: said, since the maps then differ from a
 * run that never stopped. */
static void rain_warn(const struct sim_options *o, const char *from,
		      const struct snapshot_info *snap)
{
	char mask[PATH_MAX];
	if (o->rain || !run_rain_mark(snap->preset_yaml, mask, sizeof mask))
		return;
	cli_error("%s: its droplets started by the rain mask %s, which a snapshot does not keep: "
		  "these start anywhere (--rain %s goes on as it did)", from, mask, mask);
}

/* Runs the budget (without --particles: `rest`, else 200,000), prints the
 * metrics and writes the -o files (the map is written even when stdout is
 * closed, and after an interruption), their world.threads `threads`, not
 * --threads' (run_params). */
static int run_and_report(const struct sim_options *o, struct simulation *sim,
			  const struct process_ops *proc, int threads, unsigned overlays,
			  uint64_t rest)
{
	const int seed = sim->params.world.seed;
	uint64_t budget = o->particles_set ? o->particles : rest ? rest : 200000;
	struct run_metrics m = {.process = proc->name, .seed = seed};
	uint64_t done = 0;
	int stopped = 0;
	char msg[512] = "";
	int err = run_budget(sim, budget, o->quiet, &m, &done, &stopped, msg, sizeof msg);
	cli_signals_install(CLI_SIGNALS_DIE); /* run_budget left INT, TERM and HUP at SIG_DFL */
	if (err) {
		/* An unstable run's world is no result: no row, no files. */
		if (msg[0])
			cli_error("%s; nothing written", msg);
		else
			cli_error("%s: %s", proc->name, gully_strerror(err));
		return 1;
	}
	metrics_collect(&m, sim->world, sim->proc, sim->state);
	int out_err = run_print_metrics(o, &m);
	char note[PATH_MAX + 256];
	run_note(o, stopped, done, budget, note, sizeof note);
	sim->note = note[0] ? note : NULL;
	if (stopped) {
		cli_error("interrupted (%s) after %llu of %llu %s; %s", strsignal(stopped),
			  (unsigned long long)done, (unsigned long long)budget, proc->unit,
			  o->noutputs ? "the -o files hold them, what is in flight included"
				      : "no -o file to keep them");
	}
	sim->params.world.threads = threads; /* the run is over: only the files read it */
	int status = run_outputs_write(o, sim, overlays) | out_err;
	sim->note = NULL; /* `note` ends here */
	if (stopped)
		status = 128 + stopped;
	return status;
}

/* After the options: open, start the process, run and report. */
static int run(const struct sim_options *o, const char *from, unsigned overlays)
{
	struct params p;
	struct preset_meta meta;
	struct world *w = NULL;
	struct snapshot_info snap;
	memset(&snap, 0, sizeof snap);
	const struct process_ops *proc = NULL;
	bool is_heightmap = from && image_format_from_path(from) != IMAGE_NONE;
	int status = sim_options_check_start(o, CMD, from);
	if (status)
		return status;
	status = run_open(o, from, is_heightmap, &p, &w, &snap, &meta, &proc);
	if (!status && !o->dump_preset)
		status = outputs_check_size(CMD, o->outputs, o->noutputs, w->width, w->height);
	if (!status && o->dump_preset)
		status = cli_dump_preset(&p, &meta, proc->name);
	if (status || o->dump_preset) {
		world_destroy(w);
		snapshot_info_free(&snap);
		return status;
	}
	/* HUP and QUIT (and INT/TERM outside run_budget) end the run, after
	 * removing a save's temporary file; SIGPIPE is ignored. */
	cli_signals_install(CLI_SIGNALS_DIE);

	/* From a snapshot: its process takes its state back, or another
	 * process starts after it finished what it had in flight. */
	struct simulation sim = {.world = w, .params = run_params(o, &p)};
	char msg[512];
	/* A --set the snapshot's state cannot take is the options' fault, as
	 * a --set that would resize it is: a usage error, said as one. */
	if (from && !is_heightmap &&
	    simulation_check_kept(&sim, proc, &snap, from, msg, sizeof msg) != GULLY_OK) {
		snapshot_info_free(&snap);
		simulation_end(&sim);
		return cli_usage_error(CMD, "--set: %s", msg);
	}
	int err = simulation_start(&sim, proc, from && !is_heightmap ? &snap : NULL, from, msg,
				   sizeof msg);
	const uint64_t rest =
		!err && from && !is_heightmap ? interrupted_rest(o, from, &snap, proc->unit) : 0;
	if (!err && from && !is_heightmap)
		rain_warn(o, from, &snap);
	snapshot_info_free(&snap);
	if (err) {
		cli_error("%s", msg);
		simulation_end(&sim);
		return 1;
	}
	status = run_and_report(o, &sim, proc, p.world.threads, overlays, rest);
	simulation_end(&sim);
	return status;
}

int cmd_run(int argc, char **argv)
{
	unsigned overlays = 0;
	const char *from = NULL;
	struct sim_options o;
	sim_options_init(&o);
	int status = run_parse(argc, argv, &o, &overlays, &from);
	if (status == GO_ON)
		status = run(&o, from, overlays);
	sim_options_free(&o);
	return status;
}
