/* gully run's -o outputs: checked before the run, written after it. */
#ifndef GULLY_RUN_OUTPUT_H
#define GULLY_RUN_OUTPUT_H

#include "cli/cli.h"
#include "core/base/process.h"

/* The first line of an interrupted run's preset text in its snapshot. */
#define RUN_INTERRUPTED_MARK "# gully run: interrupted after"

struct run_result {
	const struct world *world;
	const struct params *params;
	const struct process_ops *proc;
	void *state;
	unsigned overlays;
	/* A run stopped by a signal: how far it got, noted in the snapshot. */
	uint64_t interrupted_done, interrupted_budget;
};

/* Every -o: a known extension, no name twice, a directory that takes files;
 * a picture among them when there are overlays. 0, or EXIT_USAGE (reported). */
int run_outputs_check(const char *cmd, const struct sim_options *o, bool overlays);
/* Writes them all (each failure reported); 0 or 1. */
int run_outputs_write(const struct sim_options *o, const struct run_result *r);

#endif
