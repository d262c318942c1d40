/* What one explorer frame's shading costs (bench/TUI.md): a hydrology world
 * of SIZE x SIZE cells after some droplets (streams to draw), shaded into a
 * frame of PW x PH pixels (the map of a 160x48 terminal: 128 x 94) with the
 * explorer's overlays (streams and pools), FRAMES times. Prints CPU ms per
 * frame, each frame's and the median, and a hash of the pixels, so two
 * builds can be shown to draw the same frame.
 *   bench_shade [SIZE [PW PH [FRAMES [DROPLETS]]]]
 * defaults 4096, 128 x 94, 20 frames, 20000 droplets. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchutil.h"
#include "core/base/params.h"
#include "core/base/process.h"
#include "core/base/world.h"
#include "core/terrain/terrain.h"
#include "view/shade.h"

/* FNV-1a over the frame's colours and water kinds. */
static uint64_t frame_hash(const struct shade_frame *f)
{
	uint64_t h = 1469598103934665603ull;
	const size_t n = (size_t)f->width * (size_t)f->height;
	for (size_t i = 0; i < n; i++) {
		const uint8_t b[4] = {f->px[i].r, f->px[i].g, f->px[i].b, f->water[i]};
		h = bench_fnv(h, b, sizeof b);
	}
	return h;
}

int main(int argc, char **argv)
{
	const int size = argc > 1 ? atoi(argv[1]) : 4096;
	const int pw = argc > 3 ? atoi(argv[2]) : 128, ph = argc > 3 ? atoi(argv[3]) : 94;
	const int frames = argc > 4 ? atoi(argv[4]) : 20;
	const long droplets = argc > 5 ? atol(argv[5]) : 20000;
	if (size < 16 || size > 4096 || pw < 1 || ph < 1 || frames < 1 || frames > 1000 ||
	    droplets < 0) {
		fprintf(stderr, "usage: bench_shade [SIZE 16..4096 [PW PH [FRAMES 1..1000 "
				"[DROPLETS]]]]\n");
		return 2;
	}
	struct params p;
	params_defaults(&p);
	p.world.width = p.world.height = size;
	const struct process_ops *proc = process_find("hydrology");
	struct world *w;
	void *st;
	if (!proc || world_from_params(&w, &p) || proc->create(&st, w, &p) ||
	    proc->step(st, w, &p, (uint64_t)droplets, NULL)) {
		fprintf(stderr, "bench_shade: cannot make the world\n");
		return 1;
	}
	struct shade_view v;
	memset(&v, 0, sizeof v);
	shade_view_from_params(&v, &p);
	v.overlays = OVERLAY_BIT(OVERLAY_STREAMS) | OVERLAY_BIT(OVERLAY_POOLS);
	struct shade_frame f;
	double *ms = malloc((size_t)frames * sizeof *ms);
	if (!ms || shade_frame_init(&f, pw, ph)) {
		fprintf(stderr, "bench_shade: out of memory\n");
		return 1;
	}
	uint64_t hash = 0;
	for (int k = 0; k < frames; k++) {
		const double t0 = bench_cpu_seconds();
		shade_render(&f, w, &v, NULL, 0);
		ms[k] = (bench_cpu_seconds() - t0) * 1e3;
		hash = frame_hash(&f);
		printf("frame %d: %.2f ms CPU\n", k, ms[k]);
	}
	qsort(ms, (size_t)frames, sizeof *ms, bench_cmp_double);
	printf("%dx%d map, %dx%d pixels: median %.2f ms CPU a frame over %d, pixels %016llx\n",
	       size, size, pw, ph, ms[frames / 2], frames, (unsigned long long)hash);
	free(ms);
	shade_frame_free(&f);
	proc->destroy(st);
	world_destroy(w);
	return 0;
}
