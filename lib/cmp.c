/*
 * cmp: baseline against target at one key (see cmp.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmp.h"
#include "hash.h"
#include "stats.h"
#include "strbuf.h"
#include "xalloc.h"

/* median of v[0..n) (n <= 64 on the stack), and |v - median| into dev */
static double
median_dev(const double *v, size_t n, double *dev)
{
	double small[64], *s = n <= 64 ? small :
		pv_xreallocarray(NULL, n, sizeof(double)), med;
	size_t i;

	memcpy(s, v, n * sizeof(double));
	pv_stats_sort(s, n);
	med = pv_stats_median_sorted(s, n);
	for (i = 0; i < n; i++)
		dev[i] = fabs(v[i] - med);
	if (s != small)
		free(s);
	return med;
}

/* the robust CV of raw values: 1.4826 MAD / |median| */
static double
robust_cv(const double *v, size_t n)
{
	double small[128], *s = n <= 64 ? small :
		pv_xreallocarray(NULL, 2 * n, sizeof(double)), *dev = s + n;
	double med, mad;
	size_t i;

	memcpy(s, v, n * sizeof(double));
	pv_stats_sort(s, n);
	med = pv_stats_median_sorted(s, n);
	if (pv_stats_mad_sorted(s, n, med, &mad) < 0) {
		for (i = 0; i < n; i++)
			dev[i] = fabs(v[i] - med);
		pv_stats_sort(dev, n);
		mad = pv_stats_median_sorted(dev, n);
	}
	if (s != small)
		free(s);
	return med != 0 ? PV_STATS_MAD_SCALE * mad / fabs(med) : 0;
}

/*
 * Outlier runs of each side: a modified z-score 0.6745 |x - median| / MAD
 * above z (Iglewicz and Hoaglin), on the oriented logs, with the MAD of
 * both sides' deviations pooled: at five runs a side one side's MAD rests
 * on two deviations and flags ordinary runs.
 */
static void
outliers(const double *xb, size_t nb, const double *xt, size_t nt, double z,
	 size_t *ob, size_t *ot)
{
	double small[256], *dev = nb + nt <= 128 ? small :
		pv_xreallocarray(NULL, 2 * (nb + nt), sizeof(double));
	double *sorted = dev + nb + nt;
	double mad;
	size_t i;

	median_dev(xb, nb, dev);
	median_dev(xt, nt, dev + nb);
	memcpy(sorted, dev, (nb + nt) * sizeof(double));
	pv_stats_sort(sorted, nb + nt);
	mad = pv_stats_median_sorted(sorted, nb + nt);
	*ob = *ot = 0;
	for (i = 0; i < nb + nt; i++) {
		if (!(mad > 0 ? 0.6745 * dev[i] / mad > z : dev[i] > 0))
			continue;
		if (i < nb)
			(*ob)++;
		else
			(*ot)++;
	}
	if (dev != small)
		free(dev);
}

/* the honest interval's options from the comparison's */
static void
honest_opts(const struct pv_cmp_opts *opt, struct pv_honest_opts *ho)
{
	static const struct pv_honest_opts init = PV_HONEST_OPTS_INIT;

	*ho = init;
	ho->conf = opt->conf;
	ho->min_runs = opt->min_runs;
	ho->outlier_z = opt->outlier_z;
}

void
pv_cmp_compute(const struct pv_runkey *key, const double *b, size_t nb,
	       const double *t, size_t nt, const struct pv_cmp_opts *opt,
	       struct pv_cmp *c)
{
	struct pv_honest_side sb = { b, NULL, nb, 0, 0 };
	struct pv_honest_side st = { t, NULL, nt, 0, 0 };
	struct pv_honest h;

	pv_cmp_compute_sides(key, &sb, &st, opt, c, &h);
	pv_cmp_pair(c, &h, 1, opt);
	pv_honest_release(&h);
}

void
pv_cmp_pair(struct pv_cmp *c, struct pv_honest *h, size_t n,
	    const struct pv_cmp_opts *opt)
{
	struct pv_honest_opts ho;
	size_t i;

	honest_opts(opt, &ho);
	pv_honest_pair(h, n, &ho);
	for (i = 0; i < n; i++) {
		if (isnan(h[i].d))
			continue;
		c[i].hlo = h[i].lo;
		c[i].hhi = h[i].hi;
		c[i].hp = h[i].p;
		c[i].trend = h[i].trend_z;
		c[i].order = (int)h[i].order;
		c[i].rho = h[i].rho > 0 ? h[i].rho : NAN;
		if (h[i].flags & PV_HONEST_QUANTISED)
			c[i].flags |= PV_CMP_QUANTISED;
		if (h[i].flags & PV_HONEST_DRIFT)
			c[i].flags |= PV_CMP_DRIFT;
	}
}

void
pv_cmp_compute_sides(const struct pv_runkey *key,
		     const struct pv_honest_side *bs,
		     const struct pv_honest_side *ts,
		     const struct pv_cmp_opts *opt, struct pv_cmp *c,
		     struct pv_honest *h)
{
	const double *b = bs->v, *t = ts->v;
	size_t nb = bs->n, nt = ts->n;
	double small[256], *xb, *xt, *sxb, *sxt, sign;
	size_t i;
	int nonpos = 0;

	memset(c, 0, sizeof(*c));
	memset(h, 0, sizeof(*h));
	h->d = NAN;
	c->key = *key;
	c->nb = nb;
	c->nt = nt;
	c->change = c->lo = c->hi = c->se = c->df = NAN;
	c->boot_lo = c->boot_hi = c->p_welch = c->p_mwu = NAN;
	c->g = c->cliff = c->rcv_b = c->rcv_t = NAN;
	c->hlo = c->hhi = c->hp = c->trend = c->rho = NAN;
	c->quantum = bs->quantum > ts->quantum ? bs->quantum : ts->quantum;
	if (nb == 0)
		c->flags |= PV_CMP_TARGET_ONLY;
	if (nt == 0)
		c->flags |= PV_CMP_BASE_ONLY;
	if (nb < opt->min_runs || nt < opt->min_runs)
		c->flags |= PV_CMP_FEW_RUNS;
	/* b and t hold nb and nt values: the analyzer loses that in compare() */
	for (i = 0; i < nb; i++)
		/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
		nonpos |= !(b[i] > 0);
	for (i = 0; i < nt; i++)
		/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
		nonpos |= !(t[i] > 0);
	if (nonpos)
		c->flags |= PV_CMP_NONPOSITIVE;
	if (nb == 0 || nt == 0 || nonpos)
		return;

	sign = key->direction == PV_LOWER_BETTER ? -1 : 1;
	xb = nb + nt <= 128 ? small :
		pv_xreallocarray(NULL, 2 * (nb + nt), sizeof(double));
	xt = xb + nb;
	for (i = 0; i < nb; i++)
		xb[i] = sign * log(b[i]);
	for (i = 0; i < nt; i++)
		xt[i] = sign * log(t[i]);
	/* sorted once for the rank test, the outliers and the bootstrap */
	sxb = xt + nt;
	sxt = sxb + nb;
	memcpy(sxb, xb, (nb + nt) * sizeof(double));
	pv_stats_sort(sxb, nb);
	pv_stats_sort(sxt, nt);

	c->rcv_b = robust_cv(b, nb);
	c->rcv_t = robust_cv(t, nt);
	/* with two runs a side or more the honest interval counts them */
	if (nb < 2 || nt < 2)
		outliers(xb, nb, xt, nt, opt->outlier_z, &c->out_b,
			 &c->out_t);
	if (c->rcv_b > opt->cv_max || c->rcv_t > opt->cv_max)
		c->flags |= PV_CMP_UNSTABLE;

	c->change = pv_stats_mean(xt, nt) - pv_stats_mean(xb, nb);
	c->cliff = pv_stats_cliff_sorted(sxb, nb, sxt, nt);
	{
		struct pv_mwu m;

		if (nb <= 24 && nt <= 24)
			pv_stats_mwu_sorted(sxb, nb, sxt, nt, &m);
		else
			pv_stats_mwu(xb, nb, xt, nt, &m);
		c->p_mwu = m.p;
	}
	/* with two runs a side Hedges' g is taken from Welch's test below */
	if (nb + nt >= 3 && !(nb >= 2 && nt >= 2))
		c->g = pv_stats_hedges_g(xb, nb, xt, nt);
	if (nb >= 2 && nt >= 2) {
		struct pv_honest_opts ho;
		struct pv_welch w;

		/* Welch's test is the honest interval's first part: the same
		 * logs at the same level, computed there once */
		honest_opts(opt, &ho);
		pv_honest_key_logs(bs, ts, xb, xt, sxb, sxt,
				   key->direction == PV_LOWER_BETTER, &ho, h,
				   &w);
		c->out_b = h->out_b;
		c->out_t = h->out_t;
		c->lo = h->w_lo;
		c->hi = h->w_hi;
		c->se = h->se;
		c->df = h->df;
		c->p_welch = h->w_p;
		c->g = pv_stats_hedges_g_welch(&w, nb, nt);
		if (h->se == 0)
			c->flags |= PV_CMP_ZERO_VAR;
		if (opt->boot > 0 &&
		    pv_stats_bootstrap_median_diff_exact_sorted(sxb, nb, sxt,
				nt, opt->conf, &c->boot_lo,
				&c->boot_hi) == 0) {
			/* exact: no resampling needed */
		} else if (opt->boot > 0) {
			struct pv_strbuf sb = PV_STRBUF_INIT;
			uint64_t seed;

			pv_rec_key_add(&sb, key, 1);
			seed = pv_hash(sb.buf, sb.len, 0);
			pv_strbuf_release(&sb);
			pv_stats_bootstrap_median_diff(xb, nb, xt, nt,
						       opt->boot, seed,
						       opt->conf, &c->boot_lo,
						       &c->boot_hi);
		}
	}
	if (c->out_b > 0 || c->out_t > 0)
		c->flags |= PV_CMP_OUTLIERS;
	if (xb != small)
		free(xb);
}
