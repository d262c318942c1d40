/* gully sweep run here: each grid point is one `gully run` in a child process
 * (this very binary, sweep_child.c), --jobs at a time, rows printed in grid
 * order as they come; or one point (--point N), its row also kept in --out
 * DIR. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/signals.h"
#include "cli/sweep.h"
#include "io/fileio.h"

static int keep_row(const struct sweep *s, long point, const char *row, const char *h,
		    size_t hlen, bool echo);
static int keep_failure(const struct sweep *s, long point, int ws);

static void report_failed(const struct sweep *s, long point)
{
	struct argv_buf b = {0};
	sweep_run_argv(&b, s, cli_program, point);
	fprintf(stderr, "%s sweep: point %ld failed: ", cli_program, point);
	sweep_print_argv(stderr, &b);
	fputc('\n', stderr);
	argv_free(&b);
}

/* What a sweep over the grid has gathered so far. */
struct grid_state {
	char **rows;       /* a point's row once its run is in ("" if it failed) */
	long done, failed, printed;
	long resumed;      /* of done: rows --resume took from --out DIR */
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

/* A signal (INT, TERM, HUP, QUIT) or a stdout that can take no more (EPIPE)
 * stops the sweep: the signal's number, -1 for stdout, 0 to go on. */
static int sweep_stop_why(bool broken)
{
	int sig = cli_signal_caught();
	return sig ? sig : broken ? -1 : 0;
}

/* How far a stopped sweep got: its last line, after its runs are stopped
 * and every other line is out. Returns the exit status. */
static int sweep_stopped(int why, long done, long points)
{
	/* Only when some were: with every run done, "stopped" would send the
	 * user looking for runs that never were. */
	const char *rest = done < points ? "; the runs under way were stopped" : "";
	if (why > 0)
		cli_error("sweep stopped by %s: %ld of %ld runs finished%s", cli_signal_name(why),
			  done, points, rest);
	else
		cli_error("sweep stopped: stdout is closed or failed: %ld of %ld runs finished%s",
			  done, points, rest);
	return why > 0 ? 128 + why : 1;
}

/* The bar's line cleared for a line of text; the next update draws it again. */
static void bar_clear(struct grid_state *g)
{
	if (g->pg.enabled) {
		fputs("\r\033[K", stderr);
		g->pg.last_draw = 0;
	}
}

/* Takes in a finished run: what it said on stderr, then its row (or its
 * failure) is kept, and the rows now in order are printed. A row -o cannot
 * keep sets *status to 1 and the sweep goes on; a stdout that fails ends
 * it: true, *why -1. */
static bool collect_run(const struct sweep *s, struct grid_state *g, struct run_slot *slot,
			int *status, int *why)
{
	const char *h = NULL;
	size_t hlen = 0;
	int ws = 0;
	const char *row = sweep_slot_finish(slot, s->o.json, &h, &hlen, &ws);
	g->done++;
	if (!row || slot->err.len || slot->err_cut) {
		bar_clear(g);
		sweep_slot_print_err(slot);
	}
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
	/* Rows to the terminal the bar is on: the bar goes first, or the rows
	 * would start at its end; it is drawn again under them. The bar counts
	 * this sweep's runs, not the rows --resume took. */
	const uint64_t ran = (uint64_t)(g->done - g->resumed);
	if (g->pg.enabled && isatty(STDOUT_FILENO)) {
		bar_clear(g);
		fflush(stderr);
		print_ready(s, g);
		progress_update(&g->pg, ran);
	} else {
		progress_update(&g->pg, ran);
		print_ready(s, g);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		*why = -1;
		return true;
	}
	return false;
}

/* --resume: the rows --out DIR holds for this grid are taken as done and
 * their points not run again; a row file that is not this grid's stops the
 * sweep before any run (said, 1): running over it, or around it, would
 * leave a table that --collect refuses. */
static int resume_rows(const struct sweep *s, struct grid_state *g)
{
	char *header = sweep_table_header(s);
	int columns;
	g->header = sweep_metrics_header(&columns);
	if (!header || !g->header) {
		free(header);
		cli_error("out of memory");
		return 1;
	}
	int status = 0;
	for (long pt = 0; pt < s->points && !status; pt++) {
		char *row;
		enum sweep_row r = sweep_row_done(s, pt, header, &row);
		if (r == SWEEP_ROW_BAD)
			status = 1;
		if (r == SWEEP_ROW_OK) {
			g->rows[pt] = row;
			g->resumed++;
		}
	}
	free(header);
	g->done = g->resumed;
	if (!status && !s->o.quiet && g->resumed)
		cli_error("--resume: %ld of %ld points are done in %s; running the other %ld",
			  g->resumed, s->points, sweep_quoted(s->out_dir), s->points - g->resumed);
	return status;
}

/* --out and --save-maps DIR, there already (a sweep resumed, a point run
 * again) but not writable by this user: every run would do its work and
 * then fail to keep it, a line per point, so it is said once before any
 * run. (Not for --emit: another machine's runs write there, maybe as
 * another user, and NFS root squashing makes this machine's answer moot.) */
static int dirs_writable(const struct sweep *s)
{
	const char *dirs[] = {s->out_dir, s->maps_dir};
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		if (dirs[i] && access(dirs[i], W_OK | X_OK) != 0) {
			cli_error("%s: cannot write the runs' files in it: %s", dirs[i],
				  strerror(errno));
			return 1;
		}
	return 0;
}

/* The next point from `next` on that has no row yet (--resume took it). */
static long next_to_run(const struct sweep *s, const struct grid_state *g, long next)
{
	while (next < s->points && g->rows[next])
		next++;
	return next;
}

int sweep_run_grid(const struct sweep *s, long jobs)
{
	const char *self = sweep_self_path();
	struct grid_state g = {.rows = calloc((size_t)s->points, sizeof *g.rows)};
	struct run_slot *slots = calloc((size_t)jobs, sizeof *slots);
	struct pollfd *pfd = calloc((size_t)jobs * 2 + 1, sizeof *pfd);
	int status = 0, why = 0;
	long next = 0;
	if (!g.rows || !slots || !pfd) {
		cli_error("out of memory");
		status = 1;
		goto out;
	}
	if ((status = sweep_write_grids(s)) || (s->resume && (status = resume_rows(s, &g))) ||
	    (g.resumed < s->points && (status = dirs_writable(s))))
		goto out;
	progress_begin(&g.pg, (uint64_t)(s->points - g.resumed), "runs", s->o.quiet);
	print_ready(s, &g);
	while (g.done < s->points) {
		/* After a signal no run starts, and poll only looks: the run
		 * left uncollected below has no pipe to wake it. */
		const bool stopping = cli_signal_caught() != 0;
		for (long k = 0; k < jobs && !stopping; k++) {
			if (slots[k].pid || (next = next_to_run(s, &g, next)) >= s->points)
				continue;
			if ((status = sweep_slot_start(s, &slots[k], self, next++, true)))
				goto out;
		}
		nfds_t n = sweep_slots_poll(slots, jobs, pfd);
		if (poll(pfd, n + 1, stopping ? 0 : -1) < 0 && errno != EINTR) {
			cli_error("poll: %s", strerror(errno));
			status = 1;
			goto out;
		}
		if ((why = sweep_stop_why(pfd[n].revents & POLLERR))) {
			/* The bar goes first: what follows starts its own line. */
			progress_end(&g.pg);
			g.pg.enabled = false;
			if (why > 0)
				print_finished(s, &g);
			goto out;
		}
		for (long k = 0; k < jobs; k++) {
			struct run_slot *slot = &slots[k];
			/* A run ended by a signal the sweep caught too is stopped,
			 * not failed: the next round stops the sweep. */
			if (!slot->pid || !sweep_slot_take(slot, pfd, n) || cli_signal_caught())
				continue;
			if (collect_run(s, &g, slot, &status, &why))
				goto out;
		}
	}
out:
	progress_end(&g.pg);
	sweep_slots_stop(slots, jobs);
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
	/* The sweep's own word on why it stopped is the last line. */
	return why ? sweep_stopped(why, g.done, s->points) : status;
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

/* Where this process's stderr (the run's, which it inherits or echoes)
 * goes when that is a file the user can look at, such as a Slurm task's log
 * or /dev/null: false for a terminal, a pipe, or a file already removed (GNU
 * parallel's buffer), which --collect cannot point to. */
static bool stderr_file(char *path, size_t len)
{
	struct stat st;
	if (fstat(STDERR_FILENO, &st) != 0 ||
	    !(S_ISREG(st.st_mode) || (S_ISCHR(st.st_mode) && !isatty(STDERR_FILENO))))
		return false;
	ssize_t n = readlink("/proc/self/fd/2", path, len - 1);
	if (n <= 0 || path[0] != '/')
		return false;
	path[n] = '\0';
	const size_t gone = strlen(" (deleted)");
	return !strchr(path, '\n') &&
	       !((size_t)n > gone && strcmp(path + n - gone, " (deleted)") == 0);
}

/* The note --collect reads back, a line each: how the run ended ("exit N"
 * or "signal N"), the machine it ran on ("host NAME", which matters when
 * parallel spread the points), and the file its messages went to ("stderr
 * PATH", when they went to one), so the user learns why from the table's
 * stderr instead of hunting for a log on another machine. */
static int keep_failure(const struct sweep *s, long point, int ws)
{
	char path[4096];
	sweep_file_name(path, sizeof path, s->out_dir, point, "failed");
	char note[4600], host[256] = "", err_path[4096];
	size_t n = (size_t)(WIFEXITED(ws) ? snprintf(note, sizeof note, "exit %d\n", WEXITSTATUS(ws))
					  : snprintf(note, sizeof note, "signal %d\n",
						     WIFSIGNALED(ws) ? WTERMSIG(ws) : 0));
	if (gethostname(host, sizeof host - 1) == 0 && host[0] && !strchr(host, '\n'))
		n += (size_t)snprintf(note + n, sizeof note - n, "host %s\n", host);
	if (stderr_file(err_path, sizeof err_path))
		n += (size_t)snprintf(note + n, sizeof note - n, "stderr %s\n", err_path);
	return save_text(path, note, n < sizeof note ? n : sizeof note - 1);
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

/* --point N --resume: point's row when --out DIR holds it, printed as
 * its run would print it (*done set); 1 when its file is bad (said). */
static int resume_point(const struct sweep *s, long point, bool *done)
{
	char *header = sweep_table_header(s), *row = NULL;
	if (!header) {
		cli_error("out of memory");
		return 1;
	}
	enum sweep_row r = sweep_row_done(s, point, header, &row);
	if (r == SWEEP_ROW_OK) {
		if (!s->o.json)
			printf("%s\n", header);
		sweep_print_row(stdout, s, point, row);
		*done = true;
	}
	free(row);
	free(header);
	return r == SWEEP_ROW_BAD;
}

int sweep_run_point(const struct sweep *s, long point)
{
	/* The grid first: a point run with other options than DIR's sweep
	 * would put a row (or maps) of another sweep among its own. */
	int bad = sweep_write_grids(s);
	bool done = false;
	if (!bad && s->resume)
		bad = resume_point(s, point, &done);
	if (!bad && !done)
		bad = dirs_writable(s);
	if (bad || done)
		return bad ? bad : cli_flush_stdout("the row");
	/* One run: its stderr is the sweep's, as `gully run`'s own would be. */
	struct run_slot slot = {0};
	if (sweep_slot_start(s, &slot, sweep_self_path(), point, false))
		return 1;
	while (sweep_slot_read(&slot))
		;
	const char *h = "";
	size_t hlen = 0;
	int ws = 0;
	const char *row = sweep_slot_finish(&slot, s->o.json, &h, &hlen, &ws);
	int status;
	if (row) {
		status = keep_row(s, point, row, h, hlen, true);
	} else {
		report_failed(s, point);
		if (s->out_dir)
			keep_failure(s, point, ws);
		status = 1;
	}
	free(slot.out.text);
	return status;
}
