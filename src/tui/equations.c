/* The equation panel: the running process's `describe` text in a box at
 * the foot of the map, large and plain for a projector, with every symbol
 * defined under it and, where a parameter sets it, that parameter's name
 * and value as the side panel shows them (f = friction 0.05). With UTF-8
 * the ASCII spellings become the usual signs (rho: ρ, ^2: ², +-: ±). */
#include <ctype.h>
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"
#include "tui/crt.h"
#include "tui/keys.h"

/* Where the "where" list's items start on a row of their own: under the
 * first's, after "where ". */
#define WHERE_INDENT 6

/* Each process's symbols, in the order its equations use them. */
static const struct equation_symbol particles_symbols[] = {
	{"p", "position", NULL}, {"v", "speed", NULL}, {"a", "acceleration", NULL},
	{"n", "surface normal (n.xz: its level part)", NULL},
	{"h(p)", "height at p; p0 the cell left", NULL}, {"V", "volume, starts at 1", NULL},
	{"s", "sediment carried", NULL}, {"c_eq", "sediment V can carry", NULL},
	{"dt", NULL, "dt"}, {"rho", NULL, "density"}, {"f", NULL, "friction"},
	{"k", NULL, "deposition_rate"}, {"e", NULL, "evap_rate"}, {"V_min", NULL, "min_volume"},
};
static const struct equation_symbol hydrology_symbols[] = {
	{"p", "position", NULL}, {"v", "speed", NULL}, {"a", "acceleration", NULL},
	{"n", "surface normal (n.xz: its level part)", NULL},
	{"h(p)", "height at p; p0 the cell left", NULL}, {"V", "volume, starts at 1", NULL},
	{"s", "sediment carried", NULL}, {"c_eq", "sediment V can carry", NULL},
	{"w", "stream map at the cell", NULL}, {"roots", "tree roots at the cell", NULL},
	{"dt", NULL, "dt"}, {"rho", NULL, "density"}, {"V_min", NULL, "min_volume"},
	{"level", "lake surface", NULL},
	{"leak", "its lowest rim", NULL}, {"f", NULL, "friction"}, {"e", NULL, "evap_rate"},
	{"k", NULL, "deposition_rate"}, {"drainage", NULL, "drainage"},
	{"lrate", NULL, "lrate"}, {"w_stop", NULL, "stop_stream"}, {"a_stop", NULL, "stop_accel"},
	{"keep", NULL, "sediment_keep"},
};
static const struct equation_symbol emitter_symbols[] = {
	{"a", "heading", NULL}, {"D", "hardness under p (the hardness layer)", NULL},
	{"search", NULL, "search_angle"}, {"a_max", NULL, "max_angle"}, {"v", NULL, "speed"},
	{"v_max", NULL, "max_speed"}, {"r", NULL, "rotation_radius"},
	{"b", "rotation angle", NULL}, {"w", NULL, "angular_speed"}, {"R", "crater radius", NULL},
	{"k", NULL, "radius_per_mass"}, {"m", NULL, "mass"}, {"p0", "where it hits", NULL},
	{"c", NULL, "depth_scale"},
};

static const struct equation_symbol sph_symbols[] = {
	{"m", "particle mass", NULL}, {"W6", "poly6 kernel of r_ij, the distance i to j", NULL},
	{"rho0", NULL, "rest_density"}, {"f(d/h)", "the ground's share, d below i", NULL},
	{"h", "smoothing radius, 2 x spacing", NULL}, {"p", "pressure", NULL},
	{"B", "stiffness rho0 c_s^2 / 7 (c_s: sound_speed)", NULL}, {"c_s", NULL, "sound_speed"},
	{"Pi_ij", "Monaghan's viscosity (alpha: viscosity)", NULL},
	{"Wspiky", "spiky kernel", NULL}, {"g", NULL, "gravity"},
	{"q_ab", "water from pore a to b", NULL}, {"K", NULL, "permeability"},
	{"c", NULL, "capillary"}, {"w", "the pores' link weight", NULL},
	{"v_n", "impact speed, digs over splash_speed", NULL},
	{"sigma", "yield strength at saturation s", NULL}, {"s_dry", NULL, "yield_dry"},
	{"r_w", NULL, "wet_ratio"}, {"tau", "shear stress on the bed", NULL},
	{"K_tau", NULL, "shear_k"},
	{"v_t", "speed along the bed", NULL}, {"gap", "height over the bed", NULL},
	{"D", "water over the bed, at most shear_depth", NULL}, {"e", "erosion rate", NULL},
	{"K_E", NULL, "erosion_k"},
	{"tau_c(s)", "tau_c (1 - shear_wet s) at saturation s", NULL},
	{"tau_c", NULL, "critical_shear"}, {"g(s)", "0 below scour_start, 1 saturated", NULL},
	{"C", "soil share of a particle", NULL}, {"rho_s", NULL, "soil_density"},
};

const struct equation_symbol *equations_symbols(const char *section, int *n)
{
	static const struct {
		const char *section;
		const struct equation_symbol *s;
		int n;
	} all[] = {
		{"particles", particles_symbols, (int)(sizeof particles_symbols / sizeof particles_symbols[0])},
		{"hydrology", hydrology_symbols, (int)(sizeof hydrology_symbols / sizeof hydrology_symbols[0])},
		{"emitter", emitter_symbols, (int)(sizeof emitter_symbols / sizeof emitter_symbols[0])},
		{"sph", sph_symbols, (int)(sizeof sph_symbols / sizeof sph_symbols[0])},
	};
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (strcmp(all[i].section, section) == 0) {
			*n = all[i].n;
			return all[i].s;
		}
	*n = 0;
	return NULL;
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '\'';
}

bool equations_uses(const char *text, const char *symbol)
{
	size_t n = strlen(symbol);
	if (n == 0)
		return false;
	for (const char *at = strstr(text, symbol); at; at = strstr(at + 1, symbol)) {
		bool starts = at == text || !name_char(symbol[0]) || !name_char(at[-1]);
		bool ends = !name_char(symbol[n - 1]) || !name_char(at[n]);
		if (starts && ends)
			return true;
	}
	return false;
}

/* ASCII spellings and the signs UTF-8 shows for them. */
static const char *const signs[][2] = {
	{"rho", "\u03c1"}, {"^2", "\u00b2"}, {"+-", "\u00b1"}, {"sqrt", "\u221a"},
	{"<=", "\u2264"}, {">=", "\u2265"}, {"->", "\u2192"}, {" .. ", " \u2026 "},
	{"-=", "\u2212="}, {"*=", "\u00d7="}, {" x (", " \u00d7 ("},
};

void equations_pretty(const char *in, size_t n, bool utf8, char *out, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < n && in[i] && o + 1 < len;) {
		bool done = false;
		for (size_t k = 0; utf8 && k < sizeof signs / sizeof signs[0] && !done; k++) {
			size_t sl = strlen(signs[k][0]);
			if (i + sl <= n && strncmp(in + i, signs[k][0], sl) == 0) {
				size_t rl = strlen(signs[k][1]);
				if (o + rl + 1 >= len)
					break;
				memcpy(out + o, signs[k][1], rl);
				o += rl;
				i += sl;
				done = true;
			}
		}
		if (!done)
			out[o++] = in[i++];
	}
	out[o] = '\0';
}

void equations_line(const char *line, int n, int room, bool utf8, char *out, size_t len)
{
	/* The signs only ever shorten a line, so n bytes of ASCII fit n
	 * columns; a line cut short ends with a mark. */
	const char *mark = utf8 ? "\u2026" : "...";
	int mark_cols = utf8 ? 1 : 3;
	bool cut = n > room && room > mark_cols;
	int take = cut ? room - mark_cols : n < room ? n : room;
	equations_pretty(line, (size_t)(take > 0 ? take : 0), utf8, out, len);
	if (cut && strlen(out) + strlen(mark) < len)
		strcat(out, mark);
}

/* One symbol's text: " rho0 = rest_density 1000.0," or " h smoothing ...,". */
static void where_item(struct app *a, const struct equation_symbol *sym, bool last, char *item,
		       size_t len)
{
	if (sym->param) {
		char key[96], val[48];
		snprintf(key, sizeof key, "%s.%s", a->proc->section, sym->param);
		int idx = params_find(key);
		if (idx >= 0)
			num_param(&a->params, idx, val, sizeof val);
		else
			snprintf(val, sizeof val, "?");
		snprintf(item, len, " %s = %s %s%s", sym->symbol, sym->param, val, last ? "" : ",");
	} else {
		snprintf(item, len, " %s %s%s", sym->symbol, sym->meaning, last ? "" : ",");
	}
}

/* The rows `p` takes wrapped at `width`, its first at WHERE_INDENT and the
 * rest 2 further in. */
static int where_item_rows(const char *p, int width)
{
	int rows = 0;
	for (int indent = WHERE_INDENT; *p; indent = WHERE_INDENT + 2, rows++)
		equations_wrap(p, width - indent, &p);
	return rows;
}

/* Ends `line` with " ..." in place of whole items, never inside one: cut
 * inside an item it showed a value cut short ("friction 0.05" read
 * "friction 0.0 ..."). */
static void where_end(char *line, int width)
{
	size_t used = strlen(line), cut = used;
	while (cut > 0 && (int)cut + 4 > width)
		do
			cut--;
		while (cut > 0 && line[cut - 1] != ',');
	if (cut == 0) /* one item wider than the line: cut it */
		cut = used + 4 > (size_t)width ? (size_t)width - 4 : used;
	snprintf(line + cut, 256 - cut, " ...");
}

/* Appends `item` (" n surface normal ...,") to the list, whose last line
 * is lines[*count - 1]: on that line when it fits, else from a line of its
 * own, and one wider than a line goes on under itself, indented, cut at
 * spaces (at 72x16 "n surface normal (n.xz: its level part)" lost its end).
 * false when the lines ran out (the list then ends in " ..."). */
static bool where_add(char lines[][256], int *count, int max, int width, const char *item)
{
	char *line = lines[*count - 1];
	size_t used = strlen(line);
	if ((int)(used + strlen(item)) <= width) {
		snprintf(line + used, 256 - used, "%s", item);
		return true;
	}
	const char *p = item + 1; /* its leading space: the indent stands for it */
	/* An item too wide for the line after "where" alone starts there. */
	bool here = strcmp(line, "where") == 0;
	if (*count - here + where_item_rows(p, width) > max) {
		where_end(line, width);
		return false;
	}
	for (int indent = WHERE_INDENT; *p; indent = WHERE_INDENT + 2, here = false) {
		if (!here)
			line = lines[(*count)++];
		const char *next;
		int n = equations_wrap(p, width - indent, &next);
		snprintf(line, 256, "%-*s%.*s", indent, here ? "where" : "", n, p);
		p = next;
	}
	return true;
}

int equations_where(struct app *a, const char *text, int width, char lines[][256], int max)
{
	int n, count = 1;
	const struct equation_symbol *s = equations_symbols(a->proc->section, &n);
	if (!s || max <= 0 || width < 16)
		return 0;
	if (width > 255)
		width = 255;
	snprintf(lines[0], 256, "where");
	int last = n - 1;
	while (last >= 0 && !equations_uses(text, s[last].symbol))
		last--;
	for (int i = 0; i <= last; i++) {
		if (!equations_uses(text, s[i].symbol))
			continue;
		char item[160];
		where_item(a, &s[i], i == last, item, sizeof item);
		if (!where_add(lines, &count, max, width, item))
			break;
	}
	return count;
}

int equations_wrap(const char *s, int room, const char **next)
{
	/* The last space that fits, and the last of two: two spaces part one
	 * statement from the next, so a row ends there rather than inside
	 * one ("(2, 4)" read "(2," and "4)") when that keeps half the row. */
	int i = 0, cols = 0, space = -1, gap = -1;
	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue; /* inside a character: one column for all its bytes */
		if (cols == room)
			break;
		cols++;
		if (s[i] == ' ')
			space = i;
		if (s[i] == ' ' && i > 0 && s[i - 1] == ' ' && cols > room / 2)
			gap = i;
	}
	int cut = i;
	if (s[i] && gap > 0)
		cut = gap;
	else if (s[i] && s[i] != ' ' && space > 0)
		cut = space;
	const char *p = s + cut;
	while (*p == ' ')
		p++;
	*next = p;
	while (cut > 0 && s[cut - 1] == ' ')
		cut--;
	return cut > 0 ? cut : i;
}

void equations_squeeze(char *s)
{
	char *o = s;
	const char *p = s;
	while (*p == ' ') /* the indent of a line that goes on from the last */
		*o++ = *p++;
	while (*p) {
		int run = 0;
		while (p[run] == ' ')
			run++;
		if (run > 2) {
			*o++ = ' ';
			*o++ = ' ';
			p += run;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
}

static int text_cols(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

int equations_rows(const char *text, int cols, bool utf8, char *store, size_t len,
		   struct equation_row *out, int max)
{
	int n = 0, no = 0;
	size_t used = 0;
	for (const char *line = text; line && n < max && used + 1 < len;) {
		const char *nl = strchr(line, '\n');
		char *p = store + used;
		equations_pretty(line, nl ? (size_t)(nl - line) : strlen(line), utf8, p, len - used);
		used += strlen(p) + 1;
		no++;
		/* A line too long for the box first gives up the spaces that
		 * line its sources up in a column, then goes on under its start,
		 * cut at a space: cut off, the end of an equation (v's friction
		 * term, the flood's rule) was lost at 80 and 100 columns. */
		if (text_cols(p) > cols - 4)
			equations_squeeze(p);
		for (bool first = true; n < max && (first || *p); first = false) {
			const int room = first ? cols - 4 : cols - 6;
			const char *next;
			int bytes = equations_wrap(p, room > 8 ? room : 8, &next);
			out[n++] = (struct equation_row){p, bytes, first ? no : 0};
			p = (char *)next;
		}
		line = nl ? nl + 1 : NULL;
	}
	return n;
}

/* The box's rows, built afresh each frame from the settings: the
 * equations' rows (wrapped), then the "where" list's. */
#define WHERE_MAX 64
struct eq_content {
	char pretty[2 * PROCESS_DESCRIBE_MAX];
	struct equation_row eq[64];
	int neq, nwhere;
	char where[WHERE_MAX][256];
};

static void content_build(struct app *a, int cols, struct eq_content *c)
{
	char made[PROCESS_DESCRIBE_MAX];
	const char *text = process_describe(a->proc, &a->params, made, sizeof made);
	if (!text)
		text = "(no equations given)";
	c->neq = equations_rows(text, cols, crt.utf8, c->pretty, sizeof c->pretty, c->eq,
				(int)(sizeof c->eq / sizeof c->eq[0]));
	c->nwhere = equations_where(a, text, cols - 4, c->where, WHERE_MAX);
}

int equations_height(struct app *a, int cols)
{
	if (!a->equations)
		return 0;
	static struct eq_content c; /* 20 KB: off the stack; the loop's thread only */
	content_build(a, cols, &c);
	return c.neq + c.nwhere + 2;
}

/* The title in the top rule: the process's whole, the words around it
 * going first on a narrow map ("Particle er: the equations" at 72). */
static void draw_title(struct app *a, int y0, int cols)
{
	char title[160];
	const char *const tails[] = {": the equations (E hides)", ": equations (E hides)",
				     ": equations", ""};
	for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++)
		if (snprintf(title, sizeof title, " %s%s ", a->proc->title, tails[t]) <= cols - 4)
			break;
	crt_attrset(A_BOLD);
	mvprintw(y0, 2, "%.*s", cols - 4 > 0 ? cols - 4 : 0, title);
	crt_attrset(A_NORMAL);
}

/* Row i of the box's content at screen row y. */
static void draw_row(const struct eq_content *c, int i, int y)
{
	char buf[512];
	if (i < c->neq) {
		/* Numbered: the droplet trace (T) names each number's line. */
		const struct equation_row *r = &c->eq[i];
		if (r->no) {
			crt_attrset(A_DIM);
			mvprintw(y, 0, "%2d", r->no);
			crt_attrset(A_NORMAL);
		}
		snprintf(buf, sizeof buf, "%.*s", r->len, r->text);
		mvaddstr(y, r->no ? 3 : 5, buf);
		return;
	}
	const char *w = c->where[i - c->neq];
	equations_pretty(w, strlen(w), crt.utf8, buf, sizeof buf);
	crt_attrset(A_DIM);
	mvaddstr(y, 3, buf);
	crt_attrset(A_NORMAL);
}

/* The rows shown and the keys that scroll, in the bottom rule, in the
 * words that fit. */
static void draw_scroll_note(const struct app *a, int y, int cols)
{
	char note[96];
	const int first = a->eq_top + 1, last = a->eq_top + a->eq_shown;
	const char *const forms[] = {" rows %d-%d of %d: { } scroll ", " %d-%d of %d, { } ",
				     " %d-%d/%d "};
	for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
		if (snprintf(note, sizeof note, forms[f], first, last, a->eq_total) <= cols - 4) {
			mvaddstr(y, 2, note);
			return;
		}
	}
}

void equations_draw(struct app *a, int y0, int rows, int cols)
{
	static struct eq_content c;
	if (rows < 3 || cols < 8)
		return;
	content_build(a, cols, &c);
	const int inner = rows - 2, total = c.neq + c.nwhere;
	const int max_top = total > inner ? total - inner : 0;
	a->eq_top = a->eq_top < 0 ? 0 : a->eq_top > max_top ? max_top : a->eq_top;
	a->eq_shown = inner < total ? inner : total;
	a->eq_total = total;
	for (int y = y0; y < y0 + rows; y++)
		mvprintw(y, 0, "%*s", cols, "");
	mvhline(y0, 0, '-', cols);
	draw_title(a, y0, cols);
	for (int r = 0; r < a->eq_shown; r++)
		draw_row(&c, a->eq_top + r, y0 + 1 + r);
	mvhline(y0 + rows - 1, 0, '-', cols);
	if (max_top > 0)
		draw_scroll_note(a, y0 + rows - 1, cols);
}

void equations_key(struct app *a, int action, int arg)
{
	if (action == ACT_EQUATIONS) {
		a->equations = !a->equations;
		a->eq_top = 0;
		if (a->equations)
			class_room_note(a);
		return;
	}
	if (!a->equations) {
		app_message(a, "{ and } scroll the equations: E shows them");
		return;
	}
	/* A page less a row, so a row of the last page is still in sight. */
	const int page = a->eq_shown > 1 ? a->eq_shown - 1 : 1;
	const int max_top = a->eq_total > a->eq_shown ? a->eq_total - a->eq_shown : 0;
	int top = a->eq_top + arg * page;
	a->eq_top = top < 0 ? 0 : top > max_top ? max_top : top;
	if (max_top == 0)
		app_message(a, "the equations are all in sight");
}
