/*
 * stats: tests, intervals and effect sizes for benchmark comparisons (see
 * stats.h).  GSL supplies the distribution functions; everything else is
 * written out here so that its conventions are visible and match the
 * reference values in tests/data/stats/.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include <pthread.h>

#include "stats.h"
#include "xalloc.h"

/*
 * GSL's default error handler aborts the process; lib/ never does.  The
 * inputs are checked before GSL sees them, and the handler is turned off
 * once, before the first call, for what slips through (GSL then returns
 * NaN or its best value).
 */
static pthread_once_t gsl_once = PTHREAD_ONCE_INIT;

static void
gsl_quiet_init(void)
{
	gsl_set_error_handler_off();
}

static void
gsl_quiet(void)
{
	pthread_once(&gsl_once, gsl_quiet_init);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
pv_stats_sort(double *x, size_t n)
{
	size_t i, j;

	if (n > 24) {
		qsort(x, n, sizeof(*x), cmp_double);
		return;
	}
	/* insertion sort: the usual n is 3 to 20 */
	for (i = 1; i < n; i++) {
		double v = x[i];

		for (j = i; j > 0 && x[j - 1] > v; j--)
			x[j] = x[j - 1];
		x[j] = v;
	}
}

/* The largest |x[i] - c| / 2, halved so that it cannot overflow. */
static double
max_half_dev(const double *x, size_t n, double c)
{
	double m = 0, d;
	size_t i;

	for (i = 0; i < n; i++)
		if ((d = fabs(x[i] / 2 - c / 2)) > m)
			m = d;
	return m;
}

double
pv_stats_mean(const double *x, size_t n)
{
	double s = 0, m;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i];
	if (isfinite(s) || n == 0)
		return s / (double)n;
	/*
	 * Finite values whose sum overflows (1e308 and 1.5e308): their
	 * mean fits, between the least and the largest; summed scaled by
	 * the largest magnitude.  Only here, so every other mean keeps its
	 * bits.
	 */
	m = 2 * max_half_dev(x, n, 0);
	if (!isfinite(m) || m == 0)
		return s / (double)n;
	for (s = 0, i = 0; i < n; i++)
		s += x[i] / m;
	return s / (double)n * m;
}

double
pv_stats_sd(const double *x, size_t n, double mean)
{
	double v = pv_stats_var(x, n, mean), m, s = 0, d;
	size_t i;

	if (n < 2 || (isfinite(v) && v >= 0x1p-960))
		return sqrt(v);
	if (isfinite(v)) {
		/*
		 * Deviations so small that their squares underflow (runs of
		 * 1e-300, subnormals): scaled by the largest.  Only here, so
		 * every other deviation keeps its bits.
		 */
		int same = 1;

		for (m = 0, i = 0; i < n; i++) {
			if ((d = fabs(x[i] - mean)) > m)
				m = d;
			same &= x[i] == x[0];
		}
		if (m == 0 || same)
			return sqrt(v);
		for (i = 0; i < n; i++) {
			d = (x[i] - mean) / m;
			s += d * d;
		}
		return m * sqrt(s / (double)(n - 1));
	}
	/* deviations too large to square: scaled by the largest (halved) */
	m = max_half_dev(x, n, mean);
	for (i = 0; i < n; i++) {
		d = (x[i] / 2 - mean / 2) / m;
		s += d * d;
	}
	return 2 * m * sqrt(s / (double)(n - 1));
}

double
pv_stats_var(const double *x, size_t n, double mean)
{
	double s = 0;
	size_t i;
	int same = 1;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++) {
		s += (x[i] - mean) * (x[i] - mean);
		same &= x[i] == x[0];
	}
	/* equal values: exactly 0, whatever the rounding of their mean */
	return same ? 0 : s / (double)(n - 1);
}

double
pv_stats_median_sorted(const double *s, size_t n)
{
	double m;

	if (n % 2)
		return s[n / 2];
	m = (s[n / 2 - 1] + s[n / 2]) / 2;
	/* two values whose sum overflows: their mean fits, halved first */
	return isfinite(m) ? m : s[n / 2 - 1] / 2 + s[n / 2] / 2;
}

/*
 * GSL's inverse is good to about 1e-9 at small fractional df (Welch's df
 * near 1); two Newton steps on the cdf bring it to rounding.
 */
/*
 * A start for the t quantile: the Cornish-Fisher expansion in the normal
 * quantile z to the fourth power of 1/df (Abramowitz and Stegun 26.7.5),
 * within 1e-6 or so of the quantile for df >= 5 and the usual levels.
 */
static double
t_quantile_start(double prob, double df)
{
	double z = gsl_cdf_ugaussian_Pinv(prob), z2 = z * z;
	double g1 = (z2 + 1) * z / 4;
	double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
	double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
	double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) *
		z / 92160;

	return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

static double t_quantile(double prob, double df);

/* the last two asked: Welch's interval and the honest interval's parts
 * ask the same level at the same degrees of freedom */
#define TQ_LAST 2
static _Thread_local struct {
	double prob, df, x;	/* prob 0: empty (never kept) */
} tq_last[TQ_LAST];
static _Thread_local unsigned tq_next;

double
pv_stats_t_quantile(double prob, double df)
{
	double x;
	int i;

	gsl_quiet();
	if (!(df > 0) || !(prob > 0 && prob < 1))
		return prob == 0 ? -INFINITY : prob == 1 ? INFINITY : NAN;
	for (i = 0; i < TQ_LAST; i++)
		if (tq_last[i].prob == prob && tq_last[i].df == df)
			return tq_last[i].x;
	x = t_quantile(prob, df);
	tq_last[tq_next].prob = prob;
	tq_last[tq_next].df = df;
	tq_last[tq_next].x = x;
	tq_next = (tq_next + 1) % TQ_LAST;
	return x;
}

static double
t_quantile(double prob, double df)
{
	double x;
	int i;

	/*
	 * GSL's inverse costs two of the steps below: where the expansion
	 * is close (df >= 5, central levels) start from it and take
	 * Halley steps until one moves it by less than 1e-5 (one, mostly;
	 * the error after such a step is below the CDF's).
	 */
	if (df >= 5 && prob > 0.001 && prob < 0.999) {
		x = t_quantile_start(prob, df);
		for (i = 0; i < 4; i++) {
			double d = gsl_ran_tdist_pdf(x, df), dx;

			if (!(d > 0))
				break;
			/*
			 * Halley's step: the density's own derivative is
			 * -d (df + 1) x / (df + x^2), so the step costs no
			 * more than Newton's and cubes the error
			 */
			dx = (gsl_cdf_tdist_P(x, df) - prob) / d;
			dx /= 1 + dx / 2 * (df + 1) * x / (df + x * x);
			x -= dx;
			/* the expansion starts within 1e-6 or so: after a
			 * step this small the error is below 1e-15 */
			if (fabs(dx) <= 1e-5 * fabs(x))
				break;
		}
		if (isfinite(x))
			return x;
	}
	x = gsl_cdf_tdist_Pinv(prob, df);
	for (i = 0; i < 2 && isfinite(x); i++) {
		double d = gsl_ran_tdist_pdf(x, df);

		if (d <= 0)
			break;
		x -= (gsl_cdf_tdist_P(x, df) - prob) / d;
	}
	return x;
}

double
pv_stats_normal_quantile(double prob)
{
	gsl_quiet();
	return gsl_cdf_ugaussian_Pinv(prob);
}

double
pv_stats_normal_sf(double z)
{
	gsl_quiet();
	return gsl_cdf_ugaussian_Q(z);
}

double
pv_stats_chisq_sf(double x, double df)
{
	gsl_quiet();
	if (isnan(x) || !(df > 0))
		return NAN;
	return gsl_cdf_chisq_Q(x, df);
}

double
pv_stats_chisq_quantile(double prob, double df)
{
	gsl_quiet();
	if (!(prob >= 0 && prob <= 1) || !(df > 0))
		return NAN;
	return gsl_cdf_chisq_Pinv(prob, df);
}

/* the last two asked: Welch's p and the unwidened honest interval's are
 * the same |t| (the 2^k scaling is exact) at the same df */
#define TP_LAST 2
static _Thread_local struct {
	double t, df, p;	/* df 0: empty (never kept) */
} tp_last[TP_LAST];
static _Thread_local unsigned tp_next;

static double t_two_sided_calc(double t, double df);

/* two-sided p of a t statistic */
static double
t_two_sided(double t, double df)
{
	double p;
	int i;

	gsl_quiet();
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	t = fabs(t);
	for (i = 0; i < TP_LAST; i++)
		if (tp_last[i].t == t && tp_last[i].df == df)
			return tp_last[i].p;
	p = t_two_sided_calc(t, df);
	tp_last[tp_next].t = t;
	tp_last[tp_next].df = df;
	tp_last[tp_next].p = p;
	tp_next = (tp_next + 1) % TP_LAST;
	return p;
}

static double
t_two_sided_calc(double t, double df)
{
	double p;

	/*
	 * Far in the tail GSL's t distribution loses digits (7e-8 relative
	 * at p = 1e-43); the incomplete beta function it rests on keeps
	 * them: p = I_x(df/2, 1/2), x = df / (df + t^2).
	 */
	if (fabs(t) >= 4)
		p = gsl_sf_beta_inc(df / 2, 0.5, df / (df + t * t));
	else
		p = 2 * gsl_cdf_tdist_Q(fabs(t), df);
	return p > 1 ? 1 : p;
}

/*
 * The order-statistic rank k and coverage of the median interval, and the
 * t quantile of the mean interval, depend on (n, conf) only: keep them for
 * the small n that benchmarks have.
 */
#define SUMMARY_CACHE 256
static _Thread_local struct {
	double conf, cover, tq;
	size_t k;
} sum_cache[SUMMARY_CACHE];

static void
summary_consts(size_t n, double conf, size_t *kp, double *cover, double *tq)
{
	double tail = (1 - conf) / 2;
	size_t k;

	gsl_quiet();
	if (n < SUMMARY_CACHE && sum_cache[n].conf == conf && conf > 0) {
		*kp = sum_cache[n].k;
		*cover = sum_cache[n].cover;
		*tq = sum_cache[n].tq;
		return;
	}
	/*
	 * [x(k), x(n-k+1)] covers the median with probability
	 * 1 - 2 P(Bin(n, 1/2) <= k - 1); take the largest k that keeps
	 * the coverage at conf or more.
	 */
	k = 1;
	while (k + 1 <= (n + 1) / 2 &&
	       1 - 2 * gsl_cdf_binomial_P((unsigned)k, 0.5, (unsigned)n) >=
	       conf)
		k++;
	*kp = k;
	*cover = 1 - 2 * (k >= 2 ?
		gsl_cdf_binomial_P((unsigned)(k - 1), 0.5, (unsigned)n) :
		pow(0.5, (double)n));
	if (*cover < 0)
		*cover = 0;
	*tq = n >= 2 ? pv_stats_t_quantile(1 - tail, (double)(n - 1)) : 0;
	if (n < SUMMARY_CACHE) {
		sum_cache[n].conf = conf;
		sum_cache[n].k = k;
		sum_cache[n].cover = *cover;
		sum_cache[n].tq = *tq;
	}
}

#define TQ_DF 1024
#define TQ_PROBS 4
static _Thread_local struct {
	double prob;
	double q[TQ_DF];	/* 0: not computed */
} tq_cache[TQ_PROBS];

double
pv_stats_t_quantile_whole(double prob, unsigned df)
{
	int i;

	if (df == 0)
		return INFINITY;
	if (df >= TQ_DF)
		return pv_stats_t_quantile(prob, (double)df);
	for (i = 0; i < TQ_PROBS; i++) {
		if (tq_cache[i].prob == prob)
			break;
		if (tq_cache[i].prob == 0) {
			tq_cache[i].prob = prob;
			break;
		}
	}
	if (i == TQ_PROBS)
		return pv_stats_t_quantile(prob, (double)df);
	if (tq_cache[i].q[df] == 0)
		tq_cache[i].q[df] = pv_stats_t_quantile(prob, (double)df);
	return tq_cache[i].q[df];
}

double
pv_stats_t_pvalue(double t, double df)
{
	return t_two_sided(t, df);
}

double
pv_stats_f_pvalue(double f, double d1, double d2)
{
	if (isinf(f))
		return 0;
	return f > 0 ? gsl_cdf_fdist_Q(f, d1, d2) : 1;
}

void
pv_stats_summary(const double *x, const double *sorted, size_t n,
		 double conf, struct pv_summary *s)
{
	double small[64], *dev, tq;
	size_t i, k;

	memset(s, 0, sizeof(*s));
	s->n = n;
	s->mean = pv_stats_mean(x, n);
	s->sd = pv_stats_sd(x, n, s->mean);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = pv_stats_median_sorted(sorted, n);
	s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : 0;

	dev = n <= 64 ? small : pv_xreallocarray(NULL, n, sizeof(*dev));
	for (i = 0; i < n; i++)
		dev[i] = fabs(x[i] - s->median);
	pv_stats_sort(dev, n);
	s->mad = pv_stats_median_sorted(dev, n);
	if (dev != small)
		free(dev);
	s->rcv = s->median != 0 ?
		PV_STATS_MAD_SCALE * s->mad / fabs(s->median) : 0;

	summary_consts(n, conf, &k, &s->median_cover, &tq);
	s->mean_lo = s->mean_hi = s->mean;
	if (n >= 2) {
		double h = tq * s->sd / sqrt((double)n);

		s->mean_lo = s->mean - h;
		s->mean_hi = s->mean + h;
	}
	s->median_lo = sorted[k - 1];
	s->median_hi = sorted[n - k];
}

/*
 * Far from 1 the squares of deviations overflow (beyond 1e+154) or vanish
 * (below 1e-154, and subnormals lose digits in every sum).  Scaled by a
 * power of two, which is exact, the values of two samples are computed
 * on as if they were near 1: the exponent k that brings the largest of
 * them to [0.5, 1), or 0 when they are in the ordinary range (where the
 * scaling would change no bit).
 */
static int
pow2_scale(const double *x, size_t nx, const double *y, size_t ny)
{
	double m = 0;
	size_t i;
	int k;

	for (i = 0; i < nx; i++)
		m = fmax(m, fabs(x[i]));
	for (i = 0; i < ny; i++)
		m = fmax(m, fabs(y[i]));
	if (!(m > 0) || !isfinite(m) || (m > 0x1p-400 && m < 0x1p400))
		return 0;
	frexp(m, &k);
	return k;
}

/*
 * The mean of x scaled by 2^-k, and its sample variance (n - 1), exactly
 * 0 for equal values whatever the rounding of their mean.
 */
static void
side_stats(const double *x, size_t n, int k, double *mean, double *var)
{
	double s = 0, m;
	size_t i;
	int same = 1;

	for (i = 0; i < n; i++) {
		s += ldexp(x[i], -k);
		same &= x[i] == x[0];
	}
	m = s / (double)n;
	*mean = m;
	*var = 0;
	if (same || n < 2)
		return;
	s = 0;
	for (i = 0; i < n; i++) {
		double d = ldexp(x[i], -k) - m;

		s += d * d;
	}
	*var = s / (double)(n - 1);
}

void
pv_stats_welch(const double *x, size_t nx, const double *y, size_t ny,
	       double conf, struct pv_welch *w)
{
	int k = pow2_scale(x, nx, y, ny);
	double mx, my, vx, vy, ax, ay, h;

	side_stats(x, nx, k, &mx, &vx);
	side_stats(y, ny, k, &my, &vy);
	ax = vx / (double)nx;
	ay = vy / (double)ny;
	w->diff = ldexp(my - mx, k);
	w->se = ldexp(sqrt(ax + ay), k);
	if (w->se == 0) {
		w->df = (double)(nx + ny - 2);
		w->t = w->diff == 0 ? 0 : w->diff > 0 ? INFINITY : -INFINITY;
		w->p = w->diff == 0 ? 1 : 0;
		w->lo = w->hi = w->diff;
		return;
	}
	w->df = (ax + ay) * (ax + ay) /
		(ax * ax / (double)(nx - 1) + ay * ay / (double)(ny - 1));
	/* t and the interval on the scaled values: the unscaled difference
	 * and standard error may be subnormal, rounded to few digits */
	w->t = (my - mx) / sqrt(ax + ay);
	w->p = t_two_sided(w->t, w->df);
	h = pv_stats_t_quantile(1 - (1 - conf) / 2, w->df) * sqrt(ax + ay);
	w->lo = ldexp(my - mx - h, k);
	w->hi = ldexp(my - mx + h, k);
}

void
pv_stats_ttest1(const double *x, size_t n, double conf, struct pv_welch *w)
{
	double m = pv_stats_mean(x, n);
	double h;

	w->diff = m;
	w->df = (double)(n - 1);
	w->se = sqrt(pv_stats_var(x, n, m) / (double)n);
	if (w->se == 0) {
		w->t = m == 0 ? 0 : m > 0 ? INFINITY : -INFINITY;
		w->p = m == 0 ? 1 : 0;
		w->lo = w->hi = m;
		return;
	}
	w->t = m / w->se;
	w->p = t_two_sided(w->t, w->df);
	h = pv_stats_t_quantile(1 - (1 - conf) / 2, w->df) * w->se;
	w->lo = m - h;
	w->hi = m + h;
}

/*
 * The null distribution of U for sample sizes (m, n), as the upper tail
 * P(U >= u) for u = 0..m*n.  Counts follow f(i, j, u) = f(i - 1, j, u - j)
 * + f(i, j - 1, u), sums only, so the doubles stay accurate to rounding
 * even where the counts pass 2^53.  The last table is kept: a run of
 * comparisons usually has one pair of sizes.
 */
static _Thread_local struct {
	size_t m, n;
	double *sf;
} mwu_cache;

static const double *
mwu_null_sf(size_t m, size_t n)
{
	double **f, total, acc;
	size_t i, j, u, umax = m * n;

	if (mwu_cache.sf != NULL && mwu_cache.m == m && mwu_cache.n == n)
		return mwu_cache.sf;
	/* f[i] holds f(i, j, 0..i*j) for the current j */
	f = pv_xcalloc(m + 1, sizeof(*f));
	for (i = 0; i <= m; i++) {
		f[i] = pv_xcalloc(umax + 1, sizeof(**f));
		f[i][0] = 1;	/* j = 0: one arrangement, U = 0 */
	}
	for (j = 1; j <= n; j++) {
		/* i ascending: f[i - 1] is already at j, f[i] still at j-1 */
		for (i = 1; i <= m; i++) {
			for (u = i * j; u >= j; u--)
				f[i][u] += f[i - 1][u - j];
		}
	}
	free(mwu_cache.sf);
	mwu_cache.sf = pv_xcalloc(umax + 2, sizeof(double));
	total = 0;
	for (u = 0; u <= umax; u++)
		total += f[m][u];
	acc = 0;
	for (u = umax + 1; u-- > 0;) {
		acc += f[m][u];
		mwu_cache.sf[u] = acc / total;
	}
	mwu_cache.m = m;
	mwu_cache.n = n;
	for (i = 0; i <= m; i++)
		free(f[i]);
	free(f);
	return mwu_cache.sf;
}

struct ranked {
	double v;
	int side;	/* 0: x, 1: y */
};

static int
cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->v,
			  &((const struct ranked *)b)->v);
}

void
pv_stats_mwu(const double *x, size_t nx, const double *y, size_t ny,
	     struct pv_mwu *m)
{
	size_t n = nx + ny, i, j;
	struct ranked small[48], *r = n <= 48 ? small :
		pv_xreallocarray(NULL, n, sizeof(*r));
	double ry = 0, tie_term = 0, u1, u2, umax, mu, sd;
	int ties = 0;

	gsl_quiet();
	if (nx <= 24 && ny <= 24) {
		/* the usual few runs: sort each side, then merge them */
		double sx[24], sy[24];
		size_t a = 0, b = 0;

		memcpy(sx, x, nx * sizeof(*x));
		memcpy(sy, y, ny * sizeof(*y));
		pv_stats_sort(sx, nx);
		pv_stats_sort(sy, ny);
		for (i = 0; i < n; i++)
			r[i] = b == ny || (a < nx && !(sy[b] < sx[a])) ?
				(struct ranked){ sx[a++], 0 } :
				(struct ranked){ sy[b++], 1 };
	} else {
		for (i = 0; i < nx; i++)
			r[i] = (struct ranked){ x[i], 0 };
		for (i = 0; i < ny; i++)
			r[nx + i] = (struct ranked){ y[i], 1 };
		qsort(r, n, sizeof(*r), cmp_ranked);
	}
	for (i = 0; i < n; i = j) {
		double rank, t;
		size_t k;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		rank = ((double)(i + 1) + (double)j) / 2;
		for (k = i; k < j; k++)
			if (r[k].side)
				ry += rank;
		t = (double)(j - i);
		if (j - i > 1) {
			ties = 1;
			tie_term += t * t * t - t;
		}
	}
	if (r != small)
		free(r);
	u1 = ry - (double)ny * (double)(ny + 1) / 2;
	u2 = (double)nx * (double)ny - u1;
	m->u = u1;
	umax = u1 > u2 ? u1 : u2;
	if (!ties && nx <= PV_STATS_MWU_EXACT_MAX &&
	    ny <= PV_STATS_MWU_EXACT_MAX) {
		const double *sf = mwu_null_sf(ny, nx);

		m->exact = 1;
		m->p = 2 * sf[(size_t)umax];
	} else {
		m->exact = 0;
		mu = (double)nx * (double)ny / 2;
		sd = sqrt((double)nx * (double)ny / 12 *
			  ((double)(n + 1) - tie_term /
			   ((double)n * (double)(n - 1))));
		if (sd == 0)
			m->p = 1;
		else
			m->p = 2 * gsl_cdf_ugaussian_Q((umax - mu - 0.5) / sd);
	}
	if (m->p > 1)
		m->p = 1;
}

/* doubles in an order of unsigned integers, and back */
static uint64_t
ord_of(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u >> 63 ? ~u : u | 0x8000000000000000ULL;
}

static double
of_ord(uint64_t u)
{
	double v;

	u = u >> 63 ? u & ~0x8000000000000000ULL : ~u;
	memcpy(&v, &u, sizeof(v));
	return v;
}

/* how many of the differences sy[j] - sx[i] (both sorted) are <= v */
static size_t
diffs_le(const double *sx, size_t nx, const double *sy, size_t ny, double v)
{
	size_t i = 0, j, c = 0;

	/* for each j the i with a difference <= v are a suffix, moving up */
	for (j = 0; j < ny; j++) {
		while (i < nx && sy[j] - sx[i] > v)
			i++;
		c += nx - i;
	}
	return c;
}

/*
 * The k-th smallest (from 1) of the differences: the least double with k
 * differences at or below it, by bisection over the doubles' order (64
 * steps at most), without the nx ny differences in memory.
 */
static double
diff_kth(const double *sx, size_t nx, const double *sy, size_t ny, size_t k)
{
	uint64_t lo = ord_of(sy[0] - sx[nx - 1]), hi = ord_of(sy[ny - 1] - sx[0]);

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (diffs_le(sx, nx, sy, ny, of_ord(mid)) >= k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return of_ord(lo);
}

/* the most differences heapsorted whole (8 bytes each), not bisected */
#define HL_SORT_MAX 65536

static void
sift_u64(uint64_t *a, size_t i, size_t n)
{
	uint64_t v = a[i];
	size_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[c] <= v)
			break;
		a[i] = a[c];
		i = c;
	}
	a[i] = v;
}

static void
sort_u64(uint64_t *a, size_t n)
{
	size_t i;
	uint64_t t;

	for (i = n / 2; i-- > 0;)
		sift_u64(a, i, n);
	for (i = n; i-- > 1;) {
		t = a[0];
		a[0] = a[i];
		a[i] = t;
		sift_u64(a, 0, i);
	}
}

/*
 * The k-th smallest difference from all of them in the doubles' order,
 * o[0..N): what diff_kth() finds, bit for bit.  Its bisection returns the
 * least double with k differences at or below it: the k-th itself, but
 * for a zero, which -0.0 has as many at or below it as +0.0: -0.0 unless
 * the bisection starts above it, at m = sy[0] - sx[nx - 1] (+0.0).
 */
static double
diff_kth_sorted(const uint64_t *o, size_t k, double m)
{
	double d = of_ord(o[k - 1]);

	if (d == 0)
		return ord_of(m) <= ord_of(-0.0) ? -0.0 : 0.0;
	return d;
}

int
pv_stats_hl_shift(const double *x, size_t nx, const double *y, size_t ny,
		  double conf, struct pv_hl *h)
{
	size_t N = nx * ny, i, j, c;
	double a = (1 - conf) / 2, *sx, *sy;
	struct pv_mwu m;

	if (nx == 0 || ny == 0)
		return -1;
	pv_stats_mwu(x, nx, y, ny, &m);
	sx = pv_xreallocarray(NULL, nx + ny, sizeof(*sx));
	sy = sx + nx;
	memcpy(sx, x, nx * sizeof(*x));
	memcpy(sy, y, ny * sizeof(*y));
	pv_stats_sort(sx, nx);
	pv_stats_sort(sy, ny);
	if (m.exact) {
		const double *sf = mwu_null_sf(ny, nx);

		/* P(U <= u) = P(U >= N - u) by symmetry; 1 - conf rounded */
		for (c = 0; c < N && sf[N - c] <= a * (1 + 1e-9); c++)
			;
	} else {
		double mu = (double)N / 2, sd, tie = 0, n = (double)(nx + ny);
		double *all = pv_xreallocarray(NULL, nx + ny, sizeof(*all));

		memcpy(all, sx, (nx + ny) * sizeof(*all));
		pv_stats_sort(all, nx + ny);
		for (i = 0; i < nx + ny; i = j) {
			double t;

			for (j = i + 1; j < nx + ny && all[j] == all[i]; j++)
				;
			t = (double)(j - i);
			tie += t * t * t - t;
		}
		free(all);
		sd = sqrt((double)N / 12 * (n + 1 - tie / (n * (n - 1))));
		c = (size_t)fmax(0, floor(mu - gsl_cdf_ugaussian_Pinv(1 - a) *
					  sd));
	}
	if (c == 0 || 2 * c > N + 1) {
		free(sx);
		return -1;
	}
	/*
	 * Four order statistics of the differences: up to HL_SORT_MAX of
	 * finite runs, one sort of them all is cheaper than four bisections
	 * of 64 counts each
	 */
	for (i = 0; i < nx + ny && isfinite(sx[i]); i++)
		;
	if (i == nx + ny && N <= HL_SORT_MAX) {
		uint64_t *o = pv_xreallocarray(NULL, N, sizeof(*o));
		double m0 = sy[0] - sx[nx - 1];

		for (j = 0; j < ny; j++)
			for (i = 0; i < nx; i++)
				o[j * nx + i] = ord_of(sy[j] - sx[i]);
		sort_u64(o, N);
		h->est = N % 2 ? diff_kth_sorted(o, N / 2 + 1, m0) :
			(diff_kth_sorted(o, N / 2, m0) +
			 diff_kth_sorted(o, N / 2 + 1, m0)) / 2;
		h->lo = diff_kth_sorted(o, c, m0);
		h->hi = diff_kth_sorted(o, N + 1 - c, m0);
		free(o);
	} else {
		h->est = N % 2 ? diff_kth(sx, nx, sy, ny, N / 2 + 1) :
			(diff_kth(sx, nx, sy, ny, N / 2) +
			 diff_kth(sx, nx, sy, ny, N / 2 + 1)) / 2;
		h->lo = diff_kth(sx, nx, sy, ny, c);
		h->hi = diff_kth(sx, nx, sy, ny, N + 1 - c);
	}
	h->p = m.p;
	free(sx);
	return 0;
}

double
pv_stats_hedges_g(const double *x, size_t nx, const double *y, size_t ny)
{
	double df = (double)(nx + ny - 2);
	int k = pow2_scale(x, nx, y, ny);
	double mx, my, vx, vy, sp, d, j;

	/* scaled as in Welch's test: d does not depend on the scale */
	gsl_quiet();
	side_stats(x, nx, k, &mx, &vx);
	side_stats(y, ny, k, &my, &vy);
	sp = sqrt(((double)(nx - 1) * vx + (double)(ny - 1) * vy) / df);

	if (sp == 0)
		return my == mx ? 0 : my > mx ? INFINITY : -INFINITY;
	d = (my - mx) / sp;
	if (df < 2)
		return d;
	j = exp(gsl_sf_lngamma(df / 2) - gsl_sf_lngamma((df - 1) / 2)) /
		sqrt(df / 2);
	return d * j;
}

double
pv_stats_cliff(const double *x, size_t nx, const double *y, size_t ny)
{
	long long more = 0, less = 0;
	size_t i, j;

	for (i = 0; i < ny; i++) {
		for (j = 0; j < nx; j++) {
			more += y[i] > x[j];
			less += y[i] < x[j];
		}
	}
	return (double)(more - less) / ((double)nx * (double)ny);
}

static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * The median of n draws with replacement from sorted s[0..n): count the
 * draws per index and walk the counts to the middle order statistics.
 */
static double
resample_median(const double *s, size_t n, unsigned *count, uint64_t *state)
{
	size_t i, seen = 0, lo = n / 2 - (n % 2 == 0), hi = n / 2;
	double a = 0, b;

	memset(count, 0, n * sizeof(*count));
	for (i = 0; i < n; i++)
		count[(uint64_t)(((unsigned __int128)splitmix64(state) * n) >>
				 64)]++;
	for (i = 0; i < n; i++) {
		if (seen <= lo && lo < seen + count[i])
			a = s[i];
		if (seen <= hi && hi < seen + count[i]) {
			b = s[i];
			return n % 2 ? b : (a + b) / 2;
		}
		seen += count[i];
	}
	return s[n - 1];	/* not reached */
}

/* numpy's linear quantile of an ascending array */
static double
quantile_sorted(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1), t;
	size_t k = (size_t)floor(pos);

	if (k + 1 >= n)
		return v[n - 1];
	t = pos - (double)k;
	if (t >= 0.5)
		return v[k + 1] - (v[k + 1] - v[k]) * (1 - t);
	return v[k] + (v[k + 1] - v[k]) * t;
}

void
pv_stats_bootstrap_median_diff(const double *x, size_t nx, const double *y,
			       size_t ny, unsigned b, uint64_t seed,
			       double conf, double *lo, double *hi)
{
	double *sx = pv_xreallocarray(NULL, nx + ny, sizeof(double));
	double *sy = sx + nx;
	double *stat = pv_xreallocarray(NULL, b, sizeof(double));
	unsigned *count = pv_xreallocarray(NULL, nx > ny ? nx : ny,
					   sizeof(unsigned));
	uint64_t state = seed;
	unsigned i;

	memcpy(sx, x, nx * sizeof(double));
	memcpy(sy, y, ny * sizeof(double));
	pv_stats_sort(sx, nx);
	pv_stats_sort(sy, ny);
	for (i = 0; i < b; i++) {
		double mx = resample_median(sx, nx, count, &state);
		double my = resample_median(sy, ny, count, &state);

		stat[i] = my - mx;
	}
	pv_stats_sort(stat, b);
	*lo = quantile_sorted(stat, b, (1 - conf) / 2);
	*hi = quantile_sorted(stat, b, 1 - (1 - conf) / 2);
	free(sx);
	free(stat);
	free(count);
}

int
pv_stats_trend(const double *x, const double *tx, size_t nx, const double *y,
	       const double *ty, size_t ny, struct pv_trendfit *tr)
{
	const double *v[2] = { x, y }, *t[2] = { tx, ty };
	size_t n[2] = { nx, ny }, g, i;
	double mv[2], mt[2], sxx = 0, sxy = 0, rss = 0, s2, dt, slope, se;
	int k = pow2_scale(x, nx, y, ny), same;

	if (nx + ny < 4 || nx == 0 || ny == 0)
		return -1;
	/* on the values scaled by 2^-k, as in Welch's test */
	for (g = 0; g < 2; g++) {
		double sv = 0, st = 0;

		for (i = 0; i < n[g]; i++) {
			sv += ldexp(v[g][i], -k);
			st += t[g][i];
		}
		mv[g] = sv / (double)n[g];
		mt[g] = st / (double)n[g];
		for (i = 0; i < n[g]; i++) {
			sxx += (t[g][i] - mt[g]) * (t[g][i] - mt[g]);
			sxy += (t[g][i] - mt[g]) *
				(ldexp(v[g][i], -k) - mv[g]);
		}
	}
	if (!(sxx > 0))
		return -1;
	slope = sxy / sxx;
	same = 1;
	for (g = 0; g < 2; g++)
		for (i = 0; i < n[g]; i++) {
			double r = ldexp(v[g][i], -k) - mv[g] -
				slope * (t[g][i] - mt[g]);

			rss += r * r;
			same &= v[g][i] == v[g][0];
		}
	/* a group of equal values has no spread to fit */
	if (same)
		rss = 0;
	tr->df = (double)(nx + ny) - 3;
	s2 = rss / tr->df;
	se = sqrt(s2 / sxx);
	if (se > 0)
		tr->t = slope / se;
	else
		tr->t = slope == 0 ? 0 : slope > 0 ? INFINITY : -INFINITY;
	tr->slope = ldexp(slope, k);
	tr->se = ldexp(se, k);
	dt = mt[1] - mt[0];
	tr->diff = ldexp(mv[1] - mv[0] - slope * dt, k);
	tr->diff_se = ldexp(sqrt(s2 * (1 / (double)nx + 1 / (double)ny +
				       dt * dt / sxx)), k);
	return 0;
}

/*
 * The exact bootstrap of the median.  For a resample of n draws from
 * sorted s[1..n] (indices uniform), with N(i) the number of draws at
 * indices <= i, Binomial(n, i/n):
 *   n odd, n = 2m+1: the median is s[I], P(I <= i) = P(N(i) >= m+1);
 *   n even, n = 2m: it is (s[I] + s[J]) / 2, I and J the m-th and
 *   (m+1)-th order statistics; for i < j
 *     P(I = i, J = j) = C(n, m) (i^m - (i-1)^m) / n^m
 *                       ((n-j+1)^(n-m) - (n-j)^(n-m)) / n^(n-m)
 *   (m draws in [1, i] reaching i, the others in [j, n] reaching j), and
 *   P(I = J = i) = P(I = i) - sum over j > i of P(I = i, J = j).
 * These depend on n only and are kept per n.
 */
struct boot_atom {
	unsigned short i, j;	/* 0-based indices; i == j when odd */
	double p;
};

static _Thread_local struct {
	struct boot_atom *a;
	size_t n;
} boot_cache[PV_STATS_BOOT_EXACT_MAX + 1];

/* P(Binomial(n, i/n) >= k) */
static double
binom_ge(size_t k, size_t i, size_t n)
{
	if (k == 0)
		return 1;
	if (i == 0)
		return 0;
	if (i == n)
		return 1;
	return gsl_cdf_binomial_Q((unsigned)(k - 1), (double)i / (double)n,
				  (unsigned)n);
}

static const struct boot_atom *
boot_atoms(size_t n, size_t *na)
{
	struct boot_atom *a;
	size_t m = n / 2, i, j, k = 0;

	if (boot_cache[n].a != NULL) {
		*na = boot_cache[n].n;
		return boot_cache[n].a;
	}
	a = pv_xreallocarray(NULL, n * (n + 1) / 2, sizeof(*a));
	if (n % 2) {
		for (i = 1; i <= n; i++) {
			double p = binom_ge(m + 1, i, n) -
				binom_ge(m + 1, i - 1, n);

			if (p > 0)
				a[k++] = (struct boot_atom){ (unsigned short)
					(i - 1), (unsigned short)(i - 1), p };
		}
	} else {
		double c = exp(gsl_sf_lnchoose((unsigned)n, (unsigned)m));
		double dn = (double)n;

		for (i = 1; i <= n; i++) {
			double pi = binom_ge(m, i, n) - binom_ge(m, i - 1, n);
			double low = pow((double)i / dn, (double)m) -
				pow((double)(i - 1) / dn, (double)m);
			double off = 0;
			size_t diag = k++;

			for (j = i + 1; j <= n; j++) {
				double p = c * low *
					(pow((double)(n - j + 1) / dn,
					     (double)(n - m)) -
					 pow((double)(n - j) / dn,
					     (double)(n - m)));

				off += p;
				if (p > 0)
					a[k++] = (struct boot_atom){
						(unsigned short)(i - 1),
						(unsigned short)(j - 1), p };
			}
			a[diag] = (struct boot_atom){ (unsigned short)(i - 1),
				(unsigned short)(i - 1), pi - off };
			if (!(a[diag].p > 0))
				a[diag].p = 0;
		}
	}
	boot_cache[n].a = a;
	boot_cache[n].n = k;
	*na = k;
	return a;
}

struct vp {
	double v, p;
};

/*
 * The distribution of the resample median of sorted s, ascending values,
 * into d (room for n (n + 1) / 2 + 1).
 */
static void
median_dist(const double *s, size_t n, struct vp *d, size_t *nv)
{
	size_t na, i, j;
	const struct boot_atom *a = boot_atoms(n, &na);

	for (i = 0; i < na; i++) {
		struct vp e;

		e.v = a[i].i == a[i].j ? s[a[i].i] : (s[a[i].i] + s[a[i].j]) / 2;
		e.p = a[i].p;
		for (j = i; j > 0 && d[j - 1].v > e.v; j--)
			d[j] = d[j - 1];
		d[j] = e;
	}
	*nv = na;
}

/*
 * P(Y - X <= t), X and Y independent with ascending atoms, sx the suffix
 * sums of X's probabilities; with the largest atom y - x <= t in *le
 * (-inf if none), the smallest above t in *gt (+inf if none) and the
 * number of atoms (pairs) <= t in *count.
 */
static double
diff_cdf(const struct vp *x, const double *sx, size_t nx, const struct vp *y,
	 size_t ny, double t, double *le, double *gt, size_t *count)
{
	double acc = 0, lo = -INFINITY, hi = INFINITY;
	size_t i = 0, j, c = 0;

	/*
	 * Skip the X with y - x > t; the bound rises with Y.  The test is
	 * on the atom as computed, y - x, so that an atom is counted at
	 * t equal to it (x < y - t may round the other way).
	 */
	for (j = 0; j < ny; j++) {
		while (i < nx && y[j].v - x[i].v > t)
			i++;
		acc += y[j].p * sx[i];
		c += nx - i;
		/* x[i] is the smallest X with y - x <= t, x[i-1] above t */
		if (i < nx && y[j].v - x[i].v > lo)
			lo = y[j].v - x[i].v;
		if (i > 0 && y[j].v - x[i - 1].v < hi)
			hi = y[j].v - x[i - 1].v;
	}
	*le = lo;
	*gt = hi;
	*count = c;
	return acc;
}

/*
 * The normal quantile of a probability, finite at 0 and 1, to about 5e-4
 * (Abramowitz and Stegun 26.2.23): it only steers the search below, whose
 * answer is exact, so one logarithm does instead of GSL's inverse.
 */
static double
probit(double p)
{
	double q, t;

	if (p < 1e-15)
		p = 1e-15;
	if (p > 1 - 1e-15)
		p = 1 - 1e-15;
	q = p < 0.5 ? p : 1 - p;
	t = sqrt(-2 * log(q));
	t -= (2.515517 + t * (0.802853 + t * 0.010328)) /
		(1 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
	return p < 0.5 ? -t : t;
}

/* Atoms of Y - X left between the ends when they are listed instead. */
#define DIFF_FEW 32

/*
 * The quantile among the atoms in (L, H], at most DIFF_FEW of them, FL
 * being P(Y - X <= L): list them, order them, add their probabilities.
 */
static double
diff_few(const struct vp *x, size_t nx, const struct vp *y, size_t ny,
	 double L, double H, double FL, double level)
{
	struct vp a[DIFF_FEW];
	size_t n = 0, ih = 0, il = 0, i, j;
	double f = FL;

	for (j = 0; j < ny; j++) {
		/* [ih, il): the X with L < y - x <= H */
		while (ih < nx && y[j].v - x[ih].v > H)
			ih++;
		if (il < ih)
			il = ih;
		while (il < nx && y[j].v - x[il].v > L)
			il++;
		for (i = ih; i < il && n < DIFF_FEW; i++) {
			struct vp e;
			size_t k;

			/* in order as they come: a few dozen */
			e.v = y[j].v - x[i].v;
			e.p = y[j].p * x[i].p;
			for (k = n++; k > 0 && a[k - 1].v > e.v; k--)
				a[k] = a[k - 1];
			a[k] = e;
		}
	}
	for (i = 0; i < n; i++) {
		/* a[0..n) was filled above */
		/* cppcheck-suppress uninitvar */
		f += a[i].p;
		if (f >= level && (i + 1 == n || a[i + 1].v != a[i].v))
			return a[i].v;
	}
	return H;
}

/* The mean, deviation, skewness and excess kurtosis of a distribution. */
struct shape {
	double mean, sd, skew, kurt;
};

/* Of Y - X from the atoms of X and Y, through the cumulants. */
static void
diff_shape(const struct vp *x, size_t nx, const struct vp *y, size_t ny,
	   struct shape *d)
{
	double m[2] = { 0, 0 }, k2[2] = { 0, 0 }, k3[2] = { 0, 0 };
	double k4[2] = { 0, 0 }, c2, c3, c4;
	const struct vp *a[2] = { x, y };
	size_t n[2] = { nx, ny }, s, i;

	for (s = 0; s < 2; s++) {
		double m2 = 0, m3 = 0, m4 = 0;

		for (i = 0; i < n[s]; i++)
			m[s] += a[s][i].p * a[s][i].v;
		for (i = 0; i < n[s]; i++) {
			double e = a[s][i].v - m[s], e2 = e * e;

			m2 += a[s][i].p * e2;
			m3 += a[s][i].p * e2 * e;
			m4 += a[s][i].p * e2 * e2;
		}
		k2[s] = m2;
		k3[s] = m3;
		k4[s] = m4 - 3 * m2 * m2;
	}
	/* cumulants of a difference: odd ones subtract, even ones add */
	c2 = k2[1] + k2[0];
	c3 = k3[1] - k3[0];
	c4 = k4[1] + k4[0];
	d->mean = m[1] - m[0];
	d->sd = sqrt(c2);
	d->skew = c2 > 0 ? c3 / (c2 * d->sd) : 0;
	d->kurt = c2 > 0 ? c4 / (c2 * c2) : 0;
}

/*
 * The smallest atom a of Y - X with P(Y - X <= a) >= level (0 < level < 1).
 * The search keeps two bounds, L below the quantile (at first below every
 * atom) and H at or above it (at first the largest atom); each step
 * evaluates the CDF at a point in between and moves one bound to the atom
 * found there.  The first point is the normal approximation from the
 * means and variances of X and Y; while one bound has not moved, a step
 * on the normal quantile scale of the CDF with that approximation's slope
 * follows; then the point where the line through the bounds, on that
 * scale, meets the level (the Illinois variant of regula falsi, which
 * halves the retained end's distance when one end moves twice running),
 * or, after four moves of one end, the middle.  Every step drops at least
 * one atom and most drop nearly all; once DIFF_FEW or fewer are left they
 * are listed and added up in order.  The steering only decides where to
 * look: the atom returned is exact whatever the approximations.
 */
static double
diff_quantile(const struct vp *x, const double *sx, size_t nx,
	      const struct vp *y, size_t ny, const struct shape *d,
	      double level)
{
	/* N: the smallest atom above L */
	double L = -INFINITY, N = y[0].v - x[nx - 1].v, H = y[ny - 1].v - x[0].v;
	double zl = probit(level), FL = 0, gL, gH, le, gt, t = 0, f, g = 0;
	double sd = d->sd;
	size_t cL = 0, cH = nx * ny, c;
	int side = 0, run = 0, moved = 0;	/* bit 0: L moved, bit 1: H */

	gL = probit(0) - zl;
	gH = probit(1) - zl;
	for (;;) {
		double lo = moved & 1 ? L : N;

		if (!(N < H))
			return H;
		if (cH - cL <= DIFF_FEW)
			return diff_few(x, nx, y, ny, L, H, FL, level);
		if (moved == 0) {
			/* Cornish-Fisher: the normal quantile corrected
			 * for skewness and excess kurtosis */
			double z2 = zl * zl;

			t = d->mean + sd * (zl + (z2 - 1) * d->skew / 6 +
					    (z2 - 3) * zl * d->kurt / 24 -
					    (2 * z2 - 5) * zl * d->skew *
					    d->skew / 36);
		} else if (moved != 3)
			t = t - g * sd;	/* g: the last point's, on one side */
		else if (run >= 4) {
			t = lo + (H - lo) / 2;
			run = 0;
		} else
			t = lo + (H - lo) * (-gL / (gH - gL));
		if (!(t >= N))
			t = N;
		if (!(t < H))
			t = N + (H - N) / 2;
		f = diff_cdf(x, sx, nx, y, ny, t, &le, &gt, &c);
		g = probit(f) - zl;
		if (f >= level) {
			/* an atom in (L, t] lifts the CDF to level: le > L */
			H = le;
			cH = c;
			gH = g;
			moved |= 2;
			if (side > 0) {
				run++;
				gL /= 2;	/* Illinois */
			}
			side = 1;
		} else {
			L = le;
			N = gt;
			cL = c;
			FL = f;
			gL = g;
			moved |= 1;
			if (side < 0) {
				run++;
				gH /= 2;
			}
			side = -1;
		}
	}
}

int
pv_stats_bootstrap_median_diff_exact(const double *x, size_t nx,
				     const double *y, size_t ny, double conf,
				     double *lo, double *hi)
{
	/* up to 16 runs a side (136 atoms) without the allocator */
	struct vp sdx[137], sdy[137];
	double ss[32], ssx[137], *s, *sx;
	struct vp *dx, *dy;
	struct shape shape;
	size_t ax, ay, i;
	int small = nx <= 16 && ny <= 16;

	gsl_quiet();
	if (nx < 1 || ny < 1 || nx > PV_STATS_BOOT_EXACT_MAX ||
	    ny > PV_STATS_BOOT_EXACT_MAX)
		return -1;
	s = small ? ss : pv_xreallocarray(NULL, nx + ny, sizeof(*s));
	dx = small ? sdx : pv_xreallocarray(NULL, nx * (nx + 1) / 2 + 1,
					     sizeof(*dx));
	dy = small ? sdy : pv_xreallocarray(NULL, ny * (ny + 1) / 2 + 1,
					     sizeof(*dy));
	memcpy(s, x, nx * sizeof(*s));
	memcpy(s + nx, y, ny * sizeof(*s));
	pv_stats_sort(s, nx);
	pv_stats_sort(s + nx, ny);
	median_dist(s, nx, dx, &ax);
	median_dist(s + nx, ny, dy, &ay);
	sx = small ? ssx : pv_xreallocarray(NULL, ax + 1, sizeof(*sx));
	sx[ax] = 0;
	for (i = ax; i-- > 0;)
		sx[i] = sx[i + 1] + dx[i].p;
	diff_shape(dx, ax, dy, ay, &shape);
	*lo = diff_quantile(dx, sx, ax, dy, ay, &shape, (1 - conf) / 2);
	*hi = diff_quantile(dx, sx, ax, dy, ay, &shape, 1 - (1 - conf) / 2);
	if (!small) {
		free(s);
		free(sx);
		free(dx);
		free(dy);
	}
	return 0;
}

void
pv_stats_thread_release(void)
{
	size_t n;

	free(mwu_cache.sf);
	memset(&mwu_cache, 0, sizeof(mwu_cache));
	for (n = 0; n <= PV_STATS_BOOT_EXACT_MAX; n++) {
		free(boot_cache[n].a);
		boot_cache[n].a = NULL;
		boot_cache[n].n = 0;
	}
}
