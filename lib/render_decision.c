/*
 * render_decision: the decision pages of the HTML report (see
 * render_decision.h), written from the tables that render_decision_read.c
 * fills (render_decision_int.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "hmap.h"
#include "rec_changepoint.h"
#include "rec_cmp.h"
#include "rec_sample.h"
#include "rec_stat.h"
#include "rec_verdict.h"
#include "render_decision_int.h"
#include "xalloc.h"

static struct pv_str
str(const struct pv_render_decision *d, uint64_t id)
{
	return pv_symtab_get(d->str, (uint32_t)id);
}

static size_t
find_side(const struct pv_render_decision *d, const uint64_t *k)
{
	return pv_render_decision_find_side(d, k);
}

/* Writing: helpers */

static double
pct(double x)
{
	return 100 * (exp(x) - 1);
}

static void
esc(const struct pv_render_decision *d, struct pv_strbuf *sb, uint64_t id)
{
	struct pv_str s = str(d, id);

	if (s.len == 0)
		pv_strbuf_addch(sb, '-');
	else
		pv_html_escape(sb, s.s, s.len);
}

/* "suite test operation metric [level N]", escaped */
static void
key_html(const struct pv_render_decision *d, struct pv_strbuf *sb,
	 const uint64_t *k, int level)
{
	int i;

	for (i = K_SUITE; i <= K_METRIC; i++) {
		if (i > K_SUITE)
			pv_strbuf_addch(sb, ' ');
		esc(d, sb, k[i]);
	}
	if (level && k[K_LEVEL] != PV_NONE)
		pv_strbuf_addf(sb, " level %llu",
			       (unsigned long long)k[K_LEVEL]);
}

static void
pair_html(const struct pv_render_decision *d, struct pv_strbuf *sb,
	  const uint64_t *k)
{
	esc(d, sb, k[K_A]);
	pv_strbuf_addstr(sb, " \xe2\x86\x92 ");
	esc(d, sb, k[K_B]);
}

/* The flag names of flags ("" for none), escaped. */
static void
flags_html(struct pv_strbuf *sb, unsigned flags)
{
	struct pv_strbuf f = PV_STRBUF_INIT;

	if (flags != 0) {
		pv_rec_cmp_flags_add(&f, flags);
		/* the field without the TAB before it */
		pv_html_escape(sb, f.buf + 1, f.len - 1);
	}
	pv_strbuf_release(&f);
}

/* The profile comparison of v's versions, experiment and level, or NONE. */
static size_t
profile_of(const struct vd *v, const struct pv_render_decision_prof *prof,
	   size_t nprof)
{
	size_t i;

	for (i = 0; i < nprof; i++)
		if (prof[i].base == v->k[K_A] &&
		    prof[i].target == v->k[K_B] &&
		    prof[i].experiment == v->k[K_EXPERIMENT] &&
		    (prof[i].level == v->k[K_LEVEL] ||
		     prof[i].level == PV_NONE))
			return i;
	return NONE;
}

/* regressions: severity down, then change up, then key */
static const struct vd *rank_v;
static const struct pv_symtab *rank_str;

static int
key_cmp(const uint64_t *a, const uint64_t *b)
{
	int i, c;

	for (i = 0; i < NK; i++) {
		if (a[i] == b[i])
			continue;
		if (i == K_DIRECTION || i == K_LEVEL)
			return a[i] < b[i] ? -1 : 1;
		c = pv_str_cmp(pv_symtab_get(rank_str, (uint32_t)a[i]),
			       pv_symtab_get(rank_str, (uint32_t)b[i]));
		if (c != 0)
			return c;
	}
	return 0;
}

static int
cmp_rank(const void *a, const void *b)
{
	const struct vd *x = &rank_v[*(const size_t *)a];
	const struct vd *y = &rank_v[*(const size_t *)b];

	if (x->severity != y->severity)
		return x->severity > y->severity ? -1 : 1;
	if (x->change != y->change)
		return x->change < y->change ? -1 : 1;
	return key_cmp(x->k, y->k);
}

static int
cmp_key(const void *a, const void *b)
{
	return key_cmp(rank_v[*(const size_t *)a].k,
		       rank_v[*(const size_t *)b].k);
}

/* The verdicts of class c (all: -1), ranked or by key, into out[]. */
static size_t
select_class(const struct pv_render_decision *d, int c, int ranked,
	     size_t *out)
{
	size_t i, n = 0;

	for (i = 0; i < d->nv; i++) {
		/* a key decided twice counts once: its last decision */
		if (!pv_render_decision_kept(d, i))
			continue;
		if (c < 0 || (int)d->v[i].cls == c)
			out[n++] = i;
	}
	rank_v = d->v;
	rank_str = d->str;
	if (n > 1)
		qsort(out, n, sizeof(*out), ranked ? cmp_rank : cmp_key);
	rank_v = NULL;
	rank_str = NULL;
	return n;
}

static void
interval_html(struct pv_strbuf *sb, double lo, double hi)
{
	if (isnan(lo) || isnan(hi))
		pv_strbuf_addch(sb, '-');
	else
		pv_strbuf_addf(sb, "[%+.2f%%, %+.2f%%]", pct(lo), pct(hi));
}

/* The trends: the stat records of a key on three versions or more. */
struct trend {
	size_t first, n;	/* in order[] */
};

static int
cmp_measure(const void *a, const void *b, void *arg)
{
	const struct pv_render_decision *d = arg;
	const struct skey *x = &d->sk[*(const size_t *)a];
	const struct skey *y = &d->sk[*(const size_t *)b];
	int c = memcmp(x->k + K_EXPERIMENT, y->k + K_EXPERIMENT,
		       (NK - K_EXPERIMENT) * sizeof(uint64_t));
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (c != 0)
		return c;
	return i < j ? -1 : i > j;	/* versions in the order met */
}

/*
 * The side keys with a stat record grouped by key (without the version):
 * the trends of three versions or more into *tr, order[] holding their
 * side keys; trend_of[] each side key's trend, or NONE.
 */
static int
same_measure(const struct pv_render_decision *d, size_t a, size_t b)
{
	return memcmp(d->sk[a].k + K_EXPERIMENT, d->sk[b].k + K_EXPERIMENT,
		      (NK - K_EXPERIMENT) * sizeof(uint64_t)) == 0;
}

static size_t
trends(const struct pv_render_decision *d, size_t *order, struct trend **tr,
       size_t *trend_of)
{
	size_t n = 0, i, j, ntr = 0;

	for (i = 0; i < d->nsk; i++) {
		trend_of[i] = NONE;
		if (d->sk[i].have_stat)
			order[n++] = i;
	}
	if (n > 1)
		qsort_r(order, n, sizeof(*order), cmp_measure, (void *)d);
	*tr = pv_xcalloc(n + 1, sizeof(**tr));
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && same_measure(d, order[i], order[j]);
		     j++)
			;
		if (j - i < 3)
			continue;
		(*tr)[ntr].first = i;
		(*tr)[ntr].n = j - i;
		for (; i < j; i++)
			trend_of[order[i]] = ntr;
		ntr++;
	}
	return ntr;
}

/* Writing: the summary */

/* The counts of each version pair, in the order of their first verdict. */
static void
counts_html(const struct pv_render_decision *d, struct pv_strbuf *sb,
	    const size_t *all, size_t n)
{
	size_t (*cnt)[8], *pair, npair = 0, i, k;

	cnt = pv_xcalloc(n + 1, sizeof(*cnt));
	pair = pv_xcalloc(n + 1, sizeof(*pair));
	for (i = 0; i < d->nv; i++) {
		const struct vd *v = &d->v[i];

		if (!pv_render_decision_kept(d, i))
			continue;
		for (k = 0; k < npair; k++)
			if (d->v[pair[k]].k[K_A] == v->k[K_A] &&
			    d->v[pair[k]].k[K_B] == v->k[K_B])
				break;
		if (k == npair)
			pair[npair++] = i;
		cnt[k][0]++;
		cnt[k][1 + v->cls]++;
		if (v->cls == PV_CLASS_REGRESSION && v->band != PV_BAND_NONE)
			cnt[k][4 + v->band]++;
	}
	(void)all;
	pv_strbuf_addstr(sb, "<table id=\"counts\" class=\"counts\"><thead>"
			 "<tr><th scope=\"col\">baseline \xe2\x86\x92 target"
			 "</th><th scope=\"col\">comparisons</th>"
			 "<th scope=\"col\">regressions</th>"
			 "<th scope=\"col\">red</th><th scope=\"col\">yellow"
			 "</th><th scope=\"col\">green</th>"
			 "<th scope=\"col\">improvements</th>"
			 "<th scope=\"col\">no change</th>"
			 "<th scope=\"col\">uncertain</th></tr></thead>\n"
			 "<tbody>\n");
	for (k = 0; k < npair; k++) {
		pv_strbuf_addstr(sb, "<tr><th scope=\"row\">");
		pair_html(d, sb, d->v[pair[k]].k);
		pv_strbuf_addf(sb, "</th><td class=\"num\">%zu</td>"
			       "<td class=\"num%s\">%zu</td>"
			       "<td class=\"num\">%zu</td>"
			       "<td class=\"num\">%zu</td>"
			       "<td class=\"num\">%zu</td>"
			       "<td class=\"num\">%zu</td>"
			       "<td class=\"num\">%zu</td>"
			       "<td class=\"num\">%zu</td></tr>\n",
			       cnt[k][0], cnt[k][1] ? " up" : "", cnt[k][1],
			       cnt[k][4 + PV_BAND_RED],
			       cnt[k][4 + PV_BAND_YELLOW],
			       cnt[k][4 + PV_BAND_GREEN], cnt[k][2],
			       cnt[k][3], cnt[k][4]);
	}
	pv_strbuf_addstr(sb, "</tbody></table>\n");
	free(cnt);
	free(pair);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The report card: the smallest change the comparisons could detect, as
 * pv-classify's detect records say, and what was uncertain, by flag.
 */
static void
card_html(const struct pv_render_decision *d, struct pv_strbuf *sb,
	  const size_t *all, size_t n, size_t nuncertain)
{
	double *mde = pv_xreallocarray(NULL, n + 1, sizeof(*mde));
	size_t nm = 0, i, byflag[PV_CMP_NFLAGS] = { 0 }, noflag = 0;
	unsigned f;
	int b, any = 0;

	for (i = 0; i < n; i++) {
		const struct vd *v = &d->v[all[i]];

		if (!isnan(v->mde))
			mde[nm++] = pct(v->mde);
		if (v->cls != PV_CLASS_UNCERTAIN)
			continue;
		f = v->flags;
		if (f == 0)
			noflag++;
		for (b = 0; b < PV_CMP_NFLAGS; b++)
			if (f & (1u << b))
				byflag[b]++;
	}
	pv_strbuf_addstr(sb, "<p id=\"report-card\" class=\"card\">"
			 "<strong>Report card.</strong> ");
	if (nm > 0) {
		qsort(mde, nm, sizeof(*mde), cmp_double);
		pv_strbuf_addf(sb, "The data could detect a change of %.2f%% "
			       "(the median over %zu comparisons, at 80%% "
			       "power); 90%% of them one of %.2f%% or less; "
			       "the least sensitive only %.2f%%. ",
			       mde[nm / 2], nm, mde[(size_t)(0.9 *
			       (double)(nm - 1))], mde[nm - 1]);
	} else {
		pv_strbuf_addstr(sb, "No detect records: the smallest "
				 "detectable changes are not known. ");
	}
	if (nuncertain == 0) {
		pv_strbuf_addstr(sb, "No comparison was uncertain.");
	} else {
		pv_strbuf_addf(sb, "%zu uncertain (", nuncertain);
		for (b = 0; b < PV_CMP_NFLAGS; b++) {
			if (byflag[b] == 0)
				continue;
			pv_strbuf_addf(sb, "%s%zu ", any++ ? ", " : "",
				       byflag[b]);
			flags_html(sb, 1u << b);
		}
		if (noflag > 0)
			pv_strbuf_addf(sb, "%s%zu without a flag", any++ ?
				       ", " : "", noflag);
		pv_strbuf_addstr(sb, "): <a href=\"#uncertain\">listed below"
				 "</a> with their reasons.");
	}
	pv_strbuf_addstr(sb, "</p>\n");
	free(mde);
}

static void
suspects_html(struct pv_strbuf *sb, const struct pv_render_decision_prof *p,
	      size_t pi)
{
	size_t i;

	pv_strbuf_addf(sb, "<td class=\"suspects\"><a href=\"#profile=%zu\">"
		       "profile</a>", pi);
	for (i = 0; i < p->nsusp; i++) {
		pv_strbuf_addstr(sb, i == 0 ? ": " : ", ");
		pv_strbuf_addstr(sb, "<span class=\"fn\">");
		pv_html_escape(sb, p->susp[i].s, p->susp[i].len);
		pv_strbuf_addf(sb, "</span> %+.2f pp", p->dexcl[i]);
	}
	pv_strbuf_addstr(sb, "</td>");
}

static void
ranked_html(const struct pv_render_decision *d, struct pv_strbuf *sb,
	    const char *id, const size_t *sel, size_t n, int band,
	    const struct pv_render_decision_prof *prof, size_t nprof)
{
	size_t i, pi;

	pv_strbuf_addf(sb, "<table id=\"%s\" class=\"ranked\" data-rows=\"%zu"
		       "\"><thead><tr><th scope=\"col\">rank</th>"
		       "<th scope=\"col\">severity</th>%s"
		       "<th scope=\"col\">change</th>"
		       "<th scope=\"col\">interval</th>"
		       "<th scope=\"col\">q-value</th>"
		       "<th scope=\"col\">key</th>"
		       "<th scope=\"col\">versions</th>"
		       "<th scope=\"col\">top suspects</th></tr></thead>\n"
		       "<tbody>\n", id, n, band ? "<th scope=\"col\">band</th>"
		       : "");
	for (i = 0; i < n && i < PV_DECISION_ROWS; i++) {
		const struct vd *v = &d->v[sel[i]];

		pv_strbuf_addf(sb, "<tr class=\"band-%s\" data-v=\"%zu\">"
			       "<td class=\"num\">%zu</td>"
			       "<td class=\"num\">%d</td>",
			       pv_band_name(v->band), sel[i], i + 1,
			       v->severity);
		if (band)
			pv_strbuf_addf(sb, "<td>%s</td>",
				       pv_band_name(v->band));
		pv_strbuf_addf(sb, "<td class=\"num\">%+.2f%%</td>"
			       "<td class=\"num\">", pct(v->change));
		interval_html(sb, v->lo, v->hi);
		pv_strbuf_addstr(sb, "</td><td class=\"num\">");
		if (isnan(v->q))
			pv_strbuf_addch(sb, '-');
		else
			pv_strbuf_addf(sb, "%.2g", v->q);
		pv_strbuf_addf(sb, "</td><td><a class=\"key\" href=\"#test="
			       "%zu\">", sel[i]);
		key_html(d, sb, v->k, 1);
		pv_strbuf_addstr(sb, "</a>");
		if (v->flags != 0) {
			pv_strbuf_addstr(sb, " <span class=\"flags\">");
			flags_html(sb, v->flags);
			pv_strbuf_addstr(sb, "</span>");
		}
		pv_strbuf_addstr(sb, "</td><td>");
		pair_html(d, sb, v->k);
		pv_strbuf_addstr(sb, "</td>");
		pi = profile_of(v, prof, nprof);
		if (pi != NONE)
			suspects_html(sb, &prof[pi], pi);
		else
			pv_strbuf_addstr(sb, "<td class=\"absent\">no profile"
					 "</td>");
		pv_strbuf_addstr(sb, "</tr>\n");
	}
	pv_strbuf_addstr(sb, "</tbody></table>\n");
	if (n > PV_DECISION_ROWS)
		pv_strbuf_addf(sb, "<p class=\"more-rows\" data-table=\"%s\">"
			       "%zu more: see the suites.</p>\n", id,
			       n - PV_DECISION_ROWS);
}

static void
systematic_html(const struct pv_render_decision *d, struct pv_strbuf *sb)
{
	size_t i, n = 0;

	pv_strbuf_addstr(sb, "<h3 id=\"systematic\">Systematic regressions"
			 "</h3>\n");
	for (i = 0; i < d->nsys; i++) {
		const struct sysreg *s = &d->sys[i];
		struct pv_str lv = str(d, s->levels);

		if (n++ == 0)
			pv_strbuf_addstr(sb, "<ul id=\"systematic-list\" "
					 "class=\"systematic\">\n");
		pv_strbuf_addstr(sb, "<li><span class=\"key\">");
		key_html(d, sb, s->k, 0);
		pv_strbuf_addstr(sb, "</span> (");
		pair_html(d, sb, s->k);
		pv_strbuf_addf(sb, "): levels affected %zu of %zu [", s->s.levels,
			       s->s.levels);
		pv_html_escape(sb, lv.s, lv.len);
		pv_strbuf_addf(sb, "], %zu regressions; severity red %zu, "
			       "yellow %zu, green %zu; change range %+.2f%% to "
			       "%+.2f%% (pooled %+.2f%%, p %.2g)</li>\n",
			       s->s.regressed, s->s.bands[PV_BAND_RED],
			       s->s.bands[PV_BAND_YELLOW],
			       s->s.bands[PV_BAND_GREEN], pct(s->s.dmin),
			       pct(s->s.dmax), pct(s->s.pooled), s->s.p);
	}
	if (n > 0)
		pv_strbuf_addstr(sb, "</ul>\n");
	else
		pv_strbuf_addstr(sb, "<p id=\"systematic-none\" class=\"none\">"
				 "None: no operation is worse at every one of "
				 "its levels with a significant pooled change."
				 "</p>\n");
}

static void
uncertain_html(const struct pv_render_decision *d, struct pv_strbuf *sb,
	       const size_t *sel, size_t n)
{
	size_t i;

	pv_strbuf_addstr(sb, "<h3 id=\"uncertain\">Uncertain</h3>\n");
	if (n == 0) {
		pv_strbuf_addstr(sb, "<p class=\"none\">None.</p>\n");
		return;
	}
	pv_strbuf_addf(sb, "<ul id=\"uncertain-list\" class=\"uncertain\" "
		       "data-rows=\"%zu\">\n", n);
	for (i = 0; i < n && i < PV_DECISION_ROWS; i++) {
		const struct vd *v = &d->v[sel[i]];

		pv_strbuf_addf(sb, "<li data-v=\"%zu\"><a class=\"key\" "
			       "href=\"#test=%zu\">", sel[i], sel[i]);
		key_html(d, sb, v->k, 1);
		pv_strbuf_addstr(sb, "</a> (");
		pair_html(d, sb, v->k);
		pv_strbuf_addstr(sb, "): <span class=\"reason\">");
		esc(d, sb, v->reason);
		pv_strbuf_addstr(sb, "</span>");
		if (v->flags != 0) {
			pv_strbuf_addstr(sb, " <span class=\"flags\">");
			flags_html(sb, v->flags);
			pv_strbuf_addstr(sb, "</span>");
		}
		if (v->runs > 1000)
			pv_strbuf_addstr(sb, "; more than 1000 runs a side");
		else if (v->runs > 0)
			pv_strbuf_addf(sb, "; about %zu runs a side", v->runs);
		pv_strbuf_addstr(sb, "</li>\n");
	}
	pv_strbuf_addstr(sb, "</ul>\n");
	if (n > PV_DECISION_ROWS)
		pv_strbuf_addf(sb, "<p class=\"more-rows\">%zu more: see the "
			       "suites.</p>\n", n - PV_DECISION_ROWS);
}

/* The trend of each side key, in trend_of[] (NONE: none); their number. */
static size_t
trend_index(const struct pv_render_decision *d, size_t **trend_of)
{
	size_t *order = pv_xreallocarray(NULL, d->nsk + 1, sizeof(*order));
	struct trend *tr;
	size_t ntr;

	*trend_of = pv_xreallocarray(NULL, d->nsk + 1, sizeof(**trend_of));
	ntr = trends(d, order, &tr, *trend_of);
	free(order);
	free(tr);
	return ntr;
}

size_t
pv_render_decision_series(const struct pv_render_decision *d)
{
	size_t *trend_of, ntr = trend_index(d, &trend_of);

	free(trend_of);
	return d->nmark + ntr;
}

/* The trend of mark m's key, by the side key of its first version. */
static size_t
mark_trend(const struct pv_render_decision *d, const struct mark *m,
	   const size_t *trend_of)
{
	uint64_t k[NK];
	size_t side;

	memcpy(k, m->k, sizeof(k));
	k[K_A] = m->a;
	k[K_B] = NOKEY;
	side = find_side(d, k);
	return side == NONE ? NONE : trend_of[side];
}

/*
 * What a mark says, as text, on the summary and in the trend page's
 * legend: "change point between v6.6 and v6.7: -8.57% [-10.03%, -7.09%],
 * p 4e-10".
 */
static void
mark_text(const struct pv_render_decision *d, struct pv_strbuf *sb,
	  const struct mark *m)
{
	struct pv_str a = str(d, m->a), b = str(d, m->b);

	if (a.len == 0)
		a.s = "-", a.len = 1;
	if (b.len == 0)
		b.s = "-", b.len = 1;
	if (m->kind == MARK_CP)
		pv_strbuf_addf(sb, "change point between %.*s and %.*s",
			       (int)a.len, a.s, (int)b.len, b.s);
	else if (m->kind == MARK_OUTLIER)
		pv_strbuf_addf(sb, "outlier at %.*s", (int)a.len, a.s);
	else
		pv_strbuf_addf(sb, "trend from %.*s to %.*s", (int)a.len,
			       a.s, (int)b.len, b.s);
	pv_strbuf_addf(sb, ": %+.2f%%", pct(m->change));
	if (m->kind == MARK_TREND)
		pv_strbuf_addstr(sb, " a version");
	if (!isnan(m->lo) && !isnan(m->hi)) {
		pv_strbuf_addch(sb, ' ');
		interval_html(sb, m->lo, m->hi);
	}
	if (!isnan(m->p))
		pv_strbuf_addf(sb, ", p %.2g", m->p);
	if (m->flags & PV_CHANGEPOINT_NEWEST)
		pv_strbuf_addstr(sb, ", at the newest version");
	if (m->flags & PV_CHANGEPOINT_KNOWN)
		pv_strbuf_addstr(sb, ", known");
}

/*
 * Across versions: pv-series' marks, change points first, each linked to
 * its key's trend; or how many keys have a trend without marks.
 */
static void
series_html(const struct pv_render_decision *d, struct pv_strbuf *sb)
{
	size_t *trend_of, ntr = trend_index(d, &trend_of), i, t, n = 0;
	struct pv_strbuf text = PV_STRBUF_INIT;
	int kind;

	if (d->nmark == 0 && ntr == 0) {
		free(trend_of);
		return;
	}
	pv_strbuf_addstr(sb, "<h3 id=\"series\">Across versions</h3>\n");
	if (d->nmark == 0)
		pv_strbuf_addf(sb, "<p id=\"series-none\" class=\"none\">%zu "
			       "keys on three versions or more, on the Trend "
			       "page (<a href=\"#series=0\">the first</a>); no "
			       "changepoint, outlier or trend record "
			       "(pv-series) marks them.</p>\n", ntr);
	else
		pv_strbuf_addf(sb, "<ul id=\"series-list\" class=\"series\" "
			       "data-rows=\"%zu\">\n", d->nmark);
	for (kind = 0; kind < NMARKKIND; kind++)
		for (i = 0; i < d->nmark && n < PV_DECISION_ROWS; i++) {
			const struct mark *m = &d->mark[i];

			if (m->kind != kind)
				continue;
			n++;
			t = mark_trend(d, m, trend_of);
			pv_strbuf_addf(sb, "<li data-mark=\"%zu\">", i);
			if (t != NONE)
				pv_strbuf_addf(sb, "<a class=\"key\" href=\""
					       "#series=%zu\">", t);
			else
				pv_strbuf_addstr(sb, "<span class=\"key\">");
			key_html(d, sb, m->k, 1);
			pv_strbuf_addstr(sb, t != NONE ? "</a>: " :
					 "</span>: ");
			pv_strbuf_reset(&text);
			mark_text(d, &text, m);
			pv_html_escape(sb, text.buf, text.len);
			pv_strbuf_addstr(sb, "</li>\n");
		}
	if (d->nmark > 0)
		pv_strbuf_addstr(sb, "</ul>\n");
	if (d->nmark > PV_DECISION_ROWS)
		pv_strbuf_addf(sb, "<p class=\"more-rows\">%zu more.</p>\n",
			       d->nmark - PV_DECISION_ROWS);
	pv_strbuf_release(&text);
	free(trend_of);
}

void
pv_render_decision_html(struct pv_render_decision *d, struct pv_strbuf *sb,
			const struct pv_render_decision_prof *prof,
			size_t nprof)
{
	size_t *all = pv_xreallocarray(NULL, d->nv + 1, sizeof(*all));
	size_t *sel = pv_xreallocarray(NULL, d->nv + 1, sizeof(*sel));
	size_t n, nsel;

	n = select_class(d, -1, 0, all);
	pv_strbuf_addstr(sb, "<section id=\"summary\" data-page=\"summary\" "
			 "data-tab=\"Summary\">\n<h2>Night summary</h2>\n");
	counts_html(d, sb, all, n);
	nsel = select_class(d, PV_CLASS_UNCERTAIN, 0, sel);
	card_html(d, sb, all, n, nsel);

	pv_strbuf_addstr(sb, "<h3 id=\"regressions\">Regressions, most severe "
			 "first</h3>\n");
	nsel = select_class(d, PV_CLASS_REGRESSION, 1, sel);
	if (nsel == 0)
		pv_strbuf_addstr(sb, "<p id=\"regressions-none\" class=\"none\">"
				 "None.</p>\n");
	else
		ranked_html(d, sb, "regression-table", sel, nsel, 1, prof,
			    nprof);
	systematic_html(d, sb);

	pv_strbuf_addstr(sb, "<h3 id=\"improvements\">Improvements</h3>\n");
	nsel = select_class(d, PV_CLASS_IMPROVEMENT, 1, sel);
	if (nsel == 0)
		pv_strbuf_addstr(sb, "<p class=\"none\">None.</p>\n");
	else
		ranked_html(d, sb, "improvement-table", sel, nsel, 0, prof,
			    nprof);

	nsel = select_class(d, PV_CLASS_UNCERTAIN, 0, sel);
	uncertain_html(d, sb, sel, nsel);
	series_html(d, sb);
	pv_strbuf_addstr(sb, "</section>\n");
	free(all);
	free(sel);
}

void
pv_render_decision_results(struct pv_render_decision *d,
			   struct pv_strbuf *sb,
			   const struct pv_render_decision_prof *prof)
{
	size_t *sel = pv_xreallocarray(NULL, d->nv + 1, sizeof(*sel));
	size_t n, i, side;
	uint64_t k[NK];
	int s;

	n = select_class(d, -1, 0, sel);
	for (i = 0; i < n; i++) {
		const struct vd *v = &d->v[sel[i]];

		if (profile_of(v, prof, 1) != 0)
			continue;
		pv_strbuf_addstr(sb, "<tr class=\"result\"><th scope=\"row\">"
				 "<span class=\"kind\">result</span> ");
		key_html(d, sb, v->k, 1);
		if (str(d, v->k[K_UNIT]).len > 0) {
			pv_strbuf_addstr(sb, " (");
			esc(d, sb, v->k[K_UNIT]);
			pv_strbuf_addch(sb, ')');
		}
		pv_strbuf_addstr(sb, "</th>");
		memcpy(k, v->k, sizeof(k));
		k[K_B] = NOKEY;
		for (s = 0; s < 2; s++) {
			k[K_A] = v->k[s == 0 ? K_A : K_B];
			side = find_side(d, k);
			if (side == NONE || !d->sk[side].have_stat)
				pv_strbuf_addstr(sb, "<td class=\"absent\">"
						 "absent</td>");
			else
				pv_strbuf_addf(sb, "<td class=\"num\">%.6g "
					       "(median of %zu)</td>",
					       d->sk[side].median,
					       d->sk[side].nstat);
		}
		pv_strbuf_addf(sb, "<td class=\"num cls-%s\">%+.2f%% %s</td>"
			       "</tr>\n", pv_class_name(v->cls),
			       pct(v->change), pv_class_name(v->cls));
	}
	free(sel);
}

/* Writing: the data */

static void
num(struct pv_strbuf *sb, double v, int first)
{
	if (!first)
		pv_strbuf_addch(sb, ',');
	pv_html_json_num(sb, v);
}

static void
unum(struct pv_strbuf *sb, uint64_t v, int first)
{
	if (!first)
		pv_strbuf_addch(sb, ',');
	if (v == PV_NONE)
		pv_strbuf_addstr(sb, "null");
	else
		pv_strbuf_addu(sb, v);
}

/* the page's name of each key word, and of the columns of verdicts */
static const char *const kname[NK] = {
	"base", "target", "experiment", "suite", "test", "operation",
	"metric", "unit", "dir", "level"
};

static void
verdicts_json(const struct pv_render_decision *d, struct pv_strbuf *sb,
	      const size_t *all, size_t n,
	      const struct pv_render_decision_prof *prof, size_t nprof,
	      const size_t *trend_of)
{
	struct pv_strbuf f = PV_STRBUF_INIT;
	size_t i, s, side;
	uint64_t k[NK];
	int w;

	pv_strbuf_addstr(sb, "\"v\":{");
	for (w = 0; w < NK; w++) {
		pv_strbuf_addf(sb, "%s\"%s\":[", w > 0 ? "," : "", kname[w]);
		for (i = 0; i < n; i++)
			unum(sb, d->v[all[i]].k[w], i == 0);
		pv_strbuf_addch(sb, ']');
	}
#define COLUMN(name, expr, fn) do { \
		pv_strbuf_addstr(sb, ",\"" name "\":["); \
		for (i = 0; i < n; i++) { \
			const struct vd *v = &d->v[all[i]]; \
			fn(sb, expr, i == 0); \
		} \
		pv_strbuf_addch(sb, ']'); \
	} while (0)
	pv_strbuf_addstr(sb, ",\"id\":[");
	for (i = 0; i < n; i++)
		unum(sb, all[i], i == 0);
	pv_strbuf_addch(sb, ']');
	COLUMN("cls", (uint64_t)v->cls, unum);
	COLUMN("sev", (uint64_t)v->severity, unum);
	COLUMN("band", (uint64_t)v->band, unum);
	COLUMN("ch", v->change, num);
	COLUMN("lo", v->lo, num);
	COLUMN("hi", v->hi, num);
	COLUMN("q", v->q, num);
	COLUMN("nb", (uint64_t)v->nb, unum);
	COLUMN("nt", (uint64_t)v->nt, unum);
	COLUMN("runs", (uint64_t)v->runs, unum);
	COLUMN("reason", (uint64_t)v->reason, unum);
	COLUMN("mde", v->mde, num);
	COLUMN("pw", v->p_welch, num);
	COLUMN("pm", v->p_mwu, num);
	COLUMN("g", v->g, num);
	COLUMN("cliff", v->cliff, num);
	COLUMN("rcvb", v->rcv_b, num);
	COLUMN("rcvt", v->rcv_t, num);
	COLUMN("outb", v->have_cmp ? (uint64_t)v->out_b : PV_NONE, unum);
	COLUMN("outt", v->have_cmp ? (uint64_t)v->out_t : PV_NONE, unum);
#undef COLUMN
	pv_strbuf_addstr(sb, ",\"flags\":[");
	for (i = 0; i < n; i++) {
		pv_strbuf_reset(&f);
		if (d->v[all[i]].flags != 0)
			pv_rec_cmp_flags_add(&f, d->v[all[i]].flags);
		if (i > 0)
			pv_strbuf_addch(sb, ',');
		pv_html_json(sb, f.len > 0 ? f.buf + 1 : "",
			     f.len > 0 ? f.len - 1 : 0);
	}
	pv_strbuf_addstr(sb, "],\"prof\":[");
	for (i = 0; i < n; i++) {
		s = profile_of(&d->v[all[i]], prof, nprof);
		if (i > 0)
			pv_strbuf_addch(sb, ',');
		if (s == NONE)
			pv_strbuf_addstr(sb, "-1");
		else
			pv_strbuf_addu(sb, s);
	}
	/* the side keys of each verdict, baseline then target */
	for (s = 0; s < 2; s++) {
		pv_strbuf_addstr(sb, s == 0 ? "],\"bs\":[" : "],\"ts\":[");
		for (i = 0; i < n; i++) {
			memcpy(k, d->v[all[i]].k, sizeof(k));
			k[K_A] = k[s == 0 ? K_A : K_B];
			k[K_B] = NOKEY;
			side = find_side(d, k);
			if (i > 0)
				pv_strbuf_addch(sb, ',');
			if (side == NONE)
				pv_strbuf_addstr(sb, "-1");
			else
				pv_strbuf_addu(sb, side);
		}
	}
	pv_strbuf_addstr(sb, "],\"trend\":[");
	for (i = 0; i < n; i++) {
		memcpy(k, d->v[all[i]].k, sizeof(k));
		k[K_B] = NOKEY;
		side = find_side(d, k);
		if (side != NONE)
			side = trend_of[side];
		if (side == NONE) {
			k[K_A] = d->v[all[i]].k[K_B];
			side = find_side(d, k);
			if (side != NONE)
				side = trend_of[side];
		}
		if (i > 0)
			pv_strbuf_addch(sb, ',');
		if (side == NONE)
			pv_strbuf_addstr(sb, "-1");
		else
			pv_strbuf_addu(sb, side);
	}
	pv_strbuf_addstr(sb, "]}");
	pv_strbuf_release(&f);
}

/* The run values and stat records of every side key, as columns. */
static void
sides_json(const struct pv_render_decision *d, struct pv_strbuf *sb)
{
	size_t i, j;
	int first;

	pv_strbuf_addstr(sb, "\"sk\":{\"version\":[");
	for (i = 0; i < d->nsk; i++)
		unum(sb, d->sk[i].k[K_A], i == 0);
	pv_strbuf_addstr(sb, "],\"n\":[");
	for (i = 0; i < d->nsk; i++)
		unum(sb, d->sk[i].n, i == 0);
	pv_strbuf_addstr(sb, "],\"more\":[");
	for (i = 0; i < d->nsk; i++)
		unum(sb, d->sk[i].more, i == 0);
	pv_strbuf_addstr(sb, "],\"runval\":[");
	for (i = 0; i < d->nsk; i++)
		unum(sb, (uint64_t)d->sk[i].runval, i == 0);
	pv_strbuf_addstr(sb, "],\"run\":[");
	for (i = 0, first = 1; i < d->nsk; i++)
		for (j = 0; j < d->sk[i].n; j++, first = 0)
			unum(sb, d->sk[i].run[j], first);
	pv_strbuf_addstr(sb, "],\"val\":[");
	for (i = 0, first = 1; i < d->nsk; i++)
		for (j = 0; j < d->sk[i].n; j++, first = 0)
			num(sb, d->sk[i].val[j], first);
	pv_strbuf_addstr(sb, "],\"med\":[");
	for (i = 0; i < d->nsk; i++)
		num(sb, d->sk[i].have_stat ? d->sk[i].median : NAN, i == 0);
	pv_strbuf_addstr(sb, "],\"lo\":[");
	for (i = 0; i < d->nsk; i++)
		num(sb, d->sk[i].have_stat ? d->sk[i].lo : NAN, i == 0);
	pv_strbuf_addstr(sb, "],\"hi\":[");
	for (i = 0; i < d->nsk; i++)
		num(sb, d->sk[i].have_stat ? d->sk[i].hi : NAN, i == 0);
	pv_strbuf_addstr(sb, "],\"nstat\":[");
	for (i = 0; i < d->nsk; i++)
		unum(sb, d->sk[i].nstat, i == 0);
	pv_strbuf_addstr(sb, "]}");
}

/*
 * The file of a measured run's output, as pv-collect(1) names it:
 * "DIR/EXPERIMENT-run-NNN.stdWHAT", WHAT "out" or "err"; with
 * pv_render_decision_set_artifacts(), DIR's last part under that directory.
 * (lib/runner.c names them when it writes them; its object brings the sampler and libdw with it, which
 * pv-render does not link.)
 */
static void
artifact(const struct pv_render_decision *d, struct pv_strbuf *sb,
	 struct pv_str dir, struct pv_str experiment, uint64_t run,
	 const char *what)
{
	size_t n = dir.len;

	if (d->artifacts != NULL) {
		/* the directory's last part, under where it is now */
		while (n > 0 && dir.s[n - 1] == '/')
			n--;
		dir.len = n;
		while (n > 0 && dir.s[n - 1] != '/')
			n--;
		pv_strbuf_addstr(sb, d->artifacts);
		if (dir.len > n) {	/* none when the directory was "/" */
			pv_strbuf_addch(sb, '/');
			pv_strbuf_add(sb, dir.s + n, dir.len - n);
		}
	} else {
		pv_strbuf_add(sb, dir.s, dir.len);
	}
	pv_strbuf_addch(sb, '/');
	pv_strbuf_add(sb, experiment.s, experiment.len);
	pv_strbuf_addf(sb, "-run-%03llu.std%s", (unsigned long long)run,
		       what);
}

/* A section's facts and, where pv-collect kept them, its runs' files. */
static void
sect_json(const struct pv_render_decision *d, struct pv_strbuf *sb,
	  const struct pv_html_sect *s)
{
	struct pv_strbuf path = PV_STRBUF_INIT;
	struct pv_str dir = { NULL, 0 }, v;
	uint64_t run;
	size_t i, n;

	pv_strbuf_addch(sb, '[');
	unum(sb, s->role, 1);
	unum(sb, s->version, 0);
	unum(sb, s->experiment, 0);
	unum(sb, s->level, 0);
	pv_strbuf_addstr(sb, ",[");
	for (i = 0; i < s->nfact; i++) {
		unum(sb, s->fact[i].key, i == 0);
		unum(sb, s->fact[i].value, 0);
		unum(sb, (uint64_t)s->fact[i].env, 0);
		if (!s->fact[i].env && pv_str_eq(str(d, s->fact[i].key),
						 "artifacts"))
			dir = str(d, s->fact[i].value);
	}
	pv_strbuf_addstr(sb, "],[");
	/* RUN, its stdout and stderr, as pv-collect(1) names them */
	for (i = n = 0; dir.len > 0 && i < s->nfact; i++) {
		if (s->fact[i].env || !pv_str_eq(str(d, s->fact[i].key), "run"))
			continue;
		v = str(d, s->fact[i].value);
		if (pv_parse_u64(v.s, strcspn(v.s, " "), &run) < 0)
			continue;
		if (n++ > 0)
			pv_strbuf_addch(sb, ',');
		pv_strbuf_addu(sb, run);
		pv_strbuf_reset(&path);
		artifact(d, &path, dir, str(d, s->experiment), run, "out");
		pv_strbuf_addch(sb, ',');
		pv_html_json(sb, path.buf, path.len);
		pv_strbuf_reset(&path);
		artifact(d, &path, dir, str(d, s->experiment), run, "err");
		pv_strbuf_addch(sb, ',');
		pv_html_json(sb, path.buf, path.len);
	}
	pv_strbuf_addstr(sb, "]]");
	pv_strbuf_release(&path);
}

void
pv_render_decision_json(struct pv_render_decision *d, struct pv_strbuf *sb,
			const struct pv_html_sect *sect, size_t nsect,
			const struct pv_render_decision_prof *prof,
			size_t nprof)
{
	size_t *all = pv_xreallocarray(NULL, d->nv + 1, sizeof(*all));
	size_t *order = pv_xreallocarray(NULL, d->nsk + 1, sizeof(*order));
	size_t *trend_of = pv_xreallocarray(NULL, d->nsk + 1,
					    sizeof(*trend_of));
	struct pv_strbuf text = PV_STRBUF_INIT;
	struct trend *tr;
	size_t n, ntr, i, j;
	int w;

	n = select_class(d, -1, 0, all);
	ntr = trends(d, order, &tr, trend_of);
	pv_strbuf_addstr(sb, "{\"str\":[");
	for (i = 0; i < d->str->nsym; i++) {
		struct pv_str s = str(d, i);

		if (i > 0)
			pv_strbuf_addch(sb, ',');
		pv_html_json(sb, s.s, s.len);
	}
	pv_strbuf_addstr(sb, "],\"classes\":[");
	for (i = 0; i < 4; i++)
		pv_strbuf_addf(sb, "%s\"%s\"", i > 0 ? "," : "",
			       pv_class_name((enum pv_class)i));
	pv_strbuf_addstr(sb, "],\"bands\":[");
	for (i = 0; i < 4; i++)
		pv_strbuf_addf(sb, "%s\"%s\"", i > 0 ? "," : "",
			       pv_band_name((enum pv_band)i));
	pv_strbuf_addstr(sb, "],");
	verdicts_json(d, sb, all, n, prof, nprof, trend_of);
	pv_strbuf_addstr(sb, ",\"sys\":[");
	for (i = 0; i < d->nsys; i++) {
		const struct sysreg *s = &d->sys[i];

		pv_strbuf_addstr(sb, i > 0 ? ",{" : "{");
		for (w = 0; w < NK - 1; w++)
			pv_strbuf_addf(sb, "%s\"%s\":%llu", w > 0 ? "," : "",
				       kname[w], (unsigned long long)s->k[w]);
		pv_strbuf_addf(sb, ",\"levels\":%zu,\"regressed\":%zu,"
			       "\"list\":%u,\"red\":%zu,\"yellow\":%zu,"
			       "\"green\":%zu,\"min\":", s->s.levels,
			       s->s.regressed, s->levels,
			       s->s.bands[PV_BAND_RED],
			       s->s.bands[PV_BAND_YELLOW],
			       s->s.bands[PV_BAND_GREEN]);
		pv_html_json_num(sb, s->s.dmin);
		pv_strbuf_addstr(sb, ",\"max\":");
		pv_html_json_num(sb, s->s.dmax);
		pv_strbuf_addstr(sb, ",\"pooled\":");
		pv_html_json_num(sb, s->s.pooled);
		pv_strbuf_addstr(sb, ",\"p\":");
		pv_html_json_num(sb, s->s.p);
		pv_strbuf_addch(sb, '}');
	}
	pv_strbuf_addstr(sb, "],");
	sides_json(d, sb);
	pv_strbuf_addstr(sb, ",\"trends\":[");
	for (i = 0; i < ntr; i++) {
		pv_strbuf_addstr(sb, i > 0 ? ",[" : "[");
		for (j = 0; j < tr[i].n; j++)
			unum(sb, order[tr[i].first + j], j == 0);
		pv_strbuf_addch(sb, ']');
	}
	pv_strbuf_addstr(sb, "],\"tkey\":[");
	for (i = 0; i < ntr; i++) {
		const uint64_t *k = d->sk[order[tr[i].first]].k;

		pv_strbuf_addstr(sb, i > 0 ? ",[" : "[");
		for (w = K_EXPERIMENT; w < NK; w++)
			unum(sb, k[w], w == K_EXPERIMENT);
		pv_strbuf_addch(sb, ']');
	}
	pv_strbuf_addstr(sb, "],\"cp\":[");
	for (i = 0; i < d->nmark; i++) {
		static const char *const kind[NMARKKIND] = {
			"cp", "outlier", "trend"
		};
		const struct mark *m = &d->mark[i];
		size_t t = mark_trend(d, m, trend_of);

		pv_strbuf_addf(sb, "%s{\"kind\":\"%s\"", i > 0 ? "," : "",
			       kind[m->kind]);
		for (w = K_EXPERIMENT; w < NK; w++) {
			pv_strbuf_addf(sb, ",\"%s\":", kname[w]);
			unum(sb, m->k[w], 1);
		}
		pv_strbuf_addf(sb, ",\"a\":%u,\"b\":%u,\"ch\":", m->a, m->b);
		pv_html_json_num(sb, m->change);
		pv_strbuf_addstr(sb, ",\"lo\":");
		pv_html_json_num(sb, m->lo);
		pv_strbuf_addstr(sb, ",\"hi\":");
		pv_html_json_num(sb, m->hi);
		pv_strbuf_addstr(sb, ",\"p\":");
		pv_html_json_num(sb, m->p);
		pv_strbuf_addf(sb, ",\"newest\":%s,\"known\":%s,\"trend\":",
			       m->flags & PV_CHANGEPOINT_NEWEST ? "true" :
			       "false", m->flags & PV_CHANGEPOINT_KNOWN ?
			       "true" : "false");
		if (t == NONE)
			pv_strbuf_addstr(sb, "-1");
		else
			pv_strbuf_addu(sb, t);
		pv_strbuf_reset(&text);
		mark_text(d, &text, m);
		pv_strbuf_addstr(sb, ",\"txt\":");
		pv_html_json(sb, text.buf, text.len);
		pv_strbuf_addch(sb, '}');
	}
	pv_strbuf_release(&text);
	pv_strbuf_addstr(sb, "],\"sect\":[");
	for (i = 0; i < nsect; i++) {
		if (i > 0)
			pv_strbuf_addch(sb, ',');
		sect_json(d, sb, &sect[i]);
	}
	pv_strbuf_addstr(sb, "]}");
	free(all);
	free(order);
	free(trend_of);
	free(tr);
}
