/*
 * check_classifier: the q-values of the two-stage false-discovery control
 * against R's p.adjust (tests/data/classifier/qvalues.tsv, made by
 * qvalues.R beside it), discoveries that unrelated tests do not remove,
 * the classes on the honest interval with one threshold (and a metric's
 * own), the severity formula and its bands, the systematic rule by the
 * number of levels, secondary metrics in families of their own, and the
 * reason texts.
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

/*
 * A clean comparison of metric "m" with the given change, honest interval
 * (change +- half, Welch's the same) and p.
 */
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
	c.lo = c.hlo = change - half;
	c.hi = c.hhi = change + half;
	c.se = half / 2.1;
	c.df = 18;
	c.boot_lo = c.lo;
	c.boot_hi = c.hi;
	c.p_welch = c.hp = p;
	c.p_mwu = p;
	c.cliff = change < 0 ? -1 : 1;
	c.g = change / c.se;
	c.rcv_b = c.rcv_t = 0.01;
	c.trend = NAN;
	c.rho = NAN;
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

/* verdict i of c, made again (pv_classifier_get()) */
static struct pv_verdict
V(const struct pv_classifier *c, size_t i)
{
	struct pv_verdict v;

	pv_classifier_get(c, i, &v);
	return v;
}

/* the index of the verdict of test and level, which must be there */
static size_t
find(const struct pv_classifier *c, const char *test, uint64_t level)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (pv_str_eq(V(c, i).cmp.key.test, test) &&
		    V(c, i).cmp.key.level == level)
			return i;
	ck_abort_msg("no verdict of %s level %u", test, (unsigned)level);
	return 0;
}

/* the verdict of test and level */
static struct pv_verdict
F(const struct pv_classifier *c, const char *test, uint64_t level)
{
	return V(c, find(c, test, level));
}

/* the reason of verdict i of c, made again */
static const char *
why_of(struct pv_classifier *c, size_t i)
{
	return pv_classifier_reason(c, i);
}

/*
 * The families a to e of qvalues.tsv, one test each (its keys levels 1,
 * 2, ...), in one pair: every key's q-value is R's to 1e-12.
 */
START_TEST(test_qvalues_r)
{
	const char *top = getenv("top_srcdir");
	char path[4096], fam[64], prev[64] = "";
	double p[64], want[64];
	char names[64][64];
	uint64_t level[64];
	size_t n = 0, i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/data/classifier/qvalues.tsv",
		 top != NULL ? top : ".");
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert(fscanf(f, "%*s %*s %*s") == 0);
	while (n < 64 && fscanf(f, "%63s %lf %lf", fam, &p[n],
				&want[n]) == 3) {
		level[n] = strcmp(fam, prev) == 0 ? level[n - 1] + 1 : 1;
		snprintf(prev, sizeof(prev), "%s", fam);
		snprintf(names[n], sizeof(names[n]), "%s", fam);
		n++;
	}
	fclose(f);
	ck_assert_uint_eq(n, 13);
	for (i = 0; i < n; i++) {
		struct pv_cmp c = cmp("s", names[i], level[i], -0.1, 0.01,
				      p[i]);

		pv_classifier_add(&cl, &c);
	}
	pv_classifier_run(&cl);
	for (i = 0; i < n; i++) {
		struct pv_verdict v = F(&cl, names[i], level[i]);

		ck_assert_msg(fabs(v.qvalue - want[i]) <= 1e-12 * want[i],
			      "%s level %u: q-value %.17g, R %.17g", names[i],
			      (unsigned)level[i], v.qvalue, want[i]);
	}
}
END_TEST

/* pv-classify(1)'s example: one test holding p = 0.04 and 0.9 */
START_TEST(test_qvalue_example)
{
	struct pv_cmp a = cmp("s", "t", 1, -0.1, 0.01, 0.04);
	struct pv_cmp b = cmp("s", "t", 2, -0.1, 0.01, 0.9);

	pv_classifier_add(&cl, &a);
	pv_classifier_add(&cl, &b);
	pv_classifier_run(&cl);
	ck_assert_double_eq_tol(V(&cl, 0).qvalue, 0.08, 1e-15);
	ck_assert_double_eq_tol(V(&cl, 1).qvalue, 0.9, 1e-15);
}
END_TEST

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
 * A planted 5% regression on four levels (p 1e-9 to 1e-6, as ten runs a
 * side at a CV of 2% give), alone and with 10, 50 and 200 tests of A/A
 * keys (p uniform, changes within the noise) in the same pair: the same
 * four Regressions every time, and no other.
 */
START_TEST(test_appended)
{
	static const size_t extra[] = { 0, 10, 50, 200 };
	static const double pp[] = { 1e-9, 1e-8, 1e-7, 1e-6 };
	struct pv_classifier_opts o = PV_CLASSIFIER_OPTS_INIT;
	char name[200][16];
	size_t e, i, j, reg;

	for (i = 0; i < 200; i++)
		snprintf(name[i], sizeof(name[i]), "aa%03zu", i);
	for (e = 0; e < sizeof(extra) / sizeof(*extra); e++) {
		struct pv_classifier c;
		uint64_t x = 88172645463325252ULL;

		pv_classifier_init(&c, &o);
		for (i = 0; i < 4; i++) {
			struct pv_cmp k = cmp("s", "planted", i + 1,
					      log(0.95), 0.02, pp[i]);

			pv_classifier_add(&c, &k);
		}
		for (i = 0; i < extra[e]; i++)
			for (j = 0; j < 2; j++) {
				double u = uniform(&x);
				struct pv_cmp k = cmp("s", name[i], j + 1,
						      0.02 * (u - 0.5), 0.03,
						      uniform(&x));

				pv_classifier_add(&c, &k);
			}
		pv_classifier_run(&c);
		for (i = 0, reg = 0; i < c.n; i++) {
			if (V(&c, i).cls != PV_CLASS_REGRESSION)
				continue;
			ck_assert(pv_str_eq(V(&c, i).cmp.key.test, "planted"));
			reg++;
		}
		ck_assert_msg(reg == 4, "%zu appended tests: %zu Regressions",
			      extra[e], reg);
		pv_classifier_release(&c);
	}
}
END_TEST

/*
 * The classes with one threshold: the 3% regression (interval
 * -4.84% to -0.76%) is a Regression, not No change; a significant
 * change just inside the threshold is Uncertain; No change needs the
 * interval inside +-delta; few runs and a high CV flag, never veto.
 */
START_TEST(test_classes)
{
	struct pv_cmp c[8];
	char want[128];
	size_t i;

	c[0] = cmp("s", "three", 1, log(0.972), 0, 0.01);
	c[0].hlo = log(1 - 0.0484);
	c[0].hhi = log(1 - 0.0076);
	c[1] = cmp("s", "imp", 1, log(1.05), 0.01, 1e-6);
	c[2] = cmp("s", "same", 1, 0.001, 0.01, 0.8);
	c[3] = cmp("s", "small", 1, log(0.98) + 1e-4, 0.01, 1e-5);
	c[4] = cmp("s", "wide", 1, log(0.99), 0.015, 0.2);
	c[5] = cmp("s", "few", 1, log(0.8), 0.05, 1e-5);
	c[5].nb = c[5].nt = 2;
	c[6] = cmp("s", "unstable", 1, log(0.5), 0.2, 1e-5);
	c[6].rcv_b = 0.135;
	c[7] = cmp("s", "coarse", 1, log(0.99), 0.002, 0.5);
	c[7].hlo = c[7].change - 0.03;
	c[7].hhi = c[7].change + 0.03;
	c[7].flags = PV_CMP_QUANTISED;
	for (i = 0; i < 8; i++)
		pv_classifier_add(&cl, &c[i]);
	pv_classifier_run(&cl);
	ck_assert_int_eq(F(&cl, "three", 1).cls, PV_CLASS_REGRESSION);
	ck_assert_int_eq(F(&cl, "imp", 1).cls, PV_CLASS_IMPROVEMENT);
	ck_assert_int_eq(F(&cl, "imp", 1).band, PV_BAND_NONE);
	ck_assert_int_eq(F(&cl, "same", 1).cls, PV_CLASS_NO_CHANGE);
	ck_assert_int_eq(F(&cl, "small", 1).cls, PV_CLASS_UNCERTAIN);
	snprintf(want, sizeof(want), "significant, but -1.99%% is inside the "
		 "2%% threshold; about %zu runs a side would decide",
		 F(&cl, "small", 1).runs);
	ck_assert_str_eq(why_of(&cl, find(&cl, "small", 1)), want);
	/* the quantum's widening stays however many runs */
	ck_assert_int_eq(F(&cl, "coarse", 1).cls, PV_CLASS_UNCERTAIN);
	ck_assert_str_eq(why_of(&cl, find(&cl, "coarse", 1)),
			 "interval -3.93% to 2.01% holds no change and a 2% "
			 "change; more runs unlikely to decide");
	ck_assert_int_eq(F(&cl, "wide", 1).cls, PV_CLASS_UNCERTAIN);
	ck_assert_int_eq(F(&cl, "few", 1).cls, PV_CLASS_REGRESSION);
	ck_assert_uint_eq(F(&cl, "few", 1).flags, PV_CMP_FEW_RUNS);
	ck_assert_int_eq(F(&cl, "unstable", 1).cls, PV_CLASS_REGRESSION);
	ck_assert_uint_eq(F(&cl, "unstable", 1).flags, PV_CMP_UNSTABLE);
	ck_assert_int_eq(pv_classifier_worst(&cl), PV_BAND_RED);
}
END_TEST

/* a metric's own threshold, and a band narrower than it */
START_TEST(test_deltas)
{
	static const struct pv_delta d[] = { { "lat", 0.05 } };
	struct pv_classifier_opts o = PV_CLASSIFIER_OPTS_INIT;
	struct pv_classifier c;
	struct pv_cmp k[3];
	char want[128];
	size_t i;

	o.deltas = d;
	o.ndelta = 1;
	o.band = 0.01;
	k[0] = cmp("s", "t", 1, log(0.97), 0.005, 1e-6);
	k[1] = k[0];
	k[1].key.metric = S("lat");
	k[2] = cmp("s", "u", 1, 0.001, 0.012, 0.8);
	pv_classifier_init(&c, &o);
	for (i = 0; i < 3; i++)
		pv_classifier_add(&c, &k[i]);
	pv_classifier_run(&c);
	/* sorted by metric: lat m */
	ck_assert(pv_str_eq(V(&c, 0).cmp.key.metric, "lat"));
	ck_assert_int_eq(V(&c, 0).cls, PV_CLASS_UNCERTAIN);
	/* more runs would put the interval inside +-5% */
	ck_assert_uint_gt(V(&c, 0).runs, 10);
	snprintf(want, sizeof(want), "significant, but -3.00%% is inside the "
		 "5%% threshold; about %zu runs a side would decide",
		 V(&c, 0).runs);
	ck_assert_str_eq(pv_classifier_reason(&c, 0), want);
	ck_assert_int_eq(V(&c, 1).cls, PV_CLASS_REGRESSION);
	/* inside +-2%, not inside +-1% */
	ck_assert_int_eq(V(&c, 2).cls, PV_CLASS_UNCERTAIN);
	pv_classifier_release(&c);
}
END_TEST

/*
 * severity = round(100 min(1, B / 0.10)), B = 1 - e^HI the worsening the
 * interval supports; red from B = 5%, yellow from 2%, green below: every
 * band reachable.
 */
START_TEST(test_severity)
{
	static const double b[] = { 0.01, 0.0199, 0.02, 0.035, 0.0499, 0.05,
				    0.08, 0.25 };
	static const enum pv_band band[] = {
		PV_BAND_GREEN, PV_BAND_GREEN, PV_BAND_YELLOW, PV_BAND_YELLOW,
		PV_BAND_YELLOW, PV_BAND_RED, PV_BAND_RED, PV_BAND_RED
	};
	char name[8];
	size_t i;

	for (i = 0; i < sizeof(b) / sizeof(*b); i++) {
		/* interval [ln(1 - b) - 0.1, ln(1 - b)], change -10% */
		struct pv_cmp c;

		snprintf(name, sizeof(name), "t%zu", i);
		c = cmp("s", name, 1, log(0.9), 0, 1e-9);
		c.hhi = log(1 - b[i]);
		c.hlo = c.hhi - 0.1;
		pv_classifier_add(&cl, &c);
	}
	pv_classifier_run(&cl);
	for (i = 0; i < cl.n; i++) {
		struct pv_verdict got = V(&cl, i);
		const struct pv_verdict *v = &got;

		ck_assert_int_eq(v->cls, PV_CLASS_REGRESSION);
		ck_assert_int_eq(v->severity,
				 (int)lround(100 * fmin(1, b[i] / 0.10)));
		ck_assert_int_eq(v->band, band[i]);
	}
}
END_TEST

static void
level_group(struct pv_classifier *c, const char *test, size_t k,
	    const double *change, const double *p)
{
	size_t i;

	for (i = 0; i < k; i++) {
		struct pv_cmp x = cmp("s", test, i + 1, change[i], 0.02, p[i]);

		pv_classifier_add(c, &x);
	}
}

/* the systematic group of test, after run, or NULL */
static const struct pv_sysreg *
group(const struct pv_classifier *c, const char *test)
{
	size_t first = find(c, test, 1), i;

	for (i = 0; i < c->ng; i++)
		if (c->g[i].first == first)
			return &c->g[i];
	return NULL;
}

/* how many of the levels of test are Regressions */
static size_t
regressed(const struct pv_classifier *c, const char *test)
{
	size_t i, n = 0;

	for (i = 0; i < c->n; i++)
		n += pv_str_eq(V(c, i).cmp.key.test, test) &&
			V(c, i).cls == PV_CLASS_REGRESSION;
	return n;
}

/*
 * Systematic by K: on two levels both must be Regressions (one is not
 * enough, however large); on four or six, the pooled change and all but
 * one level at half of it, not one level nor every other one.
 */
START_TEST(test_systematic)
{
	static const double p2[] = { 1e-5, 0.3 };
	static const double p_all[] = { 1e-5, 1e-5, 1e-5, 1e-5, 1e-5, 1e-5 };
	/* not static: log() is no constant expression */
	const double two_both[] = { log(0.94), log(0.95) };
	const double two_one[] = { log(0.7), -0.01 };
	const double four[] = { log(0.95), log(0.96), log(0.94), log(0.95) };
	const double alt[] = { log(0.9), -0.001, log(0.9), -0.001, log(0.9),
			       -0.001 };
	const double one[] = { log(0.8), -0.002, -0.001, -0.003, -0.002,
			       -0.001 };

	level_group(&cl, "a-both", 2, two_both, p_all);
	level_group(&cl, "b-one", 2, two_one, p2);
	level_group(&cl, "c-four", 4, four, p_all);
	level_group(&cl, "d-alt", 6, alt, p_all);
	level_group(&cl, "e-one", 6, one, p_all);
	pv_classifier_run(&cl);
	/* only the systematic groups are kept, to be written */
	ck_assert_uint_eq(cl.ng, 2);
	ck_assert(group(&cl, "a-both") != NULL);
	ck_assert(group(&cl, "a-both")->systematic);
	ck_assert_uint_eq(group(&cl, "a-both")->regressed, 2);
	ck_assert_uint_eq(group(&cl, "a-both")->count, 2);
	ck_assert(group(&cl, "b-one") == NULL);
	ck_assert_uint_eq(regressed(&cl, "b-one"), 1);
	ck_assert(group(&cl, "c-four") != NULL);
	ck_assert_uint_eq(group(&cl, "c-four")->levels, 4);
	ck_assert(group(&cl, "d-alt") == NULL);
	ck_assert(group(&cl, "e-one") == NULL);
}
END_TEST

/*
 * Secondary keys are controlled in families of their own: a crowd of
 * weak secondary keys does not move the primary key's q-value, and the
 * flag reaches the verdict.
 */
START_TEST(test_secondary)
{
	struct pv_cmp a = cmp("s", "t", 1, log(0.9), 0.02, 0.01);
	struct pv_classifier_opts o = PV_CLASSIFIER_OPTS_INIT;
	struct pv_classifier alone;
	uint64_t l;

	pv_classifier_init(&alone, &o);
	pv_classifier_add(&alone, &a);
	pv_classifier_run(&alone);
	pv_classifier_add(&cl, &a);
	for (l = 2; l <= 9; l++) {
		struct pv_cmp s = cmp("s", "t", l, 0.001, 0.02, 0.9);

		s.key.metric = S("total-events");
		s.flags = PV_CMP_SECONDARY;
		pv_classifier_add(&cl, &s);
	}
	pv_classifier_run(&cl);
	ck_assert(pv_str_eq(V(&cl, 0).cmp.key.metric, "m"));
	ck_assert_double_eq_tol(V(&cl, 0).qvalue, V(&alone, 0).qvalue, 1e-15);
	ck_assert_int_eq(V(&cl, 0).cls, PV_CLASS_REGRESSION);
	ck_assert_uint_eq(V(&cl, 1).flags, PV_CMP_SECONDARY);
	ck_assert_double_eq_tol(V(&cl, 1).qvalue, 0.9, 1e-15);
	pv_classifier_release(&alone);
}
END_TEST

/* a drift flag turns more runs into "interleave the sides" */
START_TEST(test_drift)
{
	struct pv_cmp a = cmp("s", "t", 1, log(0.97), 0.04, 0.2);
	struct pv_cmp b = cmp("s", "u", 1, log(0.7), 0.05, 1e-6);

	a.flags = PV_CMP_DRIFT;
	b.flags = PV_CMP_DRIFT;
	pv_classifier_add(&cl, &a);
	pv_classifier_add(&cl, &b);
	pv_classifier_run(&cl);
	ck_assert_int_eq(V(&cl, 0).cls, PV_CLASS_UNCERTAIN);
	ck_assert_uint_eq(V(&cl, 0).runs, 0);
	ck_assert_str_eq(pv_classifier_reason(&cl, 0),
			 "interval -6.80% to 0.96% holds no change and a 2% "
			 "change; drift: more runs in the same order do not "
			 "remove it, interleave the sides");
	ck_assert_int_eq(V(&cl, 1).cls, PV_CLASS_REGRESSION);
	ck_assert_uint_eq(V(&cl, 1).flags, PV_CMP_DRIFT);
}
END_TEST

static double
pct(double d)
{
	return 100 * (exp(d) - 1);
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
	char name[32], want[512], why[256];
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
		if (i % 13 == 0)
			c.nt = 2;
		if (i % 19 == 0)
			c.flags |= PV_CMP_DRIFT;
		pv_classifier_add(&cl, &c);
	}
	pv_classifier_run(&cl);
	for (i = 0; i < n; i++) {
		struct pv_verdict got = V(&cl, i);
		const struct pv_verdict *v = &got;
		const struct pv_cmp *c = &v->cmp;
		const char *reason = pv_classifier_reason(&cl, i);

		want[0] = why[0] = '\0';
		if (v->cls == PV_CLASS_REGRESSION)
			snprintf(want, sizeof(want), "%.2f%% worse, interval "
				 "%.2f%% to %.2f%%", -pct(c->change),
				 -pct(c->hhi), -pct(c->hlo));
		else if (v->cls == PV_CLASS_IMPROVEMENT)
			snprintf(want, sizeof(want), "%.2f%% better, interval "
				 "%.2f%% to %.2f%%", pct(c->change),
				 pct(c->hlo), pct(c->hhi));
		else if (v->cls == PV_CLASS_NO_CHANGE)
			snprintf(want, sizeof(want), "interval %.2f%% to "
				 "%.2f%% inside +-%.3g%%", pct(c->hlo),
				 pct(c->hhi), 2.0);
		else if (strncmp(reason, "significant", 11) == 0)
			snprintf(why, sizeof(why), "significant, but %.2f%% "
				 "is inside the %.3g%% threshold",
				 pct(c->change), 2.0);
		else if (strncmp(reason, "not significant", 15) == 0)
			snprintf(why, sizeof(why), "not significant after "
				 "the false discovery control (q-value %.3g)",
				 v->qvalue);
		else if (strncmp(reason, "interval", 8) == 0)
			snprintf(why, sizeof(why), "interval %.2f%% to %.2f%% "
				 "holds no change and a %.3g%% change",
				 pct(c->hlo), pct(c->hhi), 2.0);
		if (why[0] != '\0' && (c->flags & PV_CMP_DRIFT))
			snprintf(want, sizeof(want), "%s; drift: more runs "
				 "in the same order do not remove it, "
				 "interleave the sides", why);
		else if (why[0] != '\0' && v->runs > 0)
			snprintf(want, sizeof(want), "%s; about %zu runs a "
				 "side would decide", why, v->runs);
		else if (why[0] != '\0')
			snprintf(want, sizeof(want), "%s; more runs unlikely "
				 "to decide", why);
		if (want[0] == '\0')
			continue;
		ck_assert_str_eq(reason, want);
		checked++;
	}
	ck_assert_uint_eq(checked, n);
}
END_TEST

/* the keys without an interval say why */
START_TEST(test_no_interval)
{
	struct pv_cmp a = cmp("s", "a", 1, NAN, 0, NAN);
	struct pv_cmp b = cmp("s", "b", 1, log(0.9), 0, NAN);
	struct pv_cmp c = cmp("s", "c", 1, NAN, 0, NAN);

	a.nt = 0;
	b.nb = 1;
	b.se = b.lo = b.hi = b.hlo = b.hhi = NAN;
	c.flags = PV_CMP_NONPOSITIVE;
	pv_classifier_add(&cl, &a);
	pv_classifier_add(&cl, &b);
	pv_classifier_add(&cl, &c);
	pv_classifier_run(&cl);
	ck_assert_str_eq(pv_classifier_reason(&cl, 0), "only in the baseline");
	ck_assert_str_eq(pv_classifier_reason(&cl, 1),
			 "one run on a side (1 and 10): no interval");
	ck_assert_uint_eq(V(&cl, 1).runs, 3);
	ck_assert_uint_eq(V(&cl, 1).flags, PV_CMP_FEW_RUNS);
	ck_assert_str_eq(pv_classifier_reason(&cl, 2),
			 "a value is zero or negative: no ratio");
	ck_assert(isnan(V(&cl, 0).qvalue));
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
	tcase_add_test(tc, test_qvalues_r);
	tcase_add_test(tc, test_qvalue_example);
	tcase_add_test(tc, test_appended);
	tcase_add_test(tc, test_classes);
	tcase_add_test(tc, test_deltas);
	tcase_add_test(tc, test_severity);
	tcase_add_test(tc, test_systematic);
	tcase_add_test(tc, test_secondary);
	tcase_add_test(tc, test_drift);
	tcase_add_test(tc, test_reason_texts);
	tcase_add_test(tc, test_no_interval);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
