/* A height map as the starting terrain, for `gully run map.r16` and the
 * explorer (`gully map.r16`): read with the options, sized, said. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "io/image.h"

int heightmap_read(const struct sim_options *o, const char *cmd, const char *path,
		   struct params *p, struct heightmap *hm)
{
	memset(hm, 0, sizeof *hm);
	struct image_read_opts ro = {
		.width = o->width, .height = o->height, .transpose = o->transpose,
		.range_set = o->range_set, .range_min = o->range_min, .range_max = o->range_max,
	};
	if (image_format_from_path(path) == IMAGE_F32 && o->range_set)
		return cli_usage_error(cmd, "--range: %s holds the heights themselves (float32)", path);
	char err[512];
	struct image_read_info info;
	if (image_import_grid_opts(path, world_size_min(), &ro, &hm->width, &hm->height,
				   &hm->heights, &info, err, sizeof err)) {
		cli_error("%s", err);
		return 1;
	}
	/* Or the run writes a snapshot its own loader refuses. */
	if (image_check_heights(path, hm->heights, hm->width, hm->height, err, sizeof err)) {
		cli_error("%s", err);
		heightmap_free(hm);
		return 1;
	}
	if (params_set(p, params_find("world.width"), hm->width) ||
	    params_set(p, params_find("world.height"), hm->height)) {
		cli_error("%s: a %dx%d map is larger than world.width and world.height allow", path,
			  hm->width, hm->height);
		heightmap_free(hm);
		return 1;
	}
	if (!o->quiet)
		fprintf(stderr, "%s: read %dx%d %s heights%s, range %.9g to %.9g\n", path,
			hm->width, hm->height, info.is_float ? "float32" : info.bits == 16 ? "16-bit" : "8-bit",
			o->transpose ? " (transposed)" : "", info.min, info.max);
	return 0;
}

void heightmap_free(struct heightmap *hm)
{
	free(hm->heights);
	hm->heights = NULL;
}
