/* SIGINT, SIGTERM, SIGHUP and SIGQUIT (Ctrl-\) only set a flag: the main
 * loop saves (for SIGHUP, SIGTERM and SIGQUIT) and restores the terminal,
 * since neither is async-signal-safe. SIGPIPE is ignored.
 *
 * A terminal that takes no output must not keep gully once a signal asks it
 * to end: a dead SSH link that sshd has not noticed yet (it may take TCP
 * many minutes), a stopped tmux server, a terminal stopped by Ctrl-S. The
 * write curses is in then blocks, and curses retries it on EINTR, so the
 * loop never saw the signal, never saved, and the process stayed for as
 * long as the terminal did (only a hang-up that reaches the kernel, which
 * fails the write, ended it). From the signal on, the terminal is looked at
 * once a second (SIGALRM, which only the interface thread lets in: the
 * other threads block every signal, so it interrupts a blocked write, which
 * returns what it wrote). When for STUCK_SECONDS looks in a row it has had
 * no room and the interface thread has written nothing (its wchar in
 * /proc/thread-self/io; without that file, no room alone), it is taken for
 * gone and its output goes to /dev/null (crt_drop_output): the write
 * returns, the loop sees the signal, saves and exits. A slow link keeps
 * everything: it takes a few bytes a second. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "tui/app.h"
#include "tui/crt.h"

#define STUCK_SECONDS 10

static volatile sig_atomic_t caught;
static volatile sig_atomic_t full_seconds;

/* Whether the terminal has no room for output now. A hung-up terminal has
 * (POLLHUP): its writes fail at once, nothing to drop. */
static bool output_stuck(void)
{
	struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};
	int n = poll(&p, 1, 0);
	return n == 0 || (n == 1 && !(p.revents & (POLLOUT | POLLHUP | POLLERR | POLLNVAL)));
}

/* Bytes the calling thread has written so far (wchar, the second line of
 * /proc/thread-self/io), or -1 without that file. The alarm's handler runs
 * on the interface thread, the only one that takes signals, so these are
 * its writes: the terminal's and the autosave's. Only async-signal-safe
 * calls. */
static long long bytes_written(void)
{
	char buf[256];
	int fd = open("/proc/thread-self/io", O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	const char *p = buf;
	while (*p && *p != '\n')
		p++;
	for (const char *k = "\nwchar:"; *k; k++, p++)
		if (*p != *k)
			return -1;
	while (*p == ' ')
		p++;
	long long v = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (*p - '0');
	return v;
}

static void on_alarm(int sig)
{
	(void)sig;
	const int saved = errno;
	static long long last = -1;
	const long long now = bytes_written();
	const bool wrote = now >= 0 && now != last;
	last = now;
	full_seconds = output_stuck() && !wrote ? full_seconds + 1 : 0;
	if (full_seconds >= STUCK_SECONDS)
		crt_drop_output();
	else
		alarm(1);
	errno = saved;
}

static void on_signal(int sig)
{
	if (caught)
		return;
	caught = sig;
	alarm(1);
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
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int signals_caught(void)
{
	/* A terminal gone without a SIGHUP is the same loss as a hang-up. */
	if (!caught && crt.hung_up)
		caught = SIGHUP;
	return caught;
}
