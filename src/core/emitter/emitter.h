/* Process 3: an emitter's particle stream carving a terrain by its hardness
 * map (K. Warszawski, seed 004; DESIGN.md 3.3).
 *
 * The stream advances in ticks: each tick releases emitter.per_step particles
 * from the emission window, then moves every particle in flight one step, in
 * release order. A step() budget counts released particles and stops right
 * before the next release, so the sequence of events, and the result, does
 * not depend on how a run is split into calls. Particles in flight live in a
 * compact list that never holds more than per_step * lifetime of them; a
 * particle that leaves the map or reaches its lifetime returns to the emitter.
 * Cost per particle step: search_rays lookups plus a crater of (2R)^2 cells,
 * whatever the map size. */
#ifndef GULLY_EMITTER_H
#define GULLY_EMITTER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/process.h"

extern const struct process_ops emitter_process;

struct emitter_particle {
	double x, y;    /* position, cells: cell (i, j) spans [i, i+1) x [j, j+1) */
	double a;       /* heading alpha, radians; 0 is +x, pi/2 is +y */
	double b;       /* rotation angle beta of eq. 4, radians */
	double v;       /* speed, cells per step, <= max_speed */
	double m;       /* mass */
	double carried; /* height x cells removed so far along this path */
	uint32_t age;   /* steps taken */
};

/* The constants a particle step needs, taken from params once per call. */
struct emitter_params {
	double x, y;          /* emitter position, cells */
	double window;        /* emission window side, cells */
	double direction;     /* base heading, radians */
	double speed, speed_jitter, max_speed;
	double max_angle;     /* radians, the turn at max_speed (eq. 1) */
	double search_angle;  /* radians, half-width of the searched cone */
	int search_rays;      /* headings looked at on each side */
	double mass, mass_jitter, radius_per_mass, depth_scale;
	double rotation_radius;
	double angular_speed; /* radians per step */
	uint32_t lifetime;
	int per_step;
	bool deposit;
};

void emitter_params_from(struct emitter_params *ep, const struct params *p,
			 const struct world *w);

/* A fresh particle from the emission window, drawing from the world's rng:
 * position uniform in the window, v and m jittered, heading and beta at the
 * base direction. */
void emitter_release(struct emitter_particle *q, struct world *w,
		     const struct emitter_params *ep);

/* The new heading: looks at the cell max(v, 1) ahead along the current
 * heading and along search_rays headings on each side, evenly spread up to
 * search_angle, and turns toward the least hard one (ties: the smaller turn,
 * then the negative side), by at most max_angle * v / max_speed (eq. 1).
 * Off-map cells are not candidates. */
double emitter_steer(const struct emitter_particle *q, const struct world *w,
		     const struct emitter_params *ep);

enum emitter_fate {
	EMITTER_FLYING,  /* still in flight */
	EMITTER_LEFT,    /* left the map: its material is booked off the map */
	EMITTER_EXPIRED, /* reached the lifetime on the map */
};

/* One step: steer, move (eq. 3, with rotation eq. 4), then, if still on the
 * map, erode the crater around the new position (eqs. 6, 7). Adds what it
 * removed to q->carried and TALLY_ERODED. Does not retire the particle. */
enum emitter_fate emitter_particle_step(struct emitter_particle *q, struct world *w,
					const struct emitter_params *ep);
/* A particle's end, as the process ends each one: with emitter.deposit, one
 * that expired on the map drops what it carried in a mound around it; the
 * rest leaves the books as sediment off the map. (The explorer's trace ends
 * its particle with it.) */
void emitter_particle_retire(const struct emitter_particle *q, enum emitter_fate fate,
			     struct world *w, const struct emitter_params *ep);

/* Eqs. 6 and 7: every cell whose centre is within R of (x0, y0) loses
 * depth_scale * (R^2 - r^2) * (1 - hardness). Returns what the float heights
 * actually lost. */
double emitter_crater(struct world *w, double x0, double y0, double R, double depth_scale);

/* Drops `mass` in a mound of the crater's shape around (x0, y0), on the cells
 * inside the map (the nearest cell when no centre is within R). Returns what
 * the float heights actually gained. */
double emitter_mound(struct world *w, double x0, double y0, double R, double mass);

/* What a running stream holds (state from emitter_process.create). */
size_t emitter_in_flight(const void *state);
/* Material carried by the particles in flight: the rest of the mass balance. */
double emitter_in_flight_mass(const void *state);

#endif
