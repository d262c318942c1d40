/* gully sweep --collect DIR: the files `gully sweep --point N --out DIR` left
 * (wherever and in whatever order they ran) as the one table a local sweep
 * prints: grid order, one header, the varied keys first. A point without its
 * file is named on stderr and marked in its row ("missing" or "failed" under
 * the first metric), and the exit status is 1. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/sweep.h"
#include "io/fileio.h"

#define GRID_MAX_BYTES (16u << 20)

static int grid_fail(const char *path, int line, const char *what)
{
	cli_error("%s:%d: %s", path, line, what);
	return 1;
}

static int add_axis(struct sweep *s, char *line)
{
	struct sweep_axis *na = realloc(s->axes, (size_t)(s->naxes + 1) * sizeof *na);
	if (!na)
		return -1;
	s->axes = na;
	struct sweep_axis *a = &s->axes[s->naxes++];
	memset(a, 0, sizeof *a);
	char *save = NULL;
	char *key = strtok_r(line, " ", &save);
	int index = key ? params_find(key) : -1;
	if (index < 0)
		return -1;
	a->key = params_def(index)->key;
	for (char *v = strtok_r(NULL, " ", &save); v; v = strtok_r(NULL, " ", &save)) {
		char **nv = realloc(a->values, (size_t)(a->count + 1) * sizeof *nv);
		if (!nv)
			return -1;
		a->values = nv;
		if (!(a->values[a->count] = strdup(v)))
			return -1;
		a->count++;
	}
	return a->count > 0 && a->count <= SWEEP_MAX_VALUES ? 0 : -1;
}

/* Reads DIR/sweep.grid into s (axes, points, format). */
static int read_grid(const char *dir, struct sweep *s)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, SWEEP_GRID_FILE);
	char *text;
	size_t len;
	if (file_read_all(path, GRID_MAX_BYTES, &text, &len) != 0) {
		/* The command that writes it, DIR quoted as the user would type it
		 * (errno first: quoting may change it). */
		const int err = errno;
		cli_error("%s: cannot read: %s (a sweep with `--out %s` writes it)", path,
			  strerror(err), sweep_quoted(dir));
		return 1;
	}
	int status = 0, lineno = 0;
	char fmt[8] = "";
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line && !status;
	     line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (lineno == 1 && strcmp(line, "gully-sweep 1") != 0)
			status = grid_fail(path, lineno, "not a gully sweep grid (no 'gully-sweep 1')");
		else if (strncmp(line, "points ", 7) == 0)
			s->points = strtol(line + 7, NULL, 10);
		else if (strncmp(line, "format ", 7) == 0)
			snprintf(fmt, sizeof fmt, "%s", line + 7);
		else if (strncmp(line, "shared", 6) == 0 && (line[6] == ' ' || !line[6]))
			continue; /* for sweep_write_grids' check; the rows carry them */
		else if (strncmp(line, "axis ", 5) == 0 && s->naxes < SWEEP_MAX_AXES) {
			if (add_axis(s, line + 5))
				status = grid_fail(path, lineno, "an axis with an unknown key or no values");
		} else if (lineno > 1)
			status = grid_fail(path, lineno, "unknown line");
	}
	free(text);
	long product = s->naxes ? 1 : 0;
	for (int i = 0; i < s->naxes && product <= SWEEP_MAX_POINTS; i++)
		product *= s->axes[i].count;
	if (!status && (product != s->points || s->points < 1 || s->points > SWEEP_MAX_POINTS))
		status = grid_fail(path, lineno, "the points do not match the axes' values");
	if (!status && strcmp(fmt, "tsv") != 0 && strcmp(fmt, "json") != 0)
		status = grid_fail(path, lineno, "format is not tsv or json");
	s->o.json = strcmp(fmt, "json") == 0;
	return status;
}

/* What a failed run's note (sweep_run.c, keep_failure) says, as one
 * phrase: how it ended, where, and where its stderr went. An older gully's
 * note has the first line only; one that is not a note is quoted. */
static void note_says(const char *path, char *out, size_t len)
{
	char *text;
	size_t n;
	if (file_read_all(path, 64u << 10, &text, &n) != 0) {
		snprintf(out, len, "%s: cannot read: %s", path, strerror(errno));
		return;
	}
	int code = -1;
	bool killed = false;
	const char *host = NULL, *err = NULL, *first = NULL;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end;
		first = first ? first : line;
		if ((!strncmp(line, "exit ", 5) || !strncmp(line, "signal ", 7)) && code < 0) {
			killed = line[0] == 's';
			long v = strtol(line + (killed ? 7 : 5), &end, 10);
			code = !*end && v >= 0 && v < 256 ? (int)v : -1;
		} else if (!strncmp(line, "host ", 5))
			host = line + 5;
		else if (!strncmp(line, "stderr ", 7))
			err = line + 7;
	}
	int m = code < 0 ? snprintf(out, len, "%s says '%s'", path, cli_quote(first ? first : ""))
	      : killed	 ? snprintf(out, len, "%s: killed by signal %d (%s)", path, code, strsignal(code))
			 : snprintf(out, len, "%s: exit %d", path, code);
	if (code >= 0 && host && m >= 0 && (size_t)m < len)
		m += snprintf(out + m, len - (size_t)m, " on %s", cli_quote(host));
	/* A note with its host says where stderr went; an older one knows not. */
	if (code >= 0 && host && m >= 0 && (size_t)m < len)
		snprintf(out + m, len - (size_t)m, "; its stderr went to %s",
			 err ? err : "what ran it (a terminal, or GNU parallel's output)");
	free(text);
}

/* One point: its row printed, or a marked row and a line on stderr; false
 * when it has no good row. */
static bool collect_point(const struct sweep *s, const char *dir, long point, const char *header,
			  int columns)
{
	char *row, why[4200];
	enum sweep_row r = sweep_row_read(s, dir, point, header, &row, why, sizeof why);
	if (r == SWEEP_ROW_OK) {
		sweep_print_row(stdout, s, point, row);
		free(row);
		return true;
	}
	char path[4096];
	sweep_file_name(path, sizeof path, dir, point,
			r == SWEEP_ROW_FAILED ? "failed" : s->o.json ? "json" : "tsv");
	/* Four cases, four words: no file ("missing"), the run's failure note
	 * ("failed"), a file that is not this point's row (damaged, another
	 * grid's: "failed"), and a file there that cannot be read, whose row
	 * may be good ("unreadable": not missing, and nothing failed). */
	const char *mark = r == SWEEP_ROW_NONE ? "missing"
			   : r == SWEEP_ROW_UNREADABLE ? "unreadable" : "failed";
	if (r == SWEEP_ROW_UNREADABLE)
		fprintf(stderr, "%s sweep: point %ld: %s\n", cli_program, point, why);
	else if (r == SWEEP_ROW_BAD)
		fprintf(stderr, "%s sweep: point %ld: %s is not this grid's row: %s\n", cli_program,
			point, path, why + (strncmp(why, path, strlen(path)) == 0 ? strlen(path) + 2 : 0));
	else if (r == SWEEP_ROW_FAILED) {
		char says[4800];
		note_says(path, says, sizeof says);
		fprintf(stderr, "%s sweep: point %ld failed: %s\n", cli_program, point, says);
	} else
		fprintf(stderr, "%s sweep: point %ld %s: %s\n", cli_program, point, mark, path);
	sweep_print_marked(stdout, s, point, mark, columns);
	return false;
}

int sweep_collect(const char *dir)
{
	struct sweep s;
	memset(&s, 0, sizeof s);
	int status = read_grid(dir, &s);
	int columns = 1;
	char *run_header = status ? NULL : sweep_metrics_header(&columns);
	char *header = run_header ? sweep_table_header(&s) : NULL;
	if (!status && !header) {
		cli_error("out of memory");
		status = 1;
	}
	if (!status) {
		if (!s.o.json)
			printf("%s\n", header);
		long bad = 0;
		for (long pt = 0; pt < s.points; pt++)
			bad += !collect_point(&s, dir, pt, header, columns);
		if (bad) {
			cli_error("%ld of %ld points have no row", bad, s.points);
			status = 1;
		}
	}
	free(header);
	free(run_header);
	sweep_free_axes(s.axes, s.naxes);
	return status;
}
