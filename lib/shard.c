/*
 * shard: the key shard of a test (see shard.h).
 */
#include "config.h"

#include "shard.h"

#define FNV_OFFSET 2166136261u
#define FNV_PRIME 16777619u

/* between SUITE and TEST: the byte that parts the fields of a line, TAB */
static const char sep = 9;

static uint32_t
fnv1a(uint32_t h, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= FNV_PRIME;
	}
	return h;
}

uint32_t
pv_shard_hash(struct pv_str suite, struct pv_str test)
{
	uint32_t h = fnv1a(FNV_OFFSET, suite.s, suite.len);

	h = fnv1a(h, &sep, 1);
	return fnv1a(h, test.s, test.len);
}
