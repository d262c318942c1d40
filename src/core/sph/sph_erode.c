/* The coupling, serial and in particle order: particles leave the map, dig
 * craters (stages 1-2), scour saturated ground (stage 3), drop mud, and soak
 * into the soil. Soil moves in quanta between the terrain's per-cell ledger
 * and the particles' loads, so the soil books balance exactly. */
#include "core/sph/sph.h"

#include <math.h>
#include <string.h>

#include "core/base/pi.h"

/* The terrain of a cell is its height when the state was made plus its
 * ledger, so float rounding never accumulates. */
void sph_terrain_add(struct sph *s, struct world *w, int cx, int cy, int64_t q)
{
	size_t c = (size_t)cy * (size_t)s->width + (size_t)cx;
	s->pristine = false;
	s->soil[c] += q;
	s->tstamp[c] = s->epoch;
	s->books.soil_terrain += q;
	double dh = (double)s->soil[c] * SPH_SOIL_QUANTUM / s->cfg.scale;
	w->layer[LAYER_HEIGHT][c] = (float)(s->h0[c] + dh);
	double vol = fabs((double)q) * SPH_SOIL_QUANTUM / s->cfg.scale;
	w->tally[q < 0 ? TALLY_ERODED : TALLY_DEPOSITED] += vol;
}

/* Eq. 14: yield strength falls linearly from dry to saturated. */
double sph_yield(const struct sph_config *c, double saturation)
{
	return c->yield_dry * (1.0 - (1.0 - c->wet_ratio) * saturation);
}

/* Eqs. 12-13 integrated: the plastic work of the dent equals the impact's
 * kinetic energy, so V = m v^2 / (2 sigma). */
double sph_crater_volume(const struct sph_config *c, double vn, double saturation)
{
	double v = 0.5 * c->mass * vn * vn / sph_yield(c, saturation);
	return v < c->max_crater ? v : c->max_crater;
}

static int64_t to_quanta(double volume)
{
	return (int64_t)(volume / SPH_SOIL_QUANTUM);
}

static int64_t mud_cap(const struct sph *s)
{
	double vol = s->cfg.spacing * s->cfg.spacing * s->cfg.spacing;
	return to_quanta(s->cfg.mud_max * vol);
}

static int64_t mud_room(const struct sph *s, int64_t mud)
{
	int64_t cap = mud_cap(s);
	return mud < cap ? cap - mud : 0;
}

/* Removes q from the cells within a of (x, y), weighted 1 - r^2/a^2 (the
 * remainder from the impact cell), and throws rim of it onto the ring a..2a
 * (into the particle when no ring cell is on the map, as far as mud_max
 * lets it: the rest back into the impact cell). */
static void crater(struct sph *s, struct world *w, int i, double x, double y, int64_t q)
{
	double vol = (double)q * SPH_SOIL_QUANTUM;
	double R = 0.5 * s->cfg.spacing;
	double depth = sqrt(vol / (GULLY_PI * R)), a = sqrt(2 * R * depth);
	if (a < 0.75)
		a = 0.75;
	int cx = (int)x, cy = (int)y, reach = (int)ceil(2 * a);
	double wsum = 0;
	int ring = 0;
	for (int pass = 0; pass < 2; pass++) {
		int64_t left = q;
		for (int yy = cy - reach; yy <= cy + reach; yy++)
			for (int xx = cx - reach; xx <= cx + reach; xx++) {
				if (xx < 0 || yy < 0 || xx >= s->width || yy >= s->height)
					continue;
				double ex = xx + 0.5 - x, ey = yy + 0.5 - y, r2 = ex * ex + ey * ey;
				if (r2 < a * a) {
					double wgt = 1 - r2 / (a * a);
					if (pass == 0) {
						wsum += wgt;
					} else {
						int64_t take = (int64_t)((double)q * wgt / wsum);
						sph_terrain_add(s, w, xx, yy, -take);
						left -= take;
					}
				} else if (r2 < 4 * a * a && pass == 0) {
					ring++;
				}
			}
		if (pass == 1)
			sph_terrain_add(s, w, cx, cy, -left);
	}
	int64_t rim = ring ? (int64_t)((double)q * s->cfg.rim_fraction) : 0;
	int64_t room = mud_room(s, s->p.mud[i]);
	if (q - rim > room)
		rim = q - room;
	s->p.mud[i] += q - rim;
	/* No ring cell on the map (a crater wider than the map): what the
	 * particle has no room for stays in the ground, back at the impact
	 * cell, rather than leave the books. */
	if (!ring && rim > 0)
		sph_terrain_add(s, w, cx, cy, rim);
	int64_t left = rim;
	for (int yy = cy - reach; yy <= cy + reach && ring; yy++)
		for (int xx = cx - reach; xx <= cx + reach; xx++) {
			if (xx < 0 || yy < 0 || xx >= s->width || yy >= s->height)
				continue;
			double ex = xx + 0.5 - x, ey = yy + 0.5 - y, r2 = ex * ex + ey * ey;
			if (r2 >= a * a && r2 < 4 * a * a) {
				int64_t put = --ring ? rim / (ring + 1) : left;
				put = put < left ? put : left;
				sph_terrain_add(s, w, xx, yy, put);
				left -= put;
			}
		}
	s->books.splash += q;
}

static double smoothstep(double a, double b, double x)
{
	if (b <= a)
		return x >= b ? 1 : 0;
	double t = (x - a) / (b - a);
	t = t < 0 ? 0 : (t > 1 ? 1 : t);
	return t * t * (3 - 2 * t);
}

/* Eqs. 19-20: the shear a touching particle exerts, from its speed along
 * the ground over the gap, times 1 + D/h for the water standing over the
 * bed: the eddy viscosity of open-channel flow grows with the depth D
 * (Elder: kappa u* D / 6), so where jets meet and the water piles up the same
 * near-bed speed carries more stress (seed 003, Fig. 11: "more water in the
 * collision zone, a deeper channel"). D is the particle's pressure head
 * p / (rho0 g), counted up to shear_depth: beyond it the head is an impact's
 * ram pressure, which the crater model already spends. The particle's pp
 * values at i and its density-pass pressure; the ground's normal n. */
static double shear_of(const struct sph *s, const struct sph_particles *pp, int i, float nx,
		       float ny, float nz, double gap)
{
	const struct sph_config *c = &s->cfg;
	double vx = pp->vx[i], vy = pp->vy[i], vz = pp->vz[i];
	double vn = vx * nx + vy * ny + vz * nz;
	double tx = vx - vn * nx, ty = vy - vn * ny, tz = vz - vn * nz;
	double vt = sqrt(tx * tx + ty * ty + tz * tz);
	double floor_gap = 0.25 * c->spacing;
	double p = (double)s->press[i] * s->rho[i] * s->rho[i];
	double head = p > 0 && c->gravity > 0 ? p / (c->rho0 * c->gravity) : 0;
	head = head < c->shear_depth ? head : c->shear_depth;
	return c->shear_k * vt / (gap > floor_gap ? gap : floor_gap) * (1 + head / c->h);
}

/* Eqs. 21-22: erosion above the critical shear, which wet soil lowers, and
 * only on soil wet enough to scour (stage 3); L^2 = cell area / 5. */
static int64_t scour_of(const struct sph_config *c, double tau, double tau_c, double sat,
			double dt)
{
	if (tau <= tau_c)
		return 0;
	double eps = c->erosion_k * (tau - tau_c) * smoothstep(c->scour_start, 1, sat);
	return to_quanta(eps * 0.2 * dt);
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A uniform draw in [0, 1) from the particle and the step alone, so the
 * coupling does not depend on how many draws came before. */
static double chance(uint32_t id, uint64_t step)
{
	return (double)(mix64(((uint64_t)id << 32 ^ step) + 0x9e3779b97f4a7c15ull) >> 11) *
	       (1.0 / 9007199254740992.0);
}

/* What the coupling reads of the world for one particle: the ground under
 * it (from its 2x2 terrain cells) and the saturation of its cell. */
struct look {
	bool contact;
	int cx, cy;
	double gap, sat, tau, tau_c;
};

/* The particle's height over the ground along its normal. */
static double gap_of(const struct sph_particles *pp, int i, float H, float nz)
{
	return (pp->z[i] - H) * nz;
}

static void look_at(const struct sph *s, const struct sph_particles *pp, int i, float H,
		    float nx, float ny, float nz, struct look *l)
{
	const struct sph_config *c = &s->cfg;
	l->cx = (int)pp->x[i];
	l->cy = (int)pp->y[i];
	l->gap = gap_of(pp, i, H, nz);
	l->contact = l->gap < c->contact;
	l->sat = sph_saturation(s, l->cx, l->cy);
	l->tau = l->contact ? shear_of(s, pp, i, nx, ny, nz, l->gap) : 0;
	l->tau_c = c->critical_shear * (1 - c->shear_wet * l->sat);
}

static bool off_map(const struct sph *s, const struct sph_particles *pp, int i)
{
	float x = pp->x[i], y = pp->y[i];
	return !(x >= 0 && y >= 0 && x < s->width && y < s->height);
}

/* One particle's coupling from what it sees. With w NULL nothing is written:
 * the answer is whether anything would be (a particle that would change
 * nothing need not be visited in order). */
static bool couple_act(struct sph *s, struct world *w, struct sph_particles *pp, int i,
		       const struct look *l, double dt)
{
	const struct sph_config *c = &s->cfg;
	int cx = l->cx, cy = l->cy;
	double sat = l->sat, tau = l->tau, tau_c = l->tau_c, gap = l->gap;
	bool contact = l->contact;
	if (c->splash && s->vhit[i] > c->splash_speed) {
		int64_t q = to_quanta(sph_crater_volume(c, s->vhit[i], sat));
		if (q > 0) {
			if (!w)
				return true;
			crater(s, w, i, pp->x[i], pp->y[i], q);
		}
	}
	if (contact && c->scour) {
		int64_t q = scour_of(c, tau, tau_c, sat, dt), room = mud_room(s, pp->mud[i]);
		q = q < room ? q : room;
		if (q > 0) {
			if (!w)
				return true;
			sph_terrain_add(s, w, cx, cy, -q);
			pp->mud[i] += q;
			s->books.scour += q;
		}
	}
	/* Eqs. 17-18: a touching particle drops what settles through its gap,
	 * less the faster it runs (fast water keeps its load up: none settles
	 * at the critical shear); a load over mud_max drops its excess at once. */
	int64_t drop = 0, cap = mud_cap(s);
	double calm = tau_c > 0 ? 1 - tau / tau_c : 0;
	if (contact && pp->mud[i] > 0 && calm > 0) {
		double floor_gap = 0.25 * c->spacing;
		double share = calm * c->settle_speed * dt / (gap > floor_gap ? gap : floor_gap);
		drop = share >= 1 ? pp->mud[i] : (int64_t)((double)pp->mud[i] * share);
	}
	if (pp->mud[i] - drop > cap)
		drop = pp->mud[i] - cap;
	if (drop > 0) {
		if (!w)
			return true;
		sph_terrain_add(s, w, cx, cy, drop);
		pp->mud[i] -= drop;
		s->books.deposited += drop;
	}
	if (contact && c->wetting && sat < c->pond &&
	    sph_soil_room(s, cx, cy) >= SPH_WATER_QUANTA &&
	    chance(pp->id[i], s->steps) < c->absorb_rate * dt * (1 - sat)) {
		if (!w)
			return true;
		sph_soil_give(s, cx, cy, SPH_WATER_QUANTA);
		s->books.absorbed += SPH_WATER_QUANTA;
		if (pp->mud[i]) {
			s->books.deposited += pp->mud[i];
			sph_terrain_add(s, w, cx, cy, pp->mud[i]);
			pp->mud[i] = 0;
		}
		s->dead[i] = 1;
		s->dying++;
	}
	return false;
}

int sph_couple_needed(struct sph *s, struct sph_particles *pp, int i, float H, float nx,
		      float ny, float nz, double dt)
{
	if (off_map(s, pp, i))
		return 2;
	struct look l;
	look_at(s, pp, i, H, nx, ny, nz, &l);
	return couple_act(s, NULL, pp, i, &l, dt);
}

/* ground_fresh: the terrain under particle i is as the force pass saw it,
 * so its height and normal there still hold. only_contact: the force pass
 * found nothing to do here and the water has not changed since, so only a
 * particle the new ground puts in contact can have work: one off the ground
 * would only splash or shed an overload, which depend on neither. */
static void couple_one(struct sph *s, struct world *w, int i, double dt, bool ground_fresh,
		       bool only_contact)
{
	const struct sph_config *c = &s->cfg;
	if (off_map(s, &s->p, i)) {
		s->books.water_off_map += SPH_WATER_QUANTA;
		s->books.soil_off_map += s->p.mud[i];
		w->tally[TALLY_WATER_OFF_MAP] += c->spacing * c->spacing * c->spacing / c->scale;
		w->tally[TALLY_SEDIMENT_OFF_MAP] += sph_soil_tally(s, s->p.mud[i]);
		s->p.mud[i] = 0;
		s->dead[i] = 1;
		s->dying++;
		return;
	}
	float H = s->ground[i], nx = s->nx[i], ny = s->ny[i], nz = s->nz[i];
	if (!ground_fresh)
		sph_terrain_at(s, w, s->p.x[i], s->p.y[i], &H, &nx, &ny, &nz);
	if (only_contact && !(gap_of(&s->p, i, H, nz) < c->contact))
		return;
	struct look l;
	look_at(s, &s->p, i, H, nx, ny, nz, &l);
	couple_act(s, w, &s->p, i, &l, dt);
}

/* Whether one of the 2x2 cells from c (which hold particle's own cell)
 * changed since this coupling began. */
static bool touched(const struct sph *s, const uint32_t *stamp, int32_t c)
{
	const uint32_t *st = stamp + c, *st2 = st + s->width;
	uint32_t e = s->epoch;
	return st[0] == e || st[1] == e || st2[0] == e || st2[1] == e;
}
/* In particle order, as if every particle were visited: one the force pass
 * found would change nothing is skipped unless an earlier particle changed
 * the cells it read, and then it is looked at again from what is there now.
 * Particles that leave are marked dead[i] = 1 (sph_compact removes them). */
void sph_couple(struct sph *s, struct world *w, double dt)
{
	memset(s->dead, 0, (size_t)s->n);
	s->dying = 0;
	if (++s->epoch == 0) {
		size_t cells = (size_t)s->width * (size_t)s->height;
		memset(s->tstamp, 0, cells * sizeof *s->tstamp);
		memset(s->wstamp, 0, cells * sizeof *s->wstamp);
		s->epoch = 1;
	}
	for (int i = 0; i < s->n; i++) {
		if (s->busy[i] == 2) { /* off the map */
			couple_one(s, w, i, dt, true, false);
			continue;
		}
		bool ground_fresh = !touched(s, s->tstamp, s->cell[i]);
		bool lazy = !s->busy[i] && !touched(s, s->wstamp, s->cell[i]);
		if (!lazy || !ground_fresh)
			couple_one(s, w, i, dt, ground_fresh, lazy);
	}
}
