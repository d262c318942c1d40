/* The help overlay, generated from the key table. */
#include <curses.h>
#include <string.h>

#include "tui/app.h"
#include "tui/keys.h"

void help_draw(int rows, int cols)
{
	int groups = 0;
	char names[128];
	for (int i = 0; i < keys_count(); groups++)
		i = keys_group(i, "/", names, sizeof names);
	int inner_h = rows - 4;
	int ncol = groups > inner_h ? 2 : 1;
	int per_col = (groups + ncol - 1) / ncol;
	int colw = ncol == 2 ? (cols - 6) / 2 : (cols - 4 < 60 ? cols - 4 : 60);
	int box_w = ncol * colw + 4, box_h = per_col + 4;
	if (box_h > rows)
		box_h = rows;
	int y0 = (rows - box_h) / 2, x0 = (cols - box_w) / 2;
	if (y0 < 0)
		y0 = 0;
	if (x0 < 0)
		x0 = 0;
	for (int y = 0; y < box_h; y++)
		mvprintw(y0 + y, x0, "%*s", box_w, "");
	attrset(A_BOLD);
	mvprintw(y0, x0 + 2, "gully keys (? or Esc closes; h j k l pan when zoomed)");
	attrset(A_NORMAL);
	int g = 0;
	for (int i = 0; i < keys_count(); g++) {
		const struct key_binding *k = keys_get(i);
		int next = keys_group(i, "/", names, sizeof names);
		int c = g / per_col, r = g % per_col;
		if (2 + r < box_h - 1)
		{
			/* A long name pushes its help text right rather than being cut. */
			char row[256];
			snprintf(row, sizeof row, "%-9s %s", names, k->help);
			mvprintw(y0 + 2 + r, x0 + 2 + c * colw, "%-*.*s", colw - 1, colw - 1, row);
		}
		i = next;
	}
	/* A frame made of plain characters, so it reads in every tier. */
	mvhline(y0 + box_h - 1, x0, '-', box_w);
	mvhline(y0 + 1, x0, '-', box_w);
	mvvline(y0, x0, '|', box_h);
	mvvline(y0, x0 + box_w - 1, '|', box_h);
}
