/* The file libraries' own version strings (versions.h). */
#include "io/versions.h"

#include <stdio.h>

#include <cyaml/cyaml.h>
#include <png.h>
#include <yaml.h>
#include <zlib.h>

#include "config.h"
#include "gully-commit.h" /* made by the build: GULLY_COMMIT */

void io_library_versions(char *buf, size_t len)
{
	snprintf(buf, len, "libcyaml %s, libyaml %s, libpng %s, zlib %s", cyaml_version_str,
		 yaml_get_version_string(), png_get_libpng_ver(NULL), zlibVersion());
}

const char *gully_version(void)
{
	static char v[128];
	if (v[0])
		return v;
	if (GULLY_COMMIT[0])
		snprintf(v, sizeof v, "%s %s (git %s)", PACKAGE_NAME, PACKAGE_VERSION, GULLY_COMMIT);
	else
		snprintf(v, sizeof v, "%s %s", PACKAGE_NAME, PACKAGE_VERSION);
	return v;
}
