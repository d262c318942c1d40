/* gully sweep, split by job: the grid and its command lines (sweep_grid.c),
 * running it here (sweep_run.c), printing it for other machines
 * (sweep_emit.c), joining what they wrote (sweep_collect.c) and reading a
 * kept row back, for that and for --resume (sweep_rows.c). */
#ifndef GULLY_SWEEP_H
#define GULLY_SWEEP_H

#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "cli/cli.h"

#define SWEEP_CMD "sweep"
#define SWEEP_MAX_POINTS 100000
#define SWEEP_MAX_VALUES 10000
#define SWEEP_MAX_AXES 64
/* The file the emitter leaves in --out DIR so --collect knows the grid. */
#define SWEEP_GRID_FILE "sweep.grid"
/* --emit=slurm's most array tasks: Slurm's default MaxArraySize is 1001
 * (indices 0 to 1000), so a bigger grid's tasks take several points each. */
#define SWEEP_SLURM_TASKS 1000

struct sweep_axis {
	const char *key;
	char **values;
	int count;
};

struct sweep {
	struct sim_options o;        /* the options every run shares */
	struct sweep_axis *axes;
	int naxes;
	long points;
	const char *gully;           /* the binary the runs use: --gully, else this one */
	const char *out_dir;         /* --out DIR: one file per run */
	const char *maps_dir;        /* --save-maps DIR: each run's map and picture */
	const char *start;           /* a height map or snapshot every run starts from; NULL: fresh terrain */
	bool resume;                 /* --resume: a point whose row --out DIR holds is done */
};

/* sweep_grid.c */
int sweep_parse_vary(struct sweep_axis *a, const char *arg);
void sweep_free_axes(struct sweep_axis *axes, int n);
/* The index of each axis's value at grid point `point` (last axis fastest). */
void sweep_point_values(const struct sweep *s, long point, int *pick);

/* A NULL-terminated argument vector and the strings it owns. */
struct argv_buf {
	char **v;
	int n, cap;
	char **owned;
	int nowned;
};
int argv_push(struct argv_buf *b, const char *s, bool own);
void argv_free(struct argv_buf *b);
/* `gully run` for grid point `point`, the program being argv0. */
int sweep_run_argv(struct argv_buf *b, const struct sweep *s, const char *argv0, long point);
/* `gully sweep ... --point` without the index: what every emitted line or
 * job-array task runs. */
int sweep_point_argv(struct argv_buf *b, const struct sweep *s, const char *argv0);
/* The files --save-maps keeps of each point, by extension (run-NNNN.EXT):
 * what its commands write and what --resume looks for. */
extern const char *const sweep_map_kinds[];
#define SWEEP_MAP_KINDS 2
/* A word as a POSIX shell reads it back (single quotes unless plainly safe). */
void sweep_shell_word(FILE *fp, const char *s);
/* The same as a string, for a message that names a directory mid-sentence
 * ("done in 'my runs'"), where a bare one with a space reads as two words;
 * a few at once, each until the fourth call after it. */
const char *sweep_quoted(const char *s);
void sweep_print_argv(FILE *fp, const struct argv_buf *b);
/* The table's header (varied keys, then the run's header) and one row (the
 * varied values, then the run's row; JSON: the keys put into its object). */
void sweep_print_header(FILE *fp, const struct sweep *s, const char *run_header, size_t hlen);
void sweep_print_row(FILE *fp, const struct sweep *s, long point, const char *row);
/* DIR/run-0007.tsv (or .json), DIR/run-0007.gsnap ...: point `point`'s file. */
void sweep_file_name(char *buf, size_t len, const char *dir, long point, const char *ext);
/* DIR/sweep.grid's text (malloc'd; NULL when out of memory): the points,
 * the format, each axis's values and the options every run shares. */
char *sweep_grid_text(const struct sweep *s, size_t *len);
/* Point's row with `mark` ("failed", "missing") under the first metric,
 * `columns` metrics wide (JSON: a status field). */
void sweep_print_marked(FILE *fp, const struct sweep *s, long point, const char *mark,
			int columns);
/* `gully run`'s metrics header (malloc'd, one line) and its column count. */
char *sweep_metrics_header(int *columns);
/* The absolute path of this binary, or NULL. */
const char *sweep_self_path(void);

/* What one run wrote on one of its pipes. */
struct run_text {
	char *text;
	size_t len, cap;
};

/* A run's stderr kept beyond this is dropped (and said to be): it is for
 * a line or two of error, not for a run gone wild to fill the memory. */
#define RUN_ERR_MAX 16384

struct run_slot {
	pid_t pid;
	int fd, efd;     /* its stdout, and stderr (-1 when closed or not taken) */
	long point;
	struct run_text out, err;
	bool err_cut;    /* err went past RUN_ERR_MAX */
};

/* sweep_child.c: a point's run in slot, its stderr into the slot with
 * keep_err (else the sweep's own); 0, or 1 (said). */
int sweep_slot_start(const struct sweep *s, struct run_slot *slot, const char *self,
		     long point, bool keep_err);
/* Reads the run's stdout; false at its end. */
bool sweep_slot_read(struct run_slot *s);
/* Reads what is ready of both pipes; true once both are at their end. */
bool sweep_slot_take(struct run_slot *slot, const struct pollfd *pfd, nfds_t n);
/* What the run said on stderr, whole, then forgotten. */
void sweep_slot_print_err(struct run_slot *s);
/* Reaps a finished run; its row (NULL when it failed), header and status. */
const char *sweep_slot_finish(struct run_slot *s, bool json, const char **h, size_t *hlen,
			      int *ws);
/* The pipes of the runs under way into pfd, then stdout's entry (no
 * events: for POLLERR); returns the index of stdout's. */
nfds_t sweep_slots_poll(const struct run_slot *slots, long jobs, struct pollfd *pfd);
/* Stops (TERM) and reaps the runs under way, drops their output, frees. */
void sweep_slots_stop(struct run_slot *slots, long jobs);

/* sweep_run.c: every point here, --jobs at a time; or one (--point). */
int sweep_run_grid(const struct sweep *s, long jobs);
int sweep_run_point(const struct sweep *s, long point);

/* sweep_emit.c: the command list (parallel) or a job-array script (slurm). */
enum sweep_emit { SWEEP_EMIT_NONE, SWEEP_EMIT_PARALLEL, SWEEP_EMIT_SLURM };
int sweep_emit(const struct sweep *s, enum sweep_emit how);
/* Writes --out DIR/sweep.grid (making DIR), and the same in --save-maps
 * DIR: the grid --collect reads. A grid already there must be this one (2
 * and a line saying so otherwise; 1 when it cannot be read): runs of two
 * sweeps in one directory would make one mixed table, or a mix of maps.
 * A grid an older gully wrote, without the shared options, counts as this
 * one when the rest is the same. */
int sweep_write_grids(const struct sweep *s);

/* sweep_rows.c: the rows --out DIR keeps, read back for --collect and
 * --resume. The table's header line (the varied keys, then the run's; no
 * newline), malloc'd, or NULL when out of memory. */
char *sweep_table_header(const struct sweep *s);
enum sweep_row {
	SWEEP_ROW_NONE,   /* no row file */
	SWEEP_ROW_FAILED, /* no row file, and the run's failure note instead */
	SWEEP_ROW_OK,     /* this grid's row for the point */
	SWEEP_ROW_BAD,    /* a row file that is not that (damaged, another grid's) */
	SWEEP_ROW_UNREADABLE /* a row file there that cannot be read (permissions) */
};
/* Point's row file in dir. OK: *row (malloc'd) is the run's own row as
 * sweep_print_row takes it; BAD: why holds "FILE: what is wrong";
 * UNREADABLE: "FILE: cannot read: REASON". */
enum sweep_row sweep_row_read(const struct sweep *s, const char *dir, long point,
			      const char *header, char **row, char *why, size_t whylen);
/* For --resume: sweep_row_read in --out DIR, a BAD or UNREADABLE row said
 * (with how to run the point again) and returned as BAD, and a row without
 * its --save-maps files counted as NONE, the point to run again. */
enum sweep_row sweep_row_done(const struct sweep *s, long point, const char *header,
			      char **row);

/* sweep_collect.c: DIR's run files as the one table. */
int sweep_collect(const char *dir);

#endif
