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
	pv_symtab_init(&cl->strs);
	pv_strbuf_init(&cl->why, 0);
	cl->logd = NAN;
}

void
pv_classifier_release(struct pv_classifier *cl)
{
	free(cl->pair);
	free(cl->k);
	free(cl->g);
	free(cl->level);
	pv_strbuf_release(&cl->why);
	pv_symtab_release(&cl->strs);
	memset(cl, 0, sizeof(*cl));
}

/*
 * The id of s, the previous comparison's when it is the same string:
 * comparisons come in key order, so most of a key's fields repeat the one
 * before, and one memcmp is cheaper than a hash.
 */
static uint32_t
intern(struct pv_classifier *cl, struct pv_str s, const uint32_t *prev)
{
	if (prev != NULL) {
		struct pv_str p = pv_symtab_get(&cl->strs, *prev);

		if (p.len == s.len && (s.len == 0 || memcmp(p.s, s.s,
							    s.len) == 0))
			return *prev;
	}
	if (s.len == 0)
		s.s = "";	/* (an empty string may be NULL) */
	return pv_symtab_intern(&cl->strs, s.s, s.len);
}

void
pv_classifier_add(struct pv_classifier *cl, const struct pv_cmp *c)
{
	const struct pv_str f[8] = {
		c->key.role, c->key.version, c->key.experiment, c->key.suite,
		c->key.test, c->key.operation, c->key.metric, c->key.unit
	};
	const struct pv_classifier_key *p = NULL;
	struct pv_classifier_key *k;
	int i;

	PV_GROW(cl->k, cl->n + 1, cl->alloc);
	if (cl->n > 0)
		p = &cl->k[cl->n - 1];
	k = &cl->k[cl->n++];
	memset(k, 0, sizeof(*k));
	for (i = 0; i < 8; i++)
		k->sid[i] = intern(cl, f[i], p ? &p->sid[i] : NULL);
	k->direction = (uint8_t)c->key.direction;
	k->level = c->key.level;
	k->change = c->change;
	k->lo = c->lo;
	k->hi = c->hi;
	k->se = c->se;
	k->df = c->df;
	k->hlo = c->hlo;
	k->hhi = c->hhi;
	k->hp = c->hp;
	k->rcv_b = c->rcv_b;
	k->rcv_t = c->rcv_t;
	k->nb = c->nb;
	k->nt = c->nt;
	k->cflags = (uint16_t)c->flags;
	k->qvalue = NAN;
	k->mde = NAN;
}

/* The key of comparison i. */
static void
key_get(const struct pv_classifier *cl, size_t i, struct pv_runkey *key)
{
	const struct pv_classifier_key *k = &cl->k[i];

	key->role = pv_symtab_get(&cl->strs, k->sid[0]);
	key->version = pv_symtab_get(&cl->strs, k->sid[1]);
	key->experiment = pv_symtab_get(&cl->strs, k->sid[2]);
	key->suite = pv_symtab_get(&cl->strs, k->sid[3]);
	key->test = pv_symtab_get(&cl->strs, k->sid[4]);
	key->operation = pv_symtab_get(&cl->strs, k->sid[5]);
	key->metric = pv_symtab_get(&cl->strs, k->sid[6]);
	key->unit = pv_symtab_get(&cl->strs, k->sid[7]);
	key->direction = (enum pv_direction)k->direction;
	key->level = k->level;
}

void
pv_classifier_get(const struct pv_classifier *cl, size_t i,
		  struct pv_verdict *v)
{
	const struct pv_classifier_key *k = &cl->k[i];
	struct pv_cmp *c = &v->cmp;

	/* every field set: no memset of the whole, three times a key */
	key_get(cl, i, &c->key);
	c->key_text.s = NULL;
	c->key_text.len = 0;
	c->nb = k->nb;
	c->nt = k->nt;
	c->change = k->change;
	c->lo = k->lo;
	c->hi = k->hi;
	c->se = k->se;
	c->df = k->df;
	c->boot_lo = c->boot_hi = c->p_welch = c->p_mwu = c->g = c->cliff =
		NAN;
	c->rcv_b = k->rcv_b;
	c->rcv_t = k->rcv_t;
	c->out_b = c->out_t = 0;
	c->flags = k->cflags;
	c->hlo = k->hlo;
	c->hhi = k->hhi;
	c->hp = k->hp;
	c->trend = c->rho = NAN;
	c->order = 0;
	c->quantum = 0;
	v->qvalue = k->qvalue;
	v->cls = (enum pv_class)k->cls;
	v->severity = k->severity;
	v->band = (enum pv_band)k->band;
	v->runs = k->runs;
	v->flags = k->flags;
	v->reason = NULL;
	v->mde = k->mde;
	v->group = 0;
	v->split = k->split;
}

/*
 * pv_rec_key_cmp() of the keys of a and b, on their ids first: the same
 * id is the same string, so the first field whose ids differ decides by
 * its strings, in the order pv_rec_key_cmp() takes the fields (ROLE ...
 * UNIT, the order of sid), then DIRECTION (higher first) and LEVEL
 * (absent first, then ascending).
 */
static int
cmp_keys(const struct pv_classifier *cl, const struct pv_classifier_key *a,
	 const struct pv_classifier_key *b)
{
	int i;

	for (i = 0; i < 8; i++)
		if (a->sid[i] != b->sid[i])
			return pv_str_cmp(pv_symtab_get(&cl->strs, a->sid[i]),
					  pv_symtab_get(&cl->strs, b->sid[i]));
	if (a->direction != b->direction)
		return a->direction == PV_HIGHER_BETTER ? -1 : 1;
	return pv_rec_key_level_cmp(a->level, b->level);
}

/* the comparisons being sorted (qsort() takes no context) */
static const struct pv_classifier *sort_cl;

static int
cmp_index(const void *a, const void *b)
{
	return cmp_keys(sort_cl, &sort_cl->k[*(const size_t *)a],
			&sort_cl->k[*(const size_t *)b]);
}

/*
 * How far the keys a and b agree, in the order in which they sort: the
 * first of the PV_SPLIT_* parts in which they differ, PV_SPLIT_NONE if
 * in none.  (The same strings have the same id.)
 */
static int
split(const struct pv_classifier_key *a, const struct pv_classifier_key *b)
{
	if (a->sid[0] != b->sid[0] || a->sid[1] != b->sid[1] ||
	    a->sid[2] != b->sid[2])
		return PV_SPLIT_PAIR;
	if (a->sid[3] != b->sid[3])
		return PV_SPLIT_SUITE;
	if (a->sid[4] != b->sid[4])
		return PV_SPLIT_TEST;
	if (a->sid[5] != b->sid[5] || a->sid[6] != b->sid[6] ||
	    a->sid[7] != b->sid[7] || a->direction != b->direction)
		return PV_SPLIT_GROUP;
	if (a->level != b->level)
		return PV_SPLIT_LEVEL;
	return PV_SPLIT_NONE;
}

/*
 * Sort the comparisons by key, unless they come sorted (pv-diff writes
 * them so): checking is n - 1 comparisons, sorting n log n.  The sort is
 * of their indices (stable, as glibc's qsort() is), then the comparisons
 * are moved in place, cycle by cycle: no second copy of them.  Then note
 * where each differs from the one before, for the families and the
 * groups.
 */
static void
sort_verdicts(struct pv_classifier *cl)
{
	size_t i, j, *ord;

	for (i = 1; i < cl->n; i++)
		if (cmp_keys(cl, &cl->k[i - 1], &cl->k[i]) > 0)
			break;
	if (i < cl->n) {
		ord = pv_xreallocarray(NULL, cl->n, sizeof(*ord));
		for (i = 0; i < cl->n; i++)
			ord[i] = i;
		sort_cl = cl;
		qsort(ord, cl->n, sizeof(*ord), cmp_index);
		sort_cl = NULL;
		/* position j takes comparison ord[j] */
		for (i = 0; i < cl->n; i++) {
			struct pv_classifier_key tmp;

			if (ord[i] == i)
				continue;
			tmp = cl->k[i];
			for (j = i;;) {
				size_t from = ord[j];

				ord[j] = j;
				if (from == i) {
					cl->k[j] = tmp;
					break;
				}
				cl->k[j] = cl->k[from];
				j = from;
			}
		}
		free(ord);
	}
	for (i = 0; i < cl->n; i++)
		cl->k[i].split = i == 0 ? PV_SPLIT_PAIR :
			(uint8_t)split(&cl->k[i - 1], &cl->k[i]);
}

/* the threshold of a key's metric */
static double
delta_of(const struct pv_classifier *cl, const struct pv_runkey *k)
{
	size_t i;

	for (i = 0; i < cl->opt.ndelta; i++)
		if (pv_str_eq(k->metric, cl->opt.deltas[i].metric))
			return cl->opt.deltas[i].delta;
	return cl->opt.delta;
}

static int
testable(const struct pv_classifier_key *k)
{
	return !isnan(k->hp);
}

/*
 * The exact q-value of a key in the two-stage procedure: the smallest q'
 * at which its family is selected (adj_f <= q') and the key within it
 * (adj_k F / R(q') <= q'), R(q') the families selected at q'.  With the
 * families' adjusted p-values sorted, as[0] <= ... <= as[F - 1], it is the
 * min over r with as[r - 1] >= adj_f of max(as[r - 1], adj_k F / r),
 * families tied at as[r - 1] counted in R: r runs over the ends of the
 * ties, end[0..nend) (tie_ends()).
 *
 * as[r - 1] grows with r and adj_k F / r shrinks, so the max is least
 * where they cross: at the first end whose as[r - 1] reaches adj_k F / r,
 * or the end before it.  Two binary searches find both, and the q-value
 * is the one a walk over every r would give, bit for bit, in log F
 * steps instead of F (a million keys in 50,000 families: 50 s before).
 */
static double
qvalue(const double *as, size_t nf, const size_t *end, size_t nend,
       double adj_f, double adj_k)
{
	double c = adj_k * (double)nf, best = 1, v;
	size_t lo = 0, hi = nend, from, mid;

	/* the first end selected at adj_f */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (as[end[mid] - 1] < adj_f)
			lo = mid + 1;
		else
			hi = mid;
	}
	from = lo;
	if (isnan(c)) {
		/* max(a, NaN) is a: the least a selected */
		return from < nend && as[end[from] - 1] < 1 ?
			as[end[from] - 1] : 1;
	}
	/* the first end from there where as[r - 1] >= c / r */
	hi = nend;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (as[end[mid] - 1] >= c / (double)end[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo < nend) {
		v = fmax(as[end[lo] - 1], c / (double)end[lo]);
		if (v < best)
			best = v;
	}
	if (lo > from) {
		v = fmax(as[end[lo - 1] - 1], c / (double)end[lo - 1]);
		if (v < best)
			best = v;
	}
	return best > 1 ? 1 : best;
}

/* The ends of the ties of as[0..nf) (r, 1-based, with r == nf or as[r]
 * != as[r - 1]) into end; returns how many. */
static size_t
tie_ends(const double *as, size_t nf, size_t *end)
{
	size_t r, n = 0;

	for (r = 1; r <= nf; r++)
		if (r == nf || as[r] != as[r - 1])
			end[n++] = r;
	return n;
}

/*
 * The families of the pair [start, end) of one kind (primary or
 * secondary keys): its tests.  Simes' p of each, Benjamini-Hochberg over
 * them, Benjamini-Hochberg within each, and every key's q-value.
 */
static void
fdr_kind(struct pv_classifier *cl, size_t start, size_t end, int secondary)
{
	size_t nf = 0, i, j, k, f;
	size_t *fs = NULL, nfa = 0;	/* families: where each test starts */
	double *pf, *as, *p;
	size_t *idx, *tend, ntend;

	/* the tests of the pair that hold testable keys of this kind */
	for (i = start; i < end; i = j) {
		int any = 0;

		for (j = i + 1; j < end && cl->k[j].split > PV_SPLIT_TEST; j++)
			;
		for (k = i; k < j; k++)
			any |= testable(&cl->k[k]) &&
				!(cl->k[k].cflags & PV_CMP_SECONDARY) ==
				!secondary;
		if (!any)
			continue;
		PV_GROW(fs, 2 * (nf + 1), nfa);
		fs[2 * nf] = i;
		fs[2 * nf + 1] = j;
		nf++;
	}
	if (nf == 0) {
		free(fs);
		return;
	}
	pf = pv_xreallocarray(NULL, 2 * nf, sizeof(*pf));
	as = pf + nf;
	p = pv_xreallocarray(NULL, end - start, sizeof(*p));
	idx = pv_xreallocarray(NULL, end - start, sizeof(*idx));
	for (f = 0; f < nf; f++) {
		size_t np = 0;

		for (k = fs[2 * f]; k < fs[2 * f + 1]; k++)
			if (testable(&cl->k[k]) &&
			    !(cl->k[k].cflags & PV_CMP_SECONDARY) ==
			    !secondary)
				p[np++] = cl->k[k].hp;
		pf[f] = pv_stats_simes(p, np);
	}
	pv_stats_bh(pf, nf, pf);
	memcpy(as, pf, nf * sizeof(*as));
	pv_stats_sort(as, nf);
	tend = pv_xreallocarray(NULL, nf, sizeof(*tend));
	ntend = tie_ends(as, nf, tend);
	for (f = 0; f < nf; f++) {
		size_t np = 0;

		for (k = fs[2 * f]; k < fs[2 * f + 1]; k++)
			if (testable(&cl->k[k]) &&
			    !(cl->k[k].cflags & PV_CMP_SECONDARY) ==
			    !secondary) {
				idx[np] = k;
				p[np++] = cl->k[k].hp;
			}
		pv_stats_bh(p, np, p);
		for (k = 0; k < np; k++)
			cl->k[idx[k]].qvalue = qvalue(as, nf, tend, ntend,
						      pf[f], p[k]);
	}
	free(tend);
	free(pf);
	free(p);
	free(idx);
	free(fs);
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
 * The reason texts, printf-style, into cl->why: say() starts one,
 * say_more() goes on with it (the words on more runs after the why),
 * valid until the next say(): they are made again when written
 * (pv_classifier_reason()), not kept for every key, a third of the memory
 * of a million.  printf itself cost a sixth of the tool's time (its exact
 * conversion of every double), so the conversions used here are done
 * above, to the same bytes: literal text, %%, %s, %zu, %.<n>f and %.<n>g.
 * Anything else is a mistake in this file and goes to printf whole.
 */
static void
vsay(struct pv_strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void
vsay(struct pv_strbuf *sb, const char *fmt, va_list ap)
{
	const char *p = fmt, *pc;
	size_t start = sb->len;
	va_list again;
	int prec;

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
			pv_strbuf_setlen(sb, start);
			pv_strbuf_vaddf(sb, fmt, again);
			p = "";
			break;
		}
	}
	pv_strbuf_addstr(sb, p);
	va_end(again);
}

static const char *
say(struct pv_classifier *cl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static const char *
say(struct pv_classifier *cl, const char *fmt, ...)
{
	va_list ap;

	pv_strbuf_reset(&cl->why);
	va_start(ap, fmt);
	vsay(&cl->why, fmt, ap);
	va_end(ap);
	return cl->why.buf;
}

static const char *
say_more(struct pv_classifier *cl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static const char *
say_more(struct pv_classifier *cl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(&cl->why, fmt, ap);
	va_end(ap);
	return cl->why.buf;
}

/*
 * The probability that the final change, normal with mean m and sd sm,
 * decides: past the threshold thr with its interval clear of zero
 * (half-width hw), or its interval (half-width hc) inside the threshold.
 */
static double
p_decide(double m, double sm, double thr, double hw, double hc)
{
	double cut = hw > thr ? hw : thr, p;

	if (!(sm > 0)) {
		double a = fabs(m);

		return a >= cut || a + hc < thr ? 1 : 0;
	}
	p = pv_stats_normal_sf((cut - m) / sm) +
		pv_stats_normal_sf((cut + m) / sm);
	if (hc < thr)
		p += pv_stats_normal_sf((-(thr - hc) - m) / sm) -
			pv_stats_normal_sf((thr - hc - m) / sm);
	return p;
}

/*
 * An upper bound of p_decide() for sm > 0 without GSL's tails or an exp:
 * Q(z) <= e^(-z^2 / 2) / 2 for z >= 0 (Chernoff), with e^y bounded below
 * by its Taylor polynomial of degree 3, and the chance of an interval at
 * most its width times the density's peak, 1 / sqrt(2 pi) (rounded up
 * here).  Where the bound is clearly below the power asked, p_decide() is
 * too and need not be computed: the N found is the same.  The margin,
 * 1e-9, is millions of times the rounding of GSL's tails and of the sums.
 * (The exp's own bound, tried after this one, ruled out 577 of the
 * 40,449 N this one leaves on the 10k night, for more than erfc() costs
 * on them.)
 */
static inline double
tail_bound(double z)
{
	double y;

	if (!(z > 0))
		return 1;
	/* e^y >= 1 + y + y^2/2 + y^3/6 */
	y = z * z / 2;
	return 0.5 / (1 + y * (1 + y * (0.5 + y / 6)));
}

static inline double
p_decide_bound(double m, double sm, double thr, double hw, double hc)
{
	/* times 1 / sm: a rounding from / sm, nothing beside the margin */
	double cut = hw > thr ? hw : thr, is = 1 / sm;
	double p = tail_bound((cut - m) * is) + tail_bound((cut + m) * is);

	if (hc < thr) {
		double z3 = (-(thr - hc) - m) * is, z4 = (thr - hc - m) * is;
		double b = (z4 - z3) * 0.398942280401433, t = 1;

		if (z3 > 0)
			t = tail_bound(z3);
		else if (z4 < 0)
			t = tail_bound(-z4);
		p += b < t ? b : t;
	}
	return p;
}

#define DECIDE_MARGIN 1e-9
/* runs_to_decide()'s on the near quantile: a hundred times that */
#define PLAN_MARGIN 1e-7
/* ... where the half width's t part is at most this many times sm */
#define NEAR_RATIO 1e4

/*
 * p_decide() with libm's erfc() for GSL's normal tails, for sm > 0: the
 * same sum to within a few units of rounding, at a fraction of the cost.
 * Only where it is within DECIDE_MARGIN of the power asked does GSL's
 * sum decide (runs_to_decide()), so N is the one GSL's tails give.
 */
static double
q_erfc(double z)
{
	return erfc(z * 0.70710678118654752440) / 2;
}

static double
p_decide_erfc(double m, double sm, double thr, double hw, double hc)
{
	double cut = hw > thr ? hw : thr, p;

	p = q_erfc((cut - m) / sm) + q_erfc((cut + m) / sm);
	if (hc < thr)
		p += q_erfc((-(thr - hc) - m) / sm) -
			q_erfc((thr - hc - m) / sm);
	return p;
}

/* more runs a side than anyone runs: beyond them, "unlikely to decide" */
#define RUNS_MAX 1000

/*
 * The two t quantiles of each N that runs_to_decide() tries, 2N - 2 df:
 * the steps of N depend on n only and the level on the pair only, so a
 * key asks what the key before it asked.  The last (n, a) asked is kept,
 * its quantiles as pv_stats_t_quantile_whole() gave them, and each N's
 * shares of the new runs and the old, (N - n) / N and n / N.
 */
#define RUNS_STEPS 64
static _Thread_local struct {
	size_t n, have;		/* n 0: empty */
	double a;
	double tq[RUNS_STEPS], tc[RUNS_STEPS];
	double f[RUNS_STEPS], r[RUNS_STEPS];	/* (N - n) / N, n / N */
} runs_tq;

/* The empirical-Bayes prior of a pair's true changes: N(mu, tau2). */
struct prior {
	double mu, tau2;
	size_t ntested;
};

/*
 * Runs a side likely to decide a key.  Its true change has the posterior
 * N(m, v) under the pair's prior; its noise is planned at its plan_bound
 * upper confidence bound (up: its Welch df over the chi-square quantile);
 * N runs a side give the final change (n d + (N - n) new) / N, whose
 * interval must clear the false discovery control at its strictest for
 * one key of the pair (Bonferroni over them).  The smallest N up to 1000
 * whose probability of deciding is decide_power, or 0.
 *
 * With close NULL, the quantile is GSL's and every N decided as described
 * above runs_to_decide().  Otherwise it is near GSL's, and each N decided
 * only where it is PLAN_MARGIN clear of decide_power; where it is not,
 * *close is set and nothing is returned.
 */
static size_t
runs_search(const struct pv_classifier *cl, const struct pv_cmp *c,
	    double thr, const struct prior *pr, double up, int *close)
{
	double se2 = c->se * c->se, w, m, v, s2, a;
	double margin = close != NULL ? PLAN_MARGIN : DECIDE_MARGIN;
	/* the widening beyond Welch's (the quantum) stays */
	double w2 = c->hhi - c->hlo - 2 * (c->hi - c->change);
	size_t n = c->nb < c->nt ? c->nb : c->nt, N, step;

	s2 = se2 / (1 / (double)c->nb + 1 / (double)c->nt) * up;
	w = pr->tau2 > 0 ? pr->tau2 / (pr->tau2 + se2) : 0;
	m = pr->mu + w * (c->change - pr->mu);
	v = w * se2;
	a = cl->opt.q / (double)(pr->ntested ? pr->ntested : 1);
	w2 = w2 > 0 ? w2 / 2 : 0;
	if (runs_tq.n != n || !(runs_tq.a == a)) {
		runs_tq.n = n;
		runs_tq.a = a;
		runs_tq.have = 0;
	}
	for (N = n + 1, step = 0; N <= RUNS_MAX; N += N / 8 + 1, step++) {
		double center, sm, sdN, tq, tc, f, r;

		/* whole df: the quantiles are kept (a is the pair's) */
		if (step < runs_tq.have) {
			tq = runs_tq.tq[step];
			tc = runs_tq.tc[step];
			f = runs_tq.f[step];
			r = runs_tq.r[step];
		} else {
			tq = pv_stats_t_quantile_whole(1 - a / 2,
						       (unsigned)(2 * N - 2));
			tc = pv_stats_t_quantile_whole(0.975,
						       (unsigned)(2 * N - 2));
			f = (double)(N - n) / (double)N;
			r = (double)n / (double)N;
			if (step == runs_tq.have && step < RUNS_STEPS) {
				runs_tq.tq[step] = tq;
				runs_tq.tc[step] = tc;
				runs_tq.f[step] = f;
				runs_tq.r[step] = r;
				runs_tq.have++;
			}
		}
		center = r * c->change + f * m;
		sm = f * sqrt(v + 2 * s2 / (double)(N - n));
		sdN = sqrt(2 * s2 / (double)N);

		/* past NEAR_RATIO the near quantile's argument does not hold */
		if (close != NULL && !(tq * sdN <= NEAR_RATIO * sm)) {
			*close = 1;
			return 0;
		}
		if (sm > 0 && p_decide_bound(center, sm, thr, tq * sdN + w2,
					     tc * sdN + w2) + margin <
		    cl->opt.decide_power)
			continue;
		if (sm > 0) {
			double p = p_decide_erfc(center, sm, thr,
						 tq * sdN + w2, tc * sdN + w2);

			if (p >= cl->opt.decide_power + margin)
				return N;
			if (p + margin < cl->opt.decide_power)
				continue;
		}
		if (close != NULL) {
			*close = 1;
			return 0;
		}
		if (p_decide(center, sm, thr, tq * sdN + w2, tc * sdN + w2) >=
		    cl->opt.decide_power)
			return N;
	}
	return 0;
}

/*
 * runs_search() on GSL's chi-square quantile, which costs four or five
 * of its CDF and density pairs, a third of pv-classify's time: the
 * search runs first on pv_stats_chisq_quantile_near(), one CDF, and
 * again on GSL's only where an N is within PLAN_MARGIN of deciding.
 * The N is the same.  Up to 1e4 degrees of freedom (past them, GSL's
 * tolerance shows) the quantiles differ by less than 1e-11 of them
 * (check_stats; 5e-15 at plan_bound's 0.1), so s2 does, and sm and the
 * t part of each half width hw by half that.  Each probability of
 * deciding, and each bound, is a sum of four normal tails whose
 * arguments z then move by (|z| + t part / sm) / 2 times 1e-11: with
 * |z| phi(z) <= 0.25, phi <= 0.4 and the t part at most NEAR_RATIO (1e4)
 * times sm (runs_search() takes GSL's where it is more), by less than
 * 4 (0.25 + 0.4e4) 0.5e-11 = 8e-8.  So an N decided PLAN_MARGIN (1e-7)
 * clear of decide_power on the near quantile is decided the same way,
 * DECIDE_MARGIN (1e-9) clear, on GSL's.  (The quantum part of hw does
 * not move with the quantile.)
 */
static size_t
runs_to_decide(const struct pv_classifier *cl, const struct pv_cmp *c,
	       double thr, const struct prior *pr)
{
	size_t n = c->nb < c->nt ? c->nb : c->nt, N;
	int close = 0;

	if (!(c->se > 0) || n < 2)
		return 0;
	if (!(c->df >= 1 && cl->opt.plan_bound > 0))
		return runs_search(cl, c, thr, pr, 1, NULL);
	if (!(c->df < 1e4))
		return runs_search(cl, c, thr, pr, c->df /
				   pv_stats_chisq_quantile(cl->opt.plan_bound,
							   c->df), NULL);
	N = runs_search(cl, c, thr, pr, c->df / pv_stats_chisq_quantile_near(
				cl->opt.plan_bound, c->df), &close);
	if (!close)
		return N;
	return runs_search(cl, c, thr, pr, c->df / pv_stats_chisq_quantile(
				   cl->opt.plan_bound, c->df), NULL);
}

/*
 * log(1 - d) and log(1 + d), kept for the d asked last: a run's keys
 * share their threshold and band, mostly, and each is asked for twice a
 * key (decided, then worded).
 */
static void
log_band(struct pv_classifier *cl, double d, double *lo, double *hi)
{
	if (!(cl->logd == d)) {
		cl->logd = d;
		cl->logd_lo = log(1 - d);
		cl->logd_hi = log(1 + d);
	}
	*lo = cl->logd_lo;
	*hi = cl->logd_hi;
}

/*
 * Classify v.  The decisions (class, flags, mde, runs) are made once, in
 * pv_classifier_run() (words 0); the reason's words are made again when
 * written (words 1, pv_classifier_reason()), from the decisions kept in
 * v: the quantiles and normal tails of mde and runs_to_decide() are not
 * computed twice, and no words are made that nobody reads.
 */
static void
classify(struct pv_classifier *cl, struct pv_verdict *v,
	 const struct prior *pr, int words)
{
	const struct pv_classifier_opts *o = &cl->opt;
	const struct pv_cmp *c = &v->cmp;
	double thr = delta_of(cl, &c->key), band = o->band > 0 ?
		fmin(o->band, thr) : thr;
	double reg, imp;
	double lo = c->hlo, hi = c->hhi, blo, bhi;
	int sig = !isnan(v->qvalue) && v->qvalue <= o->q;
	struct pcts pc;

	log_band(cl, thr, &reg, &imp);
	v->cls = PV_CLASS_UNCERTAIN;
	v->flags = c->flags & ~(unsigned)(PV_CMP_UNSTABLE | PV_CMP_FEW_RUNS);
	if (c->rcv_b > o->cv_max || c->rcv_t > o->cv_max)
		v->flags |= PV_CMP_UNSTABLE;
	if (c->nb < o->min_runs || c->nt < o->min_runs)
		v->flags |= PV_CMP_FEW_RUNS;
	if (c->nb == 0 || c->nt == 0) {
		v->reason = c->nt == 0 ? "only in the baseline" :
			"only in the target";
		return;
	}
	if (c->flags & PV_CMP_NONPOSITIVE) {
		v->reason = "a value is zero or negative: no ratio";
		return;
	}
	if (isnan(c->se) || isnan(lo)) {
		if (words)
			v->reason = say(cl, "one run on a side (%zu and %zu): "
					"no interval", c->nb, c->nt);
		v->runs = o->min_runs > 2 ? o->min_runs : 2;
		return;
	}
	/* Welch's df rounded down: conservative, and the quantiles cache */
	if (!words) {
		unsigned df = c->df >= 1 ? (unsigned)floor(fmin(c->df, 1e6)) :
			1;

		v->mde = (pv_stats_t_quantile_whole(1 - o->q / 2, df) +
			  pv_stats_t_quantile_whole(o->power, df)) * c->se;
	}
	if (sig && hi < 0 && c->change <= reg) {
		v->cls = PV_CLASS_REGRESSION;
		if (words)
			v->reason = say(cl, "%s%% worse, interval %s%% to %s%%",
					lost(&pc, 0, c->change),
					lost(&pc, 1, hi), lost(&pc, 2, lo));
		return;
	}
	if (sig && lo > 0 && c->change >= imp) {
		v->cls = PV_CLASS_IMPROVEMENT;
		if (words)
			v->reason = say(cl, "%s%% better, interval %s%% to "
					"%s%%", chg(&pc, 0, c->change),
					chg(&pc, 1, lo), chg(&pc, 2, hi));
		return;
	}
	log_band(cl, band, &blo, &bhi);
	if (lo > blo && hi < bhi) {
		v->cls = PV_CLASS_NO_CHANGE;
		if (words)
			v->reason = say(cl, "interval %s%% to %s%% inside "
					"+-%.3g%%", chg(&pc, 0, lo),
					chg(&pc, 1, hi), 100 * band);
		return;
	}
	if (!words) {
		if (!(c->flags & PV_CMP_DRIFT))
			v->runs = runs_to_decide(cl, c, -reg, pr);
		return;
	}
	/* why, then what more runs would do */
	if (sig && (hi < 0 || lo > 0))
		say(cl, "significant, but %s%% is inside the %.3g%% threshold",
		    chg(&pc, 0, c->change), 100 * thr);
	else if (hi < 0 || lo > 0)
		say(cl, "not significant after the false discovery control "
		    "(q-value %.3g)", v->qvalue);
	else
		say(cl, "interval %s%% to %s%% holds no change and a %.3g%% "
		    "change", chg(&pc, 0, lo), chg(&pc, 1, hi), 100 * thr);
	if (c->flags & PV_CMP_DRIFT)
		v->reason = say_more(cl, "; drift: more runs in the same "
				     "order do not remove it, interleave the "
				     "sides");
	else if (v->runs > 0)
		v->reason = say_more(cl, "; about %zu runs a side would "
				     "decide", v->runs);
	else
		v->reason = say_more(cl, "; more runs unlikely to decide");
}

/*
 * A group of levels is systematic, every level shifted the same way, when
 * on two or three levels every level is a Regression on its own; on four
 * or more, when the pooled change (the inverse-variance weighted mean of
 * the levels' changes: different runs, so independent) is past the
 * threshold and significant (t on the smallest of the levels' Welch
 * degrees of freedom: with three runs a side a level's standard error is
 * itself uncertain), every level's change is worse, all but one at least
 * half the pooled change, and the levels agree with one shift (Cochran's
 * Q below its 1% point).  One level shifted, or every other one, is not
 * systematic however large the shift.
 */
static void
systematic(struct pv_classifier *cl, struct pv_sysreg *g)
{
	size_t i, k = 0, worse = 0, half = 0;
	struct pv_runkey key;
	int all_se = 1;
	double sw = 0, swd = 0, df = INFINITY, q = 0, reg;

	g->regressed = 0;
	for (i = g->first; i < g->first + g->count; i++) {
		const struct pv_classifier_key *v = &cl->k[i];

		if (isnan(v->change))
			continue;
		if (k == 0 || v->change < g->dmin)
			g->dmin = v->change;
		if (k == 0 || v->change > g->dmax)
			g->dmax = v->change;
		k++;
		worse += v->change < 0;
		g->regressed += v->cls == PV_CLASS_REGRESSION;
		if (v->se > 0) {
			df = fmin(df, v->df);
			sw += 1 / (v->se * v->se);
			swd += v->change / (v->se * v->se);
		} else {
			all_se = 0;
		}
	}
	g->levels = k;
	g->pooled = g->p = NAN;
	if (k < 2 || !all_se || !(sw > 0))
		return;
	g->pooled = swd / sw;
	if (k <= 3) {
		g->systematic = g->regressed == k;
		if (g->systematic)
			g->p = pv_stats_t_pvalue(g->pooled * sqrt(sw), df);
		return;
	}
	key_get(cl, g->first, &key);
	reg = log(1 - delta_of(cl, &key));
	for (i = g->first; i < g->first + g->count; i++) {
		const struct pv_classifier_key *c = &cl->k[i];

		if (isnan(c->change))
			continue;
		half += c->change <= g->pooled / 2;
		q += (c->change - g->pooled) * (c->change - g->pooled) /
			(c->se * c->se);
	}
	/* the t tail is the costly part: only where it decides */
	if (worse < k || half + 1 < k || !(g->pooled <= reg) ||
	    pv_stats_chisq_sf(q, (double)k - 1) < 0.01)
		return;
	g->p = pv_stats_t_pvalue(g->pooled * sqrt(sw), df);
	g->systematic = g->p < cl->opt.q;
}

/*
 * severity = round(100 min(1, B / 0.10)), B the change the interval
 * supports: 1 - e^HI for a regression, e^LO - 1 for an improvement; a
 * regression is red from B = 5%, yellow from 2%, green below.
 */
static void
score(struct pv_classifier_key *v)
{
	double b;

	if (v->cls == PV_CLASS_REGRESSION)
		b = 1 - exp(v->hhi);
	else if (v->cls == PV_CLASS_IMPROVEMENT)
		b = exp(v->hlo) - 1;
	else
		return;
	v->severity = (uint8_t)lround(100 * fmin(1, b / 0.10));
	if (v->cls == PV_CLASS_REGRESSION)
		v->band = b >= 0.05 ? PV_BAND_RED : b >= 0.02 ?
			PV_BAND_YELLOW : PV_BAND_GREEN;
}

/* The prior of the pair [start, end): the median of its changes and
 * their spread beyond their standard errors, robustly (MAD). */
static void
pair_prior(const struct pv_classifier *cl, size_t start, size_t end,
	   struct prior *pr)
{
	double *d = pv_xreallocarray(NULL, 3 * (end - start) + 1, sizeof(*d));
	double *s2 = d + (end - start), *tmp = s2 + (end - start), med;
	size_t m = 0, i;

	pr->mu = pr->tau2 = 0;
	pr->ntested = 0;
	for (i = start; i < end; i++) {
		const struct pv_classifier_key *c = &cl->k[i];

		pr->ntested += testable(c);
		if (!(c->se > 0) || isnan(c->change))
			continue;
		d[m] = c->change;
		s2[m++] = c->se * c->se;
	}
	if (m > 0) {
		double top;

		/* medians by selection: the values a sort would have in
		 * the middle (pv_stats_median_max()) */
		memcpy(tmp, d, m * sizeof(*d));
		med = pv_stats_median_max(tmp, m, &top);
		for (i = 0; i < m; i++)
			tmp[i] = fabs(d[i] - med);
		pr->mu = med;
		pr->tau2 = PV_STATS_MAD_SCALE *
			pv_stats_median_max(tmp, m, &top);
		pr->tau2 = fmax(0, pr->tau2 * pr->tau2 -
				pv_stats_mean(s2, m));
	}
	free(d);
}

void
pv_classifier_run(struct pv_classifier *cl)
{
	size_t i, j, e;

	sort_verdicts(cl);
	/* every pair its own analysis */
	for (i = 0; i < cl->n; i = e) {
		struct prior pr;

		for (e = i + 1; e < cl->n && cl->k[e].split > PV_SPLIT_PAIR;
		     e++)
			;
		fdr_kind(cl, i, e, 0);
		fdr_kind(cl, i, e, 1);
		pair_prior(cl, i, e, &pr);
		PV_GROW(cl->pair, cl->npair + 1, cl->pair_alloc);
		cl->pair[cl->npair].start = i;
		cl->pair[cl->npair].mu = pr.mu;
		cl->pair[cl->npair].tau2 = pr.tau2;
		cl->pair[cl->npair].ntested = pr.ntested;
		cl->npair++;
		for (j = i; j < e; j++) {
			struct pv_classifier_key *k = &cl->k[j];
			struct pv_verdict v;

			/* the decisions kept; the reason made again */
			pv_classifier_get(cl, j, &v);
			classify(cl, &v, &pr, 0);
			k->cls = (uint8_t)v.cls;
			k->flags = (uint16_t)v.flags;
			k->runs = (uint32_t)v.runs;
			k->mde = v.mde;
		}
	}
	/* the groups of levels: the systematic ones kept, to be written */
	cl->ng = 0;
	for (i = 0; i < cl->n; i = j) {
		struct pv_sysreg g;

		for (j = i + 1; j < cl->n && cl->k[j].split > PV_SPLIT_GROUP;
		     j++)
			;
		memset(&g, 0, sizeof(g));
		g.first = i;
		g.count = j - i;
		systematic(cl, &g);
		if (!g.systematic)
			continue;
		PV_GROW(cl->g, cl->ng + 1, cl->galloc);
		cl->g[cl->ng++] = g;
	}
	for (i = 0; i < cl->n; i++)
		score(&cl->k[i]);
	for (i = 0; i < cl->ng; i++) {
		struct pv_sysreg *g = &cl->g[i];

		for (j = g->first; j < g->first + g->count; j++)
			if (cl->k[j].cls == PV_CLASS_REGRESSION)
				g->bands[cl->k[j].band]++;
	}
}

/* The reason of verdict i, whose struct pv_verdict is got. */
static const char *
reason_of(struct pv_classifier *cl, size_t i, const struct pv_verdict *got)
{
	struct pv_verdict v = *got;
	struct prior pr;
	size_t lo = 0, hi = cl->npair, mid;

	/* the pair of verdict i: the last that starts at or before it */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (cl->pair[mid].start <= i)
			lo = mid;
		else
			hi = mid;
	}
	pr.mu = cl->pair[lo].mu;
	pr.tau2 = cl->pair[lo].tau2;
	pr.ntested = cl->pair[lo].ntested;
	/* what it decides is decided: only the words are made again */
	classify(cl, &v, &pr, 1);
	return v.reason;
}

const char *
pv_classifier_reason(struct pv_classifier *cl, size_t i)
{
	struct pv_verdict v;

	pv_classifier_get(cl, i, &v);
	return reason_of(cl, i, &v);
}

enum pv_band
pv_classifier_worst(const struct pv_classifier *cl)
{
	enum pv_band w = PV_BAND_NONE;
	size_t i;

	for (i = 0; i < cl->n; i++)
		if (cl->k[i].cls == PV_CLASS_REGRESSION &&
		    !(cl->k[i].flags & PV_CMP_SECONDARY) &&
		    cl->k[i].band > w)
			w = (enum pv_band)cl->k[i].band;
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

/*
 * The text of a key, made in sb; head is the length of its levelless text,
 * last the key it is of.  The levels of a group come one after another and
 * differ in LEVEL only: for them the text before LEVEL stays.
 */
struct key_text {
	struct pv_strbuf sb;
	const struct pv_classifier_key *last;
	size_t head;
};

/* The text of key i, whose fields are k (key_get()). */
static struct pv_str
key_text(struct key_text *kt, const struct pv_classifier *cl, size_t i,
	 const struct pv_runkey *k)
{
	const struct pv_classifier_key *a = &cl->k[i], *b = kt->last;
	struct pv_str t;

	if (b != NULL && memcmp(a->sid, b->sid, sizeof(a->sid)) == 0 &&
	    a->direction == b->direction) {
		pv_strbuf_setlen(&kt->sb, kt->head);
		pv_rec_key_add_level(&kt->sb, k->level);
	} else {
		pv_strbuf_reset(&kt->sb);
		pv_rec_key_add(&kt->sb, k, 1);
		t.s = kt->sb.buf;
		t.len = kt->sb.len;
		kt->head = pv_rec_key_text_levelless(t).len;
	}
	kt->last = a;
	t.s = kt->sb.buf;
	t.len = kt->sb.len;
	return t;
}

/*
 * The verdicts, then the systematic regressions, then the detect records,
 * written in blocks.  A key's text is made once, for its verdict, and kept
 * (texts, ends[i] the end of key i's) for its detect record.
 */
void
pv_classifier_write(struct pv_classifier *cl, FILE *out)
{
	struct pv_strbuf sb = PV_STRBUF_INIT, texts = PV_STRBUF_INIT;
	struct key_text key = { PV_STRBUF_INIT, NULL, 0 };
	size_t i, j, n, *ends;
	struct pv_str t;

	pv_strbuf_init(&sb, WRITE_BLOCK + 4096);
	ends = pv_xreallocarray(NULL, cl->n + 1, sizeof(*ends));
	ends[0] = 0;
	for (i = 0; i < cl->n; i++) {
		struct pv_verdict v;

		pv_classifier_get(cl, i, &v);
		v.reason = reason_of(cl, i, &v);
		t = key_text(&key, cl, i, &v.cmp.key);
		pv_strbuf_add(&texts, t.s, t.len);
		ends[i + 1] = texts.len;
		pv_rec_verdict_write(&sb, &v, t);
		put(&sb, out, 0);
	}
	for (i = 0; i < cl->ng; i++) {
		const struct pv_sysreg *g = &cl->g[i];
		struct pv_runkey k;

		key_get(cl, g->first, &k);
		PV_GROW(cl->level, g->count, cl->level_alloc);
		for (j = g->first, n = 0; j < g->first + g->count; j++)
			if (!isnan(cl->k[j].change))
				cl->level[n++] = cl->k[j].level;
		t.s = texts.buf + ends[g->first];
		t.len = ends[g->first + 1] - ends[g->first];
		pv_rec_systematic_write(&sb, &k, t, g, cl->level, n);
		put(&sb, out, 0);
	}
	for (i = 0; i < cl->n; i++) {
		const struct pv_classifier_key *k = &cl->k[i];
		struct pv_cmp c;

		/* what a detect record takes */
		key_get(cl, i, &c.key);
		c.nb = k->nb;
		c.nt = k->nt;
		c.rcv_b = k->rcv_b;
		c.rcv_t = k->rcv_t;
		t.s = texts.buf + ends[i];
		t.len = ends[i + 1] - ends[i];
		pv_rec_detect_write(&sb, &c, k->mde, t);
		put(&sb, out, 0);
	}
	put(&sb, out, 1);
	free(ends);
	pv_strbuf_release(&texts);
	pv_strbuf_release(&key.sb);
	pv_strbuf_release(&sb);
}
