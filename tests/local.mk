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

# Hydrology: the priority flood on hand-built basins, and the process.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_flood tests/test_hydrology
TESTS += tests/test_flood tests/test_hydrology
tests_test_flood_SOURCES = tests/test_flood.c tests/testutil.h
tests_test_flood_CFLAGS = $(TEST_CFLAGS)
tests_test_flood_LDADD = $(TEST_CORE_LIBS)
tests_test_hydrology_SOURCES = tests/test_hydrology.c tests/testutil.h
tests_test_hydrology_CFLAGS = $(TEST_CFLAGS)
tests_test_hydrology_LDADD = $(TEST_CORE_LIBS)
endif
