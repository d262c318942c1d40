#include "core/base/process.h"

#include <string.h>

#include "core/particles/particles.h"
#include "core/emitter/emitter.h"
#include "core/hydrology/hydrology.h"
#include "core/sph/sph.h"

/* Every process, in the order the explorer's tabs show them. */
static const struct process_ops *const table[] = {
	&particles_process,
	&hydrology_process,
	&emitter_process,
	&sph_process,
};

int process_count(void)
{
	return (int)(sizeof table / sizeof table[0]);
}

const struct process_ops *process_get(int index)
{
	return index >= 0 && index < process_count() ? table[index] : NULL;
}

const struct process_ops *process_default(void)
{
	return table[0];
}

const struct process_ops *process_find(const char *name)
{
	for (int i = 0; i < process_count(); i++)
		if (strcmp(table[i]->name, name) == 0)
			return table[i];
	return NULL;
}

bool process_counts_time(const struct process_ops *p)
{
	return strcmp(p->unit, "steps") == 0;
}

const char *process_describe(const struct process_ops *ops, const struct params *p, char *buf,
			     size_t len)
{
	if (!ops->describe_for)
		return ops->describe;
	struct params defaults;
	if (!p) {
		params_defaults(&defaults);
		p = &defaults;
	}
	return ops->describe_for(p, buf, len);
}

const char *process_names(void)
{
	static char names[256];
	if (!names[0]) {
		for (int i = 0; i < process_count(); i++) {
			if (i)
				strcat(names, "|");
			strcat(names, table[i]->name);
		}
	}
	return names;
}
