/* What the snapshot reader (snapshot.c) and writer (snapshot_write.c)
 * share beyond the public snapshot.h. */
#ifndef GULLY_SNAPSHOT_FORMAT_H
#define GULLY_SNAPSHOT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* A CRC-32 over any length: zlib takes uInt chunks. */
uint32_t snapshot_crc_update(uint32_t crc, const unsigned char *p, size_t n);

/* On a little-endian host a float's bytes in memory are the file's: a layer
 * is summed, written and read as it lies, with no conversion. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SNAPSHOT_FLOATS_AS_STORED 1
#else
#define SNAPSHOT_FLOATS_AS_STORED 0
#endif

#endif
