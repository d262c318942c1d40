/* The tier names (the one table --color and --ansi read) and what the
 * environment says of the terminal. */
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "term/tier.h"

static const char *const tier_names[] = {"none", "8", "16", "256", "truecolor"};

int term_tier_parse(const char *name)
{
	for (int i = 0; i <= TIER_TRUE; i++)
		if (strcmp(name, tier_names[i]) == 0)
			return i;
	/* COLORTERM's other word and terminfo's; what NO_COLOR users type. */
	if (strcmp(name, "24bit") == 0 || strcmp(name, "direct") == 0)
		return TIER_TRUE;
	if (strcmp(name, "mono") == 0 || strcmp(name, "0") == 0)
		return TIER_NONE;
	return -1;
}

const char *term_tier_name(int tier)
{
	return tier >= 0 && tier <= TIER_TRUE ? tier_names[tier] : "auto";
}

bool term_no_color(void)
{
	const char *nc = getenv("NO_COLOR");
	return nc && *nc;
}

bool term_colorterm_truecolor(void)
{
	const char *ct = getenv("COLORTERM");
	return ct && (strcasecmp(ct, "truecolor") == 0 || strcasecmp(ct, "24bit") == 0);
}

bool term_locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}

bool term_name_direct(const char *term)
{
	size_t n = term ? strlen(term) : 0;
	return n > 7 && strcmp(term + n - 7, "-direct") == 0;
}
