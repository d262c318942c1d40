/* SIGINT, SIGTERM, SIGHUP and SIGQUIT (Ctrl-\) only set a flag: the main
 * loop saves (for SIGHUP, SIGTERM and SIGQUIT) and restores the terminal,
 * since neither is async-signal-safe. SIGPIPE is ignored. */
#include <signal.h>
#include <string.h>

#include "tui/app.h"
#include "tui/crt.h"

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	if (!caught)
		caught = sig;
}

void signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking read returns so the loop sees the flag. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int signals_caught(void)
{
	/* A terminal gone without a SIGHUP is the same loss as a hang-up. */
	if (!caught && crt.hung_up)
		caught = SIGHUP;
	return caught;
}
