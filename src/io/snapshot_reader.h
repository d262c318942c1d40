/* What the snapshot reader's two files (snapshot.c: the header;
 * snapshot_layers.c: the layers) share. */
#ifndef GULLY_SNAPSHOT_READER_H
#define GULLY_SNAPSHOT_READER_H

#include <stdint.h>
#include <stdio.h>

#include "core/base/world.h"
#include "io/snapshot.h"

struct reader {
	FILE *fp;
	const char *label;
	uint64_t pos, size;
	uint32_t crc;
	char *err;
	size_t errlen;
};

struct layer_entry {
	int layer;
	uint32_t crc;
	uint32_t encoding; /* enum snapshot_encoding (version 1: raw) */
	uint64_t offset;   /* of the data */
	uint64_t length;   /* of the data, in bytes */
};

/* Names from a file go into one-line messages: no control bytes, no length. */
void snapshot_printable(char *dst, size_t dstlen, const unsigned char *src, size_t n);
/* A little-endian field of `what`, or a message saying where the file ends. */
int reader_get32(struct reader *rd, uint32_t *v, const char *what);
int reader_get64(struct reader *rd, uint64_t *v, const char *what);
/* A name field (tally, layer, process) of 1 to `limit` bytes into `name`. */
int reader_get_name(struct reader *rd, const char *what, uint32_t limit, char *name, size_t cap);

/* snapshot_layers.c: walks the layer directory without reading any data;
 * then reads the layer at `index` of the file. */
int snapshot_scan_layers(struct reader *rd, uint32_t version, uint32_t count, size_t cells,
			 struct layer_entry *ent);
int snapshot_read_layer(struct reader *rd, struct world *w, const struct layer_entry *ent,
			uint32_t index, unsigned flags, struct snapshot_report *rep);

#endif
