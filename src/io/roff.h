/* Text for roff (the man pages' generated sections: the key table, the
 * parameter registry). A module of its own, so the key table and the
 * command line use it without file I/O's helpers. */
#ifndef GULLY_ROFF_H
#define GULLY_ROFF_H

#include <stdio.h>

/* Writes s for roff: a leading dot or quote, backslashes and hyphens escaped. */
void roff_text(FILE *fp, const char *s);
/* The same for running text, broken into lines of about `width` bytes at
 * spaces (mandoc -Tlint asks for lines under 80); width 0: one line. */
void roff_wrapped(FILE *fp, const char *s, int width);

#endif
