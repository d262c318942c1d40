/* gully render: one layer of a snapshot as a picture or raw height map. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config.h"
#include "cli/picture.h"
#include "io/image.h"
#include "io/snapshot.h"
#include "view/shade.h"

#define CMD "render"

/* "height|base|..." from the world's own list, for help and messages. */
const char *cli_layer_names(void)
{
	static char names[256];
	if (!names[0])
		for (int i = 0; i < LAYER_COUNT; i++) {
			if (i)
				strcat(names, "|");
			strcat(names, world_layer_name((enum world_layer)i));
		}
	return names;
}

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: %s render SNAPSHOT -o OUT [--layer NAME] [--overlay LIST]\n\n"
		"Writes one layer of a snapshot, the format chosen by OUT's extension:\n"
		"  .png, .ppm  colour, as the explorer shows it at 1:1: its height ramp,\n"
		"              lit from view.azimuth/view.altitude, with the overlays\n"
		"  .pgm        16-bit greyscale, the layer's min..max stretched to 0..65535\n"
		"  .r16        16-bit little-endian raw, normalised the same way\n"
		"  .f32        raw float32 little-endian, the values as they are\n\n"
		"Options:\n"
		"  -o, --output OUT     the file to write (required)\n"
		"  --layer NAME         %s (default height)\n"
		"  --overlay LIST       pictures: overlays drawn on top, comma-separated:\n"
		"                       streams,pools,erosion,hardness,wetness,vegetation\n"
		"                       (default none)\n"
		"  --help, --version\n", cli_program, cli_layer_names());
}

int cmd_render(int argc, char **argv)
{
	enum { OPT_LAYER = 0x200, OPT_OVERLAY };
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"layer", required_argument, NULL, OPT_LAYER},
		{"overlay", required_argument, NULL, OPT_OVERLAY},
		{"help", no_argument, NULL, OPT_HELP},
		{"version", no_argument, NULL, OPT_VERSION},
		{NULL, 0, NULL, 0},
	};
	const char *out = NULL, *layer_name = "height";
	unsigned overlays = 0;
	char oerr[128];
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_HELP:
			usage(stdout);
			return 0;
		case OPT_VERSION:
			printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return 0;
		case 'o':
			out = optarg;
			break;
		case OPT_LAYER:
			layer_name = optarg;
			break;
		case OPT_OVERLAY:
			if (shade_overlays_parse(optarg, &overlays, oerr, sizeof oerr))
				return cli_usage_error(CMD, "--overlay: %s", oerr);
			break;
		default: /* '?' or ':' */
			return cli_bad_option(CMD, opt, argv);
		}
	}
	if (optind >= argc)
		return cli_usage_error(CMD, "which snapshot? (render SNAPSHOT -o OUT)");
	if (optind + 1 < argc)
		return cli_usage_error(CMD, "one snapshot at a time ('%s' is extra)", argv[optind + 1]);
	if (!out)
		return cli_usage_error(CMD, "-o OUT is required");
	if (image_format_from_path(out) == IMAGE_NONE)
		return cli_usage_error(CMD, "-o '%s': unknown extension (one of %s)", out,
				       image_format_names());
	int layer = world_layer_find(layer_name);
	if (layer < 0)
		return cli_usage_error(CMD, "--layer: no layer named '%s' (one of %s)", layer_name,
				       cli_layer_names());

	struct world *w;
	struct snapshot_info info;
	char err[512];
	if (snapshot_load(argv[optind], &w, &info, err, sizeof err)) {
		cli_error("%s", err);
		return 1;
	}
	int status = 0;
	if (picture_export_view(out, w, layer, &info.params, overlays, err, sizeof err)) {
		cli_error("%s", err);
		status = 1;
	}
	snapshot_info_free(&info);
	world_destroy(w);
	return status;
}
