/* The status line: running or paused, speed, zoom, file and unsaved mark,
 * then a message or the key hints. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"
#include "tui/crt.h"

/* The left-hand fields: everything when the line is wide, only running and
 * the unsaved mark when it is narrow or a message needs the room. */
static void status_fields(struct app *a, bool compact, char *left, size_t len)
{
	if (compact) {
		snprintf(left, len, " %s%s ", a->running ? "RUNNING" : "PAUSED",
			 a->dirty ? " [+]" : "");
		return;
	}
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
		snprintf(left, len, " RUNNING %s %s/s%s | %s%s | %.60s%s ", rate, a->proc->unit,
			 a->speed_cap > 0 ? " (slow)" : "", budget, zoom, file,
			 a->dirty ? " [+]" : "");
	else
		snprintf(left, len, " PAUSED | %s%s | %.60s%s ", budget, zoom, file,
			 a->dirty ? " [+]" : "");
}

/* A message too long for one line: its head (up to the last space that
 * fits, past the middle) on the row above, the rest on the status row. */
static const char *message_head(const char *msg, int row, int cols)
{
	const char *rest;
	int cut = app_wrap_next(msg, cols - 1, cols / 2, &rest);
	crt_attrset(A_REVERSE);
	mvprintw(row - 1, 0, " %-*.*s", cols - 1, cut, msg);
	crt_attrset(A_NORMAL);
	return rest;
}

/* A message (an error above all) must be read whole, so it comes before
 * the status fields: beside all of them when it fits, beside running and
 * [+] when those fit, else the whole line, and a second row when even
 * that is short (at 80 columns the fields left it a dozen). */
void status_draw(struct app *a, int row, int cols)
{
	char left[160], right[300];
	bool shown = a->message[0] && app_now() < a->message_until;
	/* Space's hint says what it does now: "run" while running misled. */
	const char *hints = a->running ? "?:help q:quit Space:pause .:step u:undo P:preset S:save"
				       : "?:help q:quit Space:run .:step u:undo P:preset S:save";
	const char *msg = shown ? a->message : hints;
	int mlen = (int)strlen(msg) + 1;
	/* A small terminal keeps what matters: running, and unsaved. */
	status_fields(a, cols < 80, left, sizeof left);
	if (shown && (int)strlen(left) + mlen > cols)
		status_fields(a, true, left, sizeof left);
	if (shown && (int)strlen(left) + mlen > cols)
		left[0] = '\0';
	if (shown && mlen > cols && row > 0)
		msg = message_head(msg, row, cols);
	snprintf(right, sizeof right, " %s", msg);
	crt_attrset(A_REVERSE | A_BOLD);
	mvprintw(row, 0, "%.*s", cols, left);
	int used = (int)strlen(left);
	if (used > cols)
		used = cols;
	/* The key hints, when they do not all fit, end at the last whole one
	 * ("S:sa" helps nobody). */
	if (!shown && (int)strlen(right) > cols - used) {
		char *cut = right + (cols - used > 0 ? cols - used : 0);
		*cut = '\0';
		char *space = strrchr(right, ' ');
		if (space && space > right)
			*space = '\0';
	}
	crt_attrset(A_REVERSE);
	printw("%-*.*s", cols - used, cols - used, right);
	crt_attrset(A_NORMAL);
}
