/* The explorer's state, shared by its screens (one file each: map, panel,
 * status, help, prompt) and the loop in app.c. */
#ifndef GULLY_APP_H
#define GULLY_APP_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "core/base/params.h"
#include "core/particles/particles.h"
#include "core/base/process.h"
#include "core/base/rng.h"
#include "core/base/world.h"
#include "view/shade.h"

#define PANEL_WIDTH 30
#define MIN_COLS 80
#define MIN_ROWS 24
#define TRACERS 12
#define TRACER_TAIL 10

struct tracer {
	struct droplet d;
	float x[TRACER_TAIL], y[TRACER_TAIL]; /* recent positions, newest first */
	int n;
};

/* Undo checkpoints (undo.c). */
#define UNDO_DEPTH 8
#define UNDO_MAX_BYTES ((size_t)256 << 20)
#define UNDO_EVERY_SECONDS 3.0
/* Above this many cells a checkpoint's copy (28 bytes a cell) takes tens of
 * milliseconds, so a running map is not checkpointed on a timer (a key
 * pressed then would wait for the copy); a run's start and `.` still are. */
#define UNDO_TIMED_MAX_CELLS ((size_t)512 * 512)

struct undo_entry {
	struct world *world;
	const struct process_ops *proc;
	unsigned char *state;        /* the process's save_state blob, or NULL */
	size_t state_len;
	bool pristine;
	size_t bytes;                /* what this entry holds in memory */
};

struct undo_ring {
	struct undo_entry e[UNDO_DEPTH];
	int head, count;             /* head: the next slot written */
	size_t bytes;
	double last;                 /* app_now() of the last checkpoint */
	bool said_too_big;
};

struct app {
	struct params params;
	struct world *world;
	const struct process_ops *proc;
	void *state;

	struct shade_view view;
	struct shade_frame frame;

	bool running, help, quit, dirty, redraw_all, needs_draw;
	/* The world is what the parameters generate: made by g or a preset
	 * load, nothing run since (session_preset.c says what the unsaved mark
	 * means). */
	bool pristine;
	bool equations;              /* the equation panel is shown */
	int sel;                     /* selected entry of plist */
	int plist[64], nparams;      /* parameter indices the panel shows */

	char file[PATH_MAX];         /* the snapshot this session came from or went to */
	char preset[64];             /* the preset loaded or saved last, or "" */
	char message[256];           /* transient status text */
	double message_until;

	uint64_t slice_budget;       /* units per ~25 ms slice, measured */
	double rate;                 /* units per second, smoothed */
	double fps;

	/* Pool volume, summed a band of rows per frame so a huge map never
	 * stalls a frame; pool_volume is the last complete sum. */
	double pool_volume, pool_acc;
	int pool_row;

	struct rng tracer_rng;
	struct tracer tracers[TRACERS];
	struct shade_point points[TRACERS * TRACER_TAIL];
	int npoints;

	int map_cols, map_rows;      /* the map area in cells */
	int map_left;                /* blank columns before the map, centring it */
	/* The colours last sent per pixel, for hysteresis (map.c). */
	struct rgb *shown;
	size_t nshown;
	bool shown_valid;
	struct shade_geom shown_geom;

	struct undo_ring undo;
};

/* session.c: the world, the process and files; no curses. */
int session_new_world(struct app *a, char *err, size_t errlen);
/* Switches to process p on the same world; err says why not. */
int session_set_process(struct app *a, const struct process_ops *p, char *err, size_t errlen);
int session_load(struct app *a, const char *path, char *err, size_t errlen);
int session_save(struct app *a, const char *path, char *err, size_t errlen);
void session_free(struct app *a);
/* Rebuilds the panel's parameter list: the process's section, then view. */
void session_param_list(struct app *a);
/* Runs `budget` units of the process; marks the session unsaved. */
int session_step(struct app *a, uint64_t budget, uint64_t *done);

/* session_preset.c: presets by name (or file). A failed load changes
 * nothing; err is one line. */
int session_load_preset(struct app *a, const char *name, char *err, size_t errlen);
/* a->preset from a preset's name or file: "dir/x.yaml" is "x". */
void session_preset_label(struct app *a, const char *arg);
/* Whether a preset of that name is visible (its file in path). */
bool session_preset_exists(const char *name, char *path, size_t len);
int session_save_preset(struct app *a, const char *name, char *path, size_t pathlen,
			char *err, size_t errlen);

/* undo.c: checkpoints of the simulation. */
int undo_push(struct app *a, double now);
/* Restores the newest checkpoint that differs from now; err says why not. */
int undo_pop(struct app *a, char *err, size_t errlen);
int undo_levels(const struct app *a);
void undo_clear(struct app *a);

/* source.c: the emitter (a process whose parameter section has x, y,
 * direction and window) as the map shows it and the keys move it. */
struct source {
	int ix, iy, idir, iwin;      /* registry indices */
	double x, y;                 /* world cells */
	double window;               /* cells */
	double direction;            /* degrees, 0 east, 90 south */
};
bool source_get(const struct app *a, struct source *s);
/* Moves by (dx, dy) steps of x and y, turns by dturn steps of direction
 * (wrapping round at +-180); false when there is no source. */
bool source_move(struct app *a, int dx, int dy, int dturn);
/* Puts it over world cell (cx, cy). */
bool source_place(struct app *a, int cx, int cy);

/* tracer.c: droplets that show the flow without eroding. */
void tracer_reset(struct app *a);
void tracer_advance(struct app *a, int steps);

/* Screens. */
void map_draw(struct app *a, int rows, int cols);
bool map_inspect(struct app *a, int row, int col, char *buf, size_t len);
/* The world cell under screen cell (row, col) of the map; false off it. */
bool map_cell(const struct app *a, int row, int col, int *cx, int *cy);
void panel_draw(struct app *a, int x, int rows, int cols);
void status_draw(struct app *a, int row, int cols);
void help_draw(int rows, int cols);
/* Reads a line in the status row; false when cancelled (Esc) or interrupted. */
bool prompt_read(struct app *a, const char *question, char *buf, size_t len);
struct completion;
/* The same with Tab completion (comp may be NULL). */
bool prompt_read_ex(struct app *a, const char *question, char *buf, size_t len,
		    struct completion *comp);
/* A y/n question in the status row: true only for y. */
bool prompt_yes_no(struct app *a, const char *question);
void equations_draw(struct app *a, int rows, int cols);
void source_draw(struct app *a);

/* app.c */
void app_message(struct app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
double app_now(void);

/* signals.c */
void signals_install(void);
/* The signal caught since start (0 when none). */
int signals_caught(void);

#endif
