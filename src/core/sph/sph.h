/* Process 4: SPH jets and rain that splash craters, wet the soil by Darcy's
 * law and scour it once saturated (seed 003; shared/SPH.md; DESIGN.md 3.4).
 *
 * A weakly compressible SPH fluid in 3D over the heightfield. Lengths are map
 * cells; the terrain stands at height x terrain.vertical_scale cells. Each
 * step: emit (jets, rain), sort the particles by grid cell (counting sort),
 * density pass (neighbour lists, poly6, the terrain as an analytic half-space),
 * force pass (spiky pressure, artificial and mud viscosity, mud diffusion and
 * settling, symplectic Euler, the terrain as a safety net), then the coupling in
 * particle order (absorption, splash craters, scour, deposition), then Darcy
 * diffusion and drying on a fixed lattice of 5 porous particles per cell.
 *
 * Water and soil are kept in integer quanta, so both books balance exactly.
 * The parallel phases (density; force with the coupling's read-only look;
 * the tail: compaction, water layer, the soil by rows) are gather-only or
 * write disjoint data, and the coupling itself runs in particle order on one
 * thread, so results are identical for any thread count.
 *
 * In a run of steps (sph_run) a step's tail waits for the next step: the
 * sort drops the removed particles as it moves the others (no compaction),
 * and the soil runs beside it, in the same round of tasks; the layers drawn
 * from them are made once, when the run ends. Sort, density and force are
 * one round of phases: the sort's gathers wait for its plan, a density task
 * for the gathers holding its particles' neighbours, a force task for the
 * density tasks holding them and for the soil. The state is settled (the
 * tail done) whenever sph_run or sph_step returns, and the bits are those of
 * doing each tail at once. */
#ifndef GULLY_SPH_H
#define GULLY_SPH_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/base/process.h"

extern const struct process_ops sph_process;

#define SPH_JETS 4
#define SPH_MAX_NEIGHBOURS 64
#define SPH_CAPACITY_LIMIT 500000
/* A particle's water, in quanta; the soil quantum in cells^3. */
#define SPH_WATER_QUANTA (1ll << 20)
#define SPH_SOIL_QUANTUM (1.0 / 4294967296.0)

enum sph_eos { SPH_EOS_TAIT, SPH_EOS_LINEAR };

struct sph_jet {
	bool on;
	double x, y, z;       /* nozzle centre, cells (z above the ground there) */
	double dx, dy, dz;    /* unit direction */
	double speed, radius; /* cells/s, cells */
	double rate;          /* particles per second */
};

/* The constants of a step, from params once per call. */
struct sph_config {
	double spacing, h, h2, mass, rho0, c, gravity, cfl, max_dt;
	int eos;
	double alpha, nu_fluid, nu_mud;
	double restitution, contact, clearance;
	double scale; /* terrain.vertical_scale: cells per height unit */
	int capacity;
	struct sph_jet jet[SPH_JETS];
	double rain, rain_x0, rain_y0, rain_x1, rain_y1, rain_height, rain_speed;
	bool wetting, splash, scour, mud;
	double porosity, soil_depth, absorb_rate, permeability, capillary, dry_rate, pond;
	double splash_speed, yield_dry, wet_ratio, rim_fraction, max_crater;
	double shear_k, erosion_k, critical_shear, shear_wet, scour_start, shear_depth;
	double mud_max, mud_diffusion, settle_speed, soil_density;
	/* Kernel constants for h. */
	double poly6, spiky_grad, visc_lap;
};

/* Particle arrays, structure of arrays; one set is the current state, a
 * second is the force pass's output and the sort's scatter target. */
struct sph_particles {
	float *x, *y, *z, *vx, *vy, *vz;
	int64_t *mud;      /* suspended soil, quanta */
	uint32_t *id;
	uint8_t *grounded; /* in contact with the ground after the last step */
};

/* Int64 books. Water in quanta of SPH_WATER_QUANTA per particle; soil in
 * quanta of SPH_SOIL_QUANTUM cells^3. */
struct sph_books {
	int64_t water_emitted, water_refused, water_off_map, water_dried;
	int64_t soil_terrain;   /* net soil added to the terrain (negative: eroded) */
	int64_t soil_off_map;
	int64_t splash, scour, deposited, absorbed; /* running sums, quanta */
};

struct workers;

/* A box of cells, corners included; empty when x1 < x0. */
struct sph_box {
	int x0, y0, x1, y1;
};

struct sph {
	struct sph_config cfg;
	int width, height;       /* the map */
	int n, cap;              /* particles alive, capacity of the arrays */
	struct sph_particles p, q; /* current, next */
	/* Per particle, filled by the density pass. */
	float *rho, *press;      /* density, p / rho^2 */
	float *nu;               /* kinematic viscosity of its mixture (eq. 11) */
	float *ground, *nx, *ny, *nz; /* terrain height under it, normal (after
				       * the force pass: at its new place) */
	int32_t *nbr;            /* SPH_MAX_NEIGHBOURS per particle */
	uint8_t *ncount;
	float *vhit;             /* normal speed of a fresh impact, else 0 */
	int64_t *mud_next;
	uint8_t *dead;           /* 1: removed by the coupling; 2: cut list */
	uint8_t *busy;           /* the force pass found the coupling has work here */
	int32_t *cell;           /* first of the 2x2 terrain cells under it, row-major */
	/* Neighbour grid: counting sort over the particles' bounding box. */
	int gx0, gy0, gz0, gnx, gny, gnz;
	uint32_t *cstart;        /* gnx*gny*gnz + 1 */
	size_t cells_cap;
	uint32_t *key;
	uint32_t *order;         /* the sort's: sorted place -> old index */
	/* The next sort's grid cells (x, y, z) of particles [0, pre_n), found
	 * by the force pass where it moves them (sph_cell_of) for a cell size
	 * pre_h; pre_n is 0 when there are none. */
	int32_t *kcell;
	int pre_n;
	double pre_h;
	/* The soil: 5 porous particles per cell, water in quanta. */
	int32_t *water, *water_next; /* per porous particle, quanta */
	int32_t capacity_q;      /* per porous particle */
	float *h0;               /* terrain when this state was made */
	int64_t *soil;           /* per cell soil change, quanta */
	/* The soil's work is bounded by the wet box: cells outside it hold no
	 * water in either buffer. It grows by a cell a Darcy substep and shrinks
	 * to the water after each step. The layer box holds the cells whose
	 * wetness layer may be non-zero (the wet box when the layer was last
	 * written): a step that writes the layer covers it, so a cell that
	 * dried between writes is cleared. */
	struct sph_box wet, layer;
	/* The cells of LAYER_POOL the last water layer may have made non-zero
	 * (sph_water.c); the whole map after a load. */
	struct sph_box pool;
	/* Per cell: the coupling's epoch when its terrain (tstamp) or its water
	 * (wstamp) last changed. */
	uint32_t *tstamp, *wstamp;
	uint32_t epoch;
	/* The particles' water goes to LAYER_POOL only when the map had no pools
	 * when this state was made: hydrology's lakes are kept, not overwritten. */
	bool draws_water;
	/* The last step's tail, not run yet (sph_run): its dt, and how many
	 * particles the coupling removed (dead[i] == 1; they still count in n
	 * until the next sort or sph_settle). */
	/* The water the last completed tail dried, not yet in the world's
	 * tallies: each tail's is added on its own, in step order, so the
	 * tallies do not depend on how a run is cut into calls. */
	int64_t dried_untallied;
	/* As sph_create made it: nothing stepped, given or loaded. sph_load
	 * takes only such a state (a sparse blob leaves the rest as made). */
	bool pristine;
	bool unsettled;
	double unsettled_dt;
	int dying;
	/* Time and counters. */
	double time, dt, vmax, amax;
	uint64_t steps;
	uint64_t particle_steps; /* the particles each step moved, summed */
	uint32_t next_id;
	double emit_carry[SPH_JETS + 1]; /* fractional particles owed, per source */
	struct sph_books books;
	int overflows;           /* neighbour lists cut at SPH_MAX_NEIGHBOURS */
	struct workers *workers; /* NULL: one thread */
	/* Seconds in each phase of the steps so far, wall clock and the calling
	 * thread's CPU, as the calling thread goes through them: emission and
	 * sort (with the last step's soil beside it), density, force (with the
	 * wait for the other workers' last tasks), the coupling in order, the tail
	 * (the soil's extra substeps; every tail, in sph_step or at the end of
	 * sph_run). */
#define SPH_PHASES 5
	double split[SPH_PHASES], split_cpu[SPH_PHASES];
};

void sph_config_from(struct sph_config *c, const struct params *p);

/* State for a world; NULL workers means the caller's thread alone. */
int sph_create(struct sph **out, struct world *w, const struct params *p);
void sph_destroy(struct sph *s);
int sph_reserve(struct sph *s, int n);
/* One full step, settled. */
int sph_step(struct sph *s, struct world *w);
/* Up to `steps` steps (*done of them made; an error stops the run), each
 * step's tail run beside the next one's sort; settled on return. */
int sph_run(struct sph *s, struct world *w, uint64_t steps, uint64_t *done);
/* Runs the last step's tail if it is still to run. */
void sph_settle(struct sph *s, struct world *w);

/* sph_sources.c: jets and rain; returns particles added. Adds one particle
 * (booked as emitted, or refused over the capacity). */
int sph_emit(struct sph *s, struct world *w, double dt);
bool sph_add(struct sph *s, float x, float y, float z, float vx, float vy, float vz);

/* sph_grid.c: sort by cell and build neighbour lists. */
int sph_sort(struct sph *s);
/* Work that runs in the sort's first round of tasks, beside it (tasks
 * numbered from 0; nothing the sort reads or writes). */
struct sph_side {
	int tasks;
	void (*run)(void *arg, int task);
	void *arg;
};
/* The sort with side work; while s->dying > 0 the particles with dead[i] == 1
 * are left out (stably, as a compaction before the sort would). */
int sph_sort_with(struct sph *s, const struct sph_side *side);
/* Whether the sort splits over the workers (a large scene: several rounds
 * of its own) or is one task that another round can hold. */
bool sph_sort_splits(const struct sph *s);
/* The sort in two parts, for a round that holds it: the plan (one task: the
 * grid, the cell starts, each particle's place; then p and q swap and n is
 * the sorted count, with p still to fill), and the gathers that fill sorted
 * particles [from, to) of p from q, on any workers once the plan is done.
 * sph_sort is the plan and one gather of everything. */
int sph_sort_plan(struct sph *s);
void sph_sort_gather(struct sph *s, int from, int to);
/* A coordinate's neighbour-grid cell (floor of v / h), clamped to +-2^28 so
 * that no position overflows an int and a key stays inside 32 bits. The
 * force pass finds the next sort's cells with it where it moves the
 * particles (s->kcell; the sort takes them while s->pre_n and s->pre_h say
 * they are there: sph_step.c sets them, and clears them when anything but a
 * sort may reorder the particles). */
static inline int sph_cell_of(float v, double inv_h)
{
	double c = floor((double)v * inv_h);
	c = c > -268435456.0 ? c : -268435456.0; /* not fmin/fmax: libm calls at -O2 */
	return (int)(c < 268435456.0 ? c : 268435456.0);
}
/* How many tasks a parallel phase over `items` is cut into: 1 without
 * workers or for a small scene (sph_step.c). */
int sph_tasks(const struct sph *s, long items);
/* Copies the live particles (dead[i] != 1) of p[from, to), in order, to q
 * from index at; returns how many. */
int sph_compact_range(struct sph *s, int from, int to, int at);
/* Neighbours of particle i within h (not i), appended to out; returns count
 * (may exceed max: then only max are written). */
int sph_neighbours(const struct sph *s, int i, int32_t *out, int max, float *rho_sum);
/* After a sort: the particles [*lo, *hi) that hold every neighbour
 * sph_neighbours can find for sorted particles [from, to), from < to <= n
 * (what a density task's gathers and a force task's density tasks must
 * cover, sph_step.c). */
void sph_neighbour_span(const struct sph *s, long from, long to, long *lo, long *hi);
/* The force pass's pair sums for particle i over list[0..n-1] (pressure and
 * artificial viscosity into push, mud-viscosity drag into drag), four pairs
 * at a time where the build has SSE2 and `wide` is set, else one by one:
 * the two must give the same bits (tests/test_sph_fluid.c). */
void sph_pair_sums(const struct sph *s, int i, const int32_t *list, int n, bool wide,
		   float push[3], float drag[3]);

/* sph_fluid.c */
double sph_poly6_fraction(double u);        /* share of a poly6 kernel below a plane at u h */
double sph_poly6_fraction_slope(double u);  /* its derivative */
/* The first of the 2x2 cells sph_terrain_at reads at (x, y); they hold the
 * cell (int)x, (int)y of a point on the map. */
void sph_terrain_cell(const struct sph *s, float x, float y, int *ix, int *iy);
void sph_terrain_at(const struct sph *s, const struct world *w, float x, float y, float *H,
		    float *nx, float *ny, float *nz);
void sph_density_pass(struct sph *s, const struct world *w, int from, int to);
void sph_force_pass(struct sph *s, const struct world *w, double dt, int from, int to,
		    double *vmax, double *amax);

/* sph_soil.c: the porous lattice. */
int sph_soil_create(struct sph *s, struct world *w);
double sph_saturation(const struct sph *s, int cx, int cy); /* mean of the 5 */
/* The soil's part of a step (Darcy substeps, drying, the wetness layer), cut
 * by rows of the wet box so workers can share it: plan, then per substep
 * grow the box (sph_soil_open), run every row (last: with drying, the layer
 * when there is a world, and the box of the rows' water in *held; the water
 * dried is returned), swap; after the last, shrink the box to what the rows
 * held. Rows are independent within a substep. */
#define SPH_PORES 5 /* porous particles a cell */
#define SPH_LINKS_MAX 48
struct sph_link {
	int dx, dy, k;
	double w;
};
struct sph_soil_step {
	int substeps; /* Darcy substeps (0: none) */
	double kdt, dry_k;
	bool dry;
	struct sph_link link[SPH_PORES][SPH_LINKS_MAX];
	int nl[SPH_PORES];
	/* Per link: kdt w, and how far its pore lies from the link's own in
	 * the water array (for cells whose 3x3 block is on the map). */
	double kw[SPH_PORES][SPH_LINKS_MAX];
	ptrdiff_t off[SPH_PORES][SPH_LINKS_MAX];
};
void sph_soil_plan(struct sph *s, double dt, bool wetting, struct sph_soil_step *st);
void sph_soil_open(struct sph *s, const struct sph_soil_step *st, bool layer);
int64_t sph_soil_rows(struct sph *s, struct world *w, const struct sph_soil_step *st, bool last,
		      int y0, int y1, struct sph_box *held);
void sph_soil_swap(struct sph *s, const struct sph_soil_step *st);
void sph_box_join(struct sph_box *b, const struct sph_box *c);
void sph_soil_shrink(struct sph *s, const struct sph_box *held, bool layer);
void sph_darcy(struct sph *s, double dt); /* Darcy alone, on this thread */
/* LAYER_POOL: the particles' water over each cell, in height units; a cell
 * with only airborne water (spray) counts this share of it. */
#define SPH_SPRAY_SHARE 0.25
void sph_water_layer(struct sph *s, struct world *w);
/* The same, leaving out the particles with dead[i] == 1. */
void sph_water_layer_alive(struct sph *s, struct world *w, const uint8_t *dead);
/* Adds quanta of water to a cell's five porous particles. */
void sph_soil_give(struct sph *s, int cx, int cy, int64_t q);
int64_t sph_soil_room(const struct sph *s, int cx, int cy);
int64_t sph_water_in_soil(const struct sph *s);
/* Dries the whole soil (booked as dried) and clears its wetness layer, for
 * a world going on with another process; returns the water it held. */
int64_t sph_soil_end(struct sph *s, struct world *w);

/* sph_erode.c: soil moves between the terrain and particles, in quanta. */
void sph_terrain_add(struct sph *s, struct world *w, int cx, int cy, int64_t q);
void sph_couple(struct sph *s, struct world *w, double dt);
/* Whether the coupling would change anything for particle i of pp (standing
 * where the ground is H with normal n), the world as it is now: 0 no, 1 yes,
 * 2 it has left the map. Writes nothing: the force pass asks it for every
 * particle, in parallel. */
int sph_couple_needed(struct sph *s, struct sph_particles *pp, int i, float H, float nx,
		      float ny, float nz, double dt);
double sph_yield(const struct sph_config *c, double saturation);
double sph_crater_volume(const struct sph_config *c, double vn, double saturation);

/* sph_mud.c: gather-only diffusion and settling over the neighbour lists. */
int64_t sph_mud_exchange(const struct sph *s, int i, double dt);

/* Totals for the books and metrics. */
int64_t sph_soil_suspended(const struct sph *s);
/* Soil quanta as the world's tallies count them: height units x cells. */
static inline double sph_soil_tally(const struct sph *s, int64_t q)
{
	return (double)q * SPH_SOIL_QUANTUM / s->cfg.scale;
}
/* Water quanta as the world's tallies count them: a particle's volume
 * (spacing^3) over the scale. */
static inline double sph_water_tally(const struct sph *s, int64_t q)
{
	double v = s->cfg.spacing * s->cfg.spacing * s->cfg.spacing;
	return v / (double)SPH_WATER_QUANTA / s->cfg.scale * (double)q;
}
/* Water: emitted == in flight + soil + off map + dried + refused. */
bool sph_books_balance(const struct sph *s);

/* sph_state.c: the snapshot blob. */
int sph_save(const struct sph *s, unsigned char **data, size_t *len);
/* Into a state as sph_create made it on the snapshot's world (GULLY_EINVAL
 * otherwise); GULLY_EFORMAT for a blob that does not fit it. */
int sph_load(struct sph *s, const unsigned char *data, size_t len);

/* Metrics for `gully run`: volumes in cells^3. */
struct sph_metrics {
	double splash_volume, scour_volume, mud_deposited, water_absorbed;
	long wet_cells;
	long particles;
};
/* Fills m when state is an sph state (false otherwise). */
bool sph_metrics_of(const struct process_ops *ops, const void *state, struct sph_metrics *m);
/* A saved state's totals, read from its blob without making the state
 * (gully info): GULLY_EFORMAT when it is not a whole sph blob. */
struct sph_summary {
	int particles;     /* in flight */
	uint32_t released; /* ever, ids given */
	uint64_t steps;
	double time;       /* simulated seconds */
	struct sph_books books;
	struct sph_box wet;
};
int sph_blob_summary(const unsigned char *data, size_t len, struct sph_summary *out);
/* The books' volumes in cells^3 (the metrics' units), for a particle
 * spacing. */
void sph_books_volumes(const struct sph_books *b, double spacing, struct sph_metrics *m);

#endif
