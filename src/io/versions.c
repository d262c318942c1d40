/* The file libraries' own version strings (versions.h). */
#include "io/versions.h"

#include <stdio.h>

#include <cyaml/cyaml.h>
#include <png.h>
#include <yaml.h>
#include <zlib.h>

void io_library_versions(char *buf, size_t len)
{
	snprintf(buf, len, "libcyaml %s, libyaml %s, libpng %s, zlib %s", cyaml_version_str,
		 yaml_get_version_string(), png_get_libpng_ver(NULL), zlibVersion());
}
