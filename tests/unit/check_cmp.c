/*
 * check_cmp: one comparison on known runs, its orientation and its
 * stability flags.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmp.h"

static struct pv_str
S(const char *s)
{
	struct pv_str r = { s, strlen(s) };

	return r;
}

static struct pv_runkey
key(enum pv_direction d)
{
	struct pv_runkey k;

	memset(&k, 0, sizeof(k));
	k.role = S("v1");
	k.version = S("v2");
	k.experiment = S("e");
	k.suite = S("s");
	k.test = S("t");
	k.operation = S("o");
	k.metric = S("m");
	k.unit = S("u");
	k.direction = d;
	k.level = 4;
	return k;
}

static const double B[] = { 100, 102, 98, 101, 99 };
static const double T[] = { 90, 91.5, 88, 91, 89.5 };

static double
mean_log(const double *v, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += log(v[i]);
	return s / (double)n;
}

START_TEST(test_change)
{
	struct pv_cmp_opts o = PV_CMP_OPTS_INIT;
	struct pv_runkey k = key(PV_HIGHER_BETTER);
	struct pv_cmp c;
	double d = mean_log(T, 5) - mean_log(B, 5);

	pv_cmp_compute(&k, B, 5, T, 5, &o, &c);
	ck_assert_double_eq_tol(c.change, d, 1e-15);
	ck_assert(c.hi < 0 && c.lo < c.change && c.change < c.hi);
	ck_assert(c.boot_lo <= c.boot_hi && c.boot_hi < 0);
	ck_assert_double_eq(c.cliff, -1);
	ck_assert(c.g < 0 && c.p_welch < 0.001);
	ck_assert_double_eq_tol(c.p_mwu, 2.0 / 252, 1e-15);
	ck_assert_uint_eq(c.flags, 0);
	/* lower is better: the same runs are an improvement */
	k = key(PV_LOWER_BETTER);
	pv_cmp_compute(&k, B, 5, T, 5, &o, &c);
	ck_assert_double_eq_tol(c.change, -d, 1e-15);
	ck_assert(c.lo > 0 && c.cliff == 1);
}
END_TEST

START_TEST(test_flags)
{
	struct pv_cmp_opts o = PV_CMP_OPTS_INIT;
	struct pv_runkey k = key(PV_HIGHER_BETTER);
	static const double same[] = { 5, 5, 5 }, wide[] = { 1, 2, 4, 8 };
	static const double neg[] = { 1, -1, 2 };
	struct pv_cmp c;

	pv_cmp_compute(&k, B, 5, NULL, 0, &o, &c);
	ck_assert_uint_eq(c.flags, PV_CMP_BASE_ONLY | PV_CMP_FEW_RUNS);
	ck_assert(isnan(c.change) && isnan(c.p_welch));
	pv_cmp_compute(&k, B, 2, T, 1, &o, &c);
	ck_assert_uint_eq(c.flags, PV_CMP_FEW_RUNS);
	ck_assert(!isnan(c.change) && isnan(c.lo) && isnan(c.p_welch));
	pv_cmp_compute(&k, same, 3, same, 3, &o, &c);
	ck_assert_uint_eq(c.flags, PV_CMP_ZERO_VAR);
	ck_assert(c.change == 0 && c.p_welch == 1 && c.lo == 0);
	pv_cmp_compute(&k, wide, 4, wide, 4, &o, &c);
	ck_assert(c.flags & PV_CMP_UNSTABLE);
	pv_cmp_compute(&k, neg, 3, B, 5, &o, &c);
	ck_assert(c.flags & PV_CMP_NONPOSITIVE);
	ck_assert(isnan(c.change));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cmp");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_change);
	tcase_add_test(tc, test_flags);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
