#include "io/roff.h"

/* One character of roff text; returns the bytes written. */
static int roff_char(FILE *fp, char c)
{
	if (c == '\\')
		return fputs("\\e", fp), 2;
	if (c == '-')
		return fputs("\\-", fp), 2;
	fputc(c, fp);
	return 1;
}

void roff_text(FILE *fp, const char *s)
{
	roff_wrapped(fp, s, 0);
}

void roff_wrapped(FILE *fp, const char *s, int width)
{
	int col = 0;
	if (*s == '.' || *s == '\'') {
		fputs("\\&", fp);
		col = 2;
	}
	for (; *s; s++) {
		/* A space where the line is long enough becomes a line break,
		 * unless the next line would start as a request. */
		if (width && *s == ' ' && col >= width && s[1] != '.' && s[1] != '\'') {
			fputc('\n', fp);
			col = 0;
			continue;
		}
		col += roff_char(fp, *s);
	}
}
