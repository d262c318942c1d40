/* The channel a jet cut, from snapshots (bench/SPH.md, "Channels"): for each
 * .gsnap, the columns along x cut at least 0.1 cells deep within 4 rows of
 * the first jet's axis, their mean depth and the deepest cut, by the measure
 * tests/sph_channel.h gives the tests. Depth is base - height, in cells.
 *
 *   gully run --process sph -p sph-horizontal-jet --steps 2000 -o one.gsnap
 *   gully run --process sph -p sph-two-jets --steps 2000 -o two.gsnap
 *   bench/sph_channel one.gsnap two.gsnap */
#include <stdio.h>

#include "core/base/world.h"
#include "io/snapshot.h"
#include "sph_channel.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s SNAPSHOT.gsnap...\n", argv[0]);
		return 2;
	}
	printf("snapshot\tsteps\tjets\tx0\tx1\tlength\tmean_depth\tmax_depth\n");
	for (int a = 1; a < argc; a++) {
		struct world *w;
		struct snapshot_info info;
		char err[256];
		if (snapshot_load(argv[a], &w, &info, err, sizeof err)) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		const struct params_sph *p = &info.params.sph;
		int jets = p->jet1_on + p->jet2_on + p->jet3_on + p->jet4_on;
		int axis = (int)(p->jet1_y * w->height);
		struct sph_channel c =
			sph_channel_measure(w->layer[LAYER_BASE], w->layer[LAYER_HEIGHT], w->width,
					    w->height, info.params.terrain.vertical_scale, axis);
		printf("%s\t%llu\t%d\t%d\t%d\t%d\t%.3f\t%.3f\n", argv[a],
		       (unsigned long long)w->steps, jets, c.x0, c.x1, c.length, c.mean_depth,
		       c.max_depth);
		snapshot_info_free(&info);
		world_destroy(w);
	}
	return 0;
}
