/* gully run: simulate without a screen and print one row of metrics. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config.h"
#include "core/error.h"
#include "core/process.h"
#include "core/terrain.h"

#define CMD "run"
/* Droplets per step() call: small enough for a lively progress bar. */
#define RUN_CHUNK 2000

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: %s run [options] [SNAPSHOT]\n\n"
		"Simulates without a screen and prints a TSV header and one row of metrics\n"
		"(or one JSON object with --json). Given a snapshot, continues from it.\n\n"
		"Options:\n" SIM_OPTIONS_HELP, cli_program, process_names());
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {SIM_LONG_OPTIONS, {NULL, 0, NULL, 0}};
	struct sim_options o;
	sim_options_init(&o);
	int status = 0;
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, SIM_SHORT_OPTIONS, longopts, NULL)) != -1) {
		if (opt == OPT_HELP) {
			usage(stdout);
			sim_options_free(&o);
			return 0;
		}
		if (opt == OPT_VERSION) {
			printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			sim_options_free(&o);
			return 0;
		}
		if (opt == '?') {
			sim_options_free(&o);
			return cli_usage_error(CMD, "unknown option '%s'", argv[optind - 1]);
		}
		if (opt == ':') {
			sim_options_free(&o);
			return cli_usage_error(CMD, "option '%s' needs a value", argv[optind - 1]);
		}
		int took = sim_options_take(&o, CMD, opt, optarg);
		if (took < 0) {
			sim_options_free(&o);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		sim_options_free(&o);
		return cli_usage_error(CMD, "snapshots are not supported yet: '%s'", argv[optind]);
	}

	struct params p;
	struct preset_meta meta;
	status = sim_options_load(&o, CMD, &p, &meta);
	if (status) {
		sim_options_free(&o);
		return status;
	}
	const struct process_ops *proc = process_find(sim_options_process(&o, &meta));
	if (!proc) {
		cli_error("no process named '%s' (one of %s)", sim_options_process(&o, &meta),
			  process_names());
		sim_options_free(&o);
		return 1;
	}
	if (o.dump_preset) {
		snprintf(meta.process, sizeof meta.process, "%s", proc->name);
		char *text;
		status = preset_format(&p, &meta, &text) ? 1 : 0;
		if (!status)
			fputs(text, stdout);
		free(text);
		sim_options_free(&o);
		return status;
	}
	uint64_t budget = o.particles_set ? o.particles : 200000;

	struct world *w = NULL;
	void *state = NULL;
	int err = world_from_params(&w, &p);
	if (err) {
		cli_error("cannot make a %dx%d world: %s", p.world.width, p.world.height,
			  gully_strerror(err));
		sim_options_free(&o);
		return 1;
	}
	err = proc->create(&state, w, &p);
	if (err) {
		cli_error("%s: %s", proc->name, gully_strerror(err));
		world_destroy(w);
		sim_options_free(&o);
		return 1;
	}

	struct progress pg;
	progress_begin(&pg, budget, proc->unit, o.quiet);
	struct run_metrics m = {.process = proc->name, .seed = p.world.seed};
	double t0 = clock_seconds();
	for (uint64_t done = 0; done < budget && !err;) {
		uint64_t n = budget - done < RUN_CHUNK ? budget - done : RUN_CHUNK;
		struct process_report rep = {0};
		err = proc->step(state, w, &p, n, &rep);
		m.particles += rep.particles;
		m.steps += rep.steps;
		done += n;
		progress_update(&pg, done);
	}
	m.seconds = clock_seconds() - t0;
	progress_end(&pg);
	if (err) {
		cli_error("%s: %s", proc->name, gully_strerror(err));
		status = 1;
	} else {
		metrics_collect(&m, w);
		if (o.json) {
			metrics_print_json(stdout, &m);
		} else {
			metrics_print_header(stdout);
			metrics_print_row(stdout, &m);
		}
	}
	proc->destroy(state);
	world_destroy(w);
	sim_options_free(&o);
	return status;
}
