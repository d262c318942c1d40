/* gully complete [--] WORD...: what Tab may put in place of the last word.
 *
 * The shell's script (completion/gully.bash) hands over the words of the
 * line up to the one under the cursor, the program's name first, and this
 * prints the candidates for that last word, one a line. They come from the
 * tables the commands themselves read, never a list of their own: the
 * command table (main.c), each command's getopt_long options and what their
 * values are (struct cli_options), the parameter registry and the preset
 * search `-p` uses. A line "@files" or "@dirs" asks the script to add the
 * file or directory names it completes itself.
 *
 * It runs on every Tab: no simulation, nothing big allocated, nothing on
 * stderr and status 0 whatever the words are (a half-typed word is no
 * error, and the shell has no use for one). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/base/error.h"

/* The word being completed: its first `fixed` bytes stay as they are (an
 * option's "--emit=", a key's "KEY=", a list's items up to its last comma);
 * a candidate must start with the rest. */
struct word {
	const char *text;
	size_t fixed;
};

static void offer(const struct word *w, const char *name, const char *tail)
{
	const char *typed = w->text + w->fixed;
	if (strncmp(name, typed, strlen(typed)) == 0)
		printf("%.*s%s%s\n", (int)w->fixed, w->text, name, tail);
}

static void offer_names(const struct word *w, const char *(*name)(int, void *), void *ctx)
{
	const char *n;
	for (int i = 0; (n = name(i, ctx)); i++)
		if (n[0])
			offer(w, n, "");
}

/* Whether `name` is one of the comma-separated items in [list, end). */
static bool listed(const char *list, const char *end, const char *name)
{
	const size_t n = strlen(name);
	for (const char *p = list; p < end;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;
		if ((size_t)(stop - p) == n && strncmp(p, name, n) == 0)
			return true;
		p = stop + 1;
	}
	return false;
}

/* A comma list (--overlay streams,po): the item after the last comma, from
 * the names the list does not hold yet. */
static void offer_list(struct word w, const char *(*name)(int, void *), void *ctx)
{
	const char *list = w.text + w.fixed;
	const char *comma = strrchr(list, ',');
	if (comma)
		w.fixed = (size_t)(comma + 1 - w.text);
	const char *n;
	for (int i = 0; (n = name(i, ctx)); i++)
		if (n[0] && !(comma && listed(list, comma, n)))
			offer(&w, n, "");
}

static void offer_presets(const struct word *w)
{
	char **names;
	int count;
	if (preset_complete(w->text + w->fixed, &names, &count) == GULLY_OK) {
		for (int i = 0; i < count; i++)
			offer(w, names[i], "");
		preset_names_free(names);
	}
	puts("@files");
}

static const char *section_name(int index, void *ctx)
{
	(void)ctx;
	struct param_section sec;
	return params_section(index, &sec) ? sec.name : NULL;
}

/* An enum's or a bool's values, as params_format writes them. */
struct param_values {
	int key;
	struct params p;
	char buf[64];
};

static const char *param_value(int index, void *ctx)
{
	struct param_values *v = ctx;
	const enum param_type t = params_def(v->key)->type;
	if ((t != PARAM_ENUM && t != PARAM_BOOL) || params_set(&v->p, v->key, index) != GULLY_OK)
		return NULL;
	params_format(&v->p, v->key, v->buf, sizeof v->buf);
	return v->buf;
}

/* --set KEY=VALUE, --vary KEY=V1,V2: with no dot yet the sections (one
 * section alone: its keys), then the keys with their '=', then an enum's or
 * a bool's values (--vary's as a list). */
static void offer_param(struct word w, bool list)
{
	const char *typed = w.text + w.fixed;
	const char *eq = strchr(typed, '=');
	if (eq) {
		struct param_values v;
		char key[128];
		snprintf(key, sizeof key, "%.*s", (int)(eq - typed), typed);
		if ((size_t)(eq - typed) >= sizeof key || (v.key = params_find(key)) < 0)
			return;
		params_defaults(&v.p);
		w.fixed = (size_t)(eq + 1 - w.text);
		if (list)
			offer_list(w, param_value, &v);
		else
			offer_names(&w, param_value, &v);
		return;
	}
	int sections = 0, only = -1;
	struct param_section sec;
	for (int s = 0; params_section(s, &sec); s++)
		if (strncmp(sec.name, typed, strlen(typed)) == 0 ||
		    strncmp(typed, sec.name, strlen(sec.name)) == 0) {
			sections++;
			only = s;
		}
	if (sections > 1) {
		for (int s = 0; params_section(s, &sec); s++)
			offer(&w, sec.name, ".");
		return;
	}
	if (only < 0 || !params_section(only, &sec))
		return;
	for (int i = sec.first; i < sec.first + sec.count; i++)
		offer(&w, params_def(i)->key, "=");
}

/* `gully params` takes a section or, once a '.' is typed, one key. */
static void offer_section_or_key(const struct word *w)
{
	const char *typed = w->text + w->fixed;
	const char *dot = strchr(typed, '.');
	if (!dot) {
		offer_names(w, section_name, NULL);
		return;
	}
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)(dot - typed), typed);
	int s = params_section_find(name);
	struct param_section sec;
	if (s < 0 || !params_section(s, &sec))
		return;
	for (int i = sec.first; i < sec.first + sec.count; i++)
		offer(w, params_def(i)->key, "");
}

static void offer_value(const struct word *w, enum cli_value_kind kind,
			const char *(*names)(int, void *))
{
	switch (kind) {
	case CLI_VALUE_NONE:
		break;
	case CLI_VALUE_FILE:
		puts("@files");
		break;
	case CLI_VALUE_DIR:
		puts("@dirs");
		break;
	case CLI_VALUE_PRESET:
		offer_presets(w);
		break;
	case CLI_VALUE_NAME:
		if (names)
			offer_names(w, names, NULL);
		break;
	case CLI_VALUE_NAME_LIST:
		if (names)
			offer_list(*w, names, NULL);
		break;
	case CLI_VALUE_SECTION:
		offer_section_or_key(w);
		break;
	case CLI_VALUE_PARAM_SET:
	case CLI_VALUE_PARAM_VARY:
		offer_param(*w, kind == CLI_VALUE_PARAM_VARY);
		break;
	}
}

static bool refused(const struct cli_options *opts, int val)
{
	for (const int *r = opts->refused; r && *r; r++)
		if (*r == val)
			return true;
	return false;
}

static bool hidden(const struct cli_options *opts, const char *name)
{
	for (const char *const *h = opts->hidden; h && *h; h++)
		if (strcmp(*h, name) == 0)
			return true;
	return false;
}

/* The long option `name` (n bytes) names, as getopt_long finds it: exactly,
 * or by a prefix only one option (or its aliases) starts with; or NULL. */
static const struct option *long_option(const struct cli_options *opts, const char *name, size_t n)
{
	const struct option *found = NULL;
	for (const struct option *o = opts->longopts; o->name; o++) {
		if (strncmp(o->name, name, n) != 0)
			continue;
		if (strlen(o->name) == n)
			return o;
		if (found && found->val != o->val)
			return NULL;
		if (!found)
			found = o;
	}
	return found;
}

/* The long option getopt_long returns `val` for: a short option's long name. */
static const struct option *long_of_short(const struct cli_options *opts, int val)
{
	for (const struct option *o = opts->longopts; o->name; o++)
		if (o->val == val)
			return o;
	return NULL;
}

static void offer_option_value(const struct word *w, const struct cli_options *opts,
			       const struct option *o)
{
	if (!o || o->has_arg == no_argument)
		return;
	for (const struct cli_value *v = opts->values; v && v->option; v++)
		if (strcmp(v->option, o->name) == 0) {
			offer_value(w, v->kind, v->names);
			return;
		}
}

static void offer_options(const struct word *w, const struct cli_options *opts)
{
	for (const struct option *o = opts->longopts; o->name; o++) {
		if (refused(opts, o->val) || hidden(opts, o->name))
			continue;
		char name[64];
		snprintf(name, sizeof name, "--%s", o->name);
		offer(w, name, "");
		if (o->has_arg == optional_argument)
			offer(w, name, "=");
	}
}

/* What the words before the last leave it to be. */
struct line {
	const struct cli_options *opts;
	const struct option *pending; /* the last word is this option's value */
	bool pending_short;           /* a short option's, with no long name */
	bool dashdash;                /* after "--": every word is bare */
};

static void read_word(struct line *l, const char *w)
{
	if (l->pending || l->pending_short) {
		l->pending = NULL;
		l->pending_short = false;
	} else if (l->dashdash || w[0] != '-' || !w[1]) {
		return; /* a bare argument */
	} else if (strcmp(w, "--") == 0) {
		l->dashdash = true;
	} else if (w[1] == '-') {
		const size_t n = strcspn(w + 2, "=");
		const struct option *o = long_option(l->opts, w + 2, n);
		if (o && o->has_arg == required_argument && !w[2 + n])
			l->pending = o;
	} else {
		/* -p NAME, -hp NAME, -pNAME: the value is the rest or the next word. */
		for (const char *c = w + 1; *c; c++) {
			const char *s = *c == ':' ? NULL : strchr(l->opts->shortopts, *c);
			if (s && s[1] == ':') {
				if (!c[1]) {
					l->pending = long_of_short(l->opts, *c);
					l->pending_short = !l->pending;
				}
				break;
			}
		}
	}
}

static void complete_last(const struct line *l, const char *last)
{
	struct word w = {last, 0};
	if (l->pending) {
		offer_option_value(&w, l->opts, l->pending);
	} else if (l->pending_short) {
		return;
	} else if (!l->dashdash && strncmp(last, "--", 2) == 0 && strchr(last, '=')) {
		const size_t n = strcspn(last + 2, "=");
		w.fixed = n + 3;
		offer_option_value(&w, l->opts, long_option(l->opts, last + 2, n));
	} else if (!l->dashdash && last[0] == '-' && last[1] && last[1] != '-' && last[2]) {
		const char *s = last[1] == ':' ? NULL : strchr(l->opts->shortopts, last[1]);
		w.fixed = 2;
		if (s && s[1] == ':')
			offer_option_value(&w, l->opts, long_of_short(l->opts, last[1]));
	} else if (!l->dashdash && last[0] == '-') {
		offer_options(&w, l->opts);
	} else {
		offer_value(&w, l->opts->bare, NULL);
	}
}

static void complete(int n, char **words)
{
	struct line l = {&explore_options, NULL, false, false};
	int first = 1;
	const char *last = words[n - 1];
	if (n == 2 && last[0] != '-') {
		/* A command, or what the explorer takes. */
		const struct cli_command *c;
		struct word w = {last, 0};
		for (int i = 0; (c = cli_command_get(i)); i++)
			if (c->summary)
				offer(&w, c->name, "");
	} else if (n > 2) {
		const struct cli_command *c;
		for (int i = 0; (c = cli_command_get(i)); i++)
			if (strcmp(words[1], c->name) == 0) {
				if (!c->options)
					return;
				l.opts = c->options;
				first = 2;
			}
	}
	for (int i = first; i < n - 1; i++)
		read_word(&l, words[i]);
	complete_last(&l, last);
}

int cmd_complete(int argc, char **argv)
{
	static char program[] = "gully", empty[] = "";
	char *none[] = {program, empty};
	argc--;
	argv++;
	if (argc > 0 && strcmp(argv[0], "--") == 0) {
		argc--;
		argv++;
	}
	if (argc == 0) {
		argc = 2;
		argv = none;
	}
	if (argc >= 2)
		complete(argc, argv);
	/* A list the shell did not take is no error to tell it of. */
	fflush(stdout);
	clearerr(stdout);
	return 0;
}
