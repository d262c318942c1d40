#include "tui/complete.h"

#include <stdio.h>
#include <string.h>

void completion_init(struct completion *c, complete_source source, complete_free release)
{
	memset(c, 0, sizeof *c);
	c->source = source;
	c->release = release;
	c->index = -1;
}

void completion_reset(struct completion *c)
{
	if (c->names && c->release)
		c->release(c->names);
	c->names = NULL;
	c->count = 0;
	c->index = -1;
}

static size_t common_prefix(char **names, int count)
{
	size_t n = strlen(names[0]);
	for (int i = 1; i < count; i++) {
		size_t k = 0;
		while (k < n && names[i][k] == names[0][k])
			k++;
		n = k;
	}
	return n;
}

int completion_tab(struct completion *c, char *buf, size_t len)
{
	if (len == 0)
		return 0;
	if (c->names && c->count > 0) {
		c->index = (c->index + 1) % c->count;
		snprintf(buf, len, "%s", c->names[c->index]);
		return c->count;
	}
	completion_reset(c);
	char **names = NULL;
	int count = 0;
	if (!c->source || c->source(buf, &names, &count) != 0)
		return -1;
	if (count == 0) {
		if (names && c->release)
			c->release(names);
		return 0;
	}
	c->names = names;
	c->count = count;
	size_t common = common_prefix(names, count);
	if (count == 1 || common > strlen(buf)) {
		/* One match: it is the answer, and further Tabs keep it. Several:
		 * the part they share, and the next Tab starts cycling. */
		snprintf(buf, len, "%.*s", (int)common, names[0]);
		c->index = count == 1 ? 0 : -1;
	} else {
		c->index = 0;
		snprintf(buf, len, "%s", names[0]);
	}
	return count;
}
