/*
 * shard: which of N key shards a test's records belong to, so that a
 * night cut by key (pv-stat --shard=I/N) keeps every key of a test, its
 * concurrency levels and metrics, in one shard: what pv-classify judges
 * across the levels of a test (systematic regressions) then sits in one
 * shard's output.
 *
 * The shard of a test is the 32-bit FNV-1a hash of the bytes of SUITE, a
 * TAB and TEST (the fields unescaped), mod N.  FNV-1a: h = 2166136261;
 * for each byte, h ^= byte, h *= 16777619 (mod 2^32).  Any tool can
 * compute it again, so shards cut elsewhere agree with pv-stat's.
 */
#ifndef PV_SHARD_H
#define PV_SHARD_H

#include <stdint.h>

#include "record.h"

/* The FNV-1a hash of SUITE TAB TEST. */
uint32_t pv_shard_hash(struct pv_str suite, struct pv_str test);

/* The shard, 0 to n - 1 (n at least 1), of the test. */
static inline uint32_t
pv_shard_of(struct pv_str suite, struct pv_str test, uint32_t n)
{
	return pv_shard_hash(suite, test) % n;
}

#endif
