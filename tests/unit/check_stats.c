/*
 * check_stats: lib/stats against reference values computed with SciPy
 * (tests/data/stats/ref.tsv, made by tests/data/stats/gen.py), to 1e-9
 * relative, and the answers stats.h defines where SciPy gives NaN.
 */
#include "config.h"

#include <check.h>
#include <float.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define MAXV 128
#define MAXCOL 64
#define RTOL 1e-9

struct vec {
	char name[64];
	double x[MAXV], y[MAXV];
	size_t nx, ny;
	double col[MAXCOL];	/* by header index */
};

static char *head[MAXCOL];
static size_t nhead;
static struct vec vecs[128];
static size_t nvec;

static size_t
parse_list(const char *s, double *out)
{
	size_t n = 0;
	char *end;

	while (*s != '\0' && n < MAXV) {
		out[n++] = strtod(s, &end);
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

static void
load(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096], *line = NULL, *tok, *save;
	size_t cap = 0, i;
	FILE *f;

	if (nvec > 0)
		return;
	snprintf(path, sizeof(path), "%s/tests/data/stats/ref.tsv",
		 top != NULL ? top : ".");
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert(getline(&line, &cap, f) > 0);
	line[strcspn(line, "\n")] = '\0';
	for (tok = strtok_r(line, "\t", &save); tok != NULL;
	     tok = strtok_r(NULL, "\t", &save))
		head[nhead++] = strdup(tok);
	while (getline(&line, &cap, f) > 0) {
		struct vec *v = &vecs[nvec++];

		line[strcspn(line, "\n")] = '\0';
		i = 0;
		for (tok = strtok_r(line, "\t", &save); tok != NULL;
		     tok = strtok_r(NULL, "\t", &save), i++) {
			if (i == 0)
				snprintf(v->name, sizeof(v->name), "%s", tok);
			else if (i == 1)
				v->nx = parse_list(tok, v->x);
			else if (i == 2)
				v->ny = parse_list(tok, v->y);
			else
				v->col[i] = strtod(tok, NULL);
		}
		ck_assert_uint_eq(i, nhead);
	}
	free(line);
	fclose(f);
}

static double
col(const struct vec *v, const char *name)
{
	size_t i;

	for (i = 0; i < nhead; i++)
		if (strcmp(head[i], name) == 0)
			return v->col[i];
	ck_abort_msg("no column %s", name);
	return 0;
}

static unsigned long checked;

static void
near(const struct vec *v, const char *what, double got)
{
	double want = col(v, what);

	if (isnan(want))
		return;
	checked++;
	if (isinf(want)) {
		ck_assert_msg(got == want, "%s %s: got %.17g want %.17g",
			      v->name, what, got, want);
		return;
	}
	ck_assert_msg(fabs(got - want) <= RTOL * fabs(want) ||
		      fabs(got - want) <= 1e-300 ||
		      (want == 0 && fabs(got) < 1e-12),
		      "%s %s: got %.17g want %.17g (rel %.3g)", v->name, what,
		      got, want, fabs(got - want) / fabs(want));
}

START_TEST(test_reference_count)
{
	load();
	ck_assert_uint_ge(nvec, 30);
}
END_TEST

START_TEST(test_welch)
{
	size_t k;

	load();
	for (k = 0; k < nvec; k++) {
		struct vec *v = &vecs[k];
		struct pv_welch w;

		pv_stats_welch(v->x, v->nx, v->y, v->ny, 0.95, &w);
		near(v, "w_diff", w.diff);
		near(v, "w_df", w.df);
		near(v, "w_t", w.t);
		near(v, "w_p", w.p);
		near(v, "w_lo", w.lo);
		near(v, "w_hi", w.hi);
	}
	ck_assert_uint_ge(checked, 30);
}
END_TEST

START_TEST(test_mwu)
{
	size_t k;

	load();
	for (k = 0; k < nvec; k++) {
		struct vec *v = &vecs[k];
		struct pv_mwu m;

		pv_stats_mwu(v->x, v->nx, v->y, v->ny, &m);
		near(v, "u", m.u);
		near(v, "u_p", m.p);
		near(v, "u_exact", m.exact);
	}
	ck_assert_uint_ge(checked, 30);
}
END_TEST

/*
 * The median and largest by selection, as sorted: sizes 1 to 300, many
 * ties, infinities, a NaN or a negative zero (sorted then).
 */
START_TEST(test_median_max)
{
	double x[300], y[300], mx;
	uint64_t st = 11;
	size_t n, i, round;

	for (round = 0; round < 20; round++) {
		for (n = 1; n <= 300; n++) {
			for (i = 0; i < n; i++) {
				st = st * 6364136223846793005ULL +
					1442695040888963407ULL;
				x[i] = round % 2 ? (double)(st >> 59) :
					(double)(st >> 11) / 9007199254740992.0;
				if ((st >> 20) % 97 == 0)
					x[i] = INFINITY;
				if (round == 5 && i == n / 3)
					x[i] = NAN;
				if (round == 7 && i == n / 2)
					x[i] = -0.0;
				if (round == 9 && (st >> 30) % 2)
					x[i] = DBL_MAX;
			}
			memcpy(y, x, n * sizeof(*x));
			pv_stats_sort(y, n);
			{
				double med = pv_stats_median_max(x, n, &mx);
				double ref = pv_stats_median_sorted(y, n);

				ck_assert(med == ref || (isnan(med) &&
							 isnan(ref)));
				ck_assert(mx == y[n - 1] || (isnan(mx) &&
							     isnan(y[n - 1])));
			}
		}
	}
}
END_TEST

/*
 * The MAD from the sorted values, as from their sorted deviations: sizes
 * 1 to 80 with ties and infinities; NaN and an infinite median refused.
 */
START_TEST(test_mad_sorted)
{
	double x[80], d[80], mad, med, inf[3] = { 1, INFINITY, INFINITY };
	uint64_t st = 5;
	size_t n, i, round;

	for (round = 0; round < 50; round++) {
		for (n = 1; n <= 80; n++) {
			for (i = 0; i < n; i++) {
				st = st * 6364136223846793005ULL +
					1442695040888963407ULL;
				x[i] = round % 2 ? (double)(st >> 60) :
					(double)(st >> 11) / 9007199254740992.0;
				if ((st >> 20) % 31 == 0)
					x[i] = (st >> 25) % 2 ? INFINITY :
						-INFINITY;
				if (round % 5 == 4)
					x[i] *= DBL_MAX;
			}
			pv_stats_sort(x, n);
			med = pv_stats_median_sorted(x, n);
			if (!isfinite(med)) {
				ck_assert_int_eq(pv_stats_mad_sorted(x, n, med,
								     &mad), -1);
				continue;
			}
			for (i = 0; i < n; i++)
				d[i] = fabs(x[i] - med);
			pv_stats_sort(d, n);
			ck_assert_int_eq(pv_stats_mad_sorted(x, n, med, &mad), 0);
			ck_assert(mad == pv_stats_median_sorted(d, n));
		}
	}
	x[0] = 1;
	x[1] = NAN;
	ck_assert_int_eq(pv_stats_mad_sorted(x, 2, 1, &mad), -1);
	ck_assert_int_eq(pv_stats_mad_sorted(inf, 3, INFINITY, &mad), -1);
}
END_TEST

/*
 * The variants on sides sorted beforehand give the unsorted calls' bits:
 * Mann-Whitney (up to 24 a side), Cliff's delta and the exact bootstrap.
 */
START_TEST(test_sorted_variants)
{
	size_t k, n = 0;

	load();
	for (k = 0; k < nvec; k++) {
		struct vec *v = &vecs[k];
		double sx[MAXV], sy[MAXV], lo, hi, slo, shi;
		struct pv_mwu m, sm;
		int r;

		memcpy(sx, v->x, v->nx * sizeof(double));
		memcpy(sy, v->y, v->ny * sizeof(double));
		pv_stats_sort(sx, v->nx);
		pv_stats_sort(sy, v->ny);
		if (v->nx >= 1 && v->ny >= 1 && v->nx <= 24 && v->ny <= 24) {
			pv_stats_mwu(v->x, v->nx, v->y, v->ny, &m);
			pv_stats_mwu_sorted(sx, v->nx, sy, v->ny, &sm);
			ck_assert(m.u == sm.u && m.p == sm.p &&
				  m.exact == sm.exact);
			n++;
		}
		if (v->nx >= 1 && v->ny >= 1)
			ck_assert(pv_stats_cliff(v->x, v->nx, v->y, v->ny) ==
				  pv_stats_cliff_sorted(sx, v->nx, sy, v->ny));
		r = pv_stats_bootstrap_median_diff_exact(v->x, v->nx, v->y,
							 v->ny, 0.95, &lo,
							 &hi);
		ck_assert_int_eq(pv_stats_bootstrap_median_diff_exact_sorted(
				 sx, v->nx, sy, v->ny, 0.95, &slo, &shi), r);
		if (r == 0)
			ck_assert(lo == slo && hi == shi);
	}
	ck_assert_uint_ge(n, 10);
}
END_TEST

/*
 * The Hodges-Lehmann shift and its Moses interval against R 4.2's
 * wilcox.test(y, x, conf.int = TRUE) (exact: no ties, under 50 a side),
 * as tests/data/stats/hl.R prints them.
 */
static const struct {
	const char *name;
	size_t nx, ny;
	double x[12], y[12];
	double est, lo, hi, p;
} hl_ref[] = {
	{ "hand", 7, 6, { 1.1000000000000001, 2.2999999999999998, 0.69999999999999996, 3.3999999999999999, 2.2000000000000002, 1.8999999999999999, 2.7999999999999998 }, { 3.1000000000000001, 2.8999999999999999, 4.4000000000000004, 3.7999999999999998, 2.0499999999999998, 5.2000000000000002 },
	  1.5499999999999998, 0.10000000000000009, 3, 0.034965034965034961 },
	{ "four", 4, 4, { 1.1000000000000001, 2.2999999999999998, 0.69999999999999996, 3.3999999999999999 }, { 3.1000000000000001, 2.8999999999999999, 4.4000000000000004, 3.7999999999999998 },
	  1.8999999999999999, -0.5, 3.7000000000000002, 0.11428571428571428 },
	{ "ln10", 10, 10, { 6.8460757689999996, 6.9388212469999999, 6.8970997650000001, 6.9621027499999997, 6.9353498690000004, 6.9322145329999998, 6.9535637540000002, 6.8919711230000003, 6.909130534, 6.7998600979999999 }, { 6.8726530600000002, 6.86422314, 6.8901309560000001, 6.8548714679999998, 6.8852588629999998, 6.9329493500000003, 6.8809950469999999, 6.8014444469999997, 6.945854271, 6.8879183399999997 },
	  -0.031015012499999717, -0.071126729000000388, 0.013639738000000179, 0.12300547749464159 },
	{ "t3_5_8", 5, 8, { 0.0020936029999999999, 0.038352636000000002, 0.064510221000000006, -0.025804371999999999, -0.017136503000000001 }, { -0.065485608000000001, -0.109959522, -0.106203042, -0.094046652999999994, -0.11608171, -0.090819975999999997, -0.078278603000000002, -0.128125875 },
	  -0.1060674445, -0.155330197, -0.068242280999999988, 0.001554001554001554 },
	{ "wild", 6, 6, { 4.6051701859880918, 4.6071681886507641, 4.604169685654508, 4.6061696863211745, 4.6056700610297421, 4.6031681833174183 }, { 4.5009201646142918, 4.498697941477575, 4.499809670330265, 4.497584975308154, 4.5020294270685781, 4.8675344504555822 },
	  -0.10494432899881811, -0.10747174484359956, 0.26036626180481814, 0.064935064935064929 },
};

START_TEST(test_hl_shift)
{
	size_t k;
	struct pv_hl h;

	for (k = 0; k < sizeof(hl_ref) / sizeof(hl_ref[0]); k++) {
		ck_assert_int_eq(pv_stats_hl_shift(hl_ref[k].x, hl_ref[k].nx,
						   hl_ref[k].y, hl_ref[k].ny,
						   0.95, &h), 0);
		ck_assert_msg(fabs(h.est - hl_ref[k].est) <= 1e-12 &&
			      fabs(h.lo - hl_ref[k].lo) <= 1e-12 &&
			      fabs(h.hi - hl_ref[k].hi) <= 1e-12 &&
			      fabs(h.p - hl_ref[k].p) <= 1e-12,
			      "%s: %.17g %.17g %.17g %.17g", hl_ref[k].name,
			      h.est, h.lo, h.hi, h.p);
	}
	/* three a side: P(U = 0) = 1/20 > 0.025, no interval at 95% */
	ck_assert_int_eq(pv_stats_hl_shift(hl_ref[0].x, 3, hl_ref[0].y, 3,
					   0.95, &h), -1);
	/* but at 90% the extremes: P(U = 0) = 0.05 <= 0.05 */
	ck_assert_int_eq(pv_stats_hl_shift(hl_ref[0].x, 3, hl_ref[0].y, 3,
					   0.90, &h), 0);
	ck_assert(h.lo == 2.9 - 2.3 && h.hi == 4.4 - 0.7);
}
END_TEST

/*
 * A shift of zero among differences of both signs is -0.0, the least
 * double with half the differences at or below it, as the bisection
 * over the doubles gave it before the differences were sorted whole.
 */
START_TEST(test_hl_shift_zero)
{
	static const double v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct pv_hl h;

	ck_assert_int_eq(pv_stats_hl_shift(v, 8, v, 8, 0.95, &h), 0);
	ck_assert(h.est == 0 && signbit(h.est));
	ck_assert(h.lo < 0 && h.hi > 0 && h.lo == -h.hi);
}
END_TEST

START_TEST(test_effect_sizes)
{
	size_t k;

	load();
	for (k = 0; k < nvec; k++) {
		struct vec *v = &vecs[k];

		near(v, "g", pv_stats_hedges_g(v->x, v->nx, v->y, v->ny));
		near(v, "cliff", pv_stats_cliff(v->x, v->nx, v->y, v->ny));
	}
	/* again, each size's correction kept from the first pass: the same
	 * bits as computed */
	for (k = 0; k < nvec; k++) {
		struct vec *v = &vecs[k];
		double g = pv_stats_hedges_g(v->x, v->nx, v->y, v->ny);

		near(v, "g", g);
		ck_assert(g == pv_stats_hedges_g(v->x, v->nx, v->y, v->ny) ||
			  (isnan(g) && isnan(pv_stats_hedges_g(v->x, v->nx,
							      v->y, v->ny))));
		/* from Welch's test of the same sides: the same bits */
		if (v->nx >= 2 && v->ny >= 2) {
			struct pv_welch w;
			double gw;

			pv_stats_welch(v->x, v->nx, v->y, v->ny, 0.95, &w);
			gw = pv_stats_hedges_g_welch(&w, v->nx, v->ny);
			ck_assert(g == gw || (isnan(g) && isnan(gw)));
		}
	}
	ck_assert_uint_ge(checked, 30);
}
END_TEST

START_TEST(test_bootstrap)
{
	size_t k;

	load();
	for (k = 0; k < nvec; k++) {
		struct vec *v = &vecs[k];
		double lo, hi, lo2, hi2;

		pv_stats_bootstrap_median_diff(v->x, v->nx, v->y, v->ny, 200,
					       12345, 0.95, &lo, &hi);
		near(v, "b_lo", lo);
		near(v, "b_hi", hi);
		/* deterministic: the same call, the same bits */
		pv_stats_bootstrap_median_diff(v->x, v->nx, v->y, v->ny, 200,
					       12345, 0.95, &lo2, &hi2);
		ck_assert(lo == lo2 && hi == hi2);
	}
	ck_assert_uint_ge(checked, 30);
}
END_TEST

/* The t quantile from its expansion agrees with GSL's inverse. */
START_TEST(test_t_quantile)
{
	static const double prob[] = {
		0.0011, 0.025, 0.05, 0.2, 0.5, 0.8, 0.9, 0.95, 0.975, 0.99,
		0.995, 0.9989
	};
	double df;
	size_t i;

	for (df = 1; df < 400; df = df * 1.07 + 0.013) {
		for (i = 0; i < sizeof(prob) / sizeof(prob[0]); i++) {
			double got = pv_stats_t_quantile(prob[i], df);
			double want = gsl_cdf_tdist_Pinv(prob[i], df);

			ck_assert_msg(fabs(got - want) <= 1e-12 * fabs(want) +
				      1e-15, "df %.17g prob %g: %.17g, GSL %.17g",
				      df, prob[i], got, want);
		}
	}
}
END_TEST

START_TEST(test_bootstrap_exact)
{
	size_t k;

	load();
	for (k = 0; k < nvec; k++) {
		struct vec *v = &vecs[k];
		double lo, hi;

		ck_assert_int_eq(pv_stats_bootstrap_median_diff_exact(v->x,
				 v->nx, v->y, v->ny, 0.95, &lo, &hi),
				 v->nx > PV_STATS_BOOT_EXACT_MAX ||
				 v->ny > PV_STATS_BOOT_EXACT_MAX ? -1 : 0);
		if (v->nx > PV_STATS_BOOT_EXACT_MAX ||
		    v->ny > PV_STATS_BOOT_EXACT_MAX)
			continue;
		near(v, "be_lo", lo);
		near(v, "be_hi", hi);
	}
	ck_assert_uint_ge(checked, 30);
}
END_TEST

START_TEST(test_bootstrap_exact_vs_drawn)
{
	/* at n = 10 and 20 the drawn bootstrap with many resamples agrees */
	double x[20], y[20], lo, hi, mlo, mhi;
	size_t i;

	for (i = 0; i < 20; i++) {
		x[i] = 100 + (double)((i * 7) % 20) * 0.37;
		y[i] = 96 + (double)((i * 11) % 20) * 0.41;
	}
	ck_assert_int_eq(pv_stats_bootstrap_median_diff_exact(x, 10, y, 10,
			 0.95, &lo, &hi), 0);
	pv_stats_bootstrap_median_diff(x, 10, y, 10, 200000, 1, 0.95, &mlo,
				       &mhi);
	ck_assert_double_eq_tol(lo, mlo, 0.2);
	ck_assert_double_eq_tol(hi, mhi, 0.2);
	ck_assert_int_eq(pv_stats_bootstrap_median_diff_exact(x, 20, y, 20,
			 0.95, &lo, &hi), 0);
	pv_stats_bootstrap_median_diff(x, 20, y, 20, 200000, 1, 0.95, &mlo,
				       &mhi);
	ck_assert_double_eq_tol(lo, mlo, 0.2);
	ck_assert_double_eq_tol(hi, mhi, 0.2);
}
END_TEST

START_TEST(test_summary)
{
	size_t k;

	load();
	for (k = 0; k < nvec; k++) {
		struct vec *v = &vecs[k];
		struct pv_summary s;
		double sorted[MAXV];

		memcpy(sorted, v->x, v->nx * sizeof(double));
		pv_stats_sort(sorted, v->nx);
		pv_stats_summary(v->x, sorted, v->nx, 0.95, &s);
		near(v, "s_n", (double)s.n);
		near(v, "s_mean", s.mean);
		near(v, "s_median", s.median);
		near(v, "s_sd", s.sd);
		near(v, "s_cv", s.cv);
		near(v, "s_mad", s.mad);
		near(v, "s_rcv", s.rcv);
		near(v, "s_min", s.min);
		near(v, "s_max", s.max);
		near(v, "s_mean_lo", s.mean_lo);
		near(v, "s_mean_hi", s.mean_hi);
		near(v, "s_med_lo", s.median_lo);
		near(v, "s_med_hi", s.median_hi);
		near(v, "s_med_cover", s.median_cover);
	}
	ck_assert_uint_ge(checked, 30);
}
END_TEST

START_TEST(test_ttest1)
{
	size_t k, i;

	load();
	for (k = 0; k < nvec; k++) {
		struct vec *v = &vecs[k];
		double z[MAXV], m = 0;
		struct pv_welch w;

		for (i = 0; i < v->ny; i++)
			m += v->y[i];
		m /= (double)v->ny;
		for (i = 0; i < v->ny; i++)
			z[i] = v->y[i] - m * 0.9;
		pv_stats_ttest1(z, v->ny, 0.95, &w);
		near(v, "t1_t", w.t);
		near(v, "t1_p", w.p);
	}
	ck_assert_uint_ge(checked, 30);
}
END_TEST

/* The within-group trend: sides apart in time, and interleaved. */
START_TEST(test_trend)
{
	size_t k, i;

	load();
	for (k = 0; k < nvec; k++) {
		struct vec *v = &vecs[k];
		double tx[MAXV], ty[MAXV];
		struct pv_trendfit tr;
		int rc;

		for (i = 0; i < v->nx; i++)
			tx[i] = (double)i;
		for (i = 0; i < v->ny; i++)
			ty[i] = (double)(v->nx + i);
		rc = pv_stats_trend(v->x, tx, v->nx, v->y, ty, v->ny, &tr);
		ck_assert_int_eq(rc, isnan(col(v, "tr_t")) &&
				 isnan(col(v, "tr_diff")) ? -1 : 0);
		if (rc == 0) {
			near(v, "tr_t", tr.t);
			near(v, "tr_diff", tr.diff);
			near(v, "tr_se", tr.diff_se);
		}
		for (i = 0; i < v->nx; i++)
			tx[i] = (double)(2 * i);
		for (i = 0; i < v->ny; i++)
			ty[i] = (double)(2 * i + 1);
		if (pv_stats_trend(v->x, tx, v->nx, v->y, ty, v->ny,
				   &tr) == 0) {
			near(v, "tri_t", tr.t);
			near(v, "tri_diff", tr.diff);
			near(v, "tri_se", tr.diff_se);
		}
	}
	ck_assert_uint_ge(checked, 30);
}
END_TEST

/* The AR(1) factor against the covariance matrices of NumPy. */
START_TEST(test_ar1_factor)
{
	size_t k, i, j, a, b;

	load();
	for (k = 0; k < nvec; k++) {
		struct vec *v = &vecs[k];
		unsigned char side[2 * MAXV];

		for (i = 0; i < v->nx + v->ny; i++)
			side[i] = i >= v->nx;
		near(v, "ar_f", pv_stats_ar1_factor(side, v->nx + v->ny, 0.6));
		/* x at even times 2i, y at odd 2i + 1, merged */
		for (i = 0, a = 0, b = 0; a < v->nx || b < v->ny; i++) {
			if (b >= v->ny || (a < v->nx && 2 * a < 2 * b + 1))
				side[i] = 0, a++;
			else
				side[i] = 1, b++;
		}
		near(v, "ari_f", pv_stats_ar1_factor(side, i, 0.6));
		j = i;
		(void)j;
	}
	ck_assert_uint_ge(checked, 30);
	{
		unsigned char s[6] = { 0, 0, 0, 1, 1, 1 };

		ck_assert(pv_stats_ar1_factor(s, 6, 0) == 1);
		ck_assert(pv_stats_ar1_factor(s, 6, -0.3) == 1);
	}
}
END_TEST

/* Mann-Kendall over two groups, times 0, 1, ... in each */
START_TEST(test_kendall)
{
	size_t k, i;

	load();
	for (k = 0; k < nvec; k++) {
		struct vec *v = &vecs[k];
		double tx[MAXV], ty[MAXV];
		struct pv_kendall kt;

		for (i = 0; i < v->nx; i++)
			tx[i] = (double)i;
		for (i = 0; i < v->ny; i++)
			ty[i] = (double)(i + 1000);
		pv_stats_kendall_trend(v->x, tx, v->nx, v->y, ty, v->ny, &kt);
		near(v, "kt_z", kt.z);
		near(v, "kt_p", kt.p);
	}
	ck_assert_uint_ge(checked, 30);
}
END_TEST

START_TEST(test_tails)
{
	size_t k;

	load();
	for (k = 0; k < nvec; k++) {
		struct vec *v = &vecs[k];
		double t = col(v, "w_t");

		if (!isnan(t) && !isinf(t))
			near(v, "n_sf", pv_stats_normal_sf(t));
		near(v, "c_sf", pv_stats_chisq_sf((isnan(t) || isinf(t) ?
			1 : t * t), (double)v->ny));
		near(v, "c_q", pv_stats_chisq_quantile(0.1,
			(double)(v->nx + v->ny - 2)));
		near(v, "c_q", pv_stats_chisq_quantile_near(0.1,
			(double)(v->nx + v->ny - 2)));
	}
	ck_assert_uint_ge(checked, 30);
}
END_TEST

/*
 * The near quantile is GSL's to 1e-11 of it (runs_to_decide() in
 * classifier.c counts on it) on the levels a plan takes and on Welch's
 * degrees of freedom from 1 to 1e4, fractional.
 */
START_TEST(test_chisq_quantile_near)
{
	static const double prob[] = { 0.01, 0.05, 0.1, 0.2, 0.5 };
	size_t i;
	double df;

	for (i = 0; i < sizeof(prob) / sizeof(prob[0]); i++)
		for (df = 1; df < 1e4; df *= 1.01) {
			double q = pv_stats_chisq_quantile(prob[i], df);
			double qn = pv_stats_chisq_quantile_near(prob[i], df);

			ck_assert_msg(fabs(qn / q - 1) < 1e-11,
				      "prob %g df %.17g: %.17g, GSL %.17g",
				      prob[i], df, qn, q);
		}
	ck_assert(isnan(pv_stats_chisq_quantile_near(0.1, 0)));
	ck_assert(isnan(pv_stats_chisq_quantile_near(1.5, 3)));
	ck_assert_double_eq(pv_stats_chisq_quantile_near(0, 3), 0);
}
END_TEST

START_TEST(test_bh)
{
	double p[128], adj[128];
	size_t k, n = 0, j = 0;

	load();
	for (k = 0; k < nvec; k++)
		if (!isnan(col(&vecs[k], "w_p")))
			p[n++] = col(&vecs[k], "w_p");
	pv_stats_bh(p, n, adj);
	for (k = 0; k < nvec; k++)
		if (!isnan(col(&vecs[k], "w_p")))
			near(&vecs[k], "bh", adj[j++]);
	ck_assert_uint_eq(j, n);
}
END_TEST

START_TEST(test_bh_known)
{
	/* Benjamini & Hochberg's rule by hand: p * m / rank, monotone */
	double p[] = { 0.01, 0.04, 0.03, 0.5 }, adj[4];

	pv_stats_bh(p, 4, adj);
	ck_assert_double_eq_tol(adj[0], 0.04, 1e-15);
	ck_assert_double_eq_tol(adj[1], 0.04 * 4 / 3, 1e-15);
	ck_assert_double_eq_tol(adj[2], 0.04 * 4 / 3, 1e-15);
	ck_assert_double_eq_tol(adj[3], 0.5, 1e-15);
	ck_assert_double_eq_tol(pv_stats_simes(p, 4), 0.04, 1e-15);
}
END_TEST

/* the rule as written, on the ranks of a stable sort of p */
static void
bh_ref(const double *p, size_t n, double *adj)
{
	size_t ord[32], k, j;
	double run = 1;

	for (k = 0; k < n; k++) {
		for (j = k; j > 0 && p[ord[j - 1]] > p[k]; j--)
			ord[j] = ord[j - 1];
		ord[j] = k;
	}
	for (k = n; k-- > 0;) {
		double a = p[ord[k]] * (double)n / (double)(k + 1);

		if (a < run)
			run = a;
		adj[ord[k]] = run;
	}
}

/*
 * Families of 1 to 24 keys (sorted on the stack up to 16, by qsort
 * beyond), with ties: every adjusted p-value as the rule gives it, bit
 * for bit.
 */
START_TEST(test_bh_sizes)
{
	double p[24], adj[24], ref[24];
	uint64_t st = 3;
	size_t n, k, round;

	for (round = 0; round < 200; round++) {
		for (n = 1; n <= 24; n++) {
			for (k = 0; k < n; k++) {
				st = st * 6364136223846793005ULL +
					1442695040888963407ULL;
				p[k] = (st >> 62) == 0 ? 0.04 :
					(double)(st >> 11) /
					9007199254740992.0;
			}
			pv_stats_bh(p, n, adj);
			bh_ref(p, n, ref);
			for (k = 0; k < n; k++)
				ck_assert(adj[k] == ref[k]);
		}
	}
}
END_TEST

START_TEST(test_degenerate)
{
	double a[] = { 2, 2, 2 }, b[] = { 3, 3, 3 }, c[] = { 2, 2 };
	struct pv_welch w;
	struct pv_mwu m;
	struct pv_summary s;

	/* SciPy: NaN.  Here: a certain difference, and none. */
	pv_stats_welch(a, 3, b, 3, 0.95, &w);
	ck_assert(w.p == 0 && isinf(w.t) && w.t > 0 && w.lo == 1 &&
		  w.hi == 1);
	pv_stats_welch(a, 3, c, 2, 0.95, &w);
	ck_assert(w.p == 1 && w.t == 0 && w.lo == 0 && w.hi == 0);
	pv_stats_mwu(a, 3, c, 2, &m);
	ck_assert(m.p == 1);
	ck_assert(isinf(pv_stats_hedges_g(a, 3, b, 3)));
	ck_assert(pv_stats_hedges_g(a, 3, c, 2) == 0);
	/* n = 1: every interval is the point */
	pv_stats_summary(a, a, 1, 0.95, &s);
	ck_assert(s.mean_lo == 2 && s.mean_hi == 2 && s.sd == 0 &&
		  s.median_lo == 2 && s.median_hi == 2);
	ck_assert_double_eq_tol(s.median_cover, 0, 1e-15);
}
END_TEST

START_TEST(test_mde)
{
	/* the textbook 2.0 sd at n = 5 and 1.3 sd at n = 10 (80 % power) */
	ck_assert_double_eq_tol(pv_stats_mde(5, 5, 0.05, 0.8), 2.02, 0.01);
	ck_assert_double_eq_tol(pv_stats_mde(10, 10, 0.05, 0.8), 1.32, 0.01);
	ck_assert_uint_eq(pv_stats_runs_needed(1.33, 0.05, 0.8, 100), 10);
	ck_assert_uint_eq(pv_stats_runs_needed(0.001, 0.05, 0.8, 100), 101);
}
END_TEST

/*
 * Finite runs whose sum or squares overflow a double: their mean, median
 * and standard deviation fit, and come out of the scaled sums; a
 * standard deviation past a double is infinite.  Ordinary runs keep the
 * plain sums' bits.
 */
START_TEST(test_overflow)
{
	double x[] = { 1e308, 1.5e308 };
	double y[] = { 1.79e308, -1.79e308, 1.79e308 };
	double z[] = { 1, 2, 4 };

	ck_assert(fabs(pv_stats_mean(x, 2) / 1.25e308 - 1) < 1e-15);
	ck_assert(pv_stats_median_sorted(x, 2) == 1.25e308);
	ck_assert(fabs(pv_stats_sd(x, 2, 1.25e308) / 3.5355339059327e307 - 1)
		  < 1e-12);
	ck_assert(isfinite(pv_stats_mean(y, 3)));
	ck_assert(isinf(pv_stats_sd(y, 3, pv_stats_mean(y, 3))));
	ck_assert(pv_stats_mean(z, 3) == 7.0 / 3);
	ck_assert(pv_stats_sd(z, 3, 7.0 / 3) ==
		  sqrt(pv_stats_var(z, 3, 7.0 / 3)));
}
END_TEST

static Suite *
stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_reference_count);
	tcase_add_test(tc, test_welch);
	tcase_add_test(tc, test_mwu);
	tcase_add_test(tc, test_hl_shift);
	tcase_add_test(tc, test_hl_shift_zero);
	tcase_add_test(tc, test_effect_sizes);
	tcase_add_test(tc, test_bootstrap);
	tcase_add_test(tc, test_t_quantile);
	tcase_add_test(tc, test_bootstrap_exact);
	tcase_add_test(tc, test_bootstrap_exact_vs_drawn);
	tcase_add_test(tc, test_summary);
	tcase_add_test(tc, test_ttest1);
	tcase_add_test(tc, test_trend);
	tcase_add_test(tc, test_ar1_factor);
	tcase_add_test(tc, test_kendall);
	tcase_add_test(tc, test_tails);
	tcase_add_test(tc, test_chisq_quantile_near);
	tcase_add_test(tc, test_bh);
	tcase_add_test(tc, test_bh_known);
	tcase_add_test(tc, test_sorted_variants);
	tcase_add_test(tc, test_median_max);
	tcase_add_test(tc, test_mad_sorted);
	tcase_add_test(tc, test_bh_sizes);
	tcase_add_test(tc, test_degenerate);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_mde);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(stats_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
