if HAVE_CMOCKA
TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
TEST_CORE_LIBS = src/core/libgullycore.a $(CMOCKA_LIBS) -lm

check_PROGRAMS += tests/test_params tests/test_particles
TESTS += tests/test_params tests/test_particles

tests_test_params_SOURCES = tests/test_params.c tests/testutil.h
tests_test_params_CFLAGS = $(TEST_CFLAGS)
tests_test_params_LDADD = $(TEST_CORE_LIBS)

tests_test_particles_SOURCES = tests/test_particles.c
tests_test_particles_CFLAGS = $(TEST_CFLAGS)
tests_test_particles_LDADD = $(TEST_CORE_LIBS)
endif

# Presets (io): the loader, writer and search path; the shipped presets.
if HAVE_CMOCKA
TEST_IO_LIBS = src/io/libgullyio.a src/core/libgullycore.a $(CYAML_LIBS) $(YAML_LIBS) \
	$(CMOCKA_LIBS) -lm
check_PROGRAMS += tests/test_preset tests/test_preset_shipped
TESTS += tests/test_preset tests/test_preset_shipped
tests_test_preset_SOURCES = tests/test_preset.c tests/testutil.h
tests_test_preset_CFLAGS = $(TEST_CFLAGS)
tests_test_preset_LDADD = $(TEST_IO_LIBS)
tests_test_preset_shipped_SOURCES = tests/test_preset_shipped.c tests/testutil.h
tests_test_preset_shipped_CFLAGS = $(TEST_CFLAGS) -DGULLY_SRCDIR='"$(abs_top_srcdir)"'
tests_test_preset_shipped_LDADD = $(TEST_IO_LIBS)
endif

# Fuzz targets' seed corpora, replayed through the same entry points libFuzzer
# calls (tests/fuzz/build-fuzzers.sh builds the real fuzzers with clang).
check_PROGRAMS += tests/fuzz/replay_preset
TESTS += tests/fuzz/replay_preset
tests_fuzz_replay_preset_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_preset.c
tests_fuzz_replay_preset_CFLAGS = $(AM_CFLAGS) \
	-DFUZZ_CORPUS='"$(abs_top_srcdir)/tests/fuzz/corpus/preset"'
tests_fuzz_replay_preset_LDADD = src/io/libgullyio.a src/core/libgullycore.a \
	$(CYAML_LIBS) $(YAML_LIBS) -lm
# At merge, once src/io/snapshot.c is in: replay the snapshot corpus too.
#check_PROGRAMS += tests/fuzz/replay_snapshot
#TESTS += tests/fuzz/replay_snapshot
#tests_fuzz_replay_snapshot_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_snapshot.c
#tests_fuzz_replay_snapshot_CFLAGS = $(AM_CFLAGS) \
#	-DFUZZ_CORPUS='"$(abs_top_srcdir)/tests/fuzz/corpus/snapshot"'
#tests_fuzz_replay_snapshot_LDADD = src/io/libgullyio.a src/core/libgullycore.a \
#	$(CYAML_LIBS) $(YAML_LIBS) $(PNG_LIBS) $(ZLIB_LIBS) -lm
EXTRA_DIST += tests/fuzz/corpus tests/fuzz/build-fuzzers.sh tests/fuzz/README.md \
	tests/fuzz/fuzz_snapshot.c

# The preset options end to end through the gully binary.
TESTS += tests/cli_preset.sh
EXTRA_DIST += tests/cli_preset.sh
