/*
 * honest: the interval of a change that a decision rests on (see
 * honest.h).  The statistics are lib/stats.c's; this file decides which
 * intervals an honest one is the hull of.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "honest.h"
#include "stats.h"
#include "xalloc.h"

/* fewer runs a side: no rank interval (see pv_honest_key()) */
#define RANK_MIN_RUNS 8

/*
 * nearbyint() of x >= 0 in the default rounding (to nearest, ties to
 * even), inline: below 2^52, x + 2^52 lands where the doubles are the
 * integers and rounds as nearbyint() does, and subtracting 2^52 again is
 * exact; from 2^52 on, x is whole.  A libm call cost more than the rest
 * of the loop, once a sample.
 */
static inline double
round_nonneg(double x)
{
	return x < 0x1p52 ? (x + 0x1p52) - 0x1p52 : x;
}

double
pv_honest_quantum(double v)
{
	double a = fabs(v), p = 1;
	int k;

	if (a == 0 || !isfinite(a))
		return 0;
	for (k = 0; k <= 12; k++) {
		double x = a * p;

		/* the shortest decimal form: a whole number once scaled */
		if (fabs(x - round_nonneg(x)) <= 1e-13 * x)
			return 1 / p;
		p *= 10;
	}
	return 0;
}

/*
 * 10^k, k = 0..12, exactly the scales of pv_honest_quantum()'s loop, and
 * the quanta 1 / 10^k it returns: both the double nearest 10^-k.
 */
static const double scale10[13] = {
	1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
};
static const double quantum10[13] = {
	1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10,
	1e-11, 1e-12,
};

static _Thread_local int quantum_last;	/* the k last found */

double
pv_honest_quantum_min(double q, double v)
{
	double a = fabs(v), r;
	int k;

	if (q == 0)
		return 0;
	/*
	 * q = 1 / 10^k and v whole at 10^k: v's fewest decimals are k or
	 * fewer, its quantum q or coarser, and q stays.
	 */
	if (a != 0 && isfinite(a) && q <= 1) {
		/* the key before had the same quantum, mostly */
		k = q == quantum10[quantum_last] ? quantum_last : 0;
		for (; k <= 12; k++) {
			if (q == quantum10[k]) {
				double x = a * scale10[k];

				quantum_last = k;
				if (fabs(x - round_nonneg(x)) <= 1e-13 * x)
					return q;
				break;
			}
		}
	}
	r = pv_honest_quantum(v);
	return r == 0 || r < q ? r : q;
}

/* the median of v[0..n), into scratch (room for n) */
static double
median(const double *v, size_t n, double *scratch)
{
	memcpy(scratch, v, n * sizeof(*scratch));
	pv_stats_sort(scratch, n);
	return pv_stats_median_sorted(scratch, n);
}

/*
 * The wildest run, by the modified z-score 0.6745 |x - median| / MAD on
 * the oriented logs, with the MAD of both sides' deviations pooled (as
 * cmp.c flags outliers): its side (0, 1) and index, or side -1 when no
 * run is beyond z; the runs beyond z a side, as cmp.c counts them, into
 * *ob and *ot.  sxb and sxt: xb and xt sorted, or NULL.  Returns the MAD.
 */
static double
wildest(const double *xb, size_t nb, const double *xt, size_t nt,
	const double *sxb, const double *sxt, double z, int *side,
	size_t *idx, size_t *ob, size_t *ot)
{
	double small[256], *dev = nb + nt <= 128 ? small :
		pv_xreallocarray(NULL, 2 * (nb + nt), sizeof(*dev));
	double *scratch = dev + nb + nt, mb, mt, mad, best = z;
	size_t i;

	mb = sxb ? pv_stats_median_sorted(sxb, nb) : median(xb, nb, scratch);
	mt = sxt ? pv_stats_median_sorted(sxt, nt) : median(xt, nt, scratch);
	for (i = 0; i < nb; i++)
		dev[i] = fabs(xb[i] - mb);
	for (i = 0; i < nt; i++)
		dev[nb + i] = fabs(xt[i] - mt);
	mad = median(dev, nb + nt, scratch);
	*side = -1;
	*idx = 0;
	*ob = *ot = 0;
	for (i = 0; i < nb + nt; i++) {
		double s = mad > 0 ? 0.6745 * dev[i] / mad :
			dev[i] > 0 ? INFINITY : 0;

		if (s > best) {
			best = s;
			*side = i < nb ? 0 : 1;
			*idx = i < nb ? i : i - nb;
		}
		if (mad > 0 ? 0.6745 * dev[i] / mad > z : dev[i] > 0)
			(*(i < nb ? ob : ot))++;
	}
	if (dev != small)
		free(dev);
	return mad;
}

/* one interval of the hull: center, standard error, degrees of freedom */
struct part {
	double c, se, df;
};

static void
part_interval(const struct part *k, double w, double conf, double *lo,
	      double *hi)
{
	double h = k->se > 0 ? pv_stats_t_quantile(1 - (1 - conf) / 2,
						   k->df) * k->se : 0;

	*lo = k->c - h - w;
	*hi = k->c + h + w;
}

/* the level at which the interval, widened by w, reaches zero */
static double
part_p(const struct part *k, double w)
{
	double a = fabs(k->c) - w;

	if (!(a > 0))
		return 1;
	if (!(k->se > 0))
		return 0;
	return pv_stats_t_pvalue(a / k->se, k->df);
}

/*
 * How far rounding to the quantum q may move the mean of a side, as a
 * change of its log.  Half a quantum at most; the spread of the runs
 * dithers the rounding, and for a normal spread s the bias falls as
 * exp(-2 pi^2 s^2 / q^2) (the first Fourier term of rounding), s^2 from
 * quantum_spread().  Spread that rounding shows as two neighbouring
 * values says nothing of the true spread: only runs over three quanta or
 * more earn the dithering (s2 NaN: none do).
 */
static double
quantum_bias(const double *v, size_t n, double q, double s2)
{
	if (!(q > 0) || n == 0)
		return 0;
	if (isnan(s2))
		return q / 2 / pv_stats_mean(v, n);
	return q / 2 * exp(-2 * M_PI * M_PI * s2 / (q * q)) /
		pv_stats_mean(v, n);
}

/*
 * The spread of the runs under the rounding, for quantum_bias(): NaN when
 * no side spans three quanta (hi - lo >= 1.5 q); else the variance of the
 * sides that do (pooled about their means), less the rounding's own
 * q^2 / 12 (Sheppard's correction).
 */
static double
quantum_spread(const double *vb, size_t nb, const double *vt, size_t nt,
	       double q)
{
	const double *v[2] = { vb, vt };
	size_t n[2] = { nb, nt }, s, i, df = 0;
	double ss = 0, s2;
	int wide[2] = { 0, 0 };

	if (!(q > 0))
		return NAN;
	for (s = 0; s < 2; s++) {
		double lo = v[s][0], hi = v[s][0];

		for (i = 1; i < n[s]; i++) {
			lo = fmin(lo, v[s][i]);
			hi = fmax(hi, v[s][i]);
		}
		wide[s] = !(hi - lo < 1.5 * q);
	}
	if (!wide[0] && !wide[1])
		return NAN;
	for (s = 0; s < 2; s++) {
		double m;

		if (!wide[s])
			continue;
		m = pv_stats_mean(v[s], n[s]);
		ss += pv_stats_var(v[s], n[s], m) * (double)(n[s] - 1);
		df += n[s] - 1;
	}
	s2 = ss / (double)df - q * q / 12;
	return s2 > 0 ? s2 : 0;
}

/*
 * The runs of the key in time order: the side of each, for the effect of
 * serial correlation on the change; and, within each side that has
 * spread, the lag-1 products of the runs' centred ranks between
 * neighbours in that side's time order, for estimating it.  (A
 * side without spread says nothing of correlation; pairs across the
 * sides would have another expectation under independence than -1/n.)
 */
struct ev {
	double t, r;
	unsigned char side;
};

static int
cmp_ev(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->side > y->side) - (x->side < y->side);
}

/* the mid-ranks of v[0..n) (ties share theirs), centred on 0 */
static void
centred_ranks(const double *v, size_t n, double *out)
{
	size_t *ix = pv_xreallocarray(NULL, n, sizeof(*ix)), i, j, a;

	for (i = 0; i < n; i++)
		ix[i] = i;
	/* the usual n is small: insertion sort of the indices */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[ix[j - 1]] > v[ix[j]]; j--) {
			a = ix[j];
			ix[j] = ix[j - 1];
			ix[j - 1] = a;
		}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && v[ix[j]] == v[ix[i]]; j++)
			;
		for (a = i; a < j; a++)
			out[ix[a]] = (double)(i + j - 1) / 2 -
				(double)(n - 1) / 2;
	}
	free(ix);
}

static void
layout(const double *xb, const double *tb, size_t nb, const double *xt,
       const double *tt, size_t nt, struct pv_honest *h)
{
	struct ev *e = pv_xreallocarray(NULL, nb + nt, sizeof(*e));
	double *rk = pv_xreallocarray(NULL, nb + nt, sizeof(*rk));
	double den[2] = { 0, 0 }, num[2] = { 0, 0 }, last[2] = { 0, 0 };
	size_t n = nb + nt, i, pairs[2] = { 0, 0 }, seen[2] = { 0, 0 };
	int s;

	/*
	 * Ranks, not values: a wild run or two states must not pass for
	 * correlation (the products of ranks have bounded variance), and
	 * under independence their expectation is -den/n all the same.
	 */
	centred_ranks(xb, nb, rk);
	centred_ranks(xt, nt, rk + nb);
	for (i = 0; i < nb; i++)
		e[i] = (struct ev){ tb[i], rk[i], 0 };
	for (i = 0; i < nt; i++)
		e[nb + i] = (struct ev){ tt[i], rk[nb + i], 1 };
	free(rk);
	qsort(e, n, sizeof(*e), cmp_ev);
	h->layout = pv_xreallocarray(NULL, n, 1);
	h->nlayout = n;
	for (i = 0; i < n; i++) {
		s = e[i].side;
		h->layout[i] = (unsigned char)s;
		den[s] += e[i].r * e[i].r;
		if (seen[s]++ > 0) {
			num[s] += last[s] * e[i].r;
			pairs[s]++;
		}
		last[s] = e[i].r;
	}
	h->ac_num = h->ac_den = 0;
	h->ac_n = 0;
	h->ac_bias = 0;
	for (s = 0; s < 2; s++) {
		if (!(den[s] > 0))
			continue;
		h->ac_num += num[s];
		h->ac_den += den[s];
		h->ac_n += pairs[s];
		/* under independence E[num] = -den / n of the side */
		h->ac_bias += den[s] / (double)seen[s];
	}
	free(e);
}

void
pv_honest_key(const struct pv_honest_side *b, const struct pv_honest_side *t,
	      int lower_better, const struct pv_honest_opts *o,
	      struct pv_honest *h)
{
	double sign = lower_better ? -1 : 1, small[128], *xb;
	size_t i;

	if (b->n < 2 || t->n < 2) {
		pv_honest_key_logs(b, t, NULL, NULL, NULL, NULL,
				   lower_better, o, h, NULL);
		return;
	}
	xb = b->n + t->n <= 128 ? small :
		pv_xreallocarray(NULL, b->n + t->n, sizeof(*xb));
	for (i = 0; i < b->n; i++)
		xb[i] = sign * log(b->v[i]);
	for (i = 0; i < t->n; i++)
		xb[b->n + i] = sign * log(t->v[i]);
	pv_honest_key_logs(b, t, xb, xb + b->n, NULL, NULL, lower_better, o,
			   h, NULL);
	if (xb != small)
		free(xb);
}

void
pv_honest_key_logs(const struct pv_honest_side *b,
		   const struct pv_honest_side *t, const double *xb,
		   const double *xt, const double *sxb, const double *sxt,
		   int lower_better, const struct pv_honest_opts *o,
		   struct pv_honest *h, struct pv_welch *welch)
{
	double sign = lower_better ? -1 : 1;
	struct part k[2];
	struct pv_welch w;
	struct pv_hl hl;
	size_t i, nk = 0, widx;
	double mad;
	int wside, rank;

	memset(h, 0, sizeof(*h));
	h->nb = b->n;
	h->nt = t->n;
	h->d = h->est = h->se = h->df = h->lo = h->hi = h->p = h->sd = NAN;
	h->w_lo = h->w_hi = h->w_p = NAN;
	h->trend_z = h->trend_p = h->adj = h->adj_se = h->adj_df = NAN;
	if (b->n < 2 || t->n < 2)
		return;
	pv_stats_welch(xb, b->n, xt, t->n, o->conf, &w);
	if (welch != NULL)
		*welch = w;
	h->d = w.diff;
	h->se = w.se;
	h->df = w.df;
	h->w_lo = w.lo;
	h->w_hi = w.hi;
	h->w_p = w.p;
	h->sd = w.se / sqrt(1 / (double)b->n + 1 / (double)t->n);
	if (w.se == 0)
		h->flags |= PV_HONEST_ZERO_VAR;

	/* few runs: the smaller side's degrees of freedom */
	k[nk].c = w.diff;
	k[nk].se = w.se;
	k[nk].df = w.df;
	if (b->n < o->min_runs || t->n < o->min_runs) {
		h->flags |= PV_HONEST_FEW_RUNS;
		k[nk].df = (double)(b->n < t->n ? b->n : t->n) - 1;
	}
	/*
	 * Spread below the rounding's own (q^2 / 12 a value) is the
	 * rounding's doing, not the runs' agreement: the standard error is
	 * at least the rounding's, so that no spread is not certainty.
	 */
	{
		double mb = exp(pv_stats_mean(xb, b->n) * sign);
		double mt = exp(pv_stats_mean(xt, t->n) * sign);
		double rq = b->quantum * b->quantum / 12 / (double)b->n /
			(mb * mb) + t->quantum * t->quantum / 12 /
			(double)t->n / (mt * mt);

		if (rq > 0 && w.se * w.se < rq) {
			k[nk].se = sqrt(rq);
			k[nk].df = fmin(k[nk].df,
					(double)(b->n + t->n) - 2);
		}
	}
	nk++;
	/*
	 * The rounding of printed values.  A side whose runs span fewer
	 * than three quanta shows nothing of its spread; it shares the
	 * noise of the other side (the change is a shift), and the other
	 * side's spread, where it shows one, dithers its rounding too.
	 */
	{
		double s2 = quantum_spread(b->v, b->n, t->v, t->n,
					   fmax(b->quantum, t->quantum));

		h->widen = quantum_bias(b->v, b->n, b->quantum, s2) +
			quantum_bias(t->v, t->n, t->quantum, s2);
	}
	if (h->widen > 0 && (w.se == 0 || h->widen > 0.25 * (w.hi - w.lo) / 2))
		h->flags |= PV_HONEST_QUANTISED;
	/* a wild run: the decision must hold without it too */
	mad = wildest(xb, b->n, xt, t->n, sxb, sxt, o->outlier_z, &wside,
		      &widx, &h->out_b, &h->out_t);
	if (wside >= 0)
		h->flags |= PV_HONEST_OUTLIERS;
	/*
	 * Heavy tails: a run beyond outlier_z MADs makes the interval the
	 * Hodges-Lehmann shift's, by inverting Mann-Whitney's test, which
	 * keeps its level whatever the tails and loses little (3/pi of
	 * Welch's efficiency) where the runs are normal after all.  Not
	 * below RANK_MIN_RUNS a side, where its p-values are too coarse to
	 * pass the false discovery control (2 / C(2n, n): 0.0079 at five
	 * runs, 0.00016 at eight), nor where most runs are equal (a MAD of
	 * 0) or the rounding matters: the differences of rounded values are
	 * not an interval of the change beneath them.  There the hull stays.
	 * Asked first: the hull's Welch test without the wild run is not
	 * needed where the shift's interval replaces the hull.
	 */
	rank = wside >= 0 && b->n >= RANK_MIN_RUNS && t->n >= RANK_MIN_RUNS &&
		mad > 0 && !(h->flags & PV_HONEST_QUANTISED) &&
		pv_stats_hl_shift(xb, b->n, xt, t->n, o->conf, &hl) == 0;
	if (!rank && wside >= 0 && (wside == 0 ? b->n : t->n) >= 4) {
		double *y = pv_xreallocarray(NULL, wside == 0 ? b->n : t->n,
					     sizeof(*y));
		const double *src = wside == 0 ? xb : xt;
		size_t m = wside == 0 ? b->n : t->n, j = 0;
		struct pv_welch l;

		for (i = 0; i < m; i++)
			if (i != widx)
				y[j++] = src[i];
		if (wside == 0)
			pv_stats_welch(y, j, xt, t->n, o->conf, &l);
		else
			pv_stats_welch(xb, b->n, y, j, o->conf, &l);
		k[nk].c = l.diff;
		k[nk].se = l.se;
		k[nk].df = l.df;
		nk++;
		free(y);
	}
	h->lo = INFINITY;
	h->hi = -INFINITY;
	h->p = 0;
	h->est = w.diff;
	if (rank) {
		h->flags |= PV_HONEST_RANK;
		h->est = hl.est;
		h->lo = hl.lo - h->widen;
		h->hi = hl.hi + h->widen;
		h->p = h->lo > 0 || h->hi < 0 ? hl.p :
			fmax(hl.p, 1 - o->conf);
		nk = 0;
	}
	for (i = 0; i < nk; i++) {
		double lo, hi;

		part_interval(&k[i], h->widen, o->conf, &lo, &hi);
		h->lo = fmin(h->lo, lo);
		h->hi = fmax(h->hi, hi);
		h->p = fmax(h->p, part_p(&k[i], h->widen));
	}

	/* order and trend, where every run's time is known */
	h->order = PV_ORDER_UNKNOWN;
	if (b->time != NULL && t->time != NULL) {
		double bmin = INFINITY, bmax = -INFINITY, tmin = INFINITY;
		double tmax = -INFINITY;
		struct pv_trendfit tr;
		struct pv_kendall kt;

		for (i = 0; i < b->n; i++) {
			bmin = fmin(bmin, b->time[i]);
			bmax = fmax(bmax, b->time[i]);
		}
		for (i = 0; i < t->n; i++) {
			tmin = fmin(tmin, t->time[i]);
			tmax = fmax(tmax, t->time[i]);
		}
		if (b->local || t->local) {
			/*
			 * Side by side, the target's after the baseline's, for
			 * the serial correlation only: the sides' places in
			 * time are not known
			 */
			double *tt = pv_xreallocarray(NULL, t->n, sizeof(*tt));

			for (i = 0; i < t->n; i++)
				tt[i] = t->time[i] - tmin + bmax + 1;
			layout(xb, b->time, b->n, xt, tt, t->n, h);
			free(tt);
		} else {
			h->order = bmax < tmin || tmax < bmin ?
				PV_ORDER_APART : PV_ORDER_INTERLEAVED;
			layout(xb, b->time, b->n, xt, t->time, t->n, h);
		}
		if (pv_stats_trend(xb, b->time, b->n, xt, t->time, t->n,
				   &tr) == 0) {
			pv_stats_kendall_trend(xb, b->time, b->n, xt, t->time,
					       t->n, &kt);
			h->trend_z = kt.z;
			h->trend_p = kt.p;
			if (!(b->local || t->local)) {
				h->adj = tr.diff;
				h->adj_se = tr.diff_se;
				h->adj_df = tr.df;
			}
		}
	}
}

void
pv_honest_pair(struct pv_honest *h, size_t n, const struct pv_honest_opts *o)
{
	double x2 = 0, p_trend = 1, rho = 0, p_ac = 1, num = 0, den = 0;
	double runs = 0, keys = 0, bias = 0, pairs = 0;
	size_t m = 0, i;

	/*
	 * The pair's keys together.  Their trends: the sum of the squares
	 * of their Mann-Kendall z, chi-square on the keys under no trend.
	 * Their serial correlation: the lag-1 products of the residuals
	 * within the sides, pooled, against their expectation under
	 * independence (-den/n a side, ac_bias); the estimate of rho inverts
	 * E[r] = rho - (1 + 3 rho) / r for sides of r runs, from five runs a
	 * side.
	 */
	for (i = 0; i < n; i++) {
		if (isnan(h[i].trend_z))
			continue;
		x2 += h[i].trend_z * h[i].trend_z;
		m++;
		if (h[i].ac_n > 0 && h[i].ac_den > 0) {
			num += h[i].ac_num;
			bias += h[i].ac_bias;
			den += h[i].ac_den;
			pairs += (double)h[i].ac_n;
			runs += (double)(h[i].nb + h[i].nt) / 2;
			keys++;
		}
	}
	if (m > 0)
		p_trend = pv_stats_chisq_sf(x2, (double)m);
	if (den > 0 && pairs > 0) {
		double a = num / den, r = runs / keys;

		p_ac = pv_stats_normal_sf((num + bias) / den * sqrt(pairs));
		rho = r > 4 ? (r * a + 1) / (r - 3) : 0;
		if (rho > 0.95)
			rho = 0.95;
		if (!(rho > 0))
			rho = 0;
	}
	for (i = 0; i < n; i++) {
		struct pv_honest *k = &h[i];
		int drift;
		double f, lo, hi;
		struct part a;

		if (isnan(k->d) || isnan(k->trend_z))
			continue;
		/*
		 * Drift: a trend within the key's sides; serial correlation in
		 * the pair; or a trend in the pair while this key's sides were
		 * run one after the other.
		 */
		drift = k->trend_p < o->trend_alpha || p_ac < o->pair_alpha ||
			(k->order == PV_ORDER_APART && p_trend < o->pair_alpha);
		f = pv_stats_ar1_factor(k->layout, k->nlayout, rho);

		if (!drift && !(f > 1))
			continue;
		k->rho = rho;
		if (drift)
			k->flags |= PV_HONEST_DRIFT;
		if (drift && !isnan(k->adj)) {
			/* the change at equal times replaces Welch's */
			a.c = k->adj;
			a.se = k->adj_se;
			a.df = k->adj_df;
		} else {
			a.c = k->d;
			a.se = k->se;
			a.df = k->df;
		}
		if (f > 1)
			a.se *= sqrt(f);
		part_interval(&a, k->widen, o->conf, &lo, &hi);
		if (drift && !isnan(k->adj)) {
			k->lo = lo;
			k->hi = hi;
			k->p = part_p(&a, k->widen);
		} else {
			k->lo = fmin(k->lo, lo);
			k->hi = fmax(k->hi, hi);
			k->p = fmax(k->p, part_p(&a, k->widen));
		}
	}
}

void
pv_honest_release(struct pv_honest *h)
{
	free(h->layout);
	h->layout = NULL;
	h->nlayout = 0;
}
