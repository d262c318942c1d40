/* A point's row as --out DIR keeps it (DIR/run-NNNN.tsv or .json), read back
 * and checked to be this grid's, for --collect and for --resume: one reading,
 * so a row --collect would refuse is never taken as done by --resume. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/sweep.h"
#include "io/fileio.h"

#define RUN_MAX_BYTES (1u << 20)

char *sweep_table_header(const struct sweep *s)
{
	int columns;
	char *run_header = sweep_metrics_header(&columns);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = run_header ? open_memstream(&text, &len) : NULL;
	if (mem) {
		sweep_print_header(mem, s, run_header, strlen(run_header));
		if (fclose(mem) != 0) {
			free(text);
			text = NULL;
		}
	}
	free(run_header);
	if (text)
		text[strcspn(text, "\n")] = '\0';
	return text;
}

/* What every row of point's starts with: its varied values ("v1\tv2\t"; in
 * JSON `{"k1": v1, `), as sweep_print_row writes them; malloc'd. */
static char *row_prefix(const struct sweep *s, long point)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return NULL;
	sweep_print_row(mem, s, point, "");
	if (fclose(mem) != 0) {
		free(text);
		return NULL;
	}
	text[strcspn(text, "\n")] = '\0';
	return text;
}

static size_t count_tabs(const char *s, size_t n)
{
	size_t tabs = 0;
	for (size_t i = 0; i < n; i++)
		tabs += s[i] == '\t';
	return tabs;
}

/* Checks text (the whole file) as point's: NULL and *row (into text: the
 * run's own row, as sweep_print_row takes it) when good, else what is wrong. */
static const char *check_text(const struct sweep *s, long point, const char *header,
			      char *text, size_t len, char **row)
{
	if (len == 0)
		return "it is empty";
	if (memchr(text, '\0', len))
		return "it holds NUL bytes";
	char *line = text;
	if (!s->o.json) {
		const size_t hl = strcspn(text, "\n");
		if (!text[hl] && hl < strlen(header) && memcmp(text, header, hl) == 0)
			return "it is cut short in its header";
		if (hl != strlen(header) || memcmp(text, header, hl) != 0)
			return "its header is not this sweep's (another grid's, or another "
			       "gully's columns)";
		if (!text[hl])
			return "it is cut short after its header";
		line = text + hl + 1;
	}
	const size_t n = strcspn(line, "\n");
	if (!line[n])
		return "its row is cut short (no newline at its end)";
	if (line[n + 1])
		return "it holds more than one row";
	char *prefix = row_prefix(s, point);
	if (!prefix)
		return "out of memory";
	const size_t pl = strlen(prefix);
	const bool ours = n > pl && strncmp(line, prefix, pl) == 0;
	free(prefix);
	if (!ours)
		return "its row is not this point's (its varied values differ)";
	if (s->o.json ? line[n - 1] != '}' : count_tabs(line, n) != count_tabs(header, strlen(header)))
		return "its row is cut short or has other columns than the header";
	line[n] = '\0';
	*row = line + pl;
	return NULL;
}

enum sweep_row sweep_row_read(const struct sweep *s, const char *dir, long point,
			      const char *header, char **row, char *why, size_t whylen)
{
	char path[4096];
	sweep_file_name(path, sizeof path, dir, point, s->o.json ? "json" : "tsv");
	*row = NULL;
	char *text;
	size_t len;
	if (file_read_all(path, RUN_MAX_BYTES, &text, &len) != 0) {
		if (errno == ENOENT) {
			char failed[4096];
			sweep_file_name(failed, sizeof failed, dir, point, "failed");
			return access(failed, F_OK) == 0 ? SWEEP_ROW_FAILED : SWEEP_ROW_NONE;
		}
		/* There but not readable (permissions, a directory): not a
		 * missing row, nor a wrong one; its file may be fine. */
		snprintf(why, whylen, "%s: cannot read: %s", path, file_strerror(errno));
		return SWEEP_ROW_UNREADABLE;
	}
	char *r = NULL;
	const char *bad = check_text(s, point, header, text, len, &r);
	if (bad || !(*row = strdup(r))) {
		snprintf(why, whylen, "%s: %s", path, bad ? bad : "out of memory");
		free(text);
		return SWEEP_ROW_BAD;
	}
	free(text);
	return SWEEP_ROW_OK;
}

const char *const sweep_map_kinds[SWEEP_MAP_KINDS] = {"gsnap", "png"};

/* A point's --save-maps files, there when its row is: a sweep first run
 * without them, or maps deleted since, leave the point to run again. */
static bool maps_there(const struct sweep *s, long point)
{
	for (size_t k = 0; s->maps_dir && k < SWEEP_MAP_KINDS; k++) {
		char path[4096];
		struct stat st;
		sweep_file_name(path, sizeof path, s->maps_dir, point, sweep_map_kinds[k]);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			return false;
	}
	return true;
}

enum sweep_row sweep_row_done(const struct sweep *s, long point, const char *header,
			      char **row)
{
	char why[4200];
	enum sweep_row r = sweep_row_read(s, s->out_dir, point, header, row, why, sizeof why);
	if (r == SWEEP_ROW_UNREADABLE) {
		cli_error("--resume: %s: make it readable, or remove it to run point %ld again",
			  why, point);
		r = SWEEP_ROW_BAD;
	} else if (r == SWEEP_ROW_BAD)
		cli_error("--resume: %s: remove it to run point %ld again", why, point);
	if (r == SWEEP_ROW_OK && !maps_there(s, point)) {
		free(*row);
		*row = NULL;
		r = SWEEP_ROW_NONE;
	}
	return r;
}
