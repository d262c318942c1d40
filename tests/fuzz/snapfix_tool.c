/* snapfix FILE: rewrites a .gsnap file's CRCs in place (snapfix.c), so a
 * shell test can patch a value into a real snapshot and see what the loader
 * makes of it past the CRCs.
 * snapfix --v1 FILE: rewrites it in format version 1, where every layer's
 * cells lie at fixed places (a test patches them there). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/snapshot.h"
#include "snapfix.h"

static int rewrite_v1(const char *path)
{
	char err[512];
	struct world *w;
	struct snapshot_info info;
	if (snapshot_load(path, &w, &info, err, sizeof err) != 0) {
		fprintf(stderr, "snapfix: %s\n", err);
		return 1;
	}
	FILE *fp = fopen(path, "wb");
	int e = !fp || snapshot_write_version(fp, path, w, &info, 1, err, sizeof err) != 0;
	if (fp && fclose(fp) != 0)
		e = 1;
	if (e)
		fprintf(stderr, "snapfix: %s: cannot rewrite\n", path);
	world_destroy(w);
	snapshot_info_free(&info);
	return e;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--v1") == 0)
		return rewrite_v1(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: snapfix [--v1] FILE.gsnap\n");
		return 2;
	}
	FILE *fp = fopen(argv[1], "r+b");
	if (!fp || fseek(fp, 0, SEEK_END) != 0) {
		perror(argv[1]);
		return 1;
	}
	long n = ftell(fp);
	uint8_t *buf = n > 0 ? malloc((size_t)n) : NULL;
	if (!buf || fseek(fp, 0, SEEK_SET) != 0 || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		perror(argv[1]);
		return 1;
	}
	int fixed = snapfix_crcs(buf, (size_t)n);
	if (fseek(fp, 0, SEEK_SET) != 0 || fwrite(buf, 1, (size_t)n, fp) != (size_t)n ||
	    fclose(fp) != 0) {
		perror(argv[1]);
		return 1;
	}
	free(buf);
	printf("%d CRCs written\n", fixed);
	return 0;
}
