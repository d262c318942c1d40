#include <inttypes.h>
#include <math.h>

#include <string.h>

#include "cli/cli.h"
#include "core/sph/sph.h"

/* The columns, in the order `gully run` promises; TSV and JSON both come
 * from this one list. */
enum column_kind { COL_STRING, COL_INT, COL_REAL };
struct column {
	const char *name;
	enum column_kind kind;
	const char *(*str)(const struct run_metrics *m);
	int64_t (*integer)(const struct run_metrics *m);
	double (*real)(const struct run_metrics *m);
};

static const char *m_process(const struct run_metrics *m) { return m->process; }
static int64_t m_seed(const struct run_metrics *m) { return m->seed; }
static int64_t m_width(const struct run_metrics *m) { return m->width; }
static int64_t m_height(const struct run_metrics *m) { return m->height; }
static int64_t m_particles(const struct run_metrics *m) { return (int64_t)m->particles; }
static int64_t m_steps(const struct run_metrics *m) { return (int64_t)m->steps; }
static double m_seconds(const struct run_metrics *m) { return m->seconds; }
static double m_pps(const struct run_metrics *m)
{
	return m->seconds > 0 ? (double)m->particles / m->seconds : 0;
}
static double m_eroded(const struct run_metrics *m) { return m->world->tally[TALLY_ERODED]; }
static double m_deposited(const struct run_metrics *m) { return m->world->tally[TALLY_DEPOSITED]; }
static double m_net(const struct run_metrics *m)
{
	return m->world->tally[TALLY_DEPOSITED] - m->world->tally[TALLY_ERODED];
}
static double m_pool_volume(const struct run_metrics *m) { return m->stats.pool_volume; }
static int64_t m_pool_cells(const struct run_metrics *m) { return m->stats.pool_cells; }
static int64_t m_stream_cells(const struct run_metrics *m) { return m->stats.stream_cells; }
static int64_t m_wet_cells(const struct run_metrics *m) { return m->stats.wet_cells; }
static double m_hmin(const struct run_metrics *m) { return m->stats.height_min; }
static double m_hmax(const struct run_metrics *m) { return m->stats.height_max; }
static double m_hmean(const struct run_metrics *m) { return m->stats.height_mean; }
static double m_hstd(const struct run_metrics *m) { return m->stats.height_std; }
static int64_t m_total_particles(const struct run_metrics *m) { return (int64_t)m->world->particles; }
static double m_off_map(const struct run_metrics *m) { return m->world->tally[TALLY_SEDIMENT_OFF_MAP]; }
static double m_water_in(const struct run_metrics *m) { return m->world->tally[TALLY_WATER_IN]; }
static double m_water_evap(const struct run_metrics *m) { return m->world->tally[TALLY_WATER_EVAPORATED]; }
static double m_water_off(const struct run_metrics *m) { return m->world->tally[TALLY_WATER_OFF_MAP]; }
static double m_in_flight(const struct run_metrics *m) { return m->world->tally[TALLY_SEDIMENT_IN_FLIGHT]; }

static double m_splash(const struct run_metrics *m) { return m->sph.splash_volume; }
static double m_scour(const struct run_metrics *m) { return m->sph.scour_volume; }
static double m_mud(const struct run_metrics *m) { return m->sph.mud_deposited; }
static double m_absorbed(const struct run_metrics *m) { return m->sph.water_absorbed; }
static int64_t m_sph_particles(const struct run_metrics *m) { return m->sph.particles; }

#define S(n, f) {n, COL_STRING, f, NULL, NULL}
#define I(n, f) {n, COL_INT, NULL, f, NULL}
#define R(n, f) {n, COL_REAL, NULL, NULL, f}
static const struct column columns[] = {
	S("process", m_process),
	I("seed", m_seed),
	I("width", m_width),
	I("height", m_height),
	I("particles", m_particles),
	I("steps", m_steps),
	R("seconds", m_seconds),
	R("particles_per_second", m_pps),
	R("eroded_volume", m_eroded),
	R("deposited_volume", m_deposited),
	R("net_volume", m_net),
	R("pool_volume", m_pool_volume),
	I("pool_cells", m_pool_cells),
	I("stream_cells", m_stream_cells),
	I("wet_cells", m_wet_cells),
	R("height_min", m_hmin),
	R("height_max", m_hmax),
	R("height_mean", m_hmean),
	R("height_std", m_hstd),
	I("total_particles", m_total_particles),
	R("sediment_off_map", m_off_map),
	R("water_in", m_water_in),
	R("water_evaporated", m_water_evap),
	R("water_off_map", m_water_off),
	R("sediment_in_flight", m_in_flight),
	R("splash_volume", m_splash),
	R("scour_volume", m_scour),
	R("mud_deposited", m_mud),
	R("water_absorbed", m_absorbed),
	I("sph_particles", m_sph_particles),
};
#define NCOLUMNS (sizeof columns / sizeof columns[0])

void metrics_collect(struct run_metrics *m, const struct world *w,
		     const struct process_ops *ops, const void *state)
{
	if (!ops || !sph_metrics_of(ops, state, &m->sph))
		memset(&m->sph, 0, sizeof m->sph);
	m->world = w;
	m->width = w->width;
	m->height = w->height;
	world_stats(w, &m->stats);
}

void metrics_print_header(FILE *fp)
{
	for (size_t i = 0; i < NCOLUMNS; i++)
		fprintf(fp, "%s%s", i ? "\t" : "", columns[i].name);
	fputc('\n', fp);
}

static void print_value(FILE *fp, const struct column *c, const struct run_metrics *m, bool json)
{
	switch (c->kind) {
	case COL_STRING:
		fprintf(fp, json ? "\"%s\"" : "%s", c->str(m));
		break;
	case COL_INT:
		fprintf(fp, "%" PRId64, c->integer(m));
		break;
	case COL_REAL: {
		double v = c->real(m);
		if (isfinite(v))
			fprintf(fp, "%.9g", v);
		else
			fputs(json ? "null" : "nan", fp);
		break;
	}
	}
}

void metrics_print_row(FILE *fp, const struct run_metrics *m)
{
	for (size_t i = 0; i < NCOLUMNS; i++) {
		if (i)
			fputc('\t', fp);
		print_value(fp, &columns[i], m, false);
	}
	fputc('\n', fp);
}

void metrics_print_json(FILE *fp, const struct run_metrics *m)
{
	fputc('{', fp);
	for (size_t i = 0; i < NCOLUMNS; i++) {
		fprintf(fp, "%s\"%s\": ", i ? ", " : "", columns[i].name);
		print_value(fp, &columns[i], m, true);
	}
	fputs("}\n", fp);
}
