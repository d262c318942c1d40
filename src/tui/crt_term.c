/* Which terminal description curses gets. Three things a demanding SSH
 * user expects that terminfo alone does not give:
 *  - truecolor when COLORTERM says so (truecolor or 24bit, as btop, neovim
 *    and bat read it) or --color=truecolor asks, though TERM's entry (most
 *    often xterm-256color) lacks RGB: a private entry is compiled with tic,
 *    TERM's own entry plus direct-colour setaf/setab, and used for this
 *    session only (its directory is removed at once);
 *  - TERM=xterm-direct (or any *-direct) missing from the database falls
 *    back to *-256color or xterm-256color with truecolor, not an exit;
 *  - a terminal that cannot move the cursor (TERM=dumb, an emacs shell)
 *    is refused in one line that names what works there instead. */
#include "tui/crt_term.h"
#include "term/tier.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <curses.h>
#include <term.h>

extern char **environ;

#define DIRECT_NAME "gully-direct"

/* Loads `name`'s entry into cur_term (quietly); false when it is not in
 * the database. */
static bool entry_exists(const char *name)
{
	int e = 0;
	if (setupterm(name, fileno(stdout), &e) != OK)
		return false;
	return true;
}

static void entry_drop(void)
{
	if (cur_term)
		del_curterm(cur_term);
	cur_term = NULL;
}

static bool cap_present(const char *cap)
{
	const char *s = tigetstr(cap);
	return s && s != (const char *)-1 && *s;
}

/* Only names tic reads as one name: a TERM with a comma or a newline would
 * write more than a `use=` into the source. */
static bool plain_name(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '-' || *s == '_' || *s == '.' || *s == '+'))
			return false;
	return true;
}

/* Removes the private terminfo directory: its source and what tic wrote,
 * one level of subdirectories (g/ or 67/) holding the entry. */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[PATH_MAX];
	while (d && (de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >= (int)sizeof path)
			continue;
		if (unlink(path) == 0)
			continue;
		DIR *sub = opendir(path);
		struct dirent *se;
		char inner[PATH_MAX];
		while (sub && (se = readdir(sub)))
			if (strcmp(se->d_name, ".") && strcmp(se->d_name, "..") &&
			    snprintf(inner, sizeof inner, "%s/%s", path, se->d_name) < (int)sizeof inner)
				unlink(inner);
		if (sub)
			closedir(sub);
		rmdir(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* Compiles DIRECT_NAME, `base` with direct colour, into a fresh directory
 * (in dir); false when tic is missing or fails. Colours 0-7 stay the ANSI
 * ones, as in ncurses' own xterm-direct: curses draws text in pair 0,
 * COLOR_WHITE (7) on COLOR_BLACK (0), which as RGB would be 0x000007, near
 * black on black, and the panel and status line unreadable. The map's
 * colours are quantised with every channel at least 8, so never below 8. */
static bool compile_direct(const char *base, char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	if (snprintf(dir, len, "%s/gully-terminfo-XXXXXX", tmp) >= (int)len || !mkdtemp(dir))
		return false;
	char src[4200];
	snprintf(src, sizeof src, "%s/direct.src", dir);
	FILE *fp = fopen(src, "w");
	if (!fp) {
		remove_tree(dir);
		return false;
	}
	fprintf(fp,
		DIRECT_NAME "|%s with direct colour for gully,\n"
		"\tcolors#0x1000000, pairs#0x10000, RGB,\n"
		"\tsetaf=\\E[%%?%%p1%%{8}%%<%%t3%%p1%%d%%e38;2;%%p1%%{65536}%%/%%d;%%p1%%{256}%%/"
		"%%{255}%%&%%d;%%p1%%{255}%%&%%d%%;m,\n"
		"\tsetab=\\E[%%?%%p1%%{8}%%<%%t4%%p1%%d%%e48;2;%%p1%%{65536}%%/%%d;%%p1%%{256}%%/"
		"%%{255}%%&%%d;%%p1%%{255}%%&%%d%%;m,\n"
		"\tuse=%s,\n",
		base, base);
	bool ok = fclose(fp) == 0;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status = -1;
	/* SIGCHLD ignored by whoever started gully (an ignored signal is
	 * inherited) has the kernel reap tic itself: waitpid then fails with
	 * ECHILD, and the loop retried it at full CPU for ever, before the
	 * screen was up (SIGTERM and SIGHUP only set the loop's flag). Its
	 * default action while tic runs lets its status be read. */
	struct sigaction dfl, old;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGCHLD, &dfl, &old);
	if (ok && posix_spawn_file_actions_init(&fa) == 0) {
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
		char *argv[] = {"tic", "-x", "-o", dir, src, NULL};
		if (posix_spawnp(&pid, "tic", &fa, NULL, argv, environ) == 0)
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
		posix_spawn_file_actions_destroy(&fa);
	}
	sigaction(SIGCHLD, &old, NULL);
	if (!ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		remove_tree(dir);
		return false;
	}
	return true;
}

/* newterm on DIRECT_NAME from `dir`, TERMINFO pointing there for the call
 * only. */
static SCREEN *open_direct(const char *dir)
{
	const char *old = getenv("TERMINFO");
	char *saved = old ? strdup(old) : NULL;
	setenv("TERMINFO", dir, 1);
	SCREEN *s = newterm(DIRECT_NAME, stdout, stdin);
	if (saved) {
		setenv("TERMINFO", saved, 1);
		free(saved);
	} else {
		unsetenv("TERMINFO");
	}
	return s;
}

SCREEN *crt_term_open(bool want_true, char *note, size_t notelen, char *err, size_t errlen)
{
	note[0] = '\0';
	const char *term = getenv("TERM");
	if (!term || !*term) {
		snprintf(err, errlen, "TERM is not set: cannot start the explorer");
		return NULL;
	}
	const char *name = term;
	char base[80];
	if (!entry_exists(term)) {
		if (!term_name_direct(term)) {
			snprintf(err, errlen, "TERM=%s is not in the terminfo database (try "
				 "TERM=xterm-256color)", term);
			return NULL;
		}
		/* *-direct asks for truecolor: its 256-colour sibling, else xterm's. */
		size_t n = strlen(term);
		snprintf(base, sizeof base, "%.*s-256color", (int)(n - 7 < 60 ? n - 7 : 60), term);
		if (!entry_exists(base))
			snprintf(base, sizeof base, "xterm-256color");
		if (!entry_exists(base)) {
			snprintf(err, errlen, "TERM=%s is not in the terminfo database, nor %s", term,
				 base);
			return NULL;
		}
		snprintf(note, notelen, "%s is not in the terminfo database: using %s", term, base);
		name = base;
		want_true = true;
	}
	/* The Linux console's 16-colour entry, when there is one. */
	const char *entry = term_entry_name(name);
	if (entry != name) {
		entry_drop();
		if (!entry_exists(entry)) {
			snprintf(err, errlen, "cannot use terminal type '%s'", entry);
			return NULL;
		}
		name = entry;
	}
	if (strcmp(name, "dumb") == 0 || !cap_present("cup") || !cap_present("clear")) {
		entry_drop();
		snprintf(err, errlen, "TERM=%s cannot move the cursor, which the explorer needs: use "
			 "'gully run' for a run without a screen, or 'gully render' for a picture", term);
		return NULL;
	}
	bool has_rgb = tigetflag("RGB") > 0 && tigetnum("colors") >= 0x1000000;
	entry_drop();
	char dir[PATH_MAX];
	if (want_true && !has_rgb && plain_name(name)) {
		if (compile_direct(name, dir, sizeof dir)) {
			SCREEN *s = open_direct(dir);
			remove_tree(dir);
			if (s)
				return s;
		}
		if (!note[0])
			snprintf(note, notelen, "no truecolor: tic could not add direct colour to %s",
				 name);
	}
	SCREEN *s = newterm(name, stdout, stdin);
	if (!s)
		snprintf(err, errlen, "cannot use terminal type '%s'", name);
	return s;
}
