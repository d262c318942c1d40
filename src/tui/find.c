/* Moving in the parameter list by pages, to its ends, and by name (`/`),
 * as less and htop users expect. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tui/app.h"
#include "tui/keys.h"

/* Parameters a PgUp/PgDn moves: about a panel's screenful. */
#define PARAM_PAGE 10

static bool contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

/* The next entry after the selection (wrapping round) whose key holds the
 * text; -1 when none does. */
static int find_from(const struct app *a, const char *text)
{
	for (int k = 1; k <= a->nparams; k++) {
		int i = (a->sel + k) % a->nparams;
		if (contains(params_def(a->plist[i])->key, text))
			return i;
	}
	return -1;
}

/* The sections the list holds, in its order, as "a, b or c": the message
 * once named the process's and the view's only, though the list holds the
 * terrain's, the hardness map's and the world's too. */
static void list_sections(const struct app *a, char *out, size_t len)
{
	const char *seen[16];
	int n = 0;
	for (int k = 0; k < a->nparams && n < 16; k++) {
		const char *sec = params_def(a->plist[k])->section;
		bool dup = false;
		for (int j = 0; j < n && !dup; j++)
			dup = strcmp(seen[j], sec) == 0;
		if (!dup)
			seen[n++] = sec;
	}
	size_t used = 0;
	out[0] = '\0';
	for (int j = 0; j < n && used < len; j++)
		used += (size_t)snprintf(out + used, len - used, "%s%s",
					 j == 0 ? "" : j == n - 1 ? " or " : ", ", seen[j]);
}

static void find(struct app *a)
{
	static char last[64];
	char buf[64];
	snprintf(buf, sizeof buf, "%s", last);
	bool was = a->running;
	a->running = false;
	bool ok = prompt_read(a, " find parameter: ", buf, sizeof buf) && buf[0];
	a->running = was;
	if (!ok) {
		app_message(a, "cancelled");
		return;
	}
	snprintf(last, sizeof last, "%s", buf);
	int i = find_from(a, buf);
	if (i < 0) {
		char sections[160];
		list_sections(a, sections, sizeof sections);
		app_message(a, "no parameter of %s matches '%s'", sections, buf);
		return;
	}
	a->sel = i;
	app_message(a, "%s (/ then Enter finds the next)", params_def(a->plist[i])->key);
}

void panel_key(struct app *a, int action, int arg)
{
	if (a->nparams <= 0)
		return;
	if (action == ACT_PARAM_FIND) {
		find(a);
		return;
	}
	int sel = action == ACT_PARAM_END ? (arg < 0 ? 0 : a->nparams - 1)
					  : a->sel + arg * PARAM_PAGE;
	a->sel = sel < 0 ? 0 : sel >= a->nparams ? a->nparams - 1 : sel;
}
