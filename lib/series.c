/*
 * series: change points, outliers and trends in a key's series of versions
 * (see series.h for the method).  Every statistic of a segment of versions
 * comes from prefix sums of the points' sufficient statistics, so a test
 * costs the same whatever the segment's length.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "stats.h"
#include "xalloc.h"

/*
 * The level of the pretest that decides the unit of a test: 25 %, as the
 * "sometimes pool" literature advises (Bancroft 1944), so that versions
 * that scatter a little more than their runs are not pooled as runs.
 */
#define UNIT_LEVEL 0.25
/* the level at which a trend's slope must hold beside the steps */
#define SLOPE_LEVEL 0.05

/*
 * The sums over a run of versions: runs, their log sum and sum of
 * squares of the version means (weighted by runs, about a reference),
 * within-version squares and degrees of freedom, versions, and the
 * moments of the version index for the trend.
 */
struct sums {
	double n, y, yy, w, wdf, k, x, xx, xy;
};

struct outl;

struct cut {
	size_t at;		/* the first version after it */
	double d, lo, hi, p;
	size_t kb, ka;		/* versions before and after */
};

struct pv_series_scratch {
	struct sums *pre;	/* pre[i]: the sums of versions [0, i) */
	size_t prealloc;
	unsigned char *out;	/* versions left out (outliers) */
	size_t outalloc;
	size_t *cand;		/* candidates of an analysis */
	size_t ncand, candalloc;
	size_t *stack;		/* the split's intervals, in pairs */
	size_t nstack, stackalloc;
	struct cut *cut;	/* the merge's cuts */
	size_t ncut, cutalloc;
	double var, vdf;	/* the variance of their test, its df */
	struct outl *outl;	/* the outliers found */
	size_t noutl, outlalloc;
};

void
pv_series_init(struct pv_series *s)
{
	memset(s, 0, sizeof(*s));
}

void
pv_series_release(struct pv_series *s)
{
	free(s->pt);
	free(s->cand);
	memset(s, 0, sizeof(*s));
}

void
pv_series_add(struct pv_series *s, const struct pv_series_point *p)
{
	PV_GROW(s->pt, s->npt + 1, s->ptalloc);
	s->pt[s->npt++] = *p;
}

void
pv_series_forget(struct pv_series *s)
{
	s->ncand = 0;
	s->nwin = 0;
}

void
pv_series_result_init(struct pv_series_result *r)
{
	memset(r, 0, sizeof(*r));
	r->scratch = pv_xcalloc(1, sizeof(*r->scratch));
}

void
pv_series_result_release(struct pv_series_result *r)
{
	struct pv_series_scratch *w = r->scratch;

	if (w != NULL) {
		free(w->pre);
		free(w->out);
		free(w->cand);
		free(w->stack);
		free(w->cut);
		free(w->outl);
		free(w);
	}
	free(r->ev);
	memset(r, 0, sizeof(*r));
}

/* The sums of versions [a, b). */
static struct sums
seg(const struct sums *pre, size_t a, size_t b)
{
	struct sums s;

	s.n = pre[b].n - pre[a].n;
	s.y = pre[b].y - pre[a].y;
	s.yy = pre[b].yy - pre[a].yy;
	s.w = pre[b].w - pre[a].w;
	s.wdf = pre[b].wdf - pre[a].wdf;
	s.k = pre[b].k - pre[a].k;
	s.x = pre[b].x - pre[a].x;
	s.xx = pre[b].xx - pre[a].xx;
	s.xy = pre[b].xy - pre[a].xy;
	return s;
}

/* The between-version sum of squares of a segment about its mean. */
static double
ssb(const struct sums *s)
{
	double v;

	if (s->n <= 0)
		return 0;
	v = s->yy - s->y * s->y / s->n;
	return v > 0 ? v : 0;
}

/* The prefix sums of s's versions, those marked in out left out. */
static void
prefix(const struct pv_series *s, struct pv_series_scratch *w,
       const unsigned char *out)
{
	double ref = s->npt ? s->pt[0].mean : 0;
	size_t i;

	PV_GROW(w->pre, s->npt + 1, w->prealloc);
	memset(&w->pre[0], 0, sizeof(w->pre[0]));
	for (i = 0; i < s->npt; i++) {
		const struct pv_series_point *p = &s->pt[i];
		struct sums *a = &w->pre[i], *b = &w->pre[i + 1];
		double n = p->n, y = p->mean - ref, x = (double)i;

		*b = *a;
		if (out != NULL && out[i])
			continue;
		b->n += n;
		b->y += n * y;
		b->yy += n * y * y;
		b->w += p->ss;
		b->wdf += n - 1;
		b->k += 1;
		b->x += n * x;
		b->xx += n * x * x;
		b->xy += n * x * y;
	}
}

/*
 * The variance of one run for a test, and its degrees of freedom, from
 * the residual between-version squares (ss on df) and the within-version
 * ones (w on wdf): pooled unless the versions scatter more than their
 * runs allow.  NaN when there is nothing to estimate it from.
 */
static double
variance(double ss, double df, double w, double wdf, double *dfout)
{
	double msb, msw;

	if (ss < 0)		/* rounding, in a difference of squares */
		ss = 0;
	if (wdf <= 0) {
		*dfout = df;
		return df > 0 ? ss / df : NAN;
	}
	if (df <= 0) {
		*dfout = wdf;
		return w / wdf;
	}
	msb = ss / df;
	msw = w / wdf;
	if (msw > 0 ? pv_stats_f_pvalue(msb / msw, df, wdf) < UNIT_LEVEL :
	    msb > 0) {
		*dfout = df;
		return msb;
	}
	*dfout = df + wdf;
	return (ss + w) / (df + wdf);
}

/*
 * The two-sided p-value of a difference d with variance factor f (the
 * variance of d is v f), Bonferroni-corrected for m positions; se the
 * standard error.
 */
static double
test(double d, double v, double f, double df, double m, double *se)
{
	double p;

	*se = isnan(v) ? NAN : v > 0 ? sqrt(v * f) : 0;
	if (isnan(v))
		return 1;
	if (*se == 0)
		return d != 0 ? 0 : 1;
	p = m * pv_stats_t_pvalue(d / *se, df);
	return p < 1 ? p : 1;
}

static void
push(struct pv_series_scratch *w, size_t a, size_t b)
{
	PV_GROW(w->stack, w->nstack + 2, w->stackalloc);
	w->stack[w->nstack++] = a;
	w->stack[w->nstack++] = b;
}

static void
add_cand(size_t **v, size_t *n, size_t *alloc, size_t at)
{
	PV_GROW(*v, *n + 1, *alloc);
	(*v)[(*n)++] = at;
}

/*
 * Cut versions [lo, hi) by binary segmentation at level alpha, appending
 * the cuts to w->cand.
 */
static void
split(struct pv_series_scratch *w, size_t lo, size_t hi, double alpha)
{
	const struct sums *pre = w->pre;

	w->nstack = 0;
	push(w, lo, hi);
	while (w->nstack > 0) {
		size_t b = w->stack[--w->nstack], a = w->stack[--w->nstack];
		size_t k = b - a, i, best_t = 0, best_i = 0;
		struct sums t = seg(pre, a, b), l, r;
		double total = ssb(&t), gain, best = -1, besto = -1;
		double v, df, d, se, ps = 1, po = 1;

		if (k < 2)
			continue;
		/* the best step: the largest between-segment squares */
		for (i = a + 1; i < b; i++) {
			l = seg(pre, a, i);
			r = seg(pre, i, b);
			d = r.y / r.n - l.y / l.n;
			gain = l.n * r.n / t.n * d * d;
			if (gain > best) {
				best = gain;
				best_t = i;
			}
		}
		l = seg(pre, a, best_t);
		r = seg(pre, best_t, b);
		v = variance(total - best, (double)k - 2, t.w, t.wdf, &df);
		ps = test(r.y / r.n - l.y / l.n, v, 1 / l.n + 1 / r.n, df,
			  (double)(k - 1), &se);
		/* the best single version against the rest */
		if (k >= 3) {
			for (i = a; i < b; i++) {
				l = seg(pre, i, i + 1);
				r = t;
				r.n -= l.n;
				r.y -= l.y;
				d = l.y / l.n - r.y / r.n;
				gain = l.n * r.n / t.n * d * d;
				if (gain > besto) {
					besto = gain;
					best_i = i;
				}
			}
			l = seg(pre, best_i, best_i + 1);
			r = t;
			r.n -= l.n;
			r.y -= l.y;
			v = variance(total - besto, (double)k - 2, t.w, t.wdf,
				     &df);
			po = test(l.y / l.n - r.y / r.n, v, 1 / l.n + 1 / r.n,
				  df, (double)k, &se);
		}
		if (ps <= po && ps <= alpha) {
			add_cand(&w->cand, &w->ncand, &w->candalloc, best_t);
			push(w, a, best_t);
			push(w, best_t, b);
		} else if (po < ps && po <= alpha) {
			if (best_i > a)
				add_cand(&w->cand, &w->ncand, &w->candalloc,
					 best_i);
			if (best_i + 1 < b)
				add_cand(&w->cand, &w->ncand, &w->candalloc,
					 best_i + 1);
			push(w, a, best_i);
			push(w, best_i + 1, b);
		}
	}
}

static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* Sort v[0..n) and drop repeats; returns the new count. */
static size_t
sort_unique(size_t *v, size_t n)
{
	size_t i, j;

	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_size);
	for (i = j = 1; i < n; i++)
		if (v[i] != v[j - 1])
			v[j++] = v[i];
	return j;
}

/*
 * The weak candidates of s into w->cand: those kept from the complete
 * windows and those of the windows at the end, cut now.  Windows that
 * became complete are kept in s.
 */
static void
candidates(struct pv_series *s, const struct pv_series_opts *o,
	   struct pv_series_scratch *w)
{
	size_t h = o->window / 2, j, i, from;
	/* the split's candidates are weak, at Otava's first-pass level */
	double alpha = o->alpha < 0.05 ? 10 * o->alpha : o->alpha < 0.5 ?
		2 * o->alpha : o->alpha;

	w->ncand = 0;
	for (j = s->nwin; j * h < s->npt; j++) {
		size_t start = j * h, end = start + o->window;
		int complete = end <= s->npt;

		from = w->ncand;
		split(w, start, complete ? end : s->npt, alpha);
		if (complete && j == s->nwin) {
			for (i = from; i < w->ncand; i++) {
				PV_GROW(s->cand, s->ncand + 1, s->candalloc);
				s->cand[s->ncand++] = (uint32_t)w->cand[i];
			}
			s->nwin++;
			w->ncand = from;
		}
	}
	for (i = 0; i < s->ncand; i++)
		add_cand(&w->cand, &w->ncand, &w->candalloc, s->cand[i]);
	w->ncand = sort_unique(w->cand, w->ncand);
	/* keep s's list sorted and short: the union of its windows */
	if (s->ncand > 1) {
		size_t *tmp = pv_xreallocarray(NULL, s->ncand, sizeof(*tmp));

		for (i = 0; i < s->ncand; i++)
			tmp[i] = s->cand[i];
		s->ncand = sort_unique(tmp, s->ncand);
		for (i = 0; i < s->ncand; i++)
			s->cand[i] = (uint32_t)tmp[i];
		free(tmp);
	}
}

/*
 * Test every cut of w->cut between its neighbours, with the residual
 * variance of the whole segmentation; npt the versions.
 */
static void
test_cuts(struct pv_series_scratch *w, size_t npt, double conf)
{
	const struct sums *pre = w->pre;
	double res = 0, ver = 0, v, df, tq;
	struct sums all = seg(pre, 0, npt), a, b;
	size_t j, from = 0, nseg = 0;

	for (j = 0; j <= w->ncut; j++) {
		size_t to = j < w->ncut ? w->cut[j].at : npt;

		a = seg(pre, from, to);
		res += ssb(&a);
		ver += a.k;
		nseg += a.k > 0;
		from = to;
	}
	v = variance(res, ver - (double)nseg, all.w, all.wdf, &df);
	w->var = v;
	w->vdf = df;
	tq = isnan(v) ? NAN : pv_stats_t_quantile(1 - (1 - conf) / 2, df);
	for (j = 0; j < w->ncut; j++) {
		struct cut *c = &w->cut[j];
		size_t lo = j ? w->cut[j - 1].at : 0;
		size_t hi = j + 1 < w->ncut ? w->cut[j + 1].at : npt;
		double se;

		a = seg(pre, lo, c->at);
		b = seg(pre, c->at, hi);
		c->kb = (size_t)a.k;
		c->ka = (size_t)b.k;
		if (a.n <= 0 || b.n <= 0) {
			/* a segment of outliers only: nothing to test */
			c->d = c->lo = c->hi = NAN;
			c->p = 1;
			continue;
		}
		c->d = b.y / b.n - a.y / a.n;
		c->p = test(c->d, v, 1 / a.n + 1 / b.n, df, a.k + b.k - 1,
			    &se);
		c->lo = c->d - tq * se;
		c->hi = c->d + tq * se;
		if (isnan(se))
			c->lo = c->hi = NAN;
	}
}

static int encloses_outlier(const struct pv_series_scratch *w, size_t npt,
			    size_t j, const struct pv_series_opts *o);

/* Whether cut j of w->cut is one of two that enclose an outlier. */
static int
in_outlier(const struct pv_series_scratch *w, size_t npt, size_t j,
	   const struct pv_series_opts *o)
{
	return (j + 1 < w->ncut && encloses_outlier(w, npt, j, o)) ||
		(j > 0 && encloses_outlier(w, npt, j - 1, o));
}

/*
 * Drop the weakest cut of w->cut while one is not significant or too
 * small (Otava's merge), testing again after each.  With outliers next
 * (outliers() judges the cuts that remain), the two cuts that enclose an
 * outlier are left to it: each alone, against a segment of one version,
 * is weak where the version against the versions about it is not, and
 * dropping one would make the outlier part of a segment, where it moves
 * the segment's mean and hides the changes about it.
 */
static void
merge(struct pv_series_scratch *w, size_t npt,
      const struct pv_series_opts *o, int outliers_next)
{
	double floor = log1p(o->threshold);

	while (w->ncut > 0) {
		size_t j, worst = SIZE_MAX;

		test_cuts(w, npt, o->conf);
		for (j = 0; j < w->ncut; j++) {
			if (outliers_next && in_outlier(w, npt, j, o))
				continue;
			if (worst == SIZE_MAX || w->cut[j].p > w->cut[worst].p)
				worst = j;
		}
		if (worst == SIZE_MAX)
			return;
		if (w->cut[worst].p <= o->alpha) {
			worst = SIZE_MAX;
			for (j = 0; j < w->ncut; j++) {
				if (outliers_next && in_outlier(w, npt, j, o))
					continue;
				if (worst == SIZE_MAX || fabs(w->cut[j].d) <
				    fabs(w->cut[worst].d))
					worst = j;
			}
			if (fabs(w->cut[worst].d) >= floor)
				return;
		}
		memmove(&w->cut[worst], &w->cut[worst + 1],
			(w->ncut - worst - 1) * sizeof(w->cut[0]));
		w->ncut--;
	}
}

static void
cuts_from(struct pv_series_scratch *w, const size_t *at, size_t n)
{
	size_t i;

	PV_GROW(w->cut, n ? n : 1, w->cutalloc);
	for (i = 0; i < n; i++) {
		memset(&w->cut[i], 0, sizeof(w->cut[i]));
		w->cut[i].at = at[i];
	}
	w->ncut = n;
}

/* An outlier found, before the model of the series is settled. */
struct outl {
	size_t at;
	double change, p;
};

static void
add_outl(struct pv_series_scratch *w, size_t at, double change, double p)
{
	PV_GROW(w->outl, w->noutl + 1, w->outlalloc);
	w->outl[w->noutl].at = at;
	w->outl[w->noutl].change = change;
	w->outl[w->noutl].p = p;
	w->noutl++;
}

/*
 * Version v against the versions of segment g (without v), with the
 * variance of the segmentation: its change and p-value, corrected for the
 * k + 1 versions it could have been.
 */
static double
single(const struct sums *pre, size_t v, const struct sums *g, double var,
       double df, double *change)
{
	struct sums x = seg(pre, v, v + 1);
	double se;

	*change = x.y / x.n - g->y / g->n;
	return test(*change, var, 1 / x.n + 1 / g->n, df, g->k + 1, &se);
}

/*
 * Whether cuts j and j + 1 of w->cut enclose an outlier as outliers()
 * judges one (a version alone between two cuts of opposite sign, the
 * segments either side not different, the version different from them),
 * with the variance of the merge's test.
 */
static int
encloses_outlier(const struct pv_series_scratch *w, size_t npt, size_t j,
		 const struct pv_series_opts *o)
{
	const struct cut *c = &w->cut[j], *n = &w->cut[j + 1];
	size_t lo = j ? w->cut[j - 1].at : 0;
	size_t hi = j + 2 < w->ncut ? w->cut[j + 2].at : npt;
	double floor = log1p(o->threshold), d, p, se, ch;
	struct sums a, b;

	if (n->at != c->at + 1 || !(c->d * n->d < 0))
		return 0;
	a = seg(w->pre, lo, c->at);
	b = seg(w->pre, n->at, hi);
	if (a.n <= 0 || b.n <= 0)
		return 0;
	d = b.y / b.n - a.y / a.n;
	p = test(d, w->var, 1 / a.n + 1 / b.n, w->vdf, a.k + b.k - 1, &se);
	if (p <= o->alpha && fabs(d) >= floor)
		return 0;	/* two changes */
	a.n += b.n;
	a.y += b.y;
	a.k += b.k;
	p = single(w->pre, c->at, &a, w->var, w->vdf, &ch);
	return p <= o->alpha && fabs(ch) >= floor;
}

/*
 * Outliers among the cuts of the merge: a version alone between two cuts
 * of opposite sign whose outer segments do not differ, or the first
 * version alone; each must differ from the versions about it,
 * significantly and by the threshold, or its cuts are dropped.  The
 * outliers go to w->outl and w->out, the cuts that remain to w->cand.
 */
static void
outliers(struct pv_series *s, const struct pv_series_opts *o,
	 struct pv_series_scratch *w)
{
	const struct sums *pre = w->pre;
	double floor = log1p(o->threshold), res = 0, ver = 0, var, df;
	struct sums all = seg(pre, 0, s->npt), a, b;
	size_t j, from = 0, nseg = 0;

	/* the variance of the segmentation the merge left */
	for (j = 0; j <= w->ncut; j++) {
		size_t to = j < w->ncut ? w->cut[j].at : s->npt;

		a = seg(pre, from, to);
		res += ssb(&a);
		ver += a.k;
		nseg++;
		from = to;
	}
	var = variance(res, ver - (double)nseg, all.w, all.wdf, &df);
	w->ncand = 0;
	w->noutl = 0;
	for (j = 0; j < w->ncut; j++) {
		const struct cut *c = &w->cut[j], *n = j + 1 < w->ncut ?
			&w->cut[j + 1] : NULL;
		size_t lo = j ? w->cut[j - 1].at : 0;
		size_t hi = j + 2 < w->ncut ? w->cut[j + 2].at : s->npt;
		double d, p, se, ch;

		if (j == 0 && c->at == 1 && c->ka >= 2) {
			/* the first version alone, before the others */
			b = seg(pre, 1, n != NULL ? n->at : s->npt);
			p = single(pre, 0, &b, var, df, &ch);
			if (p <= o->alpha && fabs(ch) >= floor) {
				add_outl(w, 0, ch, p);
				w->out[0] = 1;
			}
			continue;
		}
		if (n == NULL || n->at != c->at + 1 || !(c->d * n->d < 0)) {
			add_cand(&w->cand, &w->ncand, &w->candalloc, c->at);
			continue;
		}
		/* the segments either side: if they differ, two changes */
		a = seg(pre, lo, c->at);
		b = seg(pre, n->at, hi);
		d = b.y / b.n - a.y / a.n;
		p = test(d, var, 1 / a.n + 1 / b.n, df, a.k + b.k - 1, &se);
		if (p <= o->alpha && fabs(d) >= floor) {
			add_cand(&w->cand, &w->ncand, &w->candalloc, c->at);
			continue;
		}
		a.n += b.n;
		a.y += b.y;
		a.k += b.k;
		p = single(pre, c->at, &a, var, df, &ch);
		if (p <= o->alpha && fabs(ch) >= floor) {
			add_outl(w, c->at, ch, p);
			w->out[c->at] = 1;
		}
		j++;		/* the cut after it goes too */
	}
}

/* The best single step of versions [0, npt) (outliers left out). */
static size_t
best_step(const struct sums *pre, size_t npt)
{
	struct sums t = seg(pre, 0, npt), l, r;
	double best = -1, d, gain;
	size_t i, at = 0;

	for (i = 1; i < npt; i++) {
		l = seg(pre, 0, i);
		r = seg(pre, i, npt);
		if (l.n <= 0 || r.n <= 0)
			continue;
		d = r.y / r.n - l.y / l.n;
		gain = l.n * r.n / t.n * d * d;
		if (gain > best) {
			best = gain;
			at = i;
		}
	}
	return at;
}

/* A line through versions t: slope, intercept at x = 0, residual squares. */
struct line {
	double b, a, rss, sxx, var, df;
};

static void
fit_line(const struct sums *t, struct line *l)
{
	double txy = t->xy - t->x * t->y / t->n;

	l->sxx = t->xx - t->x * t->x / t->n;
	l->b = l->sxx > 0 ? txy / l->sxx : 0;
	l->a = (t->y - l->b * t->x) / t->n;
	l->rss = ssb(t) - l->b * txy;
	if (l->rss < 0)
		l->rss = 0;
	l->var = variance(l->rss, t->k - 2, t->w, t->wdf, &l->df);
}

/*
 * Whether a line through the versions explains them better than the
 * cuts in w->cut (see series.h).
 */
static int
is_trend(const struct pv_series *s, const struct pv_series_opts *o,
	 struct pv_series_scratch *w)
{
	const struct sums *pre = w->pre;
	struct sums t = seg(pre, 0, s->npt), g;
	double cxx = 0, cxy = 0, cyy = 0, b, v, df, se, pb, pl, nseg = 0;
	size_t j, from = 0, one = 0, first, last, ncut = w->ncut;
	struct line l;

	if (t.k < 4)
		return 0;
	if (ncut == 0) {
		one = best_step(pre, s->npt);
		if (one == 0)
			return 0;
		ncut = 1;
	}
	for (j = 0; j <= ncut; j++) {
		size_t to = j < ncut ? (w->ncut ? w->cut[j].at : one) : s->npt;

		g = seg(pre, from, to);
		from = to;
		if (g.n <= 0)
			continue;
		cxx += g.xx - g.x * g.x / g.n;
		cxy += g.xy - g.x * g.y / g.n;
		cyy += ssb(&g);
		nseg++;
	}
	fit_line(&t, &l);
	if (!(cxx > 0) || !(l.sxx > 0))
		return 0;
	/* the slope beside the steps */
	b = cxy / cxx;
	v = variance(cyy - b * cxy > 0 ? cyy - b * cxy : 0, t.k - nseg - 1,
		     t.w, t.wdf, &df);
	pb = test(b, v, 1 / cxx, df, 1, &se);
	/* the line alone, against the steps */
	if (isnan(v) || l.rss >= cyy + (nseg > 2 ? nseg - 2 : 0) *
	    log(t.k) * v)
		return 0;
	pl = test(l.b, l.var, 1 / l.sxx, l.df, 1, &se);
	if (pb > SLOPE_LEVEL || pl > o->alpha)
		return 0;
	for (first = 0; w->out[first]; first++)
		;
	for (last = s->npt - 1; w->out[last]; last--)
		;
	return fabs(l.b) * (double)(last - first) >= log1p(o->threshold);
}

/*
 * The outliers of the steps, judged again against the trend: an outlier
 * stays one when it is off the line through the other versions; the
 * others go back into the series.  Returns whether one went back.
 */
static int
trend_outliers(const struct pv_series *s, const struct pv_series_opts *o,
	       struct pv_series_scratch *w)
{
	struct sums t = seg(w->pre, 0, s->npt), x;
	double floor = log1p(o->threshold), xm, r, se, p;
	struct line l;
	size_t i, j = 0;
	int back = 0;

	fit_line(&t, &l);
	xm = t.x / t.n;
	for (i = 0; i < w->noutl; i++) {
		struct outl *q = &w->outl[i];

		x = seg(w->pre, q->at, q->at + 1);
		/* the version's own sums, though it is left out of pre */
		x.n = s->pt[q->at].n;
		r = s->pt[q->at].mean - s->pt[0].mean -
			(l.a + l.b * (double)q->at);
		p = test(r, l.var, 1 / x.n + 1 / t.n + ((double)q->at - xm) *
			 ((double)q->at - xm) / l.sxx, l.df, t.k + 1, &se);
		if (p <= o->alpha && fabs(r) >= floor) {
			q->change = r;
			q->p = p;
			w->outl[j++] = *q;
		} else {
			w->out[q->at] = 0;
			back = 1;
		}
	}
	w->noutl = j;
	return back;
}

static void
the_trend(const struct pv_series *s, const struct pv_series_opts *o,
	  struct pv_series_scratch *w, struct pv_series_result *r)
{
	struct sums t = seg(w->pre, 0, s->npt);
	struct line l;
	double se, tq;
	size_t first, last;

	fit_line(&t, &l);
	for (first = 0; w->out[first]; first++)
		;
	for (last = s->npt - 1; w->out[last]; last--)
		;
	r->has_trend = 1;
	r->trend.first = first;
	r->trend.last = last;
	r->trend.change = l.b;
	r->trend.p = test(l.b, l.var, 1 / l.sxx, l.df, 1, &se);
	tq = pv_stats_t_quantile(1 - (1 - o->conf) / 2, l.df);
	r->trend.lo = l.b - tq * se;
	r->trend.hi = l.b + tq * se;
}

static struct pv_series_event *
new_event(struct pv_series_result *r)
{
	struct pv_series_event *e;

	PV_GROW(r->ev, r->nev + 1, r->evalloc);
	e = &r->ev[r->nev++];
	memset(e, 0, sizeof(*e));
	return e;
}

static int
cmp_event(const void *a, const void *b)
{
	const struct pv_series_event *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

void
pv_series_analyse(struct pv_series *s, const struct pv_series_opts *o,
		  struct pv_series_result *r)
{
	struct pv_series_scratch *w = r->scratch;
	size_t j;

	r->nev = 0;
	r->has_trend = 0;
	w->noutl = 0;
	if (s->npt < 2)
		return;
	PV_GROW(w->out, s->npt, w->outalloc);
	memset(w->out, 0, s->npt);
	prefix(s, w, NULL);
	candidates(s, o, w);
	cuts_from(w, w->cand, w->ncand);
	merge(w, s->npt, o, 1);
	if (w->ncut > 0) {
		/* outliers, then the changes without them */
		outliers(s, o, w);
		prefix(s, w, w->out);
		cuts_from(w, w->cand, w->ncand);
		merge(w, s->npt, o, 0);
	}
	if (is_trend(s, o, w)) {
		if (trend_outliers(s, o, w))
			prefix(s, w, w->out);
		the_trend(s, o, w, r);
		w->ncut = 0;
	}
	for (j = 0; j < w->noutl; j++) {
		struct pv_series_event *e = new_event(r);

		e->kind = PV_SERIES_OUTLIER;
		e->at = e->before = w->outl[j].at;
		e->change = w->outl[j].change;
		e->lo = e->hi = NAN;
		e->p = w->outl[j].p;
	}
	for (j = 0; j < w->ncut; j++) {
		const struct cut *c = &w->cut[j];
		struct pv_series_event *e = new_event(r);
		size_t before = c->at - 1;

		while (before > 0 && w->out[before])
			before--;
		e->kind = PV_SERIES_CHANGE;
		e->at = c->at;
		e->before = before;
		e->change = c->d;
		e->lo = c->lo;
		e->hi = c->hi;
		e->p = c->p;
		e->nbefore = c->kb;
		e->nafter = c->ka;
	}
	if (r->nev > 1)
		qsort(r->ev, r->nev, sizeof(r->ev[0]), cmp_event);
}
