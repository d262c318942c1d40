noinst_LIBRARIES += src/core/libgullycore.a
# One library, listed by folder: base/ is what every process shares; a
# process folder includes only base/ and itself (tests/core_layout.test checks).
src_core_libgullycore_a_SOURCES = \
	src/core/base/error.c src/core/base/error.h src/core/base/bytes.h \
	src/core/base/rng.c src/core/base/rng.h \
	src/core/base/world.c src/core/base/world.h \
	src/core/base/bigmem.c src/core/base/bigmem.h \
	src/core/base/noise.c src/core/base/noise.h \
	src/core/base/params.c src/core/base/params.h src/core/base/params.def \
	src/core/base/numparse.c src/core/base/numparse.h \
	src/core/base/process.h src/core/base/pi.h \
	src/core/base/v2.h src/core/base/normal.c src/core/base/normal.h \
	src/core/base/floatw.h src/core/base/bits.h src/core/base/normal_wide.h \
	src/core/base/workers.c src/core/base/workers.h \
	src/core/base/cpu.c src/core/base/cpu.h \
	src/core/base/grid.h \
	src/core/base/resample.c src/core/base/resample.h \
	src/core/base/rain.c src/core/base/rain.h \
	src/core/process_table.c \
	src/core/terrain/terrain.c src/core/terrain/terrain.h \
	src/core/terrain/hardness.c src/core/terrain/hardness.h \
	src/core/terrain/rows.c src/core/terrain/rows.h \
	src/core/particles/particles.c src/core/particles/particles.h \
	src/core/particles/droplet.h \
	src/core/particles/trace.c src/core/particles/trace.h \
	src/core/particles/lockstep.c src/core/particles/lockstep.h \
	src/core/particles/halves.c src/core/particles/halves.h \
	src/core/particles/lockstep_impl.h src/core/particles/lockstep_simd.h \
	src/core/particles/lockstep_sse2.c src/core/particles/lockstep_avx2.c \
	src/core/hydrology/flood.c src/core/hydrology/flood.h src/core/hydrology/flood_heap.h src/core/hydrology/flood_radix.h \
	src/core/hydrology/flood_internal.h src/core/hydrology/flood_fill.c \
	src/core/hydrology/flood_halves.c \
	src/core/hydrology/flood_try.c \
	src/core/hydrology/flood_lakes.c src/core/hydrology/flood_shed.c \
	src/core/hydrology/flood_write.c src/core/hydrology/flood_check.c \
	src/core/hydrology/flood_map.c \
	src/core/hydrology/hydrology.c src/core/hydrology/hydrology.h \
	src/core/hydrology/hydrology_equations.c \
	src/core/hydrology/hydrology_internal.h src/core/hydrology/hydrology_trees.c \
	src/core/hydrology/hydrology_state.c \
	src/core/hydrology/tree_map.c src/core/hydrology/tree_map.h \
	src/core/hydrology/hydrology_stream.c src/core/hydrology/hydrology_stream.h \
	src/core/hydrology/hydrology_descend.c src/core/hydrology/hydrology_descend.h \
	src/core/hydrology/hydrology_trace.c src/core/hydrology/hydrology_trace.h \
	src/core/hydrology/hydrology_life.h \
	src/core/hydrology/hydrology_lanes.c src/core/hydrology/hlanes.c src/core/hydrology/hlanes.h \
	src/core/hydrology/hlanes_impl.h src/core/hydrology/hlanes_simd.h \
	src/core/hydrology/hlanes_sse2.c src/core/hydrology/hlanes_avx2.c \
	src/core/hydrology/hlanes_state.c \
	src/core/emitter/emitter.c src/core/emitter/emitter.h \
	src/core/sph/sph.c src/core/sph/sph.h src/core/sph/sph_grid.c \
	src/core/sph/sph_fluid.c src/core/sph/sph_mud.c src/core/sph/sph_soil.c src/core/sph/sph_water.c \
	src/core/sph/sph_sources.c src/core/sph/sph_erode.c src/core/sph/sph_step.c \
	src/core/sph/sph_process.c src/core/sph/sph_state.c
# The droplet loops are the hot path. -O3 applies only when CFLAGS sets no -O
# of its own: automake puts the user's CFLAGS (configure's default "-g -O2")
# after these, so the default build, and every figure in bench/, is -O2; the
# SIMD in the droplet loops is written out, not left to the vectoriser.
# No errno from sqrtf (nothing reads it): otherwise every sqrt carries a branch
# and a libm call for negative input. No contraction into fused multiply-add:
# the AVX2 copy of the droplet loop must give the same bits as the SSE2 one.
src_core_libgullycore_a_CFLAGS = $(AM_CFLAGS) -O3 -fno-math-errno -ffp-contract=off
