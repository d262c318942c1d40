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

#include "benchutil.h"
#include "core/base/error.h"
#include "core/base/normal.h"
#include "seedref.h"
#include "core/particles/particles.h"
#include "core/particles/lockstep.h"
#include "core/terrain/terrain.h"

struct sample {
	double wall, cpu; /* seconds */
	uint64_t steps;
	uint64_t hash;    /* of the final height layer: same build, same figure */
};

/* FNV-1a over the layer's bytes: shows at a glance that every run (and every
 * build with the same float rounding) produced the same terrain. */
static uint64_t layer_hash(const float *v, size_t n)
{
	return bench_fnv(1469598103934665603u, v, n * sizeof *v);
}

/* How to run: through the process interface exactly as `gully run` does
 * (isa "auto"; lanes = 1 always, the seed's order, one droplet after
 * another), or with one compiled copy of the lockstep read phase forced,
 * driving the lockstep engine directly: the same call without the counters. */
struct how {
	int lanes;
	const char *isa;  /* auto, scalar, base (= sse2), sse2, avx2 */
};

static bool how_lanes_isa(const struct how *h, enum lockstep_isa *isa)
{
	if (strcmp(h->isa, "scalar") == 0)
		*isa = LOCKSTEP_ISA_SCALAR;
	else if (strcmp(h->isa, "base") == 0 || strcmp(h->isa, "sse2") == 0)
		*isa = LOCKSTEP_ISA_SSE2;
	else if (strcmp(h->isa, "avx2") == 0)
		*isa = LOCKSTEP_ISA_AVX2;
	else
		return false;
	return true;
}

static bool forced(const struct how *h)
{
	return strcmp(h->isa, "auto") != 0 && h->lanes > 1;
}

static int run_once(const struct params *p, uint64_t droplets, const struct how *h,
		    struct sample *s)
{
	struct world *w = NULL;
	void *state = NULL;
	struct lockstep *pl = NULL;
	int err = world_from_params(&w, p);
	if (err)
		return err;
	enum lockstep_isa lisa = LOCKSTEP_ISA_AUTO;
	if (!forced(h)) {
		err = particles_process.create(&state, w, p);
	} else {
		pl = lockstep_create(w->width, w->height);
		if (!pl)
			err = GULLY_ENOMEM;
		else if (!(how_lanes_isa(h, &lisa) && lockstep_set_isa(pl, lisa)))
			err = GULLY_EINVAL;
	}
	if (err) {
		lockstep_destroy(pl);
		world_destroy(w);
		return err;
	}
	struct process_report rep = {0};
	struct droplet_params dp;
	droplet_params_from(&dp, p);
	double w0 = bench_wall_seconds(), c0 = bench_cpu_seconds();
	if (pl)
		err = lockstep_run(pl, w, &dp, h->lanes, droplets, &rep.steps);
	else
		err = particles_process.step(state, w, p, droplets, &rep);
	s->cpu = bench_cpu_seconds() - c0;
	s->wall = bench_wall_seconds() - w0;
	s->steps = rep.steps;
	s->hash = layer_hash(w->layer[LAYER_HEIGHT], world_cells(w));
	if (state)
		particles_process.destroy(state);
	lockstep_destroy(pl);
	world_destroy(w);
	return err;
}

/* The yardstick (seedref.h): the seed's SimpleErosion on the same starting
 * terrain, the same droplet count, in the same minute. */
static int run_seed(const struct params *p, uint64_t droplets, struct sample *s)
{
	struct world *w = NULL;
	int err = world_from_params(&w, p);
	if (err)
		return err;
	struct seedref_erosion_params sp;
	seedref_erosion_defaults(&sp);
	sp.dt = p->particles.dt;
	sp.density = p->particles.density;
	sp.friction = p->particles.friction;
	sp.deposition = p->particles.deposition_rate;
	sp.evap = p->particles.evap_rate;
	sp.min_volume = p->particles.min_volume;
	sp.scale = p->terrain.vertical_scale;
	struct seedref_counts c;
	double w0 = bench_wall_seconds(), c0 = bench_cpu_seconds();
	err = seedref_erosion(w->layer[LAYER_HEIGHT], w->width, w->height, droplets,
			      (unsigned)p->world.seed, &sp, &c) ? GULLY_ENOMEM : GULLY_OK;
	s->cpu = bench_cpu_seconds() - c0;
	s->wall = bench_wall_seconds() - w0;
	s->steps = c.steps;
	world_destroy(w);
	return err;
}

/* The name of the copy a run with these options uses. */
static const char *how_isa_name(const struct how *h, int width, int height, bool *ok)
{
	static char name[32];
	*ok = true;
	if (h->lanes == 1) {
		*ok = strcmp(h->isa, "auto") == 0;
		return "seed order (droplet.h, " NORMAL_IMPL " normal)";
	}
	struct lockstep *pl = lockstep_create(width, height);
	enum lockstep_isa isa = LOCKSTEP_ISA_AUTO;
	*ok = pl && (strcmp(h->isa, "auto") == 0 ||
		     (how_lanes_isa(h, &isa) && lockstep_set_isa(pl, isa)));
	snprintf(name, sizeof name, "%s", pl ? lockstep_isa_name(pl) : "?");
	lockstep_destroy(pl);
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
		"          [--isa scalar|base|sse2|avx2] [--threads N] [--set KEY=VALUE]\n"
		"Times particle erosion from default parameters; prints ns per droplet\n"
		"step and seconds (median, min, max over the runs, wall clock and CPU).\n"
		"Defaults: --runs 5 --particles 200000 --size 256x256 --seed 42, the\n"
		"registry's particles.lanes (1: the seed's order, one droplet after\n"
		"another), and the best instruction set the CPU has (--isa forces a copy\n"
		"of the lockstep read phase: all give the same bits; lanes > 1 only;\n"
		"it drives one lockstep engine directly, so particles.epoch is unused).\n"
		"--threads N: world.threads, which runs the two halves of the droplets\n"
		"at once (particles.epoch > 0, the default; default 1; 0: every core;\n"
		"the same bits on any count). --set particles.epoch=0: one engine.\n"
		"--set KEY=VALUE: any parameter, as gully run --set (repeatable), e.g.\n"
		"particles.hardness=1 with hardness.generator=strata.\n",
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
		{"threads", required_argument, NULL, 't'},
		{"set", required_argument, NULL, 'k'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	long long runs = 5, droplets = 200000, seed = 42, threads = 1;
	int width = 256, height = 256;
	struct params p;
	params_defaults(&p);
	struct how how = {p.particles.lanes, "auto"};
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
		case 't':
			ok = parse_count(optarg, 0, 64, &threads);
			break;
		case 'l':
			ok = parse_count(optarg, 1, LOCKSTEP_MAX_LANES, &lanes);
			how.lanes = (int)lanes;
			break;
		case 'k': {
			int bad = -1;
			ok = params_assign(&p, optarg, &bad) == GULLY_OK;
			break;
		}
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
				opt == 'S' ? "seed" : opt == 'i' ? "isa" : opt == 'l' ? "lanes" :
				opt == 't' ? "threads" : opt == 'k' ? "set" : "size",
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
	p.world.threads = (int)threads;
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
	double *r_wall = calloc((size_t)runs, sizeof *r_wall);
	double *r_cpu = calloc((size_t)runs, sizeof *r_cpu);
	double *seed_ns = calloc((size_t)runs, sizeof *seed_ns);
	if (!s || !wall_ns || !cpu_ns || !wall_s || !r_wall || !r_cpu || !seed_ns) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		return 1;
	}
	bool ok;
	const char *isa_name = how_isa_name(&how, width, height, &ok);
	if (!ok) {
		fprintf(stderr, "%s: --isa %s with --lanes %d: not available on this CPU or build\n",
			argv[0], how.isa, how.lanes);
		return 2;
	}
	printf("particles %lld droplets on %dx%d, seed %lld, %lld runs, lanes %d, isa %s, threads %lld\n",
	       droplets, width, height, seed, runs, how.lanes, isa_name, threads);
	printf("run\tsteps\twall_s\tcpu_s\twall_ns_per_step\tcpu_ns_per_step\theight_hash"
	       "\tseed_cpu_ns_per_step\tx_seed_wall\tx_seed_cpu\n");
	for (int i = 0; i < runs; i++) {
		struct sample ref;
		err = run_seed(&p, (uint64_t)droplets, &ref);
		if (!err)
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
		double ref_steps = ref.steps ? (double)ref.steps : 1.0;
		seed_ns[i] = 1e9 * ref.cpu / ref_steps;
		r_wall[i] = (1e9 * ref.wall / ref_steps) / wall_ns[i];
		r_cpu[i] = seed_ns[i] / cpu_ns[i];
		printf("%d\t%" PRIu64 "\t%.3f\t%.3f\t%.2f\t%.2f\t%016" PRIx64 "\t%.2f\t%.2f\t%.2f\n",
		       i + 1, s[i].steps, s[i].wall, s[i].cpu, wall_ns[i], cpu_ns[i], s[i].hash,
		       seed_ns[i], r_wall[i], r_cpu[i]);
		fflush(stdout);
	}
	bool same = true;
	for (int i = 1; i < runs; i++)
		same = same && s[i].hash == s[0].hash && s[i].steps == s[0].steps;

	double ns_med = bench_median(wall_ns, (int)runs), cpu_med = bench_median(cpu_ns, (int)runs);
	double sec_med = bench_median(wall_s, (int)runs);
	printf("ns_per_step\tmedian %.2f\tmin %.2f\tmax %.2f\t(wall)\n", ns_med, wall_ns[0],
	       wall_ns[runs - 1]);
	printf("cpu_ns_per_step\tmedian %.2f\tmin %.2f\tmax %.2f\t(process CPU time)\n",
	       cpu_med, cpu_ns[0], cpu_ns[runs - 1]);
	printf("seconds\tmedian %.3f\tmin %.3f\tmax %.3f\t(wall, %lld droplets)\n", sec_med,
	       wall_s[0], wall_s[runs - 1], droplets);
	/* On a shared machine the wall clock includes time spent waiting for a
	 * CPU; process CPU time is what the run itself cost. */
	/* Each run is paired with the yardstick run just before it (the seed's
	 * SimpleErosion, bench/seedref.h, same terrain and droplet count): the
	 * ratio of their ns per step, median over the pairs. */
	double seed_med = bench_median(seed_ns, (int)runs);
	printf("vs_seed\t%.2fx wall\t%.2fx cpu\t(median of per-run ratios; the seed's code: "
	       "%.2f cpu ns per step, median)\n",
	       bench_median(r_wall, (int)runs), bench_median(r_cpu, (int)runs), seed_med);
	printf("deterministic\t%s\n", same ? "yes" : "NO: runs differ");
	free(s);
	free(wall_ns);
	free(cpu_ns);
	free(wall_s);
	free(r_wall);
	free(r_cpu);
	free(seed_ns);
	return same ? 0 : 1;
}
