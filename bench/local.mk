# The explorer's bandwidth over a pseudo-terminal (bench/TUI.md).
noinst_PROGRAMS += bench/ptybytes
bench_ptybytes_SOURCES = bench/ptybytes.c
bench_ptybytes_CPPFLAGS = $(AM_CPPFLAGS) -U_POSIX_C_SOURCE
EXTRA_DIST += bench/tui-bandwidth.sh bench/TUI.md
