#include "io/layer_import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/base/error.h"
#include "core/terrain/hardness.h"
#include "io/image.h"
#include "io/snapshot.h"

/* "a.gsnap" or "a.gsnap:LAYER": the path ends at ".gsnap" and the rest names
 * the layer. Returns the length of the path part, 0 when spec is no snapshot. */
static size_t snapshot_part(const char *spec, const char **layer)
{
	const char *dot = NULL;
	for (const char *s = spec; (s = strstr(s, ".gsnap")) != NULL; s++)
		dot = s;
	if (!dot)
		return 0;
	const char *after = dot + strlen(".gsnap");
	if (*after == '\0') {
		*layer = "hardness";
		return (size_t)(after - spec);
	}
	if (*after == ':' && after[1]) {
		*layer = after + 1;
		return (size_t)(after - spec);
	}
	return 0;
}

static int read_snapshot_layer(const char *spec, size_t pathlen, const char *layer,
			       float **values, int *width, int *height, char *err, size_t errlen)
{
	char path[4096];
	if (pathlen >= sizeof path) {
		snprintf(err, errlen, "%.64s...: path too long", spec);
		return GULLY_EINVAL;
	}
	memcpy(path, spec, pathlen);
	path[pathlen] = '\0';
	int l = world_layer_find(layer);
	if (l < 0) {
		snprintf(err, errlen, "%s: no layer named '%s' in a snapshot", spec, layer);
		return GULLY_ENOTFOUND;
	}
	struct world *w;
	struct snapshot_info info;
	int rc = snapshot_load(path, &w, &info, err, errlen);
	if (rc)
		return rc;
	size_t n = world_cells(w);
	float *v = malloc(n * sizeof *v);
	if (!v) {
		snprintf(err, errlen, "%s: out of memory", path);
		rc = GULLY_ENOMEM;
	} else {
		memcpy(v, w->layer[l], n * sizeof *v);
		*values = v;
		*width = w->width;
		*height = w->height;
	}
	world_destroy(w);
	snapshot_info_free(&info);
	return rc;
}

int layer_import_read(const char *spec, float **values, int *width, int *height,
		      char *err, size_t errlen)
{
	*values = NULL;
	const char *layer;
	size_t pathlen = snapshot_part(spec, &layer);
	if (pathlen)
		return read_snapshot_layer(spec, pathlen, layer, values, width, height, err,
					   errlen);
	return image_import_grid(spec, 1, width, height, values, err, errlen);
}

/* Every value must be a hardness, a number from 0 (soft) to 1 (hard): one
 * outside (a .f32's or another layer's) is refused, not clamped, since a map
 * made for another range would be misread. */
static int hardness_check(const char *spec, const float *v, int sw, int sh, char *err,
			  size_t errlen)
{
	float mn, mx;
	world_layer_range(LAYER_HARDNESS, &mn, &mx);
	const size_t n = (size_t)sw * (size_t)sh;
	for (size_t i = 0; i < n; i++)
		if (!(v[i] >= mn && v[i] <= mx)) { /* NaN fails too */
			snprintf(err, errlen, "%s: cell %zu (x %zu, y %zu) is %g, outside %g to %g "
				 "(0 soft, 1 hard)", spec, i, i % (size_t)sw, i / (size_t)sw,
				 (double)v[i], (double)mn, (double)mx);
			return GULLY_ERANGE;
		}
	return GULLY_OK;
}

int layer_import_hardness_grid(const char *spec, float **values, int *width, int *height,
			       char *err, size_t errlen)
{
	int rc = layer_import_read(spec, values, width, height, err, errlen);
	if (!rc && (rc = hardness_check(spec, *values, *width, *height, err, errlen))) {
		free(*values);
		*values = NULL;
	}
	return rc;
}

int layer_import_hardness(struct world *w, const char *spec, char *err, size_t errlen)
{
	float *v;
	int sw, sh;
	int rc = layer_import_hardness_grid(spec, &v, &sw, &sh, err, errlen);
	if (rc)
		return rc;
	rc = hardness_fill_from(w, v, sw, sh);
	free(v);
	if (rc)
		snprintf(err, errlen, "%s: cannot use as a hardness map: %s", spec,
			 gully_strerror(rc));
	return rc;
}
