/*
 * render_verdict: the ranked text summary and JUnit XML of verdicts (see
 * render_verdict.h).  Percentages are 100 (exp(x) - 1) of the oriented log
 * changes, so a regression always reads negative, whichever way its metric
 * is better.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "render_verdict.h"
#include "strbuf.h"
#include "textenc.h"
#include "xalloc.h"

void
pv_render_verdict_init(struct pv_render_verdict *r)
{
	memset(r, 0, sizeof(*r));
}

void
pv_render_verdict_release(struct pv_render_verdict *r)
{
	free(r->v);
	free(r->sys);
	free(r->det);
	pv_arena_release(&r->arena);
	memset(r, 0, sizeof(*r));
}

static struct pv_str
keep(struct pv_render_verdict *r, struct pv_str s)
{
	struct pv_str k = { pv_arena_memdup(&r->arena, s.s, s.len), s.len };

	return k;
}

static void
keep_key(struct pv_render_verdict *r, struct pv_runkey *k)
{
	k->role = keep(r, k->role);
	k->version = keep(r, k->version);
	k->experiment = keep(r, k->experiment);
	k->suite = keep(r, k->suite);
	k->test = keep(r, k->test);
	k->operation = keep(r, k->operation);
	k->metric = keep(r, k->metric);
	k->unit = keep(r, k->unit);
}

int
pv_render_verdict_add(struct pv_render_verdict *r,
		      const struct pv_record *rec)
{
	if (rec->type != PV_REC_OTHER)
		return 0;
	if (pv_str_eq(rec->field[0], "verdict")) {
		struct pv_verdict *v;
		struct pv_str reason;

		PV_GROW(r->v, r->nv + 1, r->valloc);
		v = &r->v[r->nv];
		if (pv_rec_verdict_parse(rec, v, &reason, &r->err) < 0)
			return -1;
		keep_key(r, &v->cmp.key);
		v->reason = pv_arena_memdup(&r->arena, reason.s, reason.len);
		r->nv++;
		return 1;
	}
	if (pv_str_eq(rec->field[0], "systematic")) {
		struct pv_render_verdict_sys *s;
		struct pv_str levels;

		PV_GROW(r->sys, r->nsys + 1, r->sysalloc);
		s = &r->sys[r->nsys];
		if (pv_rec_systematic_parse(rec, &s->key, &s->s, &levels,
					    &r->err) < 0)
			return -1;
		keep_key(r, &s->key);
		s->levels = pv_arena_memdup(&r->arena, levels.s, levels.len);
		r->nsys++;
		return 1;
	}
	if (pv_str_eq(rec->field[0], "detect")) {
		struct pv_render_verdict_detect *d;

		PV_GROW(r->det, r->ndet + 1, r->detalloc);
		d = &r->det[r->ndet];
		if (pv_rec_detect_parse(rec, &d->c, &d->mde, &r->err) < 0)
			return -1;
		keep_key(r, &d->c.key);
		r->ndet++;
		return 1;
	}
	return 0;
}

/*
 * The percentage of the change of log d, "%+.2f" until a million percent
 * and three digits from there, never "inf" (numfmt.h); in buf.
 */
static const char *
pct(char buf[PV_NUMFMT_FIXED_MAX], double d)
{
	pv_numfmt_change(buf, d, 2, 1);
	return buf;
}

static void
put_str(FILE *out, struct pv_str s)
{
	if (s.len == 0)
		putc('-', out);
	else
		pv_write_visible(out, s.s, s.len);	/* for a terminal */
}

/* "suite test operation metric [level N]" */
static void
put_key(FILE *out, const struct pv_runkey *k, int level)
{
	put_str(out, k->suite);
	putc(' ', out);
	put_str(out, k->test);
	putc(' ', out);
	put_str(out, k->operation);
	putc(' ', out);
	put_str(out, k->metric);
	if (level && k->level != PV_NONE)
		fprintf(out, " level %llu", (unsigned long long)k->level);
}

static void
put_pair(FILE *out, const struct pv_runkey *k)
{
	put_str(out, k->role);
	fputs(" -> ", out);
	put_str(out, k->version);
}

/* regressions: severity down, then change up, then key */
static int
cmp_rank(const void *a, const void *b)
{
	const struct pv_verdict *x = *(const struct pv_verdict *const *)a;
	const struct pv_verdict *y = *(const struct pv_verdict *const *)b;

	if (x->severity != y->severity)
		return x->severity > y->severity ? -1 : 1;
	if (x->cmp.change != y->cmp.change)
		return x->cmp.change < y->cmp.change ? -1 : 1;
	return pv_rec_key_cmp(&x->cmp.key, &y->cmp.key);
}

static size_t
select_class(struct pv_render_verdict *r, enum pv_class c,
	     const struct pv_verdict **out)
{
	size_t i, n = 0;

	for (i = 0; i < r->nv; i++)
		if (r->v[i].cls == c)
			out[n++] = &r->v[i];
	return n;
}

static void
put_interval(FILE *out, const struct pv_verdict *v)
{
	if (isnan(v->cmp.lo))
		fprintf(out, "%-20s", "-");
	else {
		char buf[2 * PV_NUMFMT_FIXED_MAX + 8];
		char lo[PV_NUMFMT_FIXED_MAX], hi[PV_NUMFMT_FIXED_MAX];

		snprintf(buf, sizeof(buf), "[%s%%, %s%%]", pct(lo, v->cmp.lo),
			 pct(hi, v->cmp.hi));
		fprintf(out, "%-20s", buf);
	}
}

/* " [flag,...]" of a verdict's flags, nothing for none */
static void
put_flags(FILE *out, const struct pv_verdict *v)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;

	if (v->flags == 0)
		return;
	pv_rec_cmp_flags_add(&sb, v->flags);
	/* the field's TAB first */
	fprintf(out, " [%s]", sb.buf + 1);
	pv_strbuf_release(&sb);
}

static void
put_ranked(FILE *out, const struct pv_verdict **sel, size_t n, int band)
{
	size_t i;

	fprintf(out, "%5s %4s %-7s %9s %-20s %8s %6s  %s\n", "rank", "sev",
		band ? "band" : "", "change", "interval", "q-value", "runs",
		"key");
	for (i = 0; i < n; i++) {
		const struct pv_verdict *v = sel[i];

		char c[PV_NUMFMT_FIXED_MAX];

		fprintf(out, "%5zu %4d %-7s %8s%% ", i + 1, v->severity,
			band ? pv_band_name(v->band) : "",
			pct(c, v->cmp.change));
		put_interval(out, v);
		fprintf(out, " %8.2g %3zu/%-2zu  ", v->qvalue, v->cmp.nb,
			v->cmp.nt);
		put_key(out, &v->cmp.key, 1);
		fputs(" (", out);
		put_pair(out, &v->cmp.key);
		putc(')', out);
		put_flags(out, v);
		putc('\n', out);
	}
}

static int
secondary(const struct pv_verdict *v)
{
	return (v->flags & PV_CMP_SECONDARY) != 0;
}

void
pv_render_verdict_text(struct pv_render_verdict *r, FILE *out)
{
	const struct pv_verdict **sel;
	size_t count[2][4] = { { 0 } }, bands[2][4] = { { 0 } }, i, n, k;
	size_t total[2] = { 0, 0 };

	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	sel = pv_xreallocarray(NULL, r->nv ? r->nv : 1, sizeof(*sel));
	/* the primary metrics' counts; the secondary ones' apart */
	for (i = 0; i < r->nv; i++) {
		k = (size_t)secondary(&r->v[i]);
		total[k]++;
		count[k][r->v[i].cls]++;
		if (r->v[i].cls == PV_CLASS_REGRESSION)
			bands[k][r->v[i].band]++;
	}
	for (k = 0; k < 2; k++) {
		if (k == 1 && total[1] == 0)
			break;
		fprintf(out, "%zu %scomparisons: %zu regressions (red %zu, "
			"yellow %zu, green %zu), %zu improvements, %zu no "
			"change, %zu uncertain\n", total[k],
			k ? "secondary " : "", count[k][PV_CLASS_REGRESSION],
			bands[k][PV_BAND_RED], bands[k][PV_BAND_YELLOW],
			bands[k][PV_BAND_GREEN], count[k][PV_CLASS_IMPROVEMENT],
			count[k][PV_CLASS_NO_CHANGE],
			count[k][PV_CLASS_UNCERTAIN]);
	}

	n = select_class(r, PV_CLASS_REGRESSION, sel);
	if (n > 0) {
		/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
		qsort(sel, n, sizeof(*sel), cmp_rank);
		fputs("\nRegressions, most severe first:\n", out);
		put_ranked(out, sel, n, 1);
	}

	if (r->nsys > 0) {
		fputs("\nSystematic regressions (every level worse, pooled "
		      "effect significant):\n", out);
		for (i = 0; i < r->nsys; i++) {
			const struct pv_render_verdict_sys *s = &r->sys[i];
			char b0[PV_NUMFMT_FIXED_MAX], b1[PV_NUMFMT_FIXED_MAX];
			char b2[PV_NUMFMT_FIXED_MAX];

			fputs("  ", out);
			put_key(out, &s->key, 0);
			fputs("\n    versions: ", out);
			put_pair(out, &s->key);
			fprintf(out, "\n    levels affected: %zu of %zu "
				"worse [%s], %zu regressions\n", s->s.levels,
				s->s.levels, s->levels, s->s.regressed);
			fprintf(out, "    severity: red %zu, yellow %zu, "
				"green %zu\n", s->s.bands[PV_BAND_RED],
				s->s.bands[PV_BAND_YELLOW],
				s->s.bands[PV_BAND_GREEN]);
			fprintf(out, "    change range: %s%% to "
				"%s%% (pooled %s%%, p %.2g)\n",
				pct(b0, s->s.dmin), pct(b1, s->s.dmax),
				pct(b2, s->s.pooled), s->s.p);
		}
	}

	n = select_class(r, PV_CLASS_IMPROVEMENT, sel);
	if (n > 0) {
		/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
		qsort(sel, n, sizeof(*sel), cmp_rank);
		fputs("\nImprovements:\n", out);
		put_ranked(out, sel, n, 0);
	}

	n = select_class(r, PV_CLASS_UNCERTAIN, sel);
	if (n > 0) {
		fputs("\nUncertain, and what would decide them:\n", out);
		for (i = 0; i < n; i++) {
			const struct pv_verdict *v = sel[i];

			fputs("  ", out);
			put_key(out, &v->cmp.key, 1);
			fputs(" (", out);
			put_pair(out, &v->cmp.key);
			putc(')', out);
			put_flags(out, v);
			fprintf(out, ": %s\n", v->reason);
		}
	}

	if (r->ndet > 0) {
		fputs("\nReport card: the smallest change each comparison "
		      "could detect (80% power, 5% level):\n", out);
		fprintf(out, "  %7s %8s %8s %9s  %s\n", "runs", "rcv-base",
			"rcv-targ", "mde", "key");
		for (i = 0; i < r->ndet; i++) {
			const struct pv_render_verdict_detect *d = &r->det[i];
			char runs[32];

			snprintf(runs, sizeof(runs), "%zu/%zu", d->c.nb,
				 d->c.nt);
			fprintf(out, "  %7s ", runs);
			if (isnan(d->c.rcv_b))
				fprintf(out, "%8s %8s ", "-", "-");
			else
				fprintf(out, "%7.2f%% %7.2f%% ",
					100 * d->c.rcv_b, 100 * d->c.rcv_t);
			if (isnan(d->mde))
				fprintf(out, "%9s  ", "-");
			else
				fprintf(out, "%8.2f%%  ",
					100 * (1 - exp(-d->mde)));
			put_key(out, &d->c.key, 1);
			putc('\n', out);
		}
	}
	free(sel);
}

/* XML text: the entities, and U+FFFD for what XML 1.0 cannot hold */
static void
xml(struct pv_strbuf *sb, const char *s, size_t len)
{
	pv_textenc_xml(sb, s, len);
}

static void
xml_str(struct pv_strbuf *sb, struct pv_str s)
{
	if (s.len == 0)
		pv_strbuf_addch(sb, '-');
	else
		xml(sb, s.s, s.len);
}

/*
 * The JUnit test suites: one for each suite of each pair of versions,
 * whatever the experiments (the benchmarks of one night are collected one
 * by one, each its own experiment): the verdicts' indexes by BASE, TARGET
 * and SUITE, in their order otherwise.
 */
static const struct pv_verdict *junit_v;	/* for qsort */

static int
cmp_suite(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct pv_runkey *x = &junit_v[a].cmp.key;
	const struct pv_runkey *y = &junit_v[b].cmp.key;
	int c;

	if ((c = pv_str_cmp(x->role, y->role)) != 0 ||
	    (c = pv_str_cmp(x->version, y->version)) != 0 ||
	    (c = pv_str_cmp(x->suite, y->suite)) != 0)
		return c;
	return (a > b) - (a < b);
}

static int
same_suite(const struct pv_runkey *a, const struct pv_runkey *b)
{
	return pv_str_cmp(a->role, b->role) == 0 &&
		pv_str_cmp(a->version, b->version) == 0 &&
		pv_str_cmp(a->suite, b->suite) == 0;
}

/* The test case's name but the experiment: test, key, level. */
static int
cmp_case(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct pv_runkey *x = &junit_v[a].cmp.key;
	const struct pv_runkey *y = &junit_v[b].cmp.key;
	int c;

	if ((c = pv_str_cmp(x->test, y->test)) != 0 ||
	    (c = pv_str_cmp(x->operation, y->operation)) != 0 ||
	    (c = pv_str_cmp(x->metric, y->metric)) != 0 ||
	    (c = pv_str_cmp(x->unit, y->unit)) != 0)
		return c;
	if (x->direction != y->direction)
		return x->direction < y->direction ? -1 : 1;
	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return (a > b) - (a < b);
}

/*
 * Mark the verdicts of idx[0..n) (one test suite) whose test case would
 * have the name of another's, which only their experiments tell apart:
 * those names get the experiment.
 */
static void
mark_same_names(const size_t *idx, size_t n, unsigned char *dup)
{
	size_t *s = pv_xreallocarray(NULL, n ? n : 1, sizeof(*s)), i;

	memcpy(s, idx, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_case);
	for (i = 1; i < n; i++) {
		const struct pv_runkey *x = &junit_v[s[i - 1]].cmp.key;
		const struct pv_runkey *y = &junit_v[s[i]].cmp.key;

		if (pv_str_cmp(x->test, y->test) == 0 &&
		    pv_str_cmp(x->operation, y->operation) == 0 &&
		    pv_str_cmp(x->metric, y->metric) == 0 &&
		    pv_str_cmp(x->unit, y->unit) == 0 &&
		    x->direction == y->direction && x->level == y->level)
			dup[s[i - 1]] = dup[s[i]] = 1;
	}
	free(s);
}

static void
junit_case(struct pv_strbuf *sb, const struct pv_verdict *v, int dup)
{
	const struct pv_runkey *key = &v->cmp.key;

	pv_strbuf_addstr(sb, "    <testcase classname=\"");
	xml_str(sb, key->suite);
	pv_strbuf_addch(sb, '.');
	xml_str(sb, key->test);
	pv_strbuf_addstr(sb, "\" name=\"");
	xml_str(sb, key->operation);
	pv_strbuf_addch(sb, ' ');
	xml_str(sb, key->metric);
	if (key->level != PV_NONE)
		pv_strbuf_addf(sb, " level %llu",
			       (unsigned long long)key->level);
	if (dup) {
		pv_strbuf_addstr(sb, " (experiment ");
		xml_str(sb, key->experiment);
		pv_strbuf_addch(sb, ')');
	}
	pv_strbuf_addstr(sb, "\" time=\"0\">\n");
	if (v->cls == PV_CLASS_REGRESSION) {
		char b0[PV_NUMFMT_FIXED_MAX];

		pv_strbuf_addf(sb, "      <failure type=\"regression\" "
			       "message=\"%s severity %d: %s%%\">",
			       pv_band_name(v->band), v->severity,
			       pct(b0, v->cmp.change));
		xml(sb, v->reason, strlen(v->reason));
		pv_strbuf_addstr(sb, "</failure>\n");
	} else if (v->cls == PV_CLASS_UNCERTAIN) {
		pv_strbuf_addstr(sb, "      <skipped message=\"");
		xml(sb, v->reason, strlen(v->reason));
		pv_strbuf_addstr(sb, "\"/>\n");
	} else {
		pv_strbuf_addf(sb, "      <system-out>%s: ",
			       pv_class_name(v->cls));
		xml(sb, v->reason, strlen(v->reason));
		pv_strbuf_addstr(sb, "</system-out>\n");
	}
	pv_strbuf_addstr(sb, "    </testcase>\n");
}

/* The systematic regressions of a test suite, as its system-out. */
static void
junit_systematic(struct pv_strbuf *sb, const struct pv_render_verdict *r,
		 const struct pv_runkey *g)
{
	size_t i;
	int any = 0;

	for (i = 0; i < r->nsys; i++) {
		const struct pv_render_verdict_sys *s = &r->sys[i];
		char b0[PV_NUMFMT_FIXED_MAX];

		if (!same_suite(&s->key, g))
			continue;
		if (!any)
			pv_strbuf_addstr(sb, "    <system-out>Systematic "
					 "regressions (every level worse):\n");
		any = 1;
		xml_str(sb, s->key.test);
		pv_strbuf_addch(sb, ' ');
		xml_str(sb, s->key.operation);
		pv_strbuf_addch(sb, ' ');
		xml_str(sb, s->key.metric);
		pv_strbuf_addstr(sb, ": levels ");
		xml(sb, s->levels, strlen(s->levels));
		pv_strbuf_addf(sb, ", %zu of %zu worse, pooled %s%% "
			       "(p %.2g)\n", s->s.levels, s->s.levels,
			       pct(b0, s->s.pooled), s->s.p);
	}
	if (any)
		pv_strbuf_addstr(sb, "    </system-out>\n");
}

void
pv_render_verdict_junit(struct pv_render_verdict *r, FILE *out)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	size_t i, j, k, fails = 0, *idx;
	unsigned char *dup;

	for (i = 0; i < r->nv; i++)
		fails += r->v[i].cls == PV_CLASS_REGRESSION;
	idx = pv_xreallocarray(NULL, r->nv ? r->nv : 1, sizeof(*idx));
	dup = pv_xcalloc(r->nv ? r->nv : 1, 1);
	for (i = 0; i < r->nv; i++)
		idx[i] = i;
	junit_v = r->v;
	qsort(idx, r->nv, sizeof(*idx), cmp_suite);
	/* junit-10.xsd: testsuites has no skipped, every testsuite errors */
	pv_strbuf_addf(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		       "<testsuites name=\"pv-classify\" tests=\"%zu\" "
		       "failures=\"%zu\" errors=\"0\">\n", r->nv, fails);
	for (i = 0; i < r->nv; i = j) {
		size_t sf = 0, ss = 0;
		const struct pv_runkey *g = &r->v[idx[i]].cmp.key;

		for (j = i; j < r->nv && same_suite(g, &r->v[idx[j]].cmp.key);
		     j++) {
			sf += r->v[idx[j]].cls == PV_CLASS_REGRESSION;
			ss += r->v[idx[j]].cls == PV_CLASS_UNCERTAIN;
		}
		mark_same_names(idx + i, j - i, dup);
		pv_strbuf_addstr(&sb, "  <testsuite name=\"");
		xml_str(&sb, g->suite);
		pv_strbuf_addstr(&sb, " (");
		xml_str(&sb, g->role);
		pv_strbuf_addstr(&sb, " -&gt; ");
		xml_str(&sb, g->version);
		pv_strbuf_addf(&sb, ")\" tests=\"%zu\" failures=\"%zu\" "
			       "errors=\"0\" skipped=\"%zu\">\n", j - i, sf,
			       ss);
		for (k = i; k < j; k++) {
			junit_case(&sb, &r->v[idx[k]], dup[idx[k]]);
			if (sb.len >= 65536) {
				fwrite(sb.buf, 1, sb.len, out);
				pv_strbuf_reset(&sb);
			}
		}
		junit_systematic(&sb, r, g);
		pv_strbuf_addstr(&sb, "  </testsuite>\n");
	}
	pv_strbuf_addstr(&sb, "</testsuites>\n");
	fwrite(sb.buf, 1, sb.len, out);
	pv_strbuf_release(&sb);
	free(idx);
	free(dup);
	junit_v = NULL;
}
