/* gully sweep run here: each grid point is one `gully run` in a child process
 * (this very binary), --jobs at a time, rows printed in grid order as they
 * come; or one point (--point N), its row also kept in --out DIR. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "cli/signals.h"
#include "cli/sweep.h"
#include "io/fileio.h"

static int keep_row(const struct sweep *s, long point, const char *row, const char *h,
		    size_t hlen, bool echo);
static int make_dir(const char *dir);
static int keep_failure(const struct sweep *s, long point, int ws);

struct run_slot {
	pid_t pid;
	int fd;
	long point;
	char *out;
	size_t len, cap;
};

static pid_t spawn(char **argv, const char *self, int *fd)
{
	int pipefd[2];
	if (pipe(pipefd) != 0)
		return -1;
	/* Between fork and exec the child has the sweep's signal handlers,
	 * which only note a signal: a TERM that stops the sweep then was lost,
	 * and the run went on for its whole length while the sweep waited for
	 * it. The signals wait, blocked, until the child has the default
	 * actions (an ignored one stays ignored, as nohup asked). */
	static const int stops[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	sigset_t block, old;
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
		sigaddset(&block, stops[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
			struct sigaction now;
			if (sigaction(stops[i], NULL, &now) == 0 && now.sa_handler != SIG_IGN)
				signal(stops[i], SIG_DFL);
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
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

/* Reads what is there; false at the end of the output (or on an error). */
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

/* Reaps a finished slot; its row (NULL when the run failed) is the slot's text. */
static const char *slot_finish(struct run_slot *s, bool json, const char **h, size_t *hlen,
			       int *ws)
{
	close(s->fd);
	while (waitpid(s->pid, ws, 0) < 0 && errno == EINTR)
		;
	s->pid = 0;
	if (WIFEXITED(*ws) && WEXITSTATUS(*ws) == 0 && s->out && s->len)
		return run_row(s->out, json, h, hlen);
	return NULL;
}

static void report_failed(const struct sweep *s, long point)
{
	struct argv_buf b = {0};
	sweep_run_argv(&b, s, cli_program, point);
	fprintf(stderr, "%s sweep: point %ld failed: ", cli_program, point);
	sweep_print_argv(stderr, &b);
	fputc('\n', stderr);
	argv_free(&b);
}

static int start_run(const struct sweep *s, struct run_slot *slot, const char *self, long point)
{
	struct argv_buf b = {0};
	if (sweep_run_argv(&b, s, cli_program, point) != 0 ||
	    (slot->pid = spawn(b.v, self, &slot->fd)) <= 0) {
		argv_free(&b);
		slot->pid = 0;
		cli_error("cannot start a run: %s", strerror(errno));
		return 1;
	}
	argv_free(&b);
	slot->point = point;
	slot->len = 0;
	return 0;
}

/* What a sweep over the grid has gathered so far. */
struct grid_state {
	char **rows;       /* a point's row once its run is in ("" if it failed) */
	long done, failed, printed;
	char *header;      /* the first run's header */
	bool header_done;
	struct progress pg;
};

/* Point's row, or for a failed run its varied values and "failed", as
 * --collect prints it; the header before the first row. */
static void print_point(const struct sweep *s, struct grid_state *g, long point)
{
	const char *row = g->rows[point];
	if (!g->header_done && !s->o.json && (row[0] || g->header)) {
		sweep_print_header(stdout, s, g->header ? g->header : "",
				   g->header ? strlen(g->header) : 0);
		g->header_done = true;
	}
	if (row[0]) {
		sweep_print_row(stdout, s, point, row);
		return;
	}
	int columns = 1;
	char *h = sweep_metrics_header(&columns);
	free(h);
	sweep_print_marked(stdout, s, point, "failed", columns);
}

/* Rows print in grid order as soon as the next one is in. A failed run's
 * row waits for the first good run's header (the table's own); if none
 * comes, the failures are all there is to say, on stderr. */
static void print_ready(const struct sweep *s, struct grid_state *g)
{
	while (g->printed < s->points && g->rows[g->printed] &&
	       (g->rows[g->printed][0] || g->header || s->o.json)) {
		print_point(s, g, g->printed);
		fflush(stdout);
		g->printed++;
	}
}

/* A sweep stopped by a signal: the runs that finished after the first one
 * still missing are printed too, out of grid order (each row names its
 * point by its varied values), so no finished run is lost. */
static void print_finished(const struct sweep *s, struct grid_state *g)
{
	long late = 0;
	for (long pt = g->printed; pt < s->points; pt++)
		if (g->rows[pt] && (g->rows[pt][0] || g->header || s->o.json)) {
			print_point(s, g, pt);
			late++;
		}
	fflush(stdout);
	if (late)
		cli_error("the last %ld row%s came out of grid order: the runs before them "
			  "had not finished", late, late == 1 ? "" : "s");
}

static bool slot_ready(const struct run_slot *slot, const struct pollfd *pfd, nfds_t n)
{
	for (nfds_t i = 0; i < n; i++)
		if (pfd[i].fd == slot->fd && pfd[i].revents)
			return true;
	return false;
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

/* Takes in a finished run: its row (or its failure) is kept, and the rows
 * now in order are printed. A row -o cannot keep sets *status to 1 and the
 * sweep goes on; a stdout that fails ends it: true, *status set. */
static bool collect_run(const struct sweep *s, struct grid_state *g, struct run_slot *slot,
			int *status)
{
	const char *h = NULL;
	size_t hlen = 0;
	int ws = 0;
	const char *row = slot_finish(slot, s->o.json, &h, &hlen, &ws);
	g->done++;
	if (!row) {
		g->failed++;
		report_failed(s, slot->point);
		if (s->out_dir)
			keep_failure(s, slot->point, ws);
	} else {
		if (!g->header && h)
			g->header = strndup(h, hlen);
		if (s->out_dir && keep_row(s, slot->point, row, h, hlen, false))
			*status = 1;
	}
	g->rows[slot->point] = strdup(row ? row : "");
	progress_update(&g->pg, (uint64_t)g->done);
	print_ready(s, g);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		*status = sweep_stopped(g->done, s->points, true);
		return true;
	}
	return false;
}

/* The runs still under way are stopped (TERM) and reaped. Their pipes close
 * after they end: a run stopped by TERM still prints its metrics row, and
 * into a closed pipe that was one "Broken pipe" line per run. */
static void stop_runs(struct run_slot *slots, long jobs)
{
	for (long k = 0; slots && k < jobs; k++)
		if (slots[k].pid)
			kill(slots[k].pid, SIGTERM);
	for (long k = 0; slots && k < jobs; k++) {
		if (slots[k].pid) {
			waitpid(slots[k].pid, NULL, 0);
			close(slots[k].fd);
		}
		free(slots[k].out);
	}
}

int sweep_run_grid(const struct sweep *s, long jobs)
{
	const char *self = sweep_self_path();
	struct grid_state g = {.rows = calloc((size_t)s->points, sizeof *g.rows)};
	struct run_slot *slots = calloc((size_t)jobs, sizeof *slots);
	struct pollfd *pfd = calloc((size_t)jobs + 1, sizeof *pfd);
	int status = 0;
	long next = 0;
	progress_begin(&g.pg, (uint64_t)s->points, "runs", s->o.quiet);
	if (!g.rows || !slots || !pfd) {
		cli_error("out of memory");
		status = 1;
		goto out;
	}
	if (make_dir(s->maps_dir) || (s->out_dir && (status = sweep_write_grid(s)))) {
		status = status ? status : 1;
		goto out;
	}
	while (g.done < s->points) {
		for (long k = 0; k < jobs && next < s->points; k++)
			if (!slots[k].pid && (status = start_run(s, &slots[k], self, next++)))
				goto out;
		nfds_t n = 0;
		for (long k = 0; k < jobs; k++)
			if (slots[k].pid)
				pfd[n++] = (struct pollfd){.fd = slots[k].fd, .events = POLLIN};
		/* stdout too, for no event: a pipe whose reader has gone shows
		 * POLLERR at once, not only at the next row. */
		pfd[n] = (struct pollfd){.fd = STDOUT_FILENO, .events = 0};
		if (poll(pfd, n + 1, -1) < 0 && errno != EINTR) {
			cli_error("poll: %s", strerror(errno));
			status = 1;
			goto out;
		}
		if ((status = sweep_stopped(g.done, s->points, pfd[n].revents & POLLERR))) {
			if (!(pfd[n].revents & POLLERR))
				print_finished(s, &g);
			goto out;
		}
		for (long k = 0; k < jobs; k++) {
			struct run_slot *slot = &slots[k];
			if (!slot->pid || !slot_ready(slot, pfd, n) || slot_read(slot))
				continue;
			if (collect_run(s, &g, slot, &status))
				goto out;
		}
	}
out:
	progress_end(&g.pg);
	stop_runs(slots, jobs);
	for (long i = 0; g.rows && i < s->points; i++)
		free(g.rows[i]);
	free(g.rows);
	free(slots);
	free(pfd);
	free(g.header);
	if (g.failed) {
		cli_error("%ld of %ld runs failed", g.failed, s->points);
		status = 1;
	}
	return status;
}

/* Writes `text` to path atomically, so a collector never reads half a row. */
static int save_text(const char *path, const char *text, size_t len)
{
	struct atomic_file af;
	if (atomic_open(&af, path) != 0) {
		cli_error("%s: cannot create: %s", path, strerror(errno));
		return 1;
	}
	if (fwrite(text, 1, len, af.fp) != len) {
		int e = errno;
		atomic_abort(&af);
		cli_error("%s: write failed: %s", path, strerror(e));
		return 1;
	}
	if (atomic_commit(&af) != 0) {
		cli_error("%s: cannot save: %s", path, strerror(errno));
		return 1;
	}
	return 0;
}

/* The point's table (header and row) as text, or its failure note. */
static char *point_text(const struct sweep *s, long point, const char *row, const char *h,
			size_t hlen, size_t *len)
{
	char *text = NULL;
	FILE *mem = open_memstream(&text, len);
	if (!mem)
		return NULL;
	if (!s->o.json)
		sweep_print_header(mem, s, h, hlen);
	sweep_print_row(mem, s, point, row);
	if (fclose(mem) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static int keep_failure(const struct sweep *s, long point, int ws)
{
	char path[4096];
	sweep_file_name(path, sizeof path, s->out_dir, point, "failed");
	char note[256];
	int n = WIFEXITED(ws) ? snprintf(note, sizeof note, "exit %d\n", WEXITSTATUS(ws))
			      : snprintf(note, sizeof note, "signal %d\n",
					 WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
	return save_text(path, note, (size_t)n);
}

/* Keeps point's table in --out DIR (and drops an older failure note). */
static int keep_row(const struct sweep *s, long point, const char *row, const char *h,
		    size_t hlen, bool echo)
{
	size_t len = 0;
	char *text = point_text(s, point, row, h, hlen, &len);
	if (!text) {
		cli_error("out of memory");
		return 1;
	}
	int status = 0;
	if (s->out_dir) {
		char path[4096];
		sweep_file_name(path, sizeof path, s->out_dir, point, s->o.json ? "json" : "tsv");
		status = save_text(path, text, len);
		sweep_file_name(path, sizeof path, s->out_dir, point, "failed");
		unlink(path);
	}
	if (echo)
		fwrite(text, 1, len, stdout);
	free(text);
	return status;
}

static int make_dir(const char *dir)
{
	if (dir && mkdir(dir, 0777) != 0 && errno != EEXIST) {
		cli_error("%s: cannot create: %s", dir, strerror(errno));
		return 1;
	}
	return 0;
}

int sweep_run_point(const struct sweep *s, long point)
{
	/* The grid first: a point run with other options than DIR's sweep
	 * would put a row of another sweep into its table. */
	int bad = s->out_dir ? sweep_write_grid(s) : 0;
	if (bad || make_dir(s->maps_dir))
		return bad ? bad : 1;
	struct run_slot slot = {0};
	if (start_run(s, &slot, sweep_self_path(), point))
		return 1;
	while (slot_read(&slot))
		;
	const char *h = "";
	size_t hlen = 0;
	int ws = 0;
	const char *row = slot_finish(&slot, s->o.json, &h, &hlen, &ws);
	int status;
	if (row) {
		status = keep_row(s, point, row, h, hlen, true);
	} else {
		report_failed(s, point);
		if (s->out_dir)
			keep_failure(s, point, ws);
		status = 1;
	}
	free(slot.out);
	return status;
}
