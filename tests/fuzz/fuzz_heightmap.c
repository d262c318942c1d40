/* Fuzz target: the height-map importer. The first byte picks the format
 * (.pgm, .r16, .f32, .png) and the second a map side for the resampling; the
 * rest is the file, written to a temporary path with that extension (the
 * importer reads paths). Oracles: a failure is one line naming the file and
 * gives no data; a height map (image_import) has every cell finite and in
 * the height layer's range; any grid (image_import_grid, as --hardness
 * reads it) resampled onto a map as a hardness layer has every cell in
 * [0, 1]. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/terrain/hardness.h"
#include "core/base/world.h"
#include "io/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const exts[] = {"pgm", "r16", "f32", "png"};
#define NEXTS (sizeof exts / sizeof exts[0])
static char paths[NEXTS][256];

static void cleanup(void)
{
	for (size_t i = 0; i < NEXTS; i++)
		if (paths[i][0])
			unlink(paths[i]);
}

static const char *path_for(size_t fmt)
{
	if (!paths[fmt][0]) {
		const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(paths[fmt], sizeof paths[fmt], "%s/gully-fuzz-map-%ld.%s", dir,
			 (long)getpid(), exts[fmt]);
		static int registered;
		if (!registered++)
			atexit(cleanup);
	}
	return paths[fmt];
}

static void check_failure(int rc, const float *v, const char *err, const char *path)
{
	if (rc && (v || !err[0] || strchr(err, '\n') || strncmp(err, path, strlen(path)) != 0)) {
		fprintf(stderr, "fuzz_heightmap: bad failure: '%s'\n", err);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	size_t fmt = data[0] % NEXTS;
	int side = world_size_min() + data[1] % 49;
	const char *path = path_for(fmt);
	FILE *fp = fopen(path, "wb");
	if (!fp || fwrite(data + 2, 1, size - 2, fp) != size - 2 || fclose(fp) != 0)
		abort();

	char err[512] = "";
	int w = 0, h = 0;
	float *v = NULL;
	int rc = image_import(path, &w, &h, &v, err, sizeof err);
	check_failure(rc, v, err, path);
	if (!rc) {
		float mn, mx;
		world_layer_range(LAYER_HEIGHT, &mn, &mx);
		if (w < world_size_min() || h < world_size_min() || w > world_size_max() || h > world_size_max())
			abort();
		for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
			if (!(v[i] >= mn && v[i] <= mx)) {
				fprintf(stderr, "fuzz_heightmap: height cell %zu is %g\n", i, (double)v[i]);
				abort();
			}
		free(v);
	}

	err[0] = '\0';
	v = NULL;
	rc = image_import_grid(path, 1, &w, &h, &v, err, sizeof err);
	check_failure(rc, v, err, path);
	if (rc)
		return 0;
	struct world *world;
	if (world_create(&world, side, side + (data[1] & 7)) != 0)
		abort();
	if (hardness_fill_from(world, v, w, h) == 0) {
		const float *d = world->layer[LAYER_HARDNESS];
		for (size_t i = 0; i < world_cells(world); i++)
			if (!(d[i] >= 0.0f && d[i] <= 1.0f)) {
				fprintf(stderr, "fuzz_heightmap: hardness cell %zu is %g\n", i,
					(double)d[i]);
				abort();
			}
	}
	world_destroy(world);
	free(v);
	return 0;
}
