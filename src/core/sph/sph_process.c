/* Process 4 in the process table: params in, steps out, the world's tallies
 * kept from the int64 books. */
#include "core/sph/sph.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/base/error.h"

int64_t sph_soil_suspended(const struct sph *s)
{
	int64_t sum = 0;
	for (int i = 0; i < s->n; i++)
		sum += s->p.mud[i];
	return sum;
}

bool sph_books_balance(const struct sph *s)
{
	const struct sph_books *b = &s->books;
	int64_t water = (int64_t)s->n * SPH_WATER_QUANTA + sph_water_in_soil(s) + b->water_off_map +
			b->water_dried + b->water_refused;
	int64_t soil = b->soil_terrain + sph_soil_suspended(s) + b->soil_off_map;
	return water == b->water_emitted && soil == 0;
}

static int sph_process_create(void **state, struct world *w, const struct params *p)
{
	struct sph *s = NULL;
	int err = sph_create(&s, w, p);
	if (!err)
		*state = s;
	return err;
}

/* The soil in flight, as the world's tallies count it (the water tallies
 * are added step by step: sph_step.c). */
static void tally_in_flight(const struct sph *s, struct world *w)
{
	w->tally[TALLY_SEDIMENT_IN_FLIGHT] = sph_soil_tally(s, sph_soil_suspended(s));
}

static int sph_process_step(void *state, struct world *w, const struct params *p,
			    uint64_t budget, struct process_report *rep)
{
	struct sph *s = state;
	if (w->width != s->width || w->height != s->height)
		return GULLY_EINVAL;
	/* Parameters may change between calls (the explorer's panel). */
	sph_config_from(&s->cfg, p);
	uint32_t ids = s->next_id;
	uint64_t done = 0;
	int err = sph_run(s, w, budget, &done);
	tally_in_flight(s, w);
	uint64_t released = s->next_id - ids;
	w->particles += released;
	w->steps += done;
	if (rep) {
		rep->particles = released;
		rep->steps = done;
	}
	return err;
}

/* Ends the water in flight for a world going on with another process: each
 * particle sets its mud down on its cell (or books it off the map) and its
 * water counts as evaporated, so the soil books close on the map; the
 * soil's water dries too, and the wetness layer with it. */
static int sph_process_finish(void *state, struct world *w, const struct params *p,
			      struct process_report *rep)
{
	(void)p;
	struct sph *s = state;
	int64_t dried = 0;
	for (int i = 0; i < s->n; i++) {
		int cx = (int)s->p.x[i], cy = (int)s->p.y[i];
		if (cx >= 0 && cy >= 0 && cx < s->width && cy < s->height) {
			sph_terrain_add(s, w, cx, cy, s->p.mud[i]);
			s->books.deposited += s->p.mud[i];
		} else {
			s->books.soil_off_map += s->p.mud[i];
			w->tally[TALLY_SEDIMENT_OFF_MAP] += sph_soil_tally(s, s->p.mud[i]);
		}
		s->p.mud[i] = 0;
		dried += SPH_WATER_QUANTA;
	}
	s->books.water_dried += dried;
	dried += sph_soil_end(s, w); /* booked as dried there */
	w->tally[TALLY_WATER_EVAPORATED] += sph_water_tally(s, dried);
	s->n = 0;
	s->pre_n = 0;
	tally_in_flight(s, w);
	sph_water_layer(s, w);
	if (rep)
		rep->particles = rep->steps = 0;
	return GULLY_OK;
}

static const char *off(bool on)
{
	return on ? "" : "  [off]";
}

/* The article's equations (numbers in brackets), the state equation set, a
 * part that is switched off marked so. */
static const char *sph_equations(const struct params *p, char *buf, size_t len)
{
	const struct params_sph *q = &p->sph;
	snprintf(buf, len,
		 "rho_i = sum m W6(r_ij) + rho0 f(d/h);  %s\n"
		 "a_i = -sum m (p_i/rho_i^2 + p_j/rho_j^2 + Pi_ij) grad Wspiky + g    (2, 4)\n"
		 "s: saturation of 5 porous particles/cell; q_ab = K c w (s_a - s_b)  (7, 8)%s\n"
		 "crater V = m v_n^2 / 2 sigma(s);  sigma = s_dry (1 - (1 - r_w) s)  (12-14)%s\n"
		 "scour: tau = K_tau (v_t / gap)(1 + D/h);  e = K_E (tau - tau_c(s)) g(s)  (19-22)%s\n"
		 "mud: rho = (1-C) rho0 + C rho_s; dC by diffusion + settling        (10-18)%s",
		 q->eos == SPH_EOS_LINEAR ? "p = c_s^2 (rho - rho0)   (Mueller, linear)"
					  : "p = B((rho/rho0)^7 - 1)   (3, Tait)",
		 off(q->wetting), off(q->splash), off(q->scour), off(q->mud));
	return buf;
}

static void sph_process_destroy(void *state)
{
	sph_destroy(state);
}

static int sph_process_save(const void *state, unsigned char **data, size_t *len)
{
	return sph_save(state, data, len);
}

static int sph_process_load(void *state, const unsigned char *data, size_t len)
{
	return sph_load(state, data, len);
}

/* The jets the explorer draws, picks, moves and switches with the
 * emitter's keys (SPH_JETS of them, as params.def declares). */
#define SPH_JET_SOURCE(n)                                                                  \
	{                                                                                  \
		.name = "jet " #n, .x = "sph.jet" #n "_x", .y = "sph.jet" #n "_y",                            \
		.direction = "sph.jet" #n "_azimuth", .window = "sph.jet" #n "_radius",   \
		.window_is_radius = 1, .on = "sph.jet" #n "_on",                           \
		.elevation = "sph.jet" #n "_elevation",                                    \
	}
static const struct process_source sph_sources[] = {
	SPH_JET_SOURCE(1), SPH_JET_SOURCE(2), SPH_JET_SOURCE(3), SPH_JET_SOURCE(4),
};
_Static_assert(sizeof sph_sources / sizeof sph_sources[0] == SPH_JETS, "one source a jet");

/* The soil's pores are sized when it is made (sph_soil_create). */
static const char *const sph_made_with[] = {"sph.porosity", "sph.soil_depth", NULL};

const struct process_ops sph_process = {
	.sources = sph_sources,
	.nsources = (int)(sizeof sph_sources / sizeof sph_sources[0]),
	.name = "sph",
	.title = "SPH splash and scour",
	.section = "sph",
	.unit = "steps",
	.describe_for = sph_equations,
	.create = sph_process_create,
	.step = sph_process_step,
	.destroy = sph_process_destroy,
	.save_state = sph_process_save,
	.load_state = sph_process_load,
	.finish = sph_process_finish,
	.made_with = sph_made_with,
};

void sph_books_volumes(const struct sph_books *b, double spacing, struct sph_metrics *m)
{
	m->splash_volume = (double)b->splash * SPH_SOIL_QUANTUM;
	m->scour_volume = (double)b->scour * SPH_SOIL_QUANTUM;
	m->mud_deposited = (double)b->deposited * SPH_SOIL_QUANTUM;
	m->water_absorbed =
		(double)b->absorbed / (double)SPH_WATER_QUANTA * (spacing * spacing * spacing);
}

bool sph_metrics_of(const struct process_ops *ops, const void *state, struct sph_metrics *m)
{
	if (ops != &sph_process || !state)
		return false;
	const struct sph *s = state;
	sph_books_volumes(&s->books, s->cfg.spacing, m);
	long wet = 0;
	for (int y = s->wet.y0; y <= s->wet.y1; y++)
		for (int x = s->wet.x0; x <= s->wet.x1; x++)
			wet += sph_saturation(s, x, y) > 0.05;
	m->wet_cells = wet;
	m->particles = s->n;
	return true;
}
