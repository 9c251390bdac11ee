/*
 * check_classifier: the staged false-discovery control on p-values worked by
 * hand, the classes, the severity formula and the systematic rule.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classifier.h"

static struct pv_str
S(const char *s)
{
	struct pv_str r = { s, strlen(s) };

	return r;
}

/* a clean comparison with the given change, interval and p */
static struct pv_cmp
cmp(const char *suite, const char *test, uint64_t level, double change,
    double half, double p)
{
	struct pv_cmp c;

	memset(&c, 0, sizeof(c));
	c.key.role = S("v1");
	c.key.version = S("v2");
	c.key.experiment = S("e");
	c.key.suite = S(suite);
	c.key.test = S(test);
	c.key.operation = S("o");
	c.key.metric = S("m");
	c.key.unit = S("u");
	c.key.level = level;
	c.nb = c.nt = 10;
	c.change = change;
	c.lo = change - half;
	c.hi = change + half;
	c.se = half / 2.1;
	c.df = 18;
	c.boot_lo = c.lo;
	c.boot_hi = c.hi;
	c.p_welch = p;
	c.p_mwu = p;
	c.cliff = change < 0 ? -1 : 1;
	c.g = change / c.se;
	c.rcv_b = c.rcv_t = 0.01;
	return c;
}

static struct pv_classifier cl;

static void
setup(void)
{
	struct pv_classifier_opts o = PV_CLASSIFIER_OPTS_INIT;

	pv_classifier_init(&cl, &o);
}

static void
teardown(void)
{
	pv_classifier_release(&cl);
}

START_TEST(test_fdr_one_test)
{
	struct pv_cmp a = cmp("s", "t", 1, -0.1, 0.01, 0.01);
	struct pv_cmp b = cmp("s", "t", 2, -0.1, 0.01, 0.02);
	struct pv_cmp c = cmp("s", "t", 3, -0.1, 0.01, 0.5);

	pv_classifier_add(&cl, &a);
	pv_classifier_add(&cl, &b);
	pv_classifier_add(&cl, &c);
	pv_classifier_run(&cl);
	/* Simes 0.03 for the suite and the test; BH 0.03 0.03 0.5 */
	ck_assert_double_eq_tol(cl.v[0].qvalue, 0.03, 1e-15);
	ck_assert_double_eq_tol(cl.v[1].qvalue, 0.03, 1e-15);
	ck_assert_double_eq_tol(cl.v[2].qvalue, 0.5, 1e-15);
}
END_TEST

START_TEST(test_fdr_two_tests)
{
	struct pv_cmp a = cmp("s", "a", 1, -0.1, 0.01, 0.001);
	struct pv_cmp b = cmp("s", "b", 1, -0.1, 0.01, 0.9);

	pv_classifier_add(&cl, &b);
	pv_classifier_add(&cl, &a);
	pv_classifier_run(&cl);
	/* suite Simes 0.002; tests BH 0.002 0.9: one of two selected, so
	 * the selected test's key is held to q / 2 */
	ck_assert(pv_str_eq(cl.v[0].cmp.key.test, "a"));
	ck_assert_double_eq_tol(cl.v[0].qvalue, 0.002, 1e-15);
	ck_assert_double_eq_tol(cl.v[1].qvalue, 0.9, 1e-15);
	ck_assert_int_eq(cl.v[0].cls, PV_CLASS_REGRESSION);
	ck_assert_int_eq(cl.v[1].cls, PV_CLASS_UNCERTAIN);
}
END_TEST

START_TEST(test_classes)
{
	struct pv_cmp c[6];
	size_t i;

	c[0] = cmp("s", "reg", 1, log(0.95), 0.01, 1e-6);
	c[1] = cmp("s", "imp", 1, log(1.05), 0.01, 1e-6);
	c[2] = cmp("s", "same", 1, 0.001, 0.01, 0.8);
	c[3] = cmp("s", "small", 1, log(0.99), 0.005, 1e-5);
	c[4] = cmp("s", "wide", 1, log(0.97), 0.06, 0.2);
	c[5] = cmp("s", "few", 1, log(0.9), 0.01, 1e-5);
	c[5].nt = 2;
	for (i = 0; i < 6; i++)
		pv_classifier_add(&cl, &c[i]);
	pv_classifier_run(&cl);
	/* sorted by test: few imp reg same small wide */
	ck_assert_int_eq(cl.v[0].cls, PV_CLASS_UNCERTAIN);
	ck_assert(strstr(cl.v[0].reason, "too few runs") != NULL);
	ck_assert_int_eq(cl.v[1].cls, PV_CLASS_IMPROVEMENT);
	ck_assert_int_eq(cl.v[1].band, PV_BAND_NONE);
	ck_assert_int_eq(cl.v[2].cls, PV_CLASS_REGRESSION);
	ck_assert_int_eq(cl.v[3].cls, PV_CLASS_NO_CHANGE);
	/* significant, but 1% is inside the 2% threshold and the band */
	ck_assert_int_eq(cl.v[4].cls, PV_CLASS_NO_CHANGE);
	ck_assert_int_eq(cl.v[5].cls, PV_CLASS_UNCERTAIN);
	ck_assert(cl.v[5].runs > 10);
	ck_assert_int_eq(pv_classifier_worst(&cl), cl.v[2].band);
}
END_TEST

START_TEST(test_severity)
{
	struct pv_cmp c = cmp("s", "t", 1, log(0.96), 0.01, 1e-6);
	double m, want;

	pv_classifier_add(&cl, &c);
	pv_classifier_run(&cl);
	ck_assert_int_eq(cl.v[0].cls, PV_CLASS_REGRESSION);
	/* M = |ln .96| / ln 1.08, C = 1, E = 1, K = 0.5 (one level) */
	m = fabs(log(0.96)) / log(1.08);
	want = 100 * sqrt(m) * (0.4 + 0.6 * (1 + 1 + 0.5) / 3);
	ck_assert_int_eq(cl.v[0].severity, (int)lround(want));
	ck_assert_int_eq(cl.v[0].band, want >= 60 ? PV_BAND_RED :
			 PV_BAND_YELLOW);
}
END_TEST

START_TEST(test_systematic)
{
	struct pv_cmp c;
	uint64_t l;

	for (l = 1; l <= 4; l++) {
		c = cmp("s", "all", l, log(0.94), 0.02, 1e-5);
		pv_classifier_add(&cl, &c);
		/* one level regresses, the others barely move */
		c = cmp("s", "one", l, l == 1 ? log(0.94) : 0.002, 0.02,
			l == 1 ? 1e-5 : 0.8);
		pv_classifier_add(&cl, &c);
	}
	pv_classifier_run(&cl);
	ck_assert_uint_eq(cl.ng, 2);
	ck_assert(cl.g[0].systematic);	/* "all" sorts first */
	ck_assert_uint_eq(cl.g[0].regressed, 4);
	ck_assert(!cl.g[1].systematic);
	ck_assert_int_eq(cl.v[0].band, PV_BAND_RED);
}
END_TEST

static double
pct(double d)
{
	return 100 * (exp(d) - 1);
}

/* the next of a fixed pseudo-random sequence in [0, 1) */
static double
uniform(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (double)(*x >> 11) / 9007199254740992.0;
}

/*
 * The reason texts are printf's: pv-classify builds them without printf
 * (its cost), so compare each with snprintf() of the same numbers, over
 * comparisons spread across the classes, with changes on a grid of
 * 0.005% (half of them at the rounding ties of "%.2f", give or take the
 * binary error).
 */
START_TEST(test_reason_texts)
{
	const struct pv_classifier_opts *o = &cl.opt;
	char name[32], want[256];
	uint64_t x = 88172645463325252ULL;
	size_t i, n = 3000, checked = 0;

	for (i = 0; i < n; i++) {
		double d = log1p((floor(uniform(&x) * 4800) - 2400) / 20000);
		struct pv_cmp c;

		snprintf(name, sizeof(name), "t%zu", i);
		c = cmp("s", name, 1, d, 0.001 + 0.08 * uniform(&x),
			pow(10, -5 * uniform(&x)));
		if (i % 7 == 0)
			c.rcv_t = 0.3 * uniform(&x);
		if (i % 11 == 0) {
			c.out_b = 4;
			c.p_mwu = 0.06 + uniform(&x);
		}
		if (i % 13 == 0)
			c.nt = 2;
		if (i % 17 == 0)
			c.cliff = uniform(&x) - 0.5;
		pv_classifier_add(&cl, &c);
	}
	pv_classifier_run(&cl);
	for (i = 0; i < n; i++) {
		const struct pv_verdict *v = &cl.v[i];
		const struct pv_cmp *c = &v->cmp;

		want[0] = '\0';
		if (v->cls == PV_CLASS_REGRESSION)
			snprintf(want, sizeof(want), "%.2f%% worse, interval "
				 "%.2f%% to %.2f%%", -pct(c->change),
				 -pct(c->hi), -pct(c->lo));
		else if (v->cls == PV_CLASS_IMPROVEMENT)
			snprintf(want, sizeof(want), "%.2f%% better, interval "
				 "%.2f%% to %.2f%%", pct(c->change),
				 pct(c->lo), pct(c->hi));
		else if (v->cls == PV_CLASS_NO_CHANGE)
			snprintf(want, sizeof(want), "interval %.2f%% to "
				 "%.2f%% inside the +-%.0f%% band", pct(c->lo),
				 pct(c->hi), 100 * o->delta_eq);
		else if (strncmp(v->reason, "too few", 7) == 0)
			snprintf(want, sizeof(want), "too few runs (%zu and "
				 "%zu, at least %zu needed)", c->nb, c->nt,
				 o->min_runs);
		else if (strncmp(v->reason, "unstable", 8) == 0)
			snprintf(want, sizeof(want), "unstable: robust CV "
				 "%.1f%% and %.1f%% (limit %.1f%%)",
				 100 * c->rcv_b, 100 * c->rcv_t,
				 100 * o->cv_max);
		else if (strncmp(v->reason, "outliers", 8) == 0)
			snprintf(want, sizeof(want), "outliers: %zu of %zu and "
				 "%zu of %zu runs, and the rank test disagrees "
				 "(p %.2g)", c->out_b, c->nb, c->out_t, c->nt,
				 c->p_mwu);
		else if (strncmp(v->reason, "significant but", 15) == 0)
			snprintf(want, sizeof(want), "significant but %.2f%% "
				 "is inside the %.0f%% threshold",
				 pct(c->change), 100 * o->delta);
		else if (strncmp(v->reason, "runs disagree", 13) == 0)
			snprintf(want, sizeof(want), "runs disagree in order "
				 "(Cliff's delta %.2f)", c->cliff);
		else if (strncmp(v->reason, "not significant", 15) == 0)
			snprintf(want, sizeof(want), "not significant after "
				 "FDR control (q-value %.3g)", v->qvalue);
		else if (strncmp(v->reason, "interval", 8) == 0)
			snprintf(want, sizeof(want), "interval %.2f%% to "
				 "%.2f%% includes no change and a %.0f%% "
				 "change",
				 pct(c->lo), pct(c->hi), 100 * o->delta_eq);
		if (want[0] == '\0')
			continue;
		ck_assert_str_eq(v->reason, want);
		checked++;
	}
	ck_assert_uint_gt(checked, n * 9 / 10);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("classifier");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_fdr_one_test);
	tcase_add_test(tc, test_fdr_two_tests);
	tcase_add_test(tc, test_classes);
	tcase_add_test(tc, test_severity);
	tcase_add_test(tc, test_systematic);
	tcase_add_test(tc, test_reason_texts);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
