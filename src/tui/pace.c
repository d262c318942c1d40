/* Frame pacing: the rate f and F choose, and the lower rates the explorer
 * keeps while the terminal's output backs up or while a frame costs the
 * simulation much of its time. No curses here. */
#include <poll.h>
#include <unistd.h>

#include "tui/app.h"

/* The frame-rate steps f and F walk; --fps sets any rate in between. */
static const double fps_steps[] = {1, 2, 5, 10, 20, 30, 60};
#define NFPS ((int)(sizeof fps_steps / sizeof fps_steps[0]))

void fps_key(struct app *a, int dir)
{
	/* Past the last step (--fps 120) a key in that direction keeps the
	 * rate: F once took 120 down to 60. */
	double want = a->fps_chosen;
	for (int i = 0; i < NFPS; i++) {
		const double f = dir > 0 ? fps_steps[i] : fps_steps[NFPS - 1 - i];
		if (dir > 0 ? f > a->fps_chosen + 1e-9 : f < a->fps_chosen - 1e-9) {
			want = f;
			break;
		}
	}
	a->fps_chosen = want;
	a->fps = want;
	a->fps_asked = true;
	app_message(a, "at most %g frame%s a second (f fewer, F more)", want, want == 1 ? "" : "s");
}

/* The frame rate follows the terminal: while its output backs up (a slow
 * SSH link), frames are skipped and the rate halves, down to one a second;
 * it climbs back to the chosen rate once output flows. A pty holds only
 * about 18 KB and reports no queue (TIOCOUTQ is 0 on Linux), so the signal
 * is a frame's writes having waited: poll() says a write would block, or
 * the last refresh spent over WRITE_WAIT_SECONDS off the CPU. Returns
 * whether to draw now. */
#define WRITE_WAIT_SECONDS 0.05

bool pace_output(struct app *a)
{
	struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};
	bool ready = poll(&p, 1, 0) == 1 && (p.revents & POLLOUT);
	bool waited = a->write_wait > WRITE_WAIT_SECONDS;
	a->write_wait = 0;
	if (!ready || waited) {
		if (a->fps > 1) {
			a->fps = a->fps / 2 < 1 ? 1 : a->fps / 2;
			/* Said only over no other message: it must not hide one. */
			if (!a->message[0] || app_now() >= a->message_until)
				app_message(a, "the terminal is behind: %g frame%s a second for now",
					    a->fps, a->fps == 1 ? "" : "s");
		}
		return ready;
	}
	if (a->fps < a->fps_chosen)
		a->fps = a->fps + 0.5 > a->fps_chosen ? a->fps_chosen : a->fps + 0.5;
	return true;
}

/* While running, each frame stops the simulation: the catch-up that makes
 * the world whole for it (worker.c) and the composing. On a small map that
 * is a millisecond or two; on a 4096x4096 hydrology map tens, which at 20
 * frames a second would leave the simulation half the time. Frames then
 * come no oftener than FRAME_SHARE of the time allows, unless the user chose
 * the rate (--fps, f, F): then frames come at it, at the simulation's
 * expense. Keys are answered at once regardless (main_loop.c). */
#define FRAME_SHARE 0.25

double pace_interval(struct app *a)
{
	const double cost = (app_now() - a->taken_at) + a->whole_seconds;
	a->frame_cost = a->frame_cost > 0 ? 0.7 * a->frame_cost + 0.3 * cost : cost;
	const double t = 1.0 / a->fps, paced = a->frame_cost / FRAME_SHARE;
	return a->running && !a->fps_asked && paced > t ? paced : t;
}
