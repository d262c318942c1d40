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

# The explorer: shading (curses-free) and the key table.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_shade
TESTS += tests/test_shade
tests_test_shade_SOURCES = tests/test_shade.c
tests_test_shade_CFLAGS = $(TEST_CFLAGS)
tests_test_shade_LDADD = src/view/libgullyview.a $(TEST_CORE_LIBS)
endif
if HAVE_CMOCKA
check_PROGRAMS += tests/test_keys
TESTS += tests/test_keys
tests_test_keys_SOURCES = tests/test_keys.c
tests_test_keys_CFLAGS = $(TEST_CFLAGS) $(NCURSES_CFLAGS)
tests_test_keys_LDADD = src/tui/libgullytui.a $(CMOCKA_LIBS)
check_PROGRAMS += tests/test_session
TESTS += tests/test_session
tests_test_session_SOURCES = tests/test_session.c
tests_test_session_CFLAGS = $(TEST_CFLAGS) $(NCURSES_CFLAGS)
tests_test_session_LDADD = src/tui/libgullytui.a src/view/libgullyview.a src/io/libgullyio.a \
	$(TEST_CORE_LIBS)
endif

# The explorer end to end, in tmux (they skip with 77 when tmux is missing).
TUI_TESTS = tests/tui/start.sh tests/tui/interact.sh tests/tui/resize.sh \
	tests/tui/ascii_nocolor.sh tests/tui/signals.sh
TESTS += $(TUI_TESTS)
EXTRA_DIST += $(TUI_TESTS) tests/tui/lib.sh
