/* `gully --version` (and every command's): the version, then what a bug
 * report needs and a user cannot easily find out: which vector copies the
 * simulation runs on this processor, how many cores world.threads 0 takes,
 * the libraries loaded, and where presets are looked for. */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "config.h"
#include "core/base/cpu.h"
#include "core/base/workers.h"
#include "io/preset.h"
#include "io/versions.h"
#include "tui/tui.h"

struct dirs {
	FILE *fp;
	int n;
};

static int print_dir(const char *dir, void *vctx)
{
	struct dirs *d = vctx;
	fprintf(d->fp, "%s%s", d->n++ ? ", then " : "", dir);
	return 0;
}

void cli_print_version(FILE *fp)
{
	char libs[256];
	long cpus = workers_cpus();
	io_library_versions(libs, sizeof libs);
	fprintf(fp, "%s\n", gully_version());
	fprintf(fp, "simulation: %s code on this processor; %ld core%s for world.threads 0\n",
		cpu_simd_in_use(), cpus, cpus == 1 ? "" : "s");
	fprintf(fp, "libraries:  %s, %s\n", tui_library_version(), libs);
	struct dirs d = {fp, 0};
	fprintf(fp, "presets:    ");
	preset_search_path(print_dir, &d);
	fprintf(fp, "\n");
}
