# term: what a terminal shows, asked before (or without) a screen. Both
# front ends that draw on a terminal use it, the explorer (tui) and
# `gully render --ansi` (cli), which may not include each other's files.
noinst_LIBRARIES += src/term/libgullyterm.a
src_term_libgullyterm_a_SOURCES = \
	src/term/tier.c src/term/tier.h src/term/terminfo.c \
	src/term/cell.c src/term/cell.h
src_term_libgullyterm_a_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS)
