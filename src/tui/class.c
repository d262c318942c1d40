/* The class aids' share of the explorer's loop: their keys (the legend's
 * re-fit, the cross-section, the trace) and where their boxes go under the
 * map, so the key table names one handler (act_class) for them all. */
#include <curses.h>

#include "tui/app.h"
#include "tui/keys.h"

void class_key(struct app *a, int action, int arg)
{
	switch (action) {
	case ACT_REFIT:
		legend_fit_now(a);
		app_message(a, "height colours now span %.3f to %.3f", a->view.height_lo,
			    a->view.height_hi);
		break;
	case ACT_PROFILE:
		profile_cycle(a);
		class_room_note(a);
		break;
	case ACT_PROFILE_MOVE:
		profile_move(a, arg);
		break;
	case ACT_PROFILE_PICK:
		profile_pick(a);
		break;
	case ACT_TRACE:
		trace_toggle(a);
		class_room_note(a);
		break;
	case ACT_TRACE_RANDOM:
		trace_start_random(a);
		class_room_note(a);
		break;
	case ACT_TRACE_STEP:
		trace_step(a, arg != 0);
		break;
	default:
		break;
	}
}

/* The map keeps at least this many rows under every box. */
#define CLASS_MAP_KEEP 6
/* The equations' least box: its rules and three rows (they scroll). */
#define CLASS_EQ_LEAST 5

int class_layout(struct app *a, int map_rows, int cols, int *equations, int *trace,
		 int *profile)
{
	/* The boxes take the foot of the map's area and the map above them
	 * shrinks to fit, so what they describe stays in sight: the trace's
	 * numbers first, then the equations' least box, then the cross-section
	 * (shrunk, or hidden), then the equations the rest, scrolling when
	 * that is not all of them; the map keeps at least a few rows. The
	 * equations once lay over the map: at 80x24 with the cross-section
	 * they covered all of it. */
	int tr = trace_rows(a), prof = profile_rows(a, map_rows);
	int eq = equations_height(a, cols);
	if (map_rows - tr < CLASS_MAP_KEEP)
		tr = 0;
	const int left = map_rows - CLASS_MAP_KEEP - tr;
	int eq_least = eq < CLASS_EQ_LEAST ? eq : CLASS_EQ_LEAST;
	if (eq_least > left)
		eq = eq_least = 0; /* no room under the trace: class_room_note says so */
	if (left - eq_least < prof)
		prof = left - eq_least >= 7 ? left - eq_least : 0;
	/* The rest, but the map keeps a third of what the other boxes leave
	 * (alone at 80x24 the equations would leave it 6 rows, a thumbnail). */
	const int shared = map_rows - tr - prof;
	int most = shared - (shared / 3 > CLASS_MAP_KEEP ? shared / 3 : CLASS_MAP_KEEP);
	most = most < eq_least ? eq_least : most;
	if (eq > most)
		eq = most;
	if (eq > left - prof)
		eq = left - prof;
	*equations = eq;
	*trace = tr;
	*profile = prof;
	return map_rows - eq - tr - prof;
}

void class_room_note(struct app *a)
{
	int eq, tr, prof;
	class_layout(a, LINES - 1, app_map_pixels_w(), &eq, &tr, &prof);
	if (a->equations && eq == 0)
		app_message(a, "no room for the equations under the droplet's box: T hides it, "
			       "or a bigger terminal shows both");
	/* Else x said "cross-section along row 128" and showed none. */
	else if (a->profile.mode != PROFILE_OFF && prof == 0)
		app_message(a, "no room for the cross-section under the %s: %s, or a bigger "
			       "terminal shows both",
			    tr ? "droplet's box" : "equations", tr ? "T hides it" : "E hides them");
}

void class_draw(struct app *a, int shown, int equations, int trace, int profile, int cols)
{
	profile_mark(a);
	trace_mark(a);
	if (equations)
		equations_draw(a, shown, equations, cols);
	trace_draw(a, shown + equations, trace, cols);
	profile_draw(a, shown + equations + trace, profile, cols);
}
