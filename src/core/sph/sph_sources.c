/* Sources: up to SPH_JETS jets (a nozzle disc, a direction, a speed, a rate)
 * and rain over a region. Emission is serial and draws from the world's
 * random stream, so it is the same for any thread count and a snapshot
 * (which holds that stream) resumes it exactly. */
#include "core/sph/sph.h"

#include <math.h>

#include "core/base/error.h"

#define PI 3.14159265358979323846

bool sph_add(struct sph *s, float x, float y, float z, float vx, float vy, float vz)
{
	s->books.water_emitted += SPH_WATER_QUANTA;
	if (s->n >= s->cfg.capacity || sph_reserve(s, s->n + 1) != GULLY_OK) {
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
	return true;
}

static float ground_at(const struct sph *s, const struct world *w, double x, double y)
{
	float H, nx, ny, nz;
	sph_terrain_at(s, w, (float)x, (float)y, &H, &nx, &ny, &nz);
	return H;
}

/* A particle somewhere in the jet's tube of length speed dt behind the
 * nozzle disc, so a steady jet fills its tube evenly. */
static int jet_emit(struct sph *s, struct world *w, const struct sph_jet *j, double *carry,
		    double dt)
{
	*carry += j->rate * dt;
	int added = 0;
	/* Two unit vectors across the jet. */
	double ax = -j->dy, ay = j->dx, az = 0;
	double len = sqrt(ax * ax + ay * ay);
	if (len < 1e-9) {
		ax = 1;
		ay = 0;
	} else {
		ax /= len;
		ay /= len;
	}
	double bx = j->dy * az - j->dz * ay, by = j->dz * ax - j->dx * az;
	double bz = j->dx * ay - j->dy * ax;
	double z0 = ground_at(s, w, j->x, j->y) + fmax(j->z, s->cfg.clearance);
	while (*carry >= 1.0) {
		*carry -= 1.0;
		double r = j->radius * sqrt(rng_double(&w->rng));
		double t = 2 * PI * rng_double(&w->rng);
		double along = j->speed * dt * rng_double(&w->rng);
		double u = r * cos(t), v = r * sin(t);
		double x = j->x + u * ax + v * bx + along * j->dx;
		double y = j->y + u * ay + v * by + along * j->dy;
		double z = z0 + u * az + v * bz + along * j->dz;
		float g = ground_at(s, w, x, y);
		if (z < g + s->cfg.clearance)
			z = g + s->cfg.clearance;
		added += sph_add(s, (float)x, (float)y, (float)z, (float)(j->speed * j->dx),
				 (float)(j->speed * j->dy), (float)(j->speed * j->dz));
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
