/* Would a tiled height map make the particles' steps cheaper on a big map
 * (bench/PARTICLES.md, "A tiled layout, on a model walk")? Droplet-like
 * walks on a SIZE x SIZE float map, row-major against 4x4 tiles (one
 * 64-byte line each): 64 walkers in turn, each step reads the 4x4 block
 * around its cell (rows y-1..y+2, columns x-1..x+2; in tiles two aligned
 * loads and a lane permute a row), uses it, writes its cell, and moves about
 * one cell along a slowly turning heading; with PREFETCH, the block a step
 * ahead is asked for. CPU ns per step. x86-64 with AVX2 only, not built by
 * make:
 *   cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L bench/layout_walk.c -o walk -lm
 *   ./walk SIZE row|tile [STEPS [PREFETCH 0|1]] */
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "benchutil.h"

#define LANES 64

static uint32_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

static int size, tiled;

/* Index of cell (x, y): row-major, or 4x4 tiles in row-major tile order. */
static inline size_t at(int x, int y)
{
	if (!tiled)
		return (size_t)y * size + x;
	const int tx = x >> 2, ty = y >> 2;
	return ((size_t)ty * (size / 4) + tx) * 16 + (y & 3) * 4 + (x & 3);
}

/* Four floats of row y from column x0 on. */
__attribute__((target("avx2"))) static inline __m128 row4(const float *h, int x0, int y)
{
	if (!tiled)
		return _mm_loadu_ps(h + (size_t)y * size + x0);
	const int o = x0 & 3;
	const float *a = h + at(x0 & ~3, y);
	const __m256 two = _mm256_set_m128(_mm_load_ps(a + 16), _mm_load_ps(a));
	const __m256i idx = _mm256_setr_epi32(o, o + 1, o + 2, o + 3, 0, 0, 0, 0);
	return _mm256_castps256_ps128(_mm256_permutevar8x32_ps(two, idx));
}

__attribute__((target("avx2"))) int main(int argc, char **argv)
{
	size = argc > 1 ? atoi(argv[1]) : 4096;
	tiled = argc > 2 && strcmp(argv[2], "tile") == 0;
	const long steps = argc > 3 ? atol(argv[3]) : 20000000;
	const int pf = argc > 4 ? atoi(argv[4]) : 0;
	if (size < 16 || size > 16384 || size % 4 || steps < 1 ||
	    (argc > 2 && strcmp(argv[2], "row") && strcmp(argv[2], "tile"))) {
		fprintf(stderr, "usage: walk SIZE (16..16384, a multiple of 4) row|tile "
				"[STEPS >= 1 [PREFETCH 0|1]]\n");
		return 2;
	}
	float *h = aligned_alloc(64, (size_t)size * size * sizeof(float) + 64);
	for (size_t i = 0; i < (size_t)size * size; i++)
		h[i] = (float)(i % 97) * 0.01f;
	uint64_t s = 42;
	float px[LANES], py[LANES], ang[LANES];
	for (int l = 0; l < LANES; l++) {
		px[l] = 2 + rnd(&s) % (size - 8);
		py[l] = 2 + rnd(&s) % (size - 8);
		ang[l] = (rnd(&s) % 6283) * 0.001f;
	}
	double acc = 0;
	const double t0 = bench_cpu_seconds();
	for (long k = 0; k < steps; k += LANES) {
		for (int l = 0; l < LANES; l++) {
			const int x = (int)px[l], y = (int)py[l];
			__m128 sum = _mm_add_ps(_mm_add_ps(row4(h, x - 1, y - 1), row4(h, x - 1, y)),
						_mm_add_ps(row4(h, x - 1, y + 1), row4(h, x - 1, y + 2)));
			sum = _mm_add_ps(sum, _mm_movehl_ps(sum, sum));
			const float v = _mm_cvtss_f32(_mm_add_ss(sum, _mm_shuffle_ps(sum, sum, 1)));
			h[at(x, y)] -= 1e-6f * v;
			acc += v;
			ang[l] += ((rnd(&s) & 255) - 127.5f) * 0.0005f;
			px[l] += cosf(ang[l]);
			py[l] += sinf(ang[l]);
			if (px[l] < 2 || px[l] >= size - 3 || py[l] < 2 || py[l] >= size - 3) {
				px[l] = 2 + rnd(&s) % (size - 8);
				py[l] = 2 + rnd(&s) % (size - 8);
			}
			if (pf) {
				const int nx = (int)(px[l] + cosf(ang[l])), ny = (int)(py[l] + sinf(ang[l]));
				if (nx >= 1 && ny >= 1 && nx < size - 3 && ny < size - 3)
					for (int r = -1; r <= 2; r++)
						__builtin_prefetch(h + at(nx - 1, ny + r));
			}
		}
	}
	const double t = bench_cpu_seconds() - t0;
	printf("%d %s pf%d: %.2f ns/step (%g)\n", size, tiled ? "tile" : "row", pf, t * 1e9 / steps,
	       acc);
	free(h);
	return 0;
}
