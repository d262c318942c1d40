/* Presets: round-trips, every malformed case with its exact message, the
 * locale, size and nesting limits, and finding presets by name. */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/error.h"
#include "core/base/process.h"
#include "core/base/params.h"
#include "core/base/rng.h"
#include "io/preset.h"

static char tmpdir[256];

static int make_tmpdir(void **state)
{
	(void)state;
	const char *t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof tmpdir, "%s/gully-preset-XXXXXX", t && t[0] ? t : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			char sub[1024];
			snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
			remove_tree(sub);
		}
		closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static int drop_tmpdir(void **state)
{
	(void)state;
	remove_tree(tmpdir);
	return 0;
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

static void assert_params_equal(const struct params *a, const struct params *b)
{
	for (int i = 0; i < params_count(); i++)
		if (params_get(a, i) != params_get(b, i))
			fail_msg("%s: %.17g != %.17g", params_def(i)->key, params_get(a, i),
				 params_get(b, i));
}

/* Messages that list sections, processes or choices are built from the
 * registries, so the tests follow them as those grow: "{known}",
 * "{processes}" and "{generators}". */
static const char *expand(const char *msg)
{
	static char out[1024];
	char known[256] = "description, process";
	struct param_section sec;
	for (int k = 0; params_section(k, &sec); k++) {
		strcat(known, ", ");
		strcat(known, sec.name);
	}
	out[0] = '\0';
	while (*msg) {
		if (strncmp(msg, "{known}", 7) == 0) {
			strcat(out, known);
			msg += 7;
		} else if (strncmp(msg, "{generators}", 12) == 0) {
			strcat(out, params_def(params_find("terrain.generator"))->choices);
			msg += 12;
		} else if (strncmp(msg, "{processes}", 11) == 0) {
			strcat(out, process_names());
			msg += 11;
		} else {
			size_t n = strlen(out);
			out[n] = *msg++;
			out[n + 1] = '\0';
		}
	}
	return out;
}

static int load(const char *text, struct params *p, struct preset_meta *m, char *err)
{
	return preset_load_text("t.yaml", text, strlen(text), p, m, err, PRESET_ERR_MAX);
}

/* ---- round-trips ---- */

static void test_defaults_round_trip(void **state)
{
	(void)state;
	struct params def, p;
	params_defaults(&def);
	char *text;
	assert_int_equal(preset_to_yaml(&def, &text), GULLY_OK);
	/* Every key is written, under its section. */
	for (int i = 0; i < params_count(); i++) {
		char line[128];
		snprintf(line, sizeof line, "\n  %s: ", params_def(i)->name);
		assert_non_null(strstr(text, line));
	}
	assert_non_null(strstr(text, "# gully preset"));
	/* Ranges in plain decimals, as a person writes them: "(1 to 1000)",
	 * not "(1 to 1e+03)". */
	for (const char *c = strchr(text, '('); c; c = strchr(c + 1, '(')) {
		const size_t lo = strspn(c + 1, "0123456789.-+e");
		if (lo == 0 || strncmp(c + 1 + lo, " to ", 4) != 0)
			continue; /* not a range: a parenthesis in help text */
		const char *end = strchr(c, ')');
		assert_non_null(end);
		for (const char *d = c; d < end; d++)
			if (*d == 'e' && (d[1] == '+' || d[1] == '-'))
				fail_msg("a range with an exponent: %.40s", c);
	}
	assert_non_null(strstr(text, "(1 to 1000)"));
	memset(&p, 0x5a, sizeof p);
	char err[PRESET_ERR_MAX];
	assert_int_equal(load(text, &p, NULL, err), GULLY_OK);
	assert_params_equal(&p, &def);
	free(text);
}

static void random_params(struct params *p, struct rng *r)
{
	params_defaults(p);
	for (int i = 0; i < params_count(); i++) {
		const struct param_def *d = params_def(i);
		double u = rng_double(r);
		double v;
		switch (d->type) {
		case PARAM_DOUBLE:
			/* Now and then an end of the range, the likeliest to round badly. */
			v = u < 0.1 ? d->min : u > 0.9 ? d->max : d->min + rng_double(r) * (d->max - d->min);
			break;
		case PARAM_INT:
			v = floor(d->min + u * (d->max - d->min + 1));
			if (v > d->max)
				v = d->max;
			break;
		case PARAM_BOOL:
			v = u < 0.5;
			break;
		default:
			v = floor(u * params_choice_count(d));
			break;
		}
		assert_int_equal(params_set(p, i, v), GULLY_OK);
	}
}

static void test_random_round_trip_through_file(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 20240601, 7);
	char path[512], err[PRESET_ERR_MAX];
	snprintf(path, sizeof path, "%s/round.yaml", tmpdir);
	for (int iter = 0; iter < 300; iter++) {
		struct params p, q;
		random_params(&p, &r);
		struct preset_meta m = {"", "particles"}, m2;
		snprintf(m.description, sizeof m.description,
			 "run %d: \"quotes\", back\\slash, #hash, colon: ok, 3 °C", iter);
		assert_int_equal(preset_save(path, &p, &m, err, sizeof err), GULLY_OK);
		params_defaults(&q);
		int rc = preset_load_file(path, &q, &m2, err, sizeof err);
		if (rc)
			fail_msg("%s", err);
		assert_params_equal(&q, &p);
		assert_string_equal(m2.description, m.description);
		assert_string_equal(m2.process, "particles");
	}
	/* The save was atomic: no temporary file is left beside it. */
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	int files = 0;
	while ((e = readdir(d)))
		files += e->d_name[0] != '.';
	closedir(d);
	assert_int_equal(files, 1);
	unlink(path);
}

static void test_merges_onto_defaults(void **state)
{
	(void)state;
	struct params p, def;
	params_defaults(&def);
	/* Whatever *out held before, loading starts from the defaults. */
	params_defaults(&p);
	p.particles.friction = 0.3;
	p.world.width = 512;
	struct preset_meta m;
	char err[PRESET_ERR_MAX];
	assert_int_equal(load("description: two changes\nprocess: particles\n"
			      "particles:\n  dt: 0.5\nterrain:\n  generator: ridged\nworld:\n",
			      &p, &m, err),
			 GULLY_OK);
	assert_string_equal(m.description, "two changes");
	assert_string_equal(m.process, "particles");
	int changed = 0;
	for (int i = 0; i < params_count(); i++)
		changed += params_get(&p, i) != params_get(&def, i);
	assert_int_equal(changed, 2);
	assert_double_equal(p.particles.dt, 0.5, 0);
	assert_int_equal(p.terrain.generator, 1);
	/* Flow style, quoted keys, comments and yes/no are all YAML. */
	assert_int_equal(load("{particles: {\"friction\": 0.25, deposit_on_death: no}} # c\n",
			      &p, &m, err),
			 GULLY_OK);
	assert_double_equal(p.particles.friction, 0.25, 0);
	assert_false(p.particles.deposit_on_death);
	assert_string_equal(m.description, "");
	assert_int_equal(load("{}", &p, NULL, err), GULLY_OK);
	assert_params_equal(&p, &def);
	/* A description with line breaks (say, typed in the explorer) is saved
	 * as one line, so the file loads back. */
	struct preset_meta odd = {"a\nb\tc\xc2\x85" "d\xe2\x80\xa8" "e \xc3\xa9", ""};
	char *text;
	assert_int_equal(preset_format(&def, &odd, &text), GULLY_OK);
	assert_int_equal(load(text, &p, &m, err), GULLY_OK);
	assert_string_equal(m.description, "a b c d e \xc3\xa9");
	free(text);
}

/* ---- malformed input: exact one-line messages, nothing applied ---- */

struct bad_case {
	const char *text;
	const char *message;
};

static const struct bad_case bad_cases[] = {
	/* numbers */
	{"particles:\n  dt: 0.25x\n", "t.yaml:2: particles.dt: '0.25x' is not a finite decimal number"},
	{"world:\n  width: 010\n",
	 "t.yaml:2: world.width: '010' has a leading zero (YAML 1.1 reads it as octal); write it without"},
	{"world:\n  width: 0x20\n", "t.yaml:2: world.width: '0x20' is not a whole decimal number"},
	{"world:\n  width: 32.5\n", "t.yaml:2: world.width: '32.5' is not a whole decimal number"},
	{"particles:\n  dt: .nan\n", "t.yaml:2: particles.dt: '.nan' is not a finite decimal number"},
	{"particles:\n  dt: NaN\n", "t.yaml:2: particles.dt: 'NaN' is not a finite decimal number"},
	{"particles:\n  dt: .inf\n", "t.yaml:2: particles.dt: '.inf' is not a finite decimal number"},
	{"particles:\n  dt: -inf\n", "t.yaml:2: particles.dt: '-inf' is not a finite decimal number"},
	{"particles:\n  dt: 1e400\n", "t.yaml:2: particles.dt: '1e400' is not a finite decimal number"},
	{"particles:\n  dt: 0,5\n", "t.yaml:2: particles.dt: '0,5' is not a finite decimal number"},
	{"particles:\n  dt: 5\n", "t.yaml:2: particles.dt: 5 is out of range (0.05 to 2)"},
	{"world:\n  width: 8\n", "t.yaml:2: world.width: 8 is out of range (16 to 4096)"},
	{"particles:\n  dt:\n", "t.yaml:2: particles.dt: no value given"},
	/* wrong type */
	{"particles:\n  dt: \"0.5\"\n", "t.yaml:2: particles.dt: expected a number, found quoted text"},
	{"particles:\n  dt: true\n", "t.yaml:2: particles.dt: 'true' is not a finite decimal number"},
	{"particles:\n  dt: [1, 2]\n", "t.yaml:2: particles.dt: expected a single value, found a sequence"},
	{"particles:\n  dt: {a: 1}\n", "t.yaml:2: particles.dt: expected a single value, found a mapping"},
	{"particles:\n  deposit_on_death: 2\n",
	 "t.yaml:2: particles.deposit_on_death: '2' is not true or false"},
	{"particles:\n  deposit_on_death: 'yes'\n",
	 "t.yaml:2: particles.deposit_on_death: expected true or false, found quoted text"},
	{"terrain:\n  generator: mountains\n",
	 "t.yaml:2: terrain.generator: 'mountains' is not one of {generators}"},
	{"particles: 5\n",
	 "t.yaml:1: particles: expected a mapping of parameters (such as 'dt: 1.0'), found a single value"},
	{"particles: [dt, 1]\n",
	 "t.yaml:1: particles: expected a mapping of parameters (such as 'dt: 1.0'), found a sequence"},
	{"description: [a]\n", "t.yaml:1: description: expected text, found a sequence"},
	{"description: \"two\\nlines\"\n", "t.yaml:1: description: must be one line of printable text"},
	/* YAML 1.1 reads NEL (found by fuzzing), LS and PS as line breaks. */
	{"description: \"a\\N0\"\n", "t.yaml:1: description: must be one line of printable text"},
	{"description: \"a\\L\"\n", "t.yaml:1: description: must be one line of printable text"},
	{"process: hydrolog\n", "t.yaml:1: process: no process named 'hydrolog' (one of {processes})"},
	/* unknown and duplicate keys */
	{"particles:\n  dt: 0.5\n  bogus: 1\n",
	 "t.yaml:3: particles.bogus: unknown parameter (see `gully presets default`)"},
	{"partciles:\n  dt: 1\n",
	 "t.yaml:1: unknown section 'partciles' (known: {known})"},
	{"# a comment\ndt: 1\n",
	 "t.yaml:2: unknown section 'dt'; a parameter goes under its section: particles.dt "
	 "(known: {known})"},
	{"\n\nparticles:\n  dt: 0.5\n  dt: 0.7\n",
	 "t.yaml:5: particles.dt: given twice (first on line 4)"},
	{"world: {seed: 1}\nparticles: {}\nworld: {seed: 2}\n",
	 "t.yaml:3: world: section given twice (first on line 1)"},
	{"description: a\ndescription: b\n", "t.yaml:2: description: given twice (first on line 1)"},
	{"? [a, b]\n: 1\n", "t.yaml:1: a key must be a name, not a sequence"},
	/* shapes and YAML features a preset does not use */
	{"", "t.yaml:1: empty file: a preset names at least one section (write '{}' for all defaults)"},
	{"# nothing\n\n",
	 "t.yaml:1: empty file: a preset names at least one section (write '{}' for all defaults)"},
	{"---\n",
	 "t.yaml:2: empty document: a preset names at least one section (write '{}' for all defaults)"},
	{"- particles\n",
	 "t.yaml:1: the top level must be a mapping of sections (such as 'particles:'), not a sequence"},
	{"0.5\n",
	 "t.yaml:1: the top level must be a mapping of sections (such as 'particles:'), not a single value"},
	{"---\nworld: {}\n---\nworld: {}\n",
	 "t.yaml:3: a preset is one YAML document; remove the second '---'"},
	{"world:\n  seed: &s 5\n  width: *s\n",
	 "t.yaml:2: world.seed: anchors (&name) are not supported in presets"},
	{"world:\n  seed: *s\n", "t.yaml:2: world.seed: aliases (*name) are not supported in presets"},
	{"world: {width: !!int 32}\n", "t.yaml:1: world.width: tags (!name) are not supported in presets"},
	/* not YAML at all */
	{"\x01\x02\x7f garbage", "t.yaml:1: not valid YAML: control characters are not allowed (column 1)"},
	{"world:\n  seed: \xff\xfe\n",
	 "t.yaml:2: not valid YAML: invalid leading UTF-8 octet (column 9)"},
	{"world:\n  seed: 1\n bad indent: 2\n",
	 "t.yaml:3: not valid YAML: did not find expected key while parsing a block mapping (column 2)"},
	{"particles: {dt: 1\n",
	 "t.yaml:2: not valid YAML: did not find expected ',' or '}' while parsing a flow mapping (column 1)"},
};

static void test_malformed_cases(void **state)
{
	(void)state;
	struct params def;
	params_defaults(&def);
	for (size_t k = 0; k < sizeof bad_cases / sizeof bad_cases[0]; k++) {
		struct params p;
		params_defaults(&p);
		p.world.seed = 99; /* a sentinel: a failed load must not touch *out */
		struct preset_meta m = {"keep", "keep"};
		char err[PRESET_ERR_MAX] = "";
		int rc = load(bad_cases[k].text, &p, &m, err);
		if (rc == GULLY_OK)
			fail_msg("case %zu loaded: %s", k, bad_cases[k].text);
		const char *want = expand(bad_cases[k].message);
		if (strcmp(err, want) != 0)
			fail_msg("case %zu:\n  got  '%s'\n  want '%s'", k, err, want);
		assert_null(strchr(err, '\n'));
		assert_int_equal(p.world.seed, 99);
		assert_string_equal(m.description, "keep");
	}
}

static void test_nothing_half_applied(void **state)
{
	(void)state;
	struct params p, before;
	params_defaults(&p);
	p.particles.friction = 0.2;
	before = p;
	char err[PRESET_ERR_MAX];
	/* Good values before and after the bad one in file order. */
	assert_int_not_equal(load("world: {seed: 5, width: 64}\nparticles:\n  friction: 0.4\n"
				  "  dt: 9\nterrain: {octaves: 3}\n",
				  &p, NULL, err),
			     GULLY_OK);
	assert_string_equal(err, "t.yaml:4: particles.dt: 9 is out of range (0.05 to 2)");
	assert_memory_equal(&p, &before, sizeof p);
}

static void test_huge_and_deep_input(void **state)
{
	(void)state;
	char err[PRESET_ERR_MAX];
	struct params p;
	params_defaults(&p);
	/* Deeply nested flow and block input stops at the first bad level. */
	size_t n = 200000;
	char *deep = malloc(n + 64);
	assert_non_null(deep);
	memset(deep, '[', n);
	deep[n] = '\0';
	assert_int_not_equal(preset_load_text("d.yaml", deep, n, &p, NULL, err, sizeof err), 0);
	assert_string_equal(err, "d.yaml:1: the top level must be a mapping of sections "
				 "(such as 'particles:'), not a sequence");
	strcpy(deep, "particles: {dt: ");
	memset(deep + 16, '{', n - 16);
	deep[n] = '\0';
	assert_int_not_equal(preset_load_text("d.yaml", deep, n, &p, NULL, err, sizeof err), 0);
	assert_string_equal(err, "d.yaml:1: particles.dt: expected a single value, found a mapping");
	/* Indented block mappings, one level per line. */
	size_t at = 0;
	for (int lvl = 0; lvl < 200 && at + 512 < n; lvl++) {
		memset(deep + at, ' ', (size_t)lvl);
		at += (size_t)lvl;
		at += (size_t)sprintf(deep + at, "%s:\n", lvl == 0 ? "world" : lvl == 1 ? "seed" : "x");
	}
	deep[at] = '\0';
	assert_int_not_equal(preset_load_text("d.yaml", deep, at, &p, NULL, err, sizeof err), 0);
	assert_string_equal(err, "d.yaml:3: world.seed: expected a single value, found a mapping");
	free(deep);

	/* Over the size cap: refused before parsing, from memory and from a file. */
	size_t big = PRESET_MAX_BYTES + 1;
	char *text = malloc(big);
	assert_non_null(text);
	memset(text, '#', big);
	assert_int_equal(preset_load_text("big.yaml", text, big, &p, NULL, err, sizeof err),
			 GULLY_EFORMAT);
	assert_string_equal(err, "big.yaml: larger than 256 KiB, so not a preset");
	char path[512];
	snprintf(path, sizeof path, "%s/big.yaml", tmpdir);
	write_file(path, text, big);
	assert_int_not_equal(preset_load_file(path, &p, NULL, err, sizeof err), 0);
	assert_non_null(strstr(err, "big.yaml: larger than 256 KiB, so not a preset"));
	unlink(path);
	free(text);

	/* A "billion laughs" needs aliases, which are refused at the first. */
	assert_int_not_equal(load("a: &a [x, x]\nb: &b [*a, *a]\n", &p, NULL, err), 0);
	assert_string_equal(err, expand("t.yaml:1: unknown section 'a' (known: {known})"));
	assert_int_not_equal(load("description: &a x\nprocess: *a\n", &p, NULL, err), 0);
	assert_string_equal(err, "t.yaml:1: description: anchors (&name) are not supported in presets");
}

static void test_binary_garbage_never_loads(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 99, 1);
	char buf[600], err[PRESET_ERR_MAX];
	for (int iter = 0; iter < 2000; iter++) {
		size_t len = 1 + rng_next(&r) % sizeof buf;
		for (size_t i = 0; i < len; i++)
			buf[i] = (char)(rng_next(&r) & 0xff);
		buf[0] = '\x01'; /* never valid YAML; the rest is noise */
		struct params p;
		params_defaults(&p);
		err[0] = '\0';
		assert_int_not_equal(preset_load_text("g", buf, len, &p, NULL, err, sizeof err), 0);
		assert_true(strncmp(err, "g:", 2) == 0);
		assert_null(strchr(err, '\n'));
	}
	/* A NUL inside otherwise fine text. */
	static const char nul[] = "world:\n  seed: 1\0\n";
	struct params p;
	assert_int_not_equal(preset_load_text("n", nul, sizeof nul - 1, &p, NULL, err, sizeof err), 0);
	assert_string_equal(err, "n:2: not valid YAML: control characters are not allowed (column 10)");
}

/* ---- the locale ---- */

static void test_numbers_ignore_the_locale(void **state)
{
	(void)state;
	static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
					    "ru_RU.UTF-8", "nl_NL.UTF-8"};
	const char *got = NULL;
	for (size_t i = 0; i < sizeof names / sizeof names[0] && !got; i++)
		if (setlocale(LC_ALL, names[i]) && strcmp(localeconv()->decimal_point, ",") == 0)
			got = names[i];
	if (!got) {
		setlocale(LC_ALL, "C");
		print_message("no comma-decimal locale installed (tried de_DE.UTF-8 and others); "
			      "generate one with `localedef -i de_DE -f UTF-8 de_DE.UTF-8`\n");
		skip();
	}
	/* The locale is really active: the C library now reads "0,5". */
	assert_double_equal(strtod("0,5", NULL), 0.5, 0);
	struct params p, def;
	params_defaults(&def);
	char err[PRESET_ERR_MAX], *text;
	assert_int_equal(load("particles: {dt: 0.25, friction: 1.5e-1}\n", &p, NULL, err), GULLY_OK);
	assert_double_equal(p.particles.dt, 0.25, 0);
	assert_double_equal(p.particles.friction, 0.15, 0);
	assert_int_not_equal(load("particles:\n  dt: 0,25\n", &p, NULL, err), GULLY_OK);
	assert_string_equal(err, "t.yaml:2: particles.dt: '0,25' is not a finite decimal number");
	assert_int_equal(preset_to_yaml(&def, &text), GULLY_OK);
	assert_non_null(strstr(text, "  dt: 1.2 "));
	assert_null(strstr(text, "1,2"));
	assert_int_equal(load(text, &p, NULL, err), GULLY_OK);
	assert_params_equal(&p, &def);
	free(text);
	/* And the caller's locale is as it was. */
	assert_string_equal(localeconv()->decimal_point, ",");
	setlocale(LC_ALL, "C");
}

/* ---- finding presets ---- */

/* Two preset directories on $GULLY_PRESET_PATH, a and b (its names into
 * a and b), and $XDG_DATA_HOME under tmpdir; made once, set each time. */
static void find_dirs(char a[512], char b[512])
{
	char path[600];
	snprintf(a, 512, "%s/a", tmpdir);
	snprintf(b, 512, "%s/b", tmpdir);
	if (mkdir(a, 0700) != 0) {
		assert_int_equal(errno, EEXIST);
	} else {
		assert_int_equal(mkdir(b, 0700), 0);
		snprintf(path, sizeof path, "%s/river.yaml", a);
		write_file(path, "description: from a\nworld: {seed: 1}\n", 36);
		snprintf(path, sizeof path, "%s/river.yaml", b);
		write_file(path, "description: from b\nworld: {seed: 2}\n", 36);
		snprintf(path, sizeof path, "%s/rain.yaml", b);
		write_file(path, "description: rain\nprocess: sph\nsph: {x: 1}\n", 43);
		snprintf(path, sizeof path, "%s/notes.txt", b);
		write_file(path, "x", 1);
		/* A name -p cannot take: listed refused, said why, never completed. */
		snprintf(path, sizeof path, "%s/ri valley.yaml", a);
		write_file(path, "world: {seed: 3}\n", 17);
	}
	char env[1100];
	snprintf(env, sizeof env, "%s::%s", a, b);
	setenv("GULLY_PRESET_PATH", env, 1);
	snprintf(env, sizeof env, "%s/xdg", tmpdir);
	setenv("XDG_DATA_HOME", env, 1);
}

static void test_find_and_list(void **state)
{
	(void)state;
	char a[512], b[512], path[600], err[PRESET_ERR_MAX];
	find_dirs(a, b);

	assert_true(preset_is_file("./river"));
	assert_true(preset_is_file("river.yaml"));
	assert_false(preset_is_file("river"));
	assert_false(preset_name_ok("../x"));
	assert_false(preset_name_ok(".hidden"));
	assert_true(preset_name_ok("lake-chain_2.v1"));

	/* The first directory wins. */
	assert_int_equal(preset_resolve("river", path, sizeof path), GULLY_OK);
	assert_true(strncmp(path, a, strlen(a)) == 0);
	struct params p;
	struct preset_meta m;
	assert_int_equal(preset_load("river", &p, &m, err, sizeof err), GULLY_OK);
	assert_int_equal(p.world.seed, 1);
	assert_string_equal(m.description, "from a");
	assert_int_equal(preset_load("nope", &p, &m, err, sizeof err), GULLY_ENOTFOUND);
	assert_string_equal(err, "no preset named 'nope' (see `gully presets`)");
	assert_int_equal(preset_load("ri valley", &p, &m, err, sizeof err), GULLY_ENOTFOUND);
	assert_non_null(strstr(err, "'ri valley' is not a preset name"));
	assert_non_null(strstr(err, "/a/ri valley.yaml"));
	assert_int_equal(preset_load("no such", &p, &m, err, sizeof err), GULLY_ENOTFOUND);
	assert_non_null(strstr(err, "no preset named 'no such' (a name is letters"));
	assert_int_equal(preset_resolve("../etc/passwd", path, sizeof path), GULLY_OK);
	assert_string_equal(path, "../etc/passwd"); /* a path is a path, taken as given */

	/* Listing: sorted, shadowed names once, a preset for an unknown process
	 * still listed with its description. */
	struct preset_entry *list;
	int n, rain = -1, river = -1, lake = -1, valley = -1;
	assert_int_equal(preset_list(&list, &n), GULLY_OK);
	for (int i = 0; i < n; i++) {
		if (i > 0)
			assert_true(strcmp(list[i - 1].name, list[i].name) < 0);
		assert_true(list[i].refused == (strcmp(list[i].name, "ri valley") == 0));
		if (strcmp(list[i].name, "ri valley") == 0)
			valley = i;
		else if (strcmp(list[i].name, "rain") == 0)
			rain = i;
		else if (strcmp(list[i].name, "river") == 0)
			river = i;
		else if (strcmp(list[i].name, "lake-chain") == 0)
			lake = i;
	}
	assert_true(rain >= 0 && river >= 0 && valley >= 0);
	assert_string_equal(list[rain].meta.description, "rain");
	assert_string_equal(list[rain].meta.process, "sph");
	assert_string_equal(list[river].meta.description, "from a");
	/* $GULLY_PRESET_PATH comes first; the shipped presets are still there
	 * after it (a user's path hid them all). */
	assert_true(lake >= 0);
	preset_list_free(list, n);
	assert_int_equal(preset_resolve("lake-chain", path, sizeof path), GULLY_OK);
	assert_true(strncmp(path, a, strlen(a)) != 0 && strncmp(path, b, strlen(b)) != 0);
	unsetenv("GULLY_PRESET_PATH");
	unsetenv("XDG_DATA_HOME");
}

/* Saving by name goes to $XDG_DATA_HOME/gully/presets, made on demand,
 * and is then found by name and completed. */
static void test_save_and_complete(void **state)
{
	(void)state;
	char a[512], b[512], err[PRESET_ERR_MAX];
	find_dirs(a, b);
	struct params p;
	struct preset_meta m;
	int n;
	params_defaults(&p);
	p.world.seed = 1234;
	struct preset_meta sm = {"mine", "particles"};
	char saved[600];
	assert_int_equal(preset_save_named("ri-mine", &p, &sm, saved, sizeof saved, err, sizeof err),
			 GULLY_OK);
	assert_non_null(strstr(saved, "/xdg/gully/presets/ri-mine.yaml"));
	assert_int_equal(preset_save_named("../x", &p, &sm, NULL, 0, err, sizeof err), GULLY_EINVAL);
	assert_int_equal(preset_load("ri-mine", &p, &m, err, sizeof err), GULLY_OK);
	assert_int_equal(p.world.seed, 1234);
	char **names;
	assert_int_equal(preset_complete("ri", &names, &n), GULLY_OK);
	/* Sorted, with the shipped ones (ridges-and-plateaus, river-valley). */
	bool mine = false, river_found = false;
	for (int i = 0; i < n; i++) {
		assert_true(strncmp(names[i], "ri", 2) == 0);
		assert_true(i == 0 || strcmp(names[i - 1], names[i]) < 0);
		assert_string_not_equal(names[i], "ri valley");
		mine |= strcmp(names[i], "ri-mine") == 0;
		river_found |= strcmp(names[i], "river") == 0;
	}
	assert_true(mine && river_found);
	assert_null(names[n]);
	preset_names_free(names);
	assert_int_equal(preset_complete("zz", &names, &n), GULLY_OK);
	assert_int_equal(n, 0);
	assert_null(names[0]);
	preset_names_free(names);
	unsetenv("GULLY_PRESET_PATH");
	unsetenv("XDG_DATA_HOME");
}

static void test_peek_is_lenient(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof path, "%s/peek.yaml", tmpdir);
	const char *text = "# hi\nhydrology: {coupling: trees, nested: [1, {a: b}]}\n"
			   "description: \"Lakes, \\\"quoted\\\"\"\nprocess: hydrology\n";
	write_file(path, text, strlen(text));
	struct preset_meta m;
	assert_int_equal(preset_peek(path, &m), GULLY_OK);
	assert_string_equal(m.description, "Lakes, \"quoted\"");
	assert_string_equal(m.process, "hydrology");
	write_file(path, "\x01", 1);
	assert_int_equal(preset_peek(path, &m), GULLY_OK);
	assert_string_equal(m.description, "");
	unlink(path);
	snprintf(path, sizeof path, "%s/absent.yaml", tmpdir);
	assert_int_equal(preset_peek(path, &m), GULLY_ENOTFOUND);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_round_trip),
		cmocka_unit_test(test_random_round_trip_through_file),
		cmocka_unit_test(test_merges_onto_defaults),
		cmocka_unit_test(test_malformed_cases),
		cmocka_unit_test(test_nothing_half_applied),
		cmocka_unit_test(test_huge_and_deep_input),
		cmocka_unit_test(test_binary_garbage_never_loads),
		cmocka_unit_test(test_numbers_ignore_the_locale),
		cmocka_unit_test(test_find_and_list),
		cmocka_unit_test(test_save_and_complete),
		cmocka_unit_test(test_peek_is_lenient),
	};
	/* The shipped presets: this source's (gully finds them through the link
	 * beside it in the build tree; this program is not beside it). */
	preset_set_shipped_dir(GULLY_SRCDIR "/presets");
	return cmocka_run_group_tests(tests, make_tmpdir, drop_tmpdir);
}
