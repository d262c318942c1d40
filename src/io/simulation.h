/* One running simulation, as both front ends hold it: a world, its
 * parameters, the process stepping it and that process's state. Loading,
 * starting or resuming a process, switching process and saving are written
 * once, here, for `gully run` and the explorer alike, so a snapshot saved
 * from either holds the same things (the process, the exact parameters, the
 * process's state and the effective preset text that `gully info` shows).
 *
 * Errors come back as a gully_err code and one line in `err` naming the
 * file, the process or the parameter; nothing is printed. A call that fails
 * leaves the simulation as it was. */
#ifndef GULLY_SIMULATION_H
#define GULLY_SIMULATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/params.h"
#include "core/base/process.h"
#include "core/base/world.h"
#include "io/snapshot.h"

struct simulation {
	struct world *world;
	struct params params;
	const struct process_ops *proc; /* NULL until started */
	void *state;                    /* proc's state */
	/* Optional: a YAML comment line ("# ...") saved first in the preset
	 * text, such as `gully run`'s mark of an interrupted run. */
	const char *note;
};

/* Reads the snapshot at `path` into `s` (world and parameters, no process
 * yet: the caller may still change the parameters) and `saved` (the name of
 * the process that saved it and its state). The parameters are checked
 * against the registry and the process must be built in. */
int simulation_open(struct simulation *s, struct snapshot_info *saved, const char *path,
		    char *err, size_t errlen);

/* GULLY_EINVAL (and why in err) when proc would resume `saved`'s state
 * but s->params changes a value that state keeps from when it was made
 * (process_ops.made_with, such as sph's soil pores): the change would be
 * shown and saved but not act. simulation_start refuses the same; a front
 * end asks first to call it a usage error. */
int simulation_check_kept(const struct simulation *s, const struct process_ops *proc,
			  const struct snapshot_info *saved, const char *label, char *err,
			  size_t errlen);

/* Starts `proc` on s->world with s->params. With `saved` (from
 * simulation_open; else NULL): when proc is the process that saved it, proc
 * takes its state back (an exact resume); when another, the saving process
 * first finishes what it had in flight, so its soil lands in the world.
 * `label` names the snapshot in messages. */
int simulation_start(struct simulation *s, const struct process_ops *proc,
		     const struct snapshot_info *saved, const char *label, char *err,
		     size_t errlen);

/* Switches to `proc` on the same world: the running process finishes what
 * it has in flight first. */
int simulation_switch(struct simulation *s, const struct process_ops *proc, char *err,
		      size_t errlen);

/* Writes a snapshot (atomically): the world, the process and its state,
 * the parameters and the effective preset as YAML text. */
int simulation_save(const struct simulation *s, const char *path, char *err, size_t errlen);

/* A run whose parameters make it unstable (droplets that dig faster than
 * they slow) drives heights past the model's range in a few thousand
 * droplets, and every droplet after that is wasted work on a world no
 * snapshot can keep. The watch looks at the heights between chunks, once
 * the work since its last look is SIM_WATCH_STEPS_PER_CELL steps a cell (a
 * pass over the map then costs well under 1% of the run), and whenever the
 * caller asks (`now`, at a run's end). */
#define SIM_WATCH_STEPS_PER_CELL 8
struct sim_watch {
	uint64_t steps; /* since the last look */
};

/* After a chunk that took `steps` steps of `proc`, `done` of `budget` units
 * into the run (budget 0: open-ended): GULLY_ERANGE with one line in err
 * (where, how far, and which parameters to change) when a height is past
 * +-WORLD_HEIGHT_LIMIT or not a number, else GULLY_OK. */
int sim_watch(struct sim_watch *wt, const struct world *w, const struct process_ops *proc,
	      uint64_t steps, uint64_t done, uint64_t budget, bool now, char *err, size_t errlen);

/* Drops the process state and the world. */
void simulation_end(struct simulation *s);

#endif
