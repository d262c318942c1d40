/* The key table: each key's name, action, argument, handler (actions.c) and
 * help line. Curses is needed here only for the KEY_* values. */
#include "tui/keys.h"
#include "tui/actions.h"
#include "tui/tui.h"
#include "io/roff.h"

#include <curses.h>
#include <string.h>

#include "core/base/process.h"
#include "view/shade.h"

#define CTRL(c) ((c) & 0x1f)

static const struct key_binding table[] = {
	{'q', "q", ACT_QUIT, 0, act_quit, "quit (asks when unsaved)"},
	{KEY_F(10), "F10", ACT_QUIT, 0, act_quit, "quit (asks when unsaved)"},
	{'?', "?", ACT_HELP, 0, act_help, "show or hide this help"},
	{KEY_F(1), "F1", ACT_HELP, 0, act_help, "show or hide this help"},
	{' ', "Space", ACT_RUN_PAUSE, 0, act_run_pause, "run or pause"},
	{'.', ".", ACT_STEP, 0, act_step, "pause, run one 25 ms slice"},
	/* One digit per process of the process table (keys_table keeps as
	 * many as it has). */
	{'1', "1", ACT_PROCESS, 0, act_process, "choose the process (the panel tabs)"},
	{'2', "2", ACT_PROCESS, 1, act_process, "choose the process (the panel tabs)"},
	{'3', "3", ACT_PROCESS, 2, act_process, "choose the process (the panel tabs)"},
	{'4', "4", ACT_PROCESS, 3, act_process, "choose the process (the panel tabs)"},
	{'5', "5", ACT_PROCESS, 4, act_process, "choose the process (the panel tabs)"},
	{'6', "6", ACT_PROCESS, 5, act_process, "choose the process (the panel tabs)"},
	{'7', "7", ACT_PROCESS, 6, act_process, "choose the process (the panel tabs)"},
	{'8', "8", ACT_PROCESS, 7, act_process, "choose the process (the panel tabs)"},
	{'9', "9", ACT_PROCESS, 8, act_process, "choose the process (the panel tabs)"},
	{KEY_UP, "Up", ACT_PARAM_PREV, 0, act_param_prev, "previous parameter"},
	{KEY_DOWN, "Down", ACT_PARAM_NEXT, 0, act_param_next, "next parameter"},
	{KEY_PPAGE, "PgUp", ACT_PARAM_PAGE, -1, act_panel, "a page of parameters up, down"},
	{KEY_NPAGE, "PgDn", ACT_PARAM_PAGE, 1, act_panel, "a page of parameters up, down"},
	{KEY_HOME, "Home", ACT_PARAM_END, -1, act_panel, "first, last parameter"},
	{KEY_END, "End", ACT_PARAM_END, 1, act_panel, "first, last parameter"},
	{'/', "/", ACT_PARAM_FIND, 0, act_panel, "find a parameter by name"},
	{KEY_LEFT, "Left", ACT_PARAM_NUDGE, -1, act_param_nudge, "lower it a step"},
	{'-', "-", ACT_PARAM_NUDGE, -1, act_param_nudge, "lower it a step"},
	{KEY_RIGHT, "Right", ACT_PARAM_NUDGE, 1, act_param_nudge, "raise it a step"},
	{'+', "+", ACT_PARAM_NUDGE, 1, act_param_nudge, "raise it a step"},
	{'=', "=", ACT_PARAM_NUDGE, 1, act_param_nudge, "raise it a step"},
	{'<', "<", ACT_PARAM_NUDGE, -10, act_param_nudge, "lower, raise it ten steps"},
	{'>', ">", ACT_PARAM_NUDGE, 10, act_param_nudge, "lower, raise it ten steps"},
	{'\r', "Enter", ACT_PARAM_TYPE, 0, act_param_type, "type a value (Esc cancels)"},
	{KEY_ENTER, "KpEnter", ACT_PARAM_TYPE, 0, act_param_type, "type a value (Esc cancels)"},
	{'r', "r", ACT_PARAM_RESET, 0, act_param_reset, "reset it to its default"},
	{'g', "g", ACT_NEW_TERRAIN, 0, act_new_terrain, "new terrain, next seed"},
	{'o', "o", ACT_OVERLAY_CYCLE, 0, act_overlay_cycle, "cycle the overlays"},
	{'s', "s", ACT_OVERLAY, OVERLAY_STREAMS, act_overlay, "streams overlay"},
	{'p', "p", ACT_OVERLAY, OVERLAY_POOLS, act_overlay, "pools overlay"},
	{'e', "e", ACT_OVERLAY, OVERLAY_EROSION, act_overlay, "erosion/deposition overlay"},
	{'b', "b", ACT_OVERLAY, OVERLAY_HARDNESS, act_overlay, "hardness (bedrock) overlay"},
	{'w', "w", ACT_OVERLAY, OVERLAY_WETNESS, act_overlay, "wetness overlay"},
	{'v', "v", ACT_OVERLAY, OVERLAY_VEGETATION, act_overlay, "trees overlay"},
	{'t', "t", ACT_OVERLAY, OVERLAY_PARTICLES, act_overlay, "droplet paths (no erosion)"},
	{'z', "z", ACT_ZOOM, 1, act_zoom, "zoom in: whole map, 1:1, 2:1, 4:1"},
	{'Z', "Z", ACT_ZOOM, -1, act_zoom, "zoom out"},
	{'h', "h", ACT_PAN_X, -1, act_pan_x, "pan left, right (zoomed in)"},
	{'l', "l", ACT_PAN_X, 1, act_pan_x, "pan left, right (zoomed in)"},
	{'k', "k", ACT_PAN_Y, -1, act_pan_y, "pan up, down"},
	{'j', "j", ACT_PAN_Y, 1, act_pan_y, "pan up, down"},
	{'H', "H", ACT_PAN_X, -2, act_pan_x, "pan half a screen left, right"},
	{'L', "L", ACT_PAN_X, 2, act_pan_x, "pan half a screen left, right"},
	{'K', "K", ACT_PAN_Y, -2, act_pan_y, "pan half a screen up, down"},
	{'J', "J", ACT_PAN_Y, 2, act_pan_y, "pan half a screen up, down"},
	{CTRL('L'), "Ctrl-L", ACT_REDRAW, 0, act_redraw, "redraw the screen"},
	{'S', "S", ACT_SAVE, 0, act_save, "save a snapshot (file name)"},
	{KEY_MOUSE, "click", ACT_INSPECT, 0, act_inspect, "inspect a cell or place the emitter/jet; wheel zooms (--mouse)"},
	{'P', "P", ACT_PRESET_LOAD, 0, act_preset_load, "load a preset, or open a snapshot (Tab completes)"},
	{'W', "W", ACT_PRESET_SAVE, 0, act_preset_save, "write the parameters as a preset"},
	{KEY_SLEFT, "S-Left", ACT_SOURCE_X, -1, act_source_move, "move the emitter, or the picked jet (sph)"},
	{KEY_SRIGHT, "S-Right", ACT_SOURCE_X, 1, act_source_move, "move the emitter, or the picked jet (sph)"},
	{KEY_SR, "S-Up", ACT_SOURCE_Y, -1, act_source_move, "move the emitter, or the picked jet (sph)"},
	{KEY_SF, "S-Down", ACT_SOURCE_Y, 1, act_source_move, "move the emitter, or the picked jet (sph)"},
	{'[', "[", ACT_SOURCE_TURN, -1, act_source_move, "turn the emitter or the picked jet (sph) left, right"},
	{']', "]", ACT_SOURCE_TURN, 1, act_source_move, "turn the emitter or the picked jet (sph) left, right"},
	{'n', "n", ACT_SOURCE_PICK, 0, act_source_pick, "pick the next jet the emitter keys move (sph)"},
	{'N', "N", ACT_SOURCE_ON, 0, act_source_pick, "switch the picked jet on, off (sph)"},
	{'E', "E", ACT_EQUATIONS, 0, act_equations, "show or hide the equations"},
	{'{', "{", ACT_EQ_SCROLL, -1, act_equations, "scroll the equations up, down"},
	{'}', "}", ACT_EQ_SCROLL, 1, act_equations, "scroll the equations up, down"},
	{'u', "u", ACT_UNDO, 0, act_undo, "undo (runs, g, P, process switches, a terrain remade)"},
	{'U', "U", ACT_REDO, 0, act_undo, "redo what u undid"},
	{CTRL('R'), "Ctrl-R", ACT_REDO, 0, act_undo, "redo what u undid"},
	{'R', "R", ACT_RESUME, 0, act_resume, "resume the newest autosave (Ctrl-C, a hang-up, TERM, QUIT)"},
	{'f', "f", ACT_FPS, -1, act_fps, "fewer, more frames a second"},
	{'F', "F", ACT_FPS, 1, act_fps, "fewer, more frames a second"},
	{'m', "m", ACT_SPEED, -1, act_speed, "slow motion: run slower, faster (to full speed)"},
	{'M', "M", ACT_SPEED, 1, act_speed, "slow motion: run slower, faster (to full speed)"},
	{'c', "c", ACT_REFIT, 0, act_class, "re-fit the height colours"},
	{'x', "x", ACT_PROFILE, 0, act_class, "cross-section: row, column"},
	{'(', "(", ACT_PROFILE_MOVE, -1, act_class, "move the cross-section"},
	{')', ")", ACT_PROFILE_MOVE, 1, act_class, "move the cross-section"},
	{'X', "X", ACT_PROFILE_PICK, 0, act_class, "cross-section by 2 clicks"},
	{'T', "T", ACT_TRACE, 0, act_class, "follow a droplet; hide it"},
	{'A', "A", ACT_TRACE_RANDOM, 0, act_class, "a droplet at a random cell"},
	{'d', "d", ACT_TRACE_STEP, 0, act_class, "the droplet's next step"},
	{'D', "D", ACT_TRACE_STEP, 1, act_class, "the droplet to its end"},
};
#define NTABLE ((int)(sizeof table / sizeof table[0]))

/* The bindings in use: the table without the process digits beyond the
 * process table's count, so that count lives in one place. */
static const struct key_binding *keys_table(int *n)
{
	static struct key_binding used[NTABLE];
	static int nused = -1;
	if (nused < 0) {
		int k = 0;
		for (int i = 0; i < NTABLE; i++)
			if (table[i].action != ACT_PROCESS || table[i].arg < process_count())
				used[k++] = table[i];
		nused = k;
	}
	*n = nused;
	return used;
}

int keys_count(void)
{
	int n;
	keys_table(&n);
	return n;
}

const struct key_binding *keys_get(int index)
{
	int n;
	const struct key_binding *t = keys_table(&n);
	return index >= 0 && index < n ? &t[index] : NULL;
}

const struct key_binding *keys_find(int code)
{
	int n;
	const struct key_binding *t = keys_table(&n);
	for (int i = 0; i < n; i++)
		if (t[i].code == code)
			return &t[i];
	return NULL;
}

int keys_group(int index, const char *sep, char *names, size_t len)
{
	int nkeys;
	const struct key_binding *keys = keys_table(&nkeys);
	names[0] = '\0';
	if (index < 0 || index >= nkeys)
		return nkeys;
	const struct key_binding *k = &keys[index];
	int j = index;
	/* Same action and same help: "h/l pan left, right", "1/2/3/4". */
	for (; j < nkeys &&
	       (keys[j].action == k->action ||
		(keys[j].action >= ACT_SOURCE_X && keys[j].action <= ACT_SOURCE_Y &&
		 k->action >= ACT_SOURCE_X && k->action <= ACT_SOURCE_Y)) &&
	       strcmp(keys[j].help, k->help) == 0;
	     j++) {
		size_t used = strlen(names);
		snprintf(names + used, len - used, "%s%s", j > index ? sep : "", keys[j].name);
	}
	return j;
}

void tui_keys_man(FILE *fp)
{
	keys_print_man(fp);
}

void keys_print_man(FILE *fp)
{
	fputs(".SH KEYS\n"
	      "The explorer reads these keys (generated from its key table).\n"
	      "The arrow keys work the side panel; h, j, k, l pan the map when it is zoomed in;\n"
	      "S\\- is Shift.\n",
	      fp);
	char names[128];
	int nkeys;
	const struct key_binding *keys = keys_table(&nkeys);
	for (int i = 0; i < nkeys;) {
		int next = keys_group(i, ", ", names, sizeof names);
		fputs(".TP\n.B ", fp);
		roff_text(fp, names);
		fputc('\n', fp);
		roff_text(fp, keys[i].help);
		fputc('\n', fp);
		i = next;
	}
}
