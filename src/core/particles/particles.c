#include "core/particles/particles.h"

#include <math.h>
#include <stdlib.h>

#include "core/base/error.h"
#include "core/particles/particles_lane.h"
#include "core/particles/particles_normal.h"
#include "core/particles/particles_lanes.h"
#include "core/particles/particles_pair.h"

void droplet_params_from(struct droplet_params *dp, const struct params *p)
{
	const struct params_particles *q = &p->particles;
	dp->dt = (float)q->dt;
	dp->density = (float)q->density;
	dp->friction = (float)q->friction;
	dp->deposition_rate = (float)q->deposition_rate;
	dp->evap_rate = (float)q->evap_rate;
	dp->min_volume = (float)q->min_volume;
	dp->scale = (float)p->terrain.vertical_scale;
	dp->max_steps = (uint32_t)q->max_steps;
	dp->deposit_on_death = q->deposit_on_death;
	dp->symmetric_normal = q->symmetric_normal;
}

/* Height with the map extended linearly past its edges. */
static float height_ext(const float *h, int w, int hh, int x, int y)
{
	if (x < 0)
		return 2.0f * height_ext(h, w, hh, 0, y) - height_ext(h, w, hh, 1, y);
	if (x >= w)
		return 2.0f * height_ext(h, w, hh, w - 1, y) - height_ext(h, w, hh, w - 2, y);
	if (y < 0)
		return 2.0f * h[x] - h[(size_t)w + (size_t)x];
	if (y >= hh)
		return 2.0f * h[(size_t)(hh - 1) * (size_t)w + (size_t)x] -
		       h[(size_t)(hh - 2) * (size_t)w + (size_t)x];
	return h[(size_t)y * (size_t)w + (size_t)x];
}

static const int dir_dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int dir_dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};

/* d[k] = h(centre) - h(neighbour k), in the order of dir_dx/dir_dy. */
static inline void normal_from_drops(const float d[8], float s, bool symmetric, float n[3])
{
	float nx = 0, ny = 0, nz = 0;
	for (int k = 0; k < 4; k++) {
		float a = s * d[k];
		float inv = NORMAL_AXIS_WEIGHT / sqrtf(a * a + 1.0f);
		nx += (float)dir_dx[k] * a * inv;
		nz += (float)dir_dy[k] * a * inv;
		ny += inv;
	}
	for (int k = 4; k < 8; k++) {
		float a = s * d[k];
		float inv = NORMAL_DIAG_WEIGHT / sqrtf(a * a + 2.0f);
		float c = a * inv * (1.0f / NORMAL_SQRT2);
		nx += (symmetric ? (float)dir_dx[k] : 1.0f) * c;
		nz += (symmetric ? (float)dir_dy[k] : 1.0f) * c;
		ny += NORMAL_SQRT2 * inv;
	}
	n[0] = nx;
	n[1] = ny;
	n[2] = nz;
}

void particles_normal(const float *h, int width, int height, int x, int y,
		      float scale, bool symmetric, float n[3])
{
	float c = h[(size_t)y * (size_t)width + (size_t)x];
	float d[8];
	for (int k = 0; k < 8; k++)
		d[k] = c - height_ext(h, width, height, x + dir_dx[k], y + dir_dy[k]);
	normal_from_drops(d, scale, symmetric, n);
}

void particles_normal_fast(const float *h, int width, int height, int x, int y,
			   float scale, bool symmetric, float n[3])
{
	if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) {
		particles_normal(h, width, height, x, y, scale, symmetric, n);
		return;
	}
	struct normal_consts k;
	normal_consts_init(&k, scale, symmetric);
	normal_interior(h + (size_t)y * (size_t)width + (size_t)x, (size_t)width, &k, &n[0], &n[1],
			&n[2]);
}

const char *particles_normal_impl(void)
{
	return PARTICLES_NORMAL_IMPL;
}

uint32_t droplet_run(struct droplet *d, struct world *w, const struct droplet_params *dp)
{
	struct lane_env e;
	lane_env_init(&e, w, dp);
	/* The droplet lives in a lane of locals: through *d every height store
	 * could alias its fields, and the compiler would reload them each step. */
	struct lane l;
	lane_from_droplet(&l, d, &e);
	while (lane_step(&l, &e, NULL, LANE_SOLO) == LANE_MOVED)
		;
	lane_finish(&l, &e, NULL, LANE_SOLO);
	lane_commit(&l, w);
	lane_to_droplet(&l, d);
	return lane_steps(&l);
}

/* particles.lanes > 1: droplets in lockstep (particles_lanes.h); 1: the
 * seed's order, one droplet after another, through the paired scheduler. */
struct particles_state {
	struct particles_pair *pair;
	struct particles_lanes *lanes;
};

static int particles_create(void **state, struct world *w, const struct params *p)
{
	(void)p;
	struct particles_state *s = calloc(1, sizeof *s);
	if (!s)
		return GULLY_ENOMEM;
	s->pair = particles_pair_create(w->width, w->height);
	s->lanes = particles_lanes_create(w->width, w->height);
	if (!s->pair || !s->lanes) {
		particles_pair_destroy(s->pair);
		particles_lanes_destroy(s->lanes);
		free(s);
		return GULLY_ENOMEM;
	}
	*state = s;
	return GULLY_OK;
}

static int particles_step(void *state, struct world *w, const struct params *p,
			  uint64_t budget, struct process_report *rep)
{
	struct particles_state *s = state;
	struct droplet_params dp;
	droplet_params_from(&dp, p);
	uint64_t steps = 0;
	int err;
	if (p->particles.lanes > 1) {
		err = particles_lanes_run(s->lanes, w, &dp, p->particles.lanes, budget, &steps);
	} else {
		/* Droplets still in flight from a lockstep run end first. */
		err = particles_lanes_in_flight(s->lanes) ? particles_lanes_drain(s->lanes, w, &dp, &steps)
							  : GULLY_OK;
		uint64_t more = 0;
		if (!err)
			err = particles_pair_run(s->pair, w, &dp, budget, &more);
		steps += more;
		if (!err)
			w->tally[TALLY_SEDIMENT_IN_FLIGHT] = 0;
	}
	if (err)
		return err;
	w->particles += budget;
	w->steps += steps;
	if (rep) {
		rep->particles = budget;
		rep->steps = steps;
	}
	return GULLY_OK;
}

static void particles_destroy(void *state)
{
	struct particles_state *s = state;
	if (s) {
		particles_pair_destroy(s->pair);
		particles_lanes_destroy(s->lanes);
	}
	free(s);
}

static int particles_finish(void *state, struct world *w, const struct params *p,
			    struct process_report *rep)
{
	struct particles_state *s = state;
	struct droplet_params dp;
	droplet_params_from(&dp, p);
	uint64_t steps = 0;
	int err = particles_lanes_in_flight(s->lanes) ? particles_lanes_drain(s->lanes, w, &dp, &steps)
						      : GULLY_OK;
	if (err)
		return err;
	w->tally[TALLY_SEDIMENT_IN_FLIGHT] = 0;
	w->steps += steps;
	if (rep) {
		rep->particles = 0;
		rep->steps = steps;
	}
	return GULLY_OK;
}

static int particles_save(const void *state, unsigned char **data, size_t *len)
{
	const struct particles_state *s = state;
	return particles_lanes_save(s->lanes, data, len);
}

static int particles_load(void *state, const unsigned char *data, size_t len)
{
	struct particles_state *s = state;
	return particles_lanes_load(s->lanes, data, len);
}

const struct process_ops particles_process = {
	.name = "particles",
	.title = "Particle erosion",
	.section = "particles",
	.unit = "droplets",
	.describe =
		"a = n.xz / (V rho)         v += dt a;  p += dt v;  v *= 1 - dt f\n"
		"c_eq = max(0, V |v| (h(p0) - h(p)))\n"
		"s += dt k (c_eq - s);   h(p0) -= dt V k (c_eq - s)\n"
		"V *= 1 - dt e           until V < V_min",
	.create = particles_create,
	.step = particles_step,
	.destroy = particles_destroy,
	.save_state = particles_save,
	.load_state = particles_load,
	.finish = particles_finish,
};
