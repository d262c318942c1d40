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
