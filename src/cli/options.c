#include <errno.h>
#include <float.h>
#include <math.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/base/numparse.h"
#include "core/base/resample.h"
#include "core/base/rain.h"
#include "core/base/error.h"
#include "core/terrain/hardness.h"
#include "io/image.h"
#include "io/layer_import.h"
#include "core/base/process.h"

void sim_options_init(struct sim_options *o)
{
	memset(o, 0, sizeof *o);
	o->seed = -1;
	o->threads = -1;
}

void sim_options_free(struct sim_options *o)
{
	free(o->sets);
	free(o->outputs);
	o->sets = NULL;
	o->nsets = 0;
	o->outputs = NULL;
	o->noutputs = 0;
}

bool parse_u64(const char *s, uint64_t *out)
{
	return num_parse_u64(s, UINT64_MAX, out) == GULLY_OK;
}

bool parse_count(const char *s, uint64_t *out)
{
	if (!s || !(*s >= '0' && *s <= '9'))
		return false;
	/* The number through the one checked conversion (no hex, inf or nan),
	 * then an optional k, M or G. */
	char num[64];
	size_t n = strlen(s);
	double unit = 1;
	char last = n ? s[n - 1] : '\0';
	if (last == 'k' || last == 'K' || last == 'M' || last == 'G') {
		unit = last == 'G' ? 1e9 : last == 'M' ? 1e6 : 1e3;
		n--;
	}
	if (n == 0 || n >= sizeof num)
		return false;
	memcpy(num, s, n);
	num[n] = '\0';
	double v;
	if (num_parse_double(num, 0, &v) != GULLY_OK || !(v >= 0))
		return false;
	v *= unit;
	/* 10^15 is exact in a double; beyond it a count is no longer a whole number. */
	if (v > 1e15 || v != floor(v))
		return false;
	*out = (uint64_t)v;
	return true;
}

bool parse_size(const char *s, int *w, int *h)
{
	const char *x = strchr(s, 'x');
	if (!x)
		return false;
	char buf[32];
	size_t n = (size_t)(x - s);
	if (n == 0 || n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	uint64_t a, b;
	if (!parse_u64(buf, &a) || !parse_u64(x + 1, &b))
		return false;
	/* A side past any size's limit is still a size: the range check says
	 * "outside", not "not a size". */
	*w = a > 1000000 ? 1000001 : (int)a;
	*h = b > 1000000 ? 1000001 : (int)b;
	return true;
}

bool parse_range(const char *s, double *min, double *max)
{
	char *end;
	double a = strtod(s, &end);
	if (end == s || *end != ':')
		return false;
	const char *b = end + 1;
	double c = strtod(b, &end);
	/* The heights are float32: a bound past its range would stretch the
	 * map over 0..inf (every sample 0) and print a --range that reads
	 * nothing back, and bounds one float apart are no span at all. */
	if (end == b || *end || !(fabs(a) <= FLT_MAX) || !(fabs(c) <= FLT_MAX) ||
	    !((float)a < (float)c))
		return false;
	*min = a;
	*max = c;
	return true;
}

void describe_param_error(char *buf, size_t len, int err, int index, const char *text)
{
	const struct param_def *d = params_def(index);
	if (!d) {
		snprintf(buf, len, "unknown parameter");
		return;
	}
	if (d->type == PARAM_ENUM) {
		snprintf(buf, len, "%s: '%s' is not one of %s", d->key, text, d->choices);
	} else if (d->type == PARAM_BOOL) {
		snprintf(buf, len, "%s: '%s' is not true or false", d->key, text);
	} else if (err == GULLY_ERANGE && d->type == PARAM_INT) {
		snprintf(buf, len, "%s: %s is out of range (%.0f to %.0f)", d->key, text, d->min, d->max);
	} else if (err == GULLY_ERANGE) {
		snprintf(buf, len, "%s: %s is out of range (%g to %g)", d->key, text, d->min, d->max);
	} else {
		snprintf(buf, len, "%s: '%s' is not %s number", d->key, text,
			 d->type == PARAM_INT ? "a whole decimal" : "a finite decimal");
	}
}

const char *cli_process_name(int index, void *ctx)
{
	(void)ctx;
	return index < process_count() ? process_get(index)->name : NULL;
}

/* The options with a value to check: 1 when taken, -1 (said) when bad. */
static int take_process(struct sim_options *o, const char *cmd, const char *arg)
{
	if (!process_find(arg)) {
		const char *near = cli_nearest(arg, cli_process_name, NULL);
		char hint[64] = "";
		if (near)
			snprintf(hint, sizeof hint, "did you mean %s? ", near);
		cli_usage_error(cmd, "--process: no process named '%s' (%sone of %s)", cli_quote(arg), hint,
				process_names());
		return -1;
	}
	o->process = arg;
	return 1;
}

static int take_particles(struct sim_options *o, const char *cmd, const char *arg)
{
	if (!parse_count(arg, &o->particles) || o->particles > 1000000000000ULL) {
		cli_usage_error(cmd, "--particles: '%s' is not a count from 0 to 10^12 "
				"(such as 200000, 200k, 2M or 1e6)", cli_quote(arg));
		return -1;
	}
	o->particles_set = true;
	return 1;
}

static int take_seed(struct sim_options *o, const char *cmd, const char *arg)
{
	uint64_t s;
	if (!parse_u64(arg, &s) || s > 2147483647u) {
		cli_usage_error(cmd, "--seed: '%s' is not a whole number from 0 to 2147483647", cli_quote(arg));
		return -1;
	}
	o->seed = (long)s;
	return 1;
}

static int take_size(struct sim_options *o, const char *cmd, const char *arg)
{
	if (!parse_size(arg, &o->width, &o->height)) {
		cli_usage_error(cmd, "--size: '%s' is not WIDTHxHEIGHT, such as 256x256",
				cli_quote(arg));
		return -1;
	}
	/* Checked here: 0 would read as "no --size" later. */
	if (world_check_size(o->width, o->height)) {
		cli_usage_error(cmd, "--size: %s is outside %d to %d cells a side", cli_quote(arg),
				world_size_min(), world_size_max());
		o->width = o->height = 0;
		return -1;
	}
	return 1;
}

static int take_range(struct sim_options *o, const char *cmd, const char *arg)
{
	if (!parse_range(arg, &o->range_min, &o->range_max)) {
		cli_usage_error(cmd, "--range: '%s' is not MIN:MAX with MIN < MAX, both float32 "
				"numbers (within 3.4e38), such as 0:1",
				arg);
		return -1;
	}
	o->range_set = true;
	return 1;
}

/* A repeatable option (--set, -o): arg joins the list. */
static int take_repeated(const char ***list, int *n, const char *arg)
{
	const char **grown = realloc(*list, (size_t)(*n + 1) * sizeof *grown);
	if (!grown) {
		cli_error("out of memory");
		return -1;
	}
	*list = grown;
	grown[(*n)++] = arg;
	return 1;
}

int sim_options_take(struct sim_options *o, const char *cmd, int opt, const char *arg)
{
	switch (opt) {
	case OPT_PROCESS:
		return take_process(o, cmd, arg);
	case OPT_PARTICLES:
		return take_particles(o, cmd, arg);
	case OPT_SEED:
		return take_seed(o, cmd, arg);
	case OPT_SIZE:
		return take_size(o, cmd, arg);
	case OPT_SET:
		return take_repeated(&o->sets, &o->nsets, arg);
	case 'o':
		return take_repeated(&o->outputs, &o->noutputs, arg);
	case OPT_HARDNESS:
		o->hardness = arg;
		return 1;
	case OPT_RAIN:
		o->rain = arg;
		return 1;
	case OPT_JSON:
		o->json = true;
		return 1;
	case OPT_QUIET:
		o->quiet = true;
		return 1;
	case 'p':
		o->preset = arg;
		return 1;
	case OPT_DUMP_PRESET:
		o->dump_preset = true;
		return 1;
	case OPT_TRANSPOSE:
		o->transpose = true;
		return 1;
	case OPT_RANGE:
		return take_range(o, cmd, arg);
	default:
		return 0;
	}
}

static int set_int(const char *cmd, struct params *p, const char *key, long v, const char *opt)
{
	int i = params_find(key);
	int err = params_set(p, i, (double)v);
	if (err) {
		const struct param_def *d = params_def(i);
		return cli_usage_error(cmd, "%s: %ld is out of range for %s (%g to %g)", opt, v,
				       key, d->min, d->max);
	}
	return 0;
}

int sim_options_apply(const struct sim_options *o, const char *cmd, struct params *p)
{
	if (o->seed >= 0 && set_int(cmd, p, "world.seed", o->seed, "--seed"))
		return EXIT_USAGE;
	if (o->width && (set_int(cmd, p, "world.width", o->width, "--size") ||
			 set_int(cmd, p, "world.height", o->height, "--size")))
		return EXIT_USAGE;
	for (int i = 0; i < o->nsets; i++) {
		int bad;
		int err = params_assign(p, o->sets[i], &bad);
		if (err == GULLY_EKEY || (err && bad < 0)) {
			const char *eq = strchr(o->sets[i], '=');
			if (!eq)
				return cli_usage_error(cmd, "--set '%s': expected KEY=VALUE",
						       cli_quote(o->sets[i]));
			char key[128];
			snprintf(key, sizeof key, "%.*s", (int)(eq - o->sets[i]), o->sets[i]);
			return cli_unknown_key(cmd, "--set", cli_quote(key));
		}
		if (err) {
			char msg[256];
			describe_param_error(msg, sizeof msg, err, bad,
					     cli_quote(strchr(o->sets[i], '=') + 1));
			return cli_usage_error(cmd, "--set %s", msg);
		}
	}
	return 0;
}

int sim_options_check_start(const struct sim_options *o, const char *cmd, const char *start)
{
	bool heightmap = start && image_format_from_path(start) != IMAGE_NONE;
	if (!heightmap && (o->transpose || o->range_set))
		return cli_usage_error(cmd, "--transpose and --range are for a height map");
	return 0;
}

int sim_options_hardness(const struct sim_options *o, const char *cmd, struct params *p,
			 bool from_snapshot, struct world *w, struct sim_grid *grid)
{
	if (!o->hardness) {
		/* A snapshot carries its hardness layer; a fresh map needs the file. */
		if (p->hardness.generator == HARDNESS_FILE && !from_snapshot)
			return cli_usage_error(cmd, "hardness.generator=file needs --hardness FILE");
		return 0;
	}
	char err[512];
	int e = w ? layer_import_hardness(w, o->hardness, err, sizeof err)
		  : layer_import_hardness_grid(o->hardness, &grid->values, &grid->width,
					       &grid->height, err, sizeof err);
	if (e) {
		cli_error("--hardness %s", err);
		return 1;
	}
	p->hardness.generator = HARDNESS_FILE;
	return 0;
}

/* --rain's weights stretched over a width x height map (0 x 0: as the file
 * has them): the one reading behind a run's load and a sweep's check, so
 * both refuse the same files in the same words. */
static int rain_read(const struct sim_options *o, int width, int height, struct rain **r)
{
	char err[512];
	float *src;
	int sw, sh;
	if (layer_import_read(o->rain, &src, &sw, &sh, err, sizeof err)) {
		cli_error("--rain %s", err);
		return 1;
	}
	if (width <= 0 || height <= 0) {
		width = sw;
		height = sh;
	}
	float *v = malloc((size_t)width * (size_t)height * sizeof *v);
	int e = v ? GULLY_OK : GULLY_ENOMEM;
	if (!e)
		grid_resample(src, sw, sh, v, width, height);
	if (!e)
		e = rain_create(r, v, width, height);
	free(src);
	free(v);
	if (e) {
		cli_error("--rain %s: %s", o->rain, e == GULLY_EINVAL ? "weights must be finite, "
			  "0 or more, and not all 0" : gully_strerror(e));
		return 1;
	}
	return 0;
}

int sim_options_rain(const struct sim_options *o, struct world *w)
{
	struct rain *r = NULL;
	if (!o->rain || rain_read(o, w->width, w->height, &r))
		return o->rain ? 1 : 0;
	rain_free(w->rain);
	w->rain = r;
	return 0;
}

int sim_options_rain_check(const struct sim_options *o, int width, int height)
{
	struct rain *r = NULL;
	if (!o->rain || rain_read(o, width, height, &r))
		return o->rain ? 1 : 0;
	rain_free(r);
	return 0;
}

/* The processes that take a rain mask, by name ("" for one that does not). */
static const char *rain_taker(int index, void *ctx)
{
	(void)ctx;
	if (index >= process_count())
		return NULL;
	const struct process_ops *p = process_get(index);
	return p->uses_rain ? p->name : "";
}

int sim_options_rain_process(const struct sim_options *o, const char *cmd,
			     const struct process_ops *proc)
{
	if (!o->rain || !proc || proc->uses_rain)
		return 0;
	char takers[128];
	cli_join_names(takers, sizeof takers, ", ", rain_taker, NULL);
	return cli_usage_error(cmd, "--rain %s: the %s process does not start its particles from "
			       "a rain mask (%s do)", o->rain, proc->name, takers);
}

int sim_options_load(const struct sim_options *o, const char *cmd, struct params *p,
		     struct preset_meta *meta)
{
	struct preset_meta m = {"", ""};
	if (o->preset) {
		char err[PRESET_ERR_MAX];
		int rc = preset_load(o->preset, p, &m, err, sizeof err);
		/* A name no preset can have: preset_load said why (a file of
		 * that name is there, or what a name is made of). */
		if (rc == GULLY_ENOTFOUND && !preset_is_file(o->preset) && !preset_name_ok(o->preset))
			return cli_usage_error(cmd, "--preset: %s", err);
		if (rc == GULLY_ENOTFOUND && !preset_is_file(o->preset)) {
			/* A name is looked up on the preset path, never here:
			 * `-p run.gsnap` for the snapshot beside the user is no
			 * typo of a preset's name, and the nearest would mislead. */
			struct stat st;
			if (stat(o->preset, &st) == 0)
				return cli_usage_error(cmd, "--preset: no preset named '%.64s'; it is "
						       "a file here: a snapshot or height map goes "
						       "without -p, a preset file as ./%.64s",
						       o->preset, o->preset);
			char hint[128];
			cli_preset_hint(o->preset, hint, sizeof hint);
			return cli_usage_error(cmd, "--preset: no preset named '%.64s'%s (see `gully "
					       "presets`)", o->preset, hint);
		}
		if (rc) {
			cli_error("%s", err);
			return 1;
		}
	} else {
		params_defaults(p);
	}
	if (o->process)
		snprintf(m.process, sizeof m.process, "%s", o->process);
	if (meta)
		*meta = m;
	return sim_options_apply(o, cmd, p);
}

const char *sim_options_process(const struct sim_options *o, const struct preset_meta *meta)
{
	if (o->process)
		return o->process;
	if (meta && meta->process[0])
		return meta->process;
	return process_default()->name;
}

int cli_dump_preset(const struct params *p, struct preset_meta *meta, const char *process)
{
	snprintf(meta->process, sizeof meta->process, "%s", process);
	char *text;
	if (preset_format(p, meta, &text)) {
		cli_error("--dump-preset: out of memory");
		return 1;
	}
	fputs(text, stdout);
	free(text);
	return cli_flush_stdout("the preset");
}
