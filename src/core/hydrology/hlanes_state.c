/* The lanes' droplets in flight in snapshots (hlanes.h has the layout). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/world.h"
#include "core/hydrology/hlanes.h"
#include "core/hydrology/hlanes_impl.h"

#define HLANES_VERSION 1u
#define HLANES_HEAD 24u
/* Per slot: five f32, three f64, two u32, five f64 of books. */
#define HLANES_SLOT (5u * 4u + 3u * 8u + 2u * 4u + 5u * 8u)

int hlanes_save(const struct hlanes *L, unsigned char **data, size_t *len)
{
	const size_t size = HLANES_HEAD + HLANES_SLOT * (size_t)hlanes_in_flight(L);
	unsigned char *p = malloc(size);
	if (!p)
		return GULLY_ENOMEM;
	put_u32le(p, HLANES_MAGIC);
	put_u32le(p + 4, HLANES_VERSION);
	put_u32le(p + 8, (uint32_t)L->width);
	put_u32le(p + 12, (uint32_t)L->height);
	put_u64le(p + 16, L->active);
	unsigned char *q = p + HLANES_HEAD;
	for (uint64_t a = L->active; a; a &= a - 1, q += HLANES_SLOT) {
		const int i = bits_ctz64(a);
		const float f[5] = {L->x[i], L->y[i], L->vx[i], L->vy[i], L->sed[i]};
		const struct books *b = &L->books[i];
		const double d[8] = {L->vol[i], L->carried[i], L->volume0[i], b->evaporated,
				     b->off_map, L->eroded[i], L->deposited[i], b->sediment_off_map};
		for (int k = 0; k < 5; k++)
			put_f32le(q + 4 * k, f[k]);
		for (int k = 0; k < 3; k++)
			put_f64le(q + 20 + 8 * k, d[k]);
		put_u32le(q + 44, L->age[i]);
		put_u32le(q + 48, L->round[i]);
		for (int k = 0; k < 5; k++)
			put_f64le(q + 52 + 8 * k, d[3 + k]);
	}
	*data = p;
	*len = size;
	return GULLY_OK;
}

/* One slot's droplet, checked: finite, on the map, and within what a run
 * can reach and the next steps' float arithmetic can take (as the
 * particles' lanes are held: a speed under WORLD_SPEED_LIMIT, a load, soil
 * and volume under WORLD_HEIGHT_LIMIT; a volume can pass 1 by draining a
 * lake), books a tally can take (WORLD_BOOK_LIMIT), an age and a round a
 * step can count on. */
static bool hlanes_read_slot(const unsigned char *q, int width, int height, struct life *l)
{
	memset(l, 0, sizeof *l);
	float f[5];
	double d[8];
	for (int k = 0; k < 5; k++)
		f[k] = get_f32le(q + 4 * k);
	for (int k = 0; k < 3; k++)
		d[k] = get_f64le(q + 20 + 8 * k);
	for (int k = 0; k < 5; k++)
		d[3 + k] = get_f64le(q + 52 + 8 * k);
	const uint32_t age = get_u32le(q + 44), round = get_u32le(q + 48);
	for (int k = 0; k < 5; k++)
		if (!isfinite(f[k]))
			return false;
	for (int k = 0; k < 8; k++)
		if (!isfinite(d[k]) || (k >= 3 && !(fabs(d[k]) <= WORLD_BOOK_LIMIT)))
			return false;
	if (!(f[0] >= 0.0f && f[0] < (float)width && f[1] >= 0.0f && f[1] < (float)height))
		return false;
	const double limit = WORLD_HEIGHT_LIMIT;
	if (!(fabsf(f[2]) <= WORLD_SPEED_LIMIT && fabsf(f[3]) <= WORLD_SPEED_LIMIT) ||
	    !(fabsf(f[4]) <= WORLD_HEIGHT_LIMIT) || !(d[0] >= 0 && d[0] <= limit) ||
	    !(fabs(d[1]) <= limit) || !(d[2] >= 0 && d[2] <= limit) || age > INT32_MAX ||
	    round > INT32_MAX)
		return false;
	l->d = (struct hdrop){f[0], f[1], f[2], f[3], d[0], f[4], d[1], age};
	l->volume0 = d[2];
	l->b = (struct books){d[3], d[4], d[5], d[6], d[7]};
	l->round = (int)round;
	l->stage = LIFE_DESCENT;
	return true;
}

int hlanes_load(struct hlanes *L, const unsigned char *data, size_t len)
{
	if (len < HLANES_HEAD || get_u32le(data) != HLANES_MAGIC ||
	    get_u32le(data + 4) != HLANES_VERSION || get_u32le(data + 8) != (uint32_t)L->width ||
	    get_u32le(data + 12) != (uint32_t)L->height)
		return GULLY_EFORMAT;
	const uint64_t active = get_u64le(data + 16);
	int n = 0;
	for (uint64_t a = active; a; a &= a - 1)
		n++;
	if (len != HLANES_HEAD + HLANES_SLOT * (size_t)n)
		return GULLY_EFORMAT;
	struct life lives[HLANES_MAX];
	const unsigned char *q = data + HLANES_HEAD;
	for (int k = 0; k < n; k++, q += HLANES_SLOT)
		if (!hlanes_read_slot(q, L->width, L->height, &lives[k]))
			return GULLY_EFORMAT;
	hlanes_clear(L);
	int k = 0;
	for (uint64_t a = active; a; a &= a - 1)
		hlanes_put(L, bits_ctz64(a), &lives[k++]);
	return GULLY_OK;
}
