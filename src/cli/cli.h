/* The command line: one file per subcommand, shared option handling. */
#ifndef GULLY_CLI_H
#define GULLY_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/base/params.h"
#include "core/base/world.h"
#include "core/sph/sph.h"
#include "io/preset.h"

/* Exit statuses: 0 success, 1 a failure (bad file, I/O), 2 a usage error. */
#define EXIT_USAGE 2

/* What a value or a bare argument is, for `gully complete` (cmd_complete.c)
 * to offer: nothing (a number, free text), file or directory names, the
 * preset names -p finds (and files), a name from a fixed set, a comma list
 * of such names, `params`'s section or key, --set's
 * KEY=VALUE or --vary's KEY=V1,V2. */
enum cli_value_kind {
	CLI_VALUE_NONE, CLI_VALUE_FILE, CLI_VALUE_DIR, CLI_VALUE_PRESET, CLI_VALUE_NAME,
	CLI_VALUE_NAME_LIST, CLI_VALUE_SECTION, CLI_VALUE_PARAM_SET, CLI_VALUE_PARAM_VARY,
};
/* One option's value: the long option's name and what it takes; `names`
 * lists a fixed set, as cli_nearest walks names (NULL past the end), from
 * the table the option's own parse reads. */
struct cli_value {
	const char *option;
	enum cli_value_kind kind;
	const char *(*names)(int index, void *ctx);
};
/* A command's command line: the very tables its getopt_long reads, so
 * completion offers every option it takes and nothing else. `refused`
 * (0-terminated, may be NULL): the getopt values of options the table
 * holds only to refuse them with a better word than "unknown option". */
struct option;
struct cli_options {
	const char *shortopts;
	const struct option *longopts;
	const struct cli_value *values; /* ends with {NULL}; an option not in it takes nothing to offer */
	const int *refused;
	enum cli_value_kind bare;       /* what its bare arguments are */
	/* Long options for the build and the tests (the man page's key list,
	 * a frame count), in no --help: completion does not offer them. */
	const char *const *hidden;
};

struct cli_command {
	const char *name;
	const char *args;    /* usage after the name */
	const char *summary; /* one line for `gully --help`; NULL: not listed */
	int (*exec)(int argc, char **argv);
	const struct cli_options *options;
};
/* main.c: command number `index` of the table main dispatches on, NULL past
 * the end (the hidden ones included: their summary is NULL). */
const struct cli_command *cli_command_get(int index);
/* Each command's options (its cmd_*.c); explore_options for no command. */
extern const struct cli_options run_options, sweep_options, params_options, render_options,
	info_options, presets_options, explore_options;

/* main.c */
extern const char *cli_program;
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* getopt_long's '?' (unknown option) or ':' (missing value) as a usage error
 * naming the option, with the nearest of the command's `longopts` or the
 * parameter an unknown --NAME may have meant; returns EXIT_USAGE. */
int cli_bad_option(const char *cmd, int opt, char **argv, const struct option *longopts);
/* Flushes stdout; when anything written to it was lost (a full disk, a
 * closed pipe with SIGPIPE ignored), says "gully: cannot write WHAT to
 * stdout: REASON" (once a process) and returns 1, else 0. Every command
 * that prints ends with it, as a run whose output vanished must not pass. */
int cli_flush_stdout(const char *what);
/* The version, the vector code in use, the cores, the libraries and the
 * presets' search path (version.c). */
void cli_print_version(FILE *fp);
/* Prints "gully CMD: message" and a hint to --help; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A value from the command line or a file as a message shows it: control
 * bytes as '?', cut to CLI_QUOTE_MAX bytes with "...". Four at a time. */
#define CLI_QUOTE_MAX 60
const char *cli_quote(const char *s);

/* suggest.c: the nearest of the names name(0), name(1), ... (until NULL)
 * close enough to `word` to be a typo of it, or NULL. */
const char *cli_nearest(const char *word, const char *(*name)(int index, void *ctx), void *ctx);
/* The names name(0, ctx), name(1, ctx), ... up to the first NULL, skipping
 * "", joined by sep into buf (cut at a whole name when buf is full). */
void cli_join_names(char *buf, size_t len, const char *sep,
		    const char *(*name)(int index, void *ctx), void *ctx);
/* "OPT: unknown parameter 'KEY' (did you mean ...?)" as a usage error (opt
 * NULL: no "OPT: "). */
int cli_unknown_key(const char *cmd, const char *opt, const char *key);
/* For an unknown "--NAME[=V]": " (did you mean --OPT?)" with the nearest of
 * longopts (may be NULL), or " (a parameter? --set KEY=VALUE)", or "". */
void cli_option_hint(const char *arg, const struct option *longopts, char *buf, size_t len);
/* " (did you mean river-valley?)" for a preset name close to one found on
 * the preset path, else "". */
void cli_preset_hint(const char *name, char *buf, size_t len);

/* options.c: options shared by the explorer, run and sweep. */
struct sim_options {
	const char *process;  /* --process NAME */
	uint64_t particles;   /* --particles/--steps N */
	bool particles_set;
	long seed;            /* --seed S; -1 when not given */
	int width, height;    /* --size WxH; 0 when not given */
	const char **sets;    /* --set KEY=VALUE, in order */
	int nsets;
	const char **outputs; /* -o FILE, repeatable, each by its extension */
	int noutputs;
	const char *hardness; /* --hardness FILE[.gsnap[:LAYER]] */
	const char *rain;     /* --rain FILE: where droplets start, weighted */
	bool json, quiet;
	const char *preset;   /* -p/--preset NAME|FILE; NULL for the defaults */
	bool dump_preset;     /* --dump-preset: print the effective preset, run nothing */
	bool transpose;       /* --transpose: a raw height map runs down columns */
	bool range_set;       /* --range MIN:MAX: integer height maps' 0..max */
	double range_min, range_max;
	int threads;          /* run's --threads N: -1 when not given */
};

/* The getopt_long entries every simulation command accepts; values >= 0x100. */
enum {
	OPT_PROCESS = 0x100, OPT_PARTICLES, OPT_SEED, OPT_SIZE, OPT_SET,
	OPT_JSON, OPT_QUIET, OPT_HELP, OPT_VERSION, OPT_HARDNESS,
	OPT_DUMP_PRESET, OPT_TRANSPOSE, OPT_RANGE, OPT_RAIN,
};
/* getopt_long's short options for the shared set (with "-p NAME"); -h is
 * --help, as for every command (the caller takes 'h' with OPT_HELP). */
#define SIM_SHORT_OPTIONS ":ho:p:"
#define SIM_LONG_OPTIONS \
	{"process", required_argument, NULL, OPT_PROCESS}, \
	{"particles", required_argument, NULL, OPT_PARTICLES}, \
	{"steps", required_argument, NULL, OPT_PARTICLES}, \
	{"seed", required_argument, NULL, OPT_SEED}, \
	{"size", required_argument, NULL, OPT_SIZE}, \
	{"set", required_argument, NULL, OPT_SET}, \
	{"hardness", required_argument, NULL, OPT_HARDNESS}, \
	{"output", required_argument, NULL, 'o'}, \
	{"json", no_argument, NULL, OPT_JSON}, \
	{"quiet", no_argument, NULL, OPT_QUIET}, \
	{"help", no_argument, NULL, OPT_HELP}, \
	{"version", no_argument, NULL, OPT_VERSION}, \
	{"preset", required_argument, NULL, 'p'}, \
	{"dump-preset", no_argument, NULL, OPT_DUMP_PRESET}, \
	{"transpose", no_argument, NULL, OPT_TRANSPOSE}, \
	{"range", required_argument, NULL, OPT_RANGE}, \
	{"rain", required_argument, NULL, OPT_RAIN}
/* What SIM_LONG_OPTIONS' values are, for completion (struct cli_value). */
#define SIM_OPTION_VALUES \
	{"process", CLI_VALUE_NAME, cli_process_name}, \
	{"set", CLI_VALUE_PARAM_SET, NULL}, \
	{"hardness", CLI_VALUE_FILE, NULL}, \
	{"rain", CLI_VALUE_FILE, NULL}, \
	{"output", CLI_VALUE_FILE, NULL}, \
	{"preset", CLI_VALUE_PRESET, NULL}
/* The processes' names, in the process table's order (--process). */
const char *cli_process_name(int index, void *ctx);

/* How a height map is read, for run's, sweep's and the explorer's help. */
#define SIM_HEIGHTMAP_HELP \
	"  --range MIN:MAX      the heights a .r16/.pgm/.png map's 0..max stand for\n" \
	"                       (default 0:1), as `gully render --range` wrote them\n" \
	"  --transpose          the raw height map runs down columns (x-major)\n"

#define SIM_OPTIONS_HELP \
	"  --process NAME       the erosion process: %s\n" \
	"  --particles N        droplets (or time steps) to run; --steps is the same\n" \
	"  --seed S             random seed (world.seed)\n" \
	"  --size WxH           map size (world.width, world.height); with a height\n" \
	"                       map, its size (needed for a raw map that is not\n" \
	"                       square and has no WxH in its name)\n" \
	SIM_HEIGHTMAP_HELP \
	"  --set KEY=VALUE      set a parameter; repeatable; see `gully params`\n" \
	"  --hardness FILE      hardness map from a .png/.pgm/.r16/.f32 grid (stretched\n" \
	"                       over the map) or a snapshot's layer, FILE.gsnap[:LAYER];\n" \
	"                       the emitter digs by it, particles with particles.hardness\n" \
	"  --rain FILE          a rain mask: droplets start where it is high, weighted\n" \
	"                       (a grid like --hardness; particles and hydrology)\n" \
	"  -o, --output FILE    write the final map: a snapshot (.gsnap), or the height\n" \
	"                       layer by extension (.png .ppm .pgm .r16 .f32, as gully\n" \
	"                       render); repeatable, each checked before the run\n" \
	"  --json               print metrics as one JSON object instead of TSV\n" \
	"  --quiet              no progress bar (off a terminal: no line a minute)\n" \
	"  -p, --preset NAME|FILE  start from a preset (see `gully presets`); --set\n" \
	"                       applies on top\n" \
	"  --dump-preset        print the effective preset as YAML and run nothing\n"

void sim_options_init(struct sim_options *o);
void sim_options_free(struct sim_options *o);
/* Handles one shared option; 1 if handled, 0 if not ours, -1 on a usage error
 * (already reported for command `cmd`). */
int sim_options_take(struct sim_options *o, const char *cmd, int opt, const char *arg);
/* Applies --seed, --size and every --set onto p, in that order; reports the
 * first bad one and returns EXIT_USAGE, else 0. */
int sim_options_apply(const struct sim_options *o, const char *cmd, struct params *p);
/* The effective parameters: the preset (-p) or the built-in defaults, then
 * sim_options_apply. meta (may be NULL) gets the preset's description and
 * process, the process replaced by --process when given. A preset that is
 * missing or bad is reported in one line; returns 1 (bad file), EXIT_USAGE
 * (no such name, bad option) or 0. */
int sim_options_load(const struct sim_options *o, const char *cmd, struct params *p,
		     struct preset_meta *meta);
/* The process to run: --process, else the preset's, else "particles". */
const char *sim_options_process(const struct sim_options *o, const struct preset_meta *meta);
/* --dump-preset, for run and the explorer: p and meta (its process set to
 * `process`) as a preset's YAML on stdout; 0, or 1 (said). */
int cli_dump_preset(const struct params *p, struct preset_meta *meta, const char *process);
/* Strict whole-string parses for option values. */
bool parse_u64(const char *s, uint64_t *out);
/* A count as people write them: 200000, 200k, 2M, 1e6 (whole numbers only). */
bool parse_count(const char *s, uint64_t *out);
/* WIDTHxHEIGHT in whole numbers; a side over 1,000,000 reads as 1,000,001,
 * which every range refuses. */
bool parse_size(const char *s, int *w, int *h);
/* MIN:MAX, two numbers a float32 holds (|v| <= FLT_MAX), MIN < MAX as floats. */
bool parse_range(const char *s, double *min, double *max);
/* --transpose and --range say how to read a height map: refused (said,
 * EXIT_USAGE) unless the run starts from one, `start` named as a height
 * map (.r16 .f32 .pgm .png .ppm); start may be NULL (a new terrain) or a
 * snapshot. 0 otherwise. */
int sim_options_check_start(const struct sim_options *o, const char *cmd, const char *start);
/* A grid as read from a file, its own size. */
struct sim_grid {
	float *values;
	int width, height;
};
/* Loads --hardness into w's layer, stretched to the map, or, with w NULL
 * (the explorer, whose terrains come later), reads it as it is into *grid
 * (caller frees grid->values); either way hardness.generator becomes file.
 * Without --hardness, hardness.generator=file is refused for a new
 * terrain (not from_snapshot). 0, or an exit status (reported: a bad map
 * 1, the refusal 2). */
int sim_options_hardness(const struct sim_options *o, const char *cmd, struct params *p,
			 bool from_snapshot, struct world *w, struct sim_grid *grid);
/* Loads --rain into w (stretched over the map); 0, or an exit status (reported). */
int sim_options_rain(const struct sim_options *o, struct world *w);
/* Reads --rain as sim_options_rain would for a width x height map (0 x 0:
 * the file's own size) and keeps nothing; 0, or 1 (reported). */
int sim_options_rain_check(const struct sim_options *o, int width, int height);
struct process_ops;
/* --rain for a process that takes no rain mask (process_ops.uses_rain):
 * EXIT_USAGE, said for `cmd`, rather than a mask read and dropped; else 0. */
int sim_options_rain_process(const struct sim_options *o, const char *cmd,
			     const struct process_ops *proc);
/* "KEY: value out of range (min to max)" style text for a params error. */
void describe_param_error(char *buf, size_t len, int err, int index, const char *text);

/* heightmap.c: a height map (.r16 .f32 .pgm .png) as the starting terrain,
 * read with --size, --transpose and --range, said on stderr unless --quiet. */
struct heightmap {
	int width, height;
	float *heights;
};
/* Reads path and sets p's world.width/height to its size; 0 or a status. */
int heightmap_read(const struct sim_options *o, const char *cmd, const char *path,
		   struct params *p, struct heightmap *hm);
void heightmap_free(struct heightmap *hm);

/* metrics.c: the table `gully run` prints, from one list of columns. */
struct run_metrics {
	const char *process;
	long seed;
	int width, height;
	uint64_t particles, steps;
	double seconds;
	const struct world *world;
	struct world_stats stats;
	struct sph_metrics sph; /* zero unless the process is sph */
};
/* ops and state (may be NULL) add the process's own columns. */
void metrics_collect(struct run_metrics *m, const struct world *w,
		     const struct process_ops *ops, const void *state);
void metrics_print_header(FILE *fp);
void metrics_print_row(FILE *fp, const struct run_metrics *m);
void metrics_print_json(FILE *fp, const struct run_metrics *m);

/* progress.c: a bar on stderr when it is a terminal, else a line a minute. */
/* The samples the time left is worked out from: one a second at most. */
#define PROGRESS_SAMPLES 16
/* Off a terminal (nohup, 2>log) a plain line this often, so a long run's
 * log says how far it got; none for a run shorter than that. */
#define PROGRESS_LOG_SECONDS 60.0
struct progress {
	bool enabled;
	bool log;                   /* not a terminal: progress_log_line's lines */
	double last_log;
	uint64_t total;
	const char *unit;
	double started, last_draw;
	double t[PROGRESS_SAMPLES]; /* a ring of (time, done) */
	uint64_t n[PROGRESS_SAMPLES];
	int head, count;
};
void progress_begin(struct progress *pg, uint64_t total, const char *unit, bool quiet);
void progress_update(struct progress *pg, uint64_t done);
void progress_end(struct progress *pg);
/* The seconds left at `now` with `done` of the total: at the rate of the
 * last PROGRESS_SAMPLES seconds or so, not of the whole run, so a run that
 * slows (hydrology's lakes grow) says so soon. Takes a sample. */
double progress_eta(struct progress *pg, double now, uint64_t done);
/* "4.5s", "1m05s", "2h03m": a time left as a person reads it. */
void progress_duration(char *buf, size_t len, double seconds);
/* "reading big.gsnap..." on the bar's line while a file is read or written
 * (a 4096x4096 snapshot is half a gigabyte), when the bar would show; then
 * progress_note_clear. Cut to the terminal's width. */
void progress_note(bool quiet, const char *verb, const char *path);
void progress_note_clear(bool quiet);
/* The terminal's width on fd (TIOCGWINSZ), else $COLUMNS (a whole number
 * to 10000), else 80: the bar's, and render --ansi's default width. */
int cli_terminal_columns(int fd);
/* One bar line into buf (no \r), at most columns - 1 characters: the bar
 * shrinks (30 cells at most), then the counts go, then the text is cut. */
void progress_format(char *buf, size_t len, int columns, uint64_t done, uint64_t total,
		     const char *unit, double eta);
/* The line a run off a terminal logs: "gully: 35% 700000/2000000 droplets,
 * 2m10s in, 4m01s left", into buf (no newline). */
void progress_log_line(char *buf, size_t len, uint64_t done, uint64_t total, const char *unit,
		       double elapsed, double eta);
/* Whether a run off a terminal logs a line at `now`: PROGRESS_LOG_SECONDS
 * after the start or the last line, and not when it is done (the row says
 * that). Marks the line as written when it says yes. */
bool progress_log_due(struct progress *pg, double now, uint64_t done);
double clock_seconds(void);

/* One per subcommand. */
int cmd_run(int argc, char **argv);
int cmd_params(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_render(int argc, char **argv);

/* cmd_render.c: the layer names as "height|base|...", for help and errors;
 * one by one (NULL past the end), for --layer's completion. */
const char *cli_layer_names(void);
const char *cli_layer_name(int index, void *ctx);
/* The overlays --overlay's list names (shade_overlays_parse; "none" aside). */
const char *cli_overlay_name(int index, void *ctx);
/* The colour tiers --color and --ansi take (term_tier_parse), by name. */
const char *cli_tier_name(int index, void *ctx);
int cmd_presets(int argc, char **argv);
/* cmd_complete.c: `gully complete [--] WORD...`, the candidates for the
 * last word, one a line (completion/gully.bash reads them). */
int cmd_complete(int argc, char **argv);

/* info_preset.c: what `gully info` shows for a preset (a name or a .yaml). */
/* True when `arg` names a preset rather than a snapshot: a .yaml/.yml file, a
 * preset name on the search path, or a file that begins as text. */
bool info_is_preset(const char *arg);
/* What a command's bare argument is, as run and the explorer take one: a
 * map by its name (a height map's extension, .gsnap), else a preset
 * (info_is_preset), else no file at all, else a map (a snapshot by its
 * content). */
enum cli_arg_kind { CLI_ARG_MAP, CLI_ARG_PRESET, CLI_ARG_MISSING };
/* A map by its name alone: a height map's extension or a snapshot's. */
bool cli_arg_named_map(const char *arg);
enum cli_arg_kind cli_arg_kind(const char *arg);
/* The usage error for a CLI_ARG_MISSING argument of `cmd`: what it is not,
 * the preset it may have meant. Returns EXIT_USAGE. */
int cli_arg_missing(const char *cmd, const char *arg, const char *what);
/* For a command that reads snapshots: when arg is an existing file named as
 * a picture or height map (.png, .ppm, .pgm, .r16, .f32), the usage error
 * saying so and, after `todo` ("a height map becomes one with"), the
 * `gully run` that reads it into `out`; else 0. */
int cli_heightmap_not_snapshot(const char *cmd, const char *arg, const char *out,
			       const char *todo);
/* Prints the resolved values on stdout, section by section, marking those
 * the preset changes (or as JSON); returns an exit status, 1 when stdout
 * lost them (said). */
int info_preset(const char *arg, bool json);
/* s as a JSON string, quoted and escaped (bytes from 0x80 as they are). */
void cli_json_string(FILE *fp, const char *s);
/* cmd_explore.c: no command name, the explorer. */
int cmd_explore(int argc, char **argv);
void explore_options_help(FILE *fp);

#endif
