/* Little-endian byte order, spelled out byte by byte so files read the same
 * on every host whatever its own order. */
#ifndef GULLY_CORE_BASE_BYTES_H
#define GULLY_CORE_BASE_BYTES_H

#include <stdint.h>
#include <string.h>

static inline void put_u16le(unsigned char *b, uint16_t v)
{
	b[0] = (unsigned char)(v & 0xff);
	b[1] = (unsigned char)(v >> 8);
}

static inline void put_u32le(unsigned char *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (unsigned char)((v >> (8 * i)) & 0xff);
}

static inline void put_u64le(unsigned char *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)((v >> (8 * i)) & 0xff);
}

static inline uint16_t get_u16le(const unsigned char *b)
{
	return (uint16_t)(b[0] | (uint16_t)b[1] << 8);
}

static inline uint32_t get_u32le(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static inline uint64_t get_u64le(const unsigned char *b)
{
	return (uint64_t)get_u32le(b) | (uint64_t)get_u32le(b + 4) << 32;
}

/* IEEE 754 binary32/binary64 bit patterns, through memcpy (no aliasing UB). */
static inline void put_f32le(unsigned char *b, float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	put_u32le(b, u);
}

static inline float get_f32le(const unsigned char *b)
{
	uint32_t u = get_u32le(b);
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static inline void put_f64le(unsigned char *b, double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	put_u64le(b, u);
}

static inline double get_f64le(const unsigned char *b)
{
	uint64_t u = get_u64le(b);
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

#endif
