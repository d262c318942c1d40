/* Frame pacing: the rate f and F choose, and the lower rates the explorer
 * keeps while the terminal's output backs up or while a frame costs the
 * simulation much of its time. No curses here. */
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "tui/actions.h"
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

/* ---- slow motion (m, M) ----
 * Process 1 runs some 200,000 droplets a second: its budget is spent
 * before a class has seen a thing. A cap on the units a second lets the
 * terrain change as slowly as a teacher talks. The worker waits for the
 * cap's credit on its condition variable (sim_worker), never spinning, and
 * a slice's size never changes what a run of N units gives, so a slowed
 * run ends on the same bits as a fast one. */
static const double speed_steps[] = {1,    2,    5,    10,    20,    50,    100,   200,
				     500,  1000, 2000, 5000,  10000, 20000, 50000, 100000};
#define NSPEED ((int)(sizeof speed_steps / sizeof speed_steps[0]))
/* The credit a pause or a slow frame may pile up: a twentieth of a second's
 * worth, so a cap is kept over any stretch longer than that. */
#define SPEED_BURST_SECONDS 0.05

void speed_key(struct app *a, int dir)
{
	/* From full speed, m goes to the first step under what the run does
	 * now: a step above it would change nothing. */
	const double now = a->speed_cap > 0 ? a->speed_cap
			 : a->rate > 0	    ? a->rate
					    : speed_steps[NSPEED - 1] * 2;
	double want = dir < 0 ? now : 0;
	if (dir < 0) {
		for (int i = NSPEED - 1; i >= 0; i--)
			if (speed_steps[i] < now * (1 - 1e-9)) {
				want = speed_steps[i];
				break;
			}
	} else if (a->speed_cap > 0) {
		for (int i = 0; i < NSPEED; i++)
			if (speed_steps[i] > a->speed_cap * (1 + 1e-9)) {
				want = speed_steps[i];
				break;
			}
	}
	a->speed_cap = want;
	a->speed_credit = 0;
	a->speed_last = 0;
	char n[32];
	num_count(n, sizeof n, (uint64_t)want);
	/* "1 droplet": the units' names are plurals in s. */
	const char *unit = a->proc->unit;
	const int ulen = (int)strlen(unit) - (want == 1 && strlen(unit) > 1 ? 1 : 0);
	if (want > 0)
		app_message(a, "slow motion: at most %s %.*s a second%s (m slower, M faster)", n,
			    ulen, unit, want <= speed_steps[0] ? ", the slowest" : "");
	else
		app_message(a, "full speed (m runs slower)");
}

double speed_wait(struct app *a)
{
	if (a->speed_cap <= 0)
		return 0;
	const double now = app_now();
	if (a->speed_last > 0)
		a->speed_credit += (now - a->speed_last) * a->speed_cap;
	a->speed_last = now;
	const double burst = a->speed_cap * SPEED_BURST_SECONDS;
	if (a->speed_credit > (burst > 1 ? burst : 1))
		a->speed_credit = burst > 1 ? burst : 1;
	return a->speed_credit >= 1 ? 0 : (1 - a->speed_credit) / a->speed_cap;
}

uint64_t speed_allow(const struct app *a, uint64_t budget, double seconds)
{
	if (a->speed_cap <= 0)
		return budget;
	/* The credit, or the slice's own share of the cap (the step key's
	 * 25 ms, which the worker's wait then pays back), or one unit. */
	double c = a->speed_cap * seconds;
	c = a->speed_credit > c ? a->speed_credit : c;
	c = c > 1 ? c : 1;
	return (double)budget > c ? (uint64_t)c : budget;
}

void speed_spend(struct app *a, uint64_t done)
{
	if (a->speed_cap > 0)
		a->speed_credit -= (double)done;
}

/* The keys: f/F and m/M (keys.c). */
int act_fps(struct app *a, const struct key_binding *k)
{
	fps_key(a, k->arg);
	return 0;
}

int act_speed(struct app *a, const struct key_binding *k)
{
	speed_key(a, k->arg);
	return 0;
}
