#include "io/preset.h"

#include <cyaml/cyaml.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "core/base/error.h"
#include "core/base/numparse.h"
#include "core/base/process.h"
#include "io/fileio.h"
#include "io/preset_scan.h"
#include "io/versions.h"

/* ---- the libcyaml schema, made from the registry ----
 *
 * The document is a mapping whose fields are description, process and one
 * pointer per section; a section is a mapping of one string pointer per
 * parameter. Both are arrays of pointers, so a field's offset is its index
 * times sizeof(void *). Every value is read as a string: libcyaml's own
 * number parsing follows the locale and takes "0.25x" and "010" in ways a
 * preset must not, so values go through params_set_text, which is strict. */

#define TOP_FIXED 2 /* description, process */

struct schema {
	cyaml_schema_field_t *top_fields;
	cyaml_schema_field_t **section_fields;
	int nsections;
	cyaml_schema_value_t top;
};

static void schema_free(struct schema *s)
{
	if (s->section_fields)
		for (int i = 0; i < s->nsections; i++)
			free(s->section_fields[i]);
	free(s->section_fields);
	free(s->top_fields);
	memset(s, 0, sizeof *s);
}

static cyaml_schema_field_t string_field(const char *key, int index, uint32_t max)
{
	cyaml_schema_field_t f = {
		.key = key,
		.data_offset = (uint32_t)((size_t)index * sizeof(void *)),
		.value = {
			.type = CYAML_STRING,
			.flags = CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			.data_size = sizeof(char),
			.string = {.min = 0, .max = max},
		},
	};
	return f;
}

static int schema_build(struct schema *s)
{
	memset(s, 0, sizeof *s);
	int n = params_section_count();
	s->nsections = n;
	s->top_fields = calloc((size_t)(TOP_FIXED + n + 1), sizeof *s->top_fields);
	s->section_fields = calloc((size_t)n, sizeof *s->section_fields);
	if (!s->top_fields || !s->section_fields) {
		schema_free(s);
		return GULLY_ENOMEM;
	}
	s->top_fields[0] = string_field("description", 0, PRESET_DESC_MAX - 1);
	s->top_fields[1] = string_field("process", 1, PRESET_PROCESS_MAX - 1);
	for (int k = 0; k < n; k++) {
		struct param_section sec;
		params_section(k, &sec);
		cyaml_schema_field_t *f = calloc((size_t)sec.count + 1, sizeof *f);
		if (!f) {
			schema_free(s);
			return GULLY_ENOMEM;
		}
		s->section_fields[k] = f;
		for (int i = 0; i < sec.count; i++)
			f[i] = string_field(params_def(sec.first + i)->name, i, PRESET_MAX_SCALAR);
		cyaml_schema_field_t *t = &s->top_fields[TOP_FIXED + k];
		t->key = sec.name;
		t->data_offset = (uint32_t)((size_t)(TOP_FIXED + k) * sizeof(void *));
		t->value.type = CYAML_MAPPING;
		/* POINTER_NULL: "particles:" with nothing under it is an empty section. */
		t->value.flags = CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER_NULL;
		t->value.data_size = (uint32_t)((size_t)sec.count * sizeof(void *));
		t->value.mapping.fields = f;
	}
	s->top.type = CYAML_MAPPING;
	s->top.flags = CYAML_FLAG_POINTER;
	s->top.data_size = (uint32_t)((size_t)(TOP_FIXED + n) * sizeof(void *));
	s->top.mapping.fields = s->top_fields;
	return GULLY_OK;
}

/* libcyaml reports through its log callback; keep the error lines, the last
 * backtrace line number, for a one-line message. */
struct cyaml_log {
	char first[200];
	int line;
};

/* The number libcyaml writes after "(line: ", through the one checked
 * conversion; 0 when there is none. */
static int line_number(const char *text)
{
	char digits[16];
	size_t n = strspn(text, "0123456789");
	uint64_t line;
	if (n == 0 || n >= sizeof digits)
		return 0;
	memcpy(digits, text, n);
	digits[n] = '\0';
	return num_parse_u64(digits, INT32_MAX, &line) == GULLY_OK ? (int)line : 0;
}

static void log_capture(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
	struct cyaml_log *lg = ctx;
	if (level < CYAML_LOG_ERROR)
		return;
	char msg[256];
	vsnprintf(msg, sizeof msg, fmt, args);
	msg[strcspn(msg, "\n")] = '\0';
	const char *at = strstr(msg, "(line: ");
	if (at)
		lg->line = line_number(at + 7);
	else if (!lg->first[0] && strcmp(msg, "Load: Backtrace:") != 0)
		preset_quote(lg->first, sizeof lg->first,
			     strncmp(msg, "Load: ", 6) == 0 ? msg + 6 : msg, 180);
}

/* ---- the C locale, whatever the process's ---- */

struct c_numeric {
	locale_t c, old;
};

static int c_numeric_begin(struct c_numeric *cn)
{
	cn->c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (cn->c == (locale_t)0)
		return GULLY_ENOMEM;
	cn->old = uselocale(cn->c);
	return GULLY_OK;
}

static void c_numeric_end(struct c_numeric *cn)
{
	uselocale(cn->old);
	freelocale(cn->c);
}

/* ---- loading ---- */

static void value_error(char *err, size_t errlen, const char *name, int line,
			const struct param_def *d, int code, const char *text)
{
	char q[64];
	preset_quote(q, sizeof q, text, 40);
	char what[200];
	if (!text[0]) {
		snprintf(what, sizeof what, "no value given");
	} else if (d->type == PARAM_ENUM) {
		snprintf(what, sizeof what, "'%s' is not one of %s", q, d->choices);
	} else if (d->type == PARAM_BOOL) {
		snprintf(what, sizeof what, "'%s' is not true or false", q);
	} else if (code == GULLY_ERANGE) {
		snprintf(what, sizeof what, "%s is out of range (%g to %g)", q, d->min, d->max);
	} else {
		const char *s = text + (text[0] == '+' || text[0] == '-');
		bool octal = s[0] == '0' && s[1] >= '0' && s[1] <= '9' &&
			     strspn(s, "0123456789") == strlen(s);
		if (octal)
			snprintf(what, sizeof what,
				 "'%s' has a leading zero (YAML 1.1 reads it as octal); "
				 "write it without", q);
		else
			snprintf(what, sizeof what, "'%s' is not %s", q,
				 d->type == PARAM_INT ? "a whole decimal number"
						      : "a finite decimal number");
	}
	snprintf(err, errlen, "%s:%d: %s: %s", name, line, d->key, what);
}

/* libcyaml's load of the text into *doc; on failure *doc is NULL and err
 * says why. The scan should have caught all of these with a better
 * message; this is the net under it. */
static int cyaml_parse(const char *name, const char *text, size_t len,
		       const cyaml_config_t *cfg, const struct cyaml_log *lg,
		       const struct schema *schema, void ***doc, char *err, size_t errlen)
{
	cyaml_err_t cerr = cyaml_load_data((const uint8_t *)text, len, cfg, &schema->top,
					   (cyaml_data_t **)doc, NULL);
	if (cerr == CYAML_OK && *doc)
		return GULLY_OK;
	if (lg->line)
		snprintf(err, errlen, "%s:%d: libcyaml: %s", name, lg->line,
			 lg->first[0] ? lg->first : cyaml_strerror(cerr));
	else
		snprintf(err, errlen, "%s: libcyaml: %s", name,
			 lg->first[0] ? lg->first : cyaml_strerror(cerr));
	if (*doc)
		cyaml_free(cfg, &schema->top, *doc, 0);
	*doc = NULL;
	return GULLY_EFORMAT;
}

/* The loaded document's values onto p (each checked, its line from the
 * scan in the message) and its description and process onto m. */
static int doc_values(void **doc, const struct schema *schema, const struct preset_scan *scan,
		      const char *name, struct params *p, struct preset_meta *m, char *err,
		      size_t errlen)
{
	int rc = GULLY_OK;
	for (int k = 0; k < schema->nsections && !rc; k++) {
		char **values = doc[TOP_FIXED + k];
		if (!values)
			continue;
		struct param_section sec;
		params_section(k, &sec);
		for (int i = 0; i < sec.count && !rc; i++) {
			if (!values[i])
				continue;
			int index = sec.first + i;
			int code = params_set_text(p, index, values[i]);
			if (code) {
				value_error(err, errlen, name, scan->line[index], params_def(index),
					    code, values[i]);
				rc = GULLY_EFORMAT;
			}
		}
	}
	if (!rc && doc[0])
		snprintf(m->description, sizeof m->description, "%s", (const char *)doc[0]);
	if (!rc && doc[1]) {
		snprintf(m->process, sizeof m->process, "%s", (const char *)doc[1]);
		if (!process_find(m->process)) {
			char q[48];
			preset_quote(q, sizeof q, m->process, 31);
			snprintf(err, errlen, "%s:%d: process: no process named '%s' (one of %s)",
				 name, scan->process_line, q, process_names());
			rc = GULLY_EFORMAT;
		}
	}
	return rc;
}

static int load_locked(const char *name, const char *text, size_t len, struct params *out,
		       struct preset_meta *meta, char *err, size_t errlen)
{
	if (len > PRESET_MAX_BYTES) {
		snprintf(err, errlen, "%s: larger than %d KiB, so not a preset", name,
			 PRESET_MAX_BYTES / 1024);
		return GULLY_EFORMAT;
	}
	struct preset_scan scan;
	scan.line = calloc((size_t)params_count(), sizeof *scan.line);
	if (!scan.line) {
		snprintf(err, errlen, "%s: out of memory", name);
		return GULLY_ENOMEM;
	}
	int rc = preset_scan(name, (const unsigned char *)text, len, &scan, err, errlen);
	if (rc) {
		free(scan.line);
		return rc;
	}

	struct schema schema;
	if ((rc = schema_build(&schema))) {
		free(scan.line);
		snprintf(err, errlen, "%s: out of memory", name);
		return rc;
	}
	struct cyaml_log lg = {.first = "", .line = 0};
	cyaml_config_t cfg = {
		.log_fn = log_capture,
		.log_ctx = &lg,
		.mem_fn = cyaml_mem,
		.log_level = CYAML_LOG_ERROR,
		.flags = CYAML_CFG_DEFAULT,
	};
	void **doc = NULL;
	/* Everything goes into a copy; *out changes only when all of it is good. */
	struct params p;
	struct preset_meta m = {"", ""};
	rc = cyaml_parse(name, text, len, &cfg, &lg, &schema, &doc, err, errlen);
	if (!rc) {
		params_defaults(&p);
		rc = doc_values(doc, &schema, &scan, name, &p, &m, err, errlen);
		cyaml_free(&cfg, &schema.top, doc, 0);
	}
	schema_free(&schema);
	free(scan.line);
	if (rc)
		return rc;
	*out = p;
	if (meta)
		*meta = m;
	return GULLY_OK;
}

int preset_load_text(const char *name, const char *text, size_t len, struct params *out,
		     struct preset_meta *meta, char *err, size_t errlen)
{
	struct c_numeric cn;
	if (c_numeric_begin(&cn)) {
		snprintf(err, errlen, "%s: out of memory", name);
		return GULLY_ENOMEM;
	}
	int rc = load_locked(name, text, len, out, meta, err, errlen);
	c_numeric_end(&cn);
	return rc;
}

int preset_load_file(const char *path, struct params *out, struct preset_meta *meta,
		     char *err, size_t errlen)
{
	char *text;
	size_t len;
	if (file_read_all(path, PRESET_MAX_BYTES, &text, &len) != 0) {
		if (errno == EFBIG)
			snprintf(err, errlen, "%s: larger than %d KiB, so not a preset", path,
				 PRESET_MAX_BYTES / 1024);
		else
			snprintf(err, errlen, "%s: %s", path, file_strerror(errno));
		return errno == ENOENT ? GULLY_ENOTFOUND : GULLY_EIO;
	}
	int rc = preset_load_text(path, text, len, out, meta, err, errlen);
	free(text);
	return rc;
}

int preset_peek(const char *path, struct preset_meta *meta)
{
	char *text;
	size_t len;
	meta->description[0] = meta->process[0] = '\0';
	if (file_read_all(path, PRESET_MAX_BYTES, &text, &len) != 0)
		return errno == ENOENT ? GULLY_ENOTFOUND : GULLY_EIO;
	preset_scan_peek((const unsigned char *)text, len, meta);
	free(text);
	return GULLY_OK;
}

/* ---- saving ---- */

/* A growing text buffer; `failed` sticks after the first allocation failure. */
struct sbuf {
	char *s;
	size_t len, cap;
	bool failed;
};

__attribute__((format(printf, 2, 3)))
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	if (b->failed)
		return;
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->failed = true;
			return;
		}
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t want = b->cap ? b->cap * 2 : 4096;
		while (want < b->len + (size_t)n + 1)
			want *= 2;
		char *ns = realloc(b->s, want);
		if (!ns) {
			b->failed = true;
			return;
		}
		b->s = ns;
		b->cap = want;
	}
}

/* A double-quoted YAML scalar. Control characters, C1 controls and U+2028/9
 * (line breaks to YAML 1.1) become spaces: a preset's texts are one line, and
 * the loader refuses them, so escaping them would write a file that cannot
 * be read back. */
static void sb_quoted(struct sbuf *b, const char *text)
{
	sb_printf(b, "\"");
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c == '"' || *c == '\\') {
			sb_printf(b, "\\%c", *c);
		} else if (*c < 0x20 || *c == 0x7f) {
			sb_printf(b, " ");
		} else if (c[0] == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f) {
			sb_printf(b, " ");
			c++;
		} else if (c[0] == 0xe2 && c[1] == 0x80 && (c[2] == 0xa8 || c[2] == 0xa9)) {
			sb_printf(b, " ");
			c += 2;
		} else {
			sb_printf(b, "%c", *c);
		}
	}
	sb_printf(b, "\"");
}

/* The shortest plain decimal that reads back as v, so ranges read "0.05",
 * not "0.050000000000000003", and "1000", not "1e+03" (%g's shortest). */
static void shortest(char *buf, size_t len, double v)
{
	for (int decimals = 0; decimals <= 17 && fabs(v) < 1e15; decimals++) {
		snprintf(buf, len, "%.*f", decimals, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

static void format_locked(struct sbuf *b, const struct params *p, const struct preset_meta *meta)
{
	sb_printf(b, "# gully preset, written by %s: every parameter, each with its help\n"
		  "# and range. A preset may name only what it changes; the rest default.\n",
		  gully_version());
	if (meta && meta->description[0]) {
		sb_printf(b, "description: ");
		sb_quoted(b, meta->description);
		sb_printf(b, "\n");
	}
	if (meta && meta->process[0]) {
		if (strspn(meta->process, "abcdefghijklmnopqrstuvwxyz0123456789_-") ==
		    strlen(meta->process)) {
			sb_printf(b, "process: %s\n", meta->process);
		} else {
			sb_printf(b, "process: ");
			sb_quoted(b, meta->process);
			sb_printf(b, "\n");
		}
	}
	struct param_section sec;
	for (int k = 0; params_section(k, &sec); k++) {
		sb_printf(b, "\n# %s\n%s:\n", sec.help, sec.name);
		for (int i = sec.first; i < sec.first + sec.count; i++) {
			const struct param_def *d = params_def(i);
			char value[64], range[96];
			params_format(p, i, value, sizeof value);
			switch (d->type) {
			case PARAM_DOUBLE:
			case PARAM_INT:
			{
				char lo[32], hi[32];
				shortest(lo, sizeof lo, d->min);
				shortest(hi, sizeof hi, d->max);
				snprintf(range, sizeof range, "%s to %s", lo, hi);
			}
				break;
			case PARAM_BOOL:
				snprintf(range, sizeof range, "true or false");
				break;
			case PARAM_ENUM:
				snprintf(range, sizeof range, "%s", d->choices);
				break;
			}
			int pad = 24 - (int)(strlen(d->name) + strlen(value));
			sb_printf(b, "  %s: %s%*s # %s (%s)\n", d->name, value, pad > 0 ? pad : 0, "",
				  d->help, range);
		}
	}
}

int preset_format(const struct params *p, const struct preset_meta *meta, char **text)
{
	*text = NULL;
	struct c_numeric cn;
	if (c_numeric_begin(&cn))
		return GULLY_ENOMEM;
	struct sbuf b = {0};
	format_locked(&b, p, meta);
	c_numeric_end(&cn);
	if (b.failed) {
		free(b.s);
		return GULLY_ENOMEM;
	}
	*text = b.s;
	return GULLY_OK;
}

int preset_to_yaml(const struct params *p, char **text)
{
	return preset_format(p, NULL, text);
}

int preset_save(const char *path, const struct params *p, const struct preset_meta *meta,
		char *err, size_t errlen)
{
	char *text;
	int rc = preset_format(p, meta, &text);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, gully_strerror(rc));
		return rc;
	}
	struct atomic_file af;
	if (atomic_open(&af, path) != 0) {
		snprintf(err, errlen, "%s: %s", path, file_strerror(errno));
		free(text);
		return GULLY_EIO;
	}
	size_t len = strlen(text);
	bool ok = fwrite(text, 1, len, af.fp) == len;
	free(text);
	if (!ok) {
		int e = errno;
		atomic_abort(&af);
		snprintf(err, errlen, "%s: %s", path, strerror(e ? e : EIO));
		return GULLY_EIO;
	}
	if (atomic_commit(&af) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return GULLY_EIO;
	}
	return GULLY_OK;
}
