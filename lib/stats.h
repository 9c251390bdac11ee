/*
 * stats: the statistics behind pv-stat, pv-diff and pv-classify, and the
 * only user of GSL in the project.
 *
 * Every function works on plain arrays of finite doubles that the caller
 * owns; none keeps a pointer after it returns, none prints, none allocates
 * except where said (the bootstrap and the rank functions use a scratch
 * buffer from xalloc, which dies on out-of-memory).  The conventions follow
 * SciPy 1.10 where SciPy defines a value, so that tests can compare against
 * it (tests/data/stats/): sample variance with n - 1, two-sided p-values,
 * numpy's median.  Degenerate inputs that SciPy answers with NaN get a
 * defined answer here, documented at each function, so that a tool can
 * explain it instead of printing NaN.
 *
 * The functions may be called from several threads at once: the tables
 * they keep between calls (quantiles, exact null distributions) are kept
 * per thread, and a thread that ends calls pv_stats_thread_release().
 */
#ifndef PV_STATS_H
#define PV_STATS_H

#include <stddef.h>
#include <stdint.h>

/* 1 / Phi^-1(3/4): makes the MAD a consistent estimate of sigma. */
#define PV_STATS_MAD_SCALE 1.482602218505602

/* Descriptive statistics of one sample. */
struct pv_summary {
	size_t n;
	double mean, median, sd;	/* sd: n - 1 divisor; 0 when n < 2 */
	double min, max;
	double cv;		/* sd / |mean|; 0 when mean == 0 */
	double mad;		/* median absolute deviation, unscaled */
	double rcv;		/* PV_STATS_MAD_SCALE * mad / |median| */
	/*
	 * 95% (or conf) intervals: of the mean by Student's t (equal to the
	 * mean when n < 2); of the median by order statistics, the
	 * narrowest symmetric pair [x(k), x(n-k+1)] whose binomial coverage
	 * is at least conf, or [min, max] when even that falls short, its
	 * coverage in median_cover in every case.
	 */
	double mean_lo, mean_hi;
	double median_lo, median_hi, median_cover;
};

/*
 * Summarise x[0..n) (n >= 1) at confidence conf (0 < conf < 1).  x is not
 * changed; sorted must be a copy of x in ascending order.
 */
void pv_stats_summary(const double *x, const double *sorted, size_t n,
		      double conf, struct pv_summary *s);

double pv_stats_mean(const double *x, size_t n);
/* sample variance, n - 1 divisor; 0 when n < 2 or all values are equal */
double pv_stats_var(const double *x, size_t n, double mean);
/*
 * sqrt(pv_stats_var()), also where the squares overflow or underflow and
 * the standard deviation itself fits (it is scaled then); infinite only
 * when it does not fit a double.
 */
double pv_stats_sd(const double *x, size_t n, double mean);
/* numpy's median of an ascending array */
double pv_stats_median_sorted(const double *sorted, size_t n);
/*
 * The median of x[0..n) (n >= 1) as pv_stats_median_sorted() gives it of
 * them sorted, and their largest into *max, without sorting them all: x
 * is reordered (by selection; sorted where small, or holding a NaN or a
 * negative zero).
 */
double pv_stats_median_max(double *x, size_t n, double *max);
/*
 * The median absolute deviation from med of sorted[0..n) (ascending),
 * as pv_stats_median_sorted() gives it of the sorted |sorted[i] - med|,
 * without sorting them, into *mad.  Returns -1 (nothing set) when a value
 * is NaN or med is not finite (deviations of NaN, whose order a sort
 * leaves to the input's).
 */
int pv_stats_mad_sorted(const double *sorted, size_t n, double med,
			double *mad);
/* ascending sort in place (NaN-free input) */
void pv_stats_sort(double *x, size_t n);

/*
 * Welch's two-sample t-test of y against x (the difference is
 * mean(y) - mean(x)), as scipy.stats.ttest_ind(y, x, equal_var=False),
 * with a conf interval of the difference on t(df).  Needs nx, ny >= 2.
 * When both variances are 0 (se == 0) SciPy gives NaN; here t is +-inf
 * and p 0 if the means differ, t 0 and p 1 if not, df nx + ny - 2 and the
 * interval the difference itself.
 */
struct pv_welch {
	double diff, se, df, t, p, lo, hi;
	/* the sides' means and variances, of the values scaled by 2^-k
	 * (k 0 in the ordinary range): for pv_stats_hedges_g_welch() */
	double mx, vx, my, vy;
	int k;
};
void pv_stats_welch(const double *x, size_t nx, const double *y, size_t ny,
		    double conf, struct pv_welch *w);

/* One-sample t-test of mean(x) against 0 (n >= 2), same conventions. */
void pv_stats_ttest1(const double *x, size_t n, double conf,
		     struct pv_welch *w);

/*
 * Mann-Whitney U test, two-sided, of y against x.  u is U of y (the
 * number of pairs with y > x, ties counting one half).  Without ties and
 * with nx, ny <= PV_STATS_MWU_EXACT_MAX the p-value is exact (as SciPy's
 * method="exact"); otherwise the normal approximation with tie and
 * continuity correction (as method="asymptotic").  exact tells which.
 * When every value is tied, p is 1.
 */
#define PV_STATS_MWU_EXACT_MAX 50
struct pv_mwu {
	double u, p;
	int exact;
};
void pv_stats_mwu(const double *x, size_t nx, const double *y, size_t ny,
		  struct pv_mwu *m);
/*
 * The same of x and y already sorted ascending (pv_stats_sort()), each
 * side of at most 24 values without NaN: what pv_stats_mwu() gives them
 * unsorted, without sorting them again.
 */
void pv_stats_mwu_sorted(const double *sx, size_t nx, const double *sy,
			 size_t ny, struct pv_mwu *m);

/*
 * The Hodges-Lehmann shift of y against x, the median of the nx ny
 * differences y[j] - x[i], with its conf interval by inverting the
 * Mann-Whitney test (Moses): the differences of ranks c and nx ny + 1 - c,
 * c the smallest count with P(U < c) > (1 - conf) / 2, from U's exact
 * null distribution where pv_stats_mwu() is exact, else the normal
 * approximation with the tie correction.  As R's wilcox.test(y, x,
 * conf.int = TRUE, conf.level = conf) without ties, where it is exact.
 * p is pv_stats_mwu()'s.  Returns -1 (and leaves h alone) when no pair
 * of differences covers conf (nx = ny = 3 at 95%: P(U = 0) = 0.05).
 */
struct pv_hl {
	double est, lo, hi, p;
};
int pv_stats_hl_shift(const double *x, size_t nx, const double *y,
		      size_t ny, double conf, struct pv_hl *h);

/*
 * Hedges' g of y against x: (mean(y) - mean(x)) / pooled sd, times the
 * exact small-sample correction Gamma(df/2) / (sqrt(df/2)
 * Gamma((df-1)/2)), df = nx + ny - 2 (needs nx + ny >= 3).  0 when both
 * means and the pooled sd are equal to 0 difference; +-inf when the pooled
 * sd is 0 and the means differ.
 */
double pv_stats_hedges_g(const double *x, size_t nx, const double *y,
			 size_t ny);
/* The same of the x and y of w, Welch's test of them: its sides' means
 * and variances not taken again. */
double pv_stats_hedges_g_welch(const struct pv_welch *w, size_t nx,
			       size_t ny);

/* Cliff's delta of y against x: P(y > x) - P(y < x), in [-1, 1]. */
double pv_stats_cliff(const double *x, size_t nx, const double *y,
		      size_t ny);
/* The same of x and y sorted ascending, without NaN: in nx + ny steps. */
double pv_stats_cliff_sorted(const double *sx, size_t nx, const double *sy,
			     size_t ny);

/*
 * Percentile bootstrap interval (level conf) of median(y) - median(x),
 * from b resamples of each side drawn with splitmix64 seeded by seed, the
 * quantiles interpolated as numpy's default (linear).  The same inputs and
 * seed give the same interval on every machine.  b >= 2.
 */
void pv_stats_bootstrap_median_diff(const double *x, size_t nx,
				    const double *y, size_t ny, unsigned b,
				    uint64_t seed, double conf, double *lo,
				    double *hi);

/*
 * The same interval from the exact bootstrap distribution (every resample
 * weighed by its probability, as if b were infinite): the median of a
 * resample of sorted data takes one of O(n^2) values whose probabilities
 * depend on n alone, so the distribution of the difference of medians is
 * known exactly and its quantiles (the smallest d with P(D <= d) >= level,
 * numpy's "inverted_cdf") are found without drawing.  No seed, no Monte
 * Carlo error.  Needs 1 <= nx, ny <= PV_STATS_BOOT_EXACT_MAX; returns -1
 * (nothing set) for larger samples, 0 otherwise.
 */
#define PV_STATS_BOOT_EXACT_MAX 60
int pv_stats_bootstrap_median_diff_exact(const double *x, size_t nx,
					 const double *y, size_t ny,
					 double conf, double *lo, double *hi);
/* The same of x and y already sorted ascending (pv_stats_sort()). */
int pv_stats_bootstrap_median_diff_exact_sorted(const double *sx, size_t nx,
						const double *sy, size_t ny,
						double conf, double *lo,
						double *hi);

/*
 * Benjamini-Hochberg adjusted p-values (q-values) of p[0..n) into adj
 * (which may be p): adj[i] = min over j with p(j) >= p(i) of p(j) n / j,
 * capped at 1.  Rejecting adj <= q controls the false discovery rate at q.
 */
void pv_stats_bh(const double *p, size_t n, double *adj);

/* Simes' combined p-value of p[0..n): min over i of p(i) n / i. */
double pv_stats_simes(const double *p, size_t n);

/*
 * The t quantile on whole degrees of freedom, kept for df below 1024 and
 * four probabilities (the tools ask for the same few again and again).
 */
double pv_stats_t_quantile_whole(double prob, unsigned df);

/* Two-sided p-value of a t statistic on df degrees of freedom. */
double pv_stats_t_pvalue(double t, double df);

/* Upper tail of the F distribution on (d1, d2) degrees of freedom at f. */
double pv_stats_f_pvalue(double f, double d1, double d2);

/* Quantiles and tails used by the tools. */
double pv_stats_t_quantile(double prob, double df);
double pv_stats_normal_quantile(double prob);
/* P(Z > z) of the standard normal. */
double pv_stats_normal_sf(double z);
/* P(X > x) and the quantile P(X <= q) = prob of chi-square on df. */
double pv_stats_chisq_sf(double x, double df);
double pv_stats_chisq_quantile(double prob, double df);
/*
 * The same quantile to within 1e-11 of it, up to 1e4 degrees of freedom
 * (to rounding, mostly), for one CDF where GSL's takes four or five,
 * but not GSL's bits: for a figure decided with a margin far wider
 * (runs_to_decide() in classifier.c).
 */
double pv_stats_chisq_quantile_near(double prob, double df);

/*
 * A trend over time within two groups, x at times tx and y at times ty:
 * the least-squares fit of one slope and an intercept per group (the
 * analysis of covariance of the values on time and group).  slope, its
 * standard error, t = slope / se and df = nx + ny - 3 test the trend;
 * diff and diff_se are the difference of the groups' means at equal
 * times, mean(y) - mean(x) - slope (mean(ty) - mean(tx)), and its
 * standard error s sqrt(1/nx + 1/ny + (mean(ty) - mean(tx))^2 / Sxx),
 * s^2 the residual variance.  A residual variance of 0 gives a t of 0 or
 * +-inf and a diff_se of 0.  Returns -1 (nothing set) when there is no
 * fit: nx + ny < 4, or no spread of the times within the groups.
 */
struct pv_trendfit {
	double slope, se, t, df;
	double diff, diff_se;
};
int pv_stats_trend(const double *x, const double *tx, size_t nx,
		   const double *y, const double *ty, size_t ny,
		   struct pv_trendfit *tr);

/*
 * The Mann-Kendall test of a trend over time within two groups: S, the
 * sum over the groups of the concordant minus the discordant pairs of
 * (time, value), its variance under no trend with the correction for
 * tied values (the times are distinct), z = S / sqrt(var) and the
 * two-sided normal p (as scipy.stats.kendalltau(method="asymptotic") for
 * one group).  A group of equal values adds nothing; var 0 gives z 0 and
 * p 1.  Ranks make it hold for heavy tails and for rounded values.
 */
struct pv_kendall {
	double s, var, z, p;
};
void pv_stats_kendall_trend(const double *x, const double *tx, size_t nx,
			    const double *y, const double *ty, size_t ny,
			    struct pv_kendall *k);

/*
 * Serial correlation: side[0..n) says which group (0: x, 1: y) each of n
 * values is, in time order.  Under AR(1) correlation rho between
 * neighbours (unit variance), the variance of mean(y) - mean(x), over the
 * expectation of Welch's squared standard error under the same model (its
 * sample variances are biased too): the factor by which the correlation
 * inflates the squared standard error.  1 when rho <= 0 or a group has
 * fewer than two values; below 1 where the groups alternate.
 */
double pv_stats_ar1_factor(const unsigned char *side, size_t n, double rho);

/*
 * The smallest shift of the mean, in the units of sd, that a two-sided
 * Welch test at level alpha detects with the given power with na and nb
 * runs (normal approximation with t quantiles of df na + nb - 2).
 */
double pv_stats_mde(size_t na, size_t nb, double alpha, double power);

/*
 * Runs per side that would give power at level alpha for a true shift of
 * effect (in sd units), searched up to max; max + 1 when not reached.
 */
size_t pv_stats_runs_needed(double effect, double alpha, double power,
			    size_t max);

/* Free the calling thread's tables (before a worker thread ends). */
void pv_stats_thread_release(void);

#endif
