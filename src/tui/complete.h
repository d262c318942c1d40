/* Tab completion for the explorer's prompts. Curses-free, so a test can
 * drive it with its own list of names. */
#ifndef GULLY_COMPLETE_H
#define GULLY_COMPLETE_H

#include <stdbool.h>
#include <stddef.h>

/* Fills a NULL-terminated malloc'd array of the names starting with prefix
 * (the shape of preset_complete); returns a gully_err. */
typedef int (*complete_source)(const char *prefix, char ***names, int *count);
/* Frees what a source returned (preset_names_free's shape). */
typedef void (*complete_free)(char **names);

struct completion {
	complete_source source;
	complete_free release;
	char **names;   /* the matches of the first Tab, while cycling */
	int count;
	int index;      /* the name shown, -1 while the common prefix is */
};

void completion_init(struct completion *c, complete_source source, complete_free release);
/* Forgets the matches: any key but Tab calls it, so the next Tab completes
 * what is typed now. */
void completion_reset(struct completion *c);
/* A Tab on buf. The first Tab completes buf to the one match, or to the
 * matches' longest common prefix when that is longer than buf; otherwise
 * it shows the first match, and every further Tab the next one, round.
 * Returns the number of matches (0: buf unchanged), or -1 on an error of
 * the source. */
int completion_tab(struct completion *c, char *buf, size_t len);

#endif
