/*
 * render_json: the JSON document of a comparison (see render_json.h).
 * It is written in the order of man/pv-render-json.schema.json: format
 * and version, then the arrays comparisons, verdicts, systematic, detect,
 * change_points and functions, each in the order of its records.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_json.h"
#include "strbuf.h"
#include "textenc.h"
#include "xalloc.h"

/* What a document's "version" says: a change of its shape is a new one. */
#define JSON_VERSION 1

/* Where the text is written out in pieces of. */
#define JSON_BLOCK 65536

void
pv_render_json_init(struct pv_render_json *j)
{
	memset(j, 0, sizeof(*j));
}

void
pv_render_json_release(struct pv_render_json *j)
{
	free(j->cmp);
	free(j->cp);
	pv_arena_release(&j->arena);
	memset(j, 0, sizeof(*j));
}

static struct pv_str
keep(struct pv_render_json *j, struct pv_str s)
{
	struct pv_str k = { pv_arena_memdup(&j->arena, s.s, s.len), s.len };

	return k;
}

int
pv_render_json_add(struct pv_render_json *j, const struct pv_record *rec)
{
	struct pv_runkey *k;

	if (rec->type != PV_REC_OTHER)
		return 0;
	if (pv_str_eq(rec->field[0], "scanned")) {
		struct pv_scanned sc;

		if (pv_rec_scanned_parse(rec, &sc, &j->err) < 0)
			return -1;
		j->scanned += sc.keys;
		return 1;
	}
	if (pv_str_eq(rec->field[0], "changepoint")) {
		struct pv_changepoint *cp;

		PV_GROW(j->cp, j->ncp + 1, j->cpalloc);
		cp = &j->cp[j->ncp];
		if (pv_rec_changepoint_parse(rec, cp, &j->err) < 0)
			return -1;
		cp->before = keep(j, cp->before);
		cp->after = keep(j, cp->after);
		k = &cp->key;
		j->ncp++;
	} else if (pv_str_eq(rec->field[0], "cmp")) {
		PV_GROW(j->cmp, j->ncmp + 1, j->cmpalloc);
		if (pv_rec_cmp_parse(rec, &j->cmp[j->ncmp], &j->err) < 0)
			return -1;
		k = &j->cmp[j->ncmp].key;
		k->role = keep(j, k->role);
		k->version = keep(j, k->version);
		j->ncmp++;
	} else {
		return 0;
	}
	k->experiment = keep(j, k->experiment);
	k->suite = keep(j, k->suite);
	k->test = keep(j, k->test);
	k->operation = keep(j, k->operation);
	k->metric = keep(j, k->metric);
	k->unit = keep(j, k->unit);
	return 1;
}

/* A string, null where absent ('-' in the record). */
static void
jstr(struct pv_strbuf *sb, struct pv_str s)
{
	if (s.len == 0) {
		pv_strbuf_addstr(sb, "null");
		return;
	}
	pv_strbuf_addch(sb, '"');
	pv_textenc_json(sb, s.s, s.len);
	pv_strbuf_addch(sb, '"');
}

static void
jcstr(struct pv_strbuf *sb, const char *s)
{
	struct pv_str v = { s, s != NULL ? strlen(s) : 0 };

	jstr(sb, v);
}

/* A number as the records write it (ten digits), null if not finite. */
static void
jnum(struct pv_strbuf *sb, double x)
{
	if (isfinite(x))
		pv_strbuf_addf(sb, "%.10g", x);
	else
		pv_strbuf_addstr(sb, "null");
}

/* A change on the log scale, and in percent beside it. */
static void
jchange(struct pv_strbuf *sb, const char *name, double x)
{
	pv_strbuf_addf(sb, ",\"%s\":", name);
	jnum(sb, x);
	pv_strbuf_addf(sb, ",\"%s_percent\":", name);
	jnum(sb, 100 * (exp(x) - 1));
}

static void
jpair(struct pv_strbuf *sb, const char *name, const char *a, double x,
      const char *b, double y)
{
	pv_strbuf_addf(sb, ",\"%s\":{\"%s\":", name, a);
	jnum(sb, x);
	pv_strbuf_addf(sb, ",\"%s\":", b);
	jnum(sb, y);
	pv_strbuf_addch(sb, '}');
}

/*
 * The key of a comparison: its versions (key.role holds the baseline's,
 * key.version the target's, rec_cmp.h), experiment and sample key.
 */
static void
jkey(struct pv_strbuf *sb, const struct pv_runkey *k, int level)
{
	pv_strbuf_addstr(sb, "{\"baseline\":");
	jstr(sb, k->role);
	pv_strbuf_addstr(sb, ",\"target\":");
	jstr(sb, k->version);
	pv_strbuf_addstr(sb, ",\"experiment\":");
	jstr(sb, k->experiment);
	pv_strbuf_addstr(sb, ",\"suite\":");
	jstr(sb, k->suite);
	pv_strbuf_addstr(sb, ",\"test\":");
	jstr(sb, k->test);
	pv_strbuf_addstr(sb, ",\"operation\":");
	jstr(sb, k->operation);
	pv_strbuf_addstr(sb, ",\"metric\":");
	jstr(sb, k->metric);
	pv_strbuf_addstr(sb, ",\"unit\":");
	jstr(sb, k->unit);
	pv_strbuf_addf(sb, ",\"direction\":\"%s\"", k->direction ==
		       PV_HIGHER_BETTER ? "higher" : "lower");
	if (!level)
		return;
	if (k->level == PV_NONE)
		pv_strbuf_addstr(sb, ",\"level\":null");
	else
		pv_strbuf_addf(sb, ",\"level\":%llu",
			       (unsigned long long)k->level);
}

static void
jruns(struct pv_strbuf *sb, size_t nb, size_t nt)
{
	pv_strbuf_addf(sb, ",\"runs\":{\"baseline\":%zu,\"target\":%zu}", nb,
		       nt);
}

static void
flush(struct pv_strbuf *sb, FILE *out, int force)
{
	if (force || sb->len >= JSON_BLOCK) {
		fwrite(sb->buf, 1, sb->len, out);
		pv_strbuf_reset(sb);
	}
}

/* Between the items of an array: a comma and a line after the first. */
static void
item(struct pv_strbuf *sb, size_t i)
{
	pv_strbuf_addstr(sb, i > 0 ? ",\n  " : "\n  ");
}

static void
array_end(struct pv_strbuf *sb, size_t n)
{
	pv_strbuf_addstr(sb, n > 0 ? "\n ]" : "]");
}

/* FLAGS as an array of flag names. */
static void
jflags(struct pv_strbuf *sb, unsigned flags)
{
	int i, any = 0;

	pv_strbuf_addstr(sb, ",\"flags\":[");
	for (i = 0; i < PV_CMP_NFLAGS; i++)
		if (flags & (1u << i)) {
			if (any++)
				pv_strbuf_addch(sb, ',');
			pv_strbuf_addf(sb, "\"%s\"", pv_rec_cmp_flag_name(i));
		}
	pv_strbuf_addch(sb, ']');
}

static void
comparison(struct pv_strbuf *sb, const struct pv_cmp *c)
{
	jkey(sb, &c->key, 1);
	jruns(sb, c->nb, c->nt);
	jchange(sb, "change", c->change);
	jpair(sb, "interval", "low", c->lo, "high", c->hi);
	/* the interval the verdict rests on (honest.h), and its p-value */
	jpair(sb, "honest_interval", "low", c->hlo, "high", c->hhi);
	pv_strbuf_addstr(sb, ",\"honest_p\":");
	jnum(sb, c->hp);
	pv_strbuf_addstr(sb, ",\"se\":");
	jnum(sb, c->se);
	pv_strbuf_addstr(sb, ",\"df\":");
	jnum(sb, c->df);
	jpair(sb, "bootstrap_interval", "low", c->boot_lo, "high", c->boot_hi);
	pv_strbuf_addstr(sb, ",\"p_welch\":");
	jnum(sb, c->p_welch);
	pv_strbuf_addstr(sb, ",\"p_mann_whitney\":");
	jnum(sb, c->p_mwu);
	pv_strbuf_addstr(sb, ",\"hedges_g\":");
	jnum(sb, c->g);
	pv_strbuf_addstr(sb, ",\"cliff_delta\":");
	jnum(sb, c->cliff);
	jpair(sb, "robust_cv", "baseline", c->rcv_b, "target", c->rcv_t);
	pv_strbuf_addf(sb, ",\"outliers\":{\"baseline\":%zu,\"target\":%zu}",
		       c->out_b, c->out_t);
	jflags(sb, c->flags);
	pv_strbuf_addch(sb, '}');
}

static void
verdict(struct pv_strbuf *sb, const struct pv_verdict *v)
{
	const struct pv_cmp *c = &v->cmp;

	jkey(sb, &c->key, 1);
	pv_strbuf_addf(sb, ",\"class\":\"%s\",\"severity\":%d,\"band\":",
		       pv_class_name(v->cls), v->severity);
	if (v->band == PV_BAND_NONE)
		pv_strbuf_addstr(sb, "null");
	else
		pv_strbuf_addf(sb, "\"%s\"", pv_band_name(v->band));
	jchange(sb, "change", c->change);
	jpair(sb, "interval", "low", c->lo, "high", c->hi);
	pv_strbuf_addstr(sb, ",\"qvalue\":");
	jnum(sb, v->qvalue);
	jruns(sb, c->nb, c->nt);
	if (v->runs > 0)
		pv_strbuf_addf(sb, ",\"runs_to_decide\":%zu", v->runs);
	else
		pv_strbuf_addstr(sb, ",\"runs_to_decide\":null");
	pv_strbuf_addstr(sb, ",\"reason\":");
	jcstr(sb, v->reason);
	jflags(sb, v->flags);
	pv_strbuf_addch(sb, '}');
}

/* LEVEL_LIST, "1,2,4", as numbers; what is not one is left out. */
static void
level_list(struct pv_strbuf *sb, const char *s)
{
	int any = 0;

	pv_strbuf_addstr(sb, ",\"level_list\":[");
	while (s != NULL && *s != '\0') {
		size_t n = strcspn(s, ",");
		uint64_t lv;

		if (pv_parse_u64(s, n, &lv) == 0 && lv != PV_NONE) {
			if (any++)
				pv_strbuf_addch(sb, ',');
			pv_strbuf_addf(sb, "%llu", (unsigned long long)lv);
		}
		s += n;
		if (*s == ',')
			s++;
	}
	pv_strbuf_addch(sb, ']');
}

static void
systematic(struct pv_strbuf *sb, const struct pv_render_verdict_sys *s)
{
	jkey(sb, &s->key, 0);
	pv_strbuf_addf(sb, ",\"levels\":%zu,\"regressed\":%zu", s->s.levels,
		       s->s.regressed);
	level_list(sb, s->levels);
	pv_strbuf_addf(sb, ",\"bands\":{\"red\":%zu,\"yellow\":%zu,"
		       "\"green\":%zu}", s->s.bands[PV_BAND_RED],
		       s->s.bands[PV_BAND_YELLOW], s->s.bands[PV_BAND_GREEN]);
	jchange(sb, "change_min", s->s.dmin);
	jchange(sb, "change_max", s->s.dmax);
	jchange(sb, "pooled", s->s.pooled);
	pv_strbuf_addstr(sb, ",\"p\":");
	jnum(sb, s->s.p);
	pv_strbuf_addch(sb, '}');
}

/*
 * A change point: its key with BEFORE as "baseline" and AFTER as
 * "target", the versions either side of the change.
 */
static void
changepoint(struct pv_strbuf *sb, const struct pv_changepoint *cp)
{
	struct pv_runkey k = cp->key;

	k.role = cp->before;
	k.version = cp->after;
	jkey(sb, &k, 1);
	jchange(sb, "change", cp->change);
	jpair(sb, "interval", "low", cp->lo, "high", cp->hi);
	pv_strbuf_addstr(sb, ",\"p\":");
	jnum(sb, cp->p);
	pv_strbuf_addf(sb, ",\"versions\":{\"before\":%llu,\"after\":%llu}",
		       (unsigned long long)cp->nbefore,
		       (unsigned long long)cp->nafter);
	pv_strbuf_addf(sb, ",\"newest\":%s,\"known\":%s}",
		       cp->flags & PV_CHANGEPOINT_NEWEST ? "true" : "false",
		       cp->flags & PV_CHANGEPOINT_KNOWN ? "true" : "false");
}

static void
detect(struct pv_strbuf *sb, const struct pv_render_verdict_detect *d)
{
	jkey(sb, &d->c.key, 1);
	jruns(sb, d->c.nb, d->c.nt);
	jpair(sb, "robust_cv", "baseline", d->c.rcv_b, "target",
	      d->c.rcv_t);
	pv_strbuf_addstr(sb, ",\"mde\":");
	jnum(sb, d->mde);
	pv_strbuf_addstr(sb, ",\"mde_percent\":");
	jnum(sb, 100 * (1 - exp(-d->mde)));
	pv_strbuf_addch(sb, '}');
}

static void
function(struct pv_strbuf *sb, const struct pv_stackdiff_func *f,
	 const struct pv_symtab *names)
{
	static const char *const presence[4] = {
		"none", "base", "target", "both"
	};
	int i;

	pv_strbuf_addstr(sb, "{\"event\":");
	jstr(sb, pv_symtab_get(names, f->event));
	pv_strbuf_addstr(sb, ",\"name\":");
	jstr(sb, pv_symtab_get(names, f->name));
	for (i = 0; i < 2; i++) {
		const uint64_t *count = i == 0 ? f->incl : f->excl;
		const double *pct = i == 0 ? f->incl_pct : f->excl_pct;

		pv_strbuf_addf(sb, ",\"%s\":{\"baseline\":%llu,\"target\":%llu",
			       i == 0 ? "inclusive" : "exclusive",
			       (unsigned long long)count[0],
			       (unsigned long long)count[1]);
		jpair(sb, "percent", "baseline", pct[0], "target", pct[1]);
		pv_strbuf_addstr(sb, ",\"delta_points\":");
		jnum(sb, i == 0 ? f->delta_incl : f->delta_excl);
		pv_strbuf_addstr(sb, ",\"relative\":");
		jnum(sb, i == 0 ? f->rel_incl : f->rel_excl);
		pv_strbuf_addch(sb, '}');
	}
	pv_strbuf_addf(sb, ",\"presence\":\"%s\"}", presence[f->presence & 3]);
}

void
pv_render_json_write(const struct pv_render_json *j,
		     const struct pv_render_verdict *v,
		     const struct pv_stackdiff_func *f, size_t nf,
		     const struct pv_symtab *names, FILE *out)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	size_t i;

	pv_strbuf_addf(&sb, "{\"format\":\"pv-render-json\",\"version\":%d,\n"
		       " \"comparisons\":[", JSON_VERSION);
	for (i = 0; i < j->ncmp; i++) {
		item(&sb, i);
		comparison(&sb, &j->cmp[i]);
		flush(&sb, out, 0);
	}
	array_end(&sb, j->ncmp);
	pv_strbuf_addstr(&sb, ",\n \"verdicts\":[");
	for (i = 0; i < v->nv; i++) {
		item(&sb, i);
		verdict(&sb, &v->v[i]);
		flush(&sb, out, 0);
	}
	array_end(&sb, v->nv);
	pv_strbuf_addstr(&sb, ",\n \"systematic\":[");
	for (i = 0; i < v->nsys; i++) {
		item(&sb, i);
		systematic(&sb, &v->sys[i]);
	}
	array_end(&sb, v->nsys);
	pv_strbuf_addstr(&sb, ",\n \"detect\":[");
	for (i = 0; i < v->ndet; i++) {
		item(&sb, i);
		detect(&sb, &v->det[i]);
		flush(&sb, out, 0);
	}
	array_end(&sb, v->ndet);
	pv_strbuf_addstr(&sb, ",\n \"change_points\":[");
	for (i = 0; i < j->ncp; i++) {
		item(&sb, i);
		changepoint(&sb, &j->cp[i]);
		flush(&sb, out, 0);
	}
	array_end(&sb, j->ncp);
	pv_strbuf_addstr(&sb, ",\n \"functions\":[");
	for (i = 0; i < nf; i++) {
		item(&sb, i);
		function(&sb, &f[i], names);
		flush(&sb, out, 0);
	}
	array_end(&sb, nf);
	pv_strbuf_addstr(&sb, "\n}\n");
	flush(&sb, out, 1);
	pv_strbuf_release(&sb);
}
