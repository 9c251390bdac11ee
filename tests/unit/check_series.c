/*
 * check_series: the change-point analysis on small fixed series: a step,
 * two steps, an outlier, constant data, one run per version, a drift, a
 * change at the newest version, the threshold, incremental analysis
 * giving what the whole series gives, and an outlier's two cuts judged
 * together.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"

/* a fixed "noise" of log deviations, about 2 % apart */
static const double noise[16] = {
	0.012, -0.021, 0.004, 0.027, -0.008, -0.016, 0.019, -0.002,
	-0.025, 0.009, 0.015, -0.011, 0.001, -0.019, 0.023, -0.006
};

/* level(i): the log level of version i */
typedef double (*level_fn)(size_t i);

/* A series of v versions of n runs each, scaled noise about level(). */
static void
build(struct pv_series *s, size_t v, unsigned n, double scale,
      level_fn level)
{
	size_t i;
	unsigned r;

	pv_series_init(s);
	for (i = 0; i < v; i++) {
		struct pv_series_point p = { n, 0, 0 };
		double x[16];

		for (r = 0; r < n; r++) {
			x[r] = level(i) + scale * noise[(i * 7 + r * 3) % 16];
			p.mean += x[r];
		}
		p.mean /= n;
		for (r = 0; r < n; r++)
			p.ss += (x[r] - p.mean) * (x[r] - p.mean);
		pv_series_add(s, &p);
	}
}

static struct pv_series_result res;
static const struct pv_series_opts def = PV_SERIES_OPTS_INIT;

static void
setup(void)
{
	pv_series_result_init(&res);
}

static void
teardown(void)
{
	pv_series_result_release(&res);
}

static double flat(size_t i) { (void)i; return 0; }
static double step10(size_t i) { return i >= 10 ? log(0.95) : 0; }
static double
two_steps(size_t i)
{
	return i >= 20 ? log(0.95) + log(1.08) : i >= 10 ? log(0.95) : 0;
}
static double one_off(size_t i) { return i == 12 ? log(0.90) : 0; }
static double first_off(size_t i) { return i == 0 ? log(1.10) : 0; }
static double newest(size_t i) { return i == 19 ? log(0.90) : 0; }
static double drift(size_t i) { return (double)i * log(0.995); }
static double small(size_t i) { return i >= 10 ? log(0.99) : 0; }
static double step15(size_t i) { return i >= 15 ? log(0.90) : 0; }

static void
one_change(size_t at, double want, double tol)
{
	const struct pv_series_event *e = &res.ev[0];

	ck_assert_uint_eq(res.nev, 1);
	ck_assert_int_eq(e->kind, PV_SERIES_CHANGE);
	ck_assert_uint_eq(e->at, at);
	ck_assert_uint_eq(e->before, at - 1);
	ck_assert_msg(fabs(e->change - want) < tol, "change %g, want %g",
		      e->change, want);
	ck_assert(e->lo < e->change && e->change < e->hi);
	ck_assert(e->p <= def.alpha);
	ck_assert_int_eq(res.has_trend, 0);
}

START_TEST(test_step)
{
	struct pv_series s;

	build(&s, 20, 5, 1, step10);
	pv_series_analyse(&s, &def, &res);
	one_change(10, log(0.95), 0.01);
	ck_assert_uint_eq(res.ev[0].nbefore, 10);
	ck_assert_uint_eq(res.ev[0].nafter, 10);
	pv_series_release(&s);
}
END_TEST

START_TEST(test_two_steps)
{
	struct pv_series s;

	build(&s, 30, 5, 1, two_steps);
	pv_series_analyse(&s, &def, &res);
	ck_assert_uint_eq(res.nev, 2);
	ck_assert_uint_eq(res.ev[0].at, 10);
	ck_assert_uint_eq(res.ev[1].at, 20);
	ck_assert(res.ev[0].change < 0 && res.ev[1].change > 0);
	ck_assert(fabs(res.ev[1].change - log(1.08)) < 0.01);
	ck_assert_uint_eq(res.ev[1].nbefore, 10);
	ck_assert_uint_eq(res.ev[1].nafter, 10);
	pv_series_release(&s);
}
END_TEST

START_TEST(test_outlier)
{
	struct pv_series s;

	build(&s, 20, 5, 1, one_off);
	pv_series_analyse(&s, &def, &res);
	ck_assert_uint_eq(res.nev, 1);
	ck_assert_int_eq(res.ev[0].kind, PV_SERIES_OUTLIER);
	ck_assert_uint_eq(res.ev[0].at, 12);
	ck_assert(fabs(res.ev[0].change - log(0.90)) < 0.01);
	ck_assert(res.ev[0].p <= def.alpha);
	ck_assert_int_eq(res.has_trend, 0);
	pv_series_release(&s);
}
END_TEST

START_TEST(test_first_outlier)
{
	struct pv_series s;

	build(&s, 20, 5, 1, first_off);
	pv_series_analyse(&s, &def, &res);
	ck_assert_uint_eq(res.nev, 1);
	ck_assert_int_eq(res.ev[0].kind, PV_SERIES_OUTLIER);
	ck_assert_uint_eq(res.ev[0].at, 0);
	ck_assert(res.ev[0].change > 0);
	pv_series_release(&s);
}
END_TEST

START_TEST(test_constant)
{
	struct pv_series s;

	/* no noise at all: nothing, then a step that is certain */
	build(&s, 20, 5, 0, flat);
	pv_series_analyse(&s, &def, &res);
	ck_assert_uint_eq(res.nev, 0);
	ck_assert_int_eq(res.has_trend, 0);
	pv_series_release(&s);
	build(&s, 20, 5, 0, step10);
	pv_series_analyse(&s, &def, &res);
	ck_assert_uint_eq(res.nev, 1);
	ck_assert_uint_eq(res.ev[0].at, 10);
	ck_assert(res.ev[0].p == 0);
	ck_assert(res.ev[0].lo == res.ev[0].change &&
		  res.ev[0].hi == res.ev[0].change);
	pv_series_release(&s);
	/* noise but no change */
	build(&s, 40, 5, 1, flat);
	pv_series_analyse(&s, &def, &res);
	ck_assert_uint_eq(res.nev, 0);
	ck_assert_int_eq(res.has_trend, 0);
	pv_series_release(&s);
}
END_TEST

START_TEST(test_one_run)
{
	struct pv_series s;

	/* one run a version: the versions' scatter is the noise */
	build(&s, 30, 1, 0.5, step15);
	pv_series_analyse(&s, &def, &res);
	one_change(15, log(0.90), 0.01);
	pv_series_release(&s);
	build(&s, 30, 1, 0.5, flat);
	pv_series_analyse(&s, &def, &res);
	ck_assert_uint_eq(res.nev, 0);
	pv_series_release(&s);
	/* two versions of one run: nothing to estimate the noise from */
	build(&s, 2, 1, 0.5, step15);
	pv_series_analyse(&s, &def, &res);
	ck_assert_uint_eq(res.nev, 0);
	pv_series_release(&s);
}
END_TEST

START_TEST(test_drift)
{
	struct pv_series s;

	build(&s, 30, 5, 1, drift);
	pv_series_analyse(&s, &def, &res);
	ck_assert_uint_eq(res.nev, 0);
	ck_assert_int_eq(res.has_trend, 1);
	ck_assert_uint_eq(res.trend.first, 0);
	ck_assert_uint_eq(res.trend.last, 29);
	ck_assert(fabs(res.trend.change - log(0.995)) < 0.001);
	ck_assert(res.trend.lo < res.trend.change &&
		  res.trend.change < res.trend.hi);
	ck_assert(res.trend.p <= def.alpha);
	pv_series_release(&s);
	/* a step is not a trend */
	build(&s, 30, 5, 1, step15);
	pv_series_analyse(&s, &def, &res);
	ck_assert_int_eq(res.has_trend, 0);
	ck_assert_uint_eq(res.nev, 1);
	pv_series_release(&s);
}
END_TEST

START_TEST(test_newest)
{
	struct pv_series s;

	build(&s, 20, 5, 1, newest);
	pv_series_analyse(&s, &def, &res);
	one_change(19, log(0.90), 0.02);
	ck_assert_uint_eq(res.ev[0].nbefore, 19);
	ck_assert_uint_eq(res.ev[0].nafter, 1);
	pv_series_release(&s);
}
END_TEST

START_TEST(test_threshold)
{
	struct pv_series_opts o = def;
	struct pv_series s;

	/* a certain 1 % step is below the default threshold of 2 % */
	build(&s, 20, 5, 0.1, small);
	pv_series_analyse(&s, &def, &res);
	ck_assert_uint_eq(res.nev, 0);
	o.threshold = 0.005;
	pv_series_forget(&s);
	pv_series_analyse(&s, &o, &res);
	ck_assert_uint_eq(res.nev, 1);
	ck_assert_uint_eq(res.ev[0].at, 10);
	pv_series_release(&s);
}
END_TEST

/* steps every 37 versions, an outlier every 23 */
static double
busy(size_t i)
{
	return (double)(i / 37) * log(0.93) + (i % 23 == 11 ? log(0.88) : 0);
}

static void
same_result(const struct pv_series_result *a,
	    const struct pv_series_result *b)
{
	size_t i;

	ck_assert_uint_eq(a->nev, b->nev);
	for (i = 0; i < a->nev; i++) {
		ck_assert_int_eq(a->ev[i].kind, b->ev[i].kind);
		ck_assert_uint_eq(a->ev[i].at, b->ev[i].at);
		ck_assert(a->ev[i].change == b->ev[i].change);
		ck_assert(a->ev[i].p == b->ev[i].p);
	}
	ck_assert_int_eq(a->has_trend, b->has_trend);
}

/*
 * Twelve versions of five runs drawn from repetitions of a real
 * benchmark (tests/bench/series.sh's nested null, will-it-scale): no
 * change.  Version 1 is off its neighbours, and version 2 a little too:
 * the two cuts about version 1 are judged together, as an outlier, not
 * dropped one by one, after which version 0 looked off the two versions
 * after it and versions 1 and 2 a change of +2.3 % from the others.
 */
static const struct pv_series_point nested[12] = {
	{ 5, 6.9078974561, 1.069309e-04 },
	{ 5, 6.8764167084, 2.271756e-03 },
	{ 5, 6.8895804727, 4.566715e-04 },
	{ 5, 6.9091064538, 6.511441e-04 },
	{ 5, 6.9006102792, 7.025338e-04 },
	{ 5, 6.9087484453, 1.537404e-03 },
	{ 5, 6.9067819550, 5.777675e-04 },
	{ 5, 6.9078974561, 1.069309e-04 },
	{ 5, 6.9021619674, 4.823911e-05 },
	{ 5, 6.9041278445, 1.363601e-04 },
	{ 5, 6.9049838854, 4.604173e-04 },
	{ 5, 6.9079861093, 9.314535e-04 },
};

START_TEST(test_outlier_cuts)
{
	struct pv_series s;
	size_t i;

	pv_series_init(&s);
	for (i = 0; i < 12; i++)
		pv_series_add(&s, &nested[i]);
	pv_series_analyse(&s, &def, &res);
	ck_assert_uint_eq(res.nev, 1);
	ck_assert_int_eq(res.ev[0].kind, PV_SERIES_OUTLIER);
	ck_assert_uint_eq(res.ev[0].at, 1);
	ck_assert(res.ev[0].change < -0.02 && res.ev[0].p <= def.alpha);
	ck_assert(!res.has_trend);
	pv_series_release(&s);
}
END_TEST

START_TEST(test_incremental)
{
	struct pv_series whole, inc;
	struct pv_series_result r2;
	size_t v;

	pv_series_result_init(&r2);
	build(&whole, 160, 5, 1, busy);
	pv_series_init(&inc);
	for (v = 0; v < whole.npt; v++) {
		struct pv_series part;

		pv_series_add(&inc, &whole.pt[v]);
		pv_series_analyse(&inc, &def, &res);
		/* the same versions analysed at once */
		pv_series_init(&part);
		for (size_t i = 0; i <= v; i++)
			pv_series_add(&part, &whole.pt[i]);
		pv_series_analyse(&part, &def, &r2);
		same_result(&res, &r2);
		pv_series_release(&part);
	}
	/* the windows that hold 50 versions were not cut again */
	ck_assert_uint_eq(inc.nwin, (160 - 50) / 25 + 1);
	ck_assert_uint_gt(res.nev, 4);
	pv_series_release(&inc);
	pv_series_release(&whole);
	pv_series_result_release(&r2);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("series");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_step);
	tcase_add_test(tc, test_two_steps);
	tcase_add_test(tc, test_outlier);
	tcase_add_test(tc, test_first_outlier);
	tcase_add_test(tc, test_constant);
	tcase_add_test(tc, test_one_run);
	tcase_add_test(tc, test_drift);
	tcase_add_test(tc, test_newest);
	tcase_add_test(tc, test_threshold);
	tcase_add_test(tc, test_incremental);
	tcase_add_test(tc, test_outlier_cuts);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
