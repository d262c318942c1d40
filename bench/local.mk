
# Hydrology benchmarks (bench/HYDROLOGY.md): built with everything so they
# cannot rot, never run as tests.
noinst_PROGRAMS += bench/bench_hydrology
bench_bench_hydrology_SOURCES = bench/bench_hydrology.c
bench_bench_hydrology_LDADD = src/core/libgullycore.a -lm
EXTRA_DIST += bench/HYDROLOGY.md
