/* gully run's -o outputs: checked before the run, written after it. */
#ifndef GULLY_RUN_OUTPUT_H
#define GULLY_RUN_OUTPUT_H

#include "cli/cli.h"
#include "io/simulation.h"

/* The first line of an interrupted run's preset text in its snapshot
 * (simulation.note), followed by "DONE of BUDGET". */
#define RUN_INTERRUPTED_MARK "# gully run: interrupted after"
/* A line of the preset text of a run with --rain, followed by the mask's
 * path: the mask is not in the snapshot, so going on from it without the
 * mask would change the run without a word. */
#define RUN_RAIN_MARK "# gully run: droplets started by the rain mask "
/* The path a snapshot's preset text names after RUN_RAIN_MARK, into buf;
 * false when it names none. */
bool run_rain_mark(const char *preset_yaml, char *buf, size_t len);


/* One output path, before any work: what it names through symlinks is a
 * regular file or nothing yet, in a directory that takes files. 0, or
 * EXIT_USAGE (one line naming the path, reported for `cmd`). */
int run_output_check_path(const char *cmd, const char *path);
/* What a command's -o list may hold. */
struct output_rules {
	bool snapshots; /* a .gsnap too (run); else only a layer's files (render) */
	bool grey16;    /* --gray16: a .png holds values, it is no picture */
	bool overlays;  /* --overlay given: a picture must be among the outputs */
};
/* Every -o of run and render, the same way: a known extension, no name
 * twice, a directory that takes files; a picture (.png, .ppm) among them
 * when there are overlays. 0, or EXIT_USAGE (reported for `cmd`). */
int outputs_check(const char *cmd, const char **paths, int n, const struct output_rules *r);
/* Once the map's size is known, before any work: a raw .r16 or .f32 whose
 * name holds a size (ridge_1025x1025.r16) must name this one, or gully and
 * terrain tools would read the file back at the wrong size. 0, or
 * EXIT_USAGE (reported for `cmd`). */
int outputs_check_size(const char *cmd, const char **paths, int n, int width, int height);
/* Writes them all (each failure reported): snapshots with simulation_save,
 * the height layer by extension with `overlays` on pictures; 0 or 1. */
int run_outputs_write(const struct sim_options *o, const struct simulation *sim,
		      unsigned overlays);

#endif
