/* A one-line prompt in the status row: Enter accepts, Esc cancels; Tab
 * completes when the caller gives a completion; y/n questions. */
#include <curses.h>
#include <string.h>

#include "tui/app.h"
#include "tui/complete.h"

/* The matches of a Tab on the row above the prompt, the shown one in
 * reverse, so a class sees what there is to choose from. */
static void show_matches(const struct completion *c, int row)
{
	move(row, 0);
	clrtoeol();
	if (!c || c->count < 2)
		return;
	attrset(A_BOLD);
	printw(" %d:", c->count);
	for (int i = 0; i < c->count && getcurx(stdscr) + 2 < COLS; i++) {
		attrset(i == c->index ? A_REVERSE : A_BOLD);
		int room = COLS - getcurx(stdscr) - 1;
		printw(" ");
		printw("%.*s", room > 1 ? room - 1 : 0, c->names[i]);
	}
	attrset(A_NORMAL);
}

bool prompt_read_ex(struct app *a, const char *question, char *buf, size_t len,
		    struct completion *comp)
{
	size_t n = strlen(buf);
	int rows = LINES;
	curs_set(1);
	timeout(100);
	bool ok = false;
	bool matches_shown = false;
	for (;;) {
		if (comp && comp->count > 1) {
			show_matches(comp, rows - 2);
			matches_shown = true;
		}
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
		if (ch == '\t' && comp) {
			int k = completion_tab(comp, buf, len);
			n = strlen(buf);
			if (k <= 0) {
				mvprintw(rows - 2, 0, " %s '%s'", k == 0 ? "no match for" : "cannot list matches of", buf);
				clrtoeol();
				matches_shown = true;
				beep();
			}
			continue;
		}
		if (comp)
			completion_reset(comp);
		if (matches_shown) {
			/* The next frame repaints the map under the matches. */
			move(rows - 2, 0);
			clrtoeol();
			matches_shown = false;
		}
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
	if (comp)
		completion_reset(comp);
	curs_set(0);
	a->needs_draw = true;
	return ok;
}

bool prompt_read(struct app *a, const char *question, char *buf, size_t len)
{
	return prompt_read_ex(a, question, buf, len, NULL);
}

bool prompt_yes_no(struct app *a, const char *question)
{
	curs_set(1);
	timeout(100);
	bool yes = false;
	for (;;) {
		attrset(A_BOLD);
		mvprintw(LINES - 1, 0, "%s (y/n) ", question);
		attrset(A_NORMAL);
		clrtoeol();
		refresh();
		int ch = getch();
		if (signals_caught())
			break;
		if (ch == ERR || ch == KEY_RESIZE)
			continue;
		yes = ch == 'y' || ch == 'Y';
		break;
	}
	curs_set(0);
	a->needs_draw = true;
	return yes;
}
