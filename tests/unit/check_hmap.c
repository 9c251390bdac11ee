/*
 * Unit tests of lib/hmap: ids found by their keys through growth, keys
 * whose hashes collide in full or in the bits a slot keeps, the empty
 * table, reset, reserve, and the replacement of an id in place.
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "hmap.h"

/* the entries: keys by id, as the callers keep them */
struct keys {
	uint64_t *key;
	size_t n;
	unsigned long eqcalls;
};

static int
key_eq(const void *ctx, uint32_t id, const void *key)
{
	struct keys *k = (struct keys *)ctx;

	k->eqcalls++;
	return k->key[id] == *(const uint64_t *)key;
}

static uint64_t
good_hash(uint64_t key)
{
	return pv_hash(&key, sizeof(key), 0);
}

/* every key the same hash: only eq tells them apart */
static uint64_t
same_hash(uint64_t key)
{
	(void)key;
	return 0x123456789abcdef0ULL;
}

/* the same upper half (what a slot keeps), different lower halves */
static uint64_t
same_tag(uint64_t key)
{
	return 0xfeedface00000000ULL | (key & 0xffffffffULL);
}

/* Intern n keys (key i is 3 i + 1, each given twice), then look them up. */
static void
intern_all(uint64_t (*hash)(uint64_t), size_t n, size_t hint)
{
	struct pv_hmap m;
	struct keys k = { calloc(n + 1, sizeof(uint64_t)), 0, 0 };
	size_t i, pos;
	int pass;

	ck_assert_ptr_nonnull(k.key);
	pv_hmap_init(&m, hint);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			uint64_t key = 3 * (uint64_t)i + 1;
			uint32_t id = pv_hmap_find(&m, hash(key), key_eq, &k,
						   &key, &pos);

			if (pass == 0) {
				ck_assert_uint_eq(id, PV_HMAP_NONE);
				k.key[k.n] = key;
				pv_hmap_add_at(&m, pos, hash(key),
					       (uint32_t)k.n++);
			} else {
				ck_assert_uint_eq(id, i);
			}
		}
	}
	ck_assert_uint_eq(m.count, n);
	ck_assert_uint_le(2 * m.count, m.mask + 1);
	for (i = 0; i < n; i++) {
		uint64_t absent = 3 * (uint64_t)i + 2;

		ck_assert_uint_eq(pv_hmap_get(&m, hash(absent), key_eq, &k,
					      &absent), PV_HMAP_NONE);
	}
	pv_hmap_release(&m);
	ck_assert_uint_eq(m.count, 0);
	free(k.key);
}

START_TEST(test_grow)
{
	intern_all(good_hash, 100000, 0);
	intern_all(good_hash, 1000, 1000);
	intern_all(good_hash, 1, 0);
}
END_TEST

START_TEST(test_collisions)
{
	intern_all(same_hash, 500, 0);
	intern_all(same_tag, 2000, 0);
}
END_TEST

/* eq is called on a match of the kept bits only: rarely on a miss */
START_TEST(test_tag_filters)
{
	struct pv_hmap m = PV_HMAP_INIT;
	struct keys k = { calloc(20000, sizeof(uint64_t)), 0, 0 };
	uint64_t key;
	size_t i;

	ck_assert_ptr_nonnull(k.key);
	for (i = 0; i < 10000; i++) {
		k.key[k.n] = key = i;
		pv_hmap_add(&m, good_hash(key), (uint32_t)k.n++);
	}
	k.eqcalls = 0;
	for (i = 10000; i < 20000; i++) {
		key = i;
		ck_assert_uint_eq(pv_hmap_get(&m, good_hash(key), key_eq, &k,
					      &key), PV_HMAP_NONE);
	}
	ck_assert_uint_lt(k.eqcalls, 10);
	pv_hmap_release(&m);
	free(k.key);
}
END_TEST

START_TEST(test_empty)
{
	struct pv_hmap m = PV_HMAP_INIT;
	struct keys k = { NULL, 0, 0 };
	uint64_t key = 7;
	size_t pos = 99;

	ck_assert_uint_eq(pv_hmap_find(&m, good_hash(key), key_eq, &k, &key,
				       &pos), PV_HMAP_NONE);
	ck_assert_uint_eq(pos, 0);
	ck_assert_uint_eq(k.eqcalls, 0);
	pv_hmap_reset(&m);
	pv_hmap_release(&m);
	pv_hmap_release(&m);
	ck_assert_ptr_null(m.slot);
	/* zeros are an empty table too */
	memset(&m, 0, sizeof(m));
	ck_assert_uint_eq(pv_hmap_find(&m, good_hash(key), key_eq, &k, &key,
				       &pos), PV_HMAP_NONE);
	k.key = &key;
	pv_hmap_add_at(&m, pos, good_hash(key), 0);
	ck_assert_uint_eq(pv_hmap_get(&m, good_hash(key), key_eq, &k, &key),
			  0);
	pv_hmap_release(&m);
}
END_TEST

START_TEST(test_reset_reserve)
{
	struct pv_hmap m;
	struct keys k = { calloc(5000, sizeof(uint64_t)), 0, 0 };
	uint64_t *slot;
	size_t i, mask;
	uint64_t key;

	ck_assert_ptr_nonnull(k.key);
	pv_hmap_init(&m, 0);
	pv_hmap_reserve(&m, 4000);
	slot = m.slot;
	mask = m.mask;
	ck_assert_uint_ge(mask + 1, 8000);
	for (i = 0; i < 4000; i++) {
		k.key[k.n] = key = i * 7;
		pv_hmap_add(&m, good_hash(key), (uint32_t)k.n++);
	}
	/* room was made: nothing moved */
	ck_assert_ptr_eq(m.slot, slot);
	ck_assert_uint_eq(m.mask, mask);
	/* a smaller reservation changes nothing */
	pv_hmap_reserve(&m, 10);
	ck_assert_ptr_eq(m.slot, slot);
	pv_hmap_reset(&m);
	ck_assert_uint_eq(m.count, 0);
	ck_assert_ptr_eq(m.slot, slot);
	key = 7;
	ck_assert_uint_eq(pv_hmap_get(&m, good_hash(key), key_eq, &k, &key),
			  PV_HMAP_NONE);
	/* after a reset, ids start again */
	k.n = 0;
	k.key[k.n] = key;
	pv_hmap_add(&m, good_hash(key), (uint32_t)k.n++);
	ck_assert_uint_eq(pv_hmap_get(&m, good_hash(key), key_eq, &k, &key),
			  0);
	pv_hmap_release(&m);
	free(k.key);
}
END_TEST

START_TEST(test_set_at)
{
	struct pv_hmap m = PV_HMAP_INIT;
	struct keys k = { calloc(4, sizeof(uint64_t)), 0, 0 };
	uint64_t key = 42;
	size_t pos;

	ck_assert_ptr_nonnull(k.key);
	/* two entries of one key: the newer takes the older's place */
	k.key[0] = k.key[1] = key;
	k.key[2] = 43;
	k.n = 3;
	pv_hmap_add(&m, good_hash(key), 0);
	pv_hmap_add(&m, good_hash(43), 2);
	ck_assert_uint_eq(pv_hmap_find(&m, good_hash(key), key_eq, &k, &key,
				       &pos), 0);
	pv_hmap_set_at(&m, pos, 1);
	ck_assert_uint_eq(pv_hmap_get(&m, good_hash(key), key_eq, &k, &key),
			  1);
	key = 43;
	ck_assert_uint_eq(pv_hmap_get(&m, good_hash(key), key_eq, &k, &key),
			  2);
	ck_assert_uint_eq(m.count, 2);
	pv_hmap_release(&m);
	free(k.key);
}
END_TEST

static int
never_eq(const void *ctx, uint32_t id, const void *key)
{
	(void)key;
	/* the id asked about is the one added */
	ck_assert_uint_eq(id, UINT32_MAX - 1);
	++*(unsigned long *)ctx;
	return 0;
}

/* the largest id a table takes */
START_TEST(test_large_id)
{
	struct pv_hmap m = PV_HMAP_INIT;
	unsigned long calls = 0;
	uint64_t key = 5;

	pv_hmap_add(&m, good_hash(key), UINT32_MAX - 1);
	ck_assert_uint_eq(m.slot[(good_hash(key) >> 32) & m.mask] &
			  0xffffffffULL, UINT32_MAX);
	ck_assert_uint_eq(pv_hmap_get(&m, good_hash(key), never_eq, &calls,
				      &key), PV_HMAP_NONE);
	ck_assert_uint_eq(calls, 1);
	pv_hmap_release(&m);
}
END_TEST

static Suite *
hmap_suite(void)
{
	Suite *s = suite_create("hmap");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_grow);
	tcase_add_test(tc, test_collisions);
	tcase_add_test(tc, test_tag_filters);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_reset_reserve);
	tcase_add_test(tc, test_set_at);
	tcase_add_test(tc, test_large_id);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(hmap_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
