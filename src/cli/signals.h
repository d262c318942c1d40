/* What `gully run` and `gully sweep` do on SIGINT, SIGTERM, SIGHUP, SIGQUIT
 * and SIGPIPE (the explorer has its own, tui/signals.c). Kept apart from
 * the commands so that each command says only which way it wants them. */
#ifndef GULLY_CLI_SIGNALS_H
#define GULLY_CLI_SIGNALS_H

#include <stdbool.h>

enum cli_signal_mode {
	/* End the process by the signal (status 128 + N), after removing the
	 * temporary file of a save in progress and clearing the progress bar:
	 * nothing half-written stays behind. */
	CLI_SIGNALS_DIE,
	/* Only remember the first signal: the command polls cli_signal_caught()
	 * and winds down itself (the sweep stops its runs and reports). */
	CLI_SIGNALS_DEFER,
};

/* Installs the handlers for INT, TERM, HUP and QUIT (those not ignored at
 * start, as nohup and a shell's background jobs do), and ignores SIGPIPE
 * (a closed stdout shows as EPIPE on the write, which the command handles). */
void cli_signals_install(enum cli_signal_mode mode);
/* The first signal caught in CLI_SIGNALS_DEFER mode; 0 when none. */
int cli_signal_caught(void);
/* Whether a progress bar is on stderr (the handler clears it). */
void cli_signals_progress(bool shown);
/* The signal's short name ("SIGTERM"), for messages. */
const char *cli_signal_name(int sig);
/* Ends the process as `sig` would, with the default action. */
void cli_signal_die(int sig) __attribute__((noreturn));

#endif
