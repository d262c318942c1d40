# tui: the ncurses explorer. One file per screen; keys.c is THE key table.
noinst_LIBRARIES += src/tui/libgullytui.a
src_tui_libgullytui_a_SOURCES = \
	src/tui/tui.h src/tui/app.h src/tui/app.c src/tui/main_loop.c \
	src/tui/crt.c src/tui/crt.h src/tui/crt_term.c src/tui/crt_term.h \
	src/tui/keys.c src/tui/keys.h src/tui/actions.c src/tui/actions.h \
	src/tui/session.c src/tui/tracer.c \
	src/tui/map.c src/tui/panel.c src/tui/status.c src/tui/help.c src/tui/prompt.c \
	src/tui/signals.c \
	src/tui/complete.c src/tui/complete.h src/tui/session_preset.c src/tui/undo.c \
	src/tui/source.c src/tui/equations.c src/tui/safe.c src/tui/safe.h \
	src/tui/lineedit.c src/tui/lineedit.h src/tui/find.c src/tui/world_params.c \
	src/tui/worker.c src/tui/pace.c \
	src/tui/legend.c src/tui/profile.c src/tui/budget.c \
	src/tui/trace.c src/tui/trace_emitter.c src/tui/trace_hydro.c src/tui/class.c
src_tui_libgullytui_a_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS)
