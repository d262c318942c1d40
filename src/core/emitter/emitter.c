#include "core/emitter/emitter.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/pi.h"

#define MAX_RAYS 32 /* emitter.search_rays' maximum in params.def */

/* The offsets of the searched headings, as unit vectors, so a step rotates
 * its heading by multiplication instead of calling cos/sin per ray. Slot 0 is
 * the current heading; then -1, +1, -2, +2, ... rays out. */
struct search_cone {
	int n;
	double off[2 * MAX_RAYS + 1];
	double c[2 * MAX_RAYS + 1], s[2 * MAX_RAYS + 1];
};

static double deg(double d)
{
	return d * (GULLY_PI / 180.0);
}

void emitter_params_from(struct emitter_params *ep, const struct params *p,
			 const struct world *w)
{
	const struct params_emitter *q = &p->emitter;
	ep->x = q->x * (double)w->width;
	ep->y = q->y * (double)w->height;
	ep->window = q->window;
	ep->direction = deg(q->direction);
	ep->speed = q->speed;
	ep->speed_jitter = q->speed_jitter;
	ep->max_speed = q->max_speed;
	ep->max_angle = deg(q->max_angle);
	ep->search_angle = deg(q->search_angle);
	ep->search_rays = q->search_rays < 1 ? 1 : q->search_rays > MAX_RAYS ? MAX_RAYS : q->search_rays;
	ep->mass = q->mass;
	ep->mass_jitter = q->mass_jitter;
	ep->radius_per_mass = q->radius_per_mass;
	ep->depth_scale = q->depth_scale;
	ep->rotation_radius = q->rotation_radius;
	ep->angular_speed = deg(q->angular_speed);
	ep->lifetime = q->lifetime < 1 ? 1u : (uint32_t)q->lifetime;
	ep->per_step = q->per_step < 1 ? 1 : q->per_step;
	ep->deposit = q->deposit;
}

static void cone_from(struct search_cone *cone, const struct emitter_params *ep)
{
	int k = ep->search_rays;
	cone->n = 2 * k + 1;
	cone->off[0] = 0;
	for (int i = 1; i <= k; i++) {
		double o = ep->search_angle * (double)i / (double)k;
		cone->off[2 * i - 1] = -o;
		cone->off[2 * i] = o;
	}
	for (int i = 0; i < cone->n; i++) {
		cone->c[i] = cos(cone->off[i]);
		cone->s[i] = sin(cone->off[i]);
	}
}

void emitter_release(struct emitter_particle *q, struct world *w,
		     const struct emitter_params *ep)
{
	/* Always four draws, so jitter settings never shift the random stream. */
	double ux = rng_float(&w->rng), uy = rng_float(&w->rng);
	double uv = rng_float(&w->rng), um = rng_float(&w->rng);
	q->x = ep->x + (ux - 0.5) * ep->window;
	q->y = ep->y + (uy - 0.5) * ep->window;
	q->v = ep->speed * (1.0 + ep->speed_jitter * (2.0 * uv - 1.0));
	if (q->v > ep->max_speed)
		q->v = ep->max_speed;
	q->m = ep->mass * (1.0 + ep->mass_jitter * (2.0 * um - 1.0));
	q->a = ep->direction;
	q->b = ep->direction;
	q->carried = 0;
	q->age = 0;
}

/* Hardness of the cell under (x, y); false off the map (NaN included). */
static inline bool hardness_at(const struct world *w, double x, double y, float *out)
{
	if (!(x >= 0 && y >= 0 && x < (double)w->width && y < (double)w->height))
		return false;
	*out = w->layer[LAYER_HARDNESS][(size_t)y * (size_t)w->width + (size_t)x];
	return true;
}

static double steer(const struct emitter_particle *q, const struct world *w,
		    const struct emitter_params *ep, const struct search_cone *cone)
{
	double look = q->v > 1.0 ? q->v : 1.0;
	double ca = cos(q->a) * look, sa = sin(q->a) * look;
	bool have = false;
	float best = 0;
	double turn = 0;
	/* Strict < in order 0, -1, +1, -2, ...: ties keep the smaller turn. */
	for (int i = 0; i < cone->n; i++) {
		double dx = ca * cone->c[i] - sa * cone->s[i];
		double dy = sa * cone->c[i] + ca * cone->s[i];
		float h;
		if (hardness_at(w, q->x + dx, q->y + dy, &h) && (!have || h < best)) {
			have = true;
			best = h;
			turn = cone->off[i];
		}
	}
	double ratio = q->v / ep->max_speed;
	double allowed = ep->max_angle * (ratio < 1.0 ? ratio : 1.0);
	if (turn > allowed)
		turn = allowed;
	else if (turn < -allowed)
		turn = -allowed;
	return q->a + turn;
}

double emitter_steer(const struct emitter_particle *q, const struct world *w,
		     const struct emitter_params *ep)
{
	struct search_cone cone;
	cone_from(&cone, ep);
	return steer(q, w, ep, &cone);
}

/* A height a crater or a mound leaves: no further than WORLD_HEIGHT_LIMIT,
 * the range a snapshot of the map loads in (the deepest craters the
 * registry allows dig past it within seconds on one spot). A height
 * already past it is not moved toward it. The callers book what the cell
 * really lost or gained, so the books hold. */
static inline float floor_at_limit(float before, double after)
{
	const double floor = before < -WORLD_HEIGHT_LIMIT ? before : -WORLD_HEIGHT_LIMIT;
	return (float)(after > floor ? after : floor);
}

static inline float ceiling_at_limit(float before, double after)
{
	const double ceiling = before > WORLD_HEIGHT_LIMIT ? before : WORLD_HEIGHT_LIMIT;
	return (float)(after < ceiling ? after : ceiling);
}

/* The cells whose centres may lie within R of (x0, y0), clipped to the map;
 * false when none. */
static bool crater_box(const struct world *w, double x0, double y0, double R,
		       int *xa, int *xb, int *ya, int *yb)
{
	double lx = ceil(x0 - 0.5 - R), hx = floor(x0 - 0.5 + R);
	double ly = ceil(y0 - 0.5 - R), hy = floor(y0 - 0.5 + R);
	if (lx < 0)
		lx = 0;
	if (ly < 0)
		ly = 0;
	if (hx > w->width - 1)
		hx = w->width - 1;
	if (hy > w->height - 1)
		hy = w->height - 1;
	if (!(lx <= hx && ly <= hy))
		return false;
	*xa = (int)lx;
	*xb = (int)hx;
	*ya = (int)ly;
	*yb = (int)hy;
	return true;
}

double emitter_crater(struct world *w, double x0, double y0, double R, double depth_scale)
{
	int xa, xb, ya, yb;
	if (!(R > 0) || depth_scale == 0 || !crater_box(w, x0, y0, R, &xa, &xb, &ya, &yb))
		return 0;
	float *h = w->layer[LAYER_HEIGHT];
	const float *d = w->layer[LAYER_HARDNESS];
	double R2 = R * R, removed = 0;
	for (int cy = ya; cy <= yb; cy++) {
		double dy = (double)cy + 0.5 - y0;
		size_t row = (size_t)cy * (size_t)w->width;
		for (int cx = xa; cx <= xb; cx++) {
			double dx = (double)cx + 0.5 - x0;
			double dh = R2 - (dx * dx + dy * dy);
			if (dh <= 0)
				continue;
			float before = h[row + (size_t)cx];
			float after = floor_at_limit(before, (double)before - depth_scale * dh *
							     (1.0 - (double)d[row + (size_t)cx]));
			h[row + (size_t)cx] = after;
			/* What the float really lost, so the books balance exactly. */
			removed += (double)before - (double)after;
		}
	}
	return removed;
}

double emitter_mound(struct world *w, double x0, double y0, double R, double mass)
{
	float *h = w->layer[LAYER_HEIGHT];
	double R2 = R * R, total = 0, gained = 0;
	int xa, xb, ya, yb;
	bool box = R > 0 && crater_box(w, x0, y0, R, &xa, &xb, &ya, &yb);
	for (int pass = 0; box && pass < 2; pass++) {
		for (int cy = ya; cy <= yb; cy++) {
			double dy = (double)cy + 0.5 - y0;
			for (int cx = xa; cx <= xb; cx++) {
				double dx = (double)cx + 0.5 - x0;
				double dh = R2 - (dx * dx + dy * dy);
				if (dh <= 0)
					continue;
				if (pass == 0) {
					total += dh;
					continue;
				}
				float *c = &h[(size_t)cy * (size_t)w->width + (size_t)cx];
				float before = *c;
				*c = ceiling_at_limit(before, (double)before + mass * dh / total);
				gained += (double)*c - (double)before;
			}
		}
		if (total == 0)
			break;
	}
	if (total == 0) {
		int cx = x0 < 0 ? 0 : x0 >= w->width ? w->width - 1 : (int)x0;
		int cy = y0 < 0 ? 0 : y0 >= w->height ? w->height - 1 : (int)y0;
		float *c = &h[(size_t)cy * (size_t)w->width + (size_t)cx];
		float before = *c;
		*c = ceiling_at_limit(before, (double)before + mass);
		gained = (double)*c - (double)before;
	}
	return gained;
}

static enum emitter_fate particle_step(struct emitter_particle *q, struct world *w,
				       const struct emitter_params *ep,
				       const struct search_cone *cone)
{
	q->a = steer(q, w, ep, cone);
	q->x += q->v * cos(q->a);
	q->y += q->v * sin(q->a);
	if (ep->rotation_radius != 0) {
		q->x += ep->rotation_radius * cos(q->b);
		q->y += ep->rotation_radius * sin(q->b);
	}
	/* Beta turns even without rotation, so switching it on mid-flight is smooth. */
	q->b += ep->angular_speed;
	q->age++;
	if (!(q->x >= 0 && q->y >= 0 && q->x < (double)w->width && q->y < (double)w->height))
		return EMITTER_LEFT;
	double removed = emitter_crater(w, q->x, q->y, ep->radius_per_mass * q->m, ep->depth_scale);
	q->carried += removed;
	w->tally[TALLY_ERODED] += removed;
	return q->age >= ep->lifetime ? EMITTER_EXPIRED : EMITTER_FLYING;
}

enum emitter_fate emitter_particle_step(struct emitter_particle *q, struct world *w,
					const struct emitter_params *ep)
{
	struct search_cone cone;
	cone_from(&cone, ep);
	return particle_step(q, w, ep, &cone);
}

/* Back to the emitter's pool: the material is dropped (deposit on, path ended
 * on the map) or leaves the books as sediment_off_map (off the map, or thrown
 * away as in the seed). */
void emitter_particle_retire(const struct emitter_particle *q, enum emitter_fate fate,
			     struct world *w, const struct emitter_params *ep)
{
	double gone = q->carried;
	if (fate == EMITTER_EXPIRED && ep->deposit && q->carried > 0) {
		double gained = emitter_mound(w, q->x, q->y, ep->radius_per_mass * q->m, q->carried);
		w->tally[TALLY_DEPOSITED] += gained;
		gone -= gained; /* the few ulps the float heights could not take */
	}
	w->tally[TALLY_SEDIMENT_OFF_MAP] += gone;
}

struct emitter_state {
	struct emitter_particle *live; /* in flight, in release order */
	size_t count, cap;
	int to_emit; /* releases left in the current tick */
};

size_t emitter_in_flight(const void *state)
{
	return ((const struct emitter_state *)state)->count;
}

double emitter_in_flight_mass(const void *state)
{
	const struct emitter_state *s = state;
	double sum = 0;
	for (size_t i = 0; i < s->count; i++)
		sum += s->live[i].carried;
	return sum;
}

static int reserve(struct emitter_state *s, size_t need)
{
	if (need <= s->cap)
		return GULLY_OK;
	size_t cap = s->cap ? s->cap : 64;
	while (cap < need)
		cap *= 2;
	struct emitter_particle *p = realloc(s->live, cap * sizeof *p);
	if (!p)
		return GULLY_ENOMEM;
	s->live = p;
	s->cap = cap;
	return GULLY_OK;
}

static int emitter_create(void **state, struct world *w, const struct params *p)
{
	(void)w;
	struct emitter_state *s = calloc(1, sizeof *s);
	if (!s)
		return GULLY_ENOMEM;
	s->to_emit = p->emitter.per_step;
	*state = s;
	return GULLY_OK;
}

/* Moves every particle one step; retired ones leave the list, the rest keep
 * their order. Returns the steps taken. */
static uint64_t advance(struct emitter_state *s, struct world *w,
			const struct emitter_params *ep, const struct search_cone *cone)
{
	size_t keep = 0;
	for (size_t i = 0; i < s->count; i++) {
		struct emitter_particle *q = &s->live[i];
		enum emitter_fate fate = particle_step(q, w, ep, cone);
		if (fate == EMITTER_FLYING) {
			if (keep != i)
				s->live[keep] = *q;
			keep++;
		} else {
			emitter_particle_retire(q, fate, w, ep);
		}
	}
	uint64_t steps = s->count;
	s->count = keep;
	return steps;
}

static int emitter_step(void *state, struct world *w, const struct params *p,
			uint64_t budget, struct process_report *rep)
{
	struct emitter_state *s = state;
	struct emitter_params ep;
	struct search_cone cone;
	emitter_params_from(&ep, p, w);
	cone_from(&cone, &ep);
	if (s->to_emit > ep.per_step)
		s->to_emit = ep.per_step; /* per_step was lowered between calls */
	uint64_t released = 0, steps = 0;
	int err = GULLY_OK;
	while (!err) {
		while (s->to_emit > 0 && released < budget) {
			err = reserve(s, s->count + 1);
			if (err)
				break;
			emitter_release(&s->live[s->count++], w, &ep);
			s->to_emit--;
			released++;
		}
		/* Stop right before the next release, wherever the tick is. */
		if (err || s->to_emit > 0)
			break;
		steps += advance(s, w, &ep, &cone);
		s->to_emit = ep.per_step;
		if (released == budget)
			break;
	}
	w->particles += released;
	w->steps += steps;
	/* What the particles in flight carry is in the books too: eroded -
	 * deposited = sediment_off_map + sediment_in_flight. */
	w->tally[TALLY_SEDIMENT_IN_FLIGHT] = emitter_in_flight_mass(s);
	if (rep) {
		rep->particles = released;
		rep->steps = steps;
	}
	return err;
}

/* The world goes on without the emitter (another process): its particles
 * in flight fly to their ends, releasing none, so their load lands (or
 * leaves the map) as it would have. A run of particles keeps them in flight
 * instead (finish_ends_run off): a snapshot resumes them. */
static int emitter_finish(void *state, struct world *w, const struct params *p,
			  struct process_report *rep)
{
	struct emitter_state *s = state;
	struct emitter_params ep;
	struct search_cone cone;
	emitter_params_from(&ep, p, w);
	cone_from(&cone, &ep);
	uint64_t steps = 0;
	while (s->count > 0)
		steps += advance(s, w, &ep, &cone);
	w->steps += steps;
	w->tally[TALLY_SEDIMENT_IN_FLIGHT] = 0;
	if (rep)
		rep->steps += steps;
	return GULLY_OK;
}

static void emitter_destroy(void *state)
{
	struct emitter_state *s = state;
	if (!s)
		return;
	free(s->live);
	free(s);
}

/* save_state's blob, little-endian: "GEM1", u32 to_emit, u64 count, then per
 * particle x, y, a, b, v, m, carried as IEEE doubles and u32 age. */
#define BLOB_MAGIC "GEM1"
#define BLOB_HEADER 16u
#define BLOB_PARTICLE (7u * 8u + 4u)

static int emitter_save(const void *state, unsigned char **data, size_t *len)
{
	const struct emitter_state *s = state;
	size_t n = BLOB_HEADER + s->count * BLOB_PARTICLE;
	unsigned char *b = malloc(n);
	if (!b)
		return GULLY_ENOMEM;
	memcpy(b, BLOB_MAGIC, 4);
	put_u32le(b + 4, (uint32_t)s->to_emit);
	put_u64le(b + 8, (uint64_t)s->count);
	unsigned char *o = b + BLOB_HEADER;
	for (size_t i = 0; i < s->count; i++, o += BLOB_PARTICLE) {
		const struct emitter_particle *q = &s->live[i];
		const double f[7] = {q->x, q->y, q->a, q->b, q->v, q->m, q->carried};
		for (int k = 0; k < 7; k++)
			put_f64le(o + 8 * k, f[k]);
		put_u32le(o + 56, q->age);
	}
	*data = b;
	*len = n;
	return GULLY_OK;
}

static int emitter_load(void *state, const unsigned char *data, size_t len)
{
	struct emitter_state *s = state;
	if (len < BLOB_HEADER || memcmp(data, BLOB_MAGIC, 4) != 0)
		return GULLY_EFORMAT;
	uint32_t to_emit = get_u32le(data + 4);
	uint64_t count = get_u64le(data + 8);
	if (to_emit < 1 || to_emit > 64 || count != (len - BLOB_HEADER) / BLOB_PARTICLE ||
	    (len - BLOB_HEADER) % BLOB_PARTICLE != 0)
		return GULLY_EFORMAT;
	struct emitter_particle *live = NULL;
	if (count) {
		live = malloc((size_t)count * sizeof *live);
		if (!live)
			return GULLY_ENOMEM;
	}
	const double side = world_size_max();
	const double most_carried = 2.0 * WORLD_HEIGHT_LIMIT * side * side;
	const unsigned char *o = data + BLOB_HEADER;
	for (size_t i = 0; i < count; i++, o += BLOB_PARTICLE) {
		double f[7];
		for (int k = 0; k < 7; k++) {
			f[k] = get_f64le(o + 8 * k);
			if (!isfinite(f[k])) {
				free(live);
				return GULLY_EFORMAT;
			}
		}
		/* Speed and mass bound the work a step does: keep them sane. The
		 * load can be no more than the whole map's height range holds:
		 * a larger finite one, dropped as a mound, overflows the float
		 * heights to infinity. */
		if (!(f[4] > 0 && f[4] <= 64 && f[5] > 0 && f[5] <= 64) ||
		    !(fabs(f[6]) <= most_carried)) {
			free(live);
			return GULLY_EFORMAT;
		}
		live[i] = (struct emitter_particle){f[0], f[1], f[2], f[3], f[4], f[5], f[6],
						    get_u32le(o + 56)};
	}
	free(s->live);
	s->live = live;
	s->count = s->cap = (size_t)count;
	s->to_emit = (int)to_emit;
	return GULLY_OK;
}

static const struct process_source emitter_source = {
	.name = "emitter",
	.x = "emitter.x",
	.y = "emitter.y",
	.direction = "emitter.direction",
	.window = "emitter.window",
};

const struct process_ops emitter_process = {
	.name = "emitter",
	.title = "Emitter stream",
	.section = "emitter",
	.sources = &emitter_source,
	.nsources = 1,
	.unit = "particles",
	.describe =
		"(n): equation n of K. Warszawski's particle-stream erosion article\n"
		"turn toward min D in the cone +-search, by at most a_max v / v_max  (1)\n"
		"x += v cos a + r cos b;  y += v sin a + r sin b;  b += w       (3, 4)\n"
		"R = k m;  dh = R^2 - |p - p0|^2 where > 0                        (6)\n"
		"h -= c dh (1 - D)      D: hardness, 0 soft .. 1 hard             (7)",
	.create = emitter_create,
	.step = emitter_step,
	.destroy = emitter_destroy,
	.save_state = emitter_save,
	.load_state = emitter_load,
	.finish = emitter_finish,
};
