/* The file libraries gully runs with, for --version and bug reports. */
#ifndef GULLY_IO_VERSIONS_H
#define GULLY_IO_VERSIONS_H

#include <stddef.h>

/* "libcyaml 1.3.1, libyaml 0.2.5, libpng 1.6.39, zlib 1.2.13": the versions
 * loaded at run time, which a shared library's update can change without a
 * rebuild. */
void io_library_versions(char *buf, size_t len);
/* "gully 0.1.0 (git 1a2b3c4d5e6f)": this build, by the commit it was built
 * from when that is known ("-dirty" after it: with changes not committed),
 * for --version and the files gully writes, so a result can be cited. */
const char *gully_version(void);

#endif
