# Emitter stream throughput (bench/EMITTER.md): particles/s and ns per step.
noinst_PROGRAMS += bench/bench_emitter
bench_bench_emitter_SOURCES = bench/bench_emitter.c
bench_bench_emitter_LDADD = src/core/libgullycore.a -lm
EXTRA_DIST += bench/EMITTER.md bench/benchutil.h

# Hydrology benchmarks (bench/HYDROLOGY.md): built with everything so they
# cannot rot, never run as tests.
noinst_PROGRAMS += bench/bench_hydrology
bench_bench_hydrology_SOURCES = bench/bench_hydrology.c bench/descendutil.h
bench_bench_hydrology_LDADD = src/core/libgullycore.a -lm
# The descent with its droplets in SIMD lanes, a prototype's step (HYDROLOGY.md).
noinst_PROGRAMS += bench/hydro_lanes
bench_hydro_lanes_SOURCES = bench/hydro_lanes.c bench/descendutil.h
bench_hydro_lanes_LDADD = src/core/libgullycore.a -lm
EXTRA_DIST += bench/HYDROLOGY.md
# The whole-map flood against richdem's, same machine, same map
# (HYDROLOGY.md): scripts only; the C++ driver is written and built by
# richdem-fill.sh in its own work directory, never by this build.
EXTRA_DIST += bench/richdem-fill.sh bench/flood-vs-richdem.sh
# Benchmarks: built and run by `make bench`, never by `make check` (timings are
# noise on a shared machine; tests must not depend on them).
EXTRA_PROGRAMS = bench/bench_particles
bench_bench_particles_SOURCES = bench/bench_particles.c bench/seedref.c bench/seedref.h
bench_bench_particles_LDADD = src/core/libgullycore.a -lm
EXTRA_DIST += bench/README.md bench/HISTORY.md bench/PARTICLES.md bench/layout_walk.c bench/tui-key-latency-sph.sh \
	bench/sph-threads-vs.sh
CLEANFILES += $(EXTRA_PROGRAMS)

BENCH_ARGS =
.PHONY: bench
bench: bench/bench_particles$(EXEEXT)
	bench/bench_particles$(EXEEXT) $(BENCH_ARGS)
# The explorer's bandwidth over a pseudo-terminal (bench/TUI.md).
noinst_PROGRAMS += bench/ptybytes
bench_ptybytes_SOURCES = bench/ptybytes.c
bench_ptybytes_CPPFLAGS = $(AM_CPPFLAGS) -U_POSIX_C_SOURCE
EXTRA_DIST += bench/tui-bandwidth.sh bench/tui-run-rate.sh bench/TUI.md bench/tui-256-vs-truecolor.png
# The explorer's undo on maps too big to copy (bench/TUI.md).
noinst_PROGRAMS += bench/bench_undo
bench_bench_undo_SOURCES = bench/bench_undo.c
bench_bench_undo_LDADD = src/tui/libgullytui.a src/term/libgullyterm.a src/io/libgullyio.a \
	src/view/libgullyview.a src/core/libgullycore.a \
	$(NCURSES_LIBS) $(CYAML_LIBS) $(YAML_LIBS) $(PNG_LIBS) $(ZLIB_LIBS) -lm
bench_bench_undo_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS)
# SPH (process 4) steps per second by particle count and threads (README.md, "SPH").
noinst_PROGRAMS += bench/bench_sph
bench_bench_sph_SOURCES = bench/bench_sph.c
bench_bench_sph_LDADD = src/core/libgullycore.a -lm
# Touches the machine's free memory once before big-map benchmarks
# (README.md, "A fresh machine's memory").
noinst_PROGRAMS += bench/memwarm
bench_memwarm_SOURCES = bench/memwarm.c
# A helper thread's wake-up and a short phase's speedup (bench/SPH.md).
noinst_PROGRAMS += bench/bench_workers
bench_bench_workers_SOURCES = bench/bench_workers.c
bench_bench_workers_LDADD = src/core/libgullycore.a
# The yardstick: the seed's own algorithms (seedref.h), written again from
# the articles, and fidelity measures (fidcompare.h): bench/FIDELITY.md.
noinst_PROGRAMS += bench/bench_fidelity
bench_bench_fidelity_SOURCES = bench/bench_fidelity.c bench/seedref.c bench/seedref.h \
	bench/fidcompare.c bench/fidcompare.h
bench_bench_fidelity_CFLAGS = $(AM_CFLAGS) $(PNG_CFLAGS)
bench_bench_fidelity_LDADD = $(PNG_LIBS) -lm
EXTRA_DIST += bench/FIDELITY.md bench/fidelity-seed12345.png bench/fidelity-lakes-reference.png bench/fidelity-seed42.png bench/hydrology-vs-seed.sh \
	bench/hydrology-scaling.sh bench/fidelity-streams.sh bench/seed-own-code.sh
EXTRA_DIST += bench/tui-first-output.py bench/dither-blur.py
EXTRA_DIST += bench/SPH.md
# The channel a jet cut, from snapshots (bench/SPH.md, "Channels").
noinst_PROGRAMS += bench/sph_channel
bench_sph_channel_SOURCES = bench/sph_channel.c tests/sph_channel.h
bench_sph_channel_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
bench_sph_channel_LDADD = src/io/libgullyio.a src/core/libgullycore.a \
	$(CYAML_LIBS) $(YAML_LIBS) $(PNG_LIBS) $(ZLIB_LIBS) -lm
# The pool at rest of the sph tests, step by step (bench/SPH.md).
noinst_PROGRAMS += bench/sph_pool
bench_sph_pool_SOURCES = bench/sph_pool.c tests/sph_fixture.h
bench_sph_pool_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
bench_sph_pool_LDADD = src/core/libgullycore.a -lm
# One explorer frame's shading by map size (bench/TUI.md).
noinst_PROGRAMS += bench/bench_shade
bench_bench_shade_SOURCES = bench/bench_shade.c
bench_bench_shade_LDADD = src/view/libgullyview.a src/core/libgullycore.a -lm
