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
#include "stats_int.h"
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

void
pv_stats_gsl_quiet(void)
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
 * Rearrange x[0..n) so that x[k] is the k-th smallest, none after it
 * smaller, none before it larger (Hoare's selection, the middle of three
 * as the pivot); x holds no NaN.
 */
static void
select_kth(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (hi > lo + 2) {
		size_t mid = lo + (hi - lo) / 2, i, j;
		double p, t;

		/* x[lo] <= x[mid] <= x[hi]: the pivot and two sentinels */
		if (x[mid] < x[lo]) {
			t = x[mid]; x[mid] = x[lo]; x[lo] = t;
		}
		if (x[hi] < x[lo]) {
			t = x[hi]; x[hi] = x[lo]; x[lo] = t;
		}
		if (x[hi] < x[mid]) {
			t = x[hi]; x[hi] = x[mid]; x[mid] = t;
		}
		p = x[mid];
		i = lo;
		j = hi;
		for (;;) {
			do
				i++;
			while (x[i] < p);
			do
				j--;
			while (x[j] > p);
			if (i >= j)
				break;
			t = x[i]; x[i] = x[j]; x[j] = t;
		}
		/* x[lo..j] <= p <= x[j+1..hi] */
		if (k <= j)
			hi = j;
		else
			lo = j + 1;
	}
	/* three or fewer left: in order */
	pv_stats_sort(x + lo, hi - lo + 1);
}

double
pv_stats_median_max(double *x, size_t n, double *max)
{
	double m, lo, hi;
	size_t i, k = n / 2;
	int plain = n > 24;

	for (i = 0; plain && i < n; i++)
		plain = !isnan(x[i]) && !(x[i] == 0 && signbit(x[i]));
	if (!plain) {
		pv_stats_sort(x, n);
		*max = x[n - 1];
		return pv_stats_median_sorted(x, n);
	}
	*max = x[0];
	for (i = 1; i < n; i++)
		if (x[i] > *max)
			*max = x[i];
	select_kth(x, n, k);
	hi = x[k];
	if (n % 2)
		return hi;
	/* the (k - 1)-th: the largest of those before the k-th */
	lo = x[0];
	for (i = 1; i < k; i++)
		if (x[i] > lo)
			lo = x[i];
	/* as pv_stats_median_sorted() */
	m = (lo + hi) / 2;
	return isfinite(m) ? m : lo / 2 + hi / 2;
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
/* the normal quantile of the last level asked (a run asks one or two) */
static _Thread_local struct {
	double prob, z;		/* prob 0: empty */
} tq_start_last;

static double
start_z(double prob)
{
	if (tq_start_last.prob != prob || prob == 0) {
		tq_start_last.prob = prob;
		tq_start_last.z = gsl_cdf_ugaussian_Pinv(prob);
	}
	return tq_start_last.z;
}

static double
t_quantile_start(double prob, double df)
{
	double z = start_z(prob), z2 = z * z;
	double g1 = (z2 + 1) * z / 4;
	double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
	double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
	double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) *
		z / 92160;

	return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

static double t_quantile(double prob, double df);

/* the last two asked, (prob, df): Welch's interval and the honest
 * interval's parts ask the same level at the same degrees of freedom */
static _Thread_local struct memo2 tq_last;

double
pv_stats_t_quantile(double prob, double df)
{
	double x;

	pv_stats_gsl_quiet();
	if (!(df > 0) || !(prob > 0 && prob < 1))
		return prob == 0 ? -INFINITY : prob == 1 ? INFINITY : NAN;
	if (memo2_get(&tq_last, prob, df, &x))
		return x;
	x = t_quantile(prob, df);
	memo2_put(&tq_last, prob, df, x);
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
	pv_stats_gsl_quiet();
	return gsl_cdf_ugaussian_Pinv(prob);
}

double
pv_stats_normal_sf(double z)
{
	pv_stats_gsl_quiet();
	return gsl_cdf_ugaussian_Q(z);
}

double
pv_stats_chisq_sf(double x, double df)
{
	pv_stats_gsl_quiet();
	if (isnan(x) || !(df > 0))
		return NAN;
	return gsl_cdf_chisq_Q(x, df);
}

double
pv_stats_chisq_quantile(double prob, double df)
{
	pv_stats_gsl_quiet();
	if (!(prob >= 0 && prob <= 1) || !(df > 0))
		return NAN;
	return gsl_cdf_chisq_Pinv(prob, df);
}

/*
 * The chi-square quantile from Wilson and Hilferty's cube (or, below 2
 * degrees of freedom, the lower tail's power law), corrected by the
 * inverse of the CDF's Taylor series about it, to the fourth power of
 * the step: the coefficients are the density's derivatives, the density
 * times polynomials in 1 / x, and cost no CDF.  From a start good to
 * 1e-3, as Wilson and Hilferty's is from a few degrees of freedom on,
 * the error left is about that to the fifth power, rounding: one CDF,
 * where GSL's inverse takes four or five CDF and density pairs.  Where
 * the step is larger, again from there; where that does not converge in
 * 16 steps, GSL's inverse.
 */
double
pv_stats_chisq_quantile_near(double prob, double df)
{
	double k = df / 2, x, c, lg;
	int i;

	pv_stats_gsl_quiet();
	if (!(prob > 0 && prob < 1) || !(df > 0) || isinf(df))
		return pv_stats_chisq_quantile(prob, df);
	c = 2 / (9 * df);
	x = 1 - c + pv_stats_normal_quantile(prob) * sqrt(c);
	x = df * x * x * x;
	lg = gsl_sf_lngamma(k);
	if (!(x > 0) || df < 2)
		x = 2 * exp((log(prob) + gsl_sf_lngamma(k + 1)) / k);
	for (i = 0; i < 16; i++) {
		double d = exp((k - 1) * log(x) - x / 2 - k * M_LN2 - lg);
		double r = (prob - gsl_cdf_chisq_P(x, df)) / d;
		/* the density's derivatives over it: u, u^2 + u', ... */
		double u = (k - 1) / x - 0.5, u1 = -(k - 1) / (x * x);
		double c2 = u / 2, c3 = (u * u + u1) / 6;
		double c4 = (u * u * u + 3 * u * u1 + 2 * (k - 1) / (x * x * x)) /
			24;
		double h;

		if (!(d > 0) || isnan(r))
			break;
		/* h + c2 h^2 + c3 h^3 + c4 h^4 = r, h to the fourth power */
		h = r * (1 + r * (-c2 + r * (2 * c2 * c2 - c3 +
			r * (-5 * c2 * c2 * c2 + 5 * c2 * c3 - c4))));
		if (!(fabs(h) < x / 2)) {
			/* too far for the series: towards r, at most doubling */
			x = r > 0 ? x + fmin(r, x) : x / 2;
			continue;
		}
		x += h;
		if (fabs(h) < 1e-3 * x)
			return x;
	}
	return pv_stats_chisq_quantile(prob, df);
}

/* the last two asked, (df, |t|): Welch's p and the unwidened honest
 * interval's are the same |t| (the 2^k scaling is exact) at the same df */
static _Thread_local struct memo2 tp_last;

static double t_two_sided_calc(double t, double df);

/* two-sided p of a t statistic */
static double
t_two_sided(double t, double df)
{
	double p;

	pv_stats_gsl_quiet();
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	t = fabs(t);
	if (memo2_get(&tp_last, df, t, &p))
		return p;
	p = t_two_sided_calc(t, df);
	memo2_put(&tp_last, df, t, p);
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

	pv_stats_gsl_quiet();
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

int
pv_stats_mad_sorted(const double *s, size_t n, double med, double *mad)
{
	size_t r = 0, a, b, k, want = n / 2, i;
	double prev = 0, cur = 0, m;

	/* (an infinite median makes NaN of the infinite values' deviations) */
	if (n == 0 || !isfinite(med))
		return -1;
	for (i = 0; i < n; i++)
		if (isnan(s[i]))
			return -1;
	/*
	 * x - med is monotone in x: the deviations of the values up to the
	 * median fall as they rise, the others rise; merged from the
	 * median out, the smallest first, up to the middle.
	 */
	while (r < n && s[r] <= med)
		r++;
	a = b = r;
	for (k = 0; k <= want; k++) {
		prev = cur;
		if (b == n || (a > 0 && fabs(s[a - 1] - med) <= fabs(s[b] - med)))
			cur = fabs(s[--a] - med);
		else
			cur = fabs(s[b++] - med);
	}
	if (n % 2) {
		*mad = cur;
		return 0;
	}
	/* as pv_stats_median_sorted() */
	m = (prev + cur) / 2;
	*mad = isfinite(m) ? m : prev / 2 + cur / 2;
	return 0;
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

	if (pv_stats_mad_sorted(sorted, n, s->median, &s->mad) < 0) {
		dev = n <= 64 ? small :
			pv_xreallocarray(NULL, n, sizeof(*dev));
		for (i = 0; i < n; i++)
			dev[i] = fabs(x[i] - s->median);
		pv_stats_sort(dev, n);
		s->mad = pv_stats_median_sorted(dev, n);
		if (dev != small)
			free(dev);
	}
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

	/* k = 0, the ordinary range: ldexp() would change no bit, at a
	 * libm call a value */
	for (i = 0; i < n; i++) {
		s += k ? ldexp(x[i], -k) : x[i];
		same &= x[i] == x[0];
	}
	m = s / (double)n;
	*mean = m;
	*var = 0;
	if (same || n < 2)
		return;
	s = 0;
	for (i = 0; i < n; i++) {
		double d = (k ? ldexp(x[i], -k) : x[i]) - m;

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
	w->mx = mx;
	w->vx = vx;
	w->my = my;
	w->vy = vy;
	w->k = k;
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

/* U and its p from the ranked values r[0..nx + ny), ascending */
static void
mwu_ranked(const struct ranked *r, size_t nx, size_t ny, struct pv_mwu *m)
{
	size_t n = nx + ny, i, j;
	double ry = 0, tie_term = 0, u1, u2, umax, mu, sd;
	int ties = 0;

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

void
pv_stats_mwu_sorted(const double *sx, size_t nx, const double *sy,
		    size_t ny, struct pv_mwu *m)
{
	struct ranked r[48];
	size_t a = 0, b = 0, i;

	pv_stats_gsl_quiet();
	for (i = 0; i < nx + ny; i++)
		r[i] = b == ny || (a < nx && !(sy[b] < sx[a])) ?
			(struct ranked){ sx[a++], 0 } :
			(struct ranked){ sy[b++], 1 };
	mwu_ranked(r, nx, ny, m);
}

void
pv_stats_mwu(const double *x, size_t nx, const double *y, size_t ny,
	     struct pv_mwu *m)
{
	size_t n = nx + ny, i;
	struct ranked *r;

	pv_stats_gsl_quiet();
	if (nx <= 24 && ny <= 24) {
		/* the usual few runs: sort each side, then merge them */
		double sx[24], sy[24];

		memcpy(sx, x, nx * sizeof(*x));
		memcpy(sy, y, ny * sizeof(*y));
		pv_stats_sort(sx, nx);
		pv_stats_sort(sy, ny);
		pv_stats_mwu_sorted(sx, nx, sy, ny, m);
		return;
	}
	r = pv_xreallocarray(NULL, n, sizeof(*r));
	for (i = 0; i < nx; i++)
		r[i] = (struct ranked){ x[i], 0 };
	for (i = 0; i < ny; i++)
		r[nx + i] = (struct ranked){ y[i], 1 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	mwu_ranked(r, nx, ny, m);
	free(r);
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

/* the most differences sorted whole (8 bytes each, twice), not bisected */
#define HL_SORT_MAX 65536

/* The end of the ascending run of a[0..n) that starts at i. */
static size_t
run_end(const uint64_t *a, size_t i, size_t n)
{
	while (++i < n && a[i - 1] <= a[i])
		;
	return i;
}

/*
 * Sort a[0..n) with tmp[0..n) as room: a natural merge sort, each pass
 * merging the ascending runs it finds two by two.  The differences come
 * as a run a value of y (sy[j] - sx[i] rises as i falls), so the passes
 * are about log2(ny), not heapsort's log2(N) sifts a value; whatever the
 * runs, the result is the one sorted order.
 */
static void
sort_u64(uint64_t *a, uint64_t *tmp, size_t n)
{
	uint64_t *src = a, *dst = tmp, *t;
	size_t i, m, e, p, q, o, runs;

	do {
		for (i = 0, runs = 0; i < n; i = e, runs++) {
			m = run_end(src, i, n);
			e = m < n ? run_end(src, m, n) : n;
			for (p = i, q = m, o = i; p < m && q < e;)
				dst[o++] = src[q] < src[p] ? src[q++] : src[p++];
			memcpy(dst + o, src + p, (m - p) * sizeof(*dst));
			o += m - p;
			memcpy(dst + o, src + q, (e - q) * sizeof(*dst));
		}
		t = src;
		src = dst;
		dst = t;
	} while (runs > 1);
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
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
		uint64_t *o = pv_xreallocarray(NULL, 2 * N, sizeof(*o));
		double m0 = sy[0] - sx[nx - 1];

		/* each y's differences ascending: sx[i] descending */
		for (j = 0; j < ny; j++)
			for (i = 0; i < nx; i++)
				o[j * nx + i] = ord_of(sy[j] - sx[nx - 1 - i]);
		sort_u64(o, o + N, N);
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

#define HEDGES_J_DF 256
static _Thread_local double hedges_j[HEDGES_J_DF];	/* 0: not yet */

/* Hedges' g from the sides' means and variances (scaled alike). */
static double
hedges_of(double mx, double vx, size_t nx, double my, double vy, size_t ny)
{
	double df = (double)(nx + ny - 2), sp, d, j;

	pv_stats_gsl_quiet();
	sp = sqrt(((double)(nx - 1) * vx + (double)(ny - 1) * vy) / df);

	if (sp == 0)
		return my == mx ? 0 : my > mx ? INFINITY : -INFINITY;
	d = (my - mx) / sp;
	if (df < 2)
		return d;
	/* the correction J depends on the (whole) df only: kept */
	if (nx + ny - 2 < HEDGES_J_DF && hedges_j[nx + ny - 2] > 0)
		return d * hedges_j[nx + ny - 2];
	j = exp(gsl_sf_lngamma(df / 2) - gsl_sf_lngamma((df - 1) / 2)) /
		sqrt(df / 2);
	if (nx + ny - 2 < HEDGES_J_DF)
		hedges_j[nx + ny - 2] = j;
	return d * j;
}

double
pv_stats_hedges_g(const double *x, size_t nx, const double *y, size_t ny)
{
	int k = pow2_scale(x, nx, y, ny);
	double mx, my, vx, vy;

	/* scaled as in Welch's test: d does not depend on the scale */
	side_stats(x, nx, k, &mx, &vx);
	side_stats(y, ny, k, &my, &vy);
	return hedges_of(mx, vx, nx, my, vy, ny);
}

double
pv_stats_hedges_g_welch(const struct pv_welch *w, size_t nx, size_t ny)
{
	return hedges_of(w->mx, w->vx, nx, w->my, w->vy, ny);
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

double
pv_stats_cliff_sorted(const double *sx, size_t nx, const double *sy,
		      size_t ny)
{
	long long more = 0, less = 0;
	size_t i, lt = 0, le = 0;

	/* the x below and not above each y, both counts rising with y */
	for (i = 0; i < ny; i++) {
		while (lt < nx && sx[lt] < sy[i])
			lt++;
		if (le < lt)
			le = lt;
		while (le < nx && sx[le] <= sy[i])
			le++;
		more += (long long)lt;
		less += (long long)(nx - le);
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

void
pv_stats_thread_release(void)
{
	free(mwu_cache.sf);
	memset(&mwu_cache, 0, sizeof(mwu_cache));
	pv_stats_boot_release();
}
