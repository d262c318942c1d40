/* Fuzz target: the preset loader (libFuzzer entry point; replay.c runs it
 * over the seed corpus in `make check`).
 *
 * Beyond "no crash, no leak, no UB" it checks the loader's promises: an error
 * is one line naming the input; a failed load leaves *out alone; the libyaml
 * pass and libcyaml agree (a "libcyaml:" message means the first pass let
 * through something libcyaml refused); and what loads is valid and survives
 * a save/load round trip exactly. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/params.h"
#include "io/preset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what, const char *err)
{
	if (!ok) {
		fprintf(stderr, "fuzz_preset: %s (%s)\n", what, err);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct params p, sentinel;
	params_defaults(&p);
	p.world.seed = 77;
	sentinel = p;
	struct preset_meta m = {"x", "y"};
	char err[PRESET_ERR_MAX] = "";
	int rc = preset_load_text("fuzz", (const char *)data, size, &p, &m, err, sizeof err);
	if (rc) {
		check(strncmp(err, "fuzz", 4) == 0, "error does not name the input", err);
		check(!strchr(err, '\n'), "error is more than one line", err);
		/* "fuzz:LINE: libcyaml: ..." or "fuzz: libcyaml: ..." (not a quote of
		 * the input, which never comes first). */
		const char *after = err + 4 + strspn(err + 4, ":0123456789");
		check(strncmp(after, " libcyaml:", 10) != 0, "first pass and libcyaml disagree", err);
		check(memcmp(&p, &sentinel, sizeof p) == 0, "failed load changed *out", err);
		return 0;
	}
	int bad;
	check(params_validate(&p, &bad) == 0, "loaded an invalid value", "");
	char *text;
	check(preset_format(&p, &m, &text) == 0, "format failed", "");
	struct params q;
	struct preset_meta m2;
	rc = preset_load_text("again", text, strlen(text), &q, &m2, err, sizeof err);
	check(rc == 0, "saved text does not load", err);
	for (int i = 0; i < params_count(); i++)
		check(params_get(&p, i) == params_get(&q, i), "round trip changed a value",
		      params_def(i)->key);
	check(strcmp(m.description, m2.description) == 0, "round trip changed description",
	      m.description);
	check(strcmp(m.process, m2.process) == 0, "round trip changed process", m.process);
	free(text);
	return 0;
}
