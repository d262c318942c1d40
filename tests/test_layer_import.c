/* Loading a layer from PGM and .r16 files, and refusing broken ones with a
 * message that names the file. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/error.h"
#include "io/layer_import.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/gully-layer-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	rmdir(dir);
	return 0;
}

/* Writes `len` bytes to dir/name; returns the path (static buffer). */
static const char *put(const char *name, const void *data, size_t len)
{
	static char path[128];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	return path;
}

static void load_ok(const char *path, int ew, int eh, const float *expect)
{
	float *v;
	int w, h;
	char err[256];
	int rc = layer_import_read(path, &v, &w, &h, err, sizeof err);
	if (rc)
		fail_msg("%s", err);
	assert_int_equal(w, ew);
	assert_int_equal(h, eh);
	for (int i = 0; i < w * h; i++)
		assert_double_equal(v[i], expect[i], 1e-7);
	free(v);
	unlink(path);
}

static void load_bad(const char *path, int code, const char *words)
{
	float *v = (float *)1;
	int w, h;
	char err[256] = "";
	assert_int_equal(layer_import_read(path, &v, &w, &h, err, sizeof err), code);
	assert_null(v);
	if (!strstr(err, path) || !strstr(err, words))
		fail_msg("message '%s' lacks the path or '%s'", err, words);
	unlink(path);
}

static void test_pgm_binary(void **state)
{
	(void)state;
	const char p8[] = "P5\n# a comment\n3 2\n255\n\x00\x33\x66\x99\xcc\xff";
	const float e8[] = {0, 0.2f, 0.4f, 0.6f, 0.8f, 1};
	load_ok(put("a.pgm", p8, sizeof p8 - 1), 3, 2, e8);
	/* 16-bit samples are big-endian. */
	const unsigned char p16[] = "P5 2 1 1000\n\x01\xf4\x03\xe8";
	const float e16[] = {0.5f, 1};
	load_ok(put("b.pgm", p16, sizeof p16 - 1), 2, 1, e16);
}

static void test_r16(void **state)
{
	(void)state;
	/* Little-endian 16-bit, 2x2. */
	const unsigned char r[] = {0, 0, 0xff, 0xff, 0xff, 0x7f, 0x00, 0x80};
	const float e[] = {0, 1, 32767 / 65535.0f, 32768 / 65535.0f};
	load_ok(put("d.r16", r, sizeof r), 2, 2, e);
}

static void test_rejects(void **state)
{
	(void)state;
	char missing[128];
	snprintf(missing, sizeof missing, "%s/none.pgm", dir);
	load_bad(missing, GULLY_EIO, "No such file");
	/* A PNG is read now: a damaged one says so. */
	load_bad(put("e.png", "\x89PNG....", 8), GULLY_EFORMAT, "not a PNG");
	load_bad(put("f.pgm", "P5 3 2 255\n\x01\x02", 13), GULLY_EFORMAT, "truncated");
	load_bad(put("g.pgm", "P5 3 2 0\n\x01\x02", 11), GULLY_EFORMAT, "maxval");
	load_bad(put("h.pgm", "P5 3 2 70000\n", 13), GULLY_EFORMAT, "maxval");
	load_bad(put("i.pgm", "P5 0 2 255\n", 11), GULLY_ESIZE, "size");
	/* A huge claimed size is refused before anything is allocated. */
	load_bad(put("j.pgm", "P5 99999 99999 255\n", 19), GULLY_ESIZE, "size");
	load_bad(put("k.pgm", "P5 3 x 255\n", 11), GULLY_EFORMAT, "header");
	load_bad(put("l.pgm", "P2 2 1 9\n3 12\n", 14), GULLY_EFORMAT, "P5");
	load_bad(put("n.r16", "\x01\x02\x03", 3), GULLY_EFORMAT, "square");
	load_bad(put("o.r16", "\x01\x02\x03\x04\x05\x06", 6), GULLY_EFORMAT, "square");
	load_bad(put("p.r16", "", 0), GULLY_EFORMAT, "square");
	load_bad(put("q.gsnap:nolayer", "", 0), GULLY_ENOTFOUND, "nolayer");
	load_bad(put("r.gsnap", "GSNAPjunk", 9), GULLY_EFORMAT, "r.gsnap");
}

static void test_into_hardness(void **state)
{
	(void)state;
	struct world *w;
	assert_int_equal(world_create(&w, 16, 16), 0);
	/* A left-to-right ramp, 4x1, stretched over the map. */
	const char *path = put("ramp.pgm", "P5 4 1 3\n\x00\x01\x02\x03", 13);
	char err[256];
	assert_int_equal(layer_import_hardness(w, path, err, sizeof err), 0);
	assert_true(*world_at(w->layer[LAYER_HARDNESS], w, 0, 9) == 0.0f);
	assert_true(*world_at(w->layer[LAYER_HARDNESS], w, 15, 3) == 1.0f);
	/* Cell centre 6.5 of 16 is source x 6.5 / 4 - 0.5 = 1.125: (1 + 0.125) / 3. */
	assert_double_equal(*world_at(w->layer[LAYER_HARDNESS], w, 6, 0), 0.375, 1e-6);
	unlink(path);
	assert_int_equal(layer_import_hardness(w, path, err, sizeof err), GULLY_EIO);
	world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pgm_binary),
		cmocka_unit_test(test_r16),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_into_hardness),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
