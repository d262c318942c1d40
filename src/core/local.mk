noinst_LIBRARIES += src/core/libgullycore.a
src_core_libgullycore_a_SOURCES = \
	src/core/error.c src/core/error.h \
	src/core/rng.c src/core/rng.h \
	src/core/world.c src/core/world.h \
	src/core/noise.c src/core/noise.h \
	src/core/terrain.c src/core/terrain.h \
	src/core/params.c src/core/params.h src/core/params.def \
	src/core/process.c src/core/process.h \
	src/core/particles.c src/core/particles.h src/core/particles_normal.h \
	src/core/particles_lane.h src/core/particles_pair.c src/core/particles_pair.h \
	src/core/particles_lanes.c src/core/particles_lanes.h \
	src/core/particles_lanes_simd.h src/core/particles_lanes_kernel.h \
	src/core/hardness.c src/core/hardness.h \
	src/core/emitter.c src/core/emitter.h \
	src/core/flood.c src/core/flood.h src/core/flood_heap.h \
	src/core/hydrology.c src/core/hydrology.h \
	src/core/hydrology_descend.c src/core/hydrology_descend.h
# The droplet loops are the hot path. -O3 applies only when CFLAGS sets no -O
# of its own: automake puts the user's CFLAGS (configure's default "-g -O2")
# after these, so the default build, and every figure in bench/, is -O2; the
# SIMD in the droplet loops is written out, not left to the vectoriser.
# No errno from sqrtf (nothing reads it): otherwise every sqrt carries a branch
# and a libm call for negative input. No contraction into fused multiply-add:
# the AVX2 copy of the droplet loop must give the same bits as the SSE2 one.
src_core_libgullycore_a_CFLAGS = $(AM_CFLAGS) -O3 -fno-math-errno -ffp-contract=off
