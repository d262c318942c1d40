/* Exact pool filling: a priority flood from one cell.
 *
 * Water poured at a cell raises a lake. The lake grows from its cell by a
 * min-heap of boundary cells keyed on their surface (height + pool): the
 * lowest boundary cell is either a leak (lower than the water level: the
 * water drains there) or the next step of the level (raising the lake to it
 * costs area x rise). Cost is O(k log k) in the k cells it touches; a visit
 * stamp replaces clearing arrays between calls, so nothing is O(map).
 * Cells at the lake's level join first (a plain stack); the lake drains at
 * its lowest leak (lowest surface, then lowest cell index) and sinks by
 * `drainage` toward it, never below the lake's ground next to the leak.
 *
 * The map is an island: its outside is a sea whose surface is sea_level.
 * A lake that reaches an edge cell can rise to sea_level at most; water above
 * that drains into the sea and leaves the map.
 *
 * Volumes are in height units x cells (the units of sum(pool)). The pool
 * layer is float32; `gained` is the exact sum of what its cells really
 * changed by, so a caller that charges the water poured by `gained` keeps
 * the books exact whatever the float rounding did. It is kept in 2^-53
 * fixed point, modulo 2^64: exact for any change smaller than 1024 units
 * (a droplet pours at most 1); a single pour that changes the pools by more
 * (bench_hydrology's whole-map fill) reports the change modulo 2048. */
#ifndef GULLY_FLOOD_H
#define GULLY_FLOOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct flood;

struct flood_params {
	double drainage;  /* at a leak the level drops this share of (level - leak) */
	double sea_level; /* the sea's surface around the map */
	double carry;     /* the most water that goes on from a leak: a draining
			   * lake sinks no further than that takes */
	bool below_floor; /* a draining lake may sink below its ground next to
			   * the leak, toward the leak's surface (the 2020 code) */
	bool leak_high;   /* of the leaks below the level the highest drains, not
			   * the lowest (the 2020 code) */
	bool halves;      /* the 2020 code's re-flooding: a pour keeps only its
			   * tries, each raising the level by half the water
			   * left over the area the last one covered, that stay
			   * below a leak and hold no more than is left
			   * (flood_halves.c) */
	bool halves_filled; /* with halves: a pour that would hold all its water
			   * replays the tries too (FLOOD_OVERSHOT); off: it
			   * keeps it all */
	double halves_stop; /* with halves_filled: no try with this much water
			   * or less left (the droplet's smallest volume) */
	bool wrap_y;      /* the 2020 code's neighbours: past the last row lie the
			   * next columns' first row, past the first row the
			   * previous columns' last row. Such a pour turns the
			   * lake cache off for good (its records assume a plane
			   * grid). */
	bool strict_dry;  /* dry cells (pool 0) below a pour's start are leaks,
			   * and for a pour from dry ground every surface below
			   * it is, as the 2020 code's test in double finds
			   * them; off: within the level tolerance (8
			   * FLT_EPSILON, for the rounding of float pools) they
			   * count as level. A pour from dry ground starts
			   * fresh, never from a record, and a pour from a lake
			   * uses its record only if none of the record's dry
			   * cells is below the start; the record's end
			   * (flood_set_overshoot_exit) serves both: every cell
			   * it reasons about sits above the start. */
	bool level_join;  /* the second try's join (flood_fill.c): wet cells
			   * at or above the start's level (less the
			   * tolerance) that the rise reaches while it is
			   * below the 2020 code's second plane (the level
			   * plus half the water over the lake at the level)
			   * join the lake instead of leaking, as the seed's
			   * test against its first plane, in exact doubles,
			   * finds them; later tries leak into them, as the
			   * seed's do */
};

enum flood_outcome {
	FLOOD_FILLED, /* all the water is in the lake */
	FLOOD_DRAIN,  /* a leak was found: the rest of the water goes on from it */
	FLOOD_SEA,    /* the lake reached the sea: the rest leaves the map */
	FLOOD_OVERSHOT, /* halves: a try held more than was left; the rest
			 * goes on from the start */
};

struct flood_result {
	enum flood_outcome outcome;
	int drain;         /* where the rest goes on: the leak's cell for
			    * FLOOD_DRAIN, the start for FLOOD_OVERSHOT, else -1 */
	double level;      /* the lake's water level at the end */
	double gained;     /* exact change of sum(pool) over the map; < 0 when a
			    * draining lake lost more than it was given */
	double settled;    /* soil really added to height at the start cell */
	double poured;     /* water the rise placed before any drain (the pour
			    * less what was left when the leak was found) */
	size_t lake_cells; /* cells in the lake (the flood set) */
	size_t touched;    /* cells looked at: sorted as leak, level or rim */
	size_t written;    /* pool cells written */
};

/* Sediment a droplet drops where it entered still water: `on_drain` when it
 * goes on through a leak, `on_fill` when it ends in the lake. Settling raises
 * the ground under the water, at most up to the water's surface (`settled`
 * says how much it took); the water it displaces stays in the pour. */
struct flood_settle {
	double on_drain, on_fill;
};

/* Scratch space for a width x height map (heap, lake list, visit stamps). */
int flood_create(struct flood **out, int width, int height);
void flood_destroy(struct flood *f);

/* Pours `water` (>= 0) at cell `start` (y*width + x). Reads and writes the
 * pool layer of the lake and, to settle sediment, the height of `start`.
 * `settle` may be NULL. Returns GULLY_OK or GULLY_ENOMEM (nothing written). */
int flood_pour(struct flood *f, float *height, float *pool, int start, double water,
	       const struct flood_settle *settle, const struct flood_params *fp,
	       struct flood_result *r);

/* hydrology.dry_tries (flood_try.c): after a pour from dry ground at
 * `start` that kept nothing and drained, the 2020 code's second try. Its
 * first try, at the start's surface S, found no lower cell next to the n
 * cells at S joined to the start; the second raises the plane by half of
 * `water` over those n. If the cells at or above S under that plane, joined
 * to the start, have a lower cell next to them, they all go to the level
 * (1 - drainage) S + drainage x the highest such cell's surface: a lake the
 * plane reached sinks to the start's level. Writes pools only (and tells
 * the lake cache); *lost gets the water taken and *drain that highest
 * cell, where the seed's droplet goes on (-1 when the second try found no
 * drain or the first did). GULLY_ENOMEM changes nothing. */
int flood_dry_try(struct flood *f, const float *height, float *pool, int start, double water,
		  const struct flood_params *fp, double *lost, int *drain);

/* The lake cache. A pour into a lake it poured before starts from that
 * lake's remembered cells and a persistent heap of its rim instead of
 * walking the whole lake again: it looks only at the rim cells its level
 * reaches, and when the level does not move (a full lake passing a droplet
 * on to its leak) nothing is written. The result is the one a fresh flood
 * gets, bit for bit: leaks are chosen by surface then cell index, every
 * cell the level reaches joins before a leak counts, and pool sums are
 * kept in fixed point, so the order cells are visited in never shows. A
 * record is used only while all its cells sit at the start cell's level.
 * And a pour that wrote nothing, poured again (same cell, water and
 * parameters) before anything changed, is answered with its result without
 * a flood (counted in flood_counters' `repeated`): a droplet whose tries
 * all overshoot on a lake cell pours there again at once, up to its spill
 * rounds. Whoever changes height or pool outside flood_pour must tell it (for any
 * cell, in a lake or not: a rim cell whose surface falls could be a leak): */
void flood_forget_cell(struct flood *f, int cell); /* a cell changed */
/* The same for n cells, in order (calls flood_forget_cell where it acts). */
void flood_forget_cells(struct flood *f, const uint32_t *cells, size_t n);
void flood_forget_all(struct flood *f);            /* anything may have */
/* On by default; off makes every pour a fresh flood (tests compare both). */
void flood_set_cache(struct flood *f, bool on);

/* With flood_params.halves, a fresh pour about to reach a remembered lake
 * whose record shows that the first try would keep nothing (a cell of the
 * lake eroded below the others, poured on: the first plane lies above the
 * level all the water would take, and nothing around the lake is low
 * enough to join or leak) ends there as FLOOD_OVERSHOT, without walking
 * the lake: the result a full rise gives, bit for bit, but `touched`. On by
 * default; off, every pour rises to its end (tests compare both). */
void flood_set_overshoot_exit(struct flood *f, bool on);

/* Record writes in AVX2 when the CPU has it (the default) or in the
 * baseline code (off); both give the same bits (tests compare them).
 * Returns whether AVX2 is now used. */
bool flood_set_avx2(struct flood *f, bool on);

/* For tests: GULLY_OK when every lake record still describes the map as
 * the cache relies on (its cells' ground and pools, and a rim heap entry at
 * or below the surface of every cell next to its lake, the lowest ground of
 * its map-edge cells), else GULLY_EINVAL
 * (or GULLY_ENOMEM). O(records x map): not for the simulation. */
int flood_check(const struct flood *f, const float *height, const float *pool);

/* The shadow check, for hunting cache bugs over whole runs: while it is on,
 * every pour with the cache on is also poured by a second flood without a
 * cache on copies of the layers, and a pour whose result or layers differ
 * is counted; the first such is kept. O(map) per pour: never for a build
 * that is used. Off unless turned on here, or built with -DFLOOD_DEBUG
 * (then on from flood_create). Returns GULLY_OK or GULLY_ENOMEM (left off). */
int flood_set_shadow(struct flood *f, bool on);
struct flood_shadow {
	uint64_t pours;    /* pours compared */
	uint64_t differed; /* of them, pours whose result or layers differed */
	/* The first that differed (when differed > 0): its call (counted from
	 * 1 over the flood's life), start cell, the record it started from
	 * (0: none), and the results the cached and the fresh pour gave. */
	uint64_t first_call;
	int first_start;
	uint32_t first_record;
	struct flood_result cached, fresh;
};
void flood_shadow(const struct flood *f, struct flood_shadow *s);

/* Every pit of the map filled to its spill at once: a whole-map priority
 * flood (Zhou, Sun and Fu 2016's one pass: cells on a rising slope are
 * settled as they are met, without the priority queue). The sea at
 * `sea_level` surrounds the map, so no surface ends below it. Writes the
 * pools a pour of enough water into every pit would leave (flood_pour with
 * drainage 0, bit for bit where no two surfaces are within its level
 * tolerance: tests compare) into `pool`, from `height` alone (pool's old
 * values are ignored). For the start of a run, an imported map with pits,
 * a new sea level. Returns GULLY_OK or GULLY_ENOMEM (then pool holds no
 * result: some cells written, others not). */
int flood_fill_map(const float *height, float *pool, int width, int height_cells,
		   double sea_level);

/* What the flood has done since it was made: for benchmarks. */
struct flood_counters {
	uint64_t calls, touched, lake_cells, written;
	uint64_t cached; /* calls that started from a remembered lake */
	uint64_t repeated; /* calls that were the last call again, on a map
			    * it left as it was: its result, without a flood */
	uint64_t overshot_early; /* calls a lake's record ended before its walk
				  * (flood_set_overshoot_exit) */
	uint64_t shadow_pours, shadow_differed; /* the shadow check's counts */
};
void flood_counters(const struct flood *f, struct flood_counters *c);

#endif
