noinst_LIBRARIES += src/io/libgullyio.a
src_io_libgullyio_a_SOURCES = \
	src/io/fileio.c src/io/fileio.h
