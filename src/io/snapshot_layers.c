/* Reading a snapshot's layers (gully-snapshot(5)): the directory walked
 * first without the data (names, encodings, lengths, room in the file),
 * then each layer, raw or as runs, checked by its CRC and its range. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <zlib.h>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "io/fileio.h"
#include "io/snapshot_format.h"
#include "io/snapshot_reader.h"

/* Version 2's encoding and length: known, and a length the encoding can
 * have (a raw layer's is the map's; runs are a reference, at least one run,
 * and at most a run for each cell). */
static int get_encoding(struct reader *rd, const char *shown, size_t cells, struct layer_entry *le)
{
	char where[96];
	snprintf(where, sizeof where, "the encoding of layer '%s'", shown);
	int e = reader_get32(rd, &le->encoding, where);
	snprintf(where, sizeof where, "the length of layer '%s'", shown);
	if (e || (e = reader_get64(rd, &le->length, where)))
		return e;
	uint64_t lo = (uint64_t)cells * 4, hi = lo;
	if (le->encoding == SNAPSHOT_ENC_RUNS) {
		lo = RUNS_REF_BYTES + RUNS_PAIR_BYTES;
		hi = RUNS_REF_BYTES + (uint64_t)cells * (RUNS_PAIR_BYTES + 4);
	} else if (le->encoding != SNAPSHOT_ENC_RAW) {
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
			    "unknown encoding %" PRIu32 " of layer '%s' (this gully knows 0, raw, and 1, runs)",
			    le->encoding, shown);
	}
	if (le->length < lo || le->length > hi)
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
			    "layer '%s' has an absurd length of %" PRIu64 " bytes (its encoding allows %" PRIu64 " to %" PRIu64 ")",
			    shown, le->length, lo, hi);
	return GULLY_OK;
}

/* Walks the layer directory without reading any data: every name known and
 * unique, every layer's data within the file, nothing after the last one. */
int snapshot_scan_layers(struct reader *rd, uint32_t version, uint32_t count, size_t cells,
		       struct layer_entry *ent)
{
	bool seen[LAYER_COUNT] = {false};
	for (uint32_t i = 0; i < count; i++) {
		char what[64], name[SNAPSHOT_MAX_NAME + 1];
		snprintf(what, sizeof what, "the name of layer %" PRIu32, i + 1);
		int e = reader_get_name(rd, what, SNAPSHOT_MAX_NAME, name, sizeof name);
		if (e)
			return e;
		char shown[SNAPSHOT_MAX_NAME + 1];
		snapshot_printable(shown, sizeof shown, (unsigned char *)name, strlen(name));
		int l = world_layer_find(name);
		if (l < 0)
			return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
				    "unknown layer '%s' (layer %" PRIu32 ")", shown, i + 1);
		if (seen[l])
			return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
				    "duplicate layer '%s' (layer %" PRIu32 ")", shown, i + 1);
		seen[l] = true;
		char where[96];
		snprintf(where, sizeof where, "the CRC of layer '%s'", shown);
		e = reader_get32(rd, &ent[i].crc, where);
		ent[i].encoding = SNAPSHOT_ENC_RAW;
		ent[i].length = (uint64_t)cells * 4;
		if (!e && version >= 2)
			e = get_encoding(rd, shown, cells, &ent[i]);
		if (e)
			return e;
		if (ent[i].length > rd->size - rd->pos)
			return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
				    "truncated in layer '%s' at byte %" PRIu64 " (its data needs %" PRIu64 " bytes, the file ends at byte %" PRIu64 ")",
				    shown, rd->pos, ent[i].length, rd->size);
		ent[i].layer = l;
		ent[i].offset = rd->pos;
		rd->pos += ent[i].length;
		if (fseeko(rd->fp, (off_t)rd->pos, SEEK_SET) != 0)
			return io_fail(rd->err, rd->errlen, GULLY_EIO, rd->label, "cannot seek: %s", strerror(errno));
	}
	if (rd->pos != rd->size)
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
			    "%" PRIu64 " bytes of trailing data after the last layer (at byte %" PRIu64 ")",
			    rd->size - rd->pos, rd->pos);
	if (!seen[LAYER_HEIGHT])
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label, "no 'height' layer");
	return GULLY_OK;
}

/* A runs layer (version 2): its reference, then the runs. The layer it may
 * refer to comes before it in the file, so it is read already. */
static int read_runs(struct reader *rd, struct world *w, const struct layer_entry *ent,
		     uint32_t index)
{
	const struct layer_entry *le = &ent[index];
	const char *name = world_layer_name((enum world_layer)le->layer);
	unsigned char head[RUNS_REF_BYTES];
	if (fread(head, 1, sizeof head, rd->fp) != sizeof head)
		return io_fail(rd->err, rd->errlen, GULLY_EIO, rd->label, "read error in layer '%s'", name);
	uint32_t kind = get_u32le(head), word = get_u32le(head + 4);
	struct runs_ref r = {NULL, word};
	if (kind == RUNS_REF_LAYER) {
		if (word >= index)
			return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
				    "layer '%s' is stored against layer %" PRIu32 " of the file, which is not before it",
				    name, word + 1);
		r.layer = w->layer[ent[word].layer];
	} else if (kind != RUNS_REF_VALUE) {
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
			    "layer '%s' has an unknown kind of reference (%" PRIu32 ")", name, kind);
	}
	char why[128];
	int e = runs_read(rd->fp, w->layer[le->layer], &r, world_cells(w), le->length - RUNS_REF_BYTES,
			  why, sizeof why);
	if (e == GULLY_EIO)
		return io_fail(rd->err, rd->errlen, e, rd->label, "read error in layer '%s'%s", name,
			    ferror(rd->fp) ? "" : " (the file shrank)");
	if (e)
		return io_fail(rd->err, rd->errlen, e, rd->label, "layer '%s': %s", name, why);
	return GULLY_OK;
}

/* A raw layer: the cells as they lie in the file. */
static int read_raw(struct reader *rd, struct world *w, const struct layer_entry *le)
{
	size_t cells = world_cells(w);
	float *v = w->layer[le->layer];
	if (fread(v, 4, cells, rd->fp) != cells)
		return io_fail(rd->err, rd->errlen, GULLY_EIO, rd->label, "read error in layer '%s'%s",
			    world_layer_name((enum world_layer)le->layer),
			    ferror(rd->fp) ? "" : " (the file shrank)");
	/* In place: element i's four bytes are read before they are rewritten.
	 * A little-endian host's floats are the bytes already. */
	if (!SNAPSHOT_FLOATS_AS_STORED)
		for (size_t i = 0; i < cells; i++)
			v[i] = get_f32le((const unsigned char *)(v + i));
	return GULLY_OK;
}

int snapshot_read_layer(struct reader *rd, struct world *w, const struct layer_entry *ent,
		      uint32_t index, unsigned flags, struct snapshot_report *rep)
{
	const struct layer_entry *le = &ent[index];
	const char *name = world_layer_name((enum world_layer)le->layer);
	size_t cells = world_cells(w);
	if (fseeko(rd->fp, (off_t)le->offset, SEEK_SET) != 0)
		return io_fail(rd->err, rd->errlen, GULLY_EIO, rd->label, "cannot seek: %s", strerror(errno));
	int e = le->encoding == SNAPSHOT_ENC_RUNS ? read_runs(rd, w, ent, index) : read_raw(rd, w, le);
	if (e)
		return e;
	float *v = w->layer[le->layer];
	uint32_t crc = snapshot_cells_crc(v, cells);
	rep->encoding[le->layer] = le->encoding;
	rep->stored_bytes[le->layer] = le->length;
	rep->present[le->layer] = true;
	rep->crc_stored[le->layer] = le->crc;
	rep->crc_computed[le->layer] = crc;
	rep->crc_ok[le->layer] = crc == le->crc;
	if (crc != le->crc) {
		rep->bad_crcs++;
		if (!(flags & SNAPSHOT_KEEP_BAD_CRC))
			return io_fail(rd->err, rd->errlen, GULLY_ECORRUPT, rd->label,
				    "bad CRC in layer '%s' (stored %08" PRIx32 ", computed %08" PRIx32 ")",
				    name, le->crc, crc);
	}
	/* A good CRC says the bytes are the ones written, not that a process
	 * can take them: NaN or a pool of 1e30 is refused here, by cell. */
	size_t cell;
	if (world_check_layer(w, (enum world_layer)le->layer, &cell)) {
		rep->out_of_range[le->layer] = true;
		rep->bad_cell[le->layer] = cell;
		rep->bad_value[le->layer] = v[cell];
		rep->bad_ranges++;
		if (!(flags & SNAPSHOT_KEEP_BAD_VALUES)) {
			char what[160];
			snapshot_describe_bad_value(what, sizeof what, rep, w->width, le->layer);
			return io_fail(rd->err, rd->errlen, GULLY_ERANGE, rd->label, "%s", what);
		}
	}
	return GULLY_OK;
}

void snapshot_describe_bad_value(char *buf, size_t len, const struct snapshot_report *rep,
				 int width, int l)
{
	float mn, mx;
	world_layer_range((enum world_layer)l, &mn, &mx);
	size_t cell = rep->bad_cell[l];
	snprintf(buf, len, "layer '%s' cell %zu (x %zu, y %zu) is %g, outside %.10g to %.10g",
		 world_layer_name((enum world_layer)l), cell, cell % (size_t)width,
		 cell / (size_t)width, (double)rep->bad_value[l], (double)mn, (double)mx);
}
