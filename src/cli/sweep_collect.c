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
#define RUN_MAX_BYTES (1u << 20)

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
		cli_error("%s: cannot read: %s (written by `gully sweep --emit --out %s`)", path,
			  strerror(errno), dir);
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

/* The expected first fields of point's row: its varied values. */
static bool row_matches(const struct sweep *s, long point, const char *row)
{
	int pick[SWEEP_MAX_AXES];
	sweep_point_values(s, point, pick);
	for (int i = 0; i < s->naxes; i++) {
		const char *v = s->axes[i].values[pick[i]];
		size_t n = strlen(v);
		if (strncmp(row, v, n) != 0 || row[n] != '\t')
			return false;
		row += n + 1;
	}
	return true;
}

/* One point: its row printed, or a marked row and a line on stderr; false
 * when it has no good row. */
static bool collect_point(const struct sweep *s, const char *dir, long point, const char *header,
			  int columns)
{
	char path[4096];
	sweep_file_name(path, sizeof path, dir, point, s->o.json ? "json" : "tsv");
	char *text;
	size_t len;
	if (file_read_all(path, RUN_MAX_BYTES, &text, &len) != 0) {
		char failed[4096];
		sweep_file_name(failed, sizeof failed, dir, point, "failed");
		bool did_fail = access(failed, F_OK) == 0;
		fprintf(stderr, "%s sweep: point %ld %s: %s\n", cli_program, point,
			did_fail ? "failed" : "missing", did_fail ? failed : path);
		sweep_print_marked(stdout, s, point, did_fail ? "failed" : "missing", columns);
		return false;
	}
	const char *row = text;
	if (!s->o.json) {
		size_t hl = strcspn(text, "\n");
		row = text[hl] ? text + hl + 1 : "";
		if (strlen(header) != hl || strncmp(text, header, hl) != 0)
			row = NULL;
	}
	bool ok = row && row[0] && (s->o.json || row_matches(s, point, row));
	if (ok)
		printf("%.*s\n", (int)strcspn(row, "\n"), row);
	else {
		fprintf(stderr, "%s sweep: point %ld: %s is not this grid's row\n", cli_program,
			point, path);
		sweep_print_marked(stdout, s, point, "failed", columns);
	}
	free(text);
	return ok;
}

int sweep_collect(const char *dir)
{
	struct sweep s;
	memset(&s, 0, sizeof s);
	int status = read_grid(dir, &s);
	int columns = 1;
	char *run_header = status ? NULL : sweep_metrics_header(&columns);
	char *header = NULL;
	size_t hlen = 0;
	FILE *mem = run_header ? open_memstream(&header, &hlen) : NULL;
	if (!status && (!mem || (sweep_print_header(mem, &s, run_header, strlen(run_header)),
				 fclose(mem) != 0))) {
		cli_error("out of memory");
		status = 1;
	}
	if (!status) {
		header[strcspn(header, "\n")] = '\0';
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
