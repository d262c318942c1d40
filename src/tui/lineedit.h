/* The prompt's line editor, without curses' screen calls so it can be
 * tested: a pre-filled value starts selected (typing replaces it, as in a
 * browser's field); Left/Right/Home/End move, Backspace/Delete erase,
 * Ctrl-U clears, Ctrl-W erases the word before the cursor. */
#ifndef GULLY_LINEEDIT_H
#define GULLY_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>

struct line_edit {
	char *buf;        /* NUL-terminated text */
	size_t size;      /* buf's capacity */
	size_t cur;       /* cursor: a byte offset, 0..strlen(buf) */
	bool selected;    /* the whole text is selected */
};

void lineedit_init(struct line_edit *le, char *buf, size_t size);
/* Applies one getch() key; false when the key is not an editing key. */
bool lineedit_key(struct line_edit *le, int ch);

#endif
