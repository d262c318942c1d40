/* Fuzz target: the snapshot loader (libFuzzer entry point; replay.c runs it
 * over the seed corpus). snapshot_load reads a path, so each input goes
 * through one temporary file, rewritten per run. A load must fail cleanly or
 * give a world whose size is in range and whose layers are all there. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/process.h"
#include "core/base/world.h"
#include "io/snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[256];

static void cleanup(void)
{
	if (path[0])
		unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!path[0]) {
		const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(path, sizeof path, "%s/gully-fuzz-snap-XXXXXX", dir);
		int fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
		atexit(cleanup);
	}
	FILE *fp = fopen(path, "wb");
	if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
		abort();
	struct world *w = NULL;
	struct snapshot_info info;
	memset(&info, 0, sizeof info);
	char err[512] = "";
	int rc = snapshot_load(path, &w, &info, err, sizeof err);
	if (rc) {
		if (w || !err[0] || strchr(err, '\n')) {
			fprintf(stderr, "fuzz_snapshot: bad failure: '%s'\n", err);
			abort();
		}
		return 0;
	}
	if (!w || w->width < world_size_min() || w->height < world_size_min() ||
	    w->width > world_size_max() || w->height > world_size_max())
		abort();
	/* Touch every cell of every layer: ASan catches a short allocation. */
	size_t cells = (size_t)w->width * (size_t)w->height;
	volatile float sum = 0;
	for (int l = 0; l < LAYER_COUNT; l++)
		for (size_t i = 0; i < cells; i += 97)
			sum += w->layer[l][i] + w->layer[l][cells - 1];
	(void)sum;
	/* The process state: refused cleanly, or taken and given back byte for
	 * byte (particles' droplets in flight, hydrology's trees, ...). */
	const struct process_ops *ops = process_find(info.process);
	if (ops && info.state && ops->load_state) {
		void *st = NULL;
		if (ops->create(&st, w, &info.params) == 0) {
			if (ops->load_state(st, info.state, info.state_len) == 0 && ops->save_state) {
				unsigned char *again = NULL;
				size_t len = 0;
				if (ops->save_state(st, &again, &len) == 0 &&
				    (len != info.state_len || memcmp(again, info.state, len) != 0)) {
					fprintf(stderr, "fuzz_snapshot: %s state does not round-trip\n",
						info.process);
					abort();
				}
				free(again);
			}
			ops->destroy(st);
		}
	}
	snapshot_info_free(&info);
	world_destroy(w);
	return 0;
}
