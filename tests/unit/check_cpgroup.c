/*
 * check_cpgroup: which change points fail a job, and the groups of an
 * operation's change points across its levels: between the same versions
 * only, two levels or more, in order, with the range of their changes and
 * the flags all of them have.
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "cpgroup.h"
#include "rec_check.h"

static struct pv_changepoint
cp(const char *test, uint64_t level, const char *before, const char *after,
   double change, unsigned flags)
{
	struct pv_changepoint c;

	memset(&c, 0, sizeof(c));
	c.key.experiment = S("x");
	c.key.suite = S("s");
	c.key.test = S(test);
	c.key.operation = S("o");
	c.key.metric = S("m");
	c.key.unit = S("u");
	c.key.level = level;
	c.before = S(before);
	c.after = S(after);
	c.change = change;
	c.lo = change - 0.01;
	c.hi = change + 0.01;
	c.p = 1e-6;
	c.flags = flags;
	return c;
}

START_TEST(test_fails)
{
	struct pv_changepoint c = cp("t", 1, "v1", "v2", -0.1,
				     PV_CHANGEPOINT_NEWEST);

	ck_assert_int_eq(pv_changepoint_fails(&c), 1);
	c.flags |= PV_CHANGEPOINT_KNOWN;
	ck_assert_int_eq(pv_changepoint_fails(&c), 0);
	c.flags = PV_CHANGEPOINT_NEWEST;
	c.change = 0.1;
	ck_assert_int_eq(pv_changepoint_fails(&c), 0);
	c.change = -0.1;
	c.flags = 0;
	ck_assert_int_eq(pv_changepoint_fails(&c), 0);
}
END_TEST

START_TEST(test_outlier_fails)
{
	struct pv_outlier o;

	memset(&o, 0, sizeof(o));
	o.change = -0.1;
	o.flags = PV_CHANGEPOINT_NEWEST;
	ck_assert_int_eq(pv_outlier_fails(&o), 1);
	o.flags |= PV_CHANGEPOINT_KNOWN;
	ck_assert_int_eq(pv_outlier_fails(&o), 0);
	o.flags = PV_CHANGEPOINT_NEWEST;
	o.change = 0.1;
	ck_assert_int_eq(pv_outlier_fails(&o), 0);
	o.change = -0.1;
	o.flags = 0;
	ck_assert_int_eq(pv_outlier_fails(&o), 0);
}
END_TEST

START_TEST(test_groups)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_cpgroups g;
	struct pv_changepoint c;

	pv_cpgroups_init(&g);
	/* levels 4 and 1 of t between v1 and v2, given out of order */
	c = cp("t", 4, "v1", "v2", -0.05, PV_CHANGEPOINT_NEWEST);
	pv_cpgroups_add(&g, &c);
	c = cp("u", 1, "v1", "v2", -0.2, 0);
	pv_cpgroups_add(&g, &c);
	c = cp("t", 1, "v1", "v2", -0.08, PV_CHANGEPOINT_NEWEST |
	       PV_CHANGEPOINT_KNOWN);
	pv_cpgroups_add(&g, &c);
	/* level 2 of t changed one version later: not grouped */
	c = cp("t", 2, "v2", "v3", -0.06, 0);
	pv_cpgroups_add(&g, &c);
	/* v and w: the absent level and level 8 */
	c = cp("v", PV_NONE, "a", "b", 0.03, 0);
	pv_cpgroups_add(&g, &c);
	c = cp("v", 8, "a", "b", 0.05, 0);
	pv_cpgroups_add(&g, &c);
	ck_assert_uint_eq(g.ncp, 6);
	ck_assert_uint_eq(g.failing, 1);
	pv_cpgroups_write(&g, &sb);
	ck_assert_str_eq(sb.buf,
			 "cpgroup\tx\ts\tt\to\tm\tu\thigher\tv1\tv2\t2\t1,4\t"
			 "-0.08\t-0.05\tnewest\n"
			 "cpgroup\tx\ts\tv\to\tm\tu\thigher\ta\tb\t2\t-,8\t"
			 "0.03\t0.05\t-\n");
	pv_strbuf_release(&sb);
	pv_cpgroups_release(&g);
}
END_TEST

START_TEST(test_none)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_cpgroups g;

	pv_cpgroups_init(&g);
	pv_cpgroups_write(&g, &sb);
	ck_assert_uint_eq(sb.len, 0);
	pv_cpgroups_release(&g);
	pv_strbuf_release(&sb);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cpgroup");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fails);
	tcase_add_test(tc, test_outlier_fails);
	tcase_add_test(tc, test_groups);
	tcase_add_test(tc, test_none);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
