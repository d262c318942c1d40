/* One `gully run` of a sweep in a child process: started with the sweep's
 * signals held off until it has its own, its stdout (the row) and, in a
 * grid, its stderr read through pipes, so the sweep alone writes to its
 * terminal and two runs' lines never mix. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "cli/sweep.h"

/* The pipes a run writes into: its stdout and, with efd, its stderr. */
static int open_pipes(int out[2], int err[2], bool with_err)
{
	err[0] = err[1] = -1;
	if (pipe(out) != 0)
		return -1;
	if (with_err && pipe(err) != 0) {
		close(out[0]);
		close(out[1]);
		return -1;
	}
	return 0;
}

static void close_pair(int p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i] >= 0)
			close(p[i]);
}

/* The child's side: the pipes as stdout (and stderr), then gully run. */
static void exec_run(char **argv, const char *self, int out[2], int err[2])
{
	close(out[0]);
	if (dup2(out[1], STDOUT_FILENO) < 0)
		_exit(127);
	close(out[1]);
	if (err[1] >= 0) {
		close(err[0]);
		if (dup2(err[1], STDERR_FILENO) < 0)
			_exit(127);
		close(err[1]);
	}
	if (self)
		execv(self, argv);
	else
		execvp(cli_program, argv);
	fprintf(stderr, "%s sweep: cannot run %s: %s\n", cli_program, self ? self : cli_program,
		strerror(errno));
	_exit(127);
}

/* Starts a run writing its stdout into *fd and, when efd is not NULL, its
 * stderr into *efd (else onto the sweep's own). */
static pid_t spawn(char **argv, const char *self, int *fd, int *efd)
{
	int pipefd[2], errfd[2];
	if (open_pipes(pipefd, errfd, efd != NULL) != 0)
		return -1;
	/* Between fork and exec the child has the sweep's signal handlers,
	 * which only note a signal: a TERM that stops the sweep then was lost,
	 * and the run went on for its whole length while the sweep waited for
	 * it. The signals wait, blocked, until the child has the default
	 * actions (an ignored one stays ignored, as nohup asked). */
	static const int stops[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	sigset_t block, old;
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
		sigaddset(&block, stops[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
			struct sigaction now;
			if (sigaction(stops[i], NULL, &now) == 0 && now.sa_handler != SIG_IGN)
				signal(stops[i], SIG_DFL);
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		close_pair(pipefd);
		close_pair(errfd);
		return -1;
	}
	if (pid == 0) {
#ifdef __linux__
		/* A sweep killed outright (SIGKILL) takes its runs with it. */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
			_exit(127);
#else
		(void)parent;
#endif
		exec_run(argv, self, pipefd, errfd);
	}
	close(pipefd[1]);
	*fd = pipefd[0];
	if (efd) {
		close(errfd[1]);
		*efd = errfd[0];
	}
	return pid;
}

/* Reads what is there onto t, up to `max` bytes in all (what comes after
 * is read and dropped, *cut set, so the run never blocks on a full pipe);
 * false at the end of the output (or on an error). */
static bool text_read(int fd, struct run_text *t, size_t max, bool *cut)
{
	if (t->len + 4096 > t->cap && t->len < max) {
		size_t cap = t->cap ? t->cap * 2 : 8192;
		char *n = realloc(t->text, cap);
		if (!n)
			return false;
		t->text = n;
		t->cap = cap;
	}
	char spill[4096];
	const bool full = t->len + 4096 > t->cap;
	ssize_t got = full ? read(fd, spill, sizeof spill)
			   : read(fd, t->text + t->len, t->cap - t->len - 1);
	if (got > 0 && full) {
		*cut = true;
		return true;
	}
	if (got > 0) {
		t->len += (size_t)got;
		t->text[t->len] = '\0';
		return true;
	}
	return got < 0 && errno == EINTR;
}

bool sweep_slot_read(struct run_slot *s)
{
	bool cut = false;
	return text_read(s->fd, &s->out, SIZE_MAX, &cut);
}

/* Reads the run's stderr; closes it at its end. */
static void slot_read_err(struct run_slot *s)
{
	if (!text_read(s->efd, &s->err, RUN_ERR_MAX, &s->err_cut)) {
		close(s->efd);
		s->efd = -1;
	}
}

/* What the run said on stderr, whole, then nothing more of it: printed by
 * the sweep alone, so two runs' lines never mix mid-line. */
void sweep_slot_print_err(struct run_slot *s)
{
	if (s->err.len) {
		fwrite(s->err.text, 1, s->err.len, stderr);
		if (s->err.text[s->err.len - 1] != '\n')
			fputc('\n', stderr);
	}
	if (s->err_cut)
		cli_error("(point %ld's stderr went on past %d bytes: the rest was dropped)",
			  s->point, RUN_ERR_MAX);
	s->err.len = 0;
	s->err_cut = false;
}

/* The row (TSV: the line after the header; JSON: the object) a run printed. */
static const char *run_row(const char *out, bool json, const char **header, size_t *hlen)
{
	if (json)
		return out;
	const char *nl = strchr(out, '\n');
	if (!nl)
		return NULL;
	*header = out;
	*hlen = (size_t)(nl - out);
	return nl + 1;
}

/* Reaps a finished slot; its row (NULL when the run failed) is the slot's text. */
const char *sweep_slot_finish(struct run_slot *s, bool json, const char **h, size_t *hlen,
				     int *ws)
{
	if (s->fd >= 0)
		close(s->fd);
	if (s->efd >= 0)
		close(s->efd);
	s->fd = s->efd = -1;
	while (waitpid(s->pid, ws, 0) < 0 && errno == EINTR)
		;
	s->pid = 0;
	if (WIFEXITED(*ws) && WEXITSTATUS(*ws) == 0 && s->out.text && s->out.len)
		return run_row(s->out.text, json, h, hlen);
	return NULL;
}

/* Starts point's run in slot; with keep_err its stderr comes to the slot
 * (sweep_slot_print_err), else it goes straight to the sweep's. */
int sweep_slot_start(const struct sweep *s, struct run_slot *slot, const char *self,
		     long point, bool keep_err)
{
	struct argv_buf b = {0};
	slot->fd = slot->efd = -1;
	if (sweep_run_argv(&b, s, cli_program, point) != 0 ||
	    (slot->pid = spawn(b.v, self, &slot->fd, keep_err ? &slot->efd : NULL)) <= 0) {
		argv_free(&b);
		slot->pid = 0;
		cli_error("cannot start a run: %s", strerror(errno));
		return 1;
	}
	argv_free(&b);
	slot->point = point;
	slot->out.len = slot->err.len = 0;
	slot->err_cut = false;
	return 0;
}

static bool fd_ready(int fd, const struct pollfd *pfd, nfds_t n)
{
	for (nfds_t i = 0; fd >= 0 && i < n; i++)
		if (pfd[i].fd == fd && pfd[i].revents)
			return true;
	return false;
}

/* The runs still under way are stopped (TERM) and reaped. Their pipes close
 * after they end: a run stopped by TERM still prints its metrics row, and
 * into a closed pipe that was one "Broken pipe" line per run. What they
 * said on stderr is dropped unread: "interrupted ... no -o file to keep
 * them" speaks of a run's own -o, which means nothing in a sweep, whose
 * own line says what was stopped. */
void sweep_slots_stop(struct run_slot *slots, long jobs)
{
	for (long k = 0; slots && k < jobs; k++)
		if (slots[k].pid)
			kill(slots[k].pid, SIGTERM);
	for (long k = 0; slots && k < jobs; k++) {
		if (slots[k].pid) {
			waitpid(slots[k].pid, NULL, 0);
			if (slots[k].fd >= 0)
				close(slots[k].fd);
			if (slots[k].efd >= 0)
				close(slots[k].efd);
		}
		free(slots[k].out.text);
		free(slots[k].err.text);
	}
}

/* The pipes of the runs under way (stdout and stderr each), then stdout
 * for no event: a pipe whose reader has gone shows POLLERR at once, not
 * only at the next row. The count before stdout's entry. */
nfds_t sweep_slots_poll(const struct run_slot *slots, long jobs, struct pollfd *pfd)
{
	nfds_t n = 0;
	for (long k = 0; k < jobs; k++) {
		if (slots[k].pid && slots[k].fd >= 0)
			pfd[n++] = (struct pollfd){.fd = slots[k].fd, .events = POLLIN};
		if (slots[k].pid && slots[k].efd >= 0)
			pfd[n++] = (struct pollfd){.fd = slots[k].efd, .events = POLLIN};
	}
	pfd[n] = (struct pollfd){.fd = STDOUT_FILENO, .events = 0};
	return n;
}

/* Reads what slot's run wrote; true once both its pipes are at their end. */
bool sweep_slot_take(struct run_slot *slot, const struct pollfd *pfd, nfds_t n)
{
	if (fd_ready(slot->efd, pfd, n))
		slot_read_err(slot);
	if (fd_ready(slot->fd, pfd, n) && !sweep_slot_read(slot)) {
		close(slot->fd);
		slot->fd = -1;
	}
	return slot->fd < 0 && slot->efd < 0;
}

