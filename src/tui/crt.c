#include "term/cell.h"
#include "tui/crt.h"
#include "tui/crt_term.h"
#include "tui/tui.h"
#include "view/shade.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>
#include <curses.h>
#include <term.h>
#include <wchar.h>

struct crt_state crt;

/* The terminal's modes before curses, put back on stdin by crt_done when
 * curses' own fd went to /dev/null (crt_drop_output). */
static struct termios shell_modes;
static bool shell_modes_saved;
/* Written by a signal handler: whether stderr is the terminal too, and
 * whether the terminal's output was dropped. */
static volatile sig_atomic_t stderr_on_terminal;
static volatile sig_atomic_t output_dropped;

/* Quantisation for truecolor: 4 bits a channel (4096 colours, still finer
 * than the 256-colour cube) measured 9.9 KB per running frame at 160x48
 * against 27 KB with 5 bits, as fewer cells change colour each frame and the
 * pair table stays small (bench/TUI.md). */
#define TRUE_BITS 4

/* ---- the pair table: (fg, bg) colour numbers -> pair, open addressing ---- */

struct pair_slot {
	int fg, bg; /* fg < 0: empty */
	int pair;
};
static struct pair_slot *slots;
static size_t nslots;

static void pairs_clear(void)
{
	for (size_t i = 0; i < nslots; i++)
		slots[i].fg = -1;
	crt.pairs_used = 0;
}

static int pairs_setup(void)
{
	int max = COLOR_PAIRS - 1;
	if (max > 32767)
		max = 32767;
	if (max < 1)
		max = 0;
	crt.pairs_max = max;
	nslots = 16;
	while (nslots < (size_t)max * 2)
		nslots *= 2;
	slots = malloc(nslots * sizeof *slots);
	if (!slots)
		return -1;
	pairs_clear();
	return 0;
}

/* The pair for (fg, bg), made on first use. When the table is full it starts
 * over and asks for a full repaint: with quantised colours this is rare. */
static int pair_for(int fg, int bg)
{
	if (!slots || crt.pairs_max <= 0)
		return 0;
	if (crt.dark_bg && bg >= 8 && bg < 16)
		bg -= 8;
	size_t h = ((size_t)(unsigned)fg * 2654435761u ^ (size_t)(unsigned)bg * 40503u) & (nslots - 1);
	while (slots[h].fg >= 0) {
		if (slots[h].fg == fg && slots[h].bg == bg)
			return slots[h].pair;
		h = (h + 1) & (nslots - 1);
	}
	if (crt.pairs_used >= crt.pairs_max) {
		pairs_clear();
		crt.resets++;
		clearok(curscr, TRUE);
		return pair_for(fg, bg);
	}
	int pair = ++crt.pairs_used;
	if (init_extended_pair(pair, fg, bg) == ERR)
		return 0;
	slots[h].fg = fg;
	slots[h].bg = bg;
	slots[h].pair = pair;
	return pair;
}

/* The tier's colour number for an RGB value. */
static int colour_of(struct rgb c)
{
	switch (crt.tier) {
	case TIER_TRUE: {
		struct rgb q = palette_quantise(c, TRUE_BITS);
		return (q.r << 16) | (q.g << 8) | q.b;
	}
	case TIER_256: return palette_to_256(c);
	case TIER_16: return palette_to_ansi(c, 16);
	case TIER_8: return palette_to_ansi(c, 8);
	default: return 0;
	}
}

static enum term_tier detect_tier(void)
{
	if (!has_colors())
		return TIER_NONE;
	/* COLORS is only set by start_color(); ask terminfo directly. */
	return term_entry_tier();
}

const char *tui_library_version(void)
{
	return curses_version();
}

bool crt_colorfgbg_light(void)
{
	const char *v = getenv("COLORFGBG");
	const char *bg = v ? strrchr(v, ';') : NULL;
	if (!bg)
		return false;
	return strcmp(bg + 1, "7") == 0 || strcmp(bg + 1, "15") == 0;
}

/* Text (pair 0: the panel, the status line, help, prompts, the cells
 * around the map) in the theme's colours. curses makes it white on black;
 * on a light background that was a black block in a white terminal, so a
 * light theme makes it black on white. White is the brightest white the
 * tier has without a bright background: colour 15 on the Linux console's
 * 16-colour entry is a blinking background, so 16 and 8 colours take 7. */
static void text_colours(void)
{
	if (!crt.light)
		return;
	int white = crt.tier == TIER_TRUE ? 0xffffff : crt.tier == TIER_256 ? 231 : COLOR_WHITE;
	assume_default_colors(COLOR_BLACK, white);
}

/* Emphasis the terminal loses on coloured text (term_entry_emphasis_lost)
 * takes a colour instead, on the text's background. The Linux console's
 * entry loses both: its setaf ends in SGR 22, normal intensity, so bold
 * and dim went out and were undone at once, and the panel's titles, hints
 * and the equations' numbers all read as plain text. Bold becomes bright
 * white, as the console shows bold itself; dim a normal-intensity cyan
 * (the console's own half-bright is dark grey, faint on a projector). On
 * the light theme's grey, where no colour is blacker than its text, bold
 * is blue and dim dark grey. Only 8 and 16 colours: entries with more keep
 * their attributes (and colours 8-15 are no bright ANSI there). */
static void emphasis_colours(void)
{
	if (crt.tier != TIER_16 && crt.tier != TIER_8)
		return;
	unsigned lost = term_entry_emphasis_lost();
	crt.emph_lost = (lost & TERM_EMPH_BOLD ? A_BOLD : 0) | (lost & TERM_EMPH_DIM ? A_DIM : 0);
	const bool bright = crt.tier == TIER_16;
	if (crt.light) {
		crt.text_bg = COLOR_WHITE;
		crt.bold_fg = COLOR_BLUE;
		crt.dim_fg = bright ? 8 : COLOR_MAGENTA;
	} else {
		crt.text_bg = COLOR_BLACK;
		crt.bold_fg = bright ? 15 : COLOR_YELLOW;
		crt.dim_fg = COLOR_CYAN;
	}
}

void crt_attrset(attr_t attrs)
{
	attr_t lost = attrs & crt.emph_lost;
	if (!lost || !crt.active) {
		attrset(attrs);
		return;
	}
	attrs &= ~lost;
	/* Reverse video is emphasis enough: a colour would be swapped into
	 * the background (the status line's bright white a white block). */
	if (attrs & A_REVERSE) {
		attrset(attrs);
		return;
	}
	int pair = pair_for(lost & A_BOLD ? crt.bold_fg : crt.dim_fg, crt.text_bg);
	/* With opts given, ncurses takes the pair as an int (put_glyph). */
	attr_set(attrs, 0, &pair);
}

/* Whether fds a and b are one terminal (stderr not redirected). */
static bool same_terminal(int a, int b)
{
	struct stat sa, sb;
	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && S_ISCHR(sa.st_mode) &&
	       S_ISCHR(sb.st_mode) && sa.st_rdev == sb.st_rdev;
}

int crt_init(const struct crt_options *o, char *err, size_t errlen)
{
	memset(&crt, 0, sizeof crt);
	shell_modes_saved = tcgetattr(STDIN_FILENO, &shell_modes) == 0;
	stderr_on_terminal = same_terminal(STDOUT_FILENO, STDERR_FILENO);
	output_dropped = 0;
	crt.light = o->light >= 0 ? o->light != 0 : crt_colorfgbg_light();
	crt.utf8 = o->utf8 >= 0 ? o->utf8 != 0 : term_locale_utf8();
	/* --utf8 in a non-UTF-8 locale: curses needs a UTF-8 LC_CTYPE to write
	 * the half blocks. */
	if (crt.utf8 && !term_locale_utf8() &&
	    !setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "en_US.UTF-8"))
		crt.utf8 = false;
	bool no_color = term_no_color();
	/* COLORTERM counts when no tier was chosen; --color=truecolor always. */
	bool want_true = o->tier == TIER_TRUE ||
			 (o->tier == TIER_AUTO && !no_color && term_colorterm_truecolor());
	/* newterm rather than initscr: initscr exits on a bad TERM. */
	SCREEN *s = crt_term_open(want_true, crt.note, sizeof crt.note, err, errlen);
	if (!s)
		return -1;
	set_term(s);
	crt.active = true;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	/* Home and End as the common terminals send them, whatever the entry
	 * says: tmux and screen send \E[1~ and \E[4~ under TERM=xterm-*,
	 * xterm sends \EOH/\EOF or \E[H/\E[F. */
	static const struct {
		const char *seq;
		int key;
	} extra_keys[] = {{"\033[1~", KEY_HOME}, {"\033[4~", KEY_END}, {"\033[H", KEY_HOME},
			  {"\033[F", KEY_END},   {"\033OH", KEY_HOME}, {"\033OF", KEY_END},
			  {"\033[7~", KEY_HOME}, {"\033[8~", KEY_END},
			  /* Shift-arrows as xterm, tmux and screen send them: the
			   * screen and screen-256color entries (tmux's default
			   * TERM) lack them. */
			  {"\033[1;2A", KEY_SR}, {"\033[1;2B", KEY_SF},
			  {"\033[1;2C", KEY_SRIGHT}, {"\033[1;2D", KEY_SLEFT}};
	for (size_t i = 0; i < sizeof extra_keys / sizeof extra_keys[0]; i++)
		if (key_defined(extra_keys[i].seq) <= 0)
			define_key(extra_keys[i].seq, extra_keys[i].key);
	curs_set(0);
	enum term_tier best = detect_tier();
	crt.tier = best;
	if (no_color)
		crt.tier = TIER_NONE;
	if (o->tier >= 0)
		/* A forced tier cannot go past what the terminal's entry can show. */
		crt.tier = o->tier < (int)best ? (enum term_tier)o->tier : best;
	if (crt.tier != TIER_NONE) {
		start_color();
		text_colours();
		if (pairs_setup() < 0) {
			crt_done();
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		emphasis_colours();
		crt.dark_bg = crt.tier == TIER_16 && term_entry_bright_bg_blinks();
	}
	if (o->mouse) {
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
		mouseinterval(0);
		crt.mouse = true;
	}
	return 0;
}

/* The terminal is gone when its input reports a hang-up: a pty whose other
 * side closed with no SIGHUP sent here (its session leader ignored it, or
 * gully is not in that session). Every read then fails at once, so without
 * this the loop spun at full CPU forever and never saved the session. */
static void check_hangup(void)
{
	struct pollfd p = {.fd = fileno(stdin), .events = POLLIN};
	if (poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)))
		crt.hung_up = true;
}

int crt_getch(void)
{
	int ch = getch();
	if (ch == ERR)
		check_hangup();
	if (ch != 27)
		return ch;
	/* curses has waited ESCDELAY for a sequence it knows: what follows the
	 * Esc now is already here. */
	const int delay = wgetdelay(stdscr);
	timeout(0);
	int c = getch();
	if (c != '[' && c != 'O') {
		if (c != ERR)
			ungetch(c);
		timeout(delay);
		return 27;
	}
	/* ECMA-48: parameter and intermediate bytes, then one final byte. */
	int n = 0;
	while ((c = getch()) >= 0x20 && c <= 0x3f && ++n < 64)
		;
	if (c != ERR && (c < 0x40 || c > 0x7e))
		ungetch(c);
	timeout(delay);
	return CRT_KEY_UNKNOWN;
}

void crt_done(void)
{
	if (!crt.active)
		return;
	crt.active = false;
	if (crt.mouse)
		mousemask(0, NULL);
	/* A blank screen before leaving: a terminal without an alternate
	 * screen (vt100), or one whose alternate screen was resized under it
	 * (a pane started small and enlarged, in tmux), otherwise keeps the
	 * map on the shell's screen. */
	clear();
	refresh();
	curs_set(1);
	endwin();
	/* endwin's modes went to /dev/null with the output: stdin is still
	 * the terminal, and TCSANOW waits for no output to drain. */
	if (output_dropped && shell_modes_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &shell_modes);
	free(slots);
	slots = NULL;
	nslots = 0;
}

/* Async-signal-safe (open, dup2, close): a write blocked on the terminal
 * returns once a signal interrupts it, since curses retries it on the new
 * fd, and every later write is discarded. */
void crt_drop_output(void)
{
	const int saved = errno;
	int fd = open("/dev/null", O_WRONLY);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		if (stderr_on_terminal)
			dup2(fd, STDERR_FILENO);
		close(fd);
		output_dropped = 1;
	}
	errno = saved;
}

static void put_glyph(int y, int x, const wchar_t *wc, attr_t attr, int pair)
{
	cchar_t cc;
	/* With a non-NULL opts, ncurses takes the pair as an int: pairs beyond
	 * 255 work where COLOR_PAIR(n) would not. */
	setcchar(&cc, wc, attr, 0, &pair);
	mvadd_wch(y, x, &cc);
}

/* Without half blocks one glyph a cell, darker to lighter; ':' is left out
 * of the ASCII ramp, being the stream glyph. */
static const char ascii_ramp[] = " .,-=+*#%@";
static const wchar_t utf8_ramp[] = L" \u2591\u2592\u2593\u2588";

wchar_t crt_ramp_glyph(struct rgb c)
{
	double l = palette_luma(c);
	/* Glyphs are ink in the terminal's foreground: on a light background
	 * more ink is darker, so light ground takes the sparse end. Painted on
	 * black (colour tiers) the ink is the colour, as on a dark one. */
	if (crt.light && crt.tier == TIER_NONE)
		l = 1 - l;
	if (crt.utf8) {
		int n = (int)(sizeof utf8_ramp / sizeof utf8_ramp[0]) - 1;
		int i = (int)(l * n);
		return utf8_ramp[i >= n ? n - 1 : i];
	}
	int n = (int)sizeof ascii_ramp - 1;
	int i = (int)(l * n);
	wchar_t g = (wchar_t)ascii_ramp[i >= n ? n - 1 : i];
	return g == L' ' && crt.tier != TIER_NONE ? L'.' : g;
}

wchar_t crt_water_glyph(int overlay)
{
	return overlay == OVERLAY_POOLS ? L'~' : L':';
}

void crt_put_cell(int y, int x, struct rgb top, struct rgb bottom, int water_top,
		  int water_bottom)
{
	wchar_t wc[2] = {L' ', L'\0'};
	if ((crt.tier == TIER_16 || crt.tier == TIER_8) && crt.utf8) {
		struct term_shaded sc = term_cell_shaded(top, bottom, crt.tier, crt.dark_bg);
		wc[0] = sc.wide;
		put_glyph(y, x, wc, A_NORMAL, pair_for(sc.fg, sc.bg));
		return;
	}
	if (crt.tier != TIER_NONE && crt.utf8) {
		int fg, bg;
		bool dithered = false;
		if (crt.tier == TIER_256)
			dithered = palette_to_256_pair(top, bottom, &fg, &bg);
		else {
			fg = colour_of(top);
			bg = colour_of(bottom);
		}
		if (fg != bg)
			wc[0] = dithered && palette_256_lower(x) ? L'\u2584' : L'\u2580';
		put_glyph(y, x, wc, A_NORMAL, pair_for(fg, bg));
		return;
	}
	/* One pixel per cell: both halves merged. */
	struct rgb c = palette_mix(top, bottom, 0.5);
	int water = water_top > water_bottom ? water_top : water_bottom;
	if (crt.tier == TIER_NONE && water != WATER_NONE)
		wc[0] = crt_water_glyph(water == WATER_POOL ? OVERLAY_POOLS : OVERLAY_STREAMS);
	else
		wc[0] = crt_ramp_glyph(c);
	int pair = 0;
	if (crt.tier != TIER_NONE)
		/* Painted on black so it reads the same on light terminals. */
		pair = pair_for(colour_of(c), colour_of((struct rgb){0, 0, 0}));
	put_glyph(y, x, wc, A_NORMAL, pair);
}

void crt_put_blank(int y, int x)
{
	wchar_t wc[2] = {L' ', L'\0'};
	put_glyph(y, x, wc, A_NORMAL, 0);
}

void crt_put_swatch(int y, int x, struct rgb c, char glyph)
{
	wchar_t wc[2] = {L' ', L'\0'};
	if (crt.tier == TIER_NONE) {
		wc[0] = (wchar_t)glyph;
		put_glyph(y, x, wc, A_REVERSE, 0);
		put_glyph(y, x + 1, wc, A_REVERSE, 0);
		return;
	}
	int k = colour_of(c);
	int pair = pair_for(k, k);
	put_glyph(y, x, wc, A_NORMAL, pair);
	put_glyph(y, x + 1, wc, A_NORMAL, pair);
}

void crt_put_mark(int y, int x, char glyph)
{
	wchar_t wc[2] = {(wchar_t)glyph, L'\0'};
	if (crt.tier == TIER_NONE) {
		put_glyph(y, x, wc, A_REVERSE | A_BOLD, 0);
		return;
	}
	int pair = pair_for(colour_of((struct rgb){0, 0, 0}), colour_of(palette_particle));
	put_glyph(y, x, wc, A_BOLD, pair);
}

void crt_vline(int y, int x, int n)
{
	if (crt.utf8)
		mvvline_set(y, x, WACS_VLINE, n);
	else
		mvvline(y, x, '|', n);
}

void crt_box(int y, int x, int h, int w, int rule)
{
	if (h < 2 || w < 2)
		return;
	if (!crt.utf8) {
		mvhline(y, x, '-', w);
		mvhline(y + h - 1, x, '-', w);
		if (rule > y && rule < y + h - 1)
			mvhline(rule, x, '-', w);
		mvvline(y, x, '|', h);
		mvvline(y, x + w - 1, '|', h);
		return;
	}
	mvhline_set(y, x, WACS_HLINE, w);
	mvhline_set(y + h - 1, x, WACS_HLINE, w);
	mvvline_set(y, x, WACS_VLINE, h);
	mvvline_set(y, x + w - 1, WACS_VLINE, h);
	if (rule > y && rule < y + h - 1) {
		mvhline_set(rule, x, WACS_HLINE, w);
		mvadd_wch(rule, x, WACS_LTEE);
		mvadd_wch(rule, x + w - 1, WACS_RTEE);
	}
	mvadd_wch(y, x, WACS_ULCORNER);
	mvadd_wch(y, x + w - 1, WACS_URCORNER);
	mvadd_wch(y + h - 1, x, WACS_LLCORNER);
	mvadd_wch(y + h - 1, x + w - 1, WACS_LRCORNER);
}

void crt_put_glyph(int y, int x, wchar_t wide, char ascii, struct rgb fg, struct rgb bg)
{
	wchar_t wc[2] = {crt.utf8 ? wide : (wchar_t)ascii, L'\0'};
	if (crt.tier == TIER_NONE) {
		put_glyph(y, x, wc, A_NORMAL, 0);
		return;
	}
	int f = colour_of(fg), b = colour_of(bg);
	/* With 8 or 16 colours a glyph's colour can fall on its background's
	 * (on the Linux console a bright background shows as its dim one):
	 * the light theme's cross-section drew its light ground and its axis
	 * white on the white sky, so the class saw no valley at all. */
	int shown_b = crt.dark_bg && b >= 8 && b < 16 ? b - 8 : b;
	if (f == shown_b && wc[0] != L' ' && (crt.tier == TIER_16 || crt.tier == TIER_8))
		f = palette_to_ansi_but(fg, crt.tier == TIER_16 ? 16 : 8, shown_b);
	put_glyph(y, x, wc, A_NORMAL, pair_for(f, b));
}
