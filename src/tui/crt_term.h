/* The terminal description curses starts on (crt_term.c). */
#ifndef GULLY_CRT_TERM_H
#define GULLY_CRT_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <curses.h>

/* newterm on TERM, or on a direct-colour variant of it when want_true and
 * its entry lacks RGB; NULL with one line in err when the terminal cannot
 * be used (not in the database, cannot move the cursor). note: something
 * for the status line (a fallback taken), or "". */
SCREEN *crt_term_open(bool want_true, char *note, size_t notelen, char *err, size_t errlen);

#endif
