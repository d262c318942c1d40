noinst_LIBRARIES += src/io/libgullyio.a
src_io_libgullyio_a_SOURCES = \
	src/io/fileio.c src/io/fileio.h \
	src/io/bytes.h \
	src/io/snapshot.c src/io/snapshot.h \
	src/io/image.c src/io/image.h \
	src/io/layer_import.c src/io/layer_import.h
src_io_libgullyio_a_CFLAGS = $(AM_CFLAGS) $(PNG_CFLAGS) $(ZLIB_CFLAGS)
