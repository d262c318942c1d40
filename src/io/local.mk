noinst_LIBRARIES += src/io/libgullyio.a
src_io_libgullyio_a_SOURCES = \
	src/io/fileio.c src/io/fileio.h
# TEMPORARY (tui branch): snapshot.c is a stub until the snapshot helper's lands.
src_io_libgullyio_a_SOURCES += src/io/snapshot.c src/io/snapshot.h
