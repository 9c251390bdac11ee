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
		fputs(")\n", out);
	}
}

void
pv_render_verdict_text(struct pv_render_verdict *r, FILE *out)
{
	const struct pv_verdict **sel;
	size_t count[4] = { 0 }, bands[4] = { 0 }, i, n;

	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	sel = pv_xreallocarray(NULL, r->nv ? r->nv : 1, sizeof(*sel));
	for (i = 0; i < r->nv; i++) {
		count[r->v[i].cls]++;
		if (r->v[i].cls == PV_CLASS_REGRESSION)
			bands[r->v[i].band]++;
	}
	fprintf(out, "%zu comparisons: %zu regressions (red %zu, yellow %zu, "
		"green %zu), %zu improvements, %zu no change, %zu uncertain\n",
		r->nv, count[PV_CLASS_REGRESSION], bands[PV_BAND_RED],
		bands[PV_BAND_YELLOW], bands[PV_BAND_GREEN],
		count[PV_CLASS_IMPROVEMENT], count[PV_CLASS_NO_CHANGE],
		count[PV_CLASS_UNCERTAIN]);

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
		fputs("\nUncertain (more runs would likely decide):\n", out);
		for (i = 0; i < n; i++) {
			const struct pv_verdict *v = sel[i];

			fputs("  ", out);
			put_key(out, &v->cmp.key, 1);
			fputs(" (", out);
			put_pair(out, &v->cmp.key);
			fprintf(out, "): %s", v->reason);
			if (v->runs > 1000)
				fputs("; more than 1000 runs a side", out);
			else if (v->runs > 0)
				fprintf(out, "; about %zu runs a side", v->runs);
			putc('\n', out);
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

/* XML text: the five entities; control bytes XML 1.0 cannot hold as '?' */
static void
xml(FILE *out, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&apos;", out);
			break;
		default:
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
				putc('?', out);
			else
				putc(c, out);
		}
	}
}

static void
xml_str(FILE *out, struct pv_str s)
{
	if (s.len == 0)
		putc('-', out);
	else
		xml(out, s.s, s.len);
}

static int
same_suite(const struct pv_runkey *a, const struct pv_runkey *b)
{
	return pv_str_cmp(a->role, b->role) == 0 &&
		pv_str_cmp(a->version, b->version) == 0 &&
		pv_str_cmp(a->experiment, b->experiment) == 0 &&
		pv_str_cmp(a->suite, b->suite) == 0;
}

void
pv_render_verdict_junit(struct pv_render_verdict *r, FILE *out)
{
	size_t i, j, k, fails = 0, skips = 0;

	for (i = 0; i < r->nv; i++) {
		fails += r->v[i].cls == PV_CLASS_REGRESSION;
		skips += r->v[i].cls == PV_CLASS_UNCERTAIN;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"pv-classify\" tests=\"%zu\" "
		"failures=\"%zu\" skipped=\"%zu\">\n", r->nv, fails, skips);
	for (i = 0; i < r->nv; i = j) {
		size_t sf = 0, ss = 0;
		const struct pv_runkey *g = &r->v[i].cmp.key;

		for (j = i; j < r->nv && same_suite(g, &r->v[j].cmp.key); j++) {
			sf += r->v[j].cls == PV_CLASS_REGRESSION;
			ss += r->v[j].cls == PV_CLASS_UNCERTAIN;
		}
		fputs("  <testsuite name=\"", out);
		xml_str(out, g->suite);
		fputs(" (", out);
		xml_str(out, g->role);
		fputs(" -&gt; ", out);
		xml_str(out, g->version);
		fputs(")\" tests=\"", out);
		fprintf(out, "%zu\" failures=\"%zu\" skipped=\"%zu\">\n",
			j - i, sf, ss);
		for (k = i; k < j; k++) {
			const struct pv_verdict *v = &r->v[k];
			char b0[PV_NUMFMT_FIXED_MAX];
			const struct pv_runkey *key = &v->cmp.key;

			fputs("    <testcase classname=\"", out);
			xml_str(out, key->suite);
			putc('.', out);
			xml_str(out, key->test);
			fputs("\" name=\"", out);
			xml_str(out, key->operation);
			putc(' ', out);
			xml_str(out, key->metric);
			if (key->level != PV_NONE)
				fprintf(out, " level %llu",
					(unsigned long long)key->level);
			fputs("\" time=\"0\"", out);
			if (v->cls == PV_CLASS_REGRESSION) {
				fprintf(out, ">\n      <failure type=\"regression\" "
					"message=\"%s severity %d: %s%%\">",
					pv_band_name(v->band), v->severity,
					pct(b0, v->cmp.change));
				xml(out, v->reason, strlen(v->reason));
				fputs("</failure>\n    </testcase>\n", out);
			} else if (v->cls == PV_CLASS_UNCERTAIN) {
				fputs(">\n      <skipped message=\"", out);
				xml(out, v->reason, strlen(v->reason));
				fputs("\"/>\n    </testcase>\n", out);
			} else {
				fprintf(out, ">\n      <system-out>%s: ",
					pv_class_name(v->cls));
				xml(out, v->reason, strlen(v->reason));
				fputs("</system-out>\n    </testcase>\n", out);
			}
		}
		fputs("  </testsuite>\n", out);
	}
	fputs("</testsuites>\n", out);
}
