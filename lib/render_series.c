/*
 * render_series: the text summary of change points, outliers and trends
 * (see render_series.h).  Percentages are 100 (exp(x) - 1) of the
 * oriented log changes, so a change for the worse always reads negative.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpgroup.h"
#include "render_series.h"
#include "xalloc.h"

void
pv_render_series_init(struct pv_render_series *r)
{
	memset(r, 0, sizeof(*r));
}

void
pv_render_series_release(struct pv_render_series *r)
{
	free(r->cp);
	free(r->ol);
	free(r->tr);
	free(r->grp);
	pv_arena_release(&r->arena);
	memset(r, 0, sizeof(*r));
}

static struct pv_str
keep(struct pv_render_series *r, struct pv_str s)
{
	struct pv_str k = { pv_arena_memdup(&r->arena, s.s, s.len), s.len };

	return k;
}

static void
keep_key(struct pv_render_series *r, struct pv_runkey *k)
{
	k->experiment = keep(r, k->experiment);
	k->suite = keep(r, k->suite);
	k->test = keep(r, k->test);
	k->operation = keep(r, k->operation);
	k->metric = keep(r, k->metric);
	k->unit = keep(r, k->unit);
}

int
pv_render_series_add(struct pv_render_series *r, const struct pv_record *rec)
{
	if (rec->type != PV_REC_OTHER)
		return 0;
	if (pv_str_eq(rec->field[0], "changepoint")) {
		struct pv_changepoint *c;

		PV_GROW(r->cp, r->ncp + 1, r->cpalloc);
		c = &r->cp[r->ncp];
		if (pv_rec_changepoint_parse(rec, c, &r->err) < 0)
			return -1;
		keep_key(r, &c->key);
		c->before = keep(r, c->before);
		c->after = keep(r, c->after);
		r->ncp++;
		return 1;
	}
	if (pv_str_eq(rec->field[0], "outlier")) {
		struct pv_outlier *o;

		PV_GROW(r->ol, r->nol + 1, r->olalloc);
		o = &r->ol[r->nol];
		if (pv_rec_outlier_parse(rec, o, &r->err) < 0)
			return -1;
		keep_key(r, &o->key);
		o->version = keep(r, o->version);
		r->nol++;
		return 1;
	}
	if (pv_str_eq(rec->field[0], "trend")) {
		struct pv_trend *t;

		PV_GROW(r->tr, r->ntr + 1, r->tralloc);
		t = &r->tr[r->ntr];
		if (pv_rec_trend_parse(rec, t, &r->err) < 0)
			return -1;
		keep_key(r, &t->key);
		t->first = keep(r, t->first);
		t->last = keep(r, t->last);
		r->ntr++;
		return 1;
	}
	if (pv_str_eq(rec->field[0], "scanned")) {
		struct pv_scanned sc;

		if (pv_rec_scanned_parse(rec, &sc, &r->err) < 0)
			return -1;
		r->nscanned++;
		r->keys += sc.keys;
		if (sc.versions > r->versions)
			r->versions = sc.versions;
		return 1;
	}
	if (pv_str_eq(rec->field[0], "cpgroup")) {
		struct pv_cpgroup *g;

		PV_GROW(r->grp, r->ngrp + 1, r->grpalloc);
		g = &r->grp[r->ngrp];
		if (pv_rec_cpgroup_parse(rec, g, &r->err) < 0)
			return -1;
		keep_key(r, &g->key);
		g->before = keep(r, g->before);
		g->after = keep(r, g->after);
		g->level_list = keep(r, g->level_list);
		r->ngrp++;
		return 1;
	}
	return 0;
}

int
pv_render_series_any(const struct pv_render_series *r)
{
	return r->ncp || r->nol || r->ntr || r->ngrp || r->nscanned;
}

static double
pct(double d)
{
	return 100 * (exp(d) - 1);
}

static void
put_str(FILE *out, struct pv_str s)
{
	if (s.len == 0)
		putc('-', out);
	else
		fwrite(s.s, 1, s.len, out);
}

/* "suite test operation metric [level N]" */
static void
put_key(FILE *out, const struct pv_runkey *k)
{
	put_str(out, k->suite);
	putc(' ', out);
	put_str(out, k->test);
	putc(' ', out);
	put_str(out, k->operation);
	putc(' ', out);
	put_str(out, k->metric);
	if (k->level != PV_NONE)
		fprintf(out, " level %llu", (unsigned long long)k->level);
}

static void
put_flags(FILE *out, unsigned flags)
{
	if (flags & PV_CHANGEPOINT_NEWEST)
		fputs(flags & PV_CHANGEPOINT_KNOWN ? "  (newest, known)" :
		      "  (newest)", out);
	else if (flags & PV_CHANGEPOINT_KNOWN)
		fputs("  (known)", out);
}

/*
 * Change points for the worse: by the end of the interval nearer zero
 * (what the data support), then by change, then by key; for the better,
 * the same from the other side.
 */
static int
cmp_worse(const void *a, const void *b)
{
	const struct pv_changepoint *x = *(const struct pv_changepoint *const *)a;
	const struct pv_changepoint *y = *(const struct pv_changepoint *const *)b;
	double bx = isnan(x->hi) ? x->change : x->hi;
	double by = isnan(y->hi) ? y->change : y->hi;

	if (bx != by)
		return bx < by ? -1 : 1;
	if (x->change != y->change)
		return x->change < y->change ? -1 : 1;
	return pv_rec_key_cmp(&x->key, &y->key);
}

static int
cmp_better(const void *a, const void *b)
{
	const struct pv_changepoint *x = *(const struct pv_changepoint *const *)a;
	const struct pv_changepoint *y = *(const struct pv_changepoint *const *)b;
	double bx = isnan(x->lo) ? x->change : x->lo;
	double by = isnan(y->lo) ? y->change : y->lo;

	if (bx != by)
		return bx > by ? -1 : 1;
	if (x->change != y->change)
		return x->change > y->change ? -1 : 1;
	return pv_rec_key_cmp(&x->key, &y->key);
}

static void
put_ranked(FILE *out, const struct pv_changepoint **sel, size_t n)
{
	char buf[64], ver[128];
	size_t i;

	fprintf(out, "%5s %9s %-20s %8s  %-17s %s\n", "rank", "change",
		"interval", "p-value", "versions", "key");
	for (i = 0; i < n; i++) {
		const struct pv_changepoint *c = sel[i];

		if (isnan(c->lo))
			snprintf(buf, sizeof(buf), "-");
		else
			snprintf(buf, sizeof(buf), "[%+.2f%%, %+.2f%%]",
				 pct(c->lo), pct(c->hi));
		snprintf(ver, sizeof(ver), "%.*s -> %.*s",
			 (int)c->before.len, c->before.s, (int)c->after.len,
			 c->after.s);
		fprintf(out, "%5zu %+8.2f%% %-20s %8.2g  %-17s ", i + 1,
			pct(c->change), buf, c->p, ver);
		put_key(out, &c->key);
		put_flags(out, c->flags);
		fprintf(out, "\n%5s git bisect start %.*s %.*s\n", "",
			(int)c->after.len, c->after.s, (int)c->before.len,
			c->before.s);
	}
}

void
pv_render_series_text(struct pv_render_series *r, FILE *out)
{
	const struct pv_changepoint **sel;
	size_t i, n, worse = 0, failing = 0, ofailing = 0;

	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	sel = pv_xreallocarray(NULL, r->ncp ? r->ncp : 1, sizeof(*sel));
	for (i = 0; i < r->ncp; i++) {
		worse += r->cp[i].change < 0;
		failing += pv_changepoint_fails(&r->cp[i]);
	}
	for (i = 0; i < r->nol; i++)
		ofailing += pv_outlier_fails(&r->ol[i]);
	if (r->nscanned > 0)
		fprintf(out, "%llu key%s searched along %llu version%s\n",
			(unsigned long long)r->keys, r->keys == 1 ? "" : "s",
			(unsigned long long)r->versions,
			r->versions == 1 ? "" : "s");
	fprintf(out, "%zu change point%s (%zu for the worse, %zu at the newest "
		"version and not known), %zu outlier%s", r->ncp,
		r->ncp == 1 ? "" : "s", worse, failing, r->nol,
		r->nol == 1 ? "" : "s");
	/* said only when there is one, as outliers rarely fail a job */
	if (ofailing > 0)
		fprintf(out, " (%zu for the worse at the newest version and "
			"not known)", ofailing);
	fprintf(out, ", %zu trend%s\n", r->ntr, r->ntr == 1 ? "" : "s");

	for (i = n = 0; i < r->ncp; i++)
		if (r->cp[i].change < 0)
			sel[n++] = &r->cp[i];
	if (n > 0) {
		/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
		qsort(sel, n, sizeof(*sel), cmp_worse);
		fputs("\nChange points for the worse, most severe first:\n",
		      out);
		put_ranked(out, sel, n);
	}

	if (r->ngrp > 0) {
		fputs("\nChange points at several levels, between the same "
		      "versions:\n", out);
		for (i = 0; i < r->ngrp; i++) {
			const struct pv_cpgroup *g = &r->grp[i];

			fputs("  ", out);
			put_str(out, g->key.suite);
			putc(' ', out);
			put_str(out, g->key.test);
			putc(' ', out);
			put_str(out, g->key.operation);
			putc(' ', out);
			put_str(out, g->key.metric);
			fprintf(out, ": levels %.*s, %.*s -> %.*s, %+.2f%% to "
				"%+.2f%%", (int)g->level_list.len,
				g->level_list.s, (int)g->before.len,
				g->before.s, (int)g->after.len, g->after.s,
				pct(g->change_min), pct(g->change_max));
			put_flags(out, g->flags);
			putc('\n', out);
		}
	}

	for (i = n = 0; i < r->ncp; i++)
		if (!(r->cp[i].change < 0))
			sel[n++] = &r->cp[i];
	if (n > 0) {
		/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
		qsort(sel, n, sizeof(*sel), cmp_better);
		fputs("\nChange points for the better:\n", out);
		put_ranked(out, sel, n);
	}

	if (r->nol > 0) {
		fputs("\nOutliers (one version off the others, not a "
		      "change):\n", out);
		for (i = 0; i < r->nol; i++) {
			const struct pv_outlier *o = &r->ol[i];

			fputs("  ", out);
			put_key(out, &o->key);
			fprintf(out, ": %.*s %+.2f%% (p %.2g)",
				(int)o->version.len, o->version.s,
				pct(o->change), o->p);
			put_flags(out, o->flags);
			putc('\n', out);
		}
	}

	if (r->ntr > 0) {
		fputs("\nTrends (a steady drift):\n", out);
		for (i = 0; i < r->ntr; i++) {
			const struct pv_trend *t = &r->tr[i];

			fputs("  ", out);
			put_key(out, &t->key);
			fprintf(out, ": %+.2f%% a version [%+.2f%%, %+.2f%%] "
				"from %.*s to %.*s (p %.2g)\n", pct(t->change),
				pct(t->lo), pct(t->hi), (int)t->first.len,
				t->first.s, (int)t->last.len, t->last.s, t->p);
		}
	}
	free(sel);
}
