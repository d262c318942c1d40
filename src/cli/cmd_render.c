/* gully render: one layer of a snapshot as a picture or raw height map, a
 * data layer (erosion, deposition, flow) on its own ramp, or the shaded map
 * as terminal text (--ansi). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/run_output.h"
#include "cli/render_ansi.h"
#include "config.h"
#include "cli/picture.h"
#include "io/image.h"
#include "io/snapshot.h"
#include "term/tier.h"
#include "view/datamap.h"
#include "view/shade.h"

#define CMD "render"

const char *cli_layer_name(int index, void *ctx)
{
	(void)ctx;
	if (index >= 0 && index < LAYER_COUNT)
		return world_layer_name((enum world_layer)index);
	index -= LAYER_COUNT;
	return index >= 0 && index < DATAMAP_COUNT ? datamap_name(index) : NULL;
}

/* "height|base|...|erosion|deposition|flow", for help and messages. */
const char *cli_layer_names(void)
{
	static char names[256];
	if (!names[0])
		cli_join_names(names, sizeof names, "|", cli_layer_name, NULL);
	return names;
}

const char *cli_overlay_name(int index, void *ctx)
{
	(void)ctx;
	for (int o = 0; o < OVERLAY_COUNT; o++)
		if (shade_overlay_listed(o) && index-- == 0)
			return shade_overlay_name(o);
	return NULL;
}

/* --colors' values: a 256-colour terminal's, or every colour (as --colors
 * 24bit, COLORTERM's word for it); po.colors is 256 or 0. */
static const char *const render_colors[] = {"256", "truecolor"};

static const char *render_colors_name(int index, void *ctx)
{
	(void)ctx;
	return index >= 0 && index < (int)(sizeof render_colors / sizeof render_colors[0])
		       ? render_colors[index] : NULL;
}

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: %s render SNAPSHOT -o OUT [-o OUT...] [--layer NAME] [options]\n"
		"       %s render SNAPSHOT --ansi[=TIER] [--layer NAME] [--overlay LIST]\n\n"
		"Writes one layer of a snapshot, the format chosen by OUT's extension:\n"
		"  .png, .ppm  colour, as the explorer shows it at 1:1: its height ramp,\n"
		"              lit from view.azimuth/view.altitude, with the overlays;\n"
		"              erosion, deposition and flow on their own ramps with a\n"
		"              legend bar (min left, max right) under the map\n"
		"  .pgm        16-bit greyscale, the layer's min..max (or --range)\n"
		"              stretched to 0..65535\n"
		"  .r16        16-bit little-endian raw, stretched the same way\n"
		"  .f32        raw float32 little-endian, the values as they are\n"
		"The range a 16-bit file was stretched over is printed on stderr, as the\n"
		"--range that reads it back (`gully run OUT.r16 --range MIN:MAX`).\n\n"
		"Options:\n"
		"  -o, --output OUT     a file to write; repeatable\n"
		"  --layer NAME         the layer to write (default height), one of\n", cli_program,
		cli_program);
	/* The names, cut at a '|' to stay within 80 columns. */
	const char *names = cli_layer_names();
	int col = 0;
	while (*names) {
		size_t n = strcspn(names, "|");
		if (col == 0)
			col = fprintf(fp, "%*s", 23, "");
		else if (col + 2 + (int)n > 80)
			col = fprintf(fp, "|\n%*s", 23, "") - 2;
		else
			col += fprintf(fp, "|");
		col += fprintf(fp, "%.*s", (int)n, names);
		names += n + (names[n] == '|');
	}
	fprintf(fp, ";\n"
		"                       erosion = base - height, deposition = height -\n"
		"                       base (positive parts), flow = the stream map\n"
		"  --gray16             .png outputs: 16-bit greyscale of the layer, not a\n"
		"                       picture (what most engines import)\n"
		"  --range MIN:MAX      16-bit formats: MIN..MAX onto 0..65535 (clamped)\n"
		"  --scale N            pictures: each cell as NxN pixels (1 to 16)\n"
		"  --colors 256         pictures: the colours a 256-colour terminal shows\n"
		"                       (the explorer's half blocks), to compare with truecolor\n"
		"  --overlay LIST       pictures: overlays drawn on top, comma-separated:\n"
		"                       streams,pools,erosion,hardness,wetness,vegetation\n"
		"                       (default none)\n"
		"  --ansi[=TIER]        print the layer to stdout as coloured text, in the\n"
		"                       colours of its picture (a data layer with a\n"
		"                       legend line): " TERM_TIER_NAMES ",\n"
		"                       as the explorer's --color (default: the terminal's,\n"
		"                       as the explorer picks it); ASCII when the locale is\n"
		"                       not UTF-8\n"
		"  --columns N          --ansi: characters wide (default: the terminal's)\n"
		"  --help, --version\n");
}

struct render_args {
	const char **outs;
	int nouts;
	const char *layer_name;
	struct picture_opts po;
	bool ansi, colors_set;
	int tier, columns;
};

/* What a data layer's colours stand for, as its legend cannot say. */
static void ramp_note(const char *out, const char *layer, float mn, float mx)
{
	fprintf(stderr, "%s: %s ramp from %.9g (left of the legend) to %.9g\n", out, layer, mn,
		mx);
}

/* The map as text on stdout, the layer as a picture would draw it. */
static int render_text(const struct world *w, const struct params *p,
		       const struct render_args *a)
{
	struct render_ansi_opts ro = {.layer = a->layer_name, .overlays = a->po.overlays,
				      .tier = a->tier, .columns = a->columns,
				      .utf8 = term_locale_utf8()};
	float mn, mx;
	int status = render_ansi(stdout, w, p, &ro, &mn, &mx);
	status |= cli_flush_stdout("the map");
	if (!status && datamap_find(a->layer_name) >= 0)
		ramp_note("--ansi", a->layer_name, mn, mx);
	return status;
}

/* One file; a 16-bit one says the range it stretched over, a data picture
 * its ramp's. */
static int render_one(const char *out, const struct world *w, const struct params *p,
		      const struct render_args *a)
{
	char err[512];
	struct image_span span = {0};
	float mn, mx;
	if (picture_export_named(out, w, a->layer_name, p, &a->po, &span, &mn, &mx, err,
				 sizeof err)) {
		cli_error("%s", err);
		return 1;
	}
	int fmt = image_format_from_path(out);
	bool picture = (fmt == IMAGE_PNG && !a->po.values.grey16) || fmt == IMAGE_PPM;
	if (span.stretched)
		picture_span_note(out, a->layer_name, &span);
	else if (picture && datamap_find(a->layer_name) >= 0)
		ramp_note(out, a->layer_name, mn, mx);
	if (picture && (a->po.overlays & OVERLAY_BIT(OVERLAY_EROSION)))
		fprintf(stderr, "%s: erosion overlay at full colour from a height change of %.3g "
			"(about the 99th percentile of the map's changes)\n", out, shade_erosion_fit(w));
	return 0;
}

static const struct option render_longopts[] = {
	{"output", required_argument, NULL, 'o'},
	{"layer", required_argument, NULL, 'l'},
	{"overlay", required_argument, NULL, 'O'},
	{"gray16", no_argument, NULL, 'g'},
	{"grey16", no_argument, NULL, 'g'},
	{"range", required_argument, NULL, 'r'},
	{"scale", required_argument, NULL, 's'},
	{"colors", required_argument, NULL, 'C'},
	{"colours", required_argument, NULL, 'C'},
	{"ansi", optional_argument, NULL, 'a'},
	{"columns", required_argument, NULL, 'c'},
	{"help", no_argument, NULL, OPT_HELP},
	{"version", no_argument, NULL, OPT_VERSION},
	{NULL, 0, NULL, 0},
};
static const struct cli_value render_values[] = {
	{"output", CLI_VALUE_FILE, NULL},
	{"layer", CLI_VALUE_NAME, cli_layer_name},
	{"overlay", CLI_VALUE_NAME_LIST, cli_overlay_name},
	{"colors", CLI_VALUE_NAME, render_colors_name},
	{"colours", CLI_VALUE_NAME, render_colors_name},
	{"ansi", CLI_VALUE_NAME, cli_tier_name},
	{NULL, CLI_VALUE_NONE, NULL},
};
const struct cli_options render_options = {":ho:", render_longopts, render_values, NULL,
					   CLI_VALUE_FILE, NULL};

static int take_option(struct render_args *a, int opt, const char *arg, char **argv)
{
	char oerr[128];
	uint64_t n;
	switch (opt) {
	case 'o': {
		const char **no = realloc(a->outs, (size_t)(a->nouts + 1) * sizeof *no);
		if (!no)
			return cli_usage_error(CMD, "out of memory");
		a->outs = no;
		a->outs[a->nouts++] = arg;
		return 0;
	}
	case 'l':
		a->layer_name = arg;
		return 0;
	case 'O':
		if (shade_overlays_parse(arg, &a->po.overlays, oerr, sizeof oerr))
			return cli_usage_error(CMD, "--overlay: %s", oerr);
		return 0;
	case 'g':
		a->po.values.grey16 = true;
		return 0;
	case 'r':
		if (!parse_range(arg, &a->po.values.range_min, &a->po.values.range_max))
			return cli_usage_error(CMD, "--range: '%s' is not MIN:MAX with MIN < MAX, both "
						  "float32 numbers (within 3.4e38)", arg);
		a->po.values.range_set = true;
		return 0;
	case 's':
		if (!parse_u64(arg, &n) || n < 1 || n > 16)
			return cli_usage_error(CMD, "--scale: '%s' is not a whole number from 1 to 16", arg);
		a->po.scale = (int)n;
		return 0;
	case 'C':
		a->colors_set = true;
		if (strcmp(arg, render_colors[0]) == 0)
			a->po.colors = 256;
		else if (strcmp(arg, render_colors[1]) == 0 || strcmp(arg, "24bit") == 0)
			a->po.colors = 0;
		else
			return cli_usage_error(CMD, "--colors: '%s' is not %s or %s", arg,
					       render_colors[0], render_colors[1]);
		return 0;
	case 'a':
		a->ansi = true;
		if ((a->tier = render_ansi_tier(arg)) < 0)
			return cli_usage_error(CMD, "--ansi=%s: not " TERM_TIER_NAMES,
					       cli_quote(arg));
		return 0;
	case 'c':
		if (!parse_u64(arg, &n) || n < 2 || n > 10000)
			return cli_usage_error(CMD, "--columns: '%s' is not a width from 2 to 10000", arg);
		a->columns = (int)n;
		return 0;
	default: /* '?' or ':' */
		return cli_bad_option(CMD, opt, argv, render_longopts);
	}
}

/* The options only some outputs use, each refused when none given uses it:
 * dropping one without a word draws something else than was asked for. */
static int check_uses(const struct render_args *a)
{
	bool picture = false, sixteen = false, png = false;
	for (int i = 0; i < a->nouts; i++) {
		int f = image_format_from_path(a->outs[i]);
		png |= f == IMAGE_PNG;
		picture |= (f == IMAGE_PNG && !a->po.values.grey16) || f == IMAGE_PPM;
		sixteen |= (f == IMAGE_PNG && a->po.values.grey16) || f == IMAGE_PGM ||
			   f == IMAGE_R16;
	}
	bool data = datamap_find(a->layer_name) >= 0;
	if (a->po.values.grey16 && !png)
		return cli_usage_error(CMD, "--gray16 is for a .png output");
	if (a->po.scale && !picture)
		return cli_usage_error(CMD, "--scale is for a picture: -o FILE.png or FILE.ppm%s",
				       a->ansi ? " (--ansi fits the map to --columns)" : "");
	if (a->po.values.range_set && !sixteen)
		return cli_usage_error(CMD, "--range is for a 16-bit output: -o FILE.pgm, "
				       "FILE.r16, or FILE.png with --gray16");
	if (a->colors_set && !picture)
		return cli_usage_error(CMD, "--colors is for a picture: -o FILE.png or FILE.ppm%s",
				       a->ansi ? " (--ansi=256 picks --ansi's colours)" : "");
	if ((a->colors_set || a->po.overlays) && data)
		return cli_usage_error(CMD, "--%s is not for a data layer's own ramp (--layer %s)",
				       a->colors_set ? "colors" : "overlay", a->layer_name);
	if (a->columns && !a->ansi)
		return cli_usage_error(CMD, "--columns is for --ansi");
	return 0;
}

/* Everything about the outputs that can be wrong is found before loading:
 * the same checks of -o as run's, then the options the outputs use. */
static int check_args(const struct render_args *a)
{
	if (!a->nouts && !a->ansi)
		return cli_usage_error(CMD, "-o OUT or --ansi is required");
	if (world_layer_find(a->layer_name) < 0 && datamap_find(a->layer_name) < 0)
		return cli_usage_error(CMD, "--layer: no layer named '%s' (one of %s)", a->layer_name,
				       cli_layer_names());
	/* --ansi draws the overlays too, so they need no picture file then. */
	struct output_rules r = {.grey16 = a->po.values.grey16,
				 .overlays = a->po.overlays && !a->ansi};
	int status = outputs_check(CMD, a->outs, a->nouts, &r);
	return status ? status : check_uses(a);
}

int cmd_render(int argc, char **argv)
{
	struct render_args a = {.layer_name = "height"};
	int status = 0;
	optind = 1;
	opterr = 0;
	int opt;
	while (!status && (opt = getopt_long(argc, argv, render_options.shortopts, render_longopts, NULL)) != -1) {
		if (opt == OPT_HELP || opt == 'h' || opt == OPT_VERSION) {
			if (opt != OPT_VERSION)
				usage(stdout);
			else
				cli_print_version(stdout);
			free(a.outs);
			return 0;
		}
		status = take_option(&a, opt, optarg, argv);
	}
	if (!status && optind >= argc)
		status = cli_usage_error(CMD, "which snapshot? (render SNAPSHOT -o OUT)");
	if (!status && optind + 1 < argc)
		status = cli_usage_error(CMD, "one snapshot at a time ('%s' is extra)", argv[optind + 1]);
	if (!status)
		status = check_args(&a);
	/* A preset has no map yet: say how to picture the terrain it makes. */
	if (!status && !snapshot_is_name(argv[optind]) && info_is_preset(argv[optind]))
		status = cli_usage_error(CMD, "'%s' is a preset, not a snapshot: `%s run %s "
					 "--particles 0 -o OUT.png` pictures its terrain",
					 argv[optind], cli_program, argv[optind]);
	if (!status)
		status = cli_heightmap_not_snapshot(CMD, argv[optind], "OUT.png",
						    "a height map's terrain is pictured by");
	struct world *w = NULL;
	struct snapshot_info info;
	char err[512];
	if (!status && snapshot_load(argv[optind], &w, &info, err, sizeof err)) {
		cli_error("%s", err);
		status = 1;
	} else if (!status) {
		/* Before any output is written: a raw one named for another
		 * size would be read back wrong. */
		status = outputs_check_size(CMD, a.outs, a.nouts, w->width, w->height);
		const bool go = !status;
		for (int i = 0; go && i < a.nouts; i++)
			status |= render_one(a.outs[i], w, &info.params, &a);
		if (go && a.ansi)
			status |= render_text(w, &info.params, &a);
		snapshot_info_free(&info);
		world_destroy(w);
	}
	free(a.outs);
	return status;
}
