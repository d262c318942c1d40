if HAVE_CMOCKA
TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
TEST_CORE_LIBS = src/core/libgullycore.a $(CMOCKA_LIBS) -lm
TEST_IO_LIBS = src/io/libgullyio.a src/view/libgullyview.a src/core/libgullycore.a \
	$(CYAML_LIBS) $(YAML_LIBS) $(PNG_LIBS) $(ZLIB_LIBS) $(CMOCKA_LIBS) -lm

check_PROGRAMS += tests/test_params tests/test_particles
TESTS += tests/test_params tests/test_particles

tests_test_params_SOURCES = tests/test_params.c tests/testutil.h
tests_test_params_CFLAGS = $(TEST_CFLAGS)
tests_test_params_LDADD = $(TEST_CORE_LIBS)

tests_test_particles_SOURCES = tests/test_particles.c
tests_test_particles_CFLAGS = $(TEST_CFLAGS)
tests_test_particles_LDADD = $(TEST_CORE_LIBS)

check_PROGRAMS += tests/test_emitter tests/test_hardness tests/test_layer_import tests/test_rain
TESTS += tests/test_emitter tests/test_hardness tests/test_layer_import tests/test_rain
check_PROGRAMS += tests/test_terrain
TESTS += tests/test_terrain
tests_test_terrain_SOURCES = tests/test_terrain.c tests/testutil.h
tests_test_terrain_CFLAGS = $(TEST_CFLAGS)
tests_test_terrain_LDADD = $(TEST_CORE_LIBS)
tests_test_rain_SOURCES = tests/test_rain.c tests/testutil.h
tests_test_rain_CFLAGS = $(TEST_CFLAGS)
tests_test_rain_LDADD = $(TEST_CORE_LIBS)
tests_test_emitter_SOURCES = tests/test_emitter.c tests/testutil.h
tests_test_emitter_CFLAGS = $(TEST_CFLAGS)
tests_test_emitter_LDADD = $(TEST_CORE_LIBS)
tests_test_hardness_SOURCES = tests/test_hardness.c tests/testutil.h
tests_test_hardness_CFLAGS = $(TEST_CFLAGS)
tests_test_hardness_LDADD = $(TEST_CORE_LIBS)
tests_test_layer_import_SOURCES = tests/test_layer_import.c tests/testutil.h
tests_test_layer_import_CFLAGS = $(TEST_CFLAGS)
tests_test_layer_import_LDADD = $(TEST_IO_LIBS)
endif

# Snapshots and image exports (src/io): unit tests, then the command line.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_snapshot
TESTS += tests/test_snapshot
tests_test_snapshot_SOURCES = tests/test_snapshot.c tests/snapshot_fixture.h
tests_test_snapshot_CFLAGS = $(TEST_CFLAGS) $(ZLIB_CFLAGS)
tests_test_snapshot_LDADD = $(TEST_IO_LIBS)
check_PROGRAMS += tests/test_snapshot_damage
TESTS += tests/test_snapshot_damage
tests_test_snapshot_damage_SOURCES = tests/test_snapshot_damage.c tests/snapshot_fixture.h
tests_test_snapshot_damage_CFLAGS = $(TEST_CFLAGS) $(ZLIB_CFLAGS)
tests_test_snapshot_damage_LDADD = $(TEST_IO_LIBS)
# The session module both front ends use: resume, switch, save.
check_PROGRAMS += tests/test_simulation
TESTS += tests/test_simulation
tests_test_simulation_SOURCES = tests/test_simulation.c
tests_test_simulation_CFLAGS = $(TEST_CFLAGS)
tests_test_simulation_LDADD = $(TEST_IO_LIBS)
endif
if HAVE_CMOCKA
check_PROGRAMS += tests/test_image
TESTS += tests/test_image
tests_test_image_SOURCES = tests/test_image.c src/cli/picture.c src/cli/picture.h
tests_test_image_CFLAGS = $(TEST_CFLAGS) $(PNG_CFLAGS)
tests_test_image_LDADD = $(TEST_IO_LIBS)
endif

# gully run's progress bar, fitted to the terminal's width.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_progress
TESTS += tests/test_progress
tests_test_progress_SOURCES = tests/test_progress.c src/cli/progress.c tests/testutil.h
tests_test_progress_CFLAGS = $(TEST_CFLAGS)
tests_test_progress_LDADD = $(CMOCKA_LIBS) -lm
endif

# The command line, end to end, from the build tree (VPATH builds too).
TESTS += tests/cli.test
EXTRA_DIST += tests/cli.test
# README's and gully(1)'s hand-written column lists and key table, held to the code.
TESTS += tests/docs.test
EXTRA_DIST += tests/docs.test
# Every example in README.md and gully(1) runs as written.
TESTS += tests/docs_examples.sh
EXTRA_DIST += tests/docs_examples.sh
TEST_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = GULLY='$(abs_top_builddir)/gully$(EXEEXT)'; export GULLY; \
	GULLY_CC='$(CC)'; GULLY_CPPFLAGS='$(DEFS) -I$(top_builddir) -I$(top_srcdir)/src -D_POSIX_C_SOURCE=200809L $(CPPFLAGS) $(ZLIB_CFLAGS)'; \
	export GULLY_CC GULLY_CPPFLAGS;
# The snapshot code compiles on a big-endian host too.
TESTS += tests/byte_order.test
EXTRA_DIST += tests/byte_order.test
# Hydrology: the priority flood on hand-built basins, and the process.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_flood tests/test_hydrology tests/test_hydrology_2020
TESTS += tests/test_flood tests/test_hydrology tests/test_hydrology_2020
tests_test_flood_SOURCES = tests/test_flood.c tests/flood_fixture.h tests/testutil.h
tests_test_flood_CFLAGS = $(TEST_CFLAGS)
tests_test_flood_LDADD = $(TEST_CORE_LIBS)
check_PROGRAMS += tests/test_flood_halves tests/test_flood_cache tests/test_flood_try tests/test_flood_join
TESTS += tests/test_flood_halves tests/test_flood_cache tests/test_flood_try tests/test_flood_join
tests_test_flood_halves_SOURCES = tests/test_flood_halves.c tests/flood_fixture.h tests/testutil.h
tests_test_flood_halves_CFLAGS = $(TEST_CFLAGS)
tests_test_flood_halves_LDADD = $(TEST_CORE_LIBS)
tests_test_flood_try_SOURCES = tests/test_flood_try.c tests/flood_fixture.h tests/testutil.h
tests_test_flood_try_CFLAGS = $(TEST_CFLAGS)
tests_test_flood_try_LDADD = $(TEST_CORE_LIBS)
tests_test_flood_join_SOURCES = tests/test_flood_join.c tests/flood_fixture.h tests/testutil.h
tests_test_flood_join_CFLAGS = $(TEST_CFLAGS)
tests_test_flood_join_LDADD = $(TEST_CORE_LIBS)
tests_test_flood_cache_SOURCES = tests/test_flood_cache.c tests/flood_fixture.h tests/testutil.h
tests_test_flood_cache_CFLAGS = $(TEST_CFLAGS)
tests_test_flood_cache_LDADD = $(TEST_CORE_LIBS)
check_PROGRAMS += tests/test_flood_map
TESTS += tests/test_flood_map
tests_test_flood_map_SOURCES = tests/test_flood_map.c tests/testutil.h
tests_test_flood_map_CFLAGS = $(TEST_CFLAGS)
tests_test_flood_map_LDADD = $(TEST_CORE_LIBS)
check_PROGRAMS += tests/test_hydrology_fill
TESTS += tests/test_hydrology_fill
tests_test_hydrology_fill_SOURCES = tests/test_hydrology_fill.c tests/testutil.h tests/worldutil.h
tests_test_hydrology_fill_CFLAGS = $(TEST_CFLAGS)
tests_test_hydrology_fill_LDADD = $(TEST_CORE_LIBS)
check_PROGRAMS += tests/test_hydrology_lanes
TESTS += tests/test_hydrology_lanes
tests_test_hydrology_lanes_SOURCES = tests/test_hydrology_lanes.c tests/testutil.h tests/worldutil.h
tests_test_hydrology_lanes_CFLAGS = $(TEST_CFLAGS)
tests_test_hydrology_lanes_LDADD = $(TEST_CORE_LIBS)

check_PROGRAMS += tests/test_hydrology_threads
TESTS += tests/test_hydrology_threads
tests_test_hydrology_threads_SOURCES = tests/test_hydrology_threads.c tests/testutil.h tests/worldutil.h
tests_test_hydrology_threads_CFLAGS = $(TEST_CFLAGS)
tests_test_hydrology_threads_LDADD = $(TEST_CORE_LIBS)
tests_test_hydrology_SOURCES = tests/test_hydrology.c tests/testutil.h tests/worldutil.h
tests_test_hydrology_CFLAGS = $(TEST_CFLAGS)
tests_test_hydrology_LDADD = $(TEST_CORE_LIBS)
tests_test_hydrology_2020_SOURCES = tests/test_hydrology_2020.c tests/testutil.h
tests_test_hydrology_2020_CFLAGS = $(TEST_CFLAGS)
tests_test_hydrology_2020_LDADD = $(TEST_CORE_LIBS)
endif

# Presets (io): the loader, writer and search path; the shipped presets.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_preset tests/test_preset_shipped
TESTS += tests/test_preset tests/test_preset_shipped
tests_test_preset_SOURCES = tests/test_preset.c tests/testutil.h
tests_test_preset_CFLAGS = $(TEST_CFLAGS) -DGULLY_SRCDIR='"$(abs_top_srcdir)"'
tests_test_preset_LDADD = $(TEST_IO_LIBS)
tests_test_preset_shipped_SOURCES = tests/test_preset_shipped.c tests/testutil.h
tests_test_preset_shipped_CFLAGS = $(TEST_CFLAGS) -DGULLY_SRCDIR='"$(abs_top_srcdir)"'
tests_test_preset_shipped_LDADD = $(TEST_IO_LIBS)
# Fidelity against the seed's own algorithm (bench/seedref.c) on a crop of
# the seed's terrain (tests/data/README).
check_PROGRAMS += tests/test_fidelity
TESTS += tests/test_fidelity
tests_test_fidelity_SOURCES = tests/test_fidelity.c tests/testutil.h \
	bench/seedref.c bench/seedref.h bench/fidcompare.c bench/fidcompare.h
tests_test_fidelity_CFLAGS = $(TEST_CFLAGS) -DGULLY_SRCDIR='"$(abs_top_srcdir)"'
tests_test_fidelity_LDADD = $(TEST_IO_LIBS)
endif
EXTRA_DIST += tests/data/README tests/data/hydrology2020-seed12345-before-crop64.f32

# Fuzz targets' seed corpora, replayed through the same entry points libFuzzer
# calls (tests/fuzz/build-fuzzers.sh builds the real fuzzers with clang).
check_PROGRAMS += tests/fuzz/replay_preset
TESTS += tests/fuzz/replay_preset
tests_fuzz_replay_preset_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_preset.c
tests_fuzz_replay_preset_CFLAGS = $(AM_CFLAGS) \
	-DFUZZ_CORPUS='"$(abs_top_srcdir)/tests/fuzz/corpus/preset"'
FUZZ_LIBS = src/io/libgullyio.a src/view/libgullyview.a src/core/libgullycore.a \
	$(CYAML_LIBS) $(YAML_LIBS) $(PNG_LIBS) $(ZLIB_LIBS) -lm
tests_fuzz_replay_preset_LDADD = $(FUZZ_LIBS)
check_PROGRAMS += tests/fuzz/replay_snapshot
TESTS += tests/fuzz/replay_snapshot
tests_fuzz_replay_snapshot_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_snapshot.c
tests_fuzz_replay_snapshot_CFLAGS = $(AM_CFLAGS) \
	-DFUZZ_CORPUS='"$(abs_top_srcdir)/tests/fuzz/corpus/snapshot"'
tests_fuzz_replay_snapshot_LDADD = $(FUZZ_LIBS)
# Snapshots with their CRCs fixed, through to a stepped process; height maps
# as imported and resampled into a hardness layer.
check_PROGRAMS += tests/fuzz/replay_resume tests/fuzz/replay_heightmap
TESTS += tests/fuzz/replay_resume tests/fuzz/replay_heightmap
tests_fuzz_replay_resume_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_resume.c \
	tests/fuzz/snapfix.c tests/fuzz/snapfix.h
tests_fuzz_replay_resume_CFLAGS = $(AM_CFLAGS) $(ZLIB_CFLAGS) \
	-DFUZZ_CORPUS='"$(abs_top_srcdir)/tests/fuzz/corpus/resume"'
tests_fuzz_replay_resume_LDADD = $(FUZZ_LIBS)
tests_fuzz_replay_heightmap_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_heightmap.c
tests_fuzz_replay_heightmap_CFLAGS = $(AM_CFLAGS) $(PNG_CFLAGS) \
	-DFUZZ_CORPUS='"$(abs_top_srcdir)/tests/fuzz/corpus/heightmap"'
tests_fuzz_replay_heightmap_LDADD = $(FUZZ_LIBS)
check_PROGRAMS += tests/fuzz/snapfix
tests_fuzz_snapfix_SOURCES = tests/fuzz/snapfix_tool.c tests/fuzz/snapfix.c tests/fuzz/snapfix.h
tests_fuzz_snapfix_CFLAGS = $(AM_CFLAGS) $(ZLIB_CFLAGS)
tests_fuzz_snapfix_LDADD = $(FUZZ_LIBS)
EXTRA_DIST += tests/fuzz/corpus tests/fuzz/build-fuzzers.sh tests/fuzz/README.md

# Signals to run and sweep: what is saved, removed and stopped (issue 14);
# hostile files, paths and values at the command line (issue 14).
TESTS += tests/cli_signals.sh tests/cli_harden.sh
EXTRA_DIST += tests/cli_signals.sh tests/cli_harden.sh
# The preset options end to end through the gully binary.
TESTS += tests/cli_preset.sh
EXTRA_DIST += tests/cli_preset.sh
# The explorer: shading (curses-free) and the key table.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_shade
TESTS += tests/test_shade
tests_test_shade_SOURCES = tests/test_shade.c
tests_test_shade_CFLAGS = $(TEST_CFLAGS)
tests_test_shade_LDADD = src/view/libgullyview.a $(TEST_CORE_LIBS)
check_PROGRAMS += tests/test_palette
TESTS += tests/test_palette
tests_test_palette_SOURCES = tests/test_palette.c
tests_test_palette_CFLAGS = $(TEST_CFLAGS)
tests_test_palette_LDADD = src/view/libgullyview.a $(TEST_CORE_LIBS)
endif
if HAVE_CMOCKA
check_PROGRAMS += tests/test_keys
TESTS += tests/test_keys
tests_test_keys_SOURCES = tests/test_keys.c
tests_test_keys_CFLAGS = $(TEST_CFLAGS) $(NCURSES_CFLAGS)
tests_test_keys_LDADD = src/tui/libgullytui.a src/term/libgullyterm.a $(TEST_IO_LIBS) $(NCURSES_LIBS)
check_PROGRAMS += tests/test_session
TESTS += tests/test_session
tests_test_session_SOURCES = tests/test_session.c tests/apputil.h
tests_test_session_CFLAGS = $(TEST_CFLAGS) $(NCURSES_CFLAGS)
tests_test_session_LDADD = src/tui/libgullytui.a src/term/libgullyterm.a $(TEST_IO_LIBS) $(NCURSES_LIBS)
endif

# The explorer end to end, in tmux (they skip with 77 when tmux is missing).
TUI_TESTS = tests/tui/start.sh tests/tui/interact.sh tests/tui/resize.sh \
	tests/tui/ascii_nocolor.sh tests/tui/signals.sh
TESTS += $(TUI_TESTS)
EXTRA_DIST += $(TUI_TESTS) tests/tui/lib.sh
# The explorer's aids (tui2): completion, presets, unsaved mark, undo, emitter.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_explorer
TESTS += tests/test_explorer
tests_test_explorer_SOURCES = tests/test_explorer.c tests/apputil.h
tests_test_explorer_CFLAGS = $(TEST_CFLAGS) $(NCURSES_CFLAGS)
tests_test_explorer_LDADD = src/tui/libgullytui.a src/term/libgullyterm.a $(TEST_IO_LIBS) $(NCURSES_LIBS)
# Nothing lost: undo/redo, the prompt's editor, names, the autosave.
check_PROGRAMS += tests/test_safe
TESTS += tests/test_safe
tests_test_safe_SOURCES = tests/test_safe.c tests/apputil.h
tests_test_safe_CFLAGS = $(TEST_CFLAGS) $(NCURSES_CFLAGS)
tests_test_safe_LDADD = src/tui/libgullytui.a src/term/libgullyterm.a $(TEST_IO_LIBS) $(NCURSES_LIBS)
# The free memory undo keeps to: memory cgroup limits, from fake hierarchies.
check_PROGRAMS += tests/test_sysmem
TESTS += tests/test_sysmem
tests_test_sysmem_SOURCES = tests/test_sysmem.c
tests_test_sysmem_CFLAGS = $(TEST_CFLAGS)
tests_test_sysmem_LDADD = $(TEST_IO_LIBS)
endif
# The single-droplet trace: the process's own step, bit for bit.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_trace
TESTS += tests/test_trace
tests_test_trace_SOURCES = tests/test_trace.c tests/testutil.h tests/worldutil.h
tests_test_trace_CFLAGS = $(TEST_CFLAGS)
tests_test_trace_LDADD = $(TEST_CORE_LIBS)
check_PROGRAMS += tests/test_hydrology_trace
TESTS += tests/test_hydrology_trace
tests_test_hydrology_trace_SOURCES = tests/test_hydrology_trace.c tests/testutil.h \
	tests/worldutil.h
tests_test_hydrology_trace_CFLAGS = $(TEST_CFLAGS)
tests_test_hydrology_trace_LDADD = $(TEST_CORE_LIBS)
# The stream map's lazy update is the whole-map pass, bit for bit.
check_PROGRAMS += tests/test_hydrology_stream
TESTS += tests/test_hydrology_stream
tests_test_hydrology_stream_SOURCES = tests/test_hydrology_stream.c tests/testutil.h \
	tests/worldutil.h
tests_test_hydrology_stream_CFLAGS = $(TEST_CFLAGS)
tests_test_hydrology_stream_LDADD = $(TEST_CORE_LIBS)
# Trees act on their events: the seed's chances, its stream rule exactly.
check_PROGRAMS += tests/test_hydrology_trees
TESTS += tests/test_hydrology_trees
tests_test_hydrology_trees_SOURCES = tests/test_hydrology_trees.c tests/testutil.h
tests_test_hydrology_trees_CFLAGS = $(TEST_CFLAGS)
tests_test_hydrology_trees_LDADD = $(TEST_CORE_LIBS)
# The cell-to-tree hash table answers as a plain array would.
check_PROGRAMS += tests/test_tree_map
TESTS += tests/test_tree_map
tests_test_tree_map_SOURCES = tests/test_tree_map.c tests/testutil.h
tests_test_tree_map_CFLAGS = $(TEST_CFLAGS)
tests_test_tree_map_LDADD = $(TEST_CORE_LIBS)
endif
# The explorer's aids for a class without a screen (equations, numbers,
# cross-section samples, budget, the one-droplet trace).
if HAVE_CMOCKA
check_PROGRAMS += tests/test_class
TESTS += tests/test_class
tests_test_class_SOURCES = tests/test_class.c tests/testutil.h tests/apputil.h \
	tests/worldutil.h
tests_test_class_CFLAGS = $(TEST_CFLAGS) $(NCURSES_CFLAGS)
tests_test_class_LDADD = src/tui/libgullytui.a src/term/libgullyterm.a $(TEST_IO_LIBS) $(NCURSES_LIBS)
endif
# The explorer's presets, emitter (keys and mouse) and class aids, in tmux.
TUI2_TESTS = tests/tui/presets.sh tests/tui/emitter.sh tests/tui/aids.sh \
	tests/tui/safe.sh tests/tui/terminals.sh tests/tui/slowlink.sh tests/tui/hangup.sh \
	tests/tui/class.sh tests/tui/trace.sh tests/tui/sph.sh tests/tui/small.sh \
	tests/tui/stalled.sh
TESTS += $(TUI2_TESTS)
EXTRA_DIST += $(TUI2_TESTS)
# The explorer opening a height map (issue 13), in tmux.
TESTS += tests/tui/heightmap.sh tests/tui/hardness.sh
EXTRA_DIST += tests/tui/heightmap.sh tests/tui/hardness.sh
# The explorer on a classroom projector: small and big terminals, themes.
TESTS += tests/tui/projector.sh tests/tui/lesson.sh tests/tui/slowmotion.sh
EXTRA_DIST += tests/tui/projector.sh tests/tui/lesson.sh tests/tui/slowmotion.sh
# Process 4 at 80x24 as a new user meets it: step message, legend, help.
TESTS += tests/tui/sph_screen.sh
EXTRA_DIST += tests/tui/sph_screen.sh
# Pictures in the explorer's colours with overlays (render, run -o).
TESTS += tests/cli_render.sh tests/cli_run.sh tests/sweep_remote.sh tests/cli_maps.sh
EXTRA_DIST += tests/cli_render.sh tests/cli_run.sh tests/sweep_remote.sh tests/cli_maps.sh \
	tests/clilib.sh \
	tests/slurm-single-node.sh
# The hardness map for the droplets from the command line (particles.hardness).
TESTS += tests/cli_hardness.sh
EXTRA_DIST += tests/cli_hardness.sh
# Hydrology's fast descend against the plain version, bit for bit.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_descend
TESTS += tests/test_descend
tests_test_descend_SOURCES = tests/test_descend.c tests/testutil.h
tests_test_descend_CFLAGS = $(TEST_CFLAGS)
tests_test_descend_LDADD = $(TEST_CORE_LIBS)
endif

# Droplets in lockstep (particles.lanes > 1).
if HAVE_CMOCKA
check_PROGRAMS += tests/test_particles_halves
TESTS += tests/test_particles_halves
tests_test_particles_halves_SOURCES = tests/test_particles_halves.c tests/testutil.h tests/worldutil.h
tests_test_particles_halves_CFLAGS = $(TEST_CFLAGS)
tests_test_particles_halves_LDADD = $(TEST_CORE_LIBS)

check_PROGRAMS += tests/test_lanes
TESTS += tests/test_lanes
tests_test_lanes_SOURCES = tests/test_lanes.c tests/testutil.h tests/lanesutil.h tests/lanes_fixture.h
tests_test_lanes_CFLAGS = $(TEST_CFLAGS)
tests_test_lanes_LDADD = $(TEST_CORE_LIBS)
check_PROGRAMS += tests/test_lanes_exact
TESTS += tests/test_lanes_exact
tests_test_lanes_exact_SOURCES = tests/test_lanes_exact.c tests/testutil.h tests/lanesutil.h \
	tests/lanes_fixture.h
tests_test_lanes_exact_CFLAGS = $(TEST_CFLAGS)
tests_test_lanes_exact_LDADD = $(TEST_CORE_LIBS)
endif

# Particles over the hardness map (particles.hardness).
if HAVE_CMOCKA
check_PROGRAMS += tests/test_particles_hardness
TESTS += tests/test_particles_hardness
tests_test_particles_hardness_SOURCES = tests/test_particles_hardness.c tests/testutil.h \
	tests/lanesutil.h
tests_test_particles_hardness_CFLAGS = $(TEST_CFLAGS)
tests_test_particles_hardness_LDADD = $(TEST_IO_LIBS)
endif

# Golden results: every process's output bits, pinned (test_golden.c says how to re-pin).
if HAVE_CMOCKA
check_PROGRAMS += tests/test_golden
TESTS += tests/test_golden
tests_test_golden_SOURCES = tests/test_golden.c tests/testutil.h
tests_test_golden_CFLAGS = $(TEST_CFLAGS)
tests_test_golden_LDADD = $(TEST_CORE_LIBS)
endif

# The core's folders include only base/ and themselves, and print nothing.
TESTS += tests/core_layout.test
EXTRA_DIST += tests/core_layout.test
# The front ends' layers: what the explorer and the commands share lives
# below both (term, view, io), and cli sees only tui/tui.h of the explorer.
TESTS += tests/front_layout.test
EXTRA_DIST += tests/front_layout.test

# The thread pool the processes' parallel phases share.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_workers tests/test_bigmem
TESTS += tests/test_workers tests/test_bigmem
tests_test_bigmem_SOURCES = tests/test_bigmem.c tests/testutil.h
tests_test_bigmem_CFLAGS = $(TEST_CFLAGS)
tests_test_bigmem_LDADD = $(TEST_CORE_LIBS)
tests_test_workers_SOURCES = tests/test_workers.c tests/testutil.h
tests_test_workers_CFLAGS = $(TEST_CFLAGS)
tests_test_workers_LDADD = $(TEST_CORE_LIBS)
endif

# Process 4, sph: the fluid, then the soil and erosion (shared/SPH.md 4).
if HAVE_CMOCKA
check_PROGRAMS += tests/test_sph_fluid
TESTS += tests/test_sph_fluid
tests_test_sph_fluid_SOURCES = tests/test_sph_fluid.c tests/sph_fixture.h tests/testutil.h
tests_test_sph_fluid_CFLAGS = $(TEST_CFLAGS)
tests_test_sph_fluid_LDADD = $(TEST_CORE_LIBS)
endif
if HAVE_CMOCKA
check_PROGRAMS += tests/test_sph_soil
TESTS += tests/test_sph_soil
tests_test_sph_soil_SOURCES = tests/test_sph_soil.c tests/sph_channel.h tests/sph_fixture.h tests/testutil.h
tests_test_sph_soil_CFLAGS = $(TEST_CFLAGS)
tests_test_sph_soil_LDADD = $(TEST_CORE_LIBS)

check_PROGRAMS += tests/test_sph_state
TESTS += tests/test_sph_state
tests_test_sph_state_SOURCES = tests/test_sph_state.c tests/sph_fixture.h tests/testutil.h
tests_test_sph_state_CFLAGS = $(TEST_CFLAGS)
tests_test_sph_state_LDADD = $(TEST_CORE_LIBS)
endif
# A sweep-scripting user's pass over run, sweep, render and the rest.
TESTS += tests/cli_user.sh
EXTRA_DIST += tests/cli_user.sh
# Tab completion: gully complete from the program's own tables, and the
# bash script that reads it (completion/gully.bash).
TESTS += tests/complete.sh
EXTRA_DIST += tests/complete.sh

# make installcheck (run by make distcheck): the installed copy on its own.
EXTRA_DIST += tests/installcheck.sh
installcheck-local:
	bindir='$(bindir)' pkgdatadir='$(pkgdatadir)' mandir='$(mandir)' \
	bashcompletiondir='$(bashcompletiondir)' srcdir='$(srcdir)' \
	sh '$(srcdir)/tests/installcheck.sh'
