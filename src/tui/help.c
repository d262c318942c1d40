/* The help overlay, generated from the key table. Its name column is as
 * wide as the longest key group, so rows align at every width; a help text
 * too wide for a narrow screen wraps onto rows of its own under it, and
 * when the rows do not fit (80x24 shows about half) it scrolls with the
 * list keys. */
#include <curses.h>
#include <string.h>

#include "tui/app.h"
#include "tui/crt.h"
#include "tui/keys.h"

/* The name column's width; a longer group of names takes a row of its own
 * above its help text, so the help texts still start in one column. */
#define HELP_NAME_W 13

struct help_layout {
	int groups, name_w, ncol, colw, text_w, help_w, per_col, shown;
	int box_w, box_h, y0, x0;
};

/* The length of the first row of `s` wrapped at `w` columns (at a space
 * when there is one, else cut); *next gets where the row after starts. */
static int wrap_row(const char *s, int w, const char **next)
{
	int len = (int)strlen(s);
	if (len <= w) {
		*next = s + len;
		return len;
	}
	int cut = w;
	while (cut > 0 && s[cut] != ' ')
		cut--;
	if (cut == 0)
		cut = w;
	*next = s + cut;
	while (**next == ' ')
		(*next)++;
	return cut;
}

/* The rows a group takes: its names' own row when they are too long for
 * the name column, then its help wrapped beside that column. */
static int group_rows(const char *names, const char *help, int help_w)
{
	int n = strlen(names) > HELP_NAME_W ? 1 : 0;
	const char *p = help;
	do {
		wrap_row(p, help_w, &p);
		n++;
	} while (*p);
	return n;
}

static void layout(struct help_layout *L, int rows, int cols)
{
	char names[128];
	L->name_w = HELP_NAME_W;
	int help_w = 1;
	for (int i = 0; i < keys_count(); i = keys_group(i, "/", names, sizeof names)) {
		int h = (int)strlen(keys_get(i)->help);
		help_w = h > help_w ? h : help_w;
	}
	int want = L->name_w + 1 + help_w;
	/* Two columns when both fit whole; else one, as wide as the screen. */
	L->ncol = cols - 4 >= 2 * want + 2 ? 2 : 1;
	L->colw = L->ncol == 2 ? want + 2 : (cols - 4 < want ? cols - 4 : want);
	if (L->colw < 1)
		L->colw = 1;
	/* Two columns keep a gap between them; one has the box's whole inside
	 * but for a space at each border. A help text wider than what is left
	 * beside the names goes on, wrapped, on the rows under it. */
	L->text_w = L->ncol == 2 ? L->colw - 1 : L->colw;
	L->help_w = L->text_w - L->name_w - 1 > 8 ? L->text_w - L->name_w - 1 : 8;
	L->groups = 0; /* rows, counting a group's every row */
	for (int i = 0; i < keys_count();) {
		int next = keys_group(i, "/", names, sizeof names);
		L->groups += group_rows(names, keys_get(i)->help, L->help_w);
		i = next;
	}
	L->per_col = (L->groups + L->ncol - 1) / L->ncol;
	L->box_w = L->ncol * L->colw + 4;
	if (L->box_w > cols)
		L->box_w = cols;
	/* The title sits in the top border and the scroll note in the bottom
	 * one, so every row between them is a row of keys. */
	L->box_h = L->per_col + 2;
	if (L->box_h > rows)
		L->box_h = rows;
	L->shown = L->box_h - 2 > 0 ? L->box_h - 2 : 0;
	L->y0 = (rows - L->box_h) / 2;
	L->x0 = (cols - L->box_w) / 2;
	if (L->y0 < 0)
		L->y0 = 0;
	if (L->x0 < 0)
		L->x0 = 0;
}

static int max_top(const struct help_layout *L)
{
	int m = L->per_col - L->shown;
	return m > 0 ? m : 0;
}

bool help_scroll(struct app *a, int ch, int rows, int cols)
{
	struct help_layout L;
	layout(&L, rows, cols);
	int top = a->help_top;
	switch (ch) {
	case KEY_UP: top--; break;
	case KEY_DOWN: top++; break;
	case KEY_PPAGE: top -= L.shown > 1 ? L.shown - 1 : 1; break;
	case KEY_NPAGE: top += L.shown > 1 ? L.shown - 1 : 1; break;
	case KEY_HOME: top = 0; break;
	case KEY_END: top = max_top(&L); break;
	case KEY_RESIZE: break;
	default: return false;
	}
	a->help_top = top < 0 ? 0 : top > max_top(&L) ? max_top(&L) : top;
	return true;
}

void help_draw(struct app *a, int rows, int cols)
{
	struct help_layout L;
	layout(&L, rows, cols);
	if (a->help_top > max_top(&L))
		a->help_top = max_top(&L);
	for (int y = 0; y < L.box_h; y++)
		mvprintw(L.y0 + y, L.x0, "%*s", L.box_w, "");
	char names[128], row[256];
	int g = 0; /* row of the list */
	for (int i = 0; i < keys_count();) {
		const struct key_binding *k = keys_get(i);
		int next = keys_group(i, "/", names, sizeof names);
		bool long_names = strlen(names) > HELP_NAME_W;
		const char *p = k->help;
		for (int part = 0; part == 0 || *p; part++, g++) {
			int c = g / L.per_col, r = g % L.per_col - a->help_top;
			const char *rest = p;
			int n = long_names && part == 0 ? 0 : wrap_row(p, L.help_w, &rest);
			if (long_names && part == 0)
				snprintf(row, sizeof row, "%s", names);
			else
				snprintf(row, sizeof row, "%-*s %.*s", L.name_w,
					 long_names || part > 0 ? "" : names, n, p);
			p = rest;
			if (r >= 0 && r < L.shown)
				mvprintw(L.y0 + 1 + r, L.x0 + 2 + c * L.colw, "%-*.*s", L.text_w,
					 L.text_w, row);
		}
		i = next;
	}
	crt_box(L.y0, L.x0, L.box_h, L.box_w, -1);
	crt_attrset(A_BOLD);
	mvprintw(L.y0, L.x0 + 2, "%.*s", L.box_w - 4, " gully keys: any other key closes ");
	crt_attrset(A_NORMAL);
	if (max_top(&L) > 0) {
		snprintf(row, sizeof row, " rows %d-%d of %d: Up/Down/PgUp/PgDn/Home/End scroll ",
			 a->help_top + 1, a->help_top + L.shown, L.per_col);
		mvprintw(L.y0 + L.box_h - 1, L.x0 + 2, "%.*s", L.box_w - 4, row);
	}
}
