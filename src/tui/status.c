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
	const char *file = a->file[0] ? a->file : "new map";
	const char *slash = strrchr(file, '/');
	if (slash && slash[1])
		file = slash + 1;
	if (!a->file[0] && a->preset[0]) {
		snprintf(named, sizeof named, "preset %.60s", a->preset);
		file = named;
	}
	char rate[40], budget[64], zoom[24];
	num_count(rate, sizeof rate, (uint64_t)(a->rate > 0 ? a->rate + 0.5 : 0));
	budget_status(a, budget, sizeof budget);
	if (budget[0])
		snprintf(budget + strlen(budget), sizeof budget - strlen(budget), " | ");
	if (a->view.zoom == ZOOM_FIT)
		snprintf(zoom, sizeof zoom, "whole map");
	else
		snprintf(zoom, sizeof zoom, "zoom %s", shade_zoom_name(a->view.zoom));
	if (a->running)
		snprintf(left, sizeof left, " RUNNING %s %s/s | %s%s | %.60s%s ", rate, a->proc->unit,
			 budget, zoom, file, a->dirty ? " [+]" : "");
	else
		snprintf(left, sizeof left, " PAUSED | %s%s | %.60s%s ", budget, zoom, file,
			 a->dirty ? " [+]" : "");
	if (cols < 80)
		/* A small terminal keeps what matters: running, and unsaved. */
		snprintf(left, sizeof left, " %s%s ", a->running ? "RUNNING" : "PAUSED",
			 a->dirty ? " [+]" : "");
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
