/* snapfix FILE: rewrites a .gsnap file's CRCs in place (snapfix.c), so a
 * shell test can patch a value into a real snapshot and see what the loader
 * makes of it past the CRCs. */
#include <stdio.h>
#include <stdlib.h>

#include "snapfix.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: snapfix FILE.gsnap\n");
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
