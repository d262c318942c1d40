/* The file libraries gully runs with, for --version and bug reports. */
#ifndef GULLY_IO_VERSIONS_H
#define GULLY_IO_VERSIONS_H

#include <stddef.h>

/* "libcyaml 1.3.1, libyaml 0.2.5, libpng 1.6.39, zlib 1.2.13": the versions
 * loaded at run time, which a shared library's update can change without a
 * rebuild. */
void io_library_versions(char *buf, size_t len);

#endif
