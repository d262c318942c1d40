/* The equation panel: the running process's `describe` text in a box at
 * the foot of the map, large and plain for a projector. */
#include <curses.h>
#include <string.h>

#include "tui/app.h"

void equations_draw(struct app *a, int rows, int cols)
{
	const char *text = a->proc->describe ? a->proc->describe : "(no equations given)";
	int lines = 1;
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	int box_h = lines + 3;
	if (box_h > rows)
		box_h = rows;
	int y0 = rows - box_h;
	for (int y = y0; y < rows; y++)
		mvprintw(y, 0, "%*s", cols, "");
	mvhline(y0, 0, '-', cols);
	attrset(A_BOLD);
	mvprintw(y0, 2, " %.*s: the equations (E hides) ", cols - 30 > 0 ? cols - 30 : 0,
		 a->proc->title);
	attrset(A_NORMAL);
	int y = y0 + 1;
	for (const char *p = text; *p && y < rows - 1; y++) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);
		mvprintw(y, 1, " %.*s", n < cols - 2 ? n : cols - 2, p);
		p += n;
		if (*p == '\n')
			p++;
	}
	mvhline(rows - 1, 0, '-', cols);
}
