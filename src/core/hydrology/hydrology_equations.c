/* Hydrology's equations as the settings make them, for the explorer's
 * equation panel and droplet trace: the streams' terms only when
 * hydrology.coupling lets the stream map act back, the roots' only with
 * trees, the droplet's volume in c_eq only with capacity_volume, the load
 * concentrating only with concentrate (the seed's 2020 code), and the
 * surface normal hydrology.normal chose on the line that uses it. Eight
 * lines whatever the settings: the trace cites them by number. */
#include "core/hydrology/hydrology.h"

#include <stdio.h>

/* n as hydrology.normal makes it (base/normal.h): the two algorithms
 * differ in how far a droplet is pushed sideways on a gentle slope, which
 * is why the 2020 presets choose theirs. */
static const char *normal_text(int normal)
{
	switch (normal) {
	case HYDROLOGY_NORMAL_2020:
		return "n: normalised sum of 4 cross products (SimpleHydrology 2020)";
	case HYDROLOGY_NORMAL_2020_WRAP:
		return "n: 2020's, the y edge's neighbours in the next column";
	default:
		return "n: 8 neighbours' slopes, weighted (particles article)";
	}
}

const char *hydrology_equations(const struct params *p, char *buf, size_t len)
{
	const struct params_hydrology *q = &p->hydrology;
	const bool streams = q->coupling >= HYDROLOGY_STREAMS;
	const bool roots = q->coupling == HYDROLOGY_TREES;
	const char *e = streams ? "e (1 - 0.2 w)" : "e";
	char evaporate[96];
	if (q->concentrate)
		snprintf(evaporate, sizeof evaporate, "V *= 1 - dt %s;  s /= 1 - dt %s", e, e);
	else
		snprintf(evaporate, sizeof evaporate, "V *= 1 - dt %s", e);
	snprintf(buf, len,
		 "a = n.xz / (V rho)   v += dt a;  p += dt v;  v *= 1 - dt f%s;  %s\n"
		 "c_eq = max(0, %s|v| (h(p0) - h(p)))\n"
		 "%s\n"
		 "%s   until V < V_min\n"
		 "stop in a pool, or on a stream w > w_stop with |a| < a_stop; then flood:\n"
		 "  raise the lake from its lowest rim up; a rim below the level leaks:\n"
		 "  level -= drainage (level - leak); go on from the leak with s *= keep\n"
		 "w += lrate (visited - w) after each batch",
		 streams ? " (1 - 0.5 w)" : "", normal_text(q->normal), q->capacity_volume ? "V " : "",
		 roots ? "s += dt k' (c_eq - s);  h(p0) -= dt V k' (c_eq - s);  k' = k max(0, 1 - roots)"
		       : "s += dt k (c_eq - s);  h(p0) -= dt V k (c_eq - s)",
		 evaporate);
	return buf;
}
