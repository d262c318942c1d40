/* gully info: what a snapshot holds, readable at a glance. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/run_output.h"
#include "core/base/error.h"
#include "config.h"
#include "io/fileio.h"
#include "io/preset.h"
#include "io/snapshot.h"
#include "core/sph/sph.h"
#include "core/terrain/terrain.h"

#define CMD "info"

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: %s info [--preset] SNAPSHOT|PRESET\n\n"
		"Given a preset (a .yaml file or a preset's name), prints every resolved\n"
		"value, marking those the preset changes. Given a snapshot, prints what\n"
		"it holds: the gully that wrote it, size, process, counters, tallies,\n"
		"the parameters that differ from the defaults, whether the terrain is\n"
		"what terrain.generator and world.seed make (or a height map of its\n"
		"own), whether a run was interrupted, the process's own totals (sph:\n"
		"its particles, time and soil books), and each layer's minimum,\n"
		"maximum, mean and CRC check.\n"
		"Exits 1 when the file is damaged (a layer whose CRC does not match is\n"
		"shown, then reported).\n\n"
		"Options:\n"
		"  --preset             also print the snapshot's embedded preset text\n"
		"  --help, --version\n", cli_program);
}

/* File text to the terminal: no escape sequences or other control bytes. */
static void print_text(const char *s, const char *indent)
{
	fputs(indent, stdout);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\n') {
			if (s[1])
				printf("\n%s", indent);
		} else {
			putchar(c == '\t' || c >= 0x20 ? c : '?');
		}
	}
	putchar('\n');
}

/* How a layer is stored: "raw" or "runs, 2.9%" (of the raw bytes). */
static void print_stored(const struct world *w, const struct snapshot_report *rep, int l)
{
	if (rep->encoding[l] != SNAPSHOT_ENC_RUNS) {
		printf("  %-11s", "raw");
		return;
	}
	char s[32];
	double share = 100.0 * (double)rep->stored_bytes[l] / ((double)world_cells(w) * 4.0);
	snprintf(s, sizeof s, "runs, %.*f%%", share < 9.95 ? 1 : 0, share);
	printf("  %-11s", s);
}

static void print_layers(const struct world *w, const struct snapshot_report *rep)
{
	printf("layers:           %14s %14s %14s  %-11s  crc\n", "min", "max", "mean", "stored");
	size_t n = world_cells(w);
	for (int l = 0; l < LAYER_COUNT; l++) {
		printf("  %-15s", world_layer_name((enum world_layer)l));
		if (!rep->present[l]) {
			printf(" (not in the file: zero)\n");
			continue;
		}
		const float *v = w->layer[l];
		double mn = INFINITY, mx = -INFINITY, sum = 0;
		size_t bad = 0;
		for (size_t i = 0; i < n; i++) {
			if (!isfinite(v[i])) {
				bad++;
				continue;
			}
			sum += v[i];
			mn = v[i] < mn ? v[i] : mn;
			mx = v[i] > mx ? v[i] : mx;
		}
		if (bad == n)
			printf(" %14s %14s %14s", "-", "-", "-");
		else
			printf(" %14.6g %14.6g %14.6g", mn, mx, sum / (double)(n - bad));
		print_stored(w, rep, l);
		if (rep->crc_ok[l])
			printf("  ok");
		else
			printf("  BAD (stored %08" PRIx32 ", computed %08" PRIx32 ")",
			       rep->crc_stored[l], rep->crc_computed[l]);
		if (bad)
			printf("  %zu cells not finite", bad);
		putchar('\n');
	}
}

/* An interrupted run's mark (the preset text's first line), and the text
 * itself when asked for. */
static void print_preset(const struct snapshot_info *info, bool show)
{
	const char *y = info->preset_yaml;
	size_t mark = strlen(RUN_INTERRUPTED_MARK);
	if (y && strncmp(y, RUN_INTERRUPTED_MARK, mark) == 0) {
		char line[128];
		snprintf(line, sizeof line, "%.*s", (int)strcspn(y + mark, "\n"), y + mark);
		printf("interrupted:      after");
		print_text(line, "");
	}
	char mask[4096];
	if (run_rain_mark(y, mask, sizeof mask)) {
		printf("rain mask:        ");
		print_text(mask, "");
		printf("                  (not in the snapshot: --rain it again to go on as it did)\n");
	}
	if (!show) {
		printf("preset:           %s\n", y ? "embedded (shown with --preset)" : "none");
		return;
	}
	printf("preset:\n");
	if (y)
		print_text(y, "  | ");
	else
		printf("  (none)\n");
}

/* The gully that wrote the file, as its preset text's first comment names
 * it ("# gully preset, written by gully 0.1.0 (git 1a2b3c4): ..."): what
 * a report or a thesis cites beside the parameters. */
static void print_writer(const struct snapshot_info *info)
{
	static const char intro[] = "# gully preset, written by ";
	const char *y = info->preset_yaml, *at = y ? strstr(y, intro) : NULL;
	if (at && at != y && at[-1] != '\n')
		at = NULL;
	if (!at) {
		printf("written by:       (not recorded)\n");
		return;
	}
	at += strlen(intro);
	size_t len = strcspn(at, "\n");
	const char *end = strstr(at, ": every parameter");
	if (end && (size_t)(end - at) < len)
		len = (size_t)(end - at);
	char who[128];
	snprintf(who, sizeof who, "%.*s", (int)len, at);
	printf("written by:");
	print_text(who, "       ");
}

/* The header's fields: file, size, process, counters, RNG and tallies. */
static void print_header(const char *path, const struct world *w,
			 const struct snapshot_info *info, const struct snapshot_report *rep)
{
	printf("file:             %s (%" PRIu64 " bytes, snapshot format %" PRIu32 ")\n", path,
	       rep->file_size, rep->version);
	print_writer(info);
	printf("size:             %dx%d\n", w->width, w->height);
	printf("process:          %s\n", info->process);
	/* Released since the terrain was made (total_particles), by every
	 * process: sph's section below also has those still in flight. */
	printf("particles:        %" PRIu64 " released\n", w->particles);
	printf("steps:            %" PRIu64 "\n", w->steps);
	printf("rng:              state %016" PRIx64 ", increment %016" PRIx64 "\n", w->rng.state,
	       w->rng.inc);
	printf("tallies:\n");
	for (int t = 0; t < TALLY_COUNT; t++)
		printf("  %-24s %.9g\n", world_tally_name((enum world_tally)t), w->tally[t]);
}

static void print_params_changed(const struct params *p)
{
	printf("parameters that differ from the defaults:\n");
	struct params def;
	params_defaults(&def);
	int differ = 0;
	for (int i = 0; i < params_count(); i++) {
		char a[128], b[128];
		params_format(p, i, a, sizeof a);
		params_format(&def, i, b, sizeof b);
		if (strcmp(a, b) != 0) {
			printf("  %s=%s\n", params_def(i)->key, a);
			differ++;
		}
	}
	if (!differ)
		printf("  (none)\n");
}

/* Where the terrain came from, for whoever cites the run: the parameters
 * name a generator and a seed, but the map may have started from a height
 * map of its own, or the seed may have changed since (`run --seed` on a
 * snapshot restarts only the random stream). The base layer is the terrain
 * as it was made, so making it again from the parameters tells them apart. */
static void print_terrain_source(const struct world *w, const struct snapshot_info *info,
				 const struct snapshot_report *rep)
{
	char gen[64];
	params_format(&info->params, params_find("terrain.generator"), gen, sizeof gen);
	printf("terrain:          ");
	struct world *made = NULL;
	if (!rep->present[LAYER_BASE] || !rep->crc_ok[LAYER_BASE] ||
	    world_create(&made, w->width, w->height)) {
		printf("(cannot tell)\n");
		return;
	}
	terrain_generate(made, &info->params);
	size_t bytes = world_cells(w) * sizeof(float);
	if (memcmp(made->layer[LAYER_BASE], w->layer[LAYER_BASE], bytes) == 0)
		printf("terrain.generator=%s, world.seed=%d (the base layer is what they make)\n",
		       gen, info->params.world.seed);
	else
		printf("not what terrain.generator=%s, world.seed=%d make: a height map of its\n"
		       "                  own, or made with another seed (the base layer holds it)\n",
		       gen, info->params.world.seed);
	world_destroy(made);
}

/* sph's own totals, in the metrics' names and units (cells^3). */
static void print_sph(const struct snapshot_info *info)
{
	struct sph_summary sum;
	if (sph_blob_summary(info->state, info->state_len, &sum)) {
		printf("sph:              (its state is not one gully can read)\n");
		return;
	}
	struct sph_metrics m;
	sph_books_volumes(&sum.books, info->params.sph.spacing, &m);
	printf("sph:\n");
	printf("  %-24s %d in flight, %" PRIu32 " released\n", "particles", sum.particles,
	       sum.released);
	printf("  %-24s %.9g s in %" PRIu64 " steps\n", "simulated", sum.time, sum.steps);
	printf("  %-24s %.9g\n", "splash_volume", m.splash_volume);
	printf("  %-24s %.9g\n", "scour_volume", m.scour_volume);
	printf("  %-24s %.9g\n", "mud_deposited", m.mud_deposited);
	printf("  %-24s %.9g\n", "water_absorbed", m.water_absorbed);
	if (sum.wet.x1 < sum.wet.x0)
		printf("  %-24s none\n", "wet ground");
	else
		printf("  %-24s within x %d-%d, y %d-%d\n", "wet ground", sum.wet.x0, sum.wet.x1,
		       sum.wet.y0, sum.wet.y1);
}

/* A bad CRC, and what a load would refuse (a value out of its layer's
 * range), make info fail too: 1 when any, else 0. */
static int report_bad_layers(const char *path, const struct world *w,
			     const struct snapshot_report *rep)
{
	int status = 0;
	for (int l = 0; l < LAYER_COUNT; l++)
		if (rep->present[l] && !rep->crc_ok[l]) {
			cli_error("%s: bad CRC in layer '%s' (stored %08" PRIx32 ", computed %08" PRIx32 ")",
				  path, world_layer_name((enum world_layer)l), rep->crc_stored[l],
				  rep->crc_computed[l]);
			status = 1;
		}
	for (int l = 0; l < LAYER_COUNT; l++)
		if (rep->out_of_range[l]) {
			char what[160];
			snapshot_describe_bad_value(what, sizeof what, rep, w->width, l);
			cli_error("%s: %s", path, what);
			status = 1;
		}
	return status;
}

/* A snapshot: read keeping bad CRCs and values, so they can be shown. */
static int info_snapshot(const char *path, bool show_preset)
{
	FILE *fp = file_open_regular(path);
	if (!fp && errno == ENOENT && !strchr(path, '/') && !strchr(path, '.')) {
		/* A name no preset can have: the loader says why (and names the
		 * file of that name on the preset path), as -p does. */
		char why[PRESET_ERR_MAX];
		struct params p;
		if (!preset_name_ok(path) && preset_load(path, &p, NULL, why, sizeof why) != GULLY_OK)
			cli_error("%s: no such file, and %s", path, why);
		else
			cli_error("%s: no such file, and no preset by that name (see '%s presets')",
				  path, cli_program);
		return 1;
	}
	if (!fp) {
		cli_error("%s: cannot open: %s", path, file_strerror(errno));
		return 1;
	}
	struct world *w;
	struct snapshot_info info;
	struct snapshot_report rep;
	char err[512];
	int e = snapshot_read(fp, path, SNAPSHOT_KEEP_BAD_CRC | SNAPSHOT_KEEP_BAD_VALUES, &w, &info, &rep, err, sizeof err);
	fclose(fp);
	if (e) {
		cli_error("%s", err);
		return 1;
	}
	print_header(path, w, &info, &rep);
	print_params_changed(&info.params);
	print_terrain_source(w, &info, &rep);
	print_preset(&info, show_preset);
	if (info.state)
		printf("process state:    %zu bytes\n", info.state_len);
	else
		printf("process state:    none\n");
	if (info.state && strcmp(info.process, sph_process.name) == 0)
		print_sph(&info);
	print_layers(w, &rep);
	/* Flushed before the bad layers are said, so the two read in order. */
	int status = cli_flush_stdout("the snapshot's summary");
	status |= report_bad_layers(path, w, &rep);
	snapshot_info_free(&info);
	world_destroy(w);
	return status;
}

static const struct option info_longopts[] = {
	{"preset", no_argument, NULL, 'p'},
	{"help", no_argument, NULL, OPT_HELP},
	{"version", no_argument, NULL, OPT_VERSION},
	{NULL, 0, NULL, 0},
};
static const struct cli_value info_values[] = {{NULL, CLI_VALUE_NONE, NULL}};
/* FILE: a snapshot, or a preset by its name or file. */
const struct cli_options info_options = {"h", info_longopts, info_values, NULL, CLI_VALUE_PRESET,
					  NULL};

int cmd_info(int argc, char **argv)
{
	const struct option *longopts = info_longopts;
	bool show_preset = false;
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, info_options.shortopts, longopts, NULL)) != -1) {
		if (opt == 'p') {
			show_preset = true;
			continue;
		}
		if (opt == OPT_HELP || opt == 'h') {
			usage(stdout);
			return 0;
		}
		if (opt == OPT_VERSION) {
			cli_print_version(stdout);
			return 0;
		}
		return cli_bad_option(CMD, opt, argv, longopts);
	}
	if (optind >= argc)
		return cli_usage_error(CMD, "which file? (info FILE)");
	if (optind + 1 < argc)
		return cli_usage_error(CMD, "one file at a time ('%s' is extra)", argv[optind + 1]);
	const char *path = argv[optind];
	/* A preset (a .yaml file or a name on the preset path) shows its values. */
	if (info_is_preset(path))
		return info_preset(path, false);
	int status = cli_heightmap_not_snapshot(CMD, path, "MAP.gsnap",
						"a height map becomes one with");
	return status ? status : info_snapshot(path, show_preset);
}
