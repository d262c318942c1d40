noinst_LIBRARIES += src/io/libgullyio.a
src_io_libgullyio_a_SOURCES = \
	src/io/fileio.c src/io/fileio.h \
	src/io/sysmem.c src/io/sysmem.h \
	src/io/roff.c src/io/roff.h \
	src/io/snapshot.c src/io/snapshot_layers.c src/io/snapshot_write.c \
	src/io/snapshot_runs.c src/io/snapshot.h src/io/snapshot_format.h src/io/snapshot_reader.h \
	src/io/simulation.c src/io/simulation.h \
	src/io/image.c src/io/image_import.c src/io/image.h \
	src/io/layer_import.c src/io/layer_import.h
# Presets: libcyaml loads them; libyaml (which libcyaml is built on) gives the
# first pass its exact line numbers.
src_io_libgullyio_a_SOURCES += \
	src/io/preset.c src/io/preset.h \
	src/io/preset_scan.c src/io/preset_scan.h \
	src/io/preset_find.c \
	src/io/versions.c src/io/versions.h
src_io_libgullyio_a_CFLAGS = $(AM_CFLAGS) $(PNG_CFLAGS) $(ZLIB_CFLAGS) $(CYAML_CFLAGS) $(YAML_CFLAGS)
