#include "core/particles.h"

#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/particles_normal.h"

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
	normal_interior(h + (size_t)y * (size_t)width + (size_t)x, (size_t)width, &k, n);
}

const char *particles_normal_impl(void)
{
	return PARTICLES_NORMAL_IMPL;
}

/* max(v, 0) without a branch: whether a step erodes or deposits is close to a
 * coin toss, and a mispredicted branch costs more than the whole sum. */
static inline double positive_part(double v)
{
#if defined(__SSE2__)
	return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(v), _mm_setzero_pd()));
#else
	return v > 0 ? v : 0.0;
#endif
}

/* Drops `mass` bilinearly on the four cells around (x, y); returns what the
 * float heights actually gained. */
static double deposit_bilinear(struct world *w, float x, float y, double mass)
{
	float *h = w->layer[LAYER_HEIGHT];
	float fx = x - 0.5f, fy = y - 0.5f;
	int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
	float tx = fx - (float)x0, ty = fy - (float)y0;
	double gained = 0;
	for (int k = 0; k < 4; k++) {
		int cx = x0 + (k & 1), cy = y0 + (k >> 1);
		double wgt = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);
		if (cx < 0)
			cx = 0;
		if (cy < 0)
			cy = 0;
		if (cx >= w->width)
			cx = w->width - 1;
		if (cy >= w->height)
			cy = w->height - 1;
		float *cell = &h[(size_t)cy * (size_t)w->width + (size_t)cx];
		float before = *cell;
		*cell = (float)((double)before + mass * wgt);
		gained += (double)*cell - (double)before;
	}
	return gained;
}

uint32_t droplet_run(struct droplet *d, struct world *w, const struct droplet_params *dp)
{
	float *h = w->layer[LAYER_HEIGHT];
	const int width = w->width, height = w->height;
	const size_t stride = (size_t)width;
	const float fw = (float)width, fh = (float)height;
	const float dt = dp->dt;
	const float keep_speed = 1.0f - dt * dp->friction;
	const float keep_volume = 1.0f - dt * dp->evap_rate;
	const float rate = dt * dp->deposition_rate;
	const float min_volume = dp->min_volume, density = dp->density;
	const uint32_t max_steps = dp->max_steps;
	struct normal_consts nk;
	normal_consts_init(&nk, dp->scale, dp->symmetric_normal);
	double eroded = 0, deposited = 0, carried = d->carried;
	bool left_map = false;
	uint32_t steps = 0;
	/* The droplet lives in locals: through *d every height store could alias
	 * its fields, and the compiler would reload them on every step. */
	float x = d->x, y = d->y, vx = d->vx, vy = d->vy;
	float volume = d->volume, sediment = d->sediment;
	uint32_t age = d->age;
	int ix = (int)x, iy = (int)y;
	size_t at = (size_t)iy * stride + (size_t)ix;

	while (volume > min_volume && age < max_steps) {
		float n[3];
		if (ix >= 1 && iy >= 1 && ix < width - 1 && iy < height - 1)
			normal_interior(h + at, stride, &nk, n);
		else
			particles_normal(h, width, height, ix, iy, dp->scale,
					 dp->symmetric_normal, n);
		float inv_mass = dt / (volume * density);
		vx += n[0] * inv_mass;
		vy += n[2] * inv_mass;
		x += dt * vx;
		y += dt * vy;
		vx *= keep_speed;
		vy *= keep_speed;
		age++;
		steps++;
		/* Written so that NaN positions also count as off the map. */
		if (!(x >= 0.0f && x < fw && y >= 0.0f && y < fh)) {
			left_map = true;
			break;
		}
		const int nx = (int)x, ny = (int)y;
		const float here = h[at];
		float c_eq = 0.0f;
		size_t next = at;
		/* Staying in the cell means here == there, so c_eq is exactly 0 (the
		 * speed is finite): skipping the speed and the load keeps the results
		 * and takes them off the step-to-step dependency chain. */
		if (nx != ix || ny != iy) {
			next = (size_t)ny * stride + (size_t)nx;
			float there = h[next];
			float speed = sqrtf(vx * vx + vy * vy);
			c_eq = volume * speed * (here - there);
			if (c_eq < 0.0f)
				c_eq = 0.0f;
			ix = nx;
			iy = ny;
		}
		float cdiff = c_eq - sediment;
		sediment += rate * cdiff;
		float after = here - volume * rate * cdiff;
		h[at] = after;
		at = next;
		/* Book what the float height really changed by, so the sums balance. */
		double change = (double)here - (double)after;
		eroded += positive_part(change);
		deposited += positive_part(-change);
		carried += change;
		volume *= keep_volume;
	}

	d->x = x;
	d->y = y;
	d->vx = vx;
	d->vy = vy;
	d->volume = volume;
	d->sediment = sediment;
	d->age = age;
	if (left_map) {
		w->tally[TALLY_SEDIMENT_OFF_MAP] += carried;
	} else if (dp->deposit_on_death && carried != 0) {
		double gained = deposit_bilinear(w, x, y, carried);
		if (gained > 0)
			deposited += gained;
		else
			eroded -= gained;
		/* The few ulps the float heights could not take stay on the books. */
		w->tally[TALLY_SEDIMENT_OFF_MAP] += carried - gained;
	} else {
		w->tally[TALLY_SEDIMENT_OFF_MAP] += carried;
	}
	d->carried = 0;
	w->tally[TALLY_ERODED] += eroded;
	w->tally[TALLY_DEPOSITED] += deposited;
	return steps;
}

struct particles_state {
	int unused;
};

static int particles_create(void **state, struct world *w, const struct params *p)
{
	(void)w;
	(void)p;
	struct particles_state *s = calloc(1, sizeof *s);
	if (!s)
		return GULLY_ENOMEM;
	*state = s;
	return GULLY_OK;
}

static int particles_step(void *state, struct world *w, const struct params *p,
			  uint64_t budget, struct process_report *rep)
{
	(void)state;
	struct droplet_params dp;
	droplet_params_from(&dp, p);
	uint64_t steps = 0;
	for (uint64_t i = 0; i < budget; i++) {
		struct droplet d = {0};
		d.x = rng_float(&w->rng) * (float)w->width;
		d.y = rng_float(&w->rng) * (float)w->height;
		d.volume = 1.0f;
		/* x < width always: rng_float < 1 and the product rounds down at most
		 * to width - ulp; guard anyway against float rounding up. */
		if (d.x >= (float)w->width)
			d.x = nextafterf((float)w->width, 0.0f);
		if (d.y >= (float)w->height)
			d.y = nextafterf((float)w->height, 0.0f);
		steps += droplet_run(&d, w, &dp);
	}
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
	free(state);
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
};
