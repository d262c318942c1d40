/* ptybytes [-r BYTES_PER_SECOND] [-o FILE] COLS ROWS COMMAND...: runs
 * COMMAND on a pseudo-terminal of that size and prints how many bytes it
 * wrote to the terminal. For measuring the explorer's bandwidth
 * (bench/TUI.md); -r reads no faster than a slow link would (for
 * tests/tui/slowlink.sh), -o keeps what was written. */
#define _XOPEN_SOURCE 600
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "benchutil.h"

int main(int argc, char **argv)
{
	double rate = 0;
	FILE *out = NULL;
	while (argc > 2 && argv[1][0] == '-') {
		if (strcmp(argv[1], "-r") == 0)
			rate = atof(argv[2]);
		else if (strcmp(argv[1], "-o") == 0 && !(out = fopen(argv[2], "wb"))) {
			perror(argv[2]);
			return 1;
		}
		argv += 2;
		argc -= 2;
	}
	if (argc < 4) {
		fprintf(stderr, "usage: ptybytes [-r BYTES_PER_SECOND] [-o FILE] COLS ROWS "
			"COMMAND [ARG...]\n");
		return 2;
	}
	struct winsize ws = {.ws_col = (unsigned short)atoi(argv[1]),
			     .ws_row = (unsigned short)atoi(argv[2])};
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master)) {
		perror("ptybytes: pty");
		return 1;
	}
	const char *slave_name = ptsname(master);
	pid_t pid = fork();
	if (pid < 0) {
		perror("ptybytes: fork");
		return 1;
	}
	if (pid == 0) {
		setsid();
		int slave = open(slave_name, O_RDWR);
		if (slave < 0)
			_exit(127);
		ioctl(slave, TIOCSCTTY, 0);
		ioctl(slave, TIOCSWINSZ, &ws);
		dup2(slave, 0);
		dup2(slave, 1);
		if (slave > 1)
			close(slave);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	unsigned long long total = 0;
	char buf[65536];
	double t0 = bench_wall_seconds();
	for (;;) {
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
