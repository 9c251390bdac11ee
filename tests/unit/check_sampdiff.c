/*
 * check_sampdiff: one comparison on known runs, orientation, flags, the
 * cmp record's round trip, and the comparability of sections.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampdiff.h"
#include "rec_cmp.h"

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

START_TEST(test_roundtrip)
{
	struct pv_cmp_opts o = PV_CMP_OPTS_INIT;
	struct pv_runkey k = key(PV_HIGHER_BETTER);
	struct pv_strbuf sb = PV_STRBUF_INIT, sb2 = PV_STRBUF_INIT;
	struct pv_str fld[40];
	struct pv_record rec;
	struct pv_cmp c, d;
	struct pv_err err = PV_ERR_INIT;
	char *p, *q;
	size_t n = 0;

	pv_cmp_compute(&k, B, 5, T, 2, &o, &c);
	pv_rec_cmp_write(&sb, &c);
	pv_strbuf_setlen(&sb, sb.len - 1);	/* the newline */
	for (p = sb.buf; (q = strchr(p, '\t')) != NULL; p = q + 1)
		fld[n++] = (struct pv_str){ p, (size_t)(q - p) };
	fld[n++] = S(p);
	memset(&rec, 0, sizeof(rec));
	rec.type = PV_REC_OTHER;
	rec.field = fld;
	rec.nfield = n;
	ck_assert_int_eq(pv_rec_cmp_parse(&rec, &d, &err), 0);
	pv_rec_cmp_write(&sb2, &d);
	pv_strbuf_setlen(&sb2, sb2.len - 1);
	ck_assert_str_eq(sb.buf, sb2.buf);
	ck_assert_uint_eq(d.flags, PV_CMP_FEW_RUNS);
	rec.nfield = 5;
	ck_assert_int_eq(pv_rec_cmp_parse(&rec, &d, &err), -1);
	ck_assert_str_eq(pv_err_msg(&err), "a cmp record has 29 fields, not 5");
	pv_strbuf_release(&sb);
	pv_strbuf_release(&sb2);
}
END_TEST

START_TEST(test_kvset)
{
	struct pv_kvset a, b;
	struct pv_strbuf why = PV_STRBUF_INIT;
	const char *ign[] = { "os-release", "env.cpu*" };

	pv_kvset_init(&a);
	pv_kvset_init(&b);
	pv_kvset_add(&a, S("meta"), S("param.threads"), S("4"));
	pv_kvset_add(&b, S("meta"), S("param.threads"), S("8"));
	pv_kvset_add(&a, S("env"), S("os-release"), S("6.1"));
	pv_kvset_add(&b, S("env"), S("os-release"), S("6.2"));
	pv_kvset_add(&a, S("env"), S("cpudesc"), S("EPYC"));
	pv_kvset_add(&b, S("env"), S("cpudesc"), S("Xeon"));
	pv_kvset_add(&b, S("meta"), S("kconfig"), S("abc"));
	pv_kvset_add(&a, S("meta"), S("cc"), S("gcc-12"));
	pv_kvset_add(&a, S("meta"), S("cc"), S("gcc-13"));
	ck_assert_uint_eq(pv_kvset_diff(&a, &b, ign, 2, &why), 3);
	ck_assert_str_eq(why.buf, "meta 'cc' ('(several values)' vs "
			 "'(none)'), meta 'kconfig' ('(none)' vs 'abc'), "
			 "meta 'param.threads' ('4' vs '8')");
	pv_strbuf_release(&why);
	pv_kvset_release(&a);
	pv_kvset_release(&b);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sampdiff");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_change);
	tcase_add_test(tc, test_flags);
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_kvset);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
