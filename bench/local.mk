# Emitter stream throughput (bench/EMITTER.md): particles/s and ns per step.
noinst_PROGRAMS += bench/bench_emitter
bench_bench_emitter_SOURCES = bench/bench_emitter.c
bench_bench_emitter_LDADD = src/core/libgullycore.a -lm
EXTRA_DIST += bench/EMITTER.md
