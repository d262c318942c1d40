/* Signal handling for the headless commands; see signals.h. A handler does
 * only async-signal-safe things: unlink (atomic_signal_cleanup), write,
 * signal and raise. */
#include "cli/signals.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/fileio.h"

static volatile sig_atomic_t caught;
static volatile sig_atomic_t progress_shown;
static enum cli_signal_mode how;

static const int handled[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

const char *cli_signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGQUIT:
		return "SIGQUIT";
	case SIGPIPE:
		return "SIGPIPE";
	default:
		return "a signal";
	}
}

void cli_signal_die(int sig)
{
	signal(sig, SIG_DFL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig); /* a signal whose default is to be ignored */
}

static void on_signal(int sig)
{
	if (how == CLI_SIGNALS_DEFER) {
		if (!caught)
			caught = sig;
		return;
	}
	atomic_signal_cleanup();
	if (progress_shown)
		(void)!write(STDERR_FILENO, "\r\033[K", 4);
	cli_signal_die(sig);
}

void cli_signals_install(enum cli_signal_mode mode)
{
	how = mode;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* Every handled signal blocked while one is handled, so a second one
	 * waits for the first's cleanup. No SA_RESTART: a waiting poll()
	 * returns so the sweep sees the flag. */
	for (size_t i = 0; i < sizeof handled / sizeof handled[0]; i++)
		sigaddset(&sa.sa_mask, handled[i]);
	/* A signal ignored at start stays ignored: `nohup gully sweep` must
	 * outlive its terminal, and a shell's background job is not for ^C. */
	for (size_t i = 0; i < sizeof handled / sizeof handled[0]; i++) {
		struct sigaction old;
		if (sigaction(handled[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(handled[i], &sa, NULL);
	}
	signal(SIGPIPE, SIG_IGN);
}

int cli_signal_caught(void)
{
	return caught;
}

void cli_signals_progress(bool shown)
{
	progress_shown = shown;
}
