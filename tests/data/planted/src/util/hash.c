#include "hash.h"

static volatile unsigned long hash_seen;

unsigned long __attribute__((noinline))
hash_mix(unsigned long x)
{
	long i;

	for (i = 0; i < 10000; i++) {
		x ^= x >> 33;
		x *= 0xff51afd7ed558ccdUL;
		hash_seen = x;
	}
	return x;
}
