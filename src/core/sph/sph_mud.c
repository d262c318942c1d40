/* Mud: suspended soil diffuses between neighbours (eq. 15) and settles by a
 * donor-acceptor scheme (eq. 16). Each pair's transfer is one integer
 * expression evaluated identically from both sides (trunc is odd, r^2 and the
 * densities are symmetric), so particle i can gather what it gains and loses
 * alone: soil is conserved exactly and no thread writes another's particle.
 * Each pair moves at most 1/(2 SPH_MAX_NEIGHBOURS) of a difference or of the
 * donor's load, so no load goes negative. */
#include "core/sph/sph.h"

#include <math.h>

#define PAIR_CAP (0.5 / SPH_MAX_NEIGHBOURS)

/* Soil quanta moving from j to i (negative: from i to j). */
static int64_t pair_flux(const struct sph *s, int i, int j, double dt)
{
	const struct sph_config *c = &s->cfg;
	double dx = (double)s->p.x[i] - s->p.x[j], dy = (double)s->p.y[i] - s->p.y[j];
	double dz = (double)s->p.z[i] - s->p.z[j];
	double r2 = dx * dx + dy * dy + dz * dz;
	double r = sqrt(r2);
	if (r <= 0 || r >= c->h)
		return 0;
	double vol = c->mass / (0.5 * ((double)s->rho[i] + s->rho[j]));
	double lap = c->visc_lap * (c->h - r);
	double k = c->mud_diffusion * dt * vol * lap;
	if (k > PAIR_CAP)
		k = PAIR_CAP;
	int64_t flux = (int64_t)(k * (double)(s->p.mud[j] - s->p.mud[i]));
	if (dz != 0 && c->settle_speed > 0) {
		/* The upper particle of the pair gives to the lower one. */
		double q = c->h - r;
		double ks = c->settle_speed * dt * vol * c->spiky_grad * q * q * fabs(dz) / r;
		if (ks > PAIR_CAP)
			ks = PAIR_CAP;
		if (dz < 0)
			flux += (int64_t)(ks * (double)s->p.mud[j]);
		else
			flux -= (int64_t)(ks * (double)s->p.mud[i]);
	}
	return flux;
}

int64_t sph_mud_exchange(const struct sph *s, int i, double dt)
{
	if (s->dead[i] == 2)
		return 0;
	int64_t sum = 0;
	const int32_t *list = s->nbr + (size_t)i * SPH_MAX_NEIGHBOURS;
	for (int k = 0; k < s->ncount[i]; k++) {
		int j = list[k];
		if (s->dead[j] == 2 || (s->p.mud[i] == 0 && s->p.mud[j] == 0))
			continue; /* nothing to move: most pairs, most of the time */
		sum += pair_flux(s, i, j, dt);
	}
	return sum;
}
