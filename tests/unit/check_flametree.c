/*
 * check_flametree: the two-sided call tree keeps every path's weights and
 * its totals, shares common prefixes (also when a stack goes back to a
 * path left before), gives exclusive weights, and saturates instead of
 * wrapping; weights given to end nodes and then summed are the same.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "flametree.h"

static uint32_t
find(const struct pv_flametree *t, uint32_t parent, uint32_t name)
{
	uint32_t c;

	for (c = t->node[parent].child; c != PV_FLAMETREE_NONE;
	     c = t->node[c].sibling)
		if (t->node[c].name == name)
			return c;
	return PV_FLAMETREE_NONE;
}

START_TEST(test_paths)
{
	struct pv_flametree t;
	static const uint32_t a[] = { 1, 2, 3 }, b[] = { 1, 2 }, c[] = { 1, 4 };
	uint32_t n1, n2, n3, n4;

	pv_flametree_init(&t);
	pv_flametree_add(&t, a, 3, 5, 0);
	pv_flametree_add(&t, b, 2, 1, 7);
	pv_flametree_add(&t, c, 2, 0, 2);
	pv_flametree_add(&t, a, 3, 1, 1);
	pv_flametree_add(&t, NULL, 0, 3, 4);	/* an empty stack: the root */
	ck_assert_uint_eq(t.nnode, 5);
	ck_assert_uint_eq(t.node[0].w[0], 10);
	ck_assert_uint_eq(t.node[0].w[1], 14);
	n1 = find(&t, 0, 1);
	n2 = find(&t, n1, 2);
	n3 = find(&t, n2, 3);
	n4 = find(&t, n1, 4);
	ck_assert_uint_ne(n3, PV_FLAMETREE_NONE);
	ck_assert_uint_eq(t.node[n1].w[0], 7);
	ck_assert_uint_eq(t.node[n1].w[1], 10);
	ck_assert_uint_eq(t.node[n2].w[0], 7);
	ck_assert_uint_eq(t.node[n2].w[1], 8);
	ck_assert_uint_eq(t.node[n3].w[0], 6);
	ck_assert_uint_eq(t.node[n3].w[1], 1);
	ck_assert_uint_eq(t.node[n4].w[1], 2);
	ck_assert_uint_eq(t.node[n3].parent, n2);
	ck_assert_uint_eq(t.depth, 3);
	ck_assert_int_eq(t.overflow, 0);
	pv_flametree_release(&t);
}
END_TEST

START_TEST(test_many)
{
	struct pv_flametree t;
	uint32_t f[2], i;

	/* enough children of one parent to grow the table several times */
	pv_flametree_init(&t);
	for (i = 0; i < 20000; i++) {
		f[0] = i % 7;
		f[1] = i;
		pv_flametree_add(&t, f, 2, 1, 2);
	}
	for (i = 0; i < 20000; i++)
		pv_flametree_add(&t, (f[0] = i % 7, f[1] = i, f), 2, 1, 0);
	ck_assert_uint_eq(t.nnode, 1 + 7 + 20000);
	ck_assert_uint_eq(t.node[0].w[0], 40000);
	ck_assert_uint_eq(t.node[0].w[1], 40000);
	ck_assert_uint_eq(t.node[find(&t, find(&t, 0, 3), 10)].w[0], 2);
	pv_flametree_release(&t);
}
END_TEST

START_TEST(test_saturate)
{
	struct pv_flametree t;
	static const uint32_t a[] = { 9 };

	pv_flametree_init(&t);
	pv_flametree_add(&t, a, 1, UINT64_MAX - 1, 0);
	pv_flametree_add(&t, a, 1, 5, 1);
	ck_assert_uint_eq(t.node[0].w[0], UINT64_MAX);
	ck_assert_uint_eq(t.node[0].w[1], 1);
	ck_assert_int_eq(t.overflow, 1);
	pv_flametree_release(&t);
}
END_TEST

/*
 * Past the limit of call paths (lowered here): the stack that would pass
 * it is refused with a message, known paths still gain weight.
 */
START_TEST(test_limit)
{
	struct pv_flametree t;
	static const uint32_t a[] = { 1, 2 }, b[] = { 1, 3 }, c[] = { 1 };

	pv_flametree_init(&t);
	ck_assert_uint_eq(t.max, PV_FLAMETREE_MAX);
	t.max = 2;
	ck_assert_int_eq(pv_flametree_add(&t, a, 2, 1, 0), 0);
	ck_assert_int_eq(pv_flametree_add(&t, b, 2, 1, 0), -1);
	ck_assert_str_eq(pv_err_msg(&t.err),
			 "too many distinct call paths (more than 2)");
	ck_assert_uint_eq(t.nnode, 3);
	ck_assert_int_eq(pv_flametree_add(&t, c, 1, 0, 5), 0);
	ck_assert_int_eq(pv_flametree_add(&t, a, 2, 0, 1), 0);
	ck_assert_uint_eq(t.node[1].w[1], 6);
	pv_flametree_release(&t);

	setenv("PV_TEST_MAX_PATHS", "4", 1);
	pv_flametree_init(&t);
	ck_assert_uint_eq(t.max, 4);
	pv_flametree_release(&t);
	unsetenv("PV_TEST_MAX_PATHS");
}
END_TEST

START_TEST(test_last_path)
{
	struct pv_flametree t;
	static const uint32_t a[] = { 1, 2, 3 }, b[] = { 1, 4 };
	static const uint32_t c[] = { 1, 2, 5 }, d[] = { 1, 2 };
	uint32_t n1, n2;

	/* back to a path left before: found again, not made twice */
	pv_flametree_init(&t);
	pv_flametree_add(&t, a, 3, 1, 0);
	pv_flametree_add(&t, b, 2, 2, 0);
	pv_flametree_add(&t, c, 3, 4, 1);
	pv_flametree_add(&t, d, 2, 8, 2);
	pv_flametree_add(&t, a, 3, 16, 4);
	ck_assert_uint_eq(t.nnode, 6);
	n1 = find(&t, 0, 1);
	n2 = find(&t, n1, 2);
	ck_assert_uint_eq(t.node[n2].w[0], 29);
	ck_assert_uint_eq(t.node[find(&t, n2, 3)].w[0], 17);
	ck_assert_uint_eq(t.node[find(&t, n2, 5)].w[1], 1);
	/* exclusive weights: the stacks that end at a node */
	ck_assert_uint_eq(pv_flametree_self(&t, n2, 0), 8);
	ck_assert_uint_eq(pv_flametree_self(&t, n2, 1), 2);
	ck_assert_uint_eq(pv_flametree_self(&t, n1, 0), 0);
	ck_assert_uint_eq(pv_flametree_self(&t, find(&t, n1, 4), 0), 2);
	ck_assert_uint_eq(pv_flametree_self(&t, 0, 0), 0);
	pv_flametree_release(&t);
}
END_TEST

/* Weights given to the end nodes only, then summed: as pv_flametree_add(). */
START_TEST(test_add_end)
{
	struct pv_flametree t, u;
	static const uint32_t a[] = { 1, 2, 3 }, b[] = { 1, 2 }, c[] = { 1, 4 };
	uint32_t e;
	size_t i;

	pv_flametree_init(&t);
	pv_flametree_init(&u);
	pv_flametree_reserve(&t, 3000);
	ck_assert_uint_ge(t.alloc, 3000);
	e = pv_flametree_add_end(&t, a, 3, 5, 0);
	ck_assert_uint_eq(t.node[e].name, 3);
	ck_assert_uint_eq(t.node[e].w[0], 5);
	ck_assert_uint_eq(t.node[0].w[0], 0);
	pv_flametree_add_end(&t, b, 2, 1, 7);
	pv_flametree_add_end(&t, c, 2, 0, 2);
	ck_assert_uint_eq(pv_flametree_add_end(&t, a, 3, 1, 1), e);
	ck_assert_uint_eq(pv_flametree_add_end(&t, NULL, 0, 3, 4), 0);
	pv_flametree_sum(&t);
	pv_flametree_add(&u, a, 3, 5, 0);
	pv_flametree_add(&u, b, 2, 1, 7);
	pv_flametree_add(&u, c, 2, 0, 2);
	pv_flametree_add(&u, a, 3, 1, 1);
	pv_flametree_add(&u, NULL, 0, 3, 4);
	ck_assert_uint_eq(t.nnode, u.nnode);
	for (i = 0; i < t.nnode; i++) {
		ck_assert_uint_eq(t.node[i].name, u.node[i].name);
		ck_assert_uint_eq(t.node[i].parent, u.node[i].parent);
		ck_assert_uint_eq(t.node[i].w[0], u.node[i].w[0]);
		ck_assert_uint_eq(t.node[i].w[1], u.node[i].w[1]);
	}
	ck_assert_uint_eq(pv_flametree_self(&t, e, 0), 6);
	ck_assert_uint_eq(t.depth, 3);
	pv_flametree_release(&t);
	pv_flametree_release(&u);
}
END_TEST

/* The last stack's frames, known: the nodes pv_flametree_add_end() finds */
START_TEST(test_add_end_known)
{
	struct pv_flametree t, u;
	static const uint32_t a[] = { 1, 2, 3 }, b[] = { 1, 2, 5, 6 },
		c[] = { 1, 2, 5, 7 }, e[] = { 1, 4 };
	size_t i;

	pv_flametree_init(&t);
	pv_flametree_init(&u);
	pv_flametree_add_end_known(&t, a, 3, 0, 1, 0);
	pv_flametree_add_end_known(&t, b, 4, 2, 2, 0);
	pv_flametree_add_end_known(&t, c, 4, 3, 0, 3);
	pv_flametree_add_end_known(&t, c, 4, 4, 0, 1);
	pv_flametree_add_end_known(&t, e, 2, 1, 4, 4);
	pv_flametree_add_end_known(&t, a, 3, 0, 1, 1);
	pv_flametree_add_end(&u, a, 3, 1, 0);
	pv_flametree_add_end(&u, b, 4, 2, 0);
	pv_flametree_add_end(&u, c, 4, 0, 3);
	pv_flametree_add_end(&u, c, 4, 0, 1);
	pv_flametree_add_end(&u, e, 2, 4, 4);
	pv_flametree_add_end(&u, a, 3, 1, 1);
	ck_assert_uint_eq(t.nnode, u.nnode);
	for (i = 0; i < t.nnode; i++) {
		ck_assert_uint_eq(t.node[i].name, u.node[i].name);
		ck_assert_uint_eq(t.node[i].parent, u.node[i].parent);
		ck_assert_uint_eq(t.node[i].w[0], u.node[i].w[0]);
		ck_assert_uint_eq(t.node[i].w[1], u.node[i].w[1]);
	}
	pv_flametree_release(&t);
	pv_flametree_release(&u);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("flametree");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_paths);
	tcase_add_test(tc, test_many);
	tcase_add_test(tc, test_saturate);
	tcase_add_test(tc, test_limit);
	tcase_add_test(tc, test_last_path);
	tcase_add_test(tc, test_add_end);
	tcase_add_test(tc, test_add_end_known);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
