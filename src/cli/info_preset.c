/* What `gully info` shows for a preset: every resolved value, marked where
 * the preset differs from the built-in default. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/base/error.h"
#include "io/fileio.h"
#include "io/image.h"
#include "io/snapshot.h"

bool info_is_preset(const char *arg)
{
	char path[4096];
	if (preset_resolve(arg, path, sizeof path) != GULLY_OK)
		return false;
	size_t n = strlen(path);
	if ((n >= 5 && strcmp(path + n - 5, ".yaml") == 0) ||
	    (n >= 4 && strcmp(path + n - 4, ".yml") == 0))
		return true;
	/* Named as a snapshot: report it as one, even when it is damaged text. */
	if (snapshot_is_name(path))
		return false;
	/* Any other path: a snapshot is binary and starts with a magic number
	 * that holds a NUL or a control byte; a preset is text. */
	FILE *fp = file_open_regular(path); /* a FIFO must not block here */
	if (!fp)
		return false;
	unsigned char buf[512];
	size_t got = fread(buf, 1, sizeof buf, fp);
	fclose(fp);
	for (size_t i = 0; i < got; i++)
		if (buf[i] == 0 || (buf[i] < 0x20 && !strchr("\t\r\n", buf[i])))
			return false;
	return true;
}

bool cli_arg_named_map(const char *arg)
{
	return image_format_from_path(arg) != IMAGE_NONE || snapshot_is_name(arg);
}

enum cli_arg_kind cli_arg_kind(const char *arg)
{
	if (cli_arg_named_map(arg))
		return CLI_ARG_MAP;
	if (info_is_preset(arg))
		return CLI_ARG_PRESET;
	return access(arg, F_OK) != 0 ? CLI_ARG_MISSING : CLI_ARG_MAP;
}

int cli_arg_missing(const char *cmd, const char *arg, const char *what)
{
	char hint[128];
	cli_preset_hint(arg, hint, sizeof hint);
	if (hint[0])
		return cli_usage_error(cmd, "'%s' is no %s%s", arg, what, hint);
	return cli_usage_error(cmd, "'%s' is no %s (see `%s presets`)", arg, what, cli_program);
}

int cli_heightmap_not_snapshot(const char *cmd, const char *arg, const char *out,
			       const char *todo)
{
	if (image_format_from_path(arg) == IMAGE_NONE || snapshot_is_name(arg) ||
	    access(arg, F_OK) != 0)
		return 0;
	return cli_usage_error(cmd, "'%s' is a picture or height map, not a snapshot (.gsnap); %s "
			       "`%s run %s --particles 0 -o %s`", arg, todo, cli_program,
			       cli_quote(arg), out);
}

void cli_json_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(fp, "\\%c", *c);
		else if (*c < 0x20)
			fprintf(fp, "\\u%04x", *c);
		else
			fputc(*c, fp);
	}
	fputc('"', fp);
}

/* The values as one JSON object: the file, its words, every value and the
 * keys that differ from the defaults. */
static void print_json(FILE *fp, const char *path, const struct preset_meta *meta,
		       const struct params *p, const struct params *def)
{
	fprintf(fp, "{\"preset\": ");
	cli_json_string(fp, path);
	fprintf(fp, ", \"description\": ");
	cli_json_string(fp, meta->description);
	fprintf(fp, ", \"process\": ");
	cli_json_string(fp, meta->process);
	fprintf(fp, ", \"params\": {");
	for (int i = 0; i < params_count(); i++) {
		const struct param_def *d = params_def(i);
		char v[64];
		params_format(p, i, v, sizeof v);
		fprintf(fp, "%s\"%s\": ", i ? ", " : "", d->key);
		if (d->type == PARAM_ENUM)
			cli_json_string(fp, v);
		else
			fputs(v, fp);
	}
	fprintf(fp, "}, \"changed\": [");
	int k = 0;
	for (int i = 0; i < params_count(); i++)
		if (params_get(p, i) != params_get(def, i))
			fprintf(fp, "%s\"%s\"", k++ ? ", " : "", params_def(i)->key);
	fprintf(fp, "]}\n");
}

/* The values section by section, those that differ marked '*'. */
static void print_table(FILE *fp, const char *path, const struct preset_meta *meta,
			const struct params *p, const struct params *def)
{
	fprintf(fp, "preset       %s\n", path);
	if (meta->description[0])
		fprintf(fp, "description  %s\n", meta->description);
	fprintf(fp, "process      %s\n", meta->process[0] ? meta->process : "(not named: particles)");
	int changed = 0;
	struct param_section sec;
	for (int s = 0; params_section(s, &sec); s++) {
		fprintf(fp, "\n[%s] %s\n", sec.name, sec.help);
		for (int i = sec.first; i < sec.first + sec.count; i++) {
			char v[64], dv[64];
			params_format(p, i, v, sizeof v);
			params_format(def, i, dv, sizeof dv);
			bool diff = params_get(p, i) != params_get(def, i);
			changed += diff;
			if (diff)
				fprintf(fp, "* %-30s %-12s (default %s)\n", params_def(i)->key, v, dv);
			else
				fprintf(fp, "  %-30s %s\n", params_def(i)->key, v);
		}
	}
	fprintf(fp, "\n%d of %d parameters differ from the defaults (marked *).\n", changed,
		params_count());
}

int info_preset(const char *arg, bool json)
{
	char path[4096];
	int rc = preset_resolve(arg, path, sizeof path);
	if (rc && preset_is_file(arg)) {
		cli_error("%.200s: no such preset file", arg);
		return 1;
	}
	if (rc) {
		/* A name that is not there is a usage error, as -p NAME's is, and
		 * said as one (only `gully presets NAME` gets here: info takes a
		 * name for a preset only once it resolves). */
		char hint[128];
		if (!preset_name_ok(arg)) {
			struct params p;
			char err[PRESET_ERR_MAX];
			preset_load(arg, &p, NULL, err, sizeof err); /* says why */
			return cli_usage_error("presets", "%s", err);
		}
		cli_preset_hint(arg, hint, sizeof hint);
		return cli_usage_error("presets", "no preset named '%.64s'%s (see `gully presets`)",
				       arg, hint);
	}
	struct params p, def;
	struct preset_meta meta;
	char err[PRESET_ERR_MAX];
	if (preset_load_file(path, &p, &meta, err, sizeof err)) {
		cli_error("%s", err);
		return 1;
	}
	params_defaults(&def);
	if (json)
		print_json(stdout, path, &meta, &p, &def);
	else
		print_table(stdout, path, &meta, &p, &def);
	return cli_flush_stdout("the preset's values");
}
