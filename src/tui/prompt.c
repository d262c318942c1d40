/* A one-line prompt in the status row: Enter accepts, Esc cancels; Tab
 * completes when the caller gives a completion; y/n questions. */
/* wcwidth is X/Open's (ncursesw's flags usually ask for it already). */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 600
#endif
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "tui/app.h"
#include "tui/crt.h"
#include "tui/complete.h"
#include "tui/lineedit.h"

/* The matches of a Tab on the row above the prompt, the shown one in
 * reverse, so a class sees what there is to choose from. Names are shown
 * whole, from the first one that keeps the shown one in sight, with
 * " ..." where some are left out: the row once always began at the first
 * name, so Tab went on past its end unseen and the last name was cut
 * ("plan" for plane-rills). */
static void show_matches(const struct completion *c, int row)
{
	move(row, 0);
	clrtoeol();
	if (!c || c->count < 2)
		return;
	char head[24];
	snprintf(head, sizeof head, " %d:", c->count);
	const int room = COLS - 1 - (int)strlen(head), more = 4; /* " ..." */
	int first = 0;
	for (;;) {
		int used = first > 0 ? more : 0;
		for (int i = first; i <= c->index; i++)
			used += 1 + (int)strlen(c->names[i]);
		if (first >= c->index || used + (c->index + 1 < c->count ? more : 0) <= room)
			break;
		first++;
	}
	crt_attrset(A_BOLD);
	printw("%s%s", head, first > 0 ? " ..." : "");
	int used = first > 0 ? more : 0;
	for (int i = first; i < c->count; i++) {
		int w = 1 + (int)strlen(c->names[i]);
		bool last = i + 1 == c->count;
		if (used + w + (last ? 0 : more) > room && i > c->index) {
			crt_attrset(A_BOLD);
			printw(" ...");
			break;
		}
		crt_attrset(A_BOLD);
		printw(" ");
		crt_attrset(i == c->index ? A_REVERSE : A_BOLD);
		printw("%.*s", room - used - 1 > 0 ? room - used - 1 : 0, c->names[i]);
		used += w;
	}
	crt_attrset(A_NORMAL);
}

/* The columns each character of s takes, by the locale (wcwidth: 2 for
 * the wide East Asian ones), in cols[i] for the character starting at
 * byte at[i]; how many characters. A byte that starts no character takes
 * one column, as the terminal shows a replacement for it. */
static size_t text_columns(const char *s, size_t *at, int *cols, size_t max)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t n = 0, i = 0, len = strlen(s);
	while (i < len && n < max) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s + i, len - i, &st);
		int w = 1;
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			k = 1;
			memset(&st, 0, sizeof st);
		} else if ((w = wcwidth(wc)) < 0) {
			w = 1;
		}
		at[n] = i;
		cols[n++] = w;
		i += k;
	}
	return n;
}

/* A question of at most `width` columns: a longer one (a long path in it)
 * loses its middle to "...", so its start and its end, where the choices
 * and the colon are, both show. */
static void prompt_fit(const char *question, int width, char *out, size_t len)
{
	enum { MAX_CHARS = 512 };
	size_t at[MAX_CHARS];
	int cols[MAX_CHARS];
	const size_t n = text_columns(question, at, cols, MAX_CHARS);
	int total = 0;
	for (size_t i = 0; i < n; i++)
		total += cols[i];
	if (width < 8 || total <= width || n == MAX_CHARS) {
		snprintf(out, len, "%s", question);
		return;
	}
	/* The head's characters from the front, the tail's from the back. */
	int room = width - width / 2 - 3;
	size_t head = 0;
	while (head < n && room >= cols[head])
		room -= cols[head++];
	room = width / 2;
	size_t tail = n;
	while (tail > head && room >= cols[tail - 1])
		room -= cols[--tail];
	snprintf(out, len, "%.*s...%s", (int)at[head], question,
		 tail < n ? question + at[tail] : "");
}

/* The question and the text, the text scrolled so the cursor shows; a
 * selected (pre-filled) value in reverse video. A long question takes at
 * most half the row, so there is room to type. */
static void show_line(const char *question, const struct line_edit *le, int row)
{
	char q[512];
	prompt_fit(question, COLS / 2, q, sizeof q);
	crt_attrset(A_BOLD);
	mvprintw(row, 0, "%s", q);
	crt_attrset(A_NORMAL);
	int qx = getcurx(stdscr);
	int room = COLS - qx - 1;
	size_t first = 0;
	if (room > 0 && le->cur > (size_t)room)
		first = le->cur - (size_t)room;
	if (le->selected)
		crt_attrset(A_REVERSE);
	printw("%.*s", room > 0 ? room : 0, le->buf + first);
	crt_attrset(A_NORMAL);
	clrtoeol();
	move(row, qx + (int)(le->cur - first));
	refresh();
}

/* The terminal changed size under an open prompt: the old frame is gone
 * (or garbled), so draw the whole screen at the new size; the caller then
 * draws the prompt on the new bottom row. The prompt keeps the session
 * (worker.c's lock) while it waits for keys, so the simulation stands
 * still under a question; app_draw would let it run while the terminal
 * took the frame, so the frame goes out held. */
static void prompt_resized(struct app *a)
{
	app_draw_held(a);
}

/* Below the smallest size a typed answer is not on screen (the "too small"
 * one is, which says q closes the question): a key then must not go into a
 * line nobody sees. True when the key closes the question. (A choice of
 * keys, prompt_choice, stays on the bottom row: its keys still answer.) */
static bool prompt_hidden_key(int ch)
{
	return ch == 'q' || ch == 'Q' || ch == 27;
}

bool prompt_read_ex(struct app *a, const char *question, char *buf, size_t len,
		    struct completion *comp)
{
	struct line_edit le;
	lineedit_init(&le, buf, len);
	curs_set(1);
	timeout(100);
	bool ok = false;
	bool matches_shown = false;
	app_question_open(true);
	for (;;) {
		/* LINES each time round: a resize moves the bottom row. */
		int rows = LINES;
		const bool hidden = app_too_small();
		if (comp && comp->count > 1 && !hidden) {
			show_matches(comp, rows - 2);
			matches_shown = true;
		}
		if (!hidden)
			show_line(question, &le, rows - 1);
		int ch = crt_getch();
		if (signals_caught())
			break;
		if (ch == KEY_RESIZE)
			prompt_resized(a);
		if (ch == ERR || ch == KEY_RESIZE)
			continue;
		if (app_too_small()) {
			if (prompt_hidden_key(ch))
				break;
			continue;
		}
		if (ch == '\t' && comp) {
			int k = completion_tab(comp, buf, len);
			le.cur = strlen(buf);
			le.selected = false;
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
		lineedit_key(&le, ch);
	}
	if (comp)
		completion_reset(comp);
	app_question_open(false);
	curs_set(0);
	a->needs_draw = true;
	return ok;
}

bool prompt_read(struct app *a, const char *question, char *buf, size_t len)
{
	return prompt_read_ex(a, question, buf, len, NULL);
}

int prompt_choice(struct app *a, const char *question, const char *choices)
{
	curs_set(1);
	timeout(100);
	int got = 0;
	for (;;) {
		char q[512];
		prompt_fit(question, COLS - 1, q, sizeof q);
		crt_attrset(A_BOLD);
		mvprintw(LINES - 1, 0, "%s", q);
		crt_attrset(A_NORMAL);
		clrtoeol();
		refresh();
		int ch = crt_getch();
		if (signals_caught())
			break;
		if (ch == KEY_RESIZE)
			prompt_resized(a);
		if (ch == ERR || ch == KEY_RESIZE)
			continue;
		if (ch >= 'A' && ch <= 'Z')
			ch += 'a' - 'A';
		got = ch > 0 && ch < 128 && strchr(choices, ch) ? ch : 0;
		break;
	}
	curs_set(0);
	a->needs_draw = true;
	return got;
}

bool prompt_yes_no(struct app *a, const char *question)
{
	char q[512];
	snprintf(q, sizeof q, "%s (y/n) ", question);
	return prompt_choice(a, q, "yn") == 'y';
}
