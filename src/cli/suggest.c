/* "did you mean ...?": the nearest known name to a mistyped one. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "io/preset.h"

/* Levenshtein distance, capped at 255 (names are short). */
static int distance(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	if (na > 254 || nb > 254)
		return 255;
	int row[256];
	for (size_t j = 0; j <= nb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= na; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= nb; j++) {
			int up = row[j];
			int best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[nb];
}

const char *cli_nearest(const char *word, const char *(*name)(int index, void *ctx), void *ctx)
{
	const char *best = NULL;
	int best_d = 0;
	/* Close enough to be a typo: a third of the word, at least two edits. */
	int limit = (int)strlen(word) / 3;
	if (limit < 2)
		limit = 2;
	for (int i = 0;; i++) {
		const char *n = name(i, ctx);
		if (!n)
			break;
		int d = distance(word, n);
		/* A key typed without its section ("friction") matches its tail. */
		const char *dot = strrchr(n, '.');
		if (dot && !strchr(word, '.') && strcmp(dot + 1, word) == 0)
			d = 1;
		if (d <= limit && (!best || d < best_d)) {
			best = n;
			best_d = d;
		}
	}
	return best;
}

void cli_join_names(char *buf, size_t len, const char *sep,
		    const char *(*name)(int index, void *ctx), void *ctx)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; name(i, ctx); i++) {
		const char *n = name(i, ctx);
		if (!n[0])
			continue;
		int k = snprintf(buf + used, len - used, "%s%s", used ? sep : "", n);
		if (k < 0 || (size_t)k >= len - used) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)k;
	}
}

static const char *param_name(int index, void *ctx)
{
	(void)ctx;
	const struct param_def *d = index < params_count() ? params_def(index) : NULL;
	return d ? d->key : NULL;
}

int cli_unknown_key(const char *cmd, const char *opt, const char *key)
{
	const char *near = cli_nearest(key, param_name, NULL);
	const char *sep = opt ? ": " : "";
	opt = opt ? opt : "";
	if (near)
		return cli_usage_error(cmd, "%s%sunknown parameter '%s' (did you mean %s?)", opt, sep,
				       key, near);
	return cli_usage_error(cmd, "%s%sunknown parameter '%s' (see `gully params`)", opt, sep,
			       key);
}

/* cli_nearest walks the names in order and stops at the first NULL: the
 * table's own terminator. */
static const char *long_name(int index, void *ctx)
{
	const struct option *o = ctx;
	return o[index].name;
}

void cli_option_hint(const char *arg, const struct option *longopts, char *buf, size_t len)
{
	buf[0] = '\0';
	if (strncmp(arg, "--", 2) != 0 || !arg[2])
		return;
	char word[64];
	snprintf(word, sizeof word, "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
	const char *near = longopts ? cli_nearest(word, long_name, (void *)longopts) : NULL;
	if (near) {
		snprintf(buf, len, " (did you mean --%s?)", near);
		return;
	}
	/* A parameter's name as an option (--friction): --set takes it. */
	near = cli_nearest(word, param_name, NULL);
	if (near)
		snprintf(buf, len, " (a parameter? --set %s=VALUE)", near);
}

struct preset_names {
	struct preset_entry *list;
	int n;
};

static const char *preset_name(int index, void *ctx)
{
	const struct preset_names *pn = ctx;
	if (index >= pn->n)
		return NULL;
	/* A refused name is no suggestion: -p could not take it either. */
	return pn->list[index].refused ? "" : pn->list[index].name;
}

void cli_preset_hint(const char *name, char *buf, size_t len)
{
	struct preset_names pn = {NULL, 0};
	buf[0] = '\0';
	if (preset_list(&pn.list, &pn.n))
		return;
	const char *near = cli_nearest(name, preset_name, &pn);
	if (near)
		snprintf(buf, len, " (did you mean %s?)", near);
	preset_list_free(pn.list, pn.n);
}
