#include "core/sph/sph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/base/error.h"
#include "core/base/pi.h"
#include "core/base/workers.h"

static void jet_from(struct sph_jet *j, bool on, double x, double y, double z, double azimuth,
		     double elevation, double speed, double radius, double rate, int width,
		     int height)
{
	double a = azimuth * GULLY_PI / 180.0, e = elevation * GULLY_PI / 180.0;
	j->on = on && speed > 0 && rate > 0;
	j->x = x * width;
	j->y = y * height;
	j->z = z;
	j->dx = cos(e) * cos(a);
	j->dy = cos(e) * sin(a);
	j->dz = sin(e);
	j->speed = speed;
	j->radius = radius;
	j->rate = rate;
}

/* poly6 lattice sum: the mass that makes a full lattice of spacing d0 sit at
 * rho0 exactly (the integral is 1 only in the limit). */
static double lattice_mass(double d0, double h, double rho0, double poly6)
{
	double sum = 0;
	int r = (int)ceil(h / d0);
	for (int i = -r; i <= r; i++)
		for (int j = -r; j <= r; j++)
			for (int k = -r; k <= r; k++) {
				double r2 = (i * i + j * j + k * k) * d0 * d0;
				if (r2 < h * h) {
					double t = h * h - r2;
					sum += poly6 * t * t * t;
				}
			}
	return rho0 / sum;
}

void sph_config_from(struct sph_config *c, const struct params *p)
{
	const struct params_sph *s = &p->sph;
	int w = p->world.width, hh = p->world.height;
	memset(c, 0, sizeof *c);
	c->spacing = s->spacing;
	c->h = 2.0 * s->spacing;
	c->h2 = c->h * c->h;
	c->poly6 = 315.0 / (64.0 * GULLY_PI * pow(c->h, 9));
	c->spiky_grad = 45.0 / (GULLY_PI * pow(c->h, 6));
	c->visc_lap = 45.0 / (GULLY_PI * pow(c->h, 6));
	c->rho0 = s->rest_density;
	c->mass = lattice_mass(c->spacing, c->h, c->rho0, c->poly6);
	c->c = s->sound_speed;
	c->eos = s->eos;
	c->gravity = s->gravity;
	c->cfl = s->cfl;
	c->max_dt = s->max_dt;
	c->alpha = s->viscosity;
	c->nu_fluid = s->fluid_viscosity;
	c->nu_mud = s->mud_viscosity;
	c->restitution = s->restitution;
	c->contact = s->contact * c->h;
	c->clearance = 0.25 * c->spacing;
	c->scale = p->terrain.vertical_scale;
	c->capacity = s->max_particles;
	jet_from(&c->jet[0], s->jet1_on, s->jet1_x, s->jet1_y, s->jet1_height, s->jet1_azimuth,
		 s->jet1_elevation, s->jet1_speed, s->jet1_radius, s->jet1_rate, w, hh);
	jet_from(&c->jet[1], s->jet2_on, s->jet2_x, s->jet2_y, s->jet2_height, s->jet2_azimuth,
		 s->jet2_elevation, s->jet2_speed, s->jet2_radius, s->jet2_rate, w, hh);
	jet_from(&c->jet[2], s->jet3_on, s->jet3_x, s->jet3_y, s->jet3_height, s->jet3_azimuth,
		 s->jet3_elevation, s->jet3_speed, s->jet3_radius, s->jet3_rate, w, hh);
	jet_from(&c->jet[3], s->jet4_on, s->jet4_x, s->jet4_y, s->jet4_height, s->jet4_azimuth,
		 s->jet4_elevation, s->jet4_speed, s->jet4_radius, s->jet4_rate, w, hh);
	c->rain = s->rain;
	c->rain_x0 = fmin(s->rain_x0, s->rain_x1) * w;
	c->rain_x1 = fmax(s->rain_x0, s->rain_x1) * w;
	c->rain_y0 = fmin(s->rain_y0, s->rain_y1) * hh;
	c->rain_y1 = fmax(s->rain_y0, s->rain_y1) * hh;
	c->rain_height = s->rain_height;
	c->rain_speed = s->rain_speed;
	c->wetting = s->wetting;
	c->splash = s->splash;
	c->scour = s->scour;
	c->mud = s->mud;
	c->porosity = s->porosity;
	c->soil_depth = s->soil_depth;
	c->absorb_rate = s->absorb_rate;
	c->permeability = s->permeability;
	c->capillary = s->capillary;
	c->dry_rate = s->dry_rate;
	c->pond = s->pond_saturation;
	c->splash_speed = s->splash_speed;
	c->yield_dry = s->yield_dry;
	c->wet_ratio = s->wet_ratio;
	c->rim_fraction = s->rim_fraction;
	c->max_crater = s->max_crater;
	c->shear_k = s->shear_k;
	c->erosion_k = s->erosion_k;
	c->critical_shear = s->critical_shear;
	c->shear_wet = s->shear_wet;
	c->scour_start = s->scour_start;
	c->shear_depth = s->shear_depth;
	c->mud_max = s->mud_max;
	c->mud_diffusion = s->mud_diffusion;
	c->settle_speed = s->settle_speed;
	c->soil_density = s->soil_density;
}

static void particles_free(struct sph_particles *a)
{
	free(a->x);
	free(a->y);
	free(a->z);
	free(a->vx);
	free(a->vy);
	free(a->vz);
	free(a->mud);
	free(a->id);
	free(a->grounded);
}

#define GROW(ptr, n) \
	do { \
		void *g_ = realloc((ptr), (size_t)(n) * sizeof *(ptr)); \
		if (!g_) \
			return GULLY_ENOMEM; \
		(ptr) = g_; \
	} while (0)

static int particles_grow(struct sph_particles *a, int n)
{
	GROW(a->x, n);
	GROW(a->y, n);
	GROW(a->z, n);
	GROW(a->vx, n);
	GROW(a->vy, n);
	GROW(a->vz, n);
	GROW(a->mud, n);
	GROW(a->id, n);
	GROW(a->grounded, n);
	return GULLY_OK;
}

/* Room for n particles in every per-particle array. */
int sph_reserve(struct sph *s, int n)
{
	if (n <= s->cap)
		return GULLY_OK;
	int cap = s->cap ? s->cap : 256;
	while (cap < n)
		cap *= 2;
	if (particles_grow(&s->p, cap) || particles_grow(&s->q, cap))
		return GULLY_ENOMEM;
	GROW(s->rho, cap);
	GROW(s->press, cap);
	GROW(s->nu, cap);
	GROW(s->ground, cap);
	GROW(s->nx, cap);
	GROW(s->ny, cap);
	GROW(s->nz, cap);
	GROW(s->ncount, cap);
	GROW(s->vhit, cap);
	GROW(s->mud_next, cap);
	GROW(s->dead, cap);
	GROW(s->busy, cap);
	GROW(s->cell, cap);
	GROW(s->key, cap);
	GROW(s->order, cap);
	GROW(s->kcell, (size_t)cap * 3);
	GROW(s->nbr, (size_t)cap * SPH_MAX_NEIGHBOURS);
	s->cap = cap;
	return GULLY_OK;
}

void sph_destroy(struct sph *s)
{
	if (!s)
		return;
	particles_free(&s->p);
	particles_free(&s->q);
	free(s->rho);
	free(s->press);
	free(s->nu);
	free(s->ground);
	free(s->nx);
	free(s->ny);
	free(s->nz);
	free(s->ncount);
	free(s->vhit);
	free(s->mud_next);
	free(s->dead);
	free(s->busy);
	free(s->cell);
	free(s->tstamp);
	free(s->wstamp);
	free(s->key);
	free(s->kcell);
	free(s->order);
	free(s->nbr);
	free(s->cstart);
	free(s->water);
	free(s->water_next);
	free(s->h0);
	free(s->soil);
	if (s->workers)
		workers_destroy(s->workers);
	free(s);
}

int sph_create(struct sph **out, struct world *w, const struct params *p)
{
	struct sph *s = calloc(1, sizeof *s);
	if (!s)
		return GULLY_ENOMEM;
	sph_config_from(&s->cfg, p);
	s->width = w->width;
	s->height = w->height;
	s->dt = s->cfg.max_dt;
	int err = sph_reserve(s, 256);
	if (!err)
		err = sph_soil_create(s, w);
	int threads = workers_resolve(p->world.threads);
	if (!err && threads > 1)
		err = workers_create(&s->workers, threads);
	if (err) {
		sph_destroy(s);
		return err;
	}
	*out = s;
	return GULLY_OK;
}
