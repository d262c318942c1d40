/* gully sweep: a grid of headless runs over parameter values, a metrics table.
 *
 * Each grid point is one `gully run` in a child process (the same binary), so
 * a sweep gives exactly the rows those runs would, runs on every core, and
 * `--emit` can hand the very same commands to GNU parallel or a job array. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "cli/cli.h"
#include "cli/signals.h"
#include "core/base/numparse.h"
#include "config.h"
#include "core/base/process.h"

#define CMD "sweep"
#define SWEEP_MAX_POINTS 100000
#define SWEEP_MAX_VALUES 10000

enum { OPT_VARY = 0x300, OPT_JOBS, OPT_EMIT };

struct axis {
	const char *key;
	char **values;
	int count;
};

struct run_slot {
	pid_t pid;
	int fd;
	long point;
	char *out;
	size_t len, cap;
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: %s sweep [PRESET] --vary KEY=V1,V2,... [--vary ...] [options]\n\n"
		"Runs `gully run` once for every combination of the --vary values and prints\n"
		"one table: the varied keys, then run's metrics columns, one row per run in\n"
		"grid order (the last --vary changes fastest). A value list may be\n"
		"START:STOP:STEP, such as 0.02:0.1:0.02.\n\n"
		"Options:\n"
		"  --vary KEY=LIST      a parameter and its values; repeatable\n"
		"  --jobs N             runs at once (default: the number of CPUs)\n"
		"  --emit               print one `gully run` command per grid point instead\n"
		"                       (for GNU parallel or a job array) and run nothing\n"
		"  -p, --preset NAME|FILE, --process NAME, --particles N, --seed S,\n"
		"  --size WxH, --set KEY=VALUE, --hardness FILE\n"
		"                       as for `gully run`, the same for every point\n"
		"  --json               JSON lines instead of TSV\n"
		"  --quiet              no progress on stderr\n"
		"  --help, --version\n",
		cli_program);
}

static void free_axes(struct axis *axes, int n)
{
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < axes[i].count; k++)
			free(axes[i].values[k]);
		free(axes[i].values);
	}
	free(axes);
}

static int add_value(struct axis *a, const char *text, size_t len)
{
	if (a->count >= SWEEP_MAX_VALUES)
		return cli_usage_error(CMD, "--vary %s: more than %d values", a->key,
				       SWEEP_MAX_VALUES);
	char **nv = realloc(a->values, (size_t)(a->count + 1) * sizeof *nv);
	if (!nv)
		return cli_usage_error(CMD, "out of memory");
	a->values = nv;
	char *v = malloc(len + 1);
	if (!v)
		return cli_usage_error(CMD, "out of memory");
	memcpy(v, text, len);
	v[len] = '\0';
	a->values[a->count++] = v;
	return 0;
}

/* START:STOP:STEP, both ends included when the steps land on STOP. */
static int expand_range(struct axis *a, const char *spec, bool *was_range)
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
		return cli_usage_error(CMD, "--vary %s=%s: a range is START:STOP:STEP with STEP > 0 "
				       "and STOP >= START", a->key, spec);
	double count = floor((stop - start) / step + 1e-9) + 1;
	if (count > SWEEP_MAX_VALUES)
		return cli_usage_error(CMD, "--vary %s=%s: more than %d values", a->key, spec,
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

/* Parses KEY=LIST and checks every value against the registry up front, so a
 * typo fails before any run starts. */
static int parse_vary(struct axis *a, const char *arg)
{
	memset(a, 0, sizeof *a);
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return cli_usage_error(CMD, "--vary '%s': expected KEY=V1,V2,...", cli_quote(arg));
	char key[128];
	size_t kn = (size_t)(eq - arg);
	if (kn >= sizeof key)
		return cli_usage_error(CMD, "--vary: key too long");
	memcpy(key, arg, kn);
	key[kn] = '\0';
	int index = params_find(key);
	if (index < 0)
		return cli_usage_error(CMD, "--vary: unknown parameter '%s' (see `gully params`)", key);
	a->key = params_def(index)->key;
	bool range;
	int st = expand_range(a, eq + 1, &range);
	if (st)
		return st;
	if (!range) {
		for (const char *v = eq + 1;;) {
			size_t n = strcspn(v, ",");
			if (n == 0)
				return cli_usage_error(CMD, "--vary %s: an empty value in '%s'", key, eq + 1);
			if ((st = add_value(a, v, n)))
				return st;
			if (!v[n])
				break;
			v += n + 1;
		}
	}
	struct params p;
	params_defaults(&p);
	for (int k = 0; k < a->count; k++) {
		int err = params_set_text(&p, index, a->values[k]);
		if (err) {
			char msg[256];
			describe_param_error(msg, sizeof msg, err, index, cli_quote(a->values[k]));
			return cli_usage_error(CMD, "--vary %s", msg);
		}
	}
	return 0;
}

/* The argument vector of grid point `point`'s `gully run`. */
struct argv_buf {
	char **v;
	int n, cap;
	char **owned; /* strings made here, freed with the vector */
	int nowned;
};

static int push(struct argv_buf *b, const char *s, bool own)
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

static void argv_free(struct argv_buf *b)
{
	for (int i = 0; i < b->nowned; i++)
		free(b->owned[i]);
	free(b->owned);
	free(b->v);
	memset(b, 0, sizeof *b);
}

static void point_values(const struct axis *axes, int naxes, long point, int *pick)
{
	for (int i = naxes - 1; i >= 0; i--) {
		pick[i] = (int)(point % axes[i].count);
		point /= axes[i].count;
	}
}

static int build_argv(struct argv_buf *b, const char *self, const struct sim_options *o,
		      const struct axis *axes, int naxes, long point, bool json)
{
	char buf[512];
	int pick[64];
	point_values(axes, naxes, point, pick);
	/* Each job on one thread: the jobs already fill the cores. */
	int bad = push(b, self, false) | push(b, "run", false) | push(b, "--quiet", false) |
		  push(b, "--set", false) | push(b, "world.threads=1", false);
	if (json)
		bad |= push(b, "--json", false);
	if (o->preset)
		bad |= push(b, "-p", false) | push(b, o->preset, false);
	if (o->process)
		bad |= push(b, "--process", false) | push(b, o->process, false);
	if (o->particles_set) {
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)o->particles);
		bad |= push(b, "--particles", false) | push(b, buf, true);
	}
	if (o->seed >= 0) {
		snprintf(buf, sizeof buf, "%ld", o->seed);
		bad |= push(b, "--seed", false) | push(b, buf, true);
	}
	if (o->width) {
		snprintf(buf, sizeof buf, "%dx%d", o->width, o->height);
		bad |= push(b, "--size", false) | push(b, buf, true);
	}
	if (o->hardness)
		bad |= push(b, "--hardness", false) | push(b, o->hardness, false);
	for (int i = 0; i < o->nsets; i++)
		bad |= push(b, "--set", false) | push(b, o->sets[i], false);
	for (int i = 0; i < naxes; i++) {
		snprintf(buf, sizeof buf, "%s=%s", axes[i].key, axes[i].values[pick[i]]);
		bad |= push(b, "--set", false) | push(b, buf, true);
	}
	return bad ? -1 : 0;
}

/* Single quotes unless the word is plainly safe for a POSIX shell. */
static void print_shell_word(FILE *fp, const char *s)
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

static pid_t spawn(char **argv, const char *self, int *fd)
{
	int pipefd[2];
	if (pipe(pipefd) != 0)
		return -1;
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (pid == 0) {
#ifdef __linux__
		/* A sweep killed outright (SIGKILL) takes its runs with it. */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
			_exit(127);
#else
		(void)parent;
#endif
		close(pipefd[0]);
		if (dup2(pipefd[1], STDOUT_FILENO) < 0)
			_exit(127);
		close(pipefd[1]);
		if (self)
			execv(self, argv);
		else
			execvp(cli_program, argv);
		fprintf(stderr, "%s sweep: cannot run %s: %s\n", cli_program, self ? self : cli_program,
			strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	*fd = pipefd[0];
	return pid;
}

static bool slot_read(struct run_slot *s)
{
	if (s->len + 4096 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8192;
		char *n = realloc(s->out, cap);
		if (!n)
			return false;
		s->out = n;
		s->cap = cap;
	}
	ssize_t got = read(s->fd, s->out + s->len, s->cap - s->len - 1);
	if (got > 0) {
		s->len += (size_t)got;
		s->out[s->len] = '\0';
		return true;
	}
	if (got < 0 && errno == EINTR)
		return true;
	return false;
}

/* The row (TSV: the line after the header; JSON: the object) a run printed. */
static const char *run_row(const char *out, bool json, const char **header, size_t *hlen)
{
	if (json)
		return out;
	const char *nl = strchr(out, '\n');
	if (!nl)
		return NULL;
	*header = out;
	*hlen = (size_t)(nl - out);
	return nl + 1;
}

static void print_row(FILE *fp, const struct axis *axes, int naxes, long point,
		      const char *row, bool json)
{
	int pick[64];
	point_values(axes, naxes, point, pick);
	size_t n = strcspn(row, "\n");
	if (json) {
		fputc('{', fp);
		for (int i = 0; i < naxes; i++) {
			const struct param_def *d = params_def(params_find(axes[i].key));
			bool quote = d->type == PARAM_ENUM || d->type == PARAM_BOOL;
			fprintf(fp, "\"%s\": %s%s%s, ", axes[i].key, quote ? "\"" : "",
				axes[i].values[pick[i]], quote ? "\"" : "");
		}
		/* Drop the run's own opening brace. */
		const char *body = row;
		while (*body == ' ')
			body++;
		if (*body == '{')
			body++;
		fprintf(fp, "%.*s\n", (int)(n - (size_t)(body - row)), body);
		return;
	}
	for (int i = 0; i < naxes; i++)
		fprintf(fp, "%s\t", axes[i].values[pick[i]]);
	fprintf(fp, "%.*s\n", (int)n, row);
}

/* This very binary, so every run is the same build; NULL: look gully up in PATH. */
static const char *self_path(void)
{
	static char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
	if (n > 0) {
		path[n] = '\0';
		return path;
	}
	return NULL;
}

/* A signal (INT, TERM, HUP, QUIT) or a stdout that can take no more (EPIPE)
 * stops the sweep: its runs are stopped by the caller, and this says how
 * far it got. Returns the exit status, 0 to go on. */
static int sweep_stopped(long done, long points, bool broken)
{
	int sig = cli_signal_caught();
	if (!sig && !broken)
		return 0;
	if (sig)
		cli_error("sweep stopped by %s: %ld of %ld runs finished; the runs under way "
			  "were stopped", cli_signal_name(sig), done, points);
	else
		cli_error("sweep stopped: stdout is closed or failed: %ld of %ld runs finished; "
			  "the runs under way were stopped", done, points);
	return sig ? 128 + sig : 1;
}

static int run_grid(const char *self, const struct sim_options *o, const struct axis *axes,
		    int naxes, long points, long jobs, const char *argv0)
{
	char **rows = calloc((size_t)points, sizeof *rows);
	struct run_slot *slots = calloc((size_t)jobs, sizeof *slots);
	struct pollfd *pfd = calloc((size_t)jobs + 1, sizeof *pfd);
	if (!rows || !slots || !pfd) {
		free(rows);
		free(slots);
		free(pfd);
		cli_error("out of memory");
		return 1;
	}
	struct progress pg;
	progress_begin(&pg, (uint64_t)points, "runs", o->quiet);
	long next = 0, done = 0, failed = 0, active = 0;
	long printed = 0;
	char *header = NULL;
	bool header_done = false;
	int status = 0;
	while (done < points) {
		while (active < jobs && next < points) {
			struct argv_buf b = {0};
			struct run_slot *s = NULL;
			for (long k = 0; k < jobs; k++)
				if (!slots[k].pid) {
					s = &slots[k];
					break;
				}
			if (build_argv(&b, argv0, o, axes, naxes, next, o->json) != 0 ||
			    (s->pid = spawn(b.v, self, &s->fd)) <= 0) {
				argv_free(&b);
				s->pid = 0;
				cli_error("cannot start a run: %s", strerror(errno));
				status = 1;
				goto out;
			}
			argv_free(&b);
			s->point = next++;
			s->len = 0;
			active++;
		}
		nfds_t n = 0;
		for (long k = 0; k < jobs; k++)
			if (slots[k].pid) {
				pfd[n].fd = slots[k].fd;
				pfd[n].events = POLLIN;
				pfd[n].revents = 0;
				n++;
			}
		/* stdout too, for no event: a pipe whose reader has gone shows
		 * POLLERR at once, not only at the next row. */
		pfd[n].fd = STDOUT_FILENO;
		pfd[n].events = 0;
		pfd[n].revents = 0;
		if (poll(pfd, n + 1, -1) < 0 && errno != EINTR) {
			cli_error("poll: %s", strerror(errno));
			status = 1;
			goto out;
		}
		if ((status = sweep_stopped(done, points, pfd[n].revents & POLLERR)))
			goto out;
		for (long k = 0; k < jobs; k++) {
			struct run_slot *s = &slots[k];
			if (!s->pid)
				continue;
			bool ready = false;
			for (nfds_t i = 0; i < n; i++)
				if (pfd[i].fd == s->fd && pfd[i].revents)
					ready = true;
			if (!ready || slot_read(s))
				continue;
			/* End of output: the run is over. */
			close(s->fd);
			int ws;
			while (waitpid(s->pid, &ws, 0) < 0 && errno == EINTR)
				;
			s->pid = 0;
			active--;
			done++;
			const char *h = NULL, *row = NULL;
			size_t hlen = 0;
			if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0 && s->out)
				row = run_row(s->out, o->json, &h, &hlen);
			if (!row) {
				failed++;
				struct argv_buf b = {0};
				build_argv(&b, argv0, o, axes, naxes, s->point, o->json);
				fprintf(stderr, "%s sweep: run %ld failed:", cli_program, s->point + 1);
				for (int i = 0; i < b.n; i++) {
					fputc(' ', stderr);
					print_shell_word(stderr, b.v[i]);
				}
				fputc('\n', stderr);
				argv_free(&b);
				rows[s->point] = strdup("");
			} else {
				if (!header && h) {
					header = malloc(hlen + 1);
					if (header) {
						memcpy(header, h, hlen);
						header[hlen] = '\0';
					}
				}
				rows[s->point] = strdup(row);
			}
			progress_update(&pg, (uint64_t)done);
			/* Print in grid order as soon as the next row is in. */
			while (printed < points && rows[printed]) {
				if (rows[printed][0] && !header_done && !o->json) {
					for (int i = 0; i < naxes; i++)
						printf("%s\t", axes[i].key);
					printf("%s\n", header ? header : "");
					header_done = true;
				}
				if (rows[printed][0])
					print_row(stdout, axes, naxes, printed, rows[printed], o->json);
				printed++;
			}
			if (fflush(stdout) != 0 || ferror(stdout)) {
				status = sweep_stopped(done, points, true);
				goto out;
			}
		}
	}
out:
	progress_end(&pg);
	for (long k = 0; k < jobs; k++)
		if (slots[k].pid) {
			kill(slots[k].pid, SIGTERM);
			close(slots[k].fd);
			waitpid(slots[k].pid, NULL, 0);
		}
	for (long k = 0; k < jobs; k++)
		free(slots[k].out);
	for (long i = 0; i < points; i++)
		free(rows[i]);
	free(rows);
	free(slots);
	free(pfd);
	free(header);
	if (failed) {
		cli_error("%ld of %ld runs failed", failed, points);
		status = 1;
	}
	return status;
}

int cmd_sweep(int argc, char **argv)
{
	static const struct option longopts[] = {
		SIM_LONG_OPTIONS,
		{"vary", required_argument, NULL, OPT_VARY},
		{"jobs", required_argument, NULL, OPT_JOBS},
		{"emit", no_argument, NULL, OPT_EMIT},
		{NULL, 0, NULL, 0},
	};
	struct sim_options o;
	sim_options_init(&o);
	struct axis *axes = NULL;
	int naxes = 0, status = 0;
	long jobs = sysconf(_SC_NPROCESSORS_ONLN);
	bool emit = false;
	if (jobs < 1)
		jobs = 1;
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, SIM_SHORT_OPTIONS, longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_HELP:
			usage(stdout);
			goto done;
		case OPT_VERSION:
			printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			goto done;
		case OPT_VARY: {
			if (naxes >= 64) {
				status = cli_usage_error(CMD, "at most 64 --vary");
				goto done;
			}
			struct axis *na = realloc(axes, (size_t)(naxes + 1) * sizeof *na);
			if (!na) {
				status = cli_usage_error(CMD, "out of memory");
				goto done;
			}
			axes = na;
			status = parse_vary(&axes[naxes], optarg);
			naxes++;
			if (status)
				goto done;
			break;
		}
		case OPT_JOBS: {
			uint64_t n;
			if (!parse_u64(optarg, &n) || n < 1 || n > 1024) {
				status = cli_usage_error(CMD, "--jobs: '%s' is not a count from 1 to 1024",
							 optarg);
				goto done;
			}
			jobs = (long)n;
			break;
		}
		case OPT_EMIT:
			emit = true;
			break;
		case '?':
		case ':':
			status = cli_bad_option(CMD, opt, argv);
			goto done;
		default: {
			int took = sim_options_take(&o, CMD, opt, optarg);
			if (took < 0) {
				status = EXIT_USAGE;
				goto done;
			}
			if (opt == 'o' || opt == OPT_DUMP_PRESET) {
				status = cli_usage_error(CMD, "'%s' is for single runs: emit the commands "
							 "with --emit and add it there", argv[optind - 1]);
				goto done;
			}
		}
		}
	}
	if (optind < argc) {
		if (o.preset) {
			status = cli_usage_error(CMD, "two presets: -p %s and %s", o.preset, argv[optind]);
			goto done;
		}
		o.preset = argv[optind++];
	}
	if (optind < argc) {
		status = cli_usage_error(CMD, "one preset at most ('%s' is extra)", argv[optind]);
		goto done;
	}
	if (naxes == 0) {
		status = cli_usage_error(CMD, "nothing to vary: give --vary KEY=V1,V2,...");
		goto done;
	}
	/* The shared options are checked once here rather than in every run. */
	struct params p;
	if ((status = sim_options_load(&o, CMD, &p, NULL)))
		goto done;
	long points = 1;
	for (int i = 0; i < naxes; i++) {
		for (int j = 0; j < i; j++)
			if (strcmp(axes[i].key, axes[j].key) == 0) {
				status = cli_usage_error(CMD, "--vary %s given twice", axes[i].key);
				goto done;
			}
		points *= axes[i].count;
		if (points > SWEEP_MAX_POINTS) {
			status = cli_usage_error(CMD, "the grid has more than %d points",
						 SWEEP_MAX_POINTS);
			goto done;
		}
	}
	if (emit) {
		for (long pt = 0; pt < points; pt++) {
			struct argv_buf b = {0};
			if (build_argv(&b, cli_program, &o, axes, naxes, pt, o.json) != 0) {
				argv_free(&b);
				status = cli_usage_error(CMD, "out of memory");
				goto done;
			}
			for (int i = 0; i < b.n; i++) {
				if (i)
					putchar(' ');
				print_shell_word(stdout, b.v[i]);
			}
			putchar('\n');
			argv_free(&b);
		}
		goto done;
	}
	if (jobs > points)
		jobs = points;
	cli_signals_install(CLI_SIGNALS_DEFER);
	status = run_grid(self_path(), &o, axes, naxes, points, jobs, cli_program);
done:
	free_axes(axes, naxes);
	sim_options_free(&o);
	return status;
}
