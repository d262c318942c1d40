/* Benchmark of the particle erosion process: ns per droplet step.
 *
 * Each run builds a fresh world from the default parameters (256x256, seed 42
 * unless told otherwise), runs the droplets through the process interface and
 * times them. The median over the runs is the figure to quote; min and max
 * show how noisy the machine was. Not part of `make check`: timings never are. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/base/error.h"
#include "core/particles/particles.h"
#include "core/particles/particles_lanes.h"
#include "core/particles/particles_pair.h"
#include "core/terrain/terrain.h"

struct sample {
	double wall, cpu; /* seconds */
	uint64_t steps;
	uint64_t hash;    /* of the final height layer: same build, same figure */
};

static double now(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* FNV-1a over the layer's bytes: shows at a glance that every run (and every
 * build with the same float rounding) produced the same terrain. */
static uint64_t layer_hash(const float *v, size_t n)
{
	const unsigned char *b = (const unsigned char *)v;
	uint64_t h = 1469598103934665603u;
	for (size_t i = 0; i < n * sizeof *v; i++) {
		h ^= b[i];
		h *= 1099511628211u;
	}
	return h;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* How to run: through the process interface exactly as `gully run` does
 * (isa "auto"), or with one compiled copy forced, driving the engine the
 * process would call (the paired scheduler for lanes = 1, the lockstep engine
 * otherwise) directly: the same call without the counters. */
struct how {
	int lanes;
	const char *isa;  /* auto, scalar, base (= sse2), sse2, avx2 */
	bool hw_gather;   /* lockstep AVX2: _mm256_i32gather_ps for the blocks */
};

static bool how_pair_isa(const struct how *h, enum pair_isa *isa)
{
	if (strcmp(h->isa, "base") == 0 || strcmp(h->isa, "sse2") == 0)
		*isa = PAIR_ISA_BASE;
	else if (strcmp(h->isa, "avx2") == 0)
		*isa = PAIR_ISA_AVX2;
	else
		return false;
	return true;
}

static bool how_lanes_isa(const struct how *h, enum lanes_isa *isa)
{
	if (strcmp(h->isa, "scalar") == 0)
		*isa = LANES_ISA_SCALAR;
	else if (strcmp(h->isa, "base") == 0 || strcmp(h->isa, "sse2") == 0)
		*isa = LANES_ISA_SSE2;
	else if (strcmp(h->isa, "avx2") == 0)
		*isa = LANES_ISA_AVX2;
	else
		return false;
	return true;
}

static bool forced(const struct how *h)
{
	return strcmp(h->isa, "auto") != 0 || h->hw_gather;
}

static int run_once(const struct params *p, uint64_t droplets, const struct how *h,
		    struct sample *s)
{
	struct world *w = NULL;
	void *state = NULL;
	struct particles_pair *pp = NULL;
	struct particles_lanes *pl = NULL;
	int err = world_from_params(&w, p);
	if (err)
		return err;
	enum pair_isa pisa = PAIR_ISA_AUTO;
	enum lanes_isa lisa = LANES_ISA_AUTO;
	if (!forced(h)) {
		err = particles_process.create(&state, w, p);
	} else if (h->lanes == 1) {
		pp = particles_pair_create(w->width, w->height);
		err = !pp ? GULLY_ENOMEM
		      : how_pair_isa(h, &pisa) && particles_pair_set_isa(pp, pisa) ? GULLY_OK
										 : GULLY_EINVAL;
	} else {
		pl = particles_lanes_create(w->width, w->height);
		if (!pl)
			err = GULLY_ENOMEM;
		else if (strcmp(h->isa, "auto") != 0 &&
			 !(how_lanes_isa(h, &lisa) && particles_lanes_set_isa(pl, lisa)))
			err = GULLY_EINVAL;
		else
			particles_lanes_set_gather(pl, h->hw_gather);
	}
	if (err) {
		particles_pair_destroy(pp);
		particles_lanes_destroy(pl);
		world_destroy(w);
		return err;
	}
	struct process_report rep = {0};
	struct droplet_params dp;
	droplet_params_from(&dp, p);
	double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	if (pp)
		err = particles_pair_run(pp, w, &dp, droplets, &rep.steps);
	else if (pl)
		err = particles_lanes_run(pl, w, &dp, h->lanes, droplets, &rep.steps);
	else
		err = particles_process.step(state, w, p, droplets, &rep);
	s->cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
	s->wall = now(CLOCK_MONOTONIC) - w0;
	s->steps = rep.steps;
	s->hash = layer_hash(w->layer[LAYER_HEIGHT], world_cells(w));
	if (state)
		particles_process.destroy(state);
	particles_pair_destroy(pp);
	particles_lanes_destroy(pl);
	world_destroy(w);
	return err;
}

/* The name of the copy a run with these options uses. */
static const char *how_isa_name(const struct how *h, int width, int height, bool *ok)
{
	static char name[32];
	*ok = true;
	if (h->lanes == 1) {
		struct particles_pair *pp = particles_pair_create(width, height);
		enum pair_isa isa = PAIR_ISA_AUTO;
		*ok = pp && !h->hw_gather &&
		      (strcmp(h->isa, "auto") == 0 ||
		       (how_pair_isa(h, &isa) && particles_pair_set_isa(pp, isa)));
		snprintf(name, sizeof name, "%s", pp ? particles_pair_isa_name(pp) : "?");
		particles_pair_destroy(pp);
		return name;
	}
	struct particles_lanes *pl = particles_lanes_create(width, height);
	enum lanes_isa isa = LANES_ISA_AUTO;
	*ok = pl && (strcmp(h->isa, "auto") == 0 ||
		     (how_lanes_isa(h, &isa) && particles_lanes_set_isa(pl, isa)));
	if (pl && h->hw_gather && strcmp(particles_lanes_isa_name(pl), "avx2") != 0)
		*ok = false;
	snprintf(name, sizeof name, "%s%s", pl ? particles_lanes_isa_name(pl) : "?",
		 h->hw_gather ? " (hardware gather)" : "");
	particles_lanes_destroy(pl);
	return name;
}

static bool parse_count(const char *s, long long lo, long long hi, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static void usage(FILE *fp, const char *argv0)
{
	fprintf(fp,
		"Usage: %s [--runs N] [--particles N] [--size WxH] [--seed S] [--lanes N]\n"
		"          [--isa scalar|base|sse2|avx2] [--gather]\n"
		"Times particle erosion from default parameters; prints ns per droplet\n"
		"step and seconds (median, min, max over the runs, wall clock and CPU).\n"
		"Defaults: --runs 5 --particles 200000 --size 256x256 --seed 42, the\n"
		"registry's particles.lanes (1: the seed's order, the paired scheduler), and\n"
		"the best instruction set the CPU has (--isa forces one: all give the same\n"
		"bits; scalar only with lanes > 1). --gather: the AVX2 lockstep copy reads\n"
		"the 3x3 blocks with _mm256_i32gather_ps instead of row loads.\n",
		argv0);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"runs", required_argument, NULL, 'r'},
		{"particles", required_argument, NULL, 'p'},
		{"size", required_argument, NULL, 's'},
		{"seed", required_argument, NULL, 'S'},
		{"isa", required_argument, NULL, 'i'},
		{"lanes", required_argument, NULL, 'l'},
		{"gather", no_argument, NULL, 'g'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	long long runs = 5, droplets = 200000, seed = 42;
	int width = 256, height = 256;
	struct params p;
	params_defaults(&p);
	struct how how = {p.particles.lanes, "auto", false};
	long long lanes = how.lanes;
	int opt;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		bool ok = true;
		switch (opt) {
		case 'r':
			ok = parse_count(optarg, 1, 1000, &runs);
			break;
		case 'p':
			ok = parse_count(optarg, 1, 1000000000, &droplets);
			break;
		case 'S':
			ok = parse_count(optarg, 0, 2147483647, &seed);
			break;
		case 's': {
			char tail;
			ok = sscanf(optarg, "%dx%d%c", &width, &height, &tail) == 2 &&
			     world_check_size(width, height) == GULLY_OK;
			break;
		}
		case 'i':
			ok = strcmp(optarg, "scalar") == 0 || strcmp(optarg, "base") == 0 ||
			     strcmp(optarg, "sse2") == 0 || strcmp(optarg, "avx2") == 0;
			how.isa = optarg;
			break;
		case 'l':
			ok = parse_count(optarg, 1, LANES_MAX, &lanes);
			how.lanes = (int)lanes;
			break;
		case 'g':
			how.hw_gather = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
		if (!ok) {
			fprintf(stderr, "%s: bad value for --%s: '%s'\n", argv[0],
				opt == 'r' ? "runs" : opt == 'p' ? "particles" :
				opt == 'S' ? "seed" : opt == 'i' ? "isa" : opt == 'l' ? "lanes" : "size",
				optarg);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[optind]);
		return 2;
	}

	p.world.width = width;
	p.world.height = height;
	p.world.seed = (int)seed;
	p.particles.lanes = how.lanes;
	int bad = -1;
	int err = params_validate(&p, &bad);
	if (err) {
		fprintf(stderr, "%s: invalid parameters: %s\n", argv[0], gully_strerror(err));
		return 2;
	}

	struct sample *s = calloc((size_t)runs, sizeof *s);
	double *wall_ns = calloc((size_t)runs, sizeof *wall_ns);
	double *cpu_ns = calloc((size_t)runs, sizeof *cpu_ns);
	double *wall_s = calloc((size_t)runs, sizeof *wall_s);
	if (!s || !wall_ns || !cpu_ns || !wall_s) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		return 1;
	}
	bool ok;
	const char *isa_name = how_isa_name(&how, width, height, &ok);
	if (!ok) {
		fprintf(stderr, "%s: --isa %s%s with --lanes %d: not available on this CPU or build\n",
			argv[0], how.isa, how.hw_gather ? " --gather" : "", how.lanes);
		return 2;
	}
	printf("particles %lld droplets on %dx%d, seed %lld, %lld runs, lanes %d, isa %s\n",
	       droplets, width, height, seed, runs, how.lanes, isa_name);
	printf("run\tsteps\twall_s\tcpu_s\twall_ns_per_step\tcpu_ns_per_step\theight_hash\n");
	for (int i = 0; i < runs; i++) {
		err = run_once(&p, (uint64_t)droplets, &how, &s[i]);
		if (err) {
			fprintf(stderr, "%s: run %d failed: %s\n", argv[0], i + 1,
				gully_strerror(err));
			return 1;
		}
		double steps = s[i].steps ? (double)s[i].steps : 1.0;
		wall_s[i] = s[i].wall;
		wall_ns[i] = 1e9 * s[i].wall / steps;
		cpu_ns[i] = 1e9 * s[i].cpu / steps;
		printf("%d\t%" PRIu64 "\t%.3f\t%.3f\t%.2f\t%.2f\t%016" PRIx64 "\n", i + 1,
		       s[i].steps, s[i].wall, s[i].cpu, wall_ns[i], cpu_ns[i], s[i].hash);
		fflush(stdout);
	}
	bool same = true;
	for (int i = 1; i < runs; i++)
		same = same && s[i].hash == s[0].hash && s[i].steps == s[0].steps;

	double ns_med = median(wall_ns, (int)runs), cpu_med = median(cpu_ns, (int)runs);
	double sec_med = median(wall_s, (int)runs);
	printf("ns_per_step\tmedian %.2f\tmin %.2f\tmax %.2f\t(wall)\n", ns_med, wall_ns[0],
	       wall_ns[runs - 1]);
	printf("cpu_ns_per_step\tmedian %.2f\tmin %.2f\tmax %.2f\t(process CPU time)\n",
	       cpu_med, cpu_ns[0], cpu_ns[runs - 1]);
	printf("seconds\tmedian %.3f\tmin %.3f\tmax %.3f\t(wall, %lld droplets)\n", sec_med,
	       wall_s[0], wall_s[runs - 1], droplets);
	/* On a shared machine the wall clock includes time spent waiting for a
	 * CPU; process CPU time is what the run itself cost. */
	printf("vs_reference\t%.2fx wall\t%.2fx cpu\t(the seed's reference: 55 ns per step)\n",
	       55.0 / ns_med, 55.0 / cpu_med);
	printf("deterministic\t%s\n", same ? "yes" : "NO: runs differ");
	free(s);
	free(wall_ns);
	free(cpu_ns);
	free(wall_s);
	return same ? 0 : 1;
}
