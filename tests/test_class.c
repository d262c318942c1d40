/* The explorer's aids for a class, without a screen: the equation panel's
 * symbols (each in its equations, each parameter in the registry), the
 * numbers' one format, the cross-section's samples on a hand-built map, and
 * the run's budget. */
#include "testutil.h"
#include "worldutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/process.h"
#include "tui/app.h"
#include "apputil.h"

static int line_count(const char *text)
{
	int n = 1;
	for (const char *c = text; *c; c++)
		n += *c == '\n';
	return n;
}

/* The equations of every setting of `ops`'s switches and choices, one at a
 * time from the defaults, each through check(text) (the defaults first). */
static void each_variant(const struct process_ops *ops, void (*check)(const char *, void *),
			 void *arg)
{
	char buf[PROCESS_DESCRIBE_MAX];
	check(process_describe(ops, NULL, buf, sizeof buf), arg);
	for (int i = 0; i < params_count(); i++) {
		const struct param_def *d = params_def(i);
		if (strcmp(d->section, ops->section) != 0 ||
		    (d->type != PARAM_BOOL && d->type != PARAM_ENUM))
			continue;
		int values = d->type == PARAM_BOOL ? 2 : params_choice_count(d);
		for (int v = 0; v < values; v++) {
			struct params p;
			params_defaults(&p);
			assert_int_equal(params_set(&p, i, v), GULLY_OK);
			check(process_describe(ops, &p, buf, sizeof buf), arg);
		}
	}
}

struct variants {
	int lines, seen;
	const struct equation_symbol *sym;
	int n;
	bool used[64];
};

static void note_variant(const char *text, void *arg)
{
	struct variants *v = arg;
	assert_non_null(text);
	if (v->seen++ == 0)
		v->lines = line_count(text);
	/* The same lines whatever the settings: the trace cites them by number. */
	assert_int_equal(line_count(text), v->lines);
	assert_true(strlen(text) + 1 < PROCESS_DESCRIBE_MAX);
	for (int k = 0; k < v->n; k++)
		v->used[k] |= equations_uses(text, v->sym[k].symbol);
}

/* A process that shows equations, and its symbols (false: none shown). */
static bool variants_of(const struct process_ops *p, struct variants *v)
{
	char buf[PROCESS_DESCRIBE_MAX];
	memset(v, 0, sizeof *v);
	if (!p || !process_describe(p, NULL, buf, sizeof buf))
		return false;
	v->sym = equations_symbols(p->section, &v->n);
	return true;
}

/* Every symbol the panel defines is in its process's equations under some
 * setting, and every parameter it names is in the registry under that
 * process's section. */
static void test_equation_symbols(void **state)
{
	(void)state;
	int listed = 0;
	for (int i = 0; i < process_count(); i++) {
		const struct process_ops *p = process_get(i);
		struct variants v;
		if (!variants_of(p, &v))
			continue;
		/* Every process that shows equations defines their symbols. */
		assert_true(v.n > 0 && v.n <= 64);
		listed += v.n;
		each_variant(p, note_variant, &v);
		const struct equation_symbol *s = v.sym;
		for (int k = 0; k < v.n; k++) {
			if (!v.used[k]) {
				fprintf(stderr, "%s: symbol '%s' is not in its equations\n", p->name,
					s[k].symbol);
				fail();
			}
			assert_true((s[k].meaning != NULL) != (s[k].param != NULL));
			/* A parameter's symbol is a name: a number in its place (w >
			 * 0.5) would say the default while the list beside it gave
			 * the parameter's value. */
			if (s[k].param && !strpbrk(s[k].symbol, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
				fprintf(stderr, "%s: symbol '%s' for %s is a number\n", p->name,
					s[k].symbol, s[k].param);
				fail();
			}
			if (s[k].param) {
				char key[96];
				snprintf(key, sizeof key, "%s.%s", p->section, s[k].param);
				if (params_find(key) < 0) {
					fprintf(stderr, "%s: no parameter %s\n", p->name, key);
					fail();
				}
			}
		}
	}
	assert_true(listed >= 30);
	/* No equation numbers without the article's name. */
	const struct process_ops *em = process_find("emitter");
	if (em && strstr(em->describe, "(1)"))
		assert_non_null(strstr(em->describe, "Warszawski"));
}

/* A symbol's meaning that leans on another symbol set by a parameter (B's
 * "rho0 c_s^2 / 7") must name that parameter itself when the equations do
 * not use the other symbol, for the "where" list shows only the symbols the
 * equations use: under Tait c_s was left undefined. */
static void note_meanings(const char *text, void *arg)
{
	const struct variants *v = arg;
	for (int k = 0; k < v->n; k++) {
		const char *m = v->sym[k].meaning;
		if (!m || !equations_uses(text, v->sym[k].symbol))
			continue;
		for (int j = 0; j < v->n; j++) {
			const struct equation_symbol *o = &v->sym[j];
			if (j == k || !o->param || equations_uses(text, o->symbol) ||
			    !equations_uses(m, o->symbol) || strstr(m, o->param))
				continue;
			fprintf(stderr, "'%s' means \"%s\": %s, not in these equations, "
					"should name %s\n", v->sym[k].symbol, m, o->symbol, o->param);
			fail();
		}
	}
}

static void test_meanings_name_their_parameters(void **state)
{
	(void)state;
	for (int i = 0; i < process_count(); i++) {
		const struct process_ops *p = process_get(i);
		struct variants v;
		if (!variants_of(p, &v))
			continue;
		each_variant(p, note_meanings, &v);
	}
}

static const char *equations_with(const char *process, const char *setting, char *buf)
{
	struct params p;
	params_defaults(&p);
	int bad;
	assert_int_equal(params_assign(&p, setting, &bad), GULLY_OK);
	return process_describe(process_find(process), &p, buf, PROCESS_DESCRIBE_MAX);
}

/* The equations follow the settings: no stream or root terms where the
 * stream map does not act back, no volume in c_eq without capacity_volume,
 * the load concentrating with concentrate, the state equation chosen, a
 * part switched off marked so. */
static void test_equations_follow_settings(void **state)
{
	(void)state;
	char buf[PROCESS_DESCRIBE_MAX];
	const char *t = equations_with("hydrology", "hydrology.coupling=trees", buf);
	assert_true(equations_uses(t, "roots") && strstr(t, "f (1 - 0.5 w)"));
	t = equations_with("hydrology", "hydrology.coupling=streams", buf);
	assert_false(equations_uses(t, "roots"));
	assert_non_null(strstr(t, "dt e (1 - 0.2 w)"));
	t = equations_with("hydrology", "hydrology.coupling=none", buf);
	assert_false(equations_uses(t, "roots"));
	assert_null(strstr(t, "0.5 w"));
	assert_null(strstr(t, "0.2 w"));
	t = equations_with("hydrology", "hydrology.capacity_volume=0", buf);
	assert_non_null(strstr(t, "c_eq = max(0, |v|"));
	t = equations_with("hydrology", "hydrology.concentrate=1", buf);
	assert_non_null(strstr(t, "s /= 1 - dt e"));
	assert_null(strstr(equations_with("hydrology", "hydrology.concentrate=0", buf), "s /="));
	/* The normal hydrology.normal chose, on line 1 (the line using n). */
	static const struct {
		const char *setting, *says;
	} normals[] = {
		{"hydrology.normal=particles", "n: 8 neighbours' slopes"},
		{"hydrology.normal=2020", "n: normalised sum of 4 cross products"},
		{"hydrology.normal=2020wrap", "in the next column"},
	};
	for (size_t i = 0; i < sizeof normals / sizeof normals[0]; i++) {
		t = equations_with("hydrology", normals[i].setting, buf);
		const char *at = strstr(t, normals[i].says), *nl = strchr(t, '\n');
		assert_true(at && nl && at < nl);
		for (size_t j = 0; j < sizeof normals / sizeof normals[0]; j++)
			assert_true(j == i || !strstr(t, normals[j].says));
	}
	t = equations_with("sph", "sph.eos=linear", buf);
	assert_true(equations_uses(t, "c_s") && !equations_uses(t, "B") && !strstr(t, "Tait"));
	t = equations_with("sph", "sph.eos=tait", buf);
	assert_true(equations_uses(t, "B") && strstr(t, "Tait"));
	assert_null(strstr(t, "[off]"));
	t = equations_with("sph", "sph.scour=0", buf);
	assert_non_null(strstr(strstr(t, "scour:"), "[off]"));
	/* What the code does: wet soil lowers the critical shear (shear_wet),
	 * and only an impact faster than splash_speed digs; the box had a
	 * constant tau_c and no threshold. */
	t = equations_with("sph", "sph.eos=tait", buf);
	assert_true(equations_uses(t, "tau_c(s)"));
	int nsym;
	const struct equation_symbol *sym = equations_symbols("sph", &nsym);
	bool wet_tau = false, threshold = false;
	for (int k = 0; k < nsym; k++) {
		const char *m = sym[k].meaning ? sym[k].meaning : "";
		wet_tau |= strcmp(sym[k].symbol, "tau_c(s)") == 0 && strstr(m, "shear_wet");
		threshold |= strcmp(sym[k].symbol, "v_n") == 0 && strstr(m, "splash_speed");
	}
	assert_true(wet_tau && threshold);
	/* A name, not a piece of a longer one. */
	assert_true(equations_uses("p = c_s^2 (rho - rho0)", "c_s"));
	assert_false(equations_uses("p = c_s^2 (rho - rho0)", "c"));
	assert_false(equations_uses("s += dt k' (c_eq - s)", "k"));
	assert_true(equations_uses("h(p0) -= dt", "h(p0)"));
	assert_false(equations_uses("level", "e"));
}

static void test_equation_signs(void **state)
{
	(void)state;
	char line[64];
	/* Cut short, a line says so; a line that fits is whole. */
	equations_line("c_eq = max(0, V |v|)", 20, 12, false, line, sizeof line);
	assert_string_equal(line, "c_eq = ma...");
	equations_line("c_eq = max(0, V |v|)", 20, 12, true, line, sizeof line);
	assert_string_equal(line, "c_eq = max(\u2026");
	equations_line("c_eq = max(0, V |v|)", 20, 20, false, line, sizeof line);
	assert_string_equal(line, "c_eq = max(0, V |v|)");
	char out[128];
	const char *in = "a = n.xz / (V rho);  R^2 +- 1;  h -= c";
	equations_pretty(in, strlen(in), true, out, sizeof out);
	assert_string_equal(out, "a = n.xz / (V \u03c1);  R\u00b2 \u00b1 1;  h \u2212= c");
	equations_pretty(in, strlen(in), false, out, sizeof out);
	assert_string_equal(out, in);
	/* Never past the buffer. */
	char small[8];
	equations_pretty(in, strlen(in), true, small, sizeof small);
	assert_true(strlen(small) < sizeof small);
}

/* A long equation line wraps: at a space, at the gap between two
 * statements first, counting a UTF-8 sign as one column. */
static void test_equation_wrap(void **state)
{
	(void)state;
	const char *next;
	const char *l = "v += dt a;  p += dt v;  v *= 1 - dt f";
	int n = equations_wrap(l, 30, &next);
	assert_int_equal(n, (int)strlen("v += dt a;  p += dt v;"));
	assert_string_equal(next, "v *= 1 - dt f");
	/* A line that fits is whole, and nothing follows it. */
	assert_int_equal(equations_wrap(l, 60, &next), (int)strlen(l));
	assert_string_equal(next, "");
	/* Two-byte signs are one column each: 4 fit in 5 columns. */
	const char *rho = "\u03c1\u03c1\u03c1\u03c1 \u03c1\u03c1";
	assert_int_equal(equations_wrap(rho, 5, &next), 8);
	assert_string_equal(next, "\u03c1\u03c1");
	/* A word longer than the row is cut at its edge. */
	assert_int_equal(equations_wrap("abcdefghij", 4, &next), 4);
	assert_string_equal(next, "efghij");
	char sq[] = "  R = k m   where > 0          (6)";
	equations_squeeze(sq);
	assert_string_equal(sq, "  R = k m  where > 0  (6)");
}

/* Every process's equations, at 80 and 100 columns' map widths, fill rows
 * no wider than the box, and lose nothing: the rows put back together are
 * the line (its padding squeezed), numbered once each. */
static void test_equations_whole_in_small_boxes(void **state)
{
	(void)state;
	const int widths[] = {49, 69};
	for (int i = 0; i < process_count(); i++) {
		char text[PROCESS_DESCRIBE_MAX];
		if (!process_describe(process_get(i), NULL, text, sizeof text))
			continue;
		for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
			char store[2 * PROCESS_DESCRIBE_MAX], joined[2 * PROCESS_DESCRIBE_MAX] = "";
			struct equation_row rows[48];
			int n = equations_rows(text, widths[w], true, store, sizeof store, rows, 48);
			assert_true(n >= line_count(text) && n < 48);
			int numbered = 0;
			for (int r = 0; r < n; r++) {
				int cols = 0;
				for (int b = 0; b < rows[r].len; b++)
					cols += ((unsigned char)rows[r].text[b] & 0xc0) != 0x80;
				assert_true(cols <= widths[w] - (rows[r].no ? 4 : 6));
				numbered += rows[r].no != 0;
				if (rows[r].no && r > 0)
					strcat(joined, "\n");
				else if (r > 0)
					strcat(joined, " ");
				strncat(joined, rows[r].text, (size_t)rows[r].len);
			}
			assert_int_equal(numbered, line_count(text));
			/* The same words in the same order as the line itself. */
			char want[2 * PROCESS_DESCRIBE_MAX];
			equations_pretty(text, strlen(text), true, want, sizeof want);
			for (char *c = want, *d = joined; ; ) {
				while (*c == ' ')
					c++;
				while (*d == ' ')
					d++;
				if (!*c || !*d) {
					assert_true(!*c && !*d);
					break;
				}
				if (*c != *d) {
					fprintf(stderr, "%s at %d columns: '%s' lost from '%s'\n",
						process_get(i)->name, widths[w], c, d);
					fail();
				}
				c++;
				d++;
			}
		}
	}
}

/* Runs of spaces in s made one, in place (a wrapped row's indent). */
static void squeeze_spaces(char *s)
{
	char *o = s;
	for (const char *p = s; *p; p++)
		if (*p != ' ' || (o > s && o[-1] != ' '))
			*o++ = *p;
	*o = '\0';
}

/* The "where" list at widths from the smallest map's (36) up: no line wider
 * than the box, every symbol's meaning whole in it (at 72x16 "n surface
 * normal (n.xz: its level part)" lost its end to the box's edge), and
 * " ..." only when the lines run out, in place of whole items. */
static void test_where_list_wraps(void **state)
{
	(void)state;
	static const char *const names[] = {"particles", "hydrology", "emitter", "sph"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct app *a = test_new_app(names[i], 32);
		char made[PROCESS_DESCRIBE_MAX];
		const char *text = process_describe(a->proc, &a->params, made, sizeof made);
		int nsym;
		const struct equation_symbol *sym = equations_symbols(a->proc->section, &nsym);
		for (int width = 36; width <= 120; width += 7) {
			static char lines[64][256];
			int n = equations_where(a, text, width, lines, 64);
			assert_true(n > 0 && n < 64);
			static char joined[64 * 257];
			joined[0] = '\0';
			for (int k = 0; k < n; k++) {
				assert_true((int)strlen(lines[k]) <= width);
				strcat(joined, " ");
				strcat(joined, lines[k]);
			}
			squeeze_spaces(joined);
			assert_null(strstr(joined, "..."));
			for (int k = 0; k < nsym; k++) {
				if (!sym[k].meaning || !equations_uses(text, sym[k].symbol))
					continue;
				char want[200];
				snprintf(want, sizeof want, " %s %s", sym[k].symbol, sym[k].meaning);
				squeeze_spaces(want);
				if (!strstr(joined, want)) {
					fprintf(stderr, "%s at %d: '%s' not whole in '%s'\n", names[i],
						width, want, joined);
					fail();
				}
			}
			/* Out of lines: the last ends at an item's end, then " ...". */
			if (n <= 3)
				continue;
			n = equations_where(a, text, width, lines, 3);
			assert_true(n <= 3);
			size_t len = strlen(lines[n - 1]);
			assert_true(len >= 5 && strcmp(lines[n - 1] + len - 4, " ...") == 0);
			assert_true(n == 1 || len == 9 || lines[n - 1][len - 5] == ',');
		}
		test_free_app(a);
	}
}

static void test_numbers_one_format(void **state)
{
	(void)state;
	char b[64];
	static const struct {
		uint64_t n;
		const char *text;
	} counts[] = {
		{0, "0"}, {999, "999"}, {1000, "1,000"}, {10000000, "10,000,000"},
		{UINT64_MAX, "18,446,744,073,709,551,615"},
	};
	for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		num_count(b, sizeof b, counts[i].n);
		assert_string_equal(b, counts[i].text);
	}
	static const struct {
		double v;
		const char *text;
	} values[] = {
		{9559, "9,559"}, {15010.4, "15,010"}, {12.3456, "12.35"}, {0.0123456, "0.01235"},
		{0.5, "0.5"}, {-0.25, "-0.25"}, {0, "0"}, {-1e-9, "0"},
	};
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		num_value(b, sizeof b, values[i].v);
		assert_string_equal(b, values[i].text);
	}
	/* No exponent at any magnitude. */
	for (double v = 1e-9; v < 1e15; v *= 7.3) {
		num_value(b, sizeof b, v);
		assert_null(strpbrk(b, "eE"));
		num_value(b, sizeof b, -v);
		assert_null(strpbrk(b, "eE"));
	}
	/* A parameter whose registry spelling has one (depth_scale 1e-05). */
	struct params p;
	params_defaults(&p);
	int i = params_find("emitter.depth_scale");
	assert_true(i >= 0);
	num_param(&p, i, b, sizeof b);
	assert_string_equal(b, "0.00001");
	assert_true(strtod(b, NULL) == params_get(&p, i));
}

/* Heights h = x + 100 y, pools only at (5, 3): a row's samples are its
 * cells, fewer columns take means, a column and a diagonal their cells. */
static void test_profile_samples(void **state)
{
	(void)state;
	struct world *w;
	assert_int_equal(world_create(&w, 16, 16), GULLY_OK);
	for (int y = 0; y < 16; y++)
		for (int x = 0; x < 16; x++) {
			*world_at(w->layer[LAYER_HEIGHT], w, x, y) = (float)(x + 100 * y);
			*world_at(w->layer[LAYER_BASE], w, x, y) = (float)(100 * y);
		}
	*world_at(w->layer[LAYER_POOL], w, 5, 3) = 0.25f;
	struct profile_point pt[16];
	assert_int_equal(profile_sample(w, 0, 3, 15, 3, 16, pt), 16);
	for (int i = 0; i < 16; i++) {
		assert_true(pt[i].height == (float)(i + 300));
		assert_true(pt[i].base == 300.0f);
		assert_true(pt[i].pool == (i == 5 ? 0.25f : 0.0f));
	}
	/* Eight columns: each the mean of two cells; the pool's maximum kept. */
	assert_int_equal(profile_sample(w, 0, 3, 15, 3, 8, pt), 16);
	for (int i = 0; i < 8; i++)
		assert_true(pt[i].height == (float)(2 * i + 0.5 + 300));
	assert_true(pt[2].pool == 0.25f);
	/* A column, bottom to top. */
	assert_int_equal(profile_sample(w, 7, 15, 7, 0, 16, pt), 16);
	for (int i = 0; i < 16; i++)
		assert_true(pt[i].height == (float)(7 + 100 * (15 - i)));
	/* The diagonal: its cells (i, i). */
	assert_int_equal(profile_sample(w, 0, 0, 15, 15, 16, pt), 16);
	for (int i = 0; i < 16; i++)
		assert_true(pt[i].height == (float)(i + 100 * i));
	/* More columns than cells: each column one cell, in order. */
	assert_int_equal(profile_sample(w, 0, 0, 3, 0, 8, pt), 4);
	for (int i = 0; i < 8; i++)
		assert_true(pt[i].height == (float)(i / 2));
	world_destroy(w);
}

/* The budget counts the running process's own droplets: sph's fluid
 * particles, run after a switch, left process 1 "712 droplets to go" of a
 * 3,000 budget after 645 droplets, and sph's panel counted process 1's
 * droplet steps as its time steps. Undo brings a checkpoint's counts back
 * with its map. */
static void test_budget_counts_its_own(void **state)
{
	(void)state;
	struct app *a = test_new_app("particles", 32);
	int i = params_find("particles.budget");
	assert_true(i >= 0);
	params_set(&a->params, i, 1000);
	uint64_t done;
	char err[256], s[64];
	assert_int_equal(session_step(a, 300, &done), GULLY_OK);
	const uint64_t droplet_steps = counts_steps(a);
	assert_true(droplet_steps > 0);
	assert_int_equal(session_set_process(a, process_find("sph"), err, sizeof err), GULLY_OK);
	assert_true(counts_steps(a) == 0 && counts_particles(a) == 0);
	assert_int_equal(session_step(a, 200, &done), GULLY_OK);
	assert_true(counts_steps(a) == 200);
	assert_true(a->world->particles > 300); /* sph's own went into the world's count */
	const uint64_t fluid = counts_particles(a);
	assert_true(fluid == a->world->particles - 300);
	assert_int_equal(session_set_process(a, process_find("particles"), err, sizeof err),
			 GULLY_OK);
	assert_true(counts_particles(a) == 300 && counts_steps(a) >= droplet_steps);
	assert_int_equal(budget_left(a), 700);
	budget_status(a, s, sizeof s);
	assert_string_equal(s, "700 droplets to go");
	/* A checkpoint, 100 more, undo: 300 again; redo: 400. */
	assert_int_equal(undo_push(a, 0), GULLY_OK);
	assert_int_equal(session_step(a, 100, &done), GULLY_OK);
	assert_int_equal(budget_left(a), 600);
	assert_int_equal(undo_pop(a, err, sizeof err), GULLY_OK);
	assert_int_equal(budget_left(a), 700);
	assert_int_equal(undo_redo(a, err, sizeof err), GULLY_OK);
	assert_int_equal(budget_left(a), 600);
	/* Back to sph: its own, kept across the switches. */
	assert_int_equal(session_set_process(a, process_find("sph"), err, sizeof err), GULLY_OK);
	assert_true(counts_steps(a) == 200 && counts_particles(a) == fluid);
	test_free_app(a);
}

/* The map's area shared, from the smallest terminal up: the boxes and the
 * map fill it without overlap, the map keeps 6 rows at least, and the
 * equations, shown beside the cross-section, get their least box (three
 * rows) and never more than they have (at 80x24 they once covered it all). */
static void test_layout_shares_the_map_area(void **state)
{
	(void)state;
	struct app *a = test_new_app("hydrology", 32);
	a->equations = true;
	for (int prof_on = 0; prof_on < 2; prof_on++) {
		a->profile.mode = prof_on ? PROFILE_ROW : PROFILE_OFF;
		for (int rows = MIN_ROWS - 1; rows <= 70; rows++)
			for (int cols = MIN_COLS - PANEL_WIDTH / 2; cols <= 140; cols += 13) {
				int eq, tr, prof;
				int shown = class_layout(a, rows, cols, &eq, &tr, &prof);
				assert_int_equal(shown + eq + tr + prof, rows);
				assert_true(shown >= 6 && tr == 0);
				assert_true(eq >= 5 && eq <= equations_height(a, cols));
				assert_true(prof == 0 || prof >= 7);
			}
	}
	/* 80x24 with the cross-section: all of particles' equation lines. */
	test_free_app(a);
	a = test_new_app("particles", 32);
	a->equations = true;
	a->profile.mode = PROFILE_ROW;
	int eq, tr, prof;
	int shown = class_layout(a, 23, 49, &eq, &tr, &prof);
	assert_true(shown >= 6 && prof >= 7 && eq - 2 >= 6);
	a->equations = false;
	assert_int_equal(class_layout(a, 23, 49, &eq, &tr, &prof), 23 - prof);
	assert_int_equal(eq, 0);
	test_free_app(a);
}

/* The budget counts the world's droplets: stops at it, runs on when asked,
 * counts again once the world is back under it; 0 never stops. */
static void test_budget(void **state)
{
	(void)state;
	struct app *a = test_new_app("particles", 32);
	int i = params_find("particles.budget");
	assert_true(i >= 0);
	params_set(&a->params, i, 1000);
	assert_int_equal(budget_left(a), 1000);
	uint64_t done = 0;
	assert_int_equal(session_step(a, 600, &done), GULLY_OK);
	assert_int_equal(budget_left(a), 400);
	a->running = true;
	assert_false(budget_stop(a));
	assert_int_equal(session_step(a, 400, &done), GULLY_OK);
	assert_int_equal(budget_left(a), 0);
	assert_true(budget_stop(a));
	assert_false(a->running);
	char s[64];
	budget_status(a, s, sizeof s);
	assert_string_equal(s, "budget reached: Space runs on");
	budget_run_on(a);
	assert_true(budget_left(a) == UINT64_MAX);
	assert_false(budget_stop(a));
	s[0] = 'x';
	budget_status(a, s, sizeof s);
	assert_string_equal(s, "");
	/* A new terrain starts the count again. */
	char err[256];
	assert_int_equal(session_new_world(a, err, sizeof err), GULLY_OK);
	assert_int_equal(budget_left(a), 1000);
	budget_status(a, s, sizeof s);
	assert_string_equal(s, "1,000 droplets to go");
	params_set(&a->params, i, 0);
	assert_true(budget_left(a) == UINT64_MAX);
	/* A process without a budget parameter never stops. */
	assert_int_equal(session_set_process(a, process_find("emitter"), err, sizeof err),
			 GULLY_OK);
	assert_true(budget_left(a) == UINT64_MAX);
	test_free_app(a);
}

/* The explorer's trace (T, then D) under each process it follows changes
 * the map as the process releasing that droplet or particle does, bit for
 * bit: particles one after another (lanes = 1), and the emitter with a
 * one-step lifetime (so that one particle is all the process has in flight)
 * and its deposit on. */
static void test_trace_is_the_process(void **state)
{
	(void)state;
	const char *procs[] = {"particles", "emitter"};
	for (int k = 0; k < 2; k++) {
		struct app *a = test_new_app(procs[k], 48);
		int bad;
		assert_int_equal(params_assign(&a->params, "particles.lanes=1", &bad), GULLY_OK);
		assert_int_equal(params_assign(&a->params, "emitter.lifetime=1", &bad), GULLY_OK);
		assert_int_equal(params_assign(&a->params, "emitter.deposit=true", &bad), GULLY_OK);
		assert_int_equal(params_assign(&a->params, "emitter.per_step=1", &bad), GULLY_OK);
		assert_int_equal(params_assign(&a->params, "emitter.depth_scale=0.001", &bad),
				 GULLY_OK);
		/* The process's copy. */
		struct world *b = NULL;
		void *ps = NULL;
		assert_int_equal(world_clone(&b, a->world), GULLY_OK);
		assert_int_equal(a->proc->create(&ps, b, &a->params), GULLY_OK);
		for (int n = 0; n < 12; n++) {
			const struct rng before = a->world->rng;
			struct rng r = before;
			float x = rng_float(&r) * (float)a->world->width;
			float y = rng_float(&r) * (float)a->world->height;
			trace_start(a, x, y);
			assert_true(a->trace.on);
			assert_int_equal(a->trace.kind, k == 0 ? TRACE_DROPLET : TRACE_EMITTER);
			trace_step(a, false);
			assert_true(a->trace.s.steps == 1 || a->trace.s.ended);
			trace_step(a, true);
			assert_true(a->trace.s.ended);
			assert_int_equal(a->proc->step(ps, b, &a->params, 1, NULL), GULLY_OK);
			/* The trace left the simulation's stream alone. */
			assert_memory_equal(&a->world->rng, &before, sizeof before);
			a->world->rng = b->rng;
			assert_same_world(a->world, b);
		}
		assert_true(a->world->tally[TALLY_ERODED] > 0);
		a->proc->destroy(ps);
		world_destroy(b);
		trace_stop(a);
		test_free_app(a);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equation_symbols),
		cmocka_unit_test(test_meanings_name_their_parameters),
		cmocka_unit_test(test_equations_follow_settings),
		cmocka_unit_test(test_equation_signs),
		cmocka_unit_test(test_equation_wrap),
		cmocka_unit_test(test_equations_whole_in_small_boxes),
		cmocka_unit_test(test_where_list_wraps),
		cmocka_unit_test(test_numbers_one_format),
		cmocka_unit_test(test_profile_samples),
		cmocka_unit_test(test_layout_shares_the_map_area),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_budget_counts_its_own),
		cmocka_unit_test(test_trace_is_the_process),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
