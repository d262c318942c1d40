/* ptybytes COLS ROWS COMMAND...: runs COMMAND on a pseudo-terminal of that
 * size and prints how many bytes it wrote to the terminal. For measuring the
 * explorer's bandwidth (bench/TUI.md). */
#define _XOPEN_SOURCE 600
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: ptybytes COLS ROWS COMMAND [ARG...]\n");
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
	for (;;) {
		ssize_t n = read(master, buf, sizeof buf);
		if (n > 0) {
			total += (unsigned long long)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		break; /* EIO once the child has gone */
	}
	int status;
	waitpid(pid, &status, 0);
	printf("%llu\n", total);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
