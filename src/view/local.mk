# view: maps -> RGB pixels (curses-free). Filled in by the explorer work.
noinst_LIBRARIES += src/view/libgullyview.a
src_view_libgullyview_a_SOURCES = \
	src/view/shade_basic.c src/view/shade_basic.h
