/* The seed's own algorithms (seedref.h) run on a terrain, and fidelity
 * measures between runs (fidcompare.h); bench/FIDELITY.md and
 * bench/fidelity.sh use it.
 *
 *   bench_fidelity hydrology BEFORE.f32 SEED DROPLETS OUT.f32
 *       SimpleHydrology 2020 (the yardstick) from BEFORE with srand(SEED);
 *       writes height then pool (two layers, as the reference file) and
 *       prints CPU seconds, steps, flood calls and fills.
 *   bench_fidelity erosion BEFORE.f32 SEED DROPLETS OUT.f32
 *       SimpleErosion from BEFORE; writes the height.
 *   bench_fidelity measure BEFORE.f32 AFTER[.f32] [AFTER ...]
 *       one line per AFTER: eroded, deposited, pool cells and volume, edge
 *       pool cells, big edge lakes, and against the first AFTER the
 *       correlation of the height change (plain, blurred), pool overlap
 *       (IoU) and eroded ratio.
 * An AFTER is a file of one layer (height) or two (height then pool), or
 * HEIGHT.f32+POOL.f32. Maps are square float32 (gully's layout). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fidcompare.h"
#include "seedref.h"

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Reads a whole float32 file; *count gets its number of floats. */
static float *read_f32(const char *path, size_t *count)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "bench_fidelity: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	float *buf = NULL;
	if (fseek(f, 0, SEEK_END) == 0) {
		long len = ftell(f);
		if (len > 0 && len % 4 == 0 && fseek(f, 0, SEEK_SET) == 0) {
			buf = malloc((size_t)len);
			if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
				free(buf);
				buf = NULL;
			}
			*count = (size_t)len / 4;
		}
	}
	fclose(f);
	if (!buf)
		fprintf(stderr, "bench_fidelity: %s: not a float32 map\n", path);
	return buf;
}

static int write_f32(const char *path, const float *a, const float *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(a, 4, n, f) != n || (b && fwrite(b, 4, n, f) != n)) {
		fprintf(stderr, "bench_fidelity: cannot write %s\n", path);
		if (f)
			fclose(f);
		return 1;
	}
	return fclose(f) != 0;
}

static int side_of(size_t n)
{
	int s = (int)sqrt((double)n);
	return (size_t)s * (size_t)s == n ? s : 0;
}

/* An AFTER argument: height, and pool or NULL. */
static int load_after(const char *arg, size_t n, float **height, float **pool)
{
	char *copy = strdup(arg), *plus = copy ? strchr(copy, '+') : NULL;
	size_t c1 = 0, c2 = 0;
	*pool = NULL;
	if (plus)
		*plus = '\0';
	*height = copy ? read_f32(copy, &c1) : NULL;
	if (*height && plus)
		*pool = read_f32(plus + 1, &c2);
	free(copy);
	if (!*height || (plus && (!*pool || c2 != n)) || (c1 != n && c1 != 2 * n)) {
		fprintf(stderr, "bench_fidelity: %s: not %zu or %zu floats\n", arg, n, 2 * n);
		return 1;
	}
	if (c1 == 2 * n)
		*pool = *height + n;
	return 0;
}

static int cmd_run(int argc, char **argv, int hydrology)
{
	if (argc != 6)
		return 2;
	size_t n = 0;
	float *h = read_f32(argv[2], &n);
	int side = h ? side_of(n) : 0;
	if (!side)
		return 1;
	unsigned seed = (unsigned)strtoul(argv[3], NULL, 10);
	uint64_t droplets = strtoull(argv[4], NULL, 10);
	float *pool = calloc(n, sizeof *pool);
	struct seedref_counts c;
	double t0 = cpu_now();
	int err;
	if (hydrology) {
		struct seedref_hydrology_params p;
		seedref_hydrology_defaults(&p);
		err = !pool || seedref_hydrology(h, pool, NULL, side, side, droplets, seed, &p, &c);
	} else {
		struct seedref_erosion_params p;
		seedref_erosion_defaults(&p);
		err = seedref_erosion(h, side, side, droplets, seed, &p, &c);
	}
	double t = cpu_now() - t0;
	if (err)
		return 1;
	printf("cpu_s\t%.3f\tsteps\t%llu\tns_per_step\t%.2f\tfloods\t%llu\tfills\t%llu"
	       "\tfill_cells\t%llu\ttrees\t%llu\n",
	       t, (unsigned long long)c.steps, 1e9 * t / (double)c.steps,
	       (unsigned long long)c.floods, (unsigned long long)c.fills,
	       (unsigned long long)c.fill_cells, (unsigned long long)c.trees);
	err = write_f32(argv[5], h, hydrology ? pool : NULL, n);
	free(h);
	free(pool);
	return err;
}

static int cmd_measure(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	size_t n = 0;
	float *before = read_f32(argv[2], &n);
	int side = before ? side_of(n) : 0;
	if (!side)
		return 1;
	float *h0 = NULL, *p0 = NULL;
	printf("run\teroded\tdeposited\tpool_cells\tpool_volume\tedge_pool_cells\tbig_edge_lakes"
	       "\tpools\tsmall_pools\tcorr\tcorr_blur3\tpool_iou\teroded_ratio\n");
	for (int a = 3; a < argc; a++) {
		float *h, *p;
		struct fid_run r;
		struct fid_pair q = {1, 1, 1, 1};
		if (load_after(argv[a], n, &h, &p) ||
		    fid_run_measure(before, h, p, side, side, &r) ||
		    (a > 3 && fid_pair_measure(before, h, p, h0, p0, side, side, &q)))
			return 1;
		printf("%s\t%.1f\t%.1f\t%zu\t%.2f\t%zu\t%zu\t%zu\t%zu\t%.3f\t%.3f\t%.3f\t%.3f\n",
		       argv[a], r.eroded, r.deposited, r.pool_cells, r.pool_volume,
		       r.edge_pool_cells, r.big_edge_lakes, r.pools, r.small_pools, q.corr, q.corr_blur, q.iou, q.eroded_ratio);
		if (a == 3) {
			h0 = h;
			p0 = p;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 2;
	if (argc >= 2 && strcmp(argv[1], "hydrology") == 0)
		rc = cmd_run(argc, argv, 1);
	else if (argc >= 2 && strcmp(argv[1], "erosion") == 0)
		rc = cmd_run(argc, argv, 0);
	else if (argc >= 2 && strcmp(argv[1], "measure") == 0)
		rc = cmd_measure(argc, argv);
	if (rc == 2)
		fprintf(stderr, "usage: bench_fidelity hydrology|erosion BEFORE SEED DROPLETS OUT\n"
				"       bench_fidelity measure BEFORE AFTER [AFTER ...]\n");
	return rc;
}
