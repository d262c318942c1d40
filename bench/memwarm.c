/* Touches most of the machine's free memory once, then frees it, so that a
 * benchmark on a big map does not pay for memory the virtual machine's host
 * has not yet given the guest (bench/README.md, "A fresh machine's memory").
 *   bench/memwarm [GIB]
 * GIB: how much to touch (default: three quarters of MemAvailable). Prints
 * the seconds each GiB took: a first touch of never-used guest memory costs
 * about 3 s a GiB on these machines, a second one under 0.5 s. */
#define _DEFAULT_SOURCE 1

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define GIB ((size_t)1 << 30)

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* MemAvailable from /proc/meminfo, in GiB; 0 when it cannot be read. */
static double available_gib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	if (!f)
		return 0;
	char line[256];
	double kib = 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "MemAvailable: %lf kB", &kib) == 1)
			break;
	fclose(f);
	return kib / (1024.0 * 1024.0);
}

int main(int argc, char **argv)
{
	if (argc > 2 || (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))) {
		fprintf(argc > 2 ? stderr : stdout, "usage: %s [GIB]\n", argv[0]);
		return argc > 2 ? 2 : 0;
	}
	double want = argc == 2 ? strtod(argv[1], NULL) : 0.75 * available_gib();
	if (!(want >= 1 && want <= 1024)) {
		fprintf(stderr, "%s: %s GiB: give 1 to 1024 (MemAvailable read: %.1f GiB)\n", argv[0],
			argc == 2 ? argv[1] : "?", available_gib());
		return 2;
	}
	const size_t n = (size_t)want;
	char **chunk = calloc(n, sizeof *chunk);
	if (!chunk)
		return 1;
	size_t got = 0;
	double slowest = 0, total = 0;
	for (; got < n; got++) {
		const double t0 = now();
		void *p = mmap(NULL, GIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			fprintf(stderr, "%s: GiB %zu: %s; stopping there\n", argv[0], got + 1,
				strerror(errno));
			break;
		}
		memset(p, 1, GIB);
		chunk[got] = p;
		const double dt = now() - t0;
		total += dt;
		if (dt > slowest)
			slowest = dt;
	}
	for (size_t i = 0; i < got; i++)
		munmap(chunk[i], GIB);
	free(chunk);
	printf("touched %zu GiB in %.1f s (%.2f s a GiB, slowest %.2f)\n", got, total,
	       got ? total / (double)got : 0.0, slowest);
	return got ? 0 : 1;
}
