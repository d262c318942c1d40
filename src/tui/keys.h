/* THE key table of the explorer: key dispatch (each binding names its
 * handler), the help overlay and the man page's KEYS section all read it. */
#ifndef GULLY_KEYS_H
#define GULLY_KEYS_H

#include <stdio.h>

enum key_action {
	ACT_QUIT,
	ACT_HELP,
	ACT_RUN_PAUSE,
	ACT_STEP,
	ACT_PROCESS,      /* arg: table index */
	ACT_PARAM_PREV,
	ACT_PARAM_NEXT,
	ACT_PARAM_NUDGE,  /* arg: steps (negative lowers) */
	ACT_PARAM_TYPE,
	ACT_PARAM_RESET,
	ACT_NEW_TERRAIN,
	ACT_OVERLAY_CYCLE,
	ACT_OVERLAY,      /* arg: enum shade_overlay */
	ACT_ZOOM,         /* arg: +1 in, -1 out */
	ACT_PAN_X,        /* arg: +1/-1 a step, +2/-2 half a screen */
	ACT_PAN_Y,
	ACT_REDRAW,
	ACT_SAVE,
	ACT_INSPECT,      /* a mouse click (with --mouse) */
	ACT_PRESET_LOAD,
	ACT_PRESET_SAVE,
	ACT_SOURCE_X,     /* arg: steps of the emitter's x */
	ACT_SOURCE_Y,
	ACT_SOURCE_TURN,  /* arg: steps of its direction */
	ACT_SOURCE_PICK,  /* the next source (jet) the keys move */
	ACT_SOURCE_ON,    /* switch the picked source on or off */
	ACT_EQUATIONS,
	ACT_UNDO,
	ACT_REDO,
	ACT_RESUME,       /* open the autosave */
	ACT_PARAM_PAGE,   /* arg: pages (negative up) */
	ACT_PARAM_END,    /* arg: -1 first, +1 last */
	ACT_PARAM_FIND,
	ACT_FPS,          /* arg: +1 more frames a second, -1 fewer */
	ACT_SPEED,        /* arg: +1 faster (up to full speed), -1 slower */
	ACT_REFIT,        /* fit the colour ramp to the heights of now */
	ACT_PROFILE,      /* the cross-section: off, row, column */
	ACT_PROFILE_MOVE, /* arg: +1/-1 */
	ACT_PROFILE_PICK, /* its ends by two clicks */
	ACT_TRACE,        /* one droplet from the map's centre, or hide it */
	ACT_TRACE_RANDOM, /* one droplet from a random cell */
	ACT_TRACE_STEP,   /* arg: 0 one step, 1 to its end */
	ACT_EQ_SCROLL,    /* arg: -1 a page of the equations up, +1 down */
	ACT_COUNT
};

struct app;
struct key_binding;
/* What a key does (actions.h): non-zero ends the explorer's loop with that
 * status. */
typedef int key_run_fn(struct app *a, const struct key_binding *k);

struct key_binding {
	int code;            /* getch() value: a character or a KEY_* constant */
	const char *name;    /* as shown in the help and the man page */
	enum key_action action;
	int arg;
	key_run_fn *run;     /* its handler; one per action */
	const char *help;    /* one line; neighbours with the same action and help
			      * are listed as one entry */
};

int keys_count(void);
const struct key_binding *keys_get(int index);
/* The binding for a getch() code, or NULL. */
const struct key_binding *keys_find(int code);
/* Writes the KEYS section of gully(1) in roff, generated from the table:
 * neighbouring bindings with the same action and help text share one
 * entry (moving the emitter either way is one action for this). */
void keys_print_man(FILE *fp);
/* The names of the group that starts at `index` joined by sep ("Left, -");
 * returns the index after the group. For the help overlay and the man page. */
int keys_group(int index, const char *sep, char *names, size_t len);

#endif
