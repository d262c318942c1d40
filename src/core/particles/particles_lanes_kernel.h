/* The lockstep read phase for one instruction set, LV_W lanes a vector: the
 * arithmetic of lanes_read_one (particles_lanes.c), lane by lane, in the same
 * order. Included by particles_lanes_simd.h once per set of LV_ operations;
 * no include guard on purpose. */

/* The 3x3 blocks of LV_W lanes, as nine vectors: u* the row above, m* the
 * cell's row, d* the row below; *0 the column left, *1 the cell's, *2 right.
 * idx holds each lane's cell; every lane's block must be on the map. */
LV_TARGET static LANE_INLINE void LV_FN(lanes_block)(const float *h, const int32_t *idx,
						     lv_i cell, uint32_t stride, lv_f *u0,
						     lv_f *u1, lv_f *u2, lv_f *m0, lv_f *m1,
						     lv_f *m2, lv_f *d0, lv_f *d1, lv_f *d2)
{
#if LV_HW_GATHER
	(void)idx;
	const lv_i s = LV_ISET1((int)stride);
	const lv_i one = LV_ISET1(1);
	const lv_i up = _mm256_sub_epi32(cell, s), dn = LV_IADD(cell, s);
	*u0 = _mm256_i32gather_ps(h, _mm256_sub_epi32(up, one), 4);
	*u1 = _mm256_i32gather_ps(h, up, 4);
	*u2 = _mm256_i32gather_ps(h, LV_IADD(up, one), 4);
	*m0 = _mm256_i32gather_ps(h, _mm256_sub_epi32(cell, one), 4);
	*m1 = _mm256_i32gather_ps(h, cell, 4);
	*m2 = _mm256_i32gather_ps(h, LV_IADD(cell, one), 4);
	*d0 = _mm256_i32gather_ps(h, _mm256_sub_epi32(dn, one), 4);
	*d1 = _mm256_i32gather_ps(h, dn, 4);
	*d2 = _mm256_i32gather_ps(h, LV_IADD(dn, one), 4);
#else
	/* Three 4-wide loads a lane (the row above and the cell's row from
	 * column -1, the row below from column -2, so that none reads past the
	 * map's last cell), then a 4x4 transpose. */
	const ptrdiff_t W = (ptrdiff_t)stride;
#if LV_W == 8
	/* The lanes' cell addresses made in vectors and read back one by one:
	 * fewer instructions than extracting each index and scaling it. */
	(void)idx;
	uintptr_t pa[8];
	const __m256i hb = _mm256_set1_epi64x((long long)(uintptr_t)h);
	_mm256_storeu_si256((__m256i *)(void *)pa,
			    _mm256_add_epi64(hb, _mm256_slli_epi64(
						 _mm256_cvtepi32_epi64(_mm256_castsi256_si128(cell)), 2)));
	_mm256_storeu_si256((__m256i *)(void *)(pa + 4),
			    _mm256_add_epi64(hb, _mm256_slli_epi64(_mm256_cvtepi32_epi64(
								   _mm256_extracti128_si256(cell, 1)),
							   2)));
#define LV_P(j) ((const float *)pa[j])
#else
	(void)cell;
#define LV_P(j) (h + idx[j])
#endif
	lv_f a0, a1, a2, a3, t0, t1, t2, t3;
#define LV_TRANSPOSE_ROWS(off)                     \
	a0 = LV_ROW(0, off);                       \
	a1 = LV_ROW(1, off);                       \
	a2 = LV_ROW(2, off);                       \
	a3 = LV_ROW(3, off);                       \
	t0 = LV_UNPACKLO(a0, a1);                  \
	t1 = LV_UNPACKHI(a0, a1);                  \
	t2 = LV_UNPACKLO(a2, a3);                  \
	t3 = LV_UNPACKHI(a2, a3)
	LV_TRANSPOSE_ROWS(-W - 1);
	*u0 = LV_SHUF(t0, t2, 0x44);
	*u1 = LV_SHUF(t0, t2, 0xEE);
	*u2 = LV_SHUF(t1, t3, 0x44);
	LV_TRANSPOSE_ROWS(-1);
	*m0 = LV_SHUF(t0, t2, 0x44);
	*m1 = LV_SHUF(t0, t2, 0xEE);
	*m2 = LV_SHUF(t1, t3, 0x44);
	LV_TRANSPOSE_ROWS(W - 2);
	*d0 = LV_SHUF(t0, t2, 0xEE);
	*d1 = LV_SHUF(t1, t3, 0x44);
	*d2 = LV_SHUF(t1, t3, 0xEE);
#undef LV_TRANSPOSE_ROWS
#undef LV_P
#endif
}

/* d / sqrt(d^2 + c) with d = centre - neighbour: one term of the normal. */
LV_TARGET static LANE_INLINE lv_f LV_FN(lanes_q)(lv_f centre, lv_f nb, lv_f c)
{
	const lv_f d = LV_SUB(centre, nb);
	return LV_DIV(d, LV_SQRT(LV_ADD(LV_MUL(d, d), c)));
}

/* A tick constant (particles_lanes.c fills pl->kv per call). */
#define LV_K(name) LV_LOAD(pl->kv[name])

/* A tick's read phase in two passes over the slots, LV_W at a time: first
 * every group's normal (most of the divisions and square roots, which share
 * one divider), then every group's move. In this order the divider is busy
 * with the next group while the previous one moves; group by group, the
 * moves waited for the divider and the divider for the moves.
 *
 * Pass one: slots base .. base + LV_W - 1's normals, into pl->t_*. */
LV_TARGET static LANE_INLINE void LV_FN(lanes_normals)(struct particles_lanes *pl,
						       const struct lanes_env *e, int base)
{
	const float *h = e->h;
	const lv_f one = LV_K(K_ONE);
	const lv_f x = LV_LOAD(pl->x + base), y = LV_LOAD(pl->y + base);
	const lv_i left = LV_ILOAD(pl->left + base);
	const lv_i bits = LV_ILOAD(pl->ki[KI_BITS]);
	const lv_i act_i =
		LV_IEQ(LV_IAND(LV_ISET1((int)((pl->active >> base) & ((1u << LV_W) - 1))), bits), bits);
	const lv_f act = LV_I2F(act_i);
	/* Stepping: in flight with steps left. */
	const lv_f step = LV_ANDNOT(LV_I2F(LV_IEQ(left, LV_ISET1(0))), act);
	const lv_f interior = LV_AND(LV_AND(LV_GE(x, one), LV_LT(x, LV_K(K_FW1))),
				     LV_AND(LV_GE(y, one), LV_LT(y, LV_K(K_FH1))));
	const lv_f fast = LV_AND(step, interior);
	/* The cell: x + y * width in one multiply-add of 16-bit halves (both
	 * below 4096; garbage in lanes that are not stepping, never used). */
	const lv_i wmul = LV_ILOAD(pl->ki[KI_WMUL]);
	const lv_i at = LV_IMADD(LV_IOR(LV_CVTT(x), LV_ISLL16(LV_CVTT(y))), wmul);
	/* Lanes that are not on the fast path read the block of cell (1, 1). */
	const lv_i safe =
		LV_F2I(LV_BLEND(fast, LV_I2F(at), LV_I2F(LV_ILOAD(pl->ki[KI_SAFE]))));
	int32_t idx[LV_W];
	LV_ISTORE(idx, safe);
	lv_f u0, u1, u2, m0, m1, m2, d0, d1, d2;
	LV_FN(lanes_block)(h, idx, safe, e->stride, &u0, &u1, &u2, &m0, &m1, &m2, &d0, &d1, &d2);

	/* The normal: axes (+x, -x, +y, -y), diagonals (+x+y, +x-y, -x+y,
	 * -x-y), summed as normal_interior_xz sums them. */
	const lv_f one_s2 = LV_K(K_ONE_S2), two_s2 = LV_K(K_TWO_S2);
	const lv_f qa0 = LV_FN(lanes_q)(m1, m2, one_s2), qa1 = LV_FN(lanes_q)(m1, m0, one_s2);
	const lv_f qa2 = LV_FN(lanes_q)(m1, d1, one_s2), qa3 = LV_FN(lanes_q)(m1, u1, one_s2);
	const lv_f qd0 = LV_FN(lanes_q)(m1, d2, two_s2), qd1 = LV_FN(lanes_q)(m1, u2, two_s2);
	const lv_f qd2 = LV_FN(lanes_q)(m1, d0, two_s2), qd3 = LV_FN(lanes_q)(m1, u0, two_s2);
#define LV_TERM(qa, qd, wa, wd) LV_ADD(LV_MUL(qa, LV_K(wa)), LV_MUL(qd, LV_K(wd)))
	const lv_f vx0 = LV_TERM(qa0, qd0, K_WAX_X + 0, K_WDG_X + 0);
	const lv_f vx1 = LV_TERM(qa1, qd1, K_WAX_X + 1, K_WDG_X + 1);
	const lv_f vx2 = LV_TERM(qa2, qd2, K_WAX_X + 2, K_WDG_X + 2);
	const lv_f vx3 = LV_TERM(qa3, qd3, K_WAX_X + 3, K_WDG_X + 3);
	const lv_f vz0 = LV_TERM(qa0, qd0, K_WAX_Z + 0, K_WDG_Z + 0);
	const lv_f vz1 = LV_TERM(qa1, qd1, K_WAX_Z + 1, K_WDG_Z + 1);
	const lv_f vz2 = LV_TERM(qa2, qd2, K_WAX_Z + 2, K_WDG_Z + 2);
	const lv_f vz3 = LV_TERM(qa3, qd3, K_WAX_Z + 3, K_WDG_Z + 3);
#undef LV_TERM
	lv_f nx = LV_ADD(LV_ADD(vx0, vx2), LV_ADD(vx1, vx3));
	lv_f nz = LV_ADD(LV_ADD(vz0, vz2), LV_ADD(vz1, vz3));
	lv_f here = m1;

	/* Lanes near the edge: the reference normal, which extends the map
	 * past it (rare: a branch taken a few times in a thousand). */
	const unsigned edge = LV_MOVEMASK(LV_ANDNOT(interior, step));
	if (edge) {
		float anx[LV_W], anz[LV_W], ahere[LV_W];
		LV_STORE(anx, nx);
		LV_STORE(anz, nz);
		LV_STORE(ahere, here);
		for (unsigned m = edge; m; m &= m - 1) {
			const int j = lanes_ctz(m);
			const int xi = (int)pl->x[base + j], yi = (int)pl->y[base + j];
			float n[3];
			particles_normal(h, e->width, e->height, xi, yi, e->scale, e->symmetric, n);
			anx[j] = n[0];
			anz[j] = n[2];
			ahere[j] = h[(uint32_t)yi * e->stride + (uint32_t)xi];
		}
		nx = LV_LOAD(anx);
		nz = LV_LOAD(anz);
		here = LV_LOAD(ahere);
	}
	LV_STORE(pl->t_nx + base, nx);
	LV_STORE(pl->t_nz + base, nz);
	LV_STORE(pl->t_here + base, here);
	/* dt / (V rho) does not need the normal: with the normals it keeps the
	 * divider's queue full. */
	LV_STORE(pl->t_inv + base,
		 LV_DIV(LV_K(K_DT), LV_MUL(LV_LOAD(pl->volume + base), LV_K(K_DENSITY))));
	LV_STORE(pl->t_step + base, step);
	LV_STORE(pl->t_act + base, act);
	LV_ISTORE(pl->t_at + base, at);
}

/* Pass two: the move of slots base .. base + LV_W - 1; their ended bits. */
LV_TARGET static LANE_INLINE uint64_t LV_FN(lanes_move)(struct particles_lanes *pl,
							const struct lanes_env *e, int base,
							uint64_t *steps)
{
	const float *h = e->h;
	const lv_f zero = LV_ZERO();
	const lv_f x = LV_LOAD(pl->x + base), y = LV_LOAD(pl->y + base);
	const lv_f vx = LV_LOAD(pl->vx + base), vy = LV_LOAD(pl->vy + base);
	const lv_f vol = LV_LOAD(pl->volume + base), sed = LV_LOAD(pl->sediment + base);
	const lv_i left = LV_ILOAD(pl->left + base);
	const lv_f nx = LV_LOAD(pl->t_nx + base), nz = LV_LOAD(pl->t_nz + base);
	const lv_f here = LV_LOAD(pl->t_here + base);
	const lv_f step = LV_LOAD(pl->t_step + base), act = LV_LOAD(pl->t_act + base);
	const lv_i at = LV_ILOAD(pl->t_at + base);
	const lv_i wmul = LV_ILOAD(pl->ki[KI_WMUL]);

	const lv_f dt = LV_K(K_DT), keep = LV_K(K_KEEP);
	const lv_f inv_mass = LV_LOAD(pl->t_inv + base);
	const lv_f nvx = LV_MUL(LV_ADD(vx, LV_MUL(nx, inv_mass)), keep);
	const lv_f nvy = LV_MUL(LV_ADD(vy, LV_MUL(nz, inv_mass)), keep);
	const lv_f dtm = LV_MUL(dt, inv_mass);
	const lv_f px = LV_ADD(LV_ADD(x, LV_MUL(dt, vx)), LV_MUL(nx, dtm));
	const lv_f py = LV_ADD(LV_ADD(y, LV_MUL(dt, vy)), LV_MUL(nz, dtm));
	const lv_f on_map = LV_AND(LV_AND(LV_GE(px, zero), LV_LT(px, LV_K(K_FW))),
				   LV_AND(LV_GE(py, zero), LV_LT(py, LV_K(K_FH))));
	const lv_f writes = LV_AND(step, on_map);
	const lv_i next = LV_IAND(LV_F2I(writes),
				  LV_IMADD(LV_IOR(LV_CVTT(px), LV_ISLL16(LV_CVTT(py))), wmul));
#if LV_HW_GATHER || (LV_W == 8 && LV_THERE_GATHER)
	const lv_f there = _mm256_i32gather_ps(h, next, 4);
#else
	int32_t nidx[LV_W];
	LV_ISTORE(nidx, next);
	float th[LV_W];
	for (int j = 0; j < LV_W; j++)
		th[j] = h[nidx[j]];
	const lv_f there = LV_FROM_ARRAY(th);
#endif
	const lv_f speed = LV_SQRT(LV_ADD(LV_MUL(nvx, nvx), LV_MUL(nvy, nvy)));
	const lv_f c_eq = LV_MAX(zero, LV_MUL(speed, LV_MUL(vol, LV_SUB(here, there))));
	const lv_f rate = LV_K(K_RATE);
	const lv_f cdiff = LV_SUB(c_eq, sed);
	const lv_f delta = LV_MUL(LV_MUL(vol, rate), cdiff);

	LV_STORE(pl->x + base, LV_BLEND(step, px, x));
	LV_STORE(pl->y + base, LV_BLEND(step, py, y));
	LV_STORE(pl->vx + base, LV_BLEND(step, nvx, vx));
	LV_STORE(pl->vy + base, LV_BLEND(step, nvy, vy));
	LV_STORE(pl->sediment + base, LV_BLEND(writes, LV_ADD(sed, LV_MUL(rate, cdiff)), sed));
	LV_STORE(pl->volume + base, LV_BLEND(writes, LV_MUL(vol, LV_K(K_KEEP_VOLUME)), vol));
	/* left - 1 where stepping (the mask is -1 there). */
	const lv_i nleft = LV_IADD(left, LV_F2I(step));
	LV_ISTORE(pl->left + base, nleft);
	LV_STORE(pl->delta + base, LV_AND(writes, delta));
	LV_ISTORE(pl->wat + base, LV_IAND(LV_F2I(writes), at));
	/* Ended: in flight, and out of steps or off the map. */
	const lv_f ended =
		LV_AND(act, LV_OR(LV_I2F(LV_IEQ(nleft, LV_ISET1(0))), LV_ANDNOT(on_map, step)));
	*steps += (uint64_t)__builtin_popcount(LV_MOVEMASK(step));
	return (uint64_t)LV_MOVEMASK(ended) << base;
}

#undef LV_K

LV_TARGET static LANE_INLINE struct lanes_tick LV_FN(lanes_read)(struct particles_lanes *pl,
								 const struct lanes_env *e, int n)
{
	struct lanes_tick t = {0, 0};
	for (int base = 0; base < n; base += LV_W)
		LV_FN(lanes_normals)(pl, e, base);
	for (int base = 0; base < n; base += LV_W)
		t.ended |= LV_FN(lanes_move)(pl, e, base, &t.steps);
	return t;
}

/* lanes_books_scalar's sums, LV_W slots at a time. */
LV_TARGET static LANE_INLINE void LV_FN(lanes_books)(struct particles_lanes *pl, int n,
						     struct lanes_books *b)
{
#if LV_W == 8
	__m256d ve = _mm256_setzero_pd(), vq = _mm256_setzero_pd();
	for (int g = 0; g < n; g += 8) {
		const __m256 before = _mm256_loadu_ps(pl->before + g);
		const __m256 after = _mm256_sub_ps(before, _mm256_loadu_ps(pl->delta + g));
		for (int half = 0; half < 2; half++) {
			const __m128 b4 = half ? _mm256_extractf128_ps(before, 1)
					       : _mm256_castps256_ps128(before);
			const __m128 a4 = half ? _mm256_extractf128_ps(after, 1)
					       : _mm256_castps256_ps128(after);
			const __m256d bd = _mm256_cvtps_pd(b4), ad = _mm256_cvtps_pd(a4);
			const __m256d d = _mm256_sub_pd(bd, ad);
			double *c = pl->carried + g + 4 * half;
			_mm256_storeu_pd(c, _mm256_add_pd(_mm256_loadu_pd(c), d));
			ve = _mm256_add_pd(ve, _mm256_max_pd(d, _mm256_setzero_pd()));
			vq = _mm256_add_pd(vq, _mm256_max_pd(_mm256_sub_pd(ad, bd), _mm256_setzero_pd()));
		}
	}
	/* (v0 + v1) + (v2 + v3) */
	const __m256d e2 = _mm256_add_pd(ve, _mm256_permute_pd(ve, 5));
	const __m256d q2 = _mm256_add_pd(vq, _mm256_permute_pd(vq, 5));
	b->eroded += _mm_cvtsd_f64(
		_mm_add_sd(_mm256_castpd256_pd128(e2), _mm256_extractf128_pd(e2, 1)));
	b->deposited += _mm_cvtsd_f64(
		_mm_add_sd(_mm256_castpd256_pd128(q2), _mm256_extractf128_pd(q2, 1)));
#else
	const __m128d z = _mm_setzero_pd();
	__m128d e01 = z, e23 = z, q01 = z, q23 = z;
	for (int g = 0; g < n; g += 4) {
		const __m128 before = _mm_loadu_ps(pl->before + g);
		const __m128 after = _mm_sub_ps(before, _mm_loadu_ps(pl->delta + g));
		const __m128d b01 = _mm_cvtps_pd(before), a01 = _mm_cvtps_pd(after);
		const __m128d b23 = _mm_cvtps_pd(_mm_movehl_ps(before, before));
		const __m128d a23 = _mm_cvtps_pd(_mm_movehl_ps(after, after));
		const __m128d d01 = _mm_sub_pd(b01, a01), d23 = _mm_sub_pd(b23, a23);
		_mm_storeu_pd(pl->carried + g, _mm_add_pd(_mm_loadu_pd(pl->carried + g), d01));
		_mm_storeu_pd(pl->carried + g + 2, _mm_add_pd(_mm_loadu_pd(pl->carried + g + 2), d23));
		e01 = _mm_add_pd(e01, _mm_max_pd(d01, z));
		e23 = _mm_add_pd(e23, _mm_max_pd(d23, z));
		q01 = _mm_add_pd(q01, _mm_max_pd(_mm_sub_pd(a01, b01), z));
		q23 = _mm_add_pd(q23, _mm_max_pd(_mm_sub_pd(a23, b23), z));
	}
	b->eroded += _mm_cvtsd_f64(_mm_add_sd(_mm_add_sd(e01, _mm_unpackhi_pd(e01, e01)),
					      _mm_add_sd(e23, _mm_unpackhi_pd(e23, e23))));
	b->deposited += _mm_cvtsd_f64(_mm_add_sd(_mm_add_sd(q01, _mm_unpackhi_pd(q01, q01)),
						 _mm_add_sd(q23, _mm_unpackhi_pd(q23, q23))));
#endif
}

LV_TARGET static uint64_t LV_FN(lanes_loop)(struct particles_lanes *pl, struct world *w,
					    const struct lanes_env *e, int lanes, uint64_t budget,
					    bool refill_ok, struct lanes_books *b)
{
	return lanes_loop(pl, w, e, lanes, budget, refill_ok, b, LV_FN(lanes_read),
			  LV_FN(lanes_books), LV_W);
}
