/* The status line: running or paused, speed, zoom, file and unsaved mark,
 * then a message or the key hints. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"

void status_draw(struct app *a, int row, int cols)
{
	char left[160], right[300];
	char named[80];
	const char *file = a->file[0] ? a->file : "(new)";
	const char *slash = strrchr(file, '/');
	if (slash && slash[1])
		file = slash + 1;
	if (!a->file[0] && a->preset[0]) {
		snprintf(named, sizeof named, "preset %.60s", a->preset);
		file = named;
	}
	if (cols < 80)
		/* A small terminal keeps what matters: running, and unsaved. */
		snprintf(left, sizeof left, " %s%s ", a->running ? "RUNNING" : "PAUSED",
			 a->dirty ? " [+]" : "");
	else if (a->running)
		snprintf(left, sizeof left, " RUNNING %.0f %s/s | %s | %.60s%s ", a->rate,
			 a->proc->unit, shade_zoom_name(a->view.zoom), file, a->dirty ? " [+]" : "");
	else
		snprintf(left, sizeof left, " PAUSED | %s | %.60s%s ", shade_zoom_name(a->view.zoom),
			 file, a->dirty ? " [+]" : "");
	if (a->message[0] && app_now() < a->message_until)
		snprintf(right, sizeof right, " %s", a->message);
	else
		snprintf(right, sizeof right,
			 " ?:help q:quit Space:run .:step u:undo P:preset S:save");
	attrset(A_REVERSE | A_BOLD);
	mvprintw(row, 0, "%.*s", cols, left);
	int used = (int)strlen(left);
	if (used > cols)
		used = cols;
	attrset(A_REVERSE);
	printw("%-*.*s", cols - used, cols - used, right);
	attrset(A_NORMAL);
}
