/* The tier names: the one table --color and --ansi read. */
#include <string.h>

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
