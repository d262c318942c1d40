#include "io/preset_scan.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "core/base/error.h"
#include "core/base/params.h"
#include "io/preset.h"

struct scanner {
	yaml_parser_t parser;
	yaml_event_t ev;
	bool have_ev;
	const char *name;
	const unsigned char *text;
	size_t len;
	struct preset_scan *out;
	char *err;
	size_t errlen;
	bool section_seen[64];
	int section_line[64];
};

void preset_quote(char *buf, size_t len, const char *text, size_t max)
{
	if (len == 0)
		return;
	size_t n = 0, i = 0;
	for (; text[i] && i < max && n + 4 < len; i++) {
		unsigned char c = (unsigned char)text[i];
		buf[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (text[i] && n + 4 <= len) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
}

/* "NAME:LINE: KEY: message"; key may be NULL. Always returns GULLY_EFORMAT so
 * callers can `return fail(...)`. */
__attribute__((format(printf, 4, 5)))
static int fail(struct scanner *sc, int line, const char *key, const char *fmt, ...)
{
	char msg[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (key)
		snprintf(sc->err, sc->errlen, "%s:%d: %s: %s", sc->name, line, key, msg);
	else
		snprintf(sc->err, sc->errlen, "%s:%d: %s", sc->name, line, msg);
	return GULLY_EFORMAT;
}

static int line_of(const yaml_event_t *ev)
{
	return (int)ev->start_mark.line + 1;
}

static const char *kind_of(const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_MAPPING_START_EVENT:
		return "a mapping";
	case YAML_SEQUENCE_START_EVENT:
		return "a sequence";
	case YAML_SCALAR_EVENT:
		return "a single value";
	default:
		return "the end of a mapping";
	}
}

/* The next event, with the features a preset never needs refused: aliases
 * (and so "billion laughs"), anchors and explicit tags. */
static int next(struct scanner *sc, const char *key)
{
	if (sc->have_ev) {
		yaml_event_delete(&sc->ev);
		sc->have_ev = false;
	}
	if (!yaml_parser_parse(&sc->parser, &sc->ev)) {
		const yaml_parser_t *p = &sc->parser;
		if (p->error == YAML_MEMORY_ERROR) {
			snprintf(sc->err, sc->errlen, "%s: out of memory", sc->name);
			return GULLY_ENOMEM;
		}
		char problem[160];
		preset_quote(problem, sizeof problem, p->problem ? p->problem : "syntax error", 120);
		if (p->error == YAML_READER_ERROR) {
			/* The reader decodes ahead and reports a byte offset, not a mark. */
			size_t off = p->problem_offset < sc->len ? p->problem_offset : sc->len;
			int line = 1;
			size_t bol = 0;
			for (size_t i = 0; i < off; i++)
				if (sc->text[i] == '\n') {
					line++;
					bol = i + 1;
				}
			return fail(sc, line, NULL, "not valid YAML: %s (column %zu)", problem,
				    off - bol + 1);
		}
		if (p->context) {
			char context[120];
			preset_quote(context, sizeof context, p->context, 100);
			return fail(sc, (int)p->problem_mark.line + 1, NULL,
				    "not valid YAML: %s %s (column %d)", problem, context,
				    (int)p->problem_mark.column + 1);
		}
		return fail(sc, (int)p->problem_mark.line + 1, NULL,
			    "not valid YAML: %s (column %d)", problem,
			    (int)p->problem_mark.column + 1);
	}
	sc->have_ev = true;
	const yaml_event_t *ev = &sc->ev;
	const yaml_char_t *anchor = NULL, *tag = NULL;
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		return fail(sc, line_of(ev), key, "aliases (*name) are not supported in presets");
	case YAML_SCALAR_EVENT:
		anchor = ev->data.scalar.anchor;
		tag = ev->data.scalar.tag;
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = ev->data.mapping_start.anchor;
		tag = ev->data.mapping_start.tag;
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = ev->data.sequence_start.anchor;
		tag = ev->data.sequence_start.tag;
		break;
	default:
		break;
	}
	if (anchor)
		return fail(sc, line_of(ev), key, "anchors (&name) are not supported in presets");
	if (tag)
		return fail(sc, line_of(ev), key, "tags (!name) are not supported in presets");
	return GULLY_OK;
}

static const char *scalar(const struct scanner *sc)
{
	return (const char *)sc->ev.data.scalar.value;
}

static bool is_plain(const struct scanner *sc)
{
	return sc->ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* An empty section, "particles:" with nothing under it. YAML also spells
 * null "~" and "null", but libcyaml 1.3's CYAML_FLAG_POINTER_NULL takes only
 * the empty scalar, and the two passes must agree (the fuzz target checks). */
static bool is_null(const struct scanner *sc)
{
	return sc->ev.type == YAML_SCALAR_EVENT && is_plain(sc) && sc->ev.data.scalar.length == 0;
}

/* Reads a mapping key into buf; the current event must be the key. */
static int take_key(struct scanner *sc, const char *where, char *buf, size_t len)
{
	if (sc->ev.type != YAML_SCALAR_EVENT)
		return fail(sc, line_of(&sc->ev), where, "a key must be a name, not %s",
			    kind_of(&sc->ev));
	size_t n = sc->ev.data.scalar.length;
	if (n == 0 || n >= len || strlen(scalar(sc)) != n) {
		char q[48];
		preset_quote(q, sizeof q, scalar(sc), 32);
		return fail(sc, line_of(&sc->ev), where, "'%s' is not a name", q);
	}
	memcpy(buf, scalar(sc), n + 1);
	return GULLY_OK;
}

/* A value's text: one line, no longer than max. */
static int check_text(struct scanner *sc, const char *key, size_t max)
{
	if (sc->ev.type != YAML_SCALAR_EVENT)
		return fail(sc, line_of(&sc->ev), key, "expected text, found %s", kind_of(&sc->ev));
	if (sc->ev.data.scalar.length > max)
		return fail(sc, line_of(&sc->ev), key, "longer than %zu characters", max);
	if (strlen(scalar(sc)) != sc->ev.data.scalar.length)
		return fail(sc, line_of(&sc->ev), key, "contains a NUL character");
	/* Also C1 controls and U+2028/9: YAML 1.1 reads NEL, LS and PS as line
	 * breaks, so such a text would not survive a save and load. */
	for (const unsigned char *c = sc->ev.data.scalar.value; *c; c++)
		if (*c < 0x20 || *c == 0x7f || (c[0] == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f) ||
		    (c[0] == 0xe2 && c[1] == 0x80 && (c[2] == 0xa8 || c[2] == 0xa9)))
			return fail(sc, line_of(&sc->ev), key, "must be one line of printable text");
	return GULLY_OK;
}

static int scan_section(struct scanner *sc, int s)
{
	struct param_section sec;
	params_section(s, &sec);
	int err;
	for (;;) {
		if ((err = next(sc, sec.name)))
			return err;
		if (sc->ev.type == YAML_MAPPING_END_EVENT)
			return GULLY_OK;
		char name[PRESET_MAX_SCALAR + 1];
		if ((err = take_key(sc, sec.name, name, sizeof name)))
			return err;
		int key_line = line_of(&sc->ev);
		int i = -1;
		for (int k = sec.first; k < sec.first + sec.count; k++)
			if (strcmp(params_def(k)->name, name) == 0)
				i = k;
		if (i < 0) {
			char q[48];
			preset_quote(q, sizeof q, name, 32);
			return fail(sc, key_line, NULL,
				    "%s.%s: unknown parameter (see `gully presets default`)",
				    sec.name, q);
		}
		const struct param_def *d = params_def(i);
		if (sc->out->line[i])
			return fail(sc, key_line, d->key, "given twice (first on line %d)",
				    sc->out->line[i]);
		if ((err = next(sc, d->key)))
			return err;
		if (sc->ev.type != YAML_SCALAR_EVENT)
			return fail(sc, line_of(&sc->ev), d->key, "expected a single value, found %s",
				    kind_of(&sc->ev));
		if (sc->ev.data.scalar.length > PRESET_MAX_SCALAR)
			return fail(sc, line_of(&sc->ev), d->key, "value longer than %d characters",
				    PRESET_MAX_SCALAR);
		if (strlen(scalar(sc)) != sc->ev.data.scalar.length)
			return fail(sc, line_of(&sc->ev), d->key, "value contains a NUL character");
		/* A quoted "0.5" is text in YAML: a wrong type, not a number. */
		if (d->type != PARAM_ENUM && !is_plain(sc))
			return fail(sc, line_of(&sc->ev), d->key, "expected %s, found quoted text",
				    d->type == PARAM_BOOL ? "true or false" : "a number");
		sc->out->line[i] = line_of(&sc->ev);
	}
}

static int scan_top(struct scanner *sc)
{
	int err;
	for (;;) {
		if ((err = next(sc, NULL)))
			return err;
		if (sc->ev.type == YAML_MAPPING_END_EVENT)
			return GULLY_OK;
		char name[PRESET_MAX_SCALAR + 1];
		if ((err = take_key(sc, NULL, name, sizeof name)))
			return err;
		int key_line = line_of(&sc->ev);
		bool desc = strcmp(name, "description") == 0;
		if (desc || strcmp(name, "process") == 0) {
			int *seen = desc ? &sc->out->description_line : &sc->out->process_line;
			if (*seen)
				return fail(sc, key_line, name, "given twice (first on line %d)", *seen);
			if ((err = next(sc, name)))
				return err;
			if ((err = check_text(sc, name, desc ? PRESET_DESC_MAX - 1
							      : PRESET_PROCESS_MAX - 1)))
				return err;
			*seen = line_of(&sc->ev);
			if (desc)
				memcpy(sc->out->description, scalar(sc), sc->ev.data.scalar.length + 1);
			else
				memcpy(sc->out->process, scalar(sc), sc->ev.data.scalar.length + 1);
			continue;
		}
		int s = params_section_find(name);
		if (s < 0 || s >= (int)(sizeof sc->section_seen)) {
			char q[48], hint[96] = "";
			preset_quote(q, sizeof q, name, 32);
			for (int i = 0; i < params_count(); i++)
				if (strcmp(params_def(i)->name, name) == 0) {
					snprintf(hint, sizeof hint, "; a parameter goes under its section: %s",
						 params_def(i)->key);
					break;
				}
			char list[256] = "description, process";
			struct param_section sec;
			for (int k = 0; params_section(k, &sec); k++) {
				strncat(list, ", ", sizeof list - strlen(list) - 1);
				strncat(list, sec.name, sizeof list - strlen(list) - 1);
			}
			return fail(sc, key_line, NULL, "unknown section '%s'%s (known: %s)", q, hint,
				    list);
		}
		if (sc->section_seen[s])
			return fail(sc, key_line, name, "section given twice (first on line %d)",
				    sc->section_line[s]);
		sc->section_seen[s] = true;
		sc->section_line[s] = key_line;
		if ((err = next(sc, name)))
			return err;
		if (sc->ev.type == YAML_MAPPING_START_EVENT) {
			if ((err = scan_section(sc, s)))
				return err;
		} else if (!is_null(sc)) {
			return fail(sc, line_of(&sc->ev), name,
				    "expected a mapping of parameters (such as 'dt: 1.0'), found %s",
				    kind_of(&sc->ev));
		}
	}
}

static int scan_stream(struct scanner *sc)
{
	int err;
	if ((err = next(sc, NULL)))
		return err; /* STREAM_START */
	if ((err = next(sc, NULL)))
		return err;
	if (sc->ev.type == YAML_STREAM_END_EVENT)
		return fail(sc, 1, NULL, "empty file: a preset names at least one section "
			    "(write '{}' for all defaults)");
	/* DOCUMENT_START, then the root node. */
	if ((err = next(sc, NULL)))
		return err;
	if (is_null(sc))
		return fail(sc, line_of(&sc->ev), NULL, "empty document: a preset names at least "
			    "one section (write '{}' for all defaults)");
	if (sc->ev.type != YAML_MAPPING_START_EVENT)
		return fail(sc, line_of(&sc->ev), NULL,
			    "the top level must be a mapping of sections (such as 'particles:'), "
			    "not %s", kind_of(&sc->ev));
	if ((err = scan_top(sc)))
		return err;
	if ((err = next(sc, NULL)))
		return err; /* DOCUMENT_END */
	if ((err = next(sc, NULL)))
		return err;
	if (sc->ev.type != YAML_STREAM_END_EVENT)
		return fail(sc, line_of(&sc->ev), NULL, "a preset is one YAML document; "
			    "remove the second '---'");
	return GULLY_OK;
}

int preset_scan(const char *name, const unsigned char *text, size_t len,
		struct preset_scan *s, char *err, size_t errlen)
{
	struct scanner sc = {.name = name, .text = text, .len = len, .out = s, .err = err,
			     .errlen = errlen};
	memset(s->line, 0, (size_t)params_count() * sizeof *s->line);
	s->description_line = s->process_line = 0;
	s->description[0] = s->process[0] = '\0';
	if (params_section_count() > (int)sizeof sc.section_seen) {
		snprintf(err, errlen, "%s: too many sections for the preset reader", name);
		return GULLY_EINVAL;
	}
	if (!yaml_parser_initialize(&sc.parser)) {
		snprintf(err, errlen, "%s: out of memory", name);
		return GULLY_ENOMEM;
	}
	yaml_parser_set_input_string(&sc.parser, text, len);
	int rc = scan_stream(&sc);
	if (sc.have_ev)
		yaml_event_delete(&sc.ev);
	yaml_parser_delete(&sc.parser);
	return rc;
}

/* Keeps UTF-8 (libyaml has checked it), cuts at a character boundary and
 * turns control characters into spaces, so a listing stays one line. */
static void copy_cut(char *dst, size_t size, const yaml_event_t *ev)
{
	const unsigned char *v = ev->data.scalar.value;
	size_t n = ev->data.scalar.length;
	if (n >= size) {
		n = size - 1;
		while (n > 0 && (v[n] & 0xc0) == 0x80)
			n--;
	}
	for (size_t i = 0; i < n; i++)
		dst[i] = v[i] < 0x20 || v[i] == 0x7f ? ' ' : (char)v[i];
	dst[n] = '\0';
}

/* A preset is a root mapping of section mappings; the peek is lenient about
 * a few levels more (a malformed value), not about 100,000. */
#define PEEK_MAX_DEPTH 16

void preset_scan_peek(const unsigned char *text, size_t len, struct preset_meta *meta)
{
	meta->description[0] = meta->process[0] = '\0';
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser))
		return;
	yaml_parser_set_input_string(&parser, text, len);
	/* depth 1 is inside the root mapping; a key there is followed by its value. */
	int depth = 0;
	bool want_key = true;
	char *target = NULL;
	size_t target_size = 0;
	yaml_event_t ev;
	while (yaml_parser_parse(&parser, &ev)) {
		yaml_event_type_t t = ev.type;
		if (t == YAML_STREAM_END_EVENT || (t == YAML_MAPPING_END_EVENT && depth == 1)) {
			yaml_event_delete(&ev);
			break;
		}
		if (depth == 1) {
			if (want_key) {
				target = NULL;
				if (t == YAML_SCALAR_EVENT) {
					const char *k = (const char *)ev.data.scalar.value;
					if (strcmp(k, "description") == 0) {
						target = meta->description;
						target_size = sizeof meta->description;
					} else if (strcmp(k, "process") == 0) {
						target = meta->process;
						target_size = sizeof meta->process;
					}
				}
			} else if (target && t == YAML_SCALAR_EVENT) {
				copy_cut(target, target_size, &ev);
			}
			/* A collection as key or value is one node: its end event
			 * returns to depth 1 and completes the key or the value. */
			if (t == YAML_SCALAR_EVENT || t == YAML_ALIAS_EVENT)
				want_key = !want_key;
		}
		if (t == YAML_MAPPING_START_EVENT || t == YAML_SEQUENCE_START_EVENT) {
			/* Stop well past any preset's depth: libyaml's time grows
			 * with the square of the nesting (bench/README.md has
			 * what a deep file cost), and the loader refuses the file. */
			if (++depth > PEEK_MAX_DEPTH) {
				yaml_event_delete(&ev);
				break;
			}
		}
		if (t == YAML_MAPPING_END_EVENT || t == YAML_SEQUENCE_END_EVENT) {
			depth--;
			if (depth == 1)
				want_key = !want_key;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
}
