/*
 * Unit tests of lib/sort: pv_sort_runs() against a stable insertion sort
 * on arrays that are random, sorted, reversed, made of a few sorted runs,
 * and full of equal keys (whose order must be kept).
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sort.h"

struct item {
	uint32_t key;
	uint32_t seq;		/* the position before sorting */
	char pad[5];		/* an odd size */
};

static int
cmp_item(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;

	return a->key < b->key ? -1 : a->key > b->key;
}

static void
reference(struct item *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct item x = v[i];

		for (j = i; j > 0 && cmp_item(&v[j - 1], &x) > 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static uint64_t
next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* shape: 0 random, 1 sorted, 2 reversed, 3 a few runs, 4 few keys */
static void
check(size_t n, int shape, uint64_t seed)
{
	struct item *v = calloc(n + 1, sizeof(*v));
	struct item *w = calloc(n + 1, sizeof(*w));
	size_t i;

	ck_assert_ptr_nonnull(v);
	ck_assert_ptr_nonnull(w);
	for (i = 0; i < n; i++) {
		uint32_t r = (uint32_t)next_random(&seed);

		switch (shape) {
		case 1: v[i].key = (uint32_t)i; break;
		case 2: v[i].key = (uint32_t)(n - i); break;
		case 3: v[i].key = (uint32_t)(i % (n / 4 + 1)) * 3 + r % 3;
			break;
		case 4: v[i].key = r % 5; break;
		default: v[i].key = r; break;
		}
		v[i].seq = (uint32_t)i;
	}
	memcpy(w, v, n * sizeof(*v));
	pv_sort_runs(v, n, sizeof(*v), cmp_item);
	reference(w, n);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(v[i].key, w[i].key);
		ck_assert_uint_eq(v[i].seq, w[i].seq);
	}
	free(v);
	free(w);
}

START_TEST(test_sort)
{
	static const size_t size[] = { 0, 1, 2, 3, 7, 64, 1000, 3001 };
	size_t i;
	int shape;

	for (i = 0; i < sizeof(size) / sizeof(size[0]); i++) {
		for (shape = 0; shape <= 4; shape++)
			check(size[i], shape, 88172645463325252ULL + i);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sort");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_sort);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
