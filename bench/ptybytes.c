/* ptybytes [-r BYTES_PER_SECOND] [-o FILE] [-x SECONDS] COLS ROWS COMMAND...:
 * runs COMMAND on a pseudo-terminal of that size and prints how many bytes
 * it wrote to the terminal. For measuring the explorer's bandwidth
 * (bench/TUI.md); -r reads no faster than a slow link would (for
 * tests/tui/slowlink.sh), -o keeps what was written, -x closes the pty
 * after SECONDS without a SIGHUP (it is not COMMAND's controlling
 * terminal), a terminal that simply goes (tests/tui/hangup.sh). */
#define _XOPEN_SOURCE 600
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "benchutil.h"

/* In the child: COMMAND on the pty's slave side, as stdin and stdout;
 * `no_ctty` leaves the pty not its controlling terminal (-x). */
static void run_child(int master, const char *slave_name, const struct winsize *ws, bool no_ctty,
		      char **cmd)
{
	/* Only the parent holds the master: -x's close must end the pty. */
	close(master);
	setsid();
	/* A session leader's first tty becomes its controlling one unless
	 * O_NOCTTY says not. */
	int slave = open(slave_name, O_RDWR | (no_ctty ? O_NOCTTY : 0));
	if (slave < 0)
		_exit(127);
	if (!no_ctty)
		ioctl(slave, TIOCSCTTY, 0);
	ioctl(slave, TIOCSWINSZ, ws);
	dup2(slave, 0);
	dup2(slave, 1);
	if (slave > 1)
		close(slave);
	execvp(cmd[0], cmd);
	_exit(127);
}

int main(int argc, char **argv)
{
	double rate = 0, close_after = 0;
	FILE *out = NULL;
	while (argc > 2 && argv[1][0] == '-') {
		if (strcmp(argv[1], "-r") == 0)
			rate = atof(argv[2]);
		else if (strcmp(argv[1], "-x") == 0)
			close_after = atof(argv[2]);
		else if (strcmp(argv[1], "-o") == 0 && !(out = fopen(argv[2], "wb"))) {
			perror(argv[2]);
			return 1;
		}
		argv += 2;
		argc -= 2;
	}
	if (argc < 4) {
		fprintf(stderr, "usage: ptybytes [-r BYTES_PER_SECOND] [-o FILE] [-x SECONDS] COLS "
			"ROWS COMMAND [ARG...]\n");
		return 2;
	}
	struct winsize ws = {.ws_col = (unsigned short)atoi(argv[1]),
			     .ws_row = (unsigned short)atoi(argv[2])};
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master)) {
		perror("ptybytes: pty");
		return 1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("ptybytes: fork");
		return 1;
	}
	if (pid == 0)
		run_child(master, ptsname(master), &ws, close_after > 0, argv + 3);
	unsigned long long total = 0;
	char buf[65536];
	double t0 = bench_wall_seconds();
	for (;;) {
		if (close_after > 0 && bench_wall_seconds() - t0 >= close_after) {
			close(master);
			break;
		}
		if (close_after > 0) {
			/* Never block past the time to close. */
			struct pollfd p = {.fd = master, .events = POLLIN};
			if (poll(&p, 1, 50) == 0)
				continue;
		}
		/* A slow link: a tenth of a second's bytes at a time, then wait
		 * until the rate allows more. */
		size_t want = sizeof buf;
		if (rate > 0) {
			double ahead = (double)total / rate - (bench_wall_seconds() - t0);
			if (ahead > 0) {
				struct timespec ts = {(time_t)ahead,
						      (long)((ahead - (double)(time_t)ahead) * 1e9)};
				nanosleep(&ts, NULL);
			}
			want = rate / 10 < 1 ? 1 : (size_t)(rate / 10);
			if (want > sizeof buf)
				want = sizeof buf;
		}
		ssize_t n = read(master, buf, want);
		if (n > 0) {
			total += (unsigned long long)n;
			if (out)
				fwrite(buf, 1, (size_t)n, out);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		break; /* EIO once the child has gone */
	}
	int status;
	waitpid(pid, &status, 0);
	if (out)
		fclose(out);
	printf("%llu\n", total);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
