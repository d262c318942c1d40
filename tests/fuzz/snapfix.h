/* Rewrites a .gsnap image's CRCs in place so that a mutated file gets past
 * them: fuzzers reach the layer values, the parameter text and the process
 * state instead of stopping at "bad CRC", and shell tests can patch a value
 * into a real snapshot. */
#ifndef GULLY_SNAPFIX_H
#define GULLY_SNAPFIX_H

#include <stddef.h>
#include <stdint.h>

/* Walks the layout of gully-snapshot(5) and recomputes the header CRC and
 * every layer's CRC it can reach; stops where a length runs past the end.
 * Returns the number of CRCs written. */
int snapfix_crcs(uint8_t *data, size_t size);

#endif
