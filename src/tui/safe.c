/* Nothing lost: the quit confirmation, the snapshot save that never
 * overwrites silently and never reuses a name, and the autosave a signal
 * leaves when there is unsaved work (one per working directory, numbered
 * beside one still waiting), announced at start and resumed by R or
 * --resume. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/base/error.h"
#include "io/fileio.h"
#include "io/image.h"
#include "io/snapshot.h"
#include "tui/app.h"
#include "tui/safe.h"
#include "tui/tui.h"
#include "view/shade.h"

/* The directory's autosave and the numbered ones beside it: -2 .. -999. */
/* Waiting autosaves that hold this much together are said with their size. */
#define AUTOSAVE_SAY_BYTES ((uint64_t)100 << 20)
#define AUTOSAVE_NUMBERED_MAX 1000

/* A notice shown at start stays this long (a class may look away). */
#define NOTICE_SECONDS 30.0

/* FNV-1a: a short, stable name for a directory of any length. */
static uint64_t fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

bool tui_autosave_path(char *buf, size_t len)
{
	char dir[PATH_MAX];
	const char *state = getenv("XDG_STATE_HOME");
	int n;
	if (state && state[0] == '/') {
		n = snprintf(dir, sizeof dir, "%s/gully", state);
	} else {
		const char *home = getenv("HOME");
		if (!home || !*home)
			return false;
		n = snprintf(dir, sizeof dir, "%s/.local/state/gully", home);
	}
	if (n <= 0 || (size_t)n >= sizeof dir)
		return false;
	/* One autosave per working directory, so a signal in one project does
	 * not overwrite another's: the directory's last name (for a person
	 * reading the folder) and a hash of its whole path (to keep two "src"
	 * apart). */
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		snprintf(cwd, sizeof cwd, "/");
	const char *base = strrchr(cwd, '/');
	base = base && base[1] ? base + 1 : "root";
	char label[41];
	size_t k = 0;
	for (; base[k] && k < sizeof label - 1; k++) {
		char c = base[k];
		label[k] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
				   c == '-' || c == '_' || c == '.'
			   ? c
			   : '_';
	}
	label[k] = '\0';
	n = snprintf(buf, len, "%s/autosave-%s-%016llx.gsnap", dir, label,
		     (unsigned long long)fnv1a(cwd));
	return n > 0 && (size_t)n < len;
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* Autosave number i of the directory whose own is `base`: 1 is base itself,
 * 2 .. AUTOSAVE_NUMBERED_MAX - 1 are autosave-DIR-HASH-i.gsnap beside it.
 * false when the name does not fit. */
static bool autosave_name(char *path, size_t len, const char *base, int i)
{
	const int stem = (int)(strlen(base) - strlen(".gsnap"));
	int n = i == 1 ? snprintf(path, len, "%s", base)
		       : snprintf(path, len, "%.*s-%d.gsnap", stem, base, i);
	return n > 0 && (size_t)n < len;
}

/* The autosave R resumes: of the directory's autosave and the numbered ones
 * beside it (autosave_target), the newest (by time, then by number); *count
 * (may be NULL) gets how many there are. */
static bool autosave_newest(char *path, size_t len, int *count, uint64_t *bytes)
{
	char base[PATH_MAX], name[PATH_MAX + 16];
	int n = 0;
	struct timespec best = {0, 0};
	if (count)
		*count = 0;
	if (bytes)
		*bytes = 0;
	if (!tui_autosave_path(base, sizeof base))
		return false;
	for (int i = 1; i < AUTOSAVE_NUMBERED_MAX; i++) {
		struct stat st;
		if (!autosave_name(name, sizeof name, base, i) || stat(name, &st) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		const struct timespec t = st.st_mtim;
		if (bytes)
			*bytes += (uint64_t)st.st_size;
		if (n++ == 0 || t.tv_sec > best.tv_sec ||
		    (t.tv_sec == best.tv_sec && t.tv_nsec >= best.tv_nsec)) {
			best = t;
			if ((size_t)snprintf(path, len, "%s", name) >= len)
				return false;
		}
	}
	if (count)
		*count = n;
	return n > 0;
}

bool safe_autosave_exists(char *path, size_t len)
{
	return autosave_newest(path, len, NULL, NULL);
}

void safe_default_name(const struct app *a, char *buf, size_t len)
{
	char stamp[32];
	time_t t = time(NULL);
	struct tm tm;
	if (!localtime_r(&t, &tm) || !strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm))
		snprintf(stamp, sizeof stamp, "%lld", (long long)t);
	snprintf(buf, len, "gully-%d-%s.gsnap", a->params.world.seed, stamp);
	for (int i = 2; i < 1000 && exists(buf); i++)
		snprintf(buf, len, "gully-%d-%s-%d.gsnap", a->params.world.seed, stamp, i);
}

bool safe_picture_name(const char *path)
{
	/* Pictures gully writes (gully render), and the common ones it does
	 * not: a snapshot under any of these names is a file no viewer opens. */
	static const char *const others[] = {"jpg", "jpeg", "gif", "bmp", "tif", "tiff", "webp",
					     "svg"};
	if (image_format_from_path(path) != IMAGE_NONE)
		return true;
	const char *dot = strrchr(path, '.');
	if (!dot || strchr(dot, '/'))
		return false;
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
		if (strcasecmp(dot + 1, others[i]) == 0)
			return true;
	return false;
}

/* The render command that makes the picture the screen shows: gully
 * render draws no overlay unless named, and the explorer starts with the
 * streams and pools on, so a picture made as the hint once said lacked
 * the rivers and lakes the class saw. The session's own file, when it
 * holds what shows; else NAME.gsnap. */
static void picture_hint(const struct app *a, const char *picture, char *out, size_t len)
{
	int n = snprintf(out, len, "gully render %s -o %s",
			 a->file[0] && !a->dirty ? a->file : "NAME.gsnap", picture);
	const char *sep = " --overlay ";
	for (int o = 0; o < OVERLAY_COUNT && n > 0 && (size_t)n < len; o++)
		if (shade_overlay_listed(o) && (a->view.overlays & OVERLAY_BIT(o))) {
			n += snprintf(out + n, len - (size_t)n, "%s%s", sep, shade_overlay_name(o));
			sep = ",";
		}
}

bool safe_save_prompt(struct app *a)
{
	char buf[PATH_MAX];
	if (a->file[0])
		snprintf(buf, sizeof buf, "%s", a->file);
	else
		safe_default_name(a, buf, sizeof buf);
	bool was = a->running, saved = false;
	a->running = false;
	if (!prompt_read(a, " save snapshot to: ", buf, sizeof buf) || !buf[0]) {
		app_message(a, "not saved");
		a->running = was;
		return false;
	}
	/* S once wrote snapshot bytes into foo.png, which then opened nowhere. */
	if (safe_picture_name(buf)) {
		const char *base = strrchr(buf, '/');
		char hint[2 * PATH_MAX + 128];
		picture_hint(a, base ? base + 1 : buf, hint, sizeof hint);
		app_message(a, "not saved: S writes a .gsnap snapshot, not %s; for a picture%s%s",
			    base ? base + 1 : buf,
			    a->file[0] && !a->dirty ? ": " : " save a .gsnap, then ", hint);
		a->running = was;
		return false;
	}
	/* A name without an extension ("lesson") gets the snapshot's: gully
	 * knows a snapshot by it (gully lesson would look for a preset first,
	 * a file manager or `ls *.gsnap` would not know it), as run -o asks
	 * for one. The session's own file keeps the name it has. */
	const char *base = strrchr(buf, '/');
	base = base ? base + 1 : buf;
	if (strcmp(buf, a->file) != 0 && base[0] && !strchr(base, '.') &&
	    strlen(buf) + sizeof ".gsnap" <= sizeof buf)
		strcat(buf, ".gsnap");
	/* A FIFO, a directory or a link into nothing: refused before asking
	 * "replace it?", whose yes could only fail. */
	char *target = file_save_target(buf);
	if (!target) {
		app_message(a, "not saved: %s: %s", buf, file_strerror(errno));
		a->running = was;
		return false;
	}
	free(target);
	/* The session's own file is saved again without asking, as an editor
	 * does; any other existing file is replaced only on a yes. */
	if (exists(buf) && strcmp(buf, a->file) != 0) {
		char q[PATH_MAX + 64];
		snprintf(q, sizeof q, " %s exists: replace it?", buf);
		if (!prompt_yes_no(a, q)) {
			app_message(a, "kept %s; not saved", buf);
			a->running = was;
			return false;
		}
	}
	char err[PATH_MAX + 256];
	/* A big map's snapshot is hundreds of MB, a second or more to write:
	 * say so first, as making a big terrain does. */
	if (app_big_map(a->world->width, a->world->height)) {
		app_message(a, "saving %s...", buf);
		app_draw_held(a);
	}
	if (session_save(a, buf, err, sizeof err) == GULLY_OK) {
		app_message(a, "saved %s", buf);
		saved = true;
	} else {
		app_message(a, "%s", err);
	}
	a->running = was;
	return saved;
}

bool safe_quit_confirmed(struct app *a)
{
	if (!a->dirty)
		return true;
	bool was = a->running;
	a->running = false;
	int c = prompt_choice(a, " quit without saving? y/n/s to save ", "yns");
	a->running = was;
	if (c == 'y')
		return true;
	if (c == 's')
		return safe_save_prompt(a);
	app_message(a, "not quitting");
	return false;
}

/* Where the autosave goes: this directory's own name when free; when an
 * earlier session's autosave still waits there (not yet resumed, which
 * removes it), the first free autosave-DIR-HASH-N.gsnap (N from 2), so a
 * later signal's autosave never destroys it. false when none can be named. */
static bool autosave_target(char *path, size_t len, bool *numbered, char *err, size_t err_len)
{
	char base[PATH_MAX];
	*numbered = false;
	if (!tui_autosave_path(base, sizeof base)) {
		snprintf(err, err_len, "no XDG_STATE_HOME or HOME to save in");
		return false;
	}
	for (int i = 1; i < AUTOSAVE_NUMBERED_MAX; i++) {
		if (!autosave_name(path, len, base, i))
			return false;
		*numbered = i > 1;
		if (!exists(path))
			return true;
	}
	snprintf(err, err_len, "%s and %d numbered ones beside it wait: resume or remove some",
		 base, AUTOSAVE_NUMBERED_MAX - 2);
	return false;
}

enum safe_autosave safe_autosave(struct app *a, char *saved, size_t saved_len, bool *numbered,
				 char *err, size_t err_len)
{
	char path[PATH_MAX];
	*numbered = false;
	saved[0] = '\0';
	/* Nothing unsaved: nothing to keep, and an earlier autosave stays. */
	if (!a->dirty)
		return SAFE_AUTOSAVE_CLEAN;
	if (!autosave_target(path, sizeof path, numbered, err, err_len))
		return SAFE_AUTOSAVE_FAILED;
	if (app_make_parents(path) != 0) {
		snprintf(err, err_len, "%s: cannot make its directory: %s", path, strerror(errno));
		return SAFE_AUTOSAVE_FAILED;
	}
	if (session_save(a, path, err, err_len) != GULLY_OK)
		return SAFE_AUTOSAVE_FAILED;
	snprintf(saved, saved_len, "%s", path);
	return SAFE_AUTOSAVE_SAVED;
}

void safe_autosave_notice(struct app *a)
{
	char path[PATH_MAX];
	int count;
	uint64_t bytes;
	if (!autosave_newest(path, sizeof path, &count, &bytes))
		return;
	/* Each waits until resumed, and of a big map each is hundreds of MB:
	 * past AUTOSAVE_SAY_BYTES their room is said, for whoever wants the
	 * disk back (gully(1), FILES, says where). Below it the notice stays
	 * short enough to leave PAUSED beside it at 80 columns. */
	char size[32] = "";
	if (bytes >= AUTOSAVE_SAY_BYTES)
		snprintf(size, sizeof size, " (%.1f GB)", (double)bytes / (1024.0 * 1024.0 * 1024.0));
	if (count > 1)
		app_message(a, "%d sessions were autosaved here%s: R resumes the newest, then the next",
			    count, size);
	else
		app_message(a, "a session was autosaved here at Ctrl-C, a hang-up, TERM or QUIT: "
			    "R resumes it");
	a->message_until = app_now() + NOTICE_SECONDS;
}

int safe_open_autosave(struct app *a, char *err, size_t errlen)
{
	char path[PATH_MAX];
	if (!tui_autosave_path(path, sizeof path)) {
		snprintf(err, errlen, "no saved session: neither XDG_STATE_HOME nor HOME is set");
		return GULLY_ENOTFOUND;
	}
	if (!autosave_newest(path, sizeof path, NULL, NULL)) {
		snprintf(err, errlen, "no saved session for this directory (none at %s)", path);
		return GULLY_ENOTFOUND;
	}
	int e = session_load(a, path, err, errlen);
	if (e)
		return e;
	/* The session now lives here, unsaved, so quitting asks; the file goes
	 * so the next start does not offer it again, and S asks for a name. */
	if (unlink(path) != 0 && errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return GULLY_EIO;
	}
	a->file[0] = '\0';
	a->dirty = true;
	return GULLY_OK;
}

void safe_resume_key(struct app *a)
{
	char path[PATH_MAX], err[PATH_MAX + 256];
	if (!safe_autosave_exists(path, sizeof path)) {
		app_message(a, "no saved session for this directory");
		return;
	}
	bool was = a->running;
	a->running = false;
	if (a->dirty && !prompt_yes_no(a, " replace this unsaved session with the saved one?")) {
		app_message(a, "kept this session");
		a->running = was;
		return;
	}
	/* A big map's autosave takes a second or more to read: say so first. */
	if (app_big_file(path)) {
		app_message(a, "reading %s...", path);
		app_draw_held(a);
	}
	if (safe_open_autosave(a, err, sizeof err) == GULLY_OK)
		app_message(a, "resumed the autosaved session (%s, %llu %s)",
			    a->proc->name, (unsigned long long)a->world->particles, a->proc->unit);
	else
		app_message(a, "%s", err);
}

bool safe_snapshot_file(const char *path)
{
	unsigned char magic[SNAPSHOT_MAGIC_LEN];
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	bool is = fread(magic, 1, sizeof magic, f) == sizeof magic &&
		  memcmp(magic, SNAPSHOT_MAGIC, sizeof magic) == 0;
	fclose(f);
	return is;
}

bool safe_open_key(struct app *a, const char *path)
{
	char err[PATH_MAX + 256];
	if (a->dirty && !prompt_yes_no(a, " replace this unsaved session with the snapshot?")) {
		app_message(a, "kept this session");
		return false;
	}
	if (app_big_file(path)) {
		app_message(a, "reading %s...", path);
		app_draw_held(a);
	}
	if (session_load(a, path, err, sizeof err) != GULLY_OK) {
		app_message(a, "%s", err);
		return false;
	}
	app_message(a, "opened %s (%s, %llu %s), paused: Space runs it", path, a->proc->name,
		    (unsigned long long)a->world->particles, a->proc->unit);
	return true;
}
