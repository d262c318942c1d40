/* gully sweep --emit: the grid for other machines. `parallel` (the default)
 * prints one command per point for GNU parallel; `slurm` a job-array script,
 * one point per task index. With --out DIR each command is `gully sweep
 * --point N`, writing DIR/run-NNNN.tsv, and DIR/sweep.grid tells --collect
 * the grid, so the order the runs finish in does not matter. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/sweep.h"
#include "io/fileio.h"

/* DIR/sweep.grid: the points, the format and each axis's values. */
int sweep_write_grid(const struct sweep *s)
{
	if (mkdir(s->out_dir, 0777) != 0 && errno != EEXIST) {
		cli_error("%s: cannot create: %s", s->out_dir, strerror(errno));
		return 1;
	}
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", s->out_dir, SWEEP_GRID_FILE);
	struct atomic_file af;
	if (atomic_open(&af, path) != 0) {
		cli_error("%s: cannot create: %s", path, strerror(errno));
		return 1;
	}
	fprintf(af.fp, "gully-sweep 1\npoints %ld\nformat %s\n", s->points,
		s->o.json ? "json" : "tsv");
	for (int i = 0; i < s->naxes; i++) {
		fprintf(af.fp, "axis %s", s->axes[i].key);
		for (int k = 0; k < s->axes[i].count; k++)
			fprintf(af.fp, " %s", s->axes[i].values[k]);
		fputc('\n', af.fp);
	}
	if (ferror(af.fp)) {
		atomic_abort(&af);
		cli_error("%s: write failed", path);
		return 1;
	}
	if (atomic_commit(&af) != 0) {
		cli_error("%s: cannot save: %s", path, strerror(errno));
		return 1;
	}
	return 0;
}

static int emit_lines(const struct sweep *s)
{
	for (long pt = 0; pt < s->points; pt++) {
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
	printf("#!/bin/sh\n"
	       "# A gully sweep of %ld runs as a Slurm job array: task N runs grid point N\n"
	       "# and writes %s/run-NNNN.%s. Submit with `sbatch FILE`; when every task\n"
	       "# is done, `gully sweep --collect %s` prints the table.\n"
	       "#SBATCH --job-name=gully-sweep\n"
	       "#SBATCH --array=0-%ld\n"
	       "#SBATCH --ntasks=1\n"
	       "#SBATCH --cpus-per-task=1\n"
	       "#SBATCH --output=",
	       s->points, dir, s->o.json ? "json" : "tsv", dir, s->points - 1);
	sweep_shell_word(stdout, logs);
	printf("\nexec ");
	sweep_print_argv(stdout, &b);
	printf(" --point \"$SLURM_ARRAY_TASK_ID\"\n");
	argv_free(&b);
	return 0;
}

int sweep_emit(const struct sweep *s, enum sweep_emit how)
{
	if (how == SWEEP_EMIT_SLURM && !s->out_dir)
		return cli_usage_error(SWEEP_CMD, "--emit=slurm needs --out DIR (a directory every "
				       "node sees) for the runs' files");
	if (s->out_dir && sweep_write_grid(s))
		return 1;
	/* Made here so the commands name it by its absolute path. */
	if (s->maps_dir && mkdir(s->maps_dir, 0777) != 0 && errno != EEXIST) {
		cli_error("%s: cannot create: %s", s->maps_dir, strerror(errno));
		return 1;
	}
	int status = how == SWEEP_EMIT_SLURM ? emit_slurm(s) : emit_lines(s);
	if (!status && fflush(stdout) != 0) {
		cli_error("stdout: %s", strerror(errno));
		status = 1;
	}
	return status;
}
