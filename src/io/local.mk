noinst_LIBRARIES += src/io/libgullyio.a
src_io_libgullyio_a_SOURCES = \
	src/io/fileio.c src/io/fileio.h
src_io_libgullyio_a_SOURCES += src/io/layer_import.c src/io/layer_import.h
