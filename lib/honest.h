/*
 * honest: the interval of a change that a decision rests on.
 *
 * Welch's t interval on the oriented logs (worse negative, as in cmp.h)
 * is right for independent runs of log-normal noise.  Where the runs are
 * fewer, wilder, rounded or ordered in time it is not, and the gates of
 * pv-diff make it honest: each widens the interval and adds a flag, and
 * none decides by itself.
 *
 *   few runs    fewer than min_runs a side: the degrees of freedom of the
 *               smaller side (min(nb, nt) - 1) instead of Welch's.
 *   outliers    a run beyond outlier_z median absolute deviations (both
 *               sides' pooled), the mark of heavy tails: the interval of
 *               the Hodges-Lehmann shift, by inverting Mann-Whitney's
 *               test, which keeps its level whatever the tails, from
 *               eight runs a side.  With fewer (its p-values are then too
 *               coarse for the false discovery control), where most runs
 *               are equal (a MAD of 0) or where the rounding matters, the
 *               hull with the interval without the wildest run, when its
 *               side keeps three runs.
 *   quantised   values printed with few digits (sysbench's 0.01 ms): the
 *               means of rounded values are off by up to half a quantum
 *               a side, less as the spread of the runs dithers the
 *               rounding (a side over three quanta shows that spread, and
 *               the other side shares it); the interval widens by that
 *               bound.  Two equal sides are then an interval of a
 *               quantum, not certainty.
 *   drift       with the runs' times known (runstart records): a trend
 *               within the sides (Mann-Kendall's rank test, which holds
 *               for heavy tails and rounded values), or a trend in the
 *               pair's keys while the sides were run one after the other,
 *               makes the interval
 *               the change at equal times (one slope over time, an
 *               intercept a side); serial correlation between
 *               neighbouring runs, estimated from all the keys of the
 *               pair, widens it by its effect on a difference of means.
 *
 * The interval's p-value is the level at which it reaches zero, so that
 * the false discovery control and the interval agree.
 *
 * Two steps, as pv-diff takes them: pv_honest_key() for each key from its
 * runs, then pv_honest_pair() over the keys of one baseline and target,
 * which pools their evidence of drift and gives each its final interval.
 * Everything is computed, nothing printed; a pv_honest owns its layout
 * (pv_honest_release()).
 */
#ifndef PV_HONEST_H
#define PV_HONEST_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/* the runs of one side of a key */
struct pv_honest_side {
	const double *v;	/* raw values, all > 0 */
	const double *time;	/* each run's start or order; NULL: unknown */
	size_t n;
	double quantum;		/* of the printed values, raw units; 0: none */
	/*
	 * The times order this side's runs only (an order without start
	 * times): a trend within the side is seen, how the sides lie in time
	 * is not, and there is no change at equal times.
	 */
	int local;
};

struct pv_honest_opts {
	double conf;		/* level of the interval, 0.95 */
	size_t min_runs;	/* fewer a side: few runs, 3 */
	double outlier_z;	/* modified z-score of an outlier, 3.5 */
	double trend_alpha;	/* a key's own trend, 0.005 */
	double pair_alpha;	/* the pair's trends, serial correlation, 0.005 */
};

#define PV_HONEST_OPTS_INIT { 0.95, 3, 3.5, 0.005, 0.005 }

/* how the runs of the two sides lie in time */
enum pv_order {
	PV_ORDER_UNKNOWN,	/* a time is missing */
	PV_ORDER_INTERLEAVED,	/* the sides' times overlap */
	PV_ORDER_APART		/* one side wholly before the other */
};

/* what the gates found */
enum {
	PV_HONEST_FEW_RUNS = 1 << 0,
	PV_HONEST_OUTLIERS = 1 << 1,
	PV_HONEST_QUANTISED = 1 << 2,
	PV_HONEST_DRIFT = 1 << 3,
	PV_HONEST_ZERO_VAR = 1 << 4,
	PV_HONEST_RANK = 1 << 5		/* the interval is the rank one */
};

struct pv_honest {
	size_t nb, nt;		/* runs a side */
	double d, se, df;	/* Welch on the oriented logs */
	double w_lo, w_hi, w_p;	/* Welch's own interval at conf, its p */
	double est;		/* the change the interval is about */
	double lo, hi, p;	/* the honest interval at conf, its p */
	double widen;		/* for the quantum, log scale */
	double sd;		/* pooled sd of the logs, for planning */
	size_t out_b, out_t;	/* runs a side beyond outlier_z MADs */
	/* order and drift, from the runs' times */
	enum pv_order order;
	double trend_z, trend_p;	/* the trend within the sides, by
					 * Mann-Kendall's test; NaN */
	double adj, adj_se, adj_df;	/* the change at equal times; NaN */
	/* lag-1 products of the residuals within the sides with spread,
	 * their sum of squares, the products' count and their expectation
	 * under independence (negated) */
	double ac_num, ac_den, ac_bias;
	size_t ac_n;
	unsigned char *layout;	/* the sides of the runs in time order */
	size_t nlayout;
	double rho;		/* serial correlation used (the pair's) */
	unsigned flags;
};

/*
 * One key: b and t the baseline's and target's runs (each n >= 2; fewer
 * leaves h->d NaN), lower_better its direction.  Sets everything but the
 * pair's part (drift flag, rho): until pv_honest_pair(), lo, hi and p are
 * the interval of the runs alone.
 */
void pv_honest_key(const struct pv_honest_side *b,
		   const struct pv_honest_side *t, int lower_better,
		   const struct pv_honest_opts *o, struct pv_honest *h);

/*
 * pv_honest_key() with the oriented logs of b's and t's values already
 * taken, xb[i] = s log(b->v[i]), xt likewise, s -1 if lower_better, else
 * 1 (pv_cmp_compute_sides() has them): the same result, without taking
 * them again.  sxb and sxt are the same logs sorted (pv_stats_sort()), or
 * NULL: sorted here where needed.  Welch's test of them whole (its sides'
 * moments, for Hedges' g) into *welch where not NULL, when taken (b->n
 * and t->n >= 2).
 */
void pv_honest_key_logs(const struct pv_honest_side *b,
			const struct pv_honest_side *t, const double *xb,
			const double *xt, const double *sxb,
			const double *sxt, int lower_better,
			const struct pv_honest_opts *o, struct pv_honest *h,
			struct pv_welch *welch);

/*
 * The keys h[0..n) of one pair: the drift flag and the final interval of
 * each.  Keys without an interval (d NaN) are left alone.
 */
void pv_honest_pair(struct pv_honest *h, size_t n,
		    const struct pv_honest_opts *o);

void pv_honest_release(struct pv_honest *h);

/*
 * The quantum of a printed value: 10^-k for the fewest decimals k (0 to
 * 12) that write it, 0 for more, for 0 and for non-finite values.  The
 * quantum of a key is the smallest of its values' (a value printed
 * 0.2 that is really 0.20 says 0.1, its neighbours 0.01).
 */
double pv_honest_quantum(double v);
/*
 * The quantum of a key after one more value v, q its quantum so far
 * (INFINITY before any value): the smaller of q and v's, 0 (none) once
 * either is 0.  The same as from pv_honest_quantum(v), at the cost of one
 * scaling when v is whole at q's, as nearly every value of a key is.
 */
double pv_honest_quantum_min(double q, double v);

#endif
