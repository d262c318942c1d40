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
 *   bench_fidelity picture OUT.png BEFORE.f32 AFTER [AFTER ...]
 *       side by side, one column per AFTER: on top the relief lit from
 *       the north-west with pools in blue (darker deeper), below the height
 *       change (red: eroded, green: deposited; full colour at 0.02).
 *   bench_fidelity lakes OUT.png BEFORE.f32 A [A ...] -- B [B ...]
 *       where two sets of runs (a build's droplet streams, say) make
 *       lakes: each cell's share of runs in which it is a pool, per set.
 *       Prints each set's cell-runs (the sum of the shares: its mean pool
 *       cells), by quarter of the map, and the mean overlap of the two
 *       (the sum of the lesser share); the picture is the relief in grey,
 *       set A's shares in red, set B's in blue (both: magenta).
 * An AFTER is a file of one layer (height) or two (height then pool), or
 * HEIGHT.f32+POOL.f32. Maps are square float32 (gully's layout). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <png.h>

#include "benchutil.h"
#include "fidcompare.h"
#include "seedref.h"

static float *read_f32(const char *path, size_t *count)
{
	return bench_read_f32("bench_fidelity", path, count);
}

static int write_f32(const char *path, const float *a, const float *b, size_t n)
{
	return bench_write_f32("bench_fidelity", path, a, b, n);
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
	double t0 = bench_cpu_seconds();
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
	double t = bench_cpu_seconds() - t0;
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

static void shade_px(unsigned char *px, const float *h, const float *pool, int side, int x,
		     int y)
{
	const size_t i = (size_t)y * (size_t)side + (size_t)x;
	const int xl = x > 0 ? x - 1 : x, xr = x < side - 1 ? x + 1 : x;
	const int yu = y > 0 ? y - 1 : y, yd = y < side - 1 ? y + 1 : y;
	const float dx = h[(size_t)y * side + xr] - h[(size_t)y * side + xl];
	const float dy = h[(size_t)yd * side + x] - h[(size_t)yu * side + x];
	/* Lit from the north-west, vertical scale 40. */
	double l = 0.6 + 0.4 * h[i] - 12.0 * (dx + dy);
	l = l < 0.1 ? 0.1 : l > 1.0 ? 1.0 : l;
	l = floor(l * 12.0) / 12.0; /* a few shades: the picture stays small */
	if (pool && pool[i] > 0) {
		double d = pool[i] / 0.05 > 1.0 ? 1.0 : pool[i] / 0.05;
		d = round(d * 4.0) / 4.0;
		px[0] = (unsigned char)(40 * (1 - d));
		px[1] = (unsigned char)(110 * (1 - d) + 40);
		px[2] = (unsigned char)(230 - 80 * d);
		return;
	}
	px[0] = (unsigned char)(200 * l);
	px[1] = (unsigned char)(190 * l);
	px[2] = (unsigned char)(160 * l);
}

static void change_px(unsigned char *px, float before, float after)
{
	double d = ((double)after - before) / 0.02;
	d = d > 1 ? 1 : d < -1 ? -1 : d;
	d = round(d * 4.0) / 4.0;
	px[0] = (unsigned char)(d < 0 ? 255 : 255 * (1 - d));
	px[1] = (unsigned char)(d > 0 ? 255 - 90 * d : 255 * (1 + d));
	px[2] = (unsigned char)(255 * (1 - (d < 0 ? -d : d)));
}

static int write_png(const char *path, const unsigned char *img, int W, int H)
{
	FILE *f = fopen(path, "wb");
	png_structp png = f ? png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL) : NULL;
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (!info || setjmp(png_jmpbuf(png))) {
		fprintf(stderr, "bench_fidelity: cannot write %s\n", path);
		if (png)
			png_destroy_write_struct(&png, info ? &info : NULL);
		if (f)
			fclose(f);
		return 1;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, (png_uint_32)W, (png_uint_32)H, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int y = 0; y < H; y++)
		png_write_row(png, (png_bytep)(img + (size_t)y * W * 3));
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return fclose(f) != 0;
}

static int cmd_picture(int argc, char **argv)
{
	if (argc < 5)
		return 2;
	size_t n = 0;
	float *before = read_f32(argv[3], &n);
	int side = before ? side_of(n) : 0;
	if (!side) {
		if (before)
			fprintf(stderr, "bench_fidelity: %s: not a square map\n", argv[3]);
		free(before);
		return 1;
	}
	const int cols = argc - 4, gap = 4;
	const int W = cols * side + (cols - 1) * gap, H = 2 * side + gap;
	unsigned char *img = calloc((size_t)W * H, 3);
	if (!img)
		return 1;
	memset(img, 255, (size_t)W * H * 3);
	for (int c = 0; c < cols; c++) {
		float *h, *p;
		if (load_after(argv[4 + c], n, &h, &p))
			return 1;
		for (int y = 0; y < side; y++)
			for (int x = 0; x < side; x++) {
				int X = c * (side + gap) + x;
				shade_px(img + ((size_t)y * W + X) * 3, h, p, side, x, y);
				size_t i = (size_t)y * side + x;
				change_px(img + ((size_t)(y + side + gap) * W + X) * 3, before[i], h[i]);
			}
	}
	const int rc = write_png(argv[2], img, W, H);
	free(img);
	return rc;
}

/* Adds 1 / runs to share[i] for every pool cell of each run in argv. */
static int lake_shares(char **argv, int runs, size_t n, double *share)
{
	for (int r = 0; r < runs; r++) {
		float *h, *p;
		if (load_after(argv[r], n, &h, &p))
			return 1;
		if (!p) {
			fprintf(stderr, "bench_fidelity: %s: no pool layer\n", argv[r]);
			free(h);
			return 1;
		}
		for (size_t i = 0; i < n; i++)
			share[i] += p[i] > 0 ? 1.0 / runs : 0.0;
		if (p != h + n) /* HEIGHT+POOL: two allocations */
			free(p);
		free(h);
	}
	return 0;
}

static void lakes_report(const double *a, const double *b, int side)
{
	const char *name[4] = {"north-west", "north-east", "south-west", "south-east"};
	double qa[4] = {0}, qb[4] = {0}, both = 0;
	for (int y = 0; y < side; y++)
		for (int x = 0; x < side; x++) {
			const size_t i = (size_t)y * side + x;
			const int q = (y >= side / 2) * 2 + (x >= side / 2);
			qa[q] += a[i];
			qb[q] += b[i];
			both += a[i] < b[i] ? a[i] : b[i];
		}
	printf("quarter\tA\tB\n");
	for (int q = 0; q < 4; q++)
		printf("%s\t%.0f\t%.0f\n", name[q], qa[q], qb[q]);
	printf("all\t%.0f\t%.0f\noverlap\t%.0f\n", qa[0] + qa[1] + qa[2] + qa[3],
	       qb[0] + qb[1] + qb[2] + qb[3], both);
}

static int cmd_lakes(int argc, char **argv)
{
	int sep = 0;
	for (int a = 4; a < argc; a++)
		if (strcmp(argv[a], "--") == 0)
			sep = a;
	if (argc < 7 || sep <= 4 || sep >= argc - 1)
		return 2;
	size_t n = 0;
	float *before = read_f32(argv[3], &n);
	const int side = before ? side_of(n) : 0;
	if (before && !side)
		fprintf(stderr, "bench_fidelity: %s: not a square map\n", argv[3]);
	double *a = side ? calloc(n, sizeof *a) : NULL, *b = a ? calloc(n, sizeof *b) : NULL;
	unsigned char *img = b ? malloc(n * 3) : NULL;
	if (!img || lake_shares(argv + 4, sep - 4, n, a) ||
	    lake_shares(argv + sep + 1, argc - sep - 1, n, b)) {
		free(img);
		free(a);
		free(b);
		free(before);
		return 1;
	}
	float lo = before[0], hi = before[0];
	for (size_t i = 1; i < n; i++) {
		lo = before[i] < lo ? before[i] : lo;
		hi = before[i] > hi ? before[i] : hi;
	}
	for (size_t i = 0; i < n; i++) {
		const double g = hi > lo ? 180.0 * (before[i] - lo) / (hi - lo) : 90.0;
		const double m = a[i] > b[i] ? a[i] : b[i];
		img[3 * i] = (unsigned char)(g * (1 - a[i]) + 255 * a[i]);
		img[3 * i + 1] = (unsigned char)(g * (1 - m));
		img[3 * i + 2] = (unsigned char)(g * (1 - b[i]) + 255 * b[i]);
	}
	lakes_report(a, b, side);
	const int rc = write_png(argv[2], img, side, side);
	free(img);
	free(a);
	free(b);
	free(before);
	return rc;
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
	else if (argc >= 2 && strcmp(argv[1], "picture") == 0)
		rc = cmd_picture(argc, argv);
	else if (argc >= 2 && strcmp(argv[1], "lakes") == 0)
		rc = cmd_lakes(argc, argv);
	if (rc == 2)
		fprintf(stderr, "usage: bench_fidelity hydrology|erosion BEFORE SEED DROPLETS OUT\n"
				"       bench_fidelity measure BEFORE AFTER [AFTER ...]\n"
				"       bench_fidelity picture OUT.png BEFORE AFTER [AFTER ...]\n"
				"       bench_fidelity lakes OUT.png BEFORE A [A ...] -- B [B ...]\n");
	return rc;
}
