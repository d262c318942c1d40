/* The key handlers (actions.c) that the key table (keys.c) names: each
 * binding's `run`, as each of tmux's cmd_entry names its exec. */
#ifndef GULLY_ACTIONS_H
#define GULLY_ACTIONS_H

#include "tui/keys.h"

key_run_fn act_quit, act_help, act_run_pause, act_step, act_process;
key_run_fn act_param_prev, act_param_next, act_param_nudge, act_param_type, act_param_reset;
key_run_fn act_panel, act_new_terrain, act_overlay_cycle, act_overlay, act_zoom;
key_run_fn act_pan_x, act_pan_y, act_redraw, act_save, act_inspect;
key_run_fn act_preset_load, act_preset_save, act_source_move, act_source_pick;
key_run_fn act_equations, act_undo, act_resume, act_class;
/* pace.c: the frame rate (f, F) and slow motion (m, M). */
key_run_fn act_fps, act_speed;

#endif
