/* The class aids' share of the explorer's loop: their keys (the legend's
 * re-fit, the cross-section, the trace) and where their boxes go under the
 * map, so the key table names one handler (act_class) for them all. */
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
		break;
	case ACT_PROFILE_MOVE:
		profile_move(a, arg);
		break;
	case ACT_PROFILE_PICK:
		profile_pick(a);
		break;
	case ACT_TRACE:
		trace_toggle(a);
		break;
	case ACT_TRACE_RANDOM:
		trace_start_random(a);
		break;
	case ACT_TRACE_STEP:
		trace_step(a, arg != 0);
		break;
	default:
		break;
	}
}

int class_layout(struct app *a, int map_rows, int *trace, int *profile)
{
	/* The boxes take the foot of the map's area and the map above them
	 * shrinks to fit, so what they describe stays in sight: the trace's
	 * numbers first, then the cross-section (shrunk, or hidden), and the
	 * map keeps at least a few rows. */
	int tr = trace_rows(a), prof = profile_rows(a, map_rows);
	if (map_rows - tr < 6)
		tr = 0;
	if (map_rows - prof - tr < 6)
		prof = map_rows - tr - 6 >= 7 ? map_rows - tr - 6 : 0;
	*trace = tr;
	*profile = prof;
	return map_rows - prof - tr;
}

void class_draw(struct app *a, int shown, int trace, int profile, int cols)
{
	profile_mark(a);
	trace_mark(a);
	trace_draw(a, shown, trace, cols);
	profile_draw(a, shown + trace, profile, cols);
}
