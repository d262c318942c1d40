/* Reading .gsnap snapshots (snapshot_write.c writes them). The layout is in
 * man/gully-snapshot.5; keep them in step.
 *
 * The loader trusts nothing it has not checked: every length is compared with
 * its limit and with the bytes the file really has left before anything is
 * allocated for it, and the layers are walked once without their data (names,
 * sizes, trailing bytes) before the world is allocated. */
#include "io/snapshot.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <zlib.h>

#include "core/base/error.h"
#include "core/base/process.h"
#include "core/base/bytes.h"
#include "io/fileio.h"
#include "io/snapshot_format.h"
#include "io/snapshot_reader.h"

/* Names from a file go into one-line messages: no control bytes, no length. */
void snapshot_printable(char *dst, size_t dstlen, const unsigned char *src, size_t n)
{
	size_t j = 0;
	for (size_t i = 0; i < n && j + 1 < dstlen; i++)
		dst[j++] = src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : '?';
	if (dstlen)
		dst[j] = '\0';
}

uint32_t snapshot_crc_update(uint32_t crc, const unsigned char *p, size_t n)
{
	uLong c = crc;
	while (n > 0) {
		uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
		c = crc32(c, p, k);
		p += k;
		n -= k;
	}
	return (uint32_t)c;
}

uint32_t snapshot_cells_crc(const float *v, size_t n)
{
	enum { CHUNK = 4096 };
	unsigned char buf[CHUNK * 4];
	uint32_t crc = (uint32_t)crc32(0L, Z_NULL, 0);
	if (SNAPSHOT_FLOATS_AS_STORED)
		return snapshot_crc_update(crc, (const unsigned char *)v, n * sizeof *v);
	for (size_t i = 0; i < n; i += CHUNK) {
		size_t k = n - i < CHUNK ? n - i : CHUNK;
		for (size_t j = 0; j < k; j++)
			put_f32le(buf + 4 * j, v[i + j]);
		crc = snapshot_crc_update(crc, buf, 4 * k);
	}
	return crc;
}

/* ---------------------------------------------------------------- reading */


/* Reads exactly n bytes of `what`, or says where the file ends. */
static int get(struct reader *rd, void *buf, size_t n, const char *what)
{
	if (n > rd->size - rd->pos)
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
			    "truncated in %s at byte %" PRIu64 " (needs %zu bytes, the file ends at byte %" PRIu64 ")",
			    what, rd->pos, n, rd->size);
	if (n && fread(buf, 1, n, rd->fp) != n)
		return io_fail(rd->err, rd->errlen, GULLY_EIO, rd->label, "read error in %s at byte %" PRIu64 "%s%s",
			    what, rd->pos, ferror(rd->fp) ? ": " : " (the file shrank)",
			    ferror(rd->fp) ? strerror(errno) : "");
	rd->crc = snapshot_crc_update(rd->crc, buf, n);
	rd->pos += n;
	return GULLY_OK;
}

int reader_get32(struct reader *rd, uint32_t *v, const char *what)
{
	unsigned char b[4];
	int e = get(rd, b, 4, what);
	if (!e)
		*v = get_u32le(b);
	return e;
}

int reader_get64(struct reader *rd, uint64_t *v, const char *what)
{
	unsigned char b[8];
	int e = get(rd, b, 8, what);
	if (!e)
		*v = get_u64le(b);
	return e;
}

/* A length-prefixed field: its length is checked against `limit` (absurd)
 * and then against the bytes left (truncated) before anything is allocated.
 * Gives a NUL-terminated buffer of *len bytes plus the NUL. */
static int get_blob(struct reader *rd, const char *what, uint32_t min, uint32_t limit,
		    unsigned char **out, uint32_t *len)
{
	*out = NULL;
	uint32_t n;
	char where[96];
	snprintf(where, sizeof where, "the length of %s", what);
	int e = reader_get32(rd, &n, where);
	if (e)
		return e;
	if (n < min || n > limit)
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
			    "%s has an absurd length of %" PRIu32 " bytes at byte %" PRIu64 " (allowed %" PRIu32 " to %" PRIu32 ")",
			    what, n, rd->pos - 4, min, limit);
	if (n > rd->size - rd->pos)
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
			    "truncated in %s at byte %" PRIu64 " (needs %" PRIu32 " bytes, the file ends at byte %" PRIu64 ")",
			    what, rd->pos, n, rd->size);
	unsigned char *buf = malloc((size_t)n + 1);
	if (!buf)
		return io_fail(rd->err, rd->errlen, GULLY_ENOMEM, rd->label, "out of memory for %s", what);
	e = get(rd, buf, n, what);
	if (e) {
		free(buf);
		return e;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return GULLY_OK;
}

/* A name field (tally, layer, process) into a fixed buffer. */
int reader_get_name(struct reader *rd, const char *what, uint32_t limit, char *name, size_t cap)
{
	unsigned char *buf;
	uint32_t n;
	int e = get_blob(rd, what, 1, limit, &buf, &n);
	if (e)
		return e;
	if (memchr(buf, '\0', n)) {
		free(buf);
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label, "%s contains a NUL byte", what);
	}
	memcpy(name, buf, n + 1 <= cap ? n + 1 : cap);
	name[cap - 1] = '\0';
	free(buf);
	return GULLY_OK;
}

static int text_field(struct reader *rd, const char *what, uint32_t limit, char **out)
{
	unsigned char *buf;
	uint32_t n;
	int e = get_blob(rd, what, 0, limit, &buf, &n);
	if (e)
		return e;
	if (memchr(buf, '\0', n)) {
		free(buf);
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label, "%s contains a NUL byte", what);
	}
	*out = (char *)buf;
	return GULLY_OK;
}

/* The parameters: "key=value" lines onto the defaults. Every key must be
 * known (a file from a newer gully with more keys is refused, by name);
 * keys the file lacks keep their defaults (a file from an older gully). */
static int parse_params(struct reader *rd, char *text, struct params *p)
{
	params_defaults(p);
	bool *seen = calloc((size_t)params_count(), sizeof *seen);
	if (!seen)
		return io_fail(rd->err, rd->errlen, GULLY_ENOMEM, rd->label, "out of memory");
	int e = GULLY_OK, line = 0;
	for (char *s = text; *s && !e;) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		line++;
		char shown[80];
		char *eq = strchr(s, '=');
		if (*s && !eq) {
			snapshot_printable(shown, sizeof shown, (unsigned char *)s, strlen(s));
			e = io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
				 "parameters line %d: '%s' is not key=value", line, shown);
		} else if (*s) {
			*eq = '\0';
			int i = params_find(s);
			snapshot_printable(shown, sizeof shown, (unsigned char *)s, strlen(s));
			if (i < 0) {
				e = io_fail(rd->err, rd->errlen, GULLY_EKEY, rd->label,
					 "unknown parameter '%s' (parameters line %d)", shown, line);
			} else if (seen[i]) {
				e = io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
					 "parameter '%s' given twice (parameters line %d)", shown, line);
			} else {
				seen[i] = true;
				e = params_set_text(p, i, eq + 1);
				if (e) {
					char val[80];
					snapshot_printable(val, sizeof val, (unsigned char *)eq + 1, strlen(eq + 1));
					io_fail(rd->err, rd->errlen, e, rd->label,
					     "parameter '%s': bad value '%s' (%s)", shown, val,
					     gully_strerror(e));
				}
			}
		}
		if (!nl)
			break;
		s = nl + 1;
	}
	free(seen);
	return e;
}

/* The magic first, so any other file is called what it is, not "truncated". */
static int read_magic(struct reader *rd)
{
	unsigned char magic[SNAPSHOT_MAGIC_LEN];
	size_t have = rd->size < SNAPSHOT_MAGIC_LEN ? (size_t)rd->size : SNAPSHOT_MAGIC_LEN;
	int e = get(rd, magic, have, "the magic");
	if (e)
		return e;
	if (memcmp(magic, SNAPSHOT_MAGIC, have) != 0)
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
			    "not a gully snapshot (wrong magic)");
	if (have < SNAPSHOT_MAGIC_LEN)
		return get(rd, magic + have, SNAPSHOT_MAGIC_LEN - have, "the magic");
	return GULLY_OK;
}

/* The version, the map's size and the particle and step counters. */
static int read_version_and_size(struct reader *rd, struct world *hdr, uint32_t *version)
{
	int e;
	if ((e = reader_get32(rd, version, "the version")))
		return e;
	if (*version < SNAPSHOT_VERSION_MIN || *version > SNAPSHOT_VERSION)
		return io_fail(rd->err, rd->errlen, GULLY_EVERSION, rd->label,
			    "format version %" PRIu32 " is not supported (this gully reads versions %u to %u)",
			    *version, SNAPSHOT_VERSION_MIN, SNAPSHOT_VERSION);
	uint32_t width, height;
	if ((e = reader_get32(rd, &width, "the width")) || (e = reader_get32(rd, &height, "the height")))
		return e;
	const uint32_t lo = (uint32_t)world_size_min(), hi = (uint32_t)world_size_max();
	if (width < lo || width > hi || height < lo || height > hi)
		return io_fail(rd->err, rd->errlen, GULLY_ESIZE, rd->label,
			    "absurd map size %" PRIu32 "x%" PRIu32 " (gully supports %d to %d cells a side)",
			    width, height, world_size_min(), world_size_max());
	hdr->width = (int)width;
	hdr->height = (int)height;
	if ((e = reader_get64(rd, &hdr->particles, "the particle counter")) ||
	    (e = reader_get64(rd, &hdr->steps, "the step counter")))
		return e;
	return GULLY_OK;
}

/* The named tallies: each known, none twice, every value finite. */
static int read_tallies(struct reader *rd, struct world *hdr)
{
	int e;
	uint32_t ntally;
	if ((e = reader_get32(rd, &ntally, "the tally count")))
		return e;
	if (ntally > SNAPSHOT_MAX_TALLIES)
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
			    "absurd tally count %" PRIu32 " (at most %u)", ntally, SNAPSHOT_MAX_TALLIES);
	bool seen[TALLY_COUNT] = {false};
	for (uint32_t i = 0; i < ntally; i++) {
		char what[96], name[SNAPSHOT_MAX_NAME + 1], shown[SNAPSHOT_MAX_NAME + 1];
		snprintf(what, sizeof what, "the name of tally %" PRIu32, i + 1);
		if ((e = reader_get_name(rd, what, SNAPSHOT_MAX_NAME, name, sizeof name)))
			return e;
		snapshot_printable(shown, sizeof shown, (unsigned char *)name, strlen(name));
		int t = world_tally_find(name);
		if (t < 0)
			return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label, "unknown tally '%s'", shown);
		if (seen[t])
			return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label, "duplicate tally '%s'", shown);
		seen[t] = true;
		unsigned char b[8];
		snprintf(what, sizeof what, "tally '%s'", shown);
		if ((e = get(rd, b, 8, what)))
			return e;
		hdr->tally[t] = get_f64le(b);
		if (!isfinite(hdr->tally[t]))
			return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
				    "tally '%s' is not a finite number", shown);
	}
	return GULLY_OK;
}

static int read_rng(struct reader *rd, struct world *hdr)
{
	int e;
	if ((e = reader_get64(rd, &hdr->rng.state, "the RNG state")) ||
	    (e = reader_get64(rd, &hdr->rng.inc, "the RNG increment")))
		return e;
	if (!(hdr->rng.inc & 1u))
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
			    "the RNG increment is even (PCG32 needs it odd)");
	return GULLY_OK;
}

/* The process (one this gully has) and its parameters, which must agree
 * with the header's map size. */
static int read_process_and_params(struct reader *rd, const struct world *hdr,
				   struct snapshot_info *info)
{
	int e;
	if ((e = reader_get_name(rd, "the process name", SNAPSHOT_MAX_PROCESS, info->process,
			  sizeof info->process)))
		return e;
	if (!process_find(info->process)) {
		char shown[sizeof info->process];
		snapshot_printable(shown, sizeof shown, (unsigned char *)info->process, strlen(info->process));
		return io_fail(rd->err, rd->errlen, GULLY_ENOTFOUND, rd->label,
			    "unknown process '%s' (this gully has %s)", shown, process_names());
	}
	char *ptext = NULL;
	if ((e = text_field(rd, "the parameters", SNAPSHOT_MAX_PARAMS_TEXT, &ptext)))
		return e;
	e = parse_params(rd, ptext, &info->params);
	free(ptext);
	if (e)
		return e;
	if (info->params.world.width != hdr->width || info->params.world.height != hdr->height)
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
			    "the parameters say %dx%d but the header says %dx%d",
			    info->params.world.width, info->params.world.height, hdr->width, hdr->height);
	return GULLY_OK;
}

/* The preset text and the process's state blob; an empty one is NULL. */
static int read_preset_and_state(struct reader *rd, struct snapshot_info *info)
{
	int e;
	if ((e = text_field(rd, "the preset text", SNAPSHOT_MAX_PRESET_TEXT, &info->preset_yaml)))
		return e;
	if (info->preset_yaml && !info->preset_yaml[0]) {
		free(info->preset_yaml);
		info->preset_yaml = NULL;
	}
	uint32_t slen;
	if ((e = get_blob(rd, "the process state", 0, SNAPSHOT_MAX_STATE, &info->state, &slen)))
		return e;
	info->state_len = slen;
	if (slen == 0) {
		free(info->state);
		info->state = NULL;
	}
	return GULLY_OK;
}

/* The layer count, then the CRC of all the header before it. */
static int read_layer_count_and_crc(struct reader *rd, uint32_t *layers)
{
	int e;
	if ((e = reader_get32(rd, layers, "the layer count")))
		return e;
	if (*layers < 1 || *layers > SNAPSHOT_MAX_LAYERS)
		return io_fail(rd->err, rd->errlen, GULLY_EFORMAT, rd->label,
			    "absurd layer count %" PRIu32 " (1 to %u)", *layers, SNAPSHOT_MAX_LAYERS);
	uint32_t computed = rd->crc, stored;
	if ((e = reader_get32(rd, &stored, "the header CRC")))
		return e;
	if (stored != computed)
		return io_fail(rd->err, rd->errlen, GULLY_ECORRUPT, rd->label,
			    "bad CRC in the header (stored %08" PRIx32 ", computed %08" PRIx32 ")",
			    stored, computed);
	return GULLY_OK;
}

/* The header, field by field in the file's order (gully-snapshot(5)). */
static int read_header(struct reader *rd, struct world *hdr, struct snapshot_info *info,
		       uint32_t *version, uint32_t *layers)
{
	int e;
	if ((e = read_magic(rd)) || (e = read_version_and_size(rd, hdr, version)) ||
	    (e = read_tallies(rd, hdr)) || (e = read_rng(rd, hdr)) ||
	    (e = read_process_and_params(rd, hdr, info)) || (e = read_preset_and_state(rd, info)))
		return e;
	return read_layer_count_and_crc(rd, layers);
}

int snapshot_read(FILE *fp, const char *label, unsigned flags, struct world **out,
		  struct snapshot_info *info, struct snapshot_report *rep_out,
		  char *err, size_t errlen)
{
	*out = NULL;
	memset(info, 0, sizeof *info);
	struct snapshot_report rep_local, *rep = rep_out ? rep_out : &rep_local;
	memset(rep, 0, sizeof *rep);
	if (err && errlen)
		err[0] = '\0';

	/* Sizes are checked against the file's real size, so it must have one
	 * (fmemopen streams have no descriptor and a fixed size). */
	struct stat st;
	int fd = fileno(fp);
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)))
		return io_fail(err, errlen, GULLY_EIO, label, "not a regular file");
	if (fseeko(fp, 0, SEEK_END) != 0)
		return io_fail(err, errlen, GULLY_EIO, label, "cannot seek (not a regular file?): %s",
			    strerror(errno));
	off_t end = ftello(fp);
	if (end < 0 || fseeko(fp, 0, SEEK_SET) != 0)
		return io_fail(err, errlen, GULLY_EIO, label, "cannot seek: %s", strerror(errno));

	struct reader rd = {fp, label, 0, (uint64_t)end, (uint32_t)crc32(0L, Z_NULL, 0), err, errlen};
	rep->file_size = rd.size;
	struct world hdr;
	memset(&hdr, 0, sizeof hdr);
	uint32_t nlayers = 0;
	int e = read_header(&rd, &hdr, info, &rep->version, &nlayers);
	struct layer_entry ent[SNAPSHOT_MAX_LAYERS];
	if (!e)
		e = snapshot_scan_layers(&rd, rep->version, nlayers, (size_t)hdr.width * (size_t)hdr.height, ent);
	/* Only now, with every size known to fit the file, the world. */
	struct world *w = NULL;
	if (!e && (e = world_create(&w, hdr.width, hdr.height)))
		io_fail(err, errlen, e, label, "cannot make a %dx%d world: %s", hdr.width, hdr.height,
		     gully_strerror(e));
	for (uint32_t i = 0; !e && i < nlayers; i++)
		e = snapshot_read_layer(&rd, w, ent, i, flags, rep);
	if (e) {
		world_destroy(w);
		snapshot_info_free(info);
		return e;
	}
	w->particles = hdr.particles;
	w->steps = hdr.steps;
	memcpy(w->tally, hdr.tally, sizeof w->tally);
	w->rng = hdr.rng;
	*out = w;
	return GULLY_OK;
}

int snapshot_load(const char *path, struct world **out, struct snapshot_info *info,
		  char *err, size_t errlen)
{
	*out = NULL;
	memset(info, 0, sizeof *info);
	FILE *fp = file_open_regular(path);
	if (!fp)
		return io_fail(err, errlen, GULLY_EIO, path, "cannot open: %s", file_strerror(errno));
	int e = snapshot_read(fp, path, 0, out, info, NULL, err, errlen);
	fclose(fp);
	return e;
}

void snapshot_info_free(struct snapshot_info *info)
{
	if (!info)
		return;
	free(info->preset_yaml);
	free(info->state);
	memset(info, 0, sizeof *info);
}

bool snapshot_is_name(const char *path)
{
	const char *dot = strrchr(path, '.');
	return dot && !strchr(dot, '/') && strcasecmp(dot, ".gsnap") == 0;
}
