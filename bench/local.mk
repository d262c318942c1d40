# Benchmarks: built and run by `make bench`, never by `make check` (timings are
# noise on a shared machine; tests must not depend on them).
EXTRA_PROGRAMS = bench/bench_particles
bench_bench_particles_SOURCES = bench/bench_particles.c
bench_bench_particles_LDADD = src/core/libgullycore.a -lm
EXTRA_DIST += bench/README.md
CLEANFILES += $(EXTRA_PROGRAMS)

BENCH_ARGS =
.PHONY: bench
bench: bench/bench_particles$(EXEEXT)
	bench/bench_particles$(EXEEXT) $(BENCH_ARGS)
