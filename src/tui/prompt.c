/* A one-line prompt in the status row: Enter accepts, Esc cancels. */
#include <curses.h>
#include <string.h>

#include "tui/app.h"

bool prompt_read(struct app *a, const char *question, char *buf, size_t len)
{
	size_t n = strlen(buf);
	int rows = LINES;
	curs_set(1);
	timeout(100);
	bool ok = false;
	for (;;) {
		attrset(A_BOLD);
		mvprintw(rows - 1, 0, "%s", question);
		attrset(A_NORMAL);
		int qx = getcurx(stdscr);
		int room = COLS - qx - 1;
		const char *shown = buf;
		if ((int)n > room && room > 0)
			shown = buf + (n - (size_t)room);
		printw("%s", shown);
		clrtoeol();
		refresh();
		int ch = getch();
		if (signals_caught())
			break;
		if (ch == ERR || ch == KEY_RESIZE)
			continue;
		if (ch == 27) /* Esc */
			break;
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
			ok = true;
			break;
		}
		if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
			if (n > 0)
				buf[--n] = '\0';
		} else if (ch == 21) { /* Ctrl-U */
			n = 0;
			buf[0] = '\0';
		} else if (ch >= 32 && ch < 256 && ch != 127 && n + 1 < len) {
			buf[n++] = (char)ch;
			buf[n] = '\0';
		}
	}
	curs_set(0);
	a->needs_draw = true;
	return ok;
}
