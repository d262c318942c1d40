/* The explorer's state, shared by its screens (one file each: map, panel,
 * status, help, prompt), the key handlers (actions.c) and the loop
 * (main_loop.c). */
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
#include "core/emitter/emitter.h"
#include "io/simulation.h"
#include "core/hydrology/hydrology_trace.h"
#include "core/particles/trace.h"
#include "view/shade.h"

#define PANEL_WIDTH 30
/* Below this the "too small" screen; down to it the map and the status
 * line, the panel too from PANEL_MIN_COLS x PANEL_MIN_ROWS. */
#define MIN_COLS 40
#define MIN_ROWS 12
#define PANEL_MIN_COLS 72
#define PANEL_MIN_ROWS 16
#define TRACERS 12
#define TRACER_TAIL 10

struct tracer {
	struct droplet d;
	float x[TRACER_TAIL], y[TRACER_TAIL]; /* recent positions, newest first */
	int n;
};

/* The cross-section (profile.c): a row, a column or a line picked by two
 * clicks, and the samples along it (one per screen column). */
enum profile_mode { PROFILE_OFF, PROFILE_ROW, PROFILE_COLUMN, PROFILE_LINE };
#define PROFILE_MAX_COLS 512
struct profile_point {
	float height, base, pool;
};
struct profile {
	int mode;                    /* enum profile_mode */
	int row, col;                /* PROFILE_ROW's row, PROFILE_COLUMN's column */
	int x0, y0, x1, y1;          /* PROFILE_LINE's ends, world cells */
	int picking;                 /* clicks still wanted for a line: 2, 1 or 0 */
	int width, height;           /* the map they are on (profile_fit rescales to a new one) */
	struct profile_point points[PROFILE_MAX_COLS];
};

/* The single-droplet trace (trace.c): core's particles_trace and the path
 * drawn so far. */
#define TRACE_PATH 256
enum trace_kind { TRACE_DROPLET, TRACE_EMITTER, TRACE_HYDRO };
struct trace_view {
	bool on;
	int kind;                    /* enum trace_kind */
	struct emitter_particle q;   /* TRACE_EMITTER: the particle */
	struct emitter_params ep;
	double removed;              /* what its last step took from the ground */
	struct particles_trace *t;
	struct hydrology_trace *h;   /* TRACE_HYDRO: the droplet */
	struct hydrology_trace_state hs;
	const struct world *world;   /* the world it runs on */
	struct particles_trace_state s;
	float x[TRACE_PATH], y[TRACE_PATH];
	int n;
	struct rng rng;              /* for A's random starts */
	bool rng_ready;
};

/* Undo checkpoints (undo.c). */
#define UNDO_DEPTH 8
#define UNDO_MAX_BYTES ((size_t)256 << 20)
#define UNDO_EVERY_SECONDS 3.0
/* Above this many cells a checkpoint's copy (28 bytes a cell) takes tens of
 * milliseconds, so a running map is not checkpointed on a timer (a key
 * pressed then would wait for the copy); a run's start and `.` still are. */
#define UNDO_TIMED_MAX_CELLS ((size_t)512 * 512)

/* What tells a checkpoint from the world now (undo.c, same_as_now). */
struct undo_mark {
	int width, height;
	uint64_t particles, steps;
	struct rng rng;
};

/* What each process has run on the world (budget.c). The world counts
 * particles and steps for all processes at once, so after a switch the
 * next process's budget and panel counted the last one's too (sph's fluid
 * particles as droplets of particles.budget, process 1's droplet steps as
 * sph's time steps). Each is booked to the process running when it was
 * made, lazily: up to the world's counts at the marks. */
#define RUN_COUNT_PROCS 9            /* the process digits' keys */
struct run_counts {
	uint64_t particles[RUN_COUNT_PROCS], steps[RUN_COUNT_PROCS];
	uint64_t mark_particles, mark_steps;
};

struct undo_entry {
	struct world *world;         /* NULL when packed */
	unsigned char *packed;       /* the world as a snapshot, or NULL */
	size_t packed_len;
	struct undo_mark mark;
	const struct process_ops *proc;
	unsigned char *state;        /* the process's save_state blob, or NULL */
	size_t state_len;
	bool pristine;
	/* Taken before g, P or a process switch: the parameters come back
	 * too, as they made that world (a timed checkpoint keeps today's). */
	bool whole;
	struct params params;
	struct run_counts counts;    /* booked when it was taken */
	size_t bytes;                /* what this entry holds in memory */
};

struct undo_ring {
	struct undo_entry e[UNDO_DEPTH];
	int head, count;             /* head: the next slot written */
	size_t bytes;
	double last;                 /* app_now() of the last checkpoint */
	bool said_too_big;
	bool said_short;             /* of memory, since the last checkpoint kept */
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
	/* --hardness's grid (the command line's, not owned): every new terrain
	 * gets it while hardness.generator is file, or the core's uniform value. */
	const float *hardness_map;
	int hardness_w, hardness_h;
	bool equations;              /* the equation panel is shown */
	/* Its first content row shown, and (as last drawn) the rows it shows
	 * and has: it scrolls when the map's area cannot hold it all. */
	int eq_top, eq_shown, eq_total;
	int source_pick;             /* which of the process's sources the keys move */
	int sel;                     /* selected entry of plist */
	int plist[PARAMS_MAX], nparams; /* parameter indices the panel shows */

	char file[PATH_MAX];         /* the snapshot this session came from or went to */
	char preset[64];             /* the preset loaded or saved last, or "" */
	char message[256];           /* transient status text */
	double message_until;

	uint64_t slice_budget;       /* units per worker slice (~8 ms), measured */
	double rate;                 /* units per second, smoothed */
	double speed_cap;            /* at most this many units a second (m, M,
				      * --speed): slow motion; 0 as fast as it goes */
	double speed_credit;         /* units the cap allows now (pace.c) */
	double speed_last;           /* when the credit was last topped up */
	double fps;                  /* frames a second now: fps_chosen, or lower while
				      * the terminal's output backs up */
	double fps_chosen;           /* --fps, or as f/F set it */
	bool fps_asked;              /* the user chose it (--fps, f, F): no pacing by cost */
	double write_wait;           /* seconds the last frame's writes waited */
	bool frame_owed;             /* composed, not yet written (app_frame_out) */
	double taken_at;             /* when the loop last took the session */
	double whole_seconds;        /* the worker's last catch-up before a hand-over */
	double frame_cost;           /* seconds a frame stops the simulation, smoothed */

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

	/* The simulation thread (worker.c); NULL when there is none. */
	struct sim_worker *worker;
	bool sim_hold;               /* the interface holds the run (too small) */
	int sim_error;               /* a step's error, for the interface */
	uint64_t units_run;          /* units run in slices since the start */
	struct sim_watch watch;      /* an unstable run pauses (session_step) */
	bool lagging;                /* the worker's slices may leave a layer behind (session_lag) */

	struct undo_ring undo;
	struct undo_ring redo;       /* what u undid, newest first; cleared by a new checkpoint */
	/* A map whose copy is larger is checkpointed packed (undo.c); 0:
	 * UNDO_MAX_BYTES. Tests lower it to pack a small map. */
	size_t undo_copy_max;
	/* The memory free to the rings (undo.c); 0: ask the system
	 * (sysmem_available). Tests set it to see the budget shrink. */
	size_t undo_mem_available;
	int help_top;                /* the first help row shown (help scrolls) */

	/* The colour ramp's fit (legend.c): the world it was last checked
	 * against and the terrain range it was fitted to. */
	const struct world *fitted_world;
	float fitted_base_lo, fitted_base_hi;
	struct profile profile;
	bool budget_passed;          /* Space ran on past the budget */
	struct run_counts counts;
	struct trace_view trace;
};

/* session.c: the world, the process and files; no curses. */
int session_new_world(struct app *a, char *err, size_t errlen);
/* The same on given heights (tui_options.heights), or a generated terrain. */
int session_new_world_on(struct app *a, const float *heights, char *err, size_t errlen);
/* Switches to process p on the same world; err says why not. */
int session_set_process(struct app *a, const struct process_ops *p, char *err, size_t errlen);
int session_load(struct app *a, const char *path, char *err, size_t errlen);
int session_save(struct app *a, const char *path, char *err, size_t errlen);
void session_free(struct app *a);
/* Rebuilds the panel's parameter list: the process's section, then view. */
void session_param_list(struct app *a);
/* Runs `budget` units of the process; marks the session unsaved. */
int session_step(struct app *a, uint64_t budget, uint64_t *done);
/* The worker's slices, one after another, may leave a lazily kept layer
 * behind (process.h, catch_up): session_lag before them; session_whole
 * before anything else reads the world or saves the state. */
void session_lag(struct app *a);
void session_whole(struct app *a);

/* session_preset.c: presets by name (or file). A failed load changes
 * nothing; err is one line. */
int session_load_preset(struct app *a, const char *name, char *err, size_t errlen);
/* a->preset from a preset's name or file: "dir/x.yaml" is "x". */
void session_preset_label(struct app *a, const char *arg);
/* Whether a preset of that name is visible (its file in path). */
bool session_preset_exists(const char *name, char *path, size_t len);
/* Whether `found` (NULL: what the name resolves to now) is the user's own
 * preset of that name, $XDG_DATA_HOME/gully/presets/NAME.yaml. */
bool session_preset_is_users(const char *name, const char *found);
/* Whether the user's own presets hold NAME.yaml (found first or not). */
bool session_preset_users_has(const char *name);
int session_save_preset(struct app *a, const char *name, char *path, size_t pathlen,
			char *err, size_t errlen);

/* undo.c: checkpoints of the simulation. A new checkpoint clears redo. */
int undo_push(struct app *a, double now);
/* A checkpoint before g, P or a process switch: undoing it brings back the
 * parameters as well as the map. */
int undo_push_whole(struct app *a, double now);
/* Restores the newest checkpoint that differs from now, keeping now for
 * redo; err says why not. A checkpoint whose process state does not load
 * (one taken as a run went unstable) is dropped and the next one tried: on
 * success err is then a note saying how many were, else "". */
int undo_pop(struct app *a, char *err, size_t errlen);
/* Goes forward again to what the last undo left; err as for undo_pop. */
int undo_redo(struct app *a, char *err, size_t errlen);
int undo_levels(const struct app *a);
int redo_levels(const struct app *a);
void undo_clear(struct app *a);

/* source.c: the emitter or a jet (a source the process declares: which of
 * its parameters are x, y, direction, window and on) as the map shows it
 * and the keys move it. */
struct source {
	int index;                   /* in process_ops.sources */
	int ix, iy, idir, iwin, ion; /* registry indices; ion -1: always on */
	bool on;
	double x, y;                 /* world cells */
	double window;               /* cells */
	double direction;            /* degrees, 0 east, 90 south */
	double level;                /* the heading's level share, cos(elevation): 1 level, 0 down */
	int iel;                     /* its elevation's registry index; -1: none (always level) */
};
/* The picked source (a->source_pick), false when the process has none. */
bool source_get(const struct app *a, struct source *s);
/* Source i of the process's, false past the last. */
bool source_get_at(const struct app *a, int i, struct source *s);
/* Picks the next source (round); false when the process has fewer than 2. */
bool source_pick_next(struct app *a);
/* Says on the status line that the running process has nothing the
 * source keys move, and which processes have. */
void source_say_none(struct app *a);
/* Switches the picked source on or off; false when it has no switch. */
bool source_toggle(struct app *a);
/* Moves by (dx, dy) steps of x and y, turns by dturn steps of direction
 * (wrapping round at +-180); false when there is no source. */
bool source_move(struct app *a, int dx, int dy, int dturn);
/* Puts it over world cell (cx, cy). */
bool source_place(struct app *a, int cx, int cy);

/* tracer.c: droplets that show the flow without eroding. */
void tracer_reset(struct app *a);
void tracer_advance(struct app *a, int steps);

/* legend.c: the ramp's heights and the overlays' values. The ramp is
 * fitted to a terrain once, when it is made or loaded (fit_if_new), so a
 * height keeps its colour as the map erodes; fit_now fits it to the
 * heights of now (the `c` key). */
void legend_fit_if_new(struct app *a);
void legend_fit_now(struct app *a);
int legend_lines(const struct app *a);
/* Draws from row y down (not past row `bottom`); returns the rows used. */
int legend_draw(struct app *a, int y, int x, int w, int bottom);

/* profile.c: the cross-section. cycle: off, a row, a column, off (x);
 * move: the row or column by 1/32 of the map (dir +1/-1); pick: the next
 * two clicks on the map give its ends (X); click: takes a click while
 * picking (true when it did). */
void profile_cycle(struct app *a);
void profile_move(struct app *a, int dir);
void profile_pick(struct app *a);
bool profile_click(struct app *a, int cx, int cy);
void profile_ends(const struct app *a, int *x0, int *y0, int *x1, int *y1);
/* Screen rows the panel takes below a map of map_rows rows (0: hidden). */
int profile_rows(const struct app *a, int map_rows);
/* n samples along the line from (x0, y0) to (x1, y1): means of height and
 * base over the cells each covers, the deepest pool; returns its cells. */
int profile_sample(const struct world *w, int x0, int y0, int x1, int y1, int n,
		   struct profile_point *out);
void profile_draw(struct app *a, int y0, int rows, int cols);
/* The line on the map: its ends A and B, dots between. */
void profile_mark(struct app *a);

/* budget.c: the run's budget (<section>.budget), and numbers as the
 * screen writes them: num_count "1,234,567"; num_value "9,559", "12.35",
 * "0.01234" (never an exponent). */
void num_count(char *buf, size_t len, uint64_t n);
void num_value(char *buf, size_t len, double v);
/* A parameter's value as the registry spells it, but never with an exponent. */
void num_param(const struct params *p, int index, char *buf, size_t len);
/* Books what the world counted since the last call to the running process
 * (before a switch, a checkpoint). */
void counts_book(struct app *a);
/* A new world's counts (all zero), or a loaded one's, all the process's
 * own (one count is all a snapshot keeps). */
void counts_reset(struct app *a, bool own);
/* Process p's booked count in c: its steps, or its particles. */
uint64_t counts_own(const struct run_counts *c, const struct process_ops *p, bool steps);
/* The running process's own particles and steps on this world. */
uint64_t counts_particles(const struct app *a);
uint64_t counts_steps(const struct app *a);
/* The budget of the running process (0: none). */
uint64_t budget_of(const struct app *a);
/* Units left before it stops; UINT64_MAX when it does not stop. */
uint64_t budget_left(struct app *a);
/* At the budget: pauses, says so and returns true. */
bool budget_stop(struct app *a);
/* Space at the budget: runs on past it. */
void budget_run_on(struct app *a);
/* "153,000 droplets to go", "budget reached: Space runs on", or "". */
void budget_status(struct app *a, char *buf, size_t len);

/* trace.c: one droplet of process 1, a step per key. start: at world
 * point (x, y), after an undo checkpoint; toggle: at the map's centre, or
 * hides the trace (running its droplet to its end first); step: one step,
 * or to its end; finish: runs a live droplet to its end; click: a new
 * droplet where the click lands while tracing (true when it took it). */
void trace_start(struct app *a, double x, double y);
void trace_start_random(struct app *a);
void trace_toggle(struct app *a);
void trace_step(struct app *a, bool to_end);
void trace_finish(struct app *a);
void trace_stop(struct app *a);
bool trace_click(struct app *a, int cx, int cy);
void trace_mark(struct app *a);
/* Rows its box takes under the map (0: no trace). */
int trace_rows(struct app *a);
void trace_draw(struct app *a, int y0, int rows, int cols);
/* trace_emitter.c: the emitter's next particle. start fills a->trace's
 * particle and its state (s) as the trace box reads it; step takes one
 * step of emitter_particle_step and, at the end, retires it as the process
 * does (false once ended); rows draws its numbers from row y0 down. */
void trace_emitter_start(struct app *a);
bool trace_emitter_step(struct app *a);
void trace_emitter_rows(struct app *a, int y0, int cols);
/* trace_hydro.c: a droplet of hydrology (process 2), the same way: a
 * descent step, the pour where it stops, or its end a call. */
int trace_hydro_start(struct app *a, double x, double y);
bool trace_hydro_step(struct app *a);
void trace_hydro_rows(struct app *a, int y0, int cols);
/* trace.c's helpers for it: the path, and a row beside its equation line
 * (line eq of the process's equations, from the part starting `from`). */
void trace_remember(struct app *a);
/* A droplet's numbers as the box shows them: position, speed, volume,
 * sediment, c_eq and the height change at its cell. */
struct trace_numbers {
	double x, y, vx, vy, volume, sediment, c_eq;
	int64_t cell;
	double before, after;
	bool ended;
};
void trace_droplet_values(const struct app *a, const struct trace_numbers *d, char v[6][64]);
void trace_row(struct app *a, int y, int cols, const char *label, const char *value, int eq,
	       const char *from);

/* class.c: the class aids in the loop. class_key: their keys (an enum
 * key_action and its argument); class_layout: how the map's rows divide
 * between the map, the equations' box, the trace's and the cross-section,
 * top to bottom, on a map area `cols` wide (returns the map's rows);
 * class_draw: their marks on the map and their boxes; class_room_note: a
 * message when the equations or the cross-section are on but have no room. */
void class_key(struct app *a, int action, int arg);
int class_layout(struct app *a, int map_rows, int cols, int *equations, int *trace,
		 int *profile);
void class_draw(struct app *a, int shown, int equations, int trace, int profile, int cols);
void class_room_note(struct app *a);

/* Screens. */
void map_draw(struct app *a, int rows, int cols);
bool map_inspect(struct app *a, int row, int col, char *buf, size_t len);
/* The world cell under screen cell (row, col) of the map; false off it. */
bool map_cell(const struct app *a, int row, int col, int *cx, int *cy);
void panel_draw(struct app *a, int x, int rows, int cols);
void status_draw(struct app *a, int row, int cols);
void help_draw(struct app *a, int rows, int cols);
/* Scrolls the help for Up/Down/PgUp/PgDn/Home/End; false for any other key
 * (which closes it). */
bool help_scroll(struct app *a, int ch, int rows, int cols);
/* PgUp/PgDn, Home/End and / in the parameter list. */
void panel_key(struct app *a, int action, int arg);
/* Reads a line in the status row; false when cancelled (Esc) or interrupted. */
bool prompt_read(struct app *a, const char *question, char *buf, size_t len);
struct completion;
/* The same with Tab completion (comp may be NULL). */
bool prompt_read_ex(struct app *a, const char *question, char *buf, size_t len,
		    struct completion *comp);
/* A y/n question in the status row: true only for y. */
bool prompt_yes_no(struct app *a, const char *question);
/* A one-key question: the key (lower case) when it is one of `choices`,
 * else 0 (Esc, any other key). */
int prompt_choice(struct app *a, const char *question, const char *choices);
/* equations.c: the box of the equations at row y0, `rows` high with its
 * rules, scrolled to a->eq_top; the rows it wants on a map `cols` wide (0
 * when hidden); E (ACT_EQUATIONS) and { } (ACT_EQ_SCROLL, arg -1 up, +1
 * down a page). */
void equations_draw(struct app *a, int y0, int rows, int cols);
int equations_height(struct app *a, int cols);
void equations_key(struct app *a, int action, int arg);
/* equations.c: a symbol of a process's equations and what it is: a
 * meaning, or the parameter of the process's section that sets it. */
struct equation_symbol {
	const char *symbol, *meaning, *param;
};
/* The symbols of a section's equations (NULL, *n = 0 when none listed). */
const struct equation_symbol *equations_symbols(const char *section, int *n);
/* Whether the equations' text uses the symbol as a name of its own (c is
 * not in c_s). */
bool equations_uses(const char *text, const char *symbol);
/* in[0..n) with the ASCII spellings turned into signs when utf8. */
void equations_pretty(const char *in, size_t n, bool utf8, char *out, size_t len);
/* The "where" list of the symbols `text` uses (the running process's), as
 * at most `max` lines of at most `width` bytes of ASCII: items run on along
 * a line, one that does not fit starts a line of its own, one wider than a
 * line goes on under itself, indented; when the lines run out the last ends
 * in " ...". Returns the lines made. */
int equations_where(struct app *a, const char *text, int width, char lines[][256], int max);
/* An equation line of n bytes for `room` columns, pretty, ended with a mark
 * (an ellipsis) when cut. */
void equations_line(const char *line, int n, int room, bool utf8, char *out, size_t len);
/* One row of the equations box: len bytes of text, the number of its line
 * (1 on) on the first row of each, 0 on the rows a long line wraps onto. */
struct equation_row {
	const char *text;
	int len, no;
};
/* text's lines as rows of a box `cols` wide, pretty (signs with utf8) in
 * `store`, a long line squeezed, then wrapped at spaces; at most max rows,
 * their count. */
int equations_rows(const char *text, int cols, bool utf8, char *store, size_t len,
		   struct equation_row *out, int max);
/* The bytes of UTF-8 text s that fill at most `room` columns, cut at a
 * space when there is one (a word longer than a row is cut), trailing
 * spaces left out; *next is where the rest starts, its spaces skipped. */
int equations_wrap(const char *s, int room, const char **next);
/* Runs of three or more spaces inside s (not its indent) made two. */
void equations_squeeze(char *s);
void source_draw(struct app *a);
/* A plain marker over the map at world point (wx, wy), when it is shown. */
void map_mark(const struct app *a, double wx, double wy, char glyph);

/* worker.c: the simulation thread. */
struct sim_worker;
/* The worker's slices: short, so a key or a frame waits at most this
 * long for the session. */
#define WORKER_SLICE_SECONDS 0.008
/* Runs one slice of about `seconds` (slice_budget scaled from a worker
 * slice's) and adapts the budget to it. */
int sim_run_slice(struct app *a, double seconds);
/* Starts the thread; the interface holds the session when it returns. */
int sim_worker_start(struct app *a);
/* The interface lets the worker run (while it waits for a key or the
 * terminal), and takes the session back (after the worker's slice). */
void sim_ui_release(struct app *a);
void sim_ui_take(struct app *a);
/* Stops and joins the thread; called holding the session. */
void sim_worker_stop(struct app *a);

/* pace.c: the frame rate. f (dir -1) and F (+1) step the chosen rate. */
void fps_key(struct app *a, int dir);
/* Slow motion: m (dir -1) and M (+1) step the units a second the run may
 * take, from as fast as it goes down to one a second. speed_wait (the
 * worker, before a slice) tops up the credit the cap allows and returns the
 * seconds to wait for a unit of it (0: run now); speed_allow caps the
 * budget of a slice `seconds` long at the credit or the cap's share of the
 * slice (at least 1 unit), and speed_spend takes what it ran. */
void speed_key(struct app *a, int dir);
double speed_wait(struct app *a);
uint64_t speed_allow(const struct app *a, uint64_t budget, double seconds);
void speed_spend(struct app *a, uint64_t done);
/* Called when a frame is due: lowers the rate while output backs up (a
 * write would block, or the last frame's writes waited, a->write_wait),
 * climbs back after; false when this frame is to be skipped. */
bool pace_output(struct app *a);
/* Seconds from this frame to the next: 1 / fps, or longer while running
 * when a frame would stop the simulation for more than a quarter of the
 * time (a big map's catch-up and drawing), unless the user chose the rate. */
double pace_interval(struct app *a);

/* app.c */
/* An undo checkpoint; a world too big to keep says so once. */
void app_checkpoint(struct app *a);
void app_message(struct app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* app.c: a terrain this big (or a snapshot of it) takes seconds to make,
 * read or write, so the explorer says so before it starts. */
#define APP_BIG_MAP_CELLS (1024L * 1024L)
bool app_big_map(int width, int height);
/* A file the size of a big map's layer or more (a snapshot or autosave). */
bool app_big_file(const char *path);
/* Before the parameters' terrain is made: on a big map, a note drawn now. */
void app_note_making(struct app *a);
/* actions.c: a checkpoint before `what` replaces the whole world; false
 * when it cannot be kept and the user would rather not go on. */
bool app_checkpoint_whole(struct app *a, const char *what);
/* world_params.c: after the panel changed parameter `index` from `old`:
 * for the world's own (terrain.*, hardness.*, world.seed, width, height)
 * the terrain is made again at once, the seed kept, undoable, which marks
 * the session unsaved; or the change is refused, the value put back and
 * the mark left alone. true when it did either; false for any other
 * parameter or no change (nothing done, the mark the caller's). */
bool world_param_changed(struct app *a, int index, double old);
/* The k-th section of the world's own parameters (terrain, hardness,
 * world), in the panel's order; NULL past the last. */
const char *world_param_section(int k);
bool app_too_small(void);
/* Tells the "too small" screen a question is open (or closed). */
void app_question_open(bool open);
/* The next line of text at most width columns wide, broken at the last
 * space past column `least` that fits (a word too long for that is cut);
 * its length, *next where the line after starts (spaces skipped). */
int app_wrap_next(const char *text, int width, int least, const char **next);
/* Draws the frame; the simulation runs while the terminal takes it. */
void app_draw(struct app *a);
/* The main loop's frame in two halves: composed with the session held
 * (false: the terminal is too small, a note drawn instead), then written
 * by app_frame_out once the loop has released the session for its wait,
 * so the world is made whole once a frame (main_loop.c). */
bool app_compose_frame(struct app *a);
void app_frame_out(struct app *a);
/* The same, the simulation held all the while: for a prompt, whose
 * question stops the world until it is answered (prompt.c). */
void app_draw_held(struct app *a);
/* The map's width in pixels (the screen less the side panel when shown). */
int app_map_pixels_w(void);
/* Sums the pool layer for the status line a band a call; `whole` sums it
 * all now (after anything that replaces the map). */
void app_refresh_stats(struct app *a, bool whole);
/* What a key does; non-zero ends the loop with that status. */
int app_handle_key(struct app *a, int ch);
/* mkdir -p for the directories above `path`; -1 on failure. */
int app_make_parents(const char *path);
double app_now(void);

/* signals.c */
void signals_install(void);
/* The signal caught since start (0 when none). */
int signals_caught(void);

#endif
