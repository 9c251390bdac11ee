/*
 * classifier: staged false-discovery control, the four classes, systematic
 * regressions and severity (see classifier.h and pv-classify(1)).
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classifier.h"
#include "numfmt.h"
#include "stats.h"
#include "xalloc.h"

void
pv_classifier_init(struct pv_classifier *cl,
		   const struct pv_classifier_opts *o)
{
	memset(cl, 0, sizeof(*cl));
	cl->opt = *o;
	pv_strbuf_init(&cl->why, 0);
}

void
pv_classifier_release(struct pv_classifier *cl)
{
	free(cl->v);
	free(cl->g);
	free(cl->level);
	pv_strbuf_release(&cl->why);
	pv_arena_release(&cl->arena);
	memset(cl, 0, sizeof(*cl));
}

/*
 * A copy of s in the arena, or the previous comparison's copy when it is
 * the same string: comparisons come in key order, so most of a key's
 * fields repeat the one before, and one memcmp is cheaper than a copy.
 */
static struct pv_str
keep(struct pv_classifier *cl, struct pv_str s, const struct pv_str *prev)
{
	struct pv_str r;

	if (prev != NULL && prev->len == s.len &&
	    (s.len == 0 || memcmp(prev->s, s.s, s.len) == 0))
		return *prev;
	r.s = pv_arena_memdup(&cl->arena, s.s, s.len);
	r.len = s.len;
	return r;
}

void
pv_classifier_add(struct pv_classifier *cl, const struct pv_cmp *c)
{
	const struct pv_runkey *p = NULL;
	struct pv_verdict *v;
	struct pv_runkey *k;

	PV_GROW(cl->v, cl->n + 1, cl->alloc);
	if (cl->n > 0)
		p = &cl->v[cl->n - 1].cmp.key;
	v = &cl->v[cl->n++];
	memset(v, 0, sizeof(*v));
	v->cmp = *c;
	k = &v->cmp.key;
	k->role = keep(cl, k->role, p ? &p->role : NULL);
	k->version = keep(cl, k->version, p ? &p->version : NULL);
	k->experiment = keep(cl, k->experiment, p ? &p->experiment : NULL);
	k->suite = keep(cl, k->suite, p ? &p->suite : NULL);
	k->test = keep(cl, k->test, p ? &p->test : NULL);
	k->operation = keep(cl, k->operation, p ? &p->operation : NULL);
	k->metric = keep(cl, k->metric, p ? &p->metric : NULL);
	k->unit = keep(cl, k->unit, p ? &p->unit : NULL);
	v->qvalue = NAN;
	v->mde = NAN;
}

static int
cmp_verdict(const void *a, const void *b)
{
	const struct pv_verdict *x = a, *y = b;

	return pv_rec_key_cmp(&x->cmp.key, &y->cmp.key);
}

static int
str_same(struct pv_str a, struct pv_str b)
{
	return a.len == b.len && (a.len == 0 || memcmp(a.s, b.s, a.len) == 0);
}

/*
 * How far the keys a and b agree, in the order in which they sort: the
 * first of the PV_SPLIT_* parts in which they differ, PV_SPLIT_NONE if
 * in none.
 */
static int
split(const struct pv_runkey *a, const struct pv_runkey *b)
{
	if (!str_same(a->role, b->role) || !str_same(a->version, b->version) ||
	    !str_same(a->experiment, b->experiment))
		return PV_SPLIT_PAIR;
	if (!str_same(a->suite, b->suite))
		return PV_SPLIT_SUITE;
	if (!str_same(a->test, b->test))
		return PV_SPLIT_TEST;
	if (!str_same(a->operation, b->operation) ||
	    !str_same(a->metric, b->metric) || !str_same(a->unit, b->unit) ||
	    a->direction != b->direction)
		return PV_SPLIT_GROUP;
	if (a->level != b->level)
		return PV_SPLIT_LEVEL;
	return PV_SPLIT_NONE;
}

/*
 * Sort the verdicts by key, unless they come sorted (pv-diff writes them
 * so): checking is n - 1 comparisons, sorting n log n.  Then note where
 * each differs from the one before, for the families and the groups.
 */
static void
sort_verdicts(struct pv_classifier *cl)
{
	size_t i;

	for (i = 1; i < cl->n; i++)
		if (cmp_verdict(&cl->v[i - 1], &cl->v[i]) > 0)
			break;
	if (i < cl->n)
		qsort(cl->v, cl->n, sizeof(*cl->v), cmp_verdict);
	for (i = 0; i < cl->n; i++)
		cl->v[i].split = i == 0 ? PV_SPLIT_PAIR :
			split(&cl->v[i - 1].cmp.key, &cl->v[i].cmp.key);
}

/* a family: verdicts [start, end), its combined p and adjusted p */
struct fam {
	size_t start, end;
	double p, adj;
};

/* the families of [start, end) that no split up to "at" divides */
static struct fam *
families(struct pv_classifier *cl, size_t start, size_t end, int at,
	 size_t *nfam)
{
	struct fam *f = NULL;
	size_t n = 0, alloc = 0, i, j, k;
	double *p = pv_xreallocarray(NULL, end - start + 1, sizeof(*p));

	for (i = start; i < end; i = j) {
		size_t np = 0;

		for (j = i + 1; j < end && cl->v[j].split > at; j++)
			;
		for (k = i; k < j; k++)
			if (!isnan(cl->v[k].cmp.p_welch))
				p[np++] = cl->v[k].cmp.p_welch;
		if (np == 0)
			continue;	/* nothing testable */
		PV_GROW(f, n + 1, alloc);
		f[n].start = i;
		f[n].end = j;
		f[n].p = pv_stats_simes(p, np);
		n++;
	}
	free(p);
	if (n > 0) {
		double *pp = pv_xreallocarray(NULL, n, sizeof(*pp));

		for (i = 0; i < n; i++)
			pp[i] = f[i].p;
		pv_stats_bh(pp, n, pp);
		for (i = 0; i < n; i++)
			f[i].adj = pp[i];
		free(pp);
	}
	*nfam = n;
	return f;
}

static double
cap1(double x)
{
	return x > 1 ? 1 : x;
}

/*
 * Benjamini-Bogomolov, applied recursively: BH over the suites' Simes
 * p-values at q selects R1 of F1 suites; within each selected suite, BH
 * over its tests' Simes p-values at q R1 / F1 selects R2 of its F2 tests;
 * within each selected test, BH over its keys at q R1 / F1 R2 / F2 (the
 * ratios of the key's own parents).  A key's q-value is the smallest q at
 * which it would be selected: max(adj_suite, adj_test F1/R1,
 * adj_key F1/R1 F2/R2).
 */
static void
staged_fdr(struct pv_classifier *cl)
{
	double q = cl->opt.q;
	struct fam *s, *t;
	size_t ns, nt, r1 = 0, i, j, k;
	double *p, *adj, s1;
	size_t *idx;

	s = families(cl, 0, cl->n, PV_SPLIT_SUITE, &ns);
	for (i = 0; i < ns; i++) {
		r1 += s[i].adj <= q;
		for (k = s[i].start; k < s[i].end; k++)
			if (!isnan(cl->v[k].cmp.p_welch))
				cl->v[k].qvalue = s[i].adj;
	}
	if (r1 == 0) {
		free(s);
		return;
	}
	s1 = (double)ns / (double)r1;
	p = pv_xreallocarray(NULL, cl->n, sizeof(*p));
	adj = pv_xreallocarray(NULL, cl->n, sizeof(*adj));
	idx = pv_xreallocarray(NULL, cl->n, sizeof(*idx));
	for (i = 0; i < ns; i++) {
		size_t r2 = 0;
		double s2;

		if (s[i].adj > q)
			continue;
		t = families(cl, s[i].start, s[i].end, PV_SPLIT_TEST,
			     &nt);
		for (j = 0; j < nt; j++)
			r2 += t[j].adj * s1 <= q;
		s2 = r2 > 0 ? (double)nt / (double)r2 : INFINITY;
		for (j = 0; j < nt; j++) {
			double a2 = cap1(t[j].adj * s1);
			size_t np = 0;

			for (k = t[j].start; k < t[j].end; k++) {
				struct pv_verdict *v = &cl->v[k];

				if (isnan(v->cmp.p_welch))
					continue;
				v->qvalue = cap1(fmax(v->qvalue, a2));
				idx[np] = k;
				p[np++] = v->cmp.p_welch;
			}
			if (a2 > q)
				continue;
			pv_stats_bh(p, np, adj);
			for (k = 0; k < np; k++) {
				struct pv_verdict *v = &cl->v[idx[k]];

				v->qvalue = cap1(fmax(v->qvalue,
						      adj[k] * s1 * s2));
			}
		}
		free(t);
	}
	free(p);
	free(adj);
	free(idx);
	free(s);
}

static double
pct(double d)
{
	return 100 * (exp(d) - 1);
}

/*
 * The percentages of reasons, as people read them (numfmt.h): the change
 * of log d, with two decimals until a million percent, then three
 * digits, never "inf"; worse: the share lost, 100 (1 - e^d).
 */
struct pcts {
	char b[3][PV_NUMFMT_FIXED_MAX];
};

static const char *
chg(struct pcts *p, int i, double d)
{
	pv_numfmt_change(p->b[i], d, 2, 0);
	return p->b[i];
}

static const char *
lost(struct pcts *p, int i, double d)
{
	pv_numfmt_percent(p->b[i], -pct(d), 2, 0);
	return p->b[i];
}

/* v as printf's "%.<prec>f" (prec 0 to 6), exactly (numfmt.h) */
static void
add_fixed(struct pv_strbuf *sb, double v, int prec)
{
	pv_strbuf_grow(sb, PV_NUMFMT_FIXED_MAX);
	pv_strbuf_setlen(sb, sb->len + pv_numfmt_fixed(sb->buf + sb->len, v,
						       prec, 0));
}

/*
 * v as printf's "%.<prec>g" (prec 1 to 3).  For the magnitudes of p- and
 * q-values that is the fixed form with prec - 1 - X decimals, X the
 * exponent of v rounded to prec digits, trailing zeros dropped; the rest
 * goes to printf.  The trial exponent x starts at or below X and only
 * climbs: a first nonzero digit left of x means the decimals were too
 * many, and the rounding at the next try can only carry to X itself.
 */
static void
add_general(struct pv_strbuf *sb, double v, int prec)
{
	char buf[PV_NUMFMT_FIXED_MAX];
	double a = fabs(v);
	size_t len, i, dot;
	int x, xr;

	if (prec < 1 || prec > 3 || !(a >= 1e-3 && a < 1e2))
		goto slow;
	x = (int)floor(log10(a)) - 1;
	for (;;) {
		if (x < -4 || x >= prec || prec - 1 - x > 6)
			goto slow;
		len = pv_numfmt_fixed(buf, v, prec - 1 - x, 0);
		for (i = 0; i < len && (buf[i] < '1' || buf[i] > '9'); i++)
			;
		for (dot = 0; dot < len && buf[dot] != '.'; dot++)
			;
		if (i == len)
			goto slow;
		xr = i < dot ? (int)(dot - i) - 1 : -(int)(i - dot);
		if (xr == x)
			break;
		if (xr < x)
			goto slow;	/* cannot happen: x starts low */
		x = xr;
	}
	if (dot < len) {
		while (buf[len - 1] == '0')
			len--;
		if (buf[len - 1] == '.')
			len--;
	}
	pv_strbuf_add(sb, buf, len);
	return;
slow:
	pv_strbuf_addf(sb, "%.*g", prec, v);
}

/*
 * The reason texts, printf-style, into the classifier's arena.  printf
 * itself cost a sixth of the tool's time (its exact conversion of every
 * double), so the conversions used here are done above, to the same
 * bytes: literal text, %%, %s, %zu, %.<n>f and %.<n>g.  Anything else is a
 * mistake in this file and goes to printf whole.
 */
static const char *
say(struct pv_classifier *cl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static const char *
say(struct pv_classifier *cl, const char *fmt, ...)
{
	struct pv_strbuf *sb = &cl->why;
	const char *p = fmt, *pc;
	va_list ap, again;
	int prec;

	pv_strbuf_reset(sb);
	va_start(ap, fmt);
	va_copy(again, ap);
	while ((pc = strchr(p, '%')) != NULL) {
		pv_strbuf_add(sb, p, (size_t)(pc - p));
		p = pc + 1;
		if (*p == '%') {
			pv_strbuf_addch(sb, '%');
			p++;
		} else if (p[0] == 'z' && p[1] == 'u') {
			pv_strbuf_addu(sb, va_arg(ap, size_t));
			p += 2;
		} else if (p[0] == 's') {
			pv_strbuf_addstr(sb, va_arg(ap, const char *));
			p++;
		} else if (p[0] == '.' && p[1] >= '0' && p[1] <= '6' &&
			   (p[2] == 'f' || p[2] == 'g')) {
			prec = p[1] - '0';
			if (p[2] == 'f')
				add_fixed(sb, va_arg(ap, double), prec);
			else
				add_general(sb, va_arg(ap, double), prec);
			p += 3;
		} else {
			pv_strbuf_reset(sb);
			pv_strbuf_vaddf(sb, fmt, again);
			p = "";
			break;
		}
	}
	pv_strbuf_addstr(sb, p);
	va_end(again);
	va_end(ap);
	return pv_arena_memdup(&cl->arena, sb->buf, sb->len);
}

/* pooled sd of the oriented logs, from the Welch standard error */
static double
pooled_sd(const struct pv_cmp *c)
{
	return c->se / sqrt(1 / (double)c->nb + 1 / (double)c->nt);
}

/*
 * Runs per side likely to decide: to detect the change seen when it is
 * past the threshold, otherwise to fit the interval inside the no-change
 * band.
 */
static size_t
runs_to_decide(const struct pv_classifier *cl, const struct pv_cmp *c)
{
	double s = pooled_sd(c), e, d = fabs(c->change);
	double thr = log(1 + cl->opt.delta);
	size_t n;

	if (!(s > 0))
		return 0;
	if (d >= thr)
		e = d;
	else
		e = log(1 + cl->opt.delta_eq) - d;
	n = pv_stats_runs_needed(e / s, cl->opt.q, cl->opt.power, 1000);
	return n < cl->opt.min_runs ? cl->opt.min_runs : n;
}

static void
classify(struct pv_classifier *cl, struct pv_verdict *v)
{
	const struct pv_classifier_opts *o = &cl->opt;
	const struct pv_cmp *c = &v->cmp;
	double reg = log(1 - o->delta), imp = log(1 + o->delta);
	double eq_lo = log(1 - o->delta_eq), eq_hi = log(1 + o->delta_eq);
	int sig = !isnan(v->qvalue) && v->qvalue <= o->q;
	int boot_disagree, outlying;
	struct pcts pc;

	v->cls = PV_CLASS_UNCERTAIN;
	if (c->nb == 0 || c->nt == 0) {
		v->reason = c->nt == 0 ? "only in the baseline" :
			"only in the target";
		return;
	}
	if (c->flags & PV_CMP_NONPOSITIVE) {
		v->reason = "a value is zero or negative: no ratio";
		return;
	}
	if (c->nb < o->min_runs || c->nt < o->min_runs || isnan(c->se)) {
		v->reason = say(cl, "too few runs (%zu and %zu, at least %zu "
				"needed)", c->nb, c->nt,
				o->min_runs > 2 ? o->min_runs : 2);
		v->runs = o->min_runs > 2 ? o->min_runs : 2;
		if (!isnan(c->se) && runs_to_decide(cl, c) > v->runs)
			v->runs = runs_to_decide(cl, c);
		return;
	}
	/* Welch's df rounded down: conservative, and the quantiles cache */
	{
		unsigned df = c->df >= 1 ? (unsigned)floor(fmin(c->df, 1e6)) :
			1;

		v->mde = (pv_stats_t_quantile_whole(1 - o->q / 2, df) +
			  pv_stats_t_quantile_whole(o->power, df)) * c->se;
	}
	if (c->rcv_b > o->cv_max || c->rcv_t > o->cv_max) {
		pv_numfmt_percent(pc.b[0], 100 * c->rcv_b, 1, 0);
		pv_numfmt_percent(pc.b[1], 100 * c->rcv_t, 1, 0);
		v->reason = say(cl, "unstable: robust CV %s%% and %s%% "
				"(limit %.1f%%)", pc.b[0], pc.b[1],
				100 * o->cv_max);
		v->runs = runs_to_decide(cl, c);
		return;
	}
	/*
	 * Outliers matter where they could make the call: many of them and
	 * a rank test that does not see the difference.
	 */
	outlying = ((double)c->out_b > o->outlier_share * (double)c->nb ||
		    (double)c->out_t > o->outlier_share * (double)c->nt) &&
		!(c->p_mwu <= o->q);
	if (outlying && sig && (c->hi < 0 || c->lo > 0) &&
	    fabs(c->change) >= imp) {
		v->reason = say(cl, "outliers: %zu of %zu and %zu of %zu runs, "
				"and the rank test disagrees (p %.2g)",
				c->out_b, c->nb, c->out_t, c->nt, c->p_mwu);
		v->runs = runs_to_decide(cl, c);
		return;
	}
	/* with ten runs a side the bootstrap is trusted to veto */
	boot_disagree = c->nb >= 10 && c->nt >= 10 && !isnan(c->boot_lo) &&
		((c->hi < 0 && c->boot_lo > 0) || (c->lo > 0 && c->boot_hi < 0));
	if (sig && c->hi < 0 && c->change <= reg && !boot_disagree &&
	    c->cliff <= -o->cliff_min) {
		v->cls = PV_CLASS_REGRESSION;
		v->reason = say(cl, "%s%% worse, interval %s%% to %s%%",
				lost(&pc, 0, c->change), lost(&pc, 1, c->hi),
				lost(&pc, 2, c->lo));
		return;
	}
	if (sig && c->lo > 0 && c->change >= imp && !boot_disagree &&
	    c->cliff >= o->cliff_min) {
		v->cls = PV_CLASS_IMPROVEMENT;
		v->reason = say(cl, "%s%% better, interval %s%% to %s%%",
				chg(&pc, 0, c->change), chg(&pc, 1, c->lo),
				chg(&pc, 2, c->hi));
		return;
	}
	if (c->lo > eq_lo && c->hi < eq_hi) {
		v->cls = PV_CLASS_NO_CHANGE;
		v->reason = say(cl, "interval %s%% to %s%% inside the "
				"+-%.0f%% band", chg(&pc, 0, c->lo),
				chg(&pc, 1, c->hi), 100 * o->delta_eq);
		return;
	}
	v->runs = runs_to_decide(cl, c);
	if (boot_disagree)
		v->reason = "the t and bootstrap intervals disagree";
	else if (sig && (c->hi < 0 || c->lo > 0) &&
		 fabs(c->change) < imp)
		v->reason = say(cl, "significant but %s%% is inside the "
				"%.0f%% threshold", chg(&pc, 0, c->change),
				100 * o->delta);
	else if (sig && (c->hi < 0 || c->lo > 0))
		v->reason = say(cl, "runs disagree in order (Cliff's delta "
				"%.2f)", c->cliff);
	else if (!sig && (c->hi < 0 || c->lo > 0))
		v->reason = say(cl, "not significant after FDR control "
				"(q-value %.3g)", v->qvalue);
	else
		v->reason = say(cl, "interval %s%% to %s%% includes no "
				"change and a %.0f%% change", chg(&pc, 0, c->lo),
				chg(&pc, 1, c->hi), 100 * o->delta_eq);
}

/*
 * A group of levels is systematic when every level is worse, most levels
 * are Regressions, and the pooled change is significant and past the
 * threshold.  The pooled change is the inverse-variance weighted mean of
 * the levels' changes (they are measured by different runs, so
 * independent): it uses each level's own precision, where a t-test over
 * the K changes would have K - 1 degrees of freedom only.  Its test is t
 * on the smallest of the levels' Welch degrees of freedom: with three runs
 * a side a level's standard error is itself uncertain, and a normal test
 * would trust it.
 */
static void
systematic(struct pv_classifier *cl, struct pv_sysreg *g)
{
	size_t i, k = 0;
	int all_worse = 1, all_se = 1;
	double sw = 0, swd = 0, df = INFINITY;

	g->regressed = 0;
	for (i = g->first; i < g->first + g->count; i++) {
		const struct pv_verdict *v = &cl->v[i];

		if (isnan(v->cmp.change))
			continue;
		if (k == 0 || v->cmp.change < g->dmin)
			g->dmin = v->cmp.change;
		if (k == 0 || v->cmp.change > g->dmax)
			g->dmax = v->cmp.change;
		k++;
		all_worse &= v->cmp.change < 0;
		g->regressed += v->cls == PV_CLASS_REGRESSION;
		if (v->cmp.se > 0) {
			df = fmin(df, v->cmp.df);
			sw += 1 / (v->cmp.se * v->cmp.se);
			swd += v->cmp.change / (v->cmp.se * v->cmp.se);
		} else {
			all_se = 0;
		}
	}
	g->levels = k;
	g->pooled = g->p = NAN;
	if (k >= 2 && all_se && sw > 0) {
		double z;

		g->pooled = swd / sw;
		/* the t tail is the costly part: only where it decides */
		if (!all_worse || 2 * g->regressed < k ||
		    !(g->pooled <= log(1 - cl->opt.delta)))
			return;
		z = g->pooled * sqrt(sw);
		g->p = pv_stats_t_pvalue(z, df);
		g->systematic = g->p < cl->opt.q;
	}
}

/* the share of the group's levels that move the way v does */
static double
consistency(const struct pv_classifier *cl, const struct pv_verdict *v)
{
	const struct pv_sysreg *g = &cl->g[v->group];
	size_t i, same = 0;

	if (g->systematic)
		return 1;
	if (g->levels < 2)
		return 0.5;
	for (i = g->first; i < g->first + g->count; i++)
		same += (cl->v[i].cmp.change < 0) == (v->cmp.change < 0);
	return (double)same / (double)g->levels;
}

/*
 * severity = 100 sqrt(M) (0.4 + 0.6 (C + E + K) / 3), with
 * M = min(1, |change| / ln 1.08), C = min(1, -log10(q-value) / 3),
 * E = |Cliff's delta|, K = consistency across levels.
 */
static void
score(struct pv_classifier *cl, struct pv_verdict *v)
{
	double m, c, e, k;

	if (v->cls != PV_CLASS_REGRESSION && v->cls != PV_CLASS_IMPROVEMENT)
		return;
	m = fmin(1, fabs(v->cmp.change) / log(1.08));
	c = fmin(1, -log10(fmax(v->qvalue, 1e-300)) / 3);
	e = fmin(1, fabs(v->cmp.cliff));
	k = consistency(cl, v);
	v->severity = (int)lround(100 * sqrt(m) * (0.4 + 0.6 * (c + e + k) /
						    3));
	if (v->cls == PV_CLASS_REGRESSION)
		v->band = v->severity >= 60 ? PV_BAND_RED :
			v->severity >= 30 ? PV_BAND_YELLOW : PV_BAND_GREEN;
}

void
pv_classifier_run(struct pv_classifier *cl)
{
	size_t i, j;

	sort_verdicts(cl);
	staged_fdr(cl);
	for (i = 0; i < cl->n; i++)
		classify(cl, &cl->v[i]);
	cl->ng = 0;
	for (i = 0; i < cl->n; i = j) {
		struct pv_sysreg *g;

		for (j = i + 1; j < cl->n && cl->v[j].split > PV_SPLIT_GROUP;
		     j++)
			;
		PV_GROW(cl->g, cl->ng + 1, cl->galloc);
		g = &cl->g[cl->ng];
		memset(g, 0, sizeof(*g));
		g->first = i;
		g->count = j - i;
		systematic(cl, g);
		while (i < j)
			cl->v[i++].group = cl->ng;
		cl->ng++;
	}
	for (i = 0; i < cl->n; i++)
		score(cl, &cl->v[i]);
	for (i = 0; i < cl->ng; i++) {
		struct pv_sysreg *g = &cl->g[i];

		for (j = g->first; j < g->first + g->count; j++)
			if (cl->v[j].cls == PV_CLASS_REGRESSION)
				g->bands[cl->v[j].band]++;
	}
}

enum pv_band
pv_classifier_worst(const struct pv_classifier *cl)
{
	enum pv_band w = PV_BAND_NONE;
	size_t i;

	for (i = 0; i < cl->n; i++)
		if (cl->v[i].cls == PV_CLASS_REGRESSION && cl->v[i].band > w)
			w = cl->v[i].band;
	return w;
}

/* what the records gather before a write: a few KiB, not a line */
#define WRITE_BLOCK 65536

static void
put(struct pv_strbuf *sb, FILE *out, int last)
{
	if (sb->len >= WRITE_BLOCK || (last && sb->len > 0)) {
		fwrite(sb->buf, 1, sb->len, out);
		pv_strbuf_reset(sb);
	}
}

/* The text of verdict i's key, keys->buf[key[i], key[i + 1]). */
static struct pv_str
key_text(const struct pv_strbuf *keys, const size_t *key, size_t i)
{
	struct pv_str t = { keys->buf + key[i], key[i + 1] - key[i] };

	return t;
}

/*
 * The verdicts, then the systematic regressions, then the detect records,
 * written in blocks.  Every verdict and detect record starts with the
 * same key fields: they are formatted once, into keys, at key[i].
 */
void
pv_classifier_write(struct pv_classifier *cl, FILE *out)
{
	struct pv_strbuf sb = PV_STRBUF_INIT, keys = PV_STRBUF_INIT;
	size_t *key = pv_xreallocarray(NULL, cl->n + 1, sizeof(*key));
	size_t i, j, n;

	pv_strbuf_init(&sb, WRITE_BLOCK + 4096);
	for (i = 0; i < cl->n; i++) {
		const struct pv_verdict *v = &cl->v[i];

		key[i] = keys.len;
		pv_rec_key_add(&keys, &v->cmp.key, 1);
		key[i + 1] = keys.len;
		pv_rec_verdict_write(&sb, v, key_text(&keys, key, i));
		put(&sb, out, 0);
	}
	for (i = 0; i < cl->ng; i++) {
		const struct pv_sysreg *g = &cl->g[i];

		if (!g->systematic)
			continue;
		PV_GROW(cl->level, g->count, cl->level_alloc);
		for (j = g->first, n = 0; j < g->first + g->count; j++)
			if (!isnan(cl->v[j].cmp.change))
				cl->level[n++] = cl->v[j].cmp.key.level;
		pv_rec_systematic_write(&sb, &cl->v[g->first].cmp.key,
					key_text(&keys, key, g->first), g,
					cl->level, n);
		put(&sb, out, 0);
	}
	for (i = 0; i < cl->n; i++) {
		const struct pv_verdict *v = &cl->v[i];

		pv_rec_detect_write(&sb, &v->cmp, v->mde,
				    key_text(&keys, key, i));
		put(&sb, out, 0);
	}
	put(&sb, out, 1);
	free(key);
	pv_strbuf_release(&keys);
	pv_strbuf_release(&sb);
}
