/* gully run: simulate without a screen and print one row of metrics. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/signals.h"
#include "config.h"
#include "core/base/error.h"
#include "core/terrain/hardness.h"
#include "core/base/process.h"
#include "core/terrain/terrain.h"
#include "cli/picture.h"
#include "io/image.h"
#include "io/preset.h"
#include "io/simulation.h"
#include "io/snapshot.h"
#include "view/shade.h"

#define CMD "run"
/* Droplets per step() call: small enough for a lively progress bar. */
#define RUN_CHUNK 2000

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: %s run [options] [SNAPSHOT]\n\n"
		"Simulates without a screen and prints a TSV header and one row of metrics\n"
		"(or one JSON object with --json). Given a snapshot (.gsnap), continues\n"
		"from it exactly: its map, parameters, random stream and process, with\n"
		"--set on top (--size is refused; --seed restarts its random stream).\n"
		"Given a height map (.r16, .pgm, .f32), starts from that terrain.\n"
		"-o FILE writes a snapshot, or the height layer when FILE ends in\n"
		".png, .ppm, .pgm, .r16 or .f32 (see gully render).\n\n"
		"Options:\n" SIM_OPTIONS_HELP
		"  --overlay LIST       with -o a .png or .ppm: overlays on the picture,\n"
		"                       streams,pools,erosion,hardness,wetness,vegetation\n",
		cli_program, process_names());
}

/* Defaults or the preset, then --seed, --size and --set: a new terrain. */
static int open_fresh(const struct sim_options *o, struct params *p, struct world **w,
		      struct preset_meta *meta)
{
	int status = sim_options_load(o, CMD, p, meta);
	if (status)
		return status;
	int err = world_from_params(w, p);
	if (err) {
		cli_error("cannot make a %dx%d world: %s", p->world.width, p->world.height,
			  gully_strerror(err));
		return 1;
	}
	return 0;
}

/* A snapshot's world, parameters and random stream, with the options on top.
 * Its map size is fixed; --seed restarts its random stream from that seed. */
static int open_snapshot(const struct sim_options *o, const char *path, struct params *p,
			 struct world **w, struct snapshot_info *snap, struct preset_meta *meta)
{
	if (o->width)
		return cli_usage_error(CMD, "--size cannot resize the snapshot '%s'", path);
	if (o->preset)
		return cli_usage_error(CMD, "--preset: the snapshot '%s' carries its parameters; "
				       "change them with --set", path);
	char err[512];
	struct simulation s;
	if (simulation_open(&s, snap, path, err, sizeof err)) {
		cli_error("%s", err);
		return 1;
	}
	*w = s.world;
	*p = s.params;
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
	if (o->seed >= 0)
		rng_seed(&(*w)->rng, (uint64_t)o->seed, (*w)->rng.inc >> 1);
	memset(meta, 0, sizeof *meta);
	snprintf(meta->process, sizeof meta->process, "%s", o->process ? o->process : snap->process);
	return 0;
}

/* A height map (.r16, .pgm, .f32) as the starting terrain; its size is the map's. */
static int open_heightmap(const struct sim_options *o, const char *path, struct params *p,
			  struct world **w, struct preset_meta *meta)
{
	if (o->width)
		return cli_usage_error(CMD, "--size: the height map '%s' sets the size", path);
	int status = sim_options_load(o, CMD, p, meta);
	if (status)
		return status;
	char err[512];
	int iw, ih;
	float *h;
	if (image_import(path, &iw, &ih, &h, err, sizeof err)) {
		cli_error("%s", err);
		return 1;
	}
	if (params_set(p, params_find("world.width"), iw) ||
	    params_set(p, params_find("world.height"), ih)) {
		cli_error("%s: a %dx%d map is larger than world.width and world.height allow", path,
			  iw, ih);
		free(h);
		return 1;
	}
	/* Made as usual (so the random stream starts as for any run), then the
	 * height map replaces the generated terrain. */
	int e = world_from_params(w, p);
	if (e) {
		cli_error("cannot make a %dx%d world: %s", iw, ih, gully_strerror(e));
		free(h);
		return 1;
	}
	memcpy((*w)->layer[LAYER_HEIGHT], h, world_cells(*w) * sizeof *h);
	memcpy((*w)->layer[LAYER_BASE], h, world_cells(*w) * sizeof *h);
	free(h);
	/* Strata follow heights: remake the hardness map over the imported ones. */
	hardness_generate(*w, p);
	return 0;
}

/* -o: a snapshot, or the height layer as a picture when the name says so. */
static int write_output(const char *path, const struct simulation *sim, unsigned overlays)
{
	char err[512];
	if (image_format_from_path(path) != IMAGE_NONE) {
		if (picture_export_view(path, sim->world, LAYER_HEIGHT, &sim->params, overlays, err,
				      sizeof err)) {
			cli_error("%s", err);
			return 1;
		}
		return 0;
	}
	if (simulation_save(sim, path, err, sizeof err)) {
		cli_error("%s", err);
		return 1;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	enum { OPT_OVERLAY = 0x300 };
	static const struct option longopts[] = {
		SIM_LONG_OPTIONS,
		{"overlay", required_argument, NULL, OPT_OVERLAY},
		{NULL, 0, NULL, 0},
	};
	unsigned overlays = 0;
	bool overlay_set = false;
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
		if (opt == '?' || opt == ':') {
			sim_options_free(&o);
			return cli_bad_option(CMD, opt, argv);
		}
		if (opt == OPT_OVERLAY) {
			char oerr[128];
			if (shade_overlays_parse(optarg, &overlays, oerr, sizeof oerr)) {
				sim_options_free(&o);
				return cli_usage_error(CMD, "--overlay: %s", oerr);
			}
			overlay_set = true;
			continue;
		}
		int took = sim_options_take(&o, CMD, opt, optarg);
		if (took < 0) {
			sim_options_free(&o);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 < argc) {
		sim_options_free(&o);
		return cli_usage_error(CMD, "one SNAPSHOT at a time ('%s' is extra)", argv[optind + 1]);
	}
	const char *from = optind < argc ? argv[optind] : NULL;
	if (overlay_set) {
		int f = o.output ? image_format_from_path(o.output) : IMAGE_NONE;
		if (f != IMAGE_PNG && f != IMAGE_PPM) {
			sim_options_free(&o);
			return cli_usage_error(CMD, "--overlay is for a picture: -o FILE.png or FILE.ppm");
		}
	}

	struct params p;
	struct preset_meta meta;
	struct world *w = NULL;
	struct snapshot_info snap;
	memset(&snap, 0, sizeof snap);
	bool is_heightmap = from && image_format_from_path(from) != IMAGE_NONE;
	if (is_heightmap)
		status = open_heightmap(&o, from, &p, &w, &meta);
	else if (from)
		status = open_snapshot(&o, from, &p, &w, &snap, &meta);
	else
		status = open_fresh(&o, &p, &w, &meta);
	if (!status)
		status = sim_options_hardness(&o, CMD, &p, w, from && !is_heightmap);
	const struct process_ops *proc = NULL;
	if (!status) {
		proc = process_find(sim_options_process(&o, &meta));
		if (!proc) {
			cli_error("no process named '%s' (one of %s)", sim_options_process(&o, &meta),
				  process_names());
			status = 1;
		}
	}
	if (!status && o.dump_preset) {
		snprintf(meta.process, sizeof meta.process, "%s", proc->name);
		char *text;
		status = preset_format(&p, &meta, &text) ? 1 : 0;
		if (!status)
			fputs(text, stdout);
		free(text);
		if (!status)
			status = -1; /* done: nothing to run */
	}
	if (status) {
		world_destroy(w);
		snapshot_info_free(&snap);
		sim_options_free(&o);
		return status < 0 ? 0 : status;
	}
	uint64_t budget = o.particles_set ? o.particles : 200000;
	cli_signals_install(CLI_SIGNALS_DIE);

	/* From a snapshot: its process takes its state back, or another
	 * process starts after it finished what it had in flight. */
	struct simulation sim = {.world = w, .params = p};
	char msg[512];
	int err = simulation_start(&sim, proc, from && !is_heightmap ? &snap : NULL, from, msg,
				   sizeof msg);
	snapshot_info_free(&snap);
	if (err) {
		cli_error("%s", msg);
		simulation_end(&sim);
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
		err = proc->step(sim.state, sim.world, &sim.params, n, &rep);
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
		metrics_collect(&m, sim.world, sim.proc, sim.state);
		if (o.json) {
			metrics_print_json(stdout, &m);
		} else {
			metrics_print_header(stdout);
			metrics_print_row(stdout, &m);
		}
		/* A closed stdout (EPIPE: SIGPIPE is ignored) loses the metrics,
		 * not the map: -o is still written. */
		int out_err = fflush(stdout) != 0 || ferror(stdout) ? (errno ? errno : EIO) : 0;
		if (o.output)
			status = write_output(o.output, &sim, overlays);
		if (out_err) {
			cli_error("cannot write the metrics to stdout: %s", strerror(out_err));
			status = 1;
		}
	}
	simulation_end(&sim);
	sim_options_free(&o);
	return status;
}
