#include "tui/lineedit.h"

#include <curses.h>
#include <string.h>

#define CTRL(c) ((c) & 0x1f)

void lineedit_init(struct line_edit *le, char *buf, size_t size)
{
	le->buf = buf;
	le->size = size;
	le->cur = strlen(buf);
	le->selected = le->cur > 0;
}

static void erase_range(struct line_edit *le, size_t from, size_t to)
{
	size_t n = strlen(le->buf);
	memmove(le->buf + from, le->buf + to, n - to + 1);
	le->cur = from;
}

/* A selection goes on the first key that changes the text (it goes with
 * the text) or moves the cursor (it stays, deselected). */
static bool edit(struct line_edit *le, int ch)
{
	size_t n = strlen(le->buf);
	switch (ch) {
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (le->cur > 0)
			erase_range(le, le->cur - 1, le->cur);
		return true;
	case KEY_DC:
		if (le->cur < n)
			erase_range(le, le->cur, le->cur + 1);
		return true;
	case CTRL('U'):
		erase_range(le, 0, le->cur);
		return true;
	case CTRL('W'): {
		size_t i = le->cur;
		while (i > 0 && le->buf[i - 1] == ' ')
			i--;
		while (i > 0 && le->buf[i - 1] != ' ' && le->buf[i - 1] != '/')
			i--;
		if (i == le->cur && i > 0)
			i--; /* a lone separator goes by itself */
		erase_range(le, i, le->cur);
		return true;
	}
	case KEY_LEFT:
		if (le->cur > 0)
			le->cur--;
		return true;
	case KEY_RIGHT:
		if (le->cur < n)
			le->cur++;
		return true;
	case KEY_HOME:
	case CTRL('A'):
		le->cur = 0;
		return true;
	case KEY_END:
	case CTRL('E'):
		le->cur = n;
		return true;
	}
	if (ch >= 32 && ch < 256 && ch != 127 && n + 1 < le->size) {
		memmove(le->buf + le->cur + 1, le->buf + le->cur, n - le->cur + 1);
		le->buf[le->cur++] = (char)ch;
		return true;
	}
	return ch >= 32 && ch < 256; /* full: the key is eaten */
}

bool lineedit_key(struct line_edit *le, int ch)
{
	bool moves = ch == KEY_LEFT || ch == KEY_RIGHT || ch == KEY_HOME || ch == KEY_END ||
		     ch == CTRL('A') || ch == CTRL('E');
	if (le->selected && !moves) {
		bool changes = ch == KEY_BACKSPACE || ch == 127 || ch == 8 || ch == KEY_DC ||
			       ch == CTRL('U') || ch == CTRL('W') || (ch >= 32 && ch < 256);
		if (changes) {
			le->buf[0] = '\0';
			le->cur = 0;
			le->selected = false;
			/* Erasing keys erased the selection; a character replaces it. */
			return (ch >= 32 && ch < 256 && ch != 127) ? edit(le, ch) : true;
		}
	}
	if (moves)
		le->selected = false;
	return edit(le, ch);
}
