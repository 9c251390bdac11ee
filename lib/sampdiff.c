/*
 * sampdiff: baseline against target at one key (see sampdiff.h).
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "hash.h"
#include "inorder.h"
#include "sampdiff.h"
#include "numfmt.h"
#include "stats.h"
#include "xalloc.h"

static const char *const flag_name[PV_CMP_NFLAGS] = {
	"few-runs", "unstable", "outliers", "baseline-only", "target-only",
	"zero-variance", "nonpositive"
};

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
	double small[64], *dev = n <= 64 ? small :
		pv_xreallocarray(NULL, n, sizeof(double)), med, mad;

	med = median_dev(v, n, dev);
	pv_stats_sort(dev, n);
	mad = pv_stats_median_sorted(dev, n);
	if (dev != small)
		free(dev);
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

void
pv_cmp_compute(const struct pv_runkey *key, const double *b, size_t nb,
	       const double *t, size_t nt, const struct pv_cmp_opts *opt,
	       struct pv_cmp *c)
{
	double small[128], *xb, *xt, sign;
	size_t i;
	int nonpos = 0;

	memset(c, 0, sizeof(*c));
	c->key = *key;
	c->nb = nb;
	c->nt = nt;
	c->change = c->lo = c->hi = c->se = c->df = NAN;
	c->boot_lo = c->boot_hi = c->p_welch = c->p_mwu = NAN;
	c->g = c->cliff = c->rcv_b = c->rcv_t = NAN;
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
		pv_xreallocarray(NULL, nb + nt, sizeof(double));
	xt = xb + nb;
	for (i = 0; i < nb; i++)
		xb[i] = sign * log(b[i]);
	for (i = 0; i < nt; i++)
		xt[i] = sign * log(t[i]);

	c->rcv_b = robust_cv(b, nb);
	c->rcv_t = robust_cv(t, nt);
	outliers(xb, nb, xt, nt, opt->outlier_z, &c->out_b, &c->out_t);
	if (c->rcv_b > opt->cv_max || c->rcv_t > opt->cv_max)
		c->flags |= PV_CMP_UNSTABLE;
	if (c->out_b > 0 || c->out_t > 0)
		c->flags |= PV_CMP_OUTLIERS;

	c->change = pv_stats_mean(xt, nt) - pv_stats_mean(xb, nb);
	c->cliff = pv_stats_cliff(xb, nb, xt, nt);
	{
		struct pv_mwu m;

		pv_stats_mwu(xb, nb, xt, nt, &m);
		c->p_mwu = m.p;
	}
	if (nb + nt >= 3)
		c->g = pv_stats_hedges_g(xb, nb, xt, nt);
	if (nb >= 2 && nt >= 2) {
		struct pv_welch w;

		pv_stats_welch(xb, nb, xt, nt, opt->conf, &w);
		c->lo = w.lo;
		c->hi = w.hi;
		c->se = w.se;
		c->df = w.df;
		c->p_welch = w.p;
		if (w.se == 0)
			c->flags |= PV_CMP_ZERO_VAR;
		if (opt->boot > 0 &&
		    pv_stats_bootstrap_median_diff_exact(xb, nb, xt, nt,
				opt->conf, &c->boot_lo, &c->boot_hi) == 0) {
			/* exact: no resampling needed */
		} else if (opt->boot > 0) {
			struct pv_strbuf sb = PV_STRBUF_INIT;
			uint64_t seed;

			pv_runkey_format(&sb, key, 1);
			seed = pv_hash(sb.buf, sb.len, 0);
			pv_strbuf_release(&sb);
			pv_stats_bootstrap_median_diff(xb, nb, xt, nt,
						       opt->boot, seed,
						       opt->conf, &c->boot_lo,
						       &c->boot_hi);
		}
	}
	if (xb != small)
		free(xb);
}

void
pv_cmp_flags_format(struct pv_strbuf *sb, unsigned flags)
{
	int i, any = 0;

	for (i = 0; i < PV_CMP_NFLAGS; i++) {
		if (!(flags & (1u << i)))
			continue;
		if (any++)
			pv_strbuf_addch(sb, ',');
		pv_strbuf_addstr(sb, flag_name[i]);
	}
	if (!any)
		pv_strbuf_addch(sb, '-');
}

int
pv_cmp_flags_parse(struct pv_str s, unsigned *flags)
{
	size_t i = 0;

	*flags = 0;
	if (pv_str_eq(s, "-"))
		return 0;
	while (i <= s.len) {
		size_t j = i;
		int k;

		while (j < s.len && s.s[j] != ',')
			j++;
		for (k = 0; k < PV_CMP_NFLAGS; k++) {
			if (strlen(flag_name[k]) == j - i &&
			    memcmp(flag_name[k], s.s + i, j - i) == 0)
				break;
		}
		if (k == PV_CMP_NFLAGS)
			return -1;
		*flags |= 1u << k;
		i = j + 1;
	}
	return 0;
}

static void
add_d(struct pv_strbuf *sb, double v)
{
	pv_strbuf_addch(sb, '\t');
	pv_numfmt(sb, v);
}

void
pv_cmp_format(struct pv_strbuf *sb, const struct pv_cmp *c)
{
	pv_strbuf_addstr(sb, "cmp");
	if (c->key_text.len > 0)
		pv_runkey_format_text(sb, &c->key, c->key_text);
	else
		pv_runkey_format(sb, &c->key, 1);
	pv_strbuf_addch(sb, '\t');
	pv_strbuf_addu(sb, c->nb);
	pv_strbuf_addch(sb, '\t');
	pv_strbuf_addu(sb, c->nt);
	add_d(sb, c->change);
	add_d(sb, c->lo);
	add_d(sb, c->hi);
	add_d(sb, c->se);
	add_d(sb, c->df);
	add_d(sb, c->boot_lo);
	add_d(sb, c->boot_hi);
	add_d(sb, c->p_welch);
	add_d(sb, c->p_mwu);
	add_d(sb, c->g);
	add_d(sb, c->cliff);
	add_d(sb, c->rcv_b);
	add_d(sb, c->rcv_t);
	pv_strbuf_addch(sb, '\t');
	pv_strbuf_addu(sb, c->out_b);
	pv_strbuf_addch(sb, '\t');
	pv_strbuf_addu(sb, c->out_t);
	pv_strbuf_addch(sb, '\t');
	pv_cmp_flags_format(sb, c->flags);
	pv_strbuf_addch(sb, '\n');
}

static int
fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* a number, infinities allowed, or "-" for NaN */
static int
get_d(struct pv_str f, double *v)
{
	char buf[64], *end;

	if (pv_str_eq(f, "-")) {
		*v = NAN;
		return 0;
	}
	if (pv_parse_double(f.s, f.len, v) == 0)
		return 0;
	if (f.len == 0 || f.len >= sizeof(buf))
		return -1;
	memcpy(buf, f.s, f.len);
	buf[f.len] = '\0';
	*v = strtod(buf, &end);
	return end == buf + f.len && isinf(*v) ? 0 : -1;
}

static int
get_n(struct pv_str f, size_t *v)
{
	uint64_t u;

	if (pv_parse_u64(f.s, f.len, &u) < 0 || u > SIZE_MAX)
		return -1;
	*v = (size_t)u;
	return 0;
}

int
pv_cmp_parse(const struct pv_record *rec, struct pv_cmp *c, char *err,
	     size_t errlen)
{
	static const char *const dname[] = {
		"CHANGE", "LO", "HI", "SE", "DF", "BOOT_LO", "BOOT_HI",
		"P_WELCH", "P_MWU", "HEDGES_G", "CLIFF", "RCV_B", "RCV_T"
	};
	double *dv[13];
	const struct pv_str *f = rec->field;
	size_t i;

	memset(c, 0, sizeof(*c));
	if (rec->nfield != 29)
		return fail(err, errlen, "a cmp record has 29 fields, not %zu",
			    rec->nfield);
	if (pv_runkey_parse(rec, 1, &c->key, err, errlen) < 0)
		return -1;
	if (get_n(f[11], &c->nb) < 0 || get_n(f[12], &c->nt) < 0)
		return fail(err, errlen, "NB or NT is not a whole number");
	dv[0] = &c->change; dv[1] = &c->lo; dv[2] = &c->hi;
	dv[3] = &c->se; dv[4] = &c->df; dv[5] = &c->boot_lo;
	dv[6] = &c->boot_hi; dv[7] = &c->p_welch; dv[8] = &c->p_mwu;
	dv[9] = &c->g; dv[10] = &c->cliff; dv[11] = &c->rcv_b;
	dv[12] = &c->rcv_t;
	for (i = 0; i < 13; i++)
		if (get_d(f[13 + i], dv[i]) < 0)
			return fail(err, errlen, "%s '%.*s' is not a number",
				    dname[i],
				    (int)(f[13 + i].len > 40 ? 40 :
					  f[13 + i].len), f[13 + i].s);
	/*
	 * Hedges' g may be infinite (no spread on either side); the change
	 * and its interval, logs of ratios of finite means, never are.
	 */
	for (i = 0; i < 4; i++)
		if (isinf(*dv[i]))
			return fail(err, errlen, "%s '%.*s' is not a finite "
				    "number", dname[i], (int)f[13 + i].len,
				    f[13 + i].s);
	if (get_n(f[26], &c->out_b) < 0 || get_n(f[27], &c->out_t) < 0)
		return fail(err, errlen, "OUT_B or OUT_T is not a whole "
			    "number");
	if (pv_cmp_flags_parse(f[28], &c->flags) < 0)
		return fail(err, errlen, "unknown flag in '%.*s'",
			    (int)(f[28].len > 60 ? 60 : f[28].len), f[28].s);
	if ((c->nb > 0 && c->nt > 0 && !(c->flags & PV_CMP_NONPOSITIVE) &&
	     isnan(c->change)) ||
	    (!isnan(c->p_welch) && !(c->p_welch >= 0 && c->p_welch <= 1)))
		return fail(err, errlen, "inconsistent cmp record");
	return 0;
}

void
pv_kvset_init(struct pv_kvset *s)
{
	memset(s, 0, sizeof(*s));
}

void
pv_kvset_release(struct pv_kvset *s)
{
	size_t i;

	for (i = 0; i < s->nkv; i++) {
		free(s->kv[i].type);
		free(s->kv[i].key);
		free(s->kv[i].value);
	}
	free(s->kv);
	memset(s, 0, sizeof(*s));
}

void
pv_kvset_add(struct pv_kvset *s, struct pv_str type, struct pv_str key,
	     struct pv_str value)
{
	size_t i;

	for (i = 0; i < s->nkv; i++) {
		struct pv_kv *kv = &s->kv[i];

		if (pv_str_eq(type, kv->type) && pv_str_eq(key, kv->key)) {
			if (!pv_str_eq(value, kv->value)) {
				free(kv->value);
				kv->value = pv_xstrdup("(several values)");
			}
			return;
		}
	}
	PV_GROW(s->kv, s->nkv + 1, s->alloc);
	s->kv[s->nkv].type = pv_xmemdup(type.s, type.len);
	s->kv[s->nkv].key = pv_xmemdup(key.s, key.len);
	s->kv[s->nkv].value = pv_xmemdup(value.s, value.len);
	s->nkv++;
	s->sorted = 0;
}

static int
cmp_kv(const void *a, const void *b)
{
	const struct pv_kv *x = a, *y = b;
	int c = strcmp(x->type, y->type);

	return c != 0 ? c : strcmp(x->key, y->key);
}

const char *const pv_kv_default_ignore[] = {
	"version", "commit", "branch", "describe", "date", "time", "start",
	"end", "duration", "hostname", "host", "kernel", "kernel-release",
	"kernel-version", "kernel-build", "uname", "os-release", "cmdline",
	"run-id", "captured-on",
	/* the facts of one collection (pv-collect(1)) */
	"started", "collection", "run", "warmup", "runs-ok", "runs-failed",
	"artifacts"
};
const size_t pv_kv_default_nignore =
	sizeof(pv_kv_default_ignore) / sizeof(pv_kv_default_ignore[0]);

static int
ignored(const struct pv_kv *kv, const char *const *ignore, size_t n)
{
	size_t i, tl = strlen(kv->type);

	for (i = 0; i < n; i++) {
		const char *p = ignore[i];
		size_t pl = strlen(p);

		if (pl > 0 && p[pl - 1] == '*') {
			if (strncmp(kv->key, p, pl - 1) == 0)
				return 1;
			if (strncmp(p, kv->type, tl) == 0 && p[tl] == '.' &&
			    strncmp(kv->key, p + tl + 1, pl - tl - 2) == 0)
				return 1;
			continue;
		}
		if (strcmp(kv->key, p) == 0)
			return 1;
		if (strncmp(p, kv->type, tl) == 0 && p[tl] == '.' &&
		    strcmp(kv->key, p + tl + 1) == 0)
			return 1;
	}
	return 0;
}

static void
describe(struct pv_strbuf *why, size_t n, const struct pv_kv *a,
	 const struct pv_kv *b)
{
	const struct pv_kv *k = a != NULL ? a : b;

	if (n > 0)
		pv_strbuf_addstr(why, ", ");
	pv_strbuf_addf(why, "%s '%s' ('%s' vs '%s')", k->type, k->key,
		       a != NULL ? a->value : "(none)",
		       b != NULL ? b->value : "(none)");
}

size_t
pv_kvset_diff(struct pv_kvset *a, struct pv_kvset *b,
	      const char *const *ignore, size_t nignore,
	      struct pv_strbuf *why)
{
	size_t i = 0, j = 0, n = 0;

	if (a->nkv > 0)
		qsort(a->kv, a->nkv, sizeof(*a->kv), cmp_kv);
	if (b->nkv > 0)
		qsort(b->kv, b->nkv, sizeof(*b->kv), cmp_kv);
	while (i < a->nkv || j < b->nkv) {
		const struct pv_kv *x = i < a->nkv ? &a->kv[i] : NULL;
		const struct pv_kv *y = j < b->nkv ? &b->kv[j] : NULL;
		int c = x == NULL ? 1 : y == NULL ? -1 : cmp_kv(x, y);

		if (c < 0) {
			if (!ignored(x, ignore, nignore))
				describe(why, n++, x, NULL);
			i++;
		} else if (c > 0) {
			if (!ignored(y, ignore, nignore))
				describe(why, n++, NULL, y);
			j++;
		} else {
			if (strcmp(x->value, y->value) != 0 &&
			    !ignored(x, ignore, nignore))
				describe(why, n++, x, y);
			i++;
			j++;
		}
	}
	return n;
}

void
pv_sampdiff_init(struct pv_sampdiff *d, const struct pv_cmp_opts *opt)
{
	memset(d, 0, sizeof(*d));
	d->opt = *opt;
	pv_runtab_init(&d->samples);
	pv_runtab_init(&d->runvals);
	pv_symtab_init(&d->secnames);
	pv_strbuf_init(&d->scratch, 128);
	d->cur = SIZE_MAX;
}

void
pv_sampdiff_release(struct pv_sampdiff *d)
{
	size_t i;

	for (i = 0; i < d->nsec; i++)
		pv_kvset_release(&d->sec[i].kv);
	free(d->sec);
	pv_runtab_release(&d->samples);
	pv_runtab_release(&d->runvals);
	pv_symtab_release(&d->secnames);
	pv_strbuf_release(&d->scratch);
}

/* The section of this identity, created when new. */
static size_t
section(struct pv_sampdiff *d, struct pv_str role, struct pv_str version,
	struct pv_str experiment)
{
	struct pv_sampdiff_section *s;
	struct pv_str name;
	uint32_t id;
	const char *base;

	pv_strbuf_reset(&d->scratch);
	pv_strbuf_add(&d->scratch, role.s, role.len);
	pv_strbuf_addch(&d->scratch, '\t');
	pv_strbuf_add(&d->scratch, version.s, version.len);
	pv_strbuf_addch(&d->scratch, '\t');
	pv_strbuf_add(&d->scratch, experiment.s, experiment.len);
	id = pv_symtab_intern(&d->secnames, d->scratch.buf, d->scratch.len);
	if (id < d->nsec)
		return id;
	PV_GROW(d->sec, (size_t)id + 1, d->secalloc);
	d->nsec = (size_t)id + 1;
	s = &d->sec[id];
	/* the name's copy in the symtab holds the three parts */
	name = pv_symtab_get(&d->secnames, id);
	base = name.s;
	s->role = (struct pv_str){ base, role.len };
	s->version = (struct pv_str){ base + role.len + 1, version.len };
	s->experiment = (struct pv_str){ base + role.len + version.len + 2,
					 experiment.len };
	pv_kvset_init(&s->kv);
	return id;
}

int
pv_sampdiff_add(struct pv_sampdiff *d, const struct pv_record *rec)
{
	static const struct pv_str none = { "", 0 };
	struct pv_sampdiff_section *s;

	switch (rec->type) {
	case PV_REC_SECTION:
		d->cur = section(d, rec->role, rec->version, rec->experiment);
		return 1;
	case PV_REC_META:
	case PV_REC_ENV:
		if (d->cur == SIZE_MAX)
			d->cur = section(d, none, none, none);
		pv_kvset_add(&d->sec[d->cur].kv, rec->field[0], rec->key,
			     rec->value);
		return 1;
	case PV_REC_SAMPLE:
		if (d->cur == SIZE_MAX)
			d->cur = section(d, none, none, none);
		s = &d->sec[d->cur];
		if (pv_runtab_add_sample(&d->samples, s->role, s->version,
					 s->experiment, rec) < 0) {
			snprintf(d->err, sizeof(d->err), "%s",
				 d->samples.err);
			return -1;
		}
		return 1;
	case PV_REC_OTHER:
		if (pv_str_eq(rec->field[0], "runval")) {
			if (pv_runtab_add_runval(&d->runvals, rec) < 0) {
				snprintf(d->err, sizeof(d->err), "%s",
					 d->runvals.err);
				return -1;
			}
			return 1;
		}
		if (pv_str_eq(rec->field[0], "cmp") ||
		    pv_str_eq(rec->field[0], "cmproll"))
			return 0;
		return 1;
	default:
		return 1;
	}
}

static int
same_side(const struct pv_runset *x, const struct pv_runset *y)
{
	return pv_str_cmp(x->key.experiment, y->key.experiment) == 0 &&
		pv_str_cmp(x->key.role, y->key.role) == 0 &&
		pv_str_cmp(x->key.version, y->key.version) == 0;
}

/* a run of sets of one side: [start, end) */
struct side {
	size_t start, end;
	int role;		/* 0 baseline, 1 target */
};

static size_t
side_sec(struct pv_sampdiff *d, const struct pv_runset *set)
{
	return section(d, set->key.role, set->key.version,
		       set->key.experiment);
}

/*
 * The comparisons to make: first listed (their keys and sets), then
 * computed, by several threads when there are many, each into its own
 * slot, so that the output does not depend on the threads.
 */
struct cmplist {
	struct pv_arena arena;		/* c and set, allocated once */
	struct pv_cmp *c;
	const struct pv_runset **set;	/* two a comparison: base, target */
	size_t n;
	const struct pv_cmp_opts *opt;
	const struct pv_runtab *tab;	/* of the sets */
	size_t jobs;			/* 0: one thread per CPU */
	struct pv_cmp **ord;		/* the comparisons in key order */
};

/* Comparisons a thread takes at a time; the least worth a thread. */
#define CMP_BLOCK 256
#define CMP_PER_THREAD 2048

static void
compare(struct cmplist *l, const struct pv_runset *bs,
	const struct pv_runset *ts, const struct pv_runset *base,
	const struct pv_runset *target)
{
	/* room for it: pairs_bound() */
	struct pv_cmp *c = &l->c[l->n];
	/* the callers give bs, ts or both, never neither */
	const struct pv_runset *one = bs != NULL ? bs : ts;

	memset(c, 0, sizeof(*c));
	/* cppcheck-suppress nullPointer */
	c->key = one->key;
	c->key_text = pv_runtab_key_text(l->tab, one);
	c->key.role = base->key.version;
	c->key.version = target->key.version;
	l->set[2 * l->n] = bs;
	l->set[2 * l->n + 1] = ts;
	l->n++;
}

/*
 * The most comparisons the pairs of sides of each experiment make (the
 * sets of both sides of each pair), so that their table is allocated
 * once: growing 30 MB by copies costs more than its page faults.
 */
static size_t
pairs_bound(const struct side *side, size_t nside, struct pv_runset **v)
{
	size_t e, j, a, b, n = 0;

	for (e = 0; e < nside; e = j) {
		for (j = e + 1; j < nside &&
		     pv_str_cmp(v[side[j].start]->key.experiment,
				v[side[e].start]->key.experiment) == 0; j++)
			;
		for (a = e; a < j; a++)
			for (b = e; b < j; b++)
				if (side[a].role == 0 && side[b].role == 1)
					n += side[a].end - side[a].start +
						side[b].end - side[b].start;
	}
	return n;
}

static void
values_of(const struct pv_runset *set, double *out)
{
	if (set != NULL)
		pv_runset_values(set, out);
}

/* Compute a block of comparisons (of ord) and their cmp records. */
static void
compute_block(void *arg, struct pv_inorder_block *blk)
{
	const struct cmplist *l = *(struct cmplist *const *)arg;
	double *buf = NULL;
	size_t alloc = 0, i;

	for (i = blk->start; i < blk->end; i++) {
		struct pv_cmp *c = l->ord[i];
		size_t at = (size_t)(c - l->c);
		const struct pv_runset *bs = l->set[2 * at];
		const struct pv_runset *ts = l->set[2 * at + 1];
		size_t nb = bs ? bs->nrun : 0, nt = ts ? ts->nrun : 0;
		struct pv_runkey k = c->key;
		struct pv_str text = c->key_text;

		PV_GROW(buf, nb + nt + 1, alloc);
		values_of(bs, buf);
		values_of(ts, buf + nb);
		pv_cmp_compute(&k, buf, nb, buf + nb, nt, l->opt, c);
		c->key_text = text;
		pv_cmp_format(&blk->text, c);
		blk->mark[i - blk->start] = blk->text.len;
	}
	free(buf);
}

struct roll {
	const struct pv_cmp *first;
	size_t keys, nse;
	double sum, var, worst;
};

static void
roll_add(struct roll *r, const struct pv_cmp *c)
{
	if (isnan(c->change))
		return;
	if (r->keys == 0) {
		r->first = c;
		r->sum = r->var = 0;
		r->nse = 0;
		r->worst = c->change;
	}
	r->keys++;
	r->sum += c->change;
	if (!isnan(c->se)) {
		r->var += c->se * c->se;
		r->nse++;
	}
	if (c->change < r->worst)
		r->worst = c->change;
}

static void
roll_flush(struct pv_strbuf *sb, struct roll *r, const char *scope,
	   double z, FILE *out)
{
	const struct pv_runkey *k;
	double m, h;

	if (r->keys == 0)
		return;
	k = &r->first->key;
	m = r->sum / (double)r->keys;
	h = r->nse == r->keys ? z * sqrt(r->var) / (double)r->keys : NAN;
	pv_strbuf_reset(sb);
	pv_strbuf_addstr(sb, "cmproll");
	pv_runkey_format_section(sb, k);
	pv_strbuf_addf(sb, "\t%s\t", scope);
	if (strcmp(scope, "run") != 0 && k->suite.len)
		pv_escape(sb, k->suite.s, k->suite.len, 0);
	else
		pv_strbuf_addch(sb, '-');
	pv_strbuf_addch(sb, '\t');
	if (strcmp(scope, "test") == 0 && k->test.len)
		pv_escape(sb, k->test.s, k->test.len, 0);
	else
		pv_strbuf_addch(sb, '-');
	pv_strbuf_addch(sb, '\t');
	pv_strbuf_addu(sb, r->keys);
	add_d(sb, m);
	add_d(sb, m - h);
	add_d(sb, m + h);
	add_d(sb, r->worst);
	pv_strbuf_addch(sb, '\n');
	fwrite(sb->buf, 1, sb->len, out);
	r->keys = 0;
}

/* Comparisons in the order of their keys (as they come when equal). */
static int
cmp_ptr(const void *a, const void *b)
{
	const struct pv_cmp *x = *(const struct pv_cmp *const *)a;
	const struct pv_cmp *y = *(const struct pv_cmp *const *)b;
	int c = pv_runkey_cmp(&x->key, &y->key);

	return c ? c : (x > y) - (x < y);
}

/* The comparisons in key order, into l->ord. */
static void
sort_cmps(struct cmplist *l)
{
	size_t i;

	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	l->ord = pv_xreallocarray(NULL, l->n ? l->n : 1, sizeof(*l->ord));
	for (i = 0; i < l->n; i++)
		l->ord[i] = &l->c[i];
	/* one pair of sides at a time comes in order: check first */
	for (i = 1; i < l->n; i++)
		if (cmp_ptr(&l->ord[i - 1], &l->ord[i]) > 0)
			break;
	if (i < l->n)
		/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
		qsort(l->ord, l->n, sizeof(*l->ord), cmp_ptr);
}

/* The writer's state: the roll-ups and where the output goes. */
struct writer {
	struct cmplist *l;		/* first: compute_block() reads it */
	struct pv_strbuf sb;
	struct roll rt, rs, rr;
	double z;
	FILE *out;
};

/* Flush the test's roll-up; with n of 2 the suite's too, of 3 the run's. */
static void
flush_scopes(struct writer *w, int n)
{
	roll_flush(&w->sb, &w->rt, "test", w->z, w->out);
	if (n > 1)
		roll_flush(&w->sb, &w->rs, "suite", w->z, w->out);
	if (n > 2)
		roll_flush(&w->sb, &w->rr, "run", w->z, w->out);
}

/* Write a block's cmp records in order, with the roll-ups between. */
static void
write_block(void *arg, const struct pv_inorder_block *blk)
{
	struct writer *w = arg;
	size_t i, from = 0;

	for (i = blk->start; i < blk->end; i++) {
		const struct pv_cmp *c = w->l->ord[i];

		size_t to = blk->mark[i - blk->start];

		if (i > 0) {
			const struct pv_runkey *p = &w->l->ord[i - 1]->key;

			if (pv_str_cmp(p->role, c->key.role) ||
			    pv_str_cmp(p->version, c->key.version) ||
			    pv_str_cmp(p->experiment, c->key.experiment))
				flush_scopes(w, 3);
			else if (pv_str_cmp(p->suite, c->key.suite))
				flush_scopes(w, 2);
			else if (pv_str_cmp(p->test, c->key.test))
				flush_scopes(w, 1);
		}
		fwrite(blk->text.buf + from, 1, to - from, w->out);
		from = to;
		roll_add(&w->rt, c);
		roll_add(&w->rs, c);
		roll_add(&w->rr, c);
	}
}

/*
 * Compute the comparisons on one thread per CPU (this one among them) and
 * write their records in key order, with the roll-ups, as the blocks are
 * done: the writing and the reader downstream overlap the computing.
 */
static void
compute_write(struct pv_sampdiff *d, struct cmplist *l, FILE *out)
{
	struct writer w;
	struct pv_inorder job;

	memset(&w, 0, sizeof(w));
	w.l = l;
	pv_strbuf_init(&w.sb, 0);
	w.z = pv_stats_normal_quantile(1 - (1 - d->opt.conf) / 2);
	w.out = out;
	sort_cmps(l);
	job.n = l->n;
	job.block = CMP_BLOCK;
	job.jobs = l->jobs;
	job.per_thread = CMP_PER_THREAD;
	job.work = compute_block;
	job.take = write_block;
	job.thread_end = pv_stats_thread_release;
	job.arg = &w;
	pv_inorder_run(&job);
	flush_scopes(&w, 3);
	pv_strbuf_release(&w.sb);
	free(l->ord);
}

long
pv_sampdiff_finish(struct pv_sampdiff *d, FILE *out,
		   const char *const *ignore, size_t nignore)
{
	struct pv_runtab *tab = d->runvals.nset ? &d->runvals : &d->samples;
	struct pv_runset **v;
	struct side *side = NULL;
	struct cmplist l;
	size_t nside = 0, sidealloc = 0, i, j, e;
	long found = 0;

	memset(&l, 0, sizeof(l));
	l.opt = &d->opt;
	l.tab = tab;
	l.jobs = d->opt.jobs;
	v = pv_runtab_sorted_sides(tab);
	for (i = 0; i < tab->nset; i = j) {
		int role;

		for (j = i + 1; j < tab->nset && same_side(v[i], v[j]); j++)
			;
		if (pv_str_eq(v[i]->key.role, "baseline"))
			role = 0;
		else if (pv_str_eq(v[i]->key.role, "target"))
			role = 1;
		else
			continue;
		PV_GROW(side, nside + 1, sidealloc);
		side[nside++] = (struct side){ i, j, role };
	}

	/* each experiment's baselines against its targets */
	i = pairs_bound(side, nside, v);
	if (i > SIZE_MAX / sizeof(*l.c) / 2)
		pv_xalloc_die();
	l.c = pv_arena_alloc(&l.arena, (i ? i : 1) * sizeof(*l.c));
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	l.set = pv_arena_alloc(&l.arena, 2 * (i ? i : 1) * sizeof(*l.set));
	d->npairs = 0;
	for (e = 0; e < nside; e = j) {
		size_t a, b;

		for (j = e + 1; j < nside &&
		     pv_str_cmp(v[side[j].start]->key.experiment,
				v[side[e].start]->key.experiment) == 0; j++)
			;
		for (a = e; a < j; a++) {
			for (b = e; b < j; b++) {
				struct side *sb = &side[a], *st = &side[b];
				const struct pv_runset *bk = v[sb->start];
				const struct pv_runset *tk = v[st->start];
				size_t x, y, ib, it;

				if (sb->role != 0 || st->role != 1)
					continue;
				/* both first: a new section moves d->sec */
				ib = side_sec(d, bk);
				it = side_sec(d, tk);
				pv_strbuf_reset(&d->scratch);
				if (pv_kvset_diff(&d->sec[ib].kv,
						  &d->sec[it].kv, ignore,
						  nignore, &d->scratch) > 0) {
					snprintf(d->err, sizeof(d->err),
						 "experiment '%.*s': baseline "
						 "'%.*s' and target '%.*s' are "
						 "not comparable: %s",
						 (int)bk->key.experiment.len,
						 bk->key.experiment.s,
						 (int)bk->key.version.len,
						 bk->key.version.s,
						 (int)tk->key.version.len,
						 tk->key.version.s,
						 d->scratch.buf);
					pv_arena_release(&l.arena);
					free(side);
					free(v);
					return -1;
				}
				d->npairs++;
				x = sb->start;
				y = st->start;
				while (x < sb->end || y < st->end) {
					int c = x == sb->end ? 1 :
						y == st->end ? -1 :
						pv_runkey_cmp_measure(
							&v[x]->key,
							&v[y]->key);

					if (c < 0)
						compare(&l, v[x++], NULL,
							bk, tk);
					else if (c > 0)
						compare(&l, NULL, v[y++],
							bk, tk);
					else
						compare(&l, v[x++], v[y++],
							bk, tk);
				}
			}
		}
	}
	compute_write(d, &l, out);
	for (i = 0; i < l.n; i++)
		if (l.c[i].hi < 0 || l.c[i].lo > 0)
			found++;
	d->ncmp = l.n;
	pv_arena_release(&l.arena);
	free(side);
	free(v);
	return found;
}
