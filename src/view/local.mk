# view: maps -> RGB pixels (curses-free).
noinst_LIBRARIES += src/view/libgullyview.a
src_view_libgullyview_a_SOURCES = \
	src/view/palette.c src/view/palette.h \
	src/view/shade.c src/view/shade.h \
	src/view/shade_sample.c src/view/shade_sample.h \
	src/view/datamap.c src/view/datamap.h
