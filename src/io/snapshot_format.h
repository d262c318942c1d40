/* What the snapshot reader (snapshot.c, snapshot_layers.c) and writer
 * (snapshot_write.c) share beyond the public snapshot.h. */
#ifndef GULLY_SNAPSHOT_FORMAT_H
#define GULLY_SNAPSHOT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A CRC-32 over any length: zlib takes uInt chunks. */
uint32_t snapshot_crc_update(uint32_t crc, const unsigned char *p, size_t n);
/* A layer's CRC: of its n cells as the file's little-endian f32 bytes,
 * whatever the host and the layer's encoding. */
uint32_t snapshot_cells_crc(const float *v, size_t n);

/* On a little-endian host a float's bytes in memory are the file's: a layer
 * is summed, written and read as it lies, with no conversion. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SNAPSHOT_FLOATS_AS_STORED 1
#else
#define SNAPSHOT_FLOATS_AS_STORED 0
#endif

/* Version 2's layer records: after the name and CRC, an encoding (u32,
 * enum snapshot_encoding) and the data's length in bytes (u64). */
/* A runs layer's reference: u32 kind, u32 its value's bits or the index
 * (from 0, in the file's order) of an earlier layer. */
enum { RUNS_REF_VALUE = 0, RUNS_REF_LAYER = 1 };
#define RUNS_REF_BYTES 8u
/* Each run: u32 cells equal to the reference, u32 cells written, their f32. */
#define RUNS_PAIR_BYTES 8u

struct runs_ref {
	const float *layer;  /* cells equal to this layer's ... */
	uint32_t value_bits; /* ... or, with no layer, to this value (bits) */
};

/* Runs count cells in u32s: larger layers are written raw. */
#define RUNS_MAX_CELLS UINT32_MAX
/* The next run from cell i of n (at most RUNS_MAX_CELLS): *same cells equal
 * to the reference, then *lit cells to write. Returns the cell after them. */
size_t runs_next(const float *v, const struct runs_ref *r, size_t n, size_t i,
		 uint32_t *same, uint32_t *lit);
/* Whether a sample of the cells has enough equal to the reference (1 in
 * 32) for runs against it to be worth counting: a layer with fewer would
 * save at most a few percent, and counting reads the whole layer. */
bool runs_may_pay(const float *v, const struct runs_ref *r, size_t n);
/* The bytes runs_next's runs take, the reference included. */
uint64_t runs_bytes(const float *v, const struct runs_ref *r, size_t n);
/* Reads the runs (the `len` bytes after the reference) of n cells into v.
 * A gully_err code; on failure `why` says what is wrong, without the file's
 * name ("its runs end at cell 12 of 256"). */
int runs_read(FILE *fp, float *v, const struct runs_ref *r, size_t n, uint64_t len,
	      char *why, size_t whylen);

#endif
