/* gully sweep's grid: the --vary axes, each point's command line, and the
 * table's header and rows, shared by local runs, emitted commands and
 * collected files so all three give the same table. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/sweep.h"
#include "core/base/error.h"
#include "core/base/numparse.h"

void sweep_free_axes(struct sweep_axis *axes, int n)
{
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < axes[i].count; k++)
			free(axes[i].values[k]);
		free(axes[i].values);
	}
	free(axes);
}

static int add_value(struct sweep_axis *a, const char *text, size_t len)
{
	if (a->count >= SWEEP_MAX_VALUES)
		return cli_usage_error(SWEEP_CMD, "--vary %s: more than %d values", a->key,
				       SWEEP_MAX_VALUES);
	char **nv = realloc(a->values, (size_t)(a->count + 1) * sizeof *nv);
	if (!nv)
		return cli_usage_error(SWEEP_CMD, "out of memory");
	a->values = nv;
	char *v = malloc(len + 1);
	if (!v)
		return cli_usage_error(SWEEP_CMD, "out of memory");
	memcpy(v, text, len);
	v[len] = '\0';
	a->values[a->count++] = v;
	return 0;
}

/* START:STOP:STEP, both ends included when the steps land on STOP. */
static int expand_range(struct sweep_axis *a, const char *spec, bool *was_range)
{
	*was_range = false;
	/* Three decimals between two colons, each read as every number is. */
	char part[3][64];
	const char *s = spec;
	for (int k = 0; k < 3; k++) {
		size_t n = k < 2 ? strcspn(s, ":") : strlen(s);
		if (n >= sizeof part[k] || (k < 2 && s[n] != ':'))
			return 0;
		memcpy(part[k], s, n);
		part[k][n] = '\0';
		s += n + (k < 2);
	}
	double start, stop, step;
	if (num_parse_double(part[0], 0, &start) || num_parse_double(part[1], 0, &stop) ||
	    num_parse_double(part[2], 0, &step))
		return 0;
	*was_range = true;
	if (!isfinite(start) || !isfinite(stop) || !isfinite(step) || step <= 0 || stop < start)
		return cli_usage_error(SWEEP_CMD, "--vary %s=%s: a range is START:STOP:STEP with "
				       "STEP > 0 and STOP >= START", a->key, spec);
	double count = floor((stop - start) / step + 1e-9) + 1;
	if (count > SWEEP_MAX_VALUES)
		return cli_usage_error(SWEEP_CMD, "--vary %s=%s: more than %d values", a->key, spec,
				       SWEEP_MAX_VALUES);
	for (long i = 0; i < (long)count; i++) {
		char buf[64];
		snprintf(buf, sizeof buf, "%.12g", start + (double)i * step);
		int st = add_value(a, buf, strlen(buf));
		if (st)
			return st;
	}
	return 0;
}

/* Every value as the registry reads it; one the runs would take as another
 * (1,1,2; 0.1,0.10) is refused: its points would be the same runs again,
 * rows that look like a result and are a typo's cost. range: the
 * START:STOP:STEP the values came from, or NULL. */
static int check_values(const struct sweep_axis *a, int index, const char *range)
{
	struct params p;
	params_defaults(&p);
	double *taken = malloc((size_t)a->count * sizeof *taken);
	if (!taken)
		return cli_usage_error(SWEEP_CMD, "out of memory");
	int st = 0;
	for (int k = 0; k < a->count && !st; k++) {
		int err = params_set_text(&p, index, a->values[k]);
		if (err) {
			char msg[256];
			describe_param_error(msg, sizeof msg, err, index, cli_quote(a->values[k]));
			st = cli_usage_error(SWEEP_CMD, "--vary %s", msg);
			break;
		}
		taken[k] = params_get(&p, index);
		for (int j = 0; j < k && !st; j++) {
			if (taken[j] != taken[k])
				continue;
			char what[160];
			if (range) /* its values are written with 12 digits */
				snprintf(what, sizeof what, "the range %s gives %s twice (a STEP that "
					 "small is lost in 12 digits)", cli_quote(range),
					 cli_quote(a->values[k]));
			else if (strcmp(a->values[j], a->values[k]) == 0)
				snprintf(what, sizeof what, "%s is given twice", cli_quote(a->values[k]));
			else
				snprintf(what, sizeof what, "%s and %s are the same value",
					 cli_quote(a->values[j]), cli_quote(a->values[k]));
			st = cli_usage_error(SWEEP_CMD, "--vary %s: %s (values %d and %d): their "
					     "points would be the same runs; give each value once",
					     a->key, what, j + 1, k + 1);
		}
	}
	free(taken);
	return st;
}

/* Parses KEY=LIST and checks every value against the registry up front, so a
 * typo fails before any run starts. */
int sweep_parse_vary(struct sweep_axis *a, const char *arg)
{
	memset(a, 0, sizeof *a);
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return cli_usage_error(SWEEP_CMD, "--vary '%s': expected KEY=V1,V2,...", cli_quote(arg));
	char key[128];
	size_t kn = (size_t)(eq - arg);
	if (kn >= sizeof key)
		return cli_usage_error(SWEEP_CMD, "--vary: key too long");
	memcpy(key, arg, kn);
	key[kn] = '\0';
	int index = params_find(key);
	if (index < 0)
		return cli_unknown_key(SWEEP_CMD, "--vary", key);
	a->key = params_def(index)->key;
	bool range;
	int st = expand_range(a, eq + 1, &range);
	if (st)
		return st;
	if (!range) {
		for (const char *v = eq + 1;;) {
			size_t n = strcspn(v, ",");
			if (n == 0)
				return cli_usage_error(SWEEP_CMD, "--vary %s: an empty value in '%s'", key,
						       eq + 1);
			if ((st = add_value(a, v, n)))
				return st;
			if (!v[n])
				break;
			v += n + 1;
		}
	}
	return check_values(a, index, range ? eq + 1 : NULL);
}

void sweep_point_values(const struct sweep *s, long point, int *pick)
{
	for (int i = s->naxes - 1; i >= 0; i--) {
		pick[i] = (int)(point % s->axes[i].count);
		point /= s->axes[i].count;
	}
}

int argv_push(struct argv_buf *b, const char *s, bool own)
{
	if (b->n + 2 > b->cap) {
		int cap = b->cap ? b->cap * 2 : 32;
		char **nv = realloc(b->v, (size_t)cap * sizeof *nv);
		if (!nv)
			return -1;
		b->v = nv;
		b->cap = cap;
	}
	char *copy = (char *)s;
	if (own) {
		copy = strdup(s);
		char **no = realloc(b->owned, (size_t)(b->nowned + 1) * sizeof *no);
		if (!copy || !no) {
			free(copy);
			if (no)
				b->owned = no;
			return -1;
		}
		b->owned = no;
		b->owned[b->nowned++] = copy;
	}
	b->v[b->n++] = copy;
	b->v[b->n] = NULL;
	return 0;
}

void argv_free(struct argv_buf *b)
{
	for (int i = 0; i < b->nowned; i++)
		free(b->owned[i]);
	free(b->owned);
	free(b->v);
	memset(b, 0, sizeof *b);
}

/* A file named on the command line as this machine sees it, so the command
 * still finds it when run from another directory (a job's, a remote shell's). */
static int push_path(struct argv_buf *b, const char *path)
{
	char buf[PATH_MAX];
	if (path[0] != '/' && (strchr(path, '/') || access(path, F_OK) == 0) &&
	    realpath(path, buf))
		return argv_push(b, buf, true);
	/* A copy: path may be a caller's buffer (a preset found by name). */
	return argv_push(b, path, true);
}

/* The options every point shares, as `gully run` and `gully sweep` take them,
 * and the map they start from. */
static int push_shared(struct argv_buf *b, const struct sweep *s)
{
	const struct sim_options *o = &s->o;
	char buf[64];
	int bad = s->start ? push_path(b, s->start) : 0;
	if (o->transpose)
		bad |= argv_push(b, "--transpose", false);
	if (o->range_set) {
		snprintf(buf, sizeof buf, "%.17g:%.17g", o->range_min, o->range_max);
		bad |= argv_push(b, "--range", false) | argv_push(b, buf, true);
	}
	if (o->json)
		bad |= argv_push(b, "--json", false);
	if (o->preset) {
		/* A name found on $GULLY_PRESET_PATH or in the user's directory
		 * goes by its file: a run on another machine (or under Slurm,
		 * without this environment) would not find it, or would find the
		 * shipped preset it shadows. A shipped one goes by name, which
		 * any gully install (--gully) finds. */
		char found[4096];
		const bool by_file = preset_is_file(o->preset) ||
				     (preset_resolve(o->preset, found, sizeof found) == GULLY_OK &&
				      !preset_found_shipped(found));
		bad |= argv_push(b, "-p", false);
		bad |= !by_file ? argv_push(b, o->preset, false)
				: push_path(b, preset_is_file(o->preset) ? o->preset : found);
	}
	if (o->process)
		bad |= argv_push(b, "--process", false) | argv_push(b, o->process, false);
	if (o->particles_set) {
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)o->particles);
		bad |= argv_push(b, "--particles", false) | argv_push(b, buf, true);
	}
	if (o->seed >= 0) {
		snprintf(buf, sizeof buf, "%ld", o->seed);
		bad |= argv_push(b, "--seed", false) | argv_push(b, buf, true);
	}
	if (o->width) {
		snprintf(buf, sizeof buf, "%dx%d", o->width, o->height);
		bad |= argv_push(b, "--size", false) | argv_push(b, buf, true);
	}
	if (o->hardness)
		bad |= argv_push(b, "--hardness", false) | push_path(b, o->hardness);
	if (o->rain)
		bad |= argv_push(b, "--rain", false) | push_path(b, o->rain);
	for (int i = 0; i < o->nsets; i++)
		bad |= argv_push(b, "--set", false) | argv_push(b, o->sets[i], false);
	return bad;
}

char *sweep_grid_text(const struct sweep *s, size_t *len)
{
	char *text = NULL;
	*len = 0;
	FILE *mem = open_memstream(&text, len);
	if (!mem)
		return NULL;
	fprintf(mem, "gully-sweep 1\npoints %ld\nformat %s\n", s->points,
		s->o.json ? "json" : "tsv");
	for (int i = 0; i < s->naxes; i++) {
		fprintf(mem, "axis %s", s->axes[i].key);
		for (int k = 0; k < s->axes[i].count; k++)
			fprintf(mem, " %s", s->axes[i].values[k]);
		fputc('\n', mem);
	}
	/* The options every run shares, as the runs get them: a run made with
	 * others (another --particles, --size, preset) is another sweep. */
	struct argv_buf b = {0};
	int bad = push_shared(&b, s);
	fputs("shared", mem);
	for (int i = 0; !bad && i < b.n; i++) {
		fputc(' ', mem);
		sweep_shell_word(mem, b.v[i]);
	}
	fputc('\n', mem);
	argv_free(&b);
	if (fclose(mem) != 0 || bad) {
		free(text);
		return NULL;
	}
	return text;
}

/* Whether text is a number as JSON writes one: -?(0|[1-9][0-9]*)(.[0-9]+)?
 * ([eE][+-]?[0-9]+)?. --vary takes what --set does, such as .5, +0.5 or
 * 1., which JSON does not. */
static bool json_number(const char *t)
{
	t += *t == '-';
	if (*t == '0')
		t++;
	else if (*t >= '1' && *t <= '9')
		t += strspn(t, "0123456789");
	else
		return false;
	if (*t == '.') {
		size_t d = strspn(t + 1, "0123456789");
		if (!d)
			return false;
		t += 1 + d;
	}
	if (*t == 'e' || *t == 'E') {
		t++;
		t += *t == '+' || *t == '-';
		size_t d = strspn(t, "0123456789");
		if (!d)
			return false;
		t += d;
	}
	return *t == '\0';
}

/* A varied number as JSON: as typed when JSON takes it, else the shortest
 * decimal that reads back as the same double (.5 as 0.5). */
static void print_json_number(FILE *fp, const char *t)
{
	if (json_number(t)) {
		fputs(t, fp);
		return;
	}
	double v = strtod(t, NULL);
	char buf[64];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, fp);
}

/* "KEY": VALUE, as the row's JSON object starts: a number as a number, an
 * enum or a bool as a string. */
static void print_json_pair(FILE *fp, const char *key, const char *v)
{
	const struct param_def *d = params_def(params_find(key));
	fprintf(fp, "\"%s\": ", key);
	if (d->type == PARAM_ENUM || d->type == PARAM_BOOL)
		fprintf(fp, "\"%s\"", v);
	else
		print_json_number(fp, v);
	fputs(", ", fp);
}

void sweep_print_marked(FILE *fp, const struct sweep *s, long point, const char *mark,
			int columns)
{
	int pick[SWEEP_MAX_AXES];
	sweep_point_values(s, point, pick);
	if (s->o.json) {
		fputc('{', fp);
		for (int i = 0; i < s->naxes; i++)
			print_json_pair(fp, s->axes[i].key, s->axes[i].values[pick[i]]);
		fprintf(fp, "\"status\": \"%s\"}\n", mark);
		return;
	}
	for (int i = 0; i < s->naxes; i++)
		fprintf(fp, "%s\t", s->axes[i].values[pick[i]]);
	fputs(mark, fp);
	for (int c = 1; c < columns; c++)
		fputc('\t', fp);
	fputc('\n', fp);
}

char *sweep_metrics_header(int *columns)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return NULL;
	metrics_print_header(mem);
	if (fclose(mem) != 0) {
		free(text);
		return NULL;
	}
	if (text)
		text[strcspn(text, "\n")] = '\0';
	*columns = 1;
	for (const char *c = text ? text : ""; *c; c++)
		*columns += *c == '\t';
	return text;
}

/* Whether a shared --set or a --vary names world.threads. */
static bool threads_given(const struct sweep *s)
{
	const int k = params_find("world.threads");
	for (int i = 0; i < s->naxes; i++)
		if (params_find(s->axes[i].key) == k)
			return true;
	for (int i = 0; i < s->o.nsets; i++) {
		char key[128];
		snprintf(key, sizeof key, "%.*s", (int)strcspn(s->o.sets[i], "="), s->o.sets[i]);
		if (params_find(key) == k)
			return true;
	}
	return false;
}

int sweep_run_argv(struct argv_buf *b, const struct sweep *s, const char *argv0, long point)
{
	char buf[4096];
	int pick[SWEEP_MAX_AXES];
	sweep_point_values(s, point, pick);
	/* Each job on one thread, the jobs already filling the cores; by
	 * --threads, not --set world.threads=1, so the maps it saves keep the
	 * world.threads the preset or --set gave for a later `gully run` of
	 * them. A world.threads the user sets or varies is what runs. */
	int bad = argv_push(b, argv0, false) | argv_push(b, "run", false) |
		  argv_push(b, "--quiet", false);
	if (!threads_given(s))
		bad |= argv_push(b, "--threads", false) | argv_push(b, "1", false);
	bad |= push_shared(b, s);
	for (int i = 0; i < s->naxes; i++) {
		snprintf(buf, sizeof buf, "%s=%s", s->axes[i].key, s->axes[i].values[pick[i]]);
		bad |= argv_push(b, "--set", false) | argv_push(b, buf, true);
	}
	if (s->maps_dir) {
		/* By its absolute path (made before any command is), as every
		 * other path: an emitted command runs on another machine, in
		 * whatever directory ssh or Slurm starts it. */
		char dir[PATH_MAX], file[PATH_MAX + 32];
		const char *maps = realpath(s->maps_dir, dir) ? dir : s->maps_dir;
		for (size_t k = 0; k < SWEEP_MAP_KINDS; k++) {
			sweep_file_name(file, sizeof file, maps, point, sweep_map_kinds[k]);
			bad |= argv_push(b, "-o", false) | argv_push(b, file, true);
		}
	}
	return bad ? -1 : 0;
}

/* Each axis back as KEY=V1,V2,... (values are registry-checked: no commas). */
static int push_axes(struct argv_buf *b, const struct sweep *s)
{
	int bad = 0;
	for (int i = 0; i < s->naxes; i++) {
		const struct sweep_axis *a = &s->axes[i];
		size_t len = strlen(a->key) + 2;
		for (int k = 0; k < a->count; k++)
			len += strlen(a->values[k]) + 1;
		char *text = malloc(len);
		if (!text)
			return -1;
		char *p = text + sprintf(text, "%s=", a->key);
		for (int k = 0; k < a->count; k++)
			p += sprintf(p, "%s%s", k ? "," : "", a->values[k]);
		bad |= argv_push(b, "--vary", false) | argv_push(b, text, true);
		free(text);
	}
	return bad;
}

int sweep_point_argv(struct argv_buf *b, const struct sweep *s, const char *argv0)
{
	int bad = argv_push(b, argv0, false) | argv_push(b, "sweep", false) |
		  argv_push(b, "--quiet", false) | push_shared(b, s) | push_axes(b, s);
	if (s->out_dir)
		bad |= argv_push(b, "--out", false) | push_path(b, s->out_dir);
	if (s->maps_dir)
		bad |= argv_push(b, "--save-maps", false) | push_path(b, s->maps_dir);
	/* Each point's command then leaves a point already done alone: a job
	 * array submitted again after a time limit runs only the rest. */
	if (s->resume)
		bad |= argv_push(b, "--resume", false);
	return bad ? -1 : 0;
}

void sweep_shell_word(FILE *fp, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-+=.,:/@%") == strlen(s)) {
		fputs(s, fp);
		return;
	}
	fputc('\'', fp);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", fp);
		else
			fputc(*s, fp);
	}
	fputc('\'', fp);
}

const char *sweep_quoted(const char *s)
{
	static char ring[4][4200];
	static unsigned next;
	char *buf = ring[next++ % 4];
	FILE *mem = fmemopen(buf, sizeof ring[0], "w");
	if (!mem)
		return s;
	sweep_shell_word(mem, s);
	/* A word too long for the buffer is cut by fmemopen, and still ends. */
	if (fputc('\0', mem) == EOF || fclose(mem) != 0)
		buf[sizeof ring[0] - 1] = '\0';
	return buf;
}

void sweep_print_argv(FILE *fp, const struct argv_buf *b)
{
	for (int i = 0; i < b->n; i++) {
		if (i)
			fputc(' ', fp);
		sweep_shell_word(fp, b->v[i]);
	}
}

void sweep_print_header(FILE *fp, const struct sweep *s, const char *run_header, size_t hlen)
{
	for (int i = 0; i < s->naxes; i++)
		fprintf(fp, "%s\t", s->axes[i].key);
	fprintf(fp, "%.*s\n", (int)hlen, run_header);
}

void sweep_print_row(FILE *fp, const struct sweep *s, long point, const char *row)
{
	int pick[SWEEP_MAX_AXES];
	sweep_point_values(s, point, pick);
	size_t n = strcspn(row, "\n");
	if (s->o.json) {
		fputc('{', fp);
		for (int i = 0; i < s->naxes; i++)
			print_json_pair(fp, s->axes[i].key, s->axes[i].values[pick[i]]);
		/* Drop the run's own opening brace. */
		const char *body = row;
		while (*body == ' ')
			body++;
		if (*body == '{')
			body++;
		fprintf(fp, "%.*s\n", (int)(n - (size_t)(body - row)), body);
		return;
	}
	for (int i = 0; i < s->naxes; i++)
		fprintf(fp, "%s\t", s->axes[i].values[pick[i]]);
	fprintf(fp, "%.*s\n", (int)n, row);
}

void sweep_file_name(char *buf, size_t len, const char *dir, long point, const char *ext)
{
	snprintf(buf, len, "%s/run-%04ld.%s", dir, point, ext);
}

const char *sweep_self_path(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
	if (n > 0) {
		path[n] = '\0';
		return path;
	}
	return NULL;
}
