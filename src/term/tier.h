/* The colour tiers a terminal shows, shared by the explorer (tui) and
 * `gully render --ansi` (cli), so both take the same names and pick the
 * same tier on the same terminal. */
#ifndef GULLY_TERM_TIER_H
#define GULLY_TERM_TIER_H

/* More colours, higher: a forced tier is capped at the terminal's by <. */
enum term_tier { TIER_NONE, TIER_8, TIER_16, TIER_256, TIER_TRUE, TIER_AUTO = -1 };

/* A tier by name, as --color and --ansi take it: truecolor (or 24bit,
 * direct), 256, 16, 8, none (or mono, 0); -1 for anything else. */
int term_tier_parse(const char *name);
/* The names as help texts and refusals list them. */
#define TERM_TIER_NAMES "truecolor (or 24bit), 256, 16, 8 or none"
/* The tier's name ("truecolor", ...), "auto" for TIER_AUTO. */
const char *term_tier_name(int tier);

#endif
