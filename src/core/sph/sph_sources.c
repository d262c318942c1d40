/* Sources: up to SPH_JETS jets (a nozzle disc, a direction, a speed, a rate)
 * and rain over a region. Emission is serial and draws from the world's
 * random stream, so it is the same for any thread count and a snapshot
 * (which holds that stream) resumes it exactly. */
#include "core/sph/sph.h"

#include <math.h>

#include "core/base/error.h"

bool sph_add(struct sph *s, float x, float y, float z, float vx, float vy, float vz)
{
	s->books.water_emitted += SPH_WATER_QUANTA;
	/* The particles the last coupling removed still hold places until the
	 * sort (s->dying): they do not count against the capacity. */
	if (s->n - s->dying >= s->cfg.capacity || sph_reserve(s, s->n + 1) != GULLY_OK) {
		s->books.water_refused += SPH_WATER_QUANTA;
		return false;
	}
	int i = s->n++;
	s->p.x[i] = x;
	s->p.y[i] = y;
	s->p.z[i] = z;
	s->p.vx[i] = vx;
	s->p.vy[i] = vy;
	s->p.vz[i] = vz;
	s->p.mud[i] = 0;
	s->p.id[i] = s->next_id++;
	s->p.grounded[i] = 0;
	s->dead[i] = 0;
	return true;
}

static float ground_at(const struct sph *s, const struct world *w, double x, double y)
{
	float H, nx, ny, nz;
	sph_terrain_at(s, w, (float)x, (float)y, &H, &nx, &ny, &nz);
	return H;
}

/* The nozzle fires one layer of the spacing lattice across its disc each
 * time the water has moved one spacing, so a jet enters as packed water (a
 * random scatter packs some particles too close, and the state equation turns
 * that into a blast). A rate below the full tube's keeps each lattice point
 * with probability rate / full: a thinner, spraying jet. */
static int jet_emit(struct sph *s, struct world *w, const struct sph_jet *j, double *carry,
		    double dt)
{
	double d = s->cfg.spacing;
	*carry += j->speed * dt;
	/* Two unit vectors across the jet. */
	double ax = -j->dy, ay = j->dx;
	double len = sqrt(ax * ax + ay * ay);
	if (len < 1e-9) {
		ax = 1;
		ay = 0;
	} else {
		ax /= len;
		ay /= len;
	}
	double bx = -j->dz * ay, by = j->dz * ax, bz = j->dx * ay - j->dy * ax;
	int reach = (int)(j->radius / d);
	int points = 0;
	for (int v = -reach; v <= reach; v++)
		for (int u = -reach; u <= reach; u++)
			points += (u * u + v * v) * d * d <= j->radius * j->radius;
	double full = points * j->speed / d, keep = j->rate / full;
	double z0 = ground_at(s, w, j->x, j->y) + fmax(j->z, s->cfg.clearance);
	int added = 0;
	while (*carry >= d) {
		*carry -= d;
		double along = *carry; /* how far this layer has come since it left */
		for (int v = -reach; v <= reach; v++)
			for (int u = -reach; u <= reach; u++) {
				if ((u * u + v * v) * d * d > j->radius * j->radius)
					continue;
				if (keep < 1 && rng_double(&w->rng) >= keep)
					continue;
				double x = j->x + u * d * ax + v * d * bx + along * j->dx;
				double y = j->y + u * d * ay + v * d * by + along * j->dy;
				double z = z0 + v * d * bz + along * j->dz;
				/* A point of the disc under the ground is not emitted
				 * (piled onto the surface it would sit on another). */
				if (z < ground_at(s, w, x, y) + s->cfg.clearance)
					continue;
				added += sph_add(s, (float)x, (float)y, (float)z,
						 (float)(j->speed * j->dx), (float)(j->speed * j->dy),
						 (float)(j->speed * j->dz));
			}
	}
	return added;
}

static int rain_emit(struct sph *s, struct world *w, double dt)
{
	const struct sph_config *c = &s->cfg;
	double *carry = &s->emit_carry[SPH_JETS];
	*carry += c->rain * dt;
	int added = 0;
	while (*carry >= 1.0) {
		*carry -= 1.0;
		double x = c->rain_x0 + (c->rain_x1 - c->rain_x0) * rng_double(&w->rng);
		double y = c->rain_y0 + (c->rain_y1 - c->rain_y0) * rng_double(&w->rng);
		if (x >= s->width)
			x = s->width - 0.5;
		if (y >= s->height)
			y = s->height - 0.5;
		double z = ground_at(s, w, x, y) + c->rain_height;
		added += sph_add(s, (float)x, (float)y, (float)z, 0, 0, (float)-c->rain_speed);
	}
	return added;
}

int sph_emit(struct sph *s, struct world *w, double dt)
{
	int added = 0;
	for (int k = 0; k < SPH_JETS; k++)
		if (s->cfg.jet[k].on)
			added += jet_emit(s, w, &s->cfg.jet[k], &s->emit_carry[k], dt);
	if (s->cfg.rain > 0)
		added += rain_emit(s, w, dt);
	return added;
}
