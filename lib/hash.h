/*
 * hash: a fast, non-cryptographic 64-bit hash of byte strings, for the
 * project's hash table (hmap.h).  Not for anything an attacker
 * may aim collisions at: the tables stay correct under collisions, only
 * slower.
 */
#ifndef PV_HASH_H
#define PV_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PV_HASH_K0 0x9e3779b97f4a7c15ULL
#define PV_HASH_K1 0xd6e8feb86659fd93ULL
#define PV_HASH_K2 0xa0761d6478bd642fULL

/* The high and low halves of a 64x64 product, folded together. */
static inline uint64_t
pv_hash_fold(uint64_t a, uint64_t b)
{
	unsigned __int128 r = (unsigned __int128)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static inline uint64_t
pv_hash_load(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint64_t
pv_hash(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t h = seed ^ PV_HASH_K0 ^ (len * PV_HASH_K1);
	uint64_t a = 0, b = 0;

	while (len > 16) {
		h = pv_hash_fold(pv_hash_load(p) ^ PV_HASH_K1,
				 pv_hash_load(p + 8) ^ h);
		p += 16;
		len -= 16;
	}
	if (len >= 8) {
		a = pv_hash_load(p);
		b = pv_hash_load(p + len - 8);
	} else if (len >= 4) {
		uint32_t x, y;

		memcpy(&x, p, 4);
		memcpy(&y, p + len - 4, 4);
		a = x;
		b = y;
	} else if (len > 0) {
		a = ((uint64_t)p[0] << 16) | ((uint64_t)p[len >> 1] << 8) |
		    p[len - 1];
	}
	return pv_hash_fold(a ^ PV_HASH_K2 ^ h, b ^ PV_HASH_K1);
}

/*
 * Whether a[0..len) and b[0..len) hold the same bytes: memcmp() == 0
 * inlined for the short strings (frame names) the tables compare most,
 * without reading outside either range.
 */
static inline int
pv_hash_same(const void *a, const void *b, size_t len)
{
	const unsigned char *p = a, *q = b;

	if (len >= 8 && len <= 16)
		return pv_hash_load(p) == pv_hash_load(q) &&
		       pv_hash_load(p + len - 8) == pv_hash_load(q + len - 8);
	if (len >= 4 && len < 8) {
		uint32_t x, y, u, v;

		memcpy(&x, p, 4);
		memcpy(&y, q, 4);
		memcpy(&u, p + len - 4, 4);
		memcpy(&v, q + len - 4, 4);
		return x == y && u == v;
	}
	if (len < 4) {
		size_t i;

		for (i = 0; i < len; i++) {
			if (p[i] != q[i])
				return 0;
		}
		return 1;
	}
	return memcmp(p, q, len) == 0;
}

#endif
