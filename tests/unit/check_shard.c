/*
 * check_shard: the key shard of a test is FNV-1a (32 bits) of SUITE TAB
 * TEST mod N, the values of an independent implementation (Python's, in
 * the comments), so that a shard cut by another tool agrees.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rec_check.h"
#include "shard.h"

START_TEST(test_hash)
{
	/* FNV-1a("\t"): the empty suite and test */
	ck_assert_uint_eq(pv_shard_hash(S(""), S("")), 202139684u);
	/* "foo\tbar" */
	ck_assert_uint_eq(pv_shard_hash(S("foo"), S("bar")), 586106491u);
	/* "suite0\ttest0", as tests/bench/gen-fleet.awk names them */
	ck_assert_uint_eq(pv_shard_hash(S("suite0"), S("test0")),
			  372093848u);
	/* bytes, not characters: "\xc3\xa9\tx" */
	ck_assert_uint_eq(pv_shard_hash(S("\xc3\xa9"), S("x")), 423850464u);
	/* the TAB parts the fields: "a\tbc" is not "ab\tc" */
	ck_assert_uint_ne(pv_shard_hash(S("a"), S("bc")),
			  pv_shard_hash(S("ab"), S("c")));
}
END_TEST

START_TEST(test_of)
{
	ck_assert_uint_eq(pv_shard_of(S("foo"), S("bar"), 7), 5u);
	ck_assert_uint_eq(pv_shard_of(S("suite0"), S("test0"), 4), 0u);
	ck_assert_uint_eq(pv_shard_of(S("foo"), S("bar"), 1), 0u);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("shard");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_hash);
	tcase_add_test(tc, test_of);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
