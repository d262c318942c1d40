bin_PROGRAMS += gully
gully_SOURCES = \
	src/cli/main.c src/cli/cli.h \
	src/cli/options.c src/cli/version.c src/cli/suggest.c src/cli/heightmap.c \
	src/cli/metrics.c \
	src/cli/progress.c \
	src/cli/signals.c src/cli/signals.h \
	src/cli/cmd_run.c src/cli/run_output.c src/cli/run_output.h \
	src/cli/cmd_params.c \
	src/cli/cmd_sweep.c src/cli/sweep.h src/cli/sweep_grid.c src/cli/sweep_run.c src/cli/sweep_child.c \
	src/cli/sweep_emit.c src/cli/sweep_collect.c src/cli/sweep_rows.c \
	src/cli/cmd_info.c \
	src/cli/cmd_render.c src/cli/render_ansi.c src/cli/render_ansi.h \
	src/cli/picture.c src/cli/picture.h \
	src/cli/cmd_presets.c src/cli/info_preset.c \
	src/cli/cmd_explore.c src/cli/cmd_complete.c
gully_LDADD = src/tui/libgullytui.a src/term/libgullyterm.a src/io/libgullyio.a src/view/libgullyview.a \
	src/core/libgullycore.a \
	$(NCURSES_LIBS) $(CYAML_LIBS) $(YAML_LIBS) $(PNG_LIBS) $(ZLIB_LIBS) -lm
gully_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS) $(CYAML_CFLAGS) $(PNG_CFLAGS) $(ZLIB_CFLAGS)
