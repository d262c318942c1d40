/* gully sweep --emit: the grid for other machines. `parallel` (the default)
 * prints one command per point for GNU parallel; `slurm` a job-array script,
 * one point per task index. With --out DIR each command is `gully sweep
 * --point N`, writing DIR/run-NNNN.tsv, and DIR/sweep.grid tells --collect
 * the grid, so the order the runs finish in does not matter. */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/sweep.h"
#include "io/fileio.h"

/* Whether `old` is `text` as a gully before the shared options wrote it:
 * the same lines without the last one, `shared ...`. */
static bool grid_before_shared(const char *old, size_t olen, const char *text, size_t len)
{
	size_t cut = len;
	while (cut > 0 && text[cut - 1] == '\n')
		cut--;
	while (cut > 0 && text[cut - 1] != '\n')
		cut--;
	return strncmp(text + cut, "shared", 6) == 0 && olen == cut && memcmp(old, text, cut) == 0;
}

/* The first line of `old` (DIR's grid) that is not `text`'s, for the
 * refusal: which axis, values, format or options differ, in a few words. */
static void grid_difference(char *buf, size_t len, const char *old, size_t olen,
			    const char *text)
{
	size_t o = 0, t = 0; /* old is NUL-terminated (file_read_all), text too */
	for (;;) {
		const size_t on = strcspn(old + o, "\n"), tn = strcspn(text + t, "\n");
		if (on != tn || memcmp(old + o, text + t, on) != 0 || (o >= olen && !text[t])) {
			/* Each line alone, then quoted (cut, control bytes shown). */
			char was[256], now[256];
			snprintf(was, sizeof was, "%.*s", (int)(on < 255 ? on : 255), old + o);
			snprintf(now, sizeof now, "%.*s", (int)(tn < 255 ? tn : 255), text + t);
			snprintf(buf, len, "'%s' where this sweep has '%s'", cli_quote(was),
				 cli_quote(now));
			return;
		}
		o += on + (o + on < olen);
		t += tn + (text[t + tn] != '\0');
	}
}

/* An existing DIR/sweep.grid: 0 when it is `text` (or `text` as an older
 * gully wrote it, without the shared options: its failed points can still
 * be run again), 2 (and why) when it is another sweep's, 1 when it cannot
 * be read, -1 when there is none. */
static int grid_already(const char *path, const char *dir, const char *opt, const char *text,
			size_t len)
{
	char *old;
	size_t olen;
	if (file_read_all(path, 16u << 20, &old, &olen) != 0)
		return errno == ENOENT ? -1 : (cli_error("%s: cannot read: %s", path, strerror(errno)), 1);
	const bool same = (olen == len && memcmp(old, text, len) == 0) ||
			  grid_before_shared(old, olen, text, len);
	char differs[200];
	if (!same)
		grid_difference(differs, sizeof differs, old, olen, text);
	free(old);
	if (same)
		return 0;
	const bool maps = strcmp(opt, "--save-maps") == 0;
	cli_error("%s holds another sweep (its %s has %s): its %s would mix with this one's; "
		  "use another %s, or empty %s first", sweep_quoted(dir), SWEEP_GRID_FILE, differs,
		  maps ? "maps" : "run files", opt, sweep_quoted(dir));
	return 2;
}

/* DIR/sweep.grid (making DIR), for the directory `opt` names: left alone
 * when it is already this grid. */
static int write_grid_in(const struct sweep *s, const char *dir, const char *opt)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		cli_error("%s: cannot create: %s", dir, strerror(errno));
		return 1;
	}
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, SWEEP_GRID_FILE);
	size_t len;
	char *text = sweep_grid_text(s, &len);
	if (!text) {
		cli_error("out of memory");
		return 1;
	}
	int status = grid_already(path, dir, opt, text, len);
	if (status >= 0) {
		free(text);
		return status;
	}
	struct atomic_file af;
	status = 1;
	if (atomic_open(&af, path) != 0)
		cli_error("%s: cannot create: %s", path, strerror(errno));
	else if (fwrite(text, 1, len, af.fp) != len || ferror(af.fp)) {
		atomic_abort(&af);
		cli_error("%s: write failed", path);
	} else if (atomic_commit(&af) != 0)
		cli_error("%s: cannot save: %s", path, strerror(errno));
	else
		status = 0;
	free(text);
	return status;
}

/* --save-maps DIR holds the grid too: a second sweep's maps would
 * otherwise replace the first's run-0000.gsnap ... and leave the rest, a
 * directory of maps from two sweeps that nothing tells apart. */
int sweep_write_grids(const struct sweep *s)
{
	int status = s->out_dir ? write_grid_in(s, s->out_dir, "--out") : 0;
	if (!status && s->maps_dir)
		status = write_grid_in(s, s->maps_dir, "--save-maps");
	return status;
}

/* --resume: which points --out DIR already holds a good row for (and their
 * maps, with --save-maps), by the reading --resume and --collect share, so
 * a job list submitted again holds only the rest. A row file that is not
 * this grid's is refused (said, 1) as the sweep's own --resume refuses it.
 * *done is malloc'd, one flag a point; *ndone counts them. */
static int rows_done(const struct sweep *s, bool **done, long *ndone)
{
	char *header = sweep_table_header(s);
	*done = calloc((size_t)s->points, sizeof **done);
	*ndone = 0;
	if (!header || !*done) {
		free(header);
		cli_error("out of memory");
		return 1;
	}
	int status = 0;
	for (long pt = 0; pt < s->points && !status; pt++) {
		char *row = NULL;
		enum sweep_row r = sweep_row_done(s, pt, header, &row);
		status = r == SWEEP_ROW_BAD;
		if (r == SWEEP_ROW_OK) {
			(*done)[pt] = true;
			(*ndone)++;
		}
		free(row);
	}
	free(header);
	return status;
}

/* The one line --emit --resume says of what DIR holds already. */
static void say_done(const struct sweep *s, long ndone, bool slurm)
{
	if (s->o.quiet || ndone == 0)
		return;
	if (ndone == s->points)
		cli_error("--resume: all %ld points are done in %s: %s; --collect prints the table",
			  s->points, sweep_quoted(s->out_dir),
			  slurm ? "each task will print its kept row and end" : "nothing to emit");
	else if (slurm)
		cli_error("--resume: %ld of %ld points are done in %s: their tasks print the kept "
			  "row and end, the other %ld run", ndone, s->points, sweep_quoted(s->out_dir),
			  s->points - ndone);
	else
		cli_error("--resume: %ld of %ld points are done in %s; emitting the other %ld", ndone,
			  s->points, sweep_quoted(s->out_dir), s->points - ndone);
}

/* One command a point, those done (done[pt], when done is given) left out. */
static int emit_lines(const struct sweep *s, const bool *done)
{
	for (long pt = 0; pt < s->points; pt++) {
		if (done && done[pt])
			continue;
		struct argv_buf b = {0};
		char index[32];
		snprintf(index, sizeof index, "%ld", pt);
		int bad = s->out_dir ? sweep_point_argv(&b, s, s->gully) |
					       argv_push(&b, "--point", false) |
					       argv_push(&b, index, true)
				     : sweep_run_argv(&b, s, s->gully, pt);
		if (bad) {
			argv_free(&b);
			cli_error("out of memory");
			return 1;
		}
		sweep_print_argv(stdout, &b);
		putchar('\n');
		argv_free(&b);
	}
	return 0;
}

static int emit_slurm(const struct sweep *s)
{
	struct argv_buf b = {0};
	if (sweep_point_argv(&b, s, s->gully)) {
		argv_free(&b);
		cli_error("out of memory");
		return 1;
	}
	char dir[PATH_MAX], logs[PATH_MAX + 32];
	if (!realpath(s->out_dir, dir))
		snprintf(dir, sizeof dir, "%s", s->out_dir);
	snprintf(logs, sizeof logs, "%s/slurm-%%A_%%a.log", dir);
	/* Slurm refuses array indices from its MaxArraySize (1001 unless a
	 * site raises it): a bigger grid takes that many tasks, each running
	 * every SWEEP_SLURM_TASKS-th point from its own. */
	const bool strided = s->points > SWEEP_SLURM_TASKS;
	const long tasks = strided ? SWEEP_SLURM_TASKS : s->points;
	/* The collecting command as the user would type it: DIR quoted. */
	printf("#!/bin/sh\n"
	       "# A gully sweep of %ld run%s as a Slurm job array: task N runs grid point N\n"
	       "# and writes %s/run-NNNN.%s. Submit with `sbatch FILE`; when every task\n"
	       "# is done, `gully sweep --collect ",
	       s->points, s->points == 1 ? "" : "s", dir, s->o.json ? "json" : "tsv");
	sweep_shell_word(stdout, dir);
	printf("` prints the table.\n"
	       "#SBATCH --job-name=gully-sweep\n"
	       "#SBATCH --array=0-%ld\n"
	       "#SBATCH --ntasks=1\n"
	       "#SBATCH --cpus-per-task=1\n"
	       "#SBATCH --output=",
	       tasks - 1);
	sweep_shell_word(stdout, logs);
	if (!strided) {
		printf("\nexec ");
		sweep_print_argv(stdout, &b);
		printf(" --point \"$SLURM_ARRAY_TASK_ID\"\n");
		argv_free(&b);
		return 0;
	}
	printf("\n# Task N also runs points N + %ld, N + %ld, ...: Slurm's default MaxArraySize\n"
	       "# (1001) allows no more tasks.\n"
	       "status=0\n"
	       "point=$SLURM_ARRAY_TASK_ID\n"
	       "while [ \"$point\" -lt %ld ]; do\n\t",
	       tasks, 2 * tasks, s->points);
	sweep_print_argv(stdout, &b);
	printf(" --point \"$point\" || status=1\n"
	       "\tpoint=$((point + %ld))\n"
	       "done\n"
	       "exit $status\n",
	       tasks);
	argv_free(&b);
	return 0;
}

/* Every word a command holds on one line: the commands are one a line
 * (what parallel reads, a script's #SBATCH and comment lines), so a line
 * break in a path or --set value, even quoted, would cut one in two. The
 * words of point 0 stand for all: the points differ in numbers alone. */
static int check_one_line(const struct sweep *s, enum sweep_emit how)
{
	struct argv_buf b = {0};
	int bad = s->out_dir ? sweep_point_argv(&b, s, s->gully) : sweep_run_argv(&b, s, s->gully, 0);
	if (!bad && how == SWEEP_EMIT_SLURM)
		bad = argv_push(&b, s->out_dir, false);
	int status = bad ? cli_usage_error(SWEEP_CMD, "out of memory") : 0;
	for (int i = 0; !status && i < b.n; i++)
		if (strpbrk(b.v[i], "\n\r"))
			status = cli_usage_error(SWEEP_CMD, "--emit: '%s' holds a line break, and the "
						 "commands are one a line: rename it",
						 cli_quote(b.v[i]));
	argv_free(&b);
	return status;
}

int sweep_emit(const struct sweep *s, enum sweep_emit how)
{
	if (how == SWEEP_EMIT_SLURM && !s->out_dir)
		return cli_usage_error(SWEEP_CMD, "--emit=slurm needs --out DIR (a directory every "
				       "node sees) for the runs' files");
	int lines = check_one_line(s, how);
	if (lines)
		return lines;
	/* The directories are made here, so the commands name them by their
	 * absolute paths. */
	int grid = sweep_write_grids(s);
	if (grid)
		return grid;
	/* --resume: the command list leaves out the points done; a job
	 * array's task ids are its points, so its script keeps them all (their
	 * tasks print the kept row and end), but a bad row file is refused now,
	 * not in a task's log once the job has run. */
	bool *done = NULL;
	long ndone = 0;
	if (s->resume && rows_done(s, &done, &ndone)) {
		free(done);
		return 1;
	}
	if (s->resume)
		say_done(s, ndone, how == SWEEP_EMIT_SLURM);
	int status = how == SWEEP_EMIT_SLURM ? emit_slurm(s) : emit_lines(s, done);
	free(done);
	if (!status && fflush(stdout) != 0) {
		cli_error("stdout: %s", strerror(errno));
		status = 1;
	}
	return status;
}
