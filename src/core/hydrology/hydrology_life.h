/* A droplet of process 2 in stages (hydrology.c): what the process runs in
 * one go and the explorer's trace (hydrology_trace.c) a stage at a time, so
 * both run one copy. Private to src/core/hydrology. */
#ifndef GULLY_HYDROLOGY_LIFE_H
#define GULLY_HYDROLOGY_LIFE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/params.h"
#include "core/base/world.h"
#include "core/hydrology/flood.h"
#include "core/hydrology/hydrology_descend.h"

struct hydro_state;
struct process_report;

/* The constants one droplet needs, read from params once per step() call. */
struct hparams {
	double min_volume, vf, keep;
	int spill;
	bool deposit_on_death, settle;
	bool drain_loss; /* a drain's freed water is gone, not the droplet's */
	bool dry_tries;  /* hydrology.dry_tries: flood_dry_try after a dry pour */
	struct flood_params fp;
};

/* Where one droplet's water and soil went, in droplet volume units for water. */
struct books {
	double evaporated, off_map;
	double eroded, deposited, sediment_off_map;
};

/* A droplet's life in stages: each round a descent (when it starts on dry
 * ground) and a pour, up to `spill` rounds, then its books. The process runs
 * a life through in one go; the explorer's trace (hydrology_trace.h) a descent step,
 * a pour or the end at a time, so both run this one copy. */
enum life_stage { LIFE_ROUND, LIFE_DESCENT, LIFE_POUR, LIFE_END, LIFE_DONE };
struct life {
	struct hdrop d;
	struct books b;
	int round, stage;
	bool gone;      /* left the map with its water and load */
	double volume0; /* its volume when the descent began */
};

void hydrology_hparams(struct hparams *hp, const struct params *p);
void hydrology_life_begin(struct life *l, float x, float y);
/* The next stage: a whole descent (st NULL) or one step of it, a pour (its
 * result in *r), or the end (its books into the world's tallies). */
int hydrology_life_next(struct hydro_state *s, struct world *w, const struct hparams *hp,
			const struct hd_env *env, struct life *l, uint64_t *steps,
			struct hd_step *st, struct flood_result *r);
/* Before droplets run: the world is the state's, the lake records hold,
 * a first droplet finds the pits filled (fill_start). */
int hydrology_ready(struct hydro_state *s, struct world *w, const struct params *p,
		    uint64_t budget);
/* The constants and the descent's environment on w; false: w is not the
 * state's world. */
bool hydrology_life_env(struct hydro_state *s, struct world *w, const struct params *p,
			struct hparams *hp, struct hd_env *env);
/* A descent ended with `e` (not DESCENT_MOVED): its evaporation on the
 * books, and the next stage (a pour, or the end). */
void hydrology_life_descended(struct life *l, enum descent e);
/* A droplet has ended and the world's count says so (it counted it when it
 * was released, or just now): a batch may end. */
int hydrology_droplet_ended(struct hydro_state *s, struct world *w, const struct params *p);
/* Droplets in lanes (hlanes.h), for hydrology.lanes > 1: releases `budget`
 * droplets through `lanes` slots, counting each in the world as it is
 * released; those still in flight stay in s's lanes. _drain runs the ones in
 * flight to their ends and releases none. Both add their steps to *steps and
 * set TALLY_SEDIMENT_IN_FLIGHT. */
int hydrology_lanes_run(struct hydro_state *s, struct world *w, const struct params *p,
			const struct hparams *hp, const struct hd_env *env, int lanes,
			uint64_t budget, uint64_t *steps);
int hydrology_lanes_drain(struct hydro_state *s, struct world *w, const struct params *p,
			  const struct hparams *hp, const struct hd_env *env, uint64_t *steps);
/* A step() or finish() call's end: the stream map caught up (unless the
 * caller lets it lag), the steps counted, the world's counters noted. */
void hydrology_call_end(struct hydro_state *s, struct world *w, uint64_t steps);
/* The process's finish (process.h): the droplets in flight in lanes run to
 * their ends. */
int hydrology_lanes_finish(void *state, struct world *w, const struct params *p,
			   struct process_report *rep);
/* A life at LIFE_END ends as the process ends a droplet: its books, the
 * world's count (a batch may end there) and its `steps`. */
int hydrology_life_close(struct hydro_state *s, struct world *w, const struct params *p,
			 const struct hparams *hp, struct life *l, uint64_t steps);

#endif
