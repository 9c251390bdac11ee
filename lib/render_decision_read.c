/*
 * render_decision_read: the records of the decision pages read into the
 * tables of render_decision_int.h (verdict, cmp, detect, systematic,
 * changepoint, outlier, trend, runval, sample and stat records), and the
 * handle's life.  render_decision.c writes the pages.
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

struct pv_render_decision *
pv_render_decision_new(struct pv_symtab *str)
{
	struct pv_render_decision *d = pv_xcalloc(1, sizeof(*d));

	d->str = str;
	d->empty = pv_symtab_intern(str, "", 0);
	return d;
}

void
pv_render_decision_free(struct pv_render_decision *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->nsk; i++) {
		free(d->sk[i].val);
		free(d->sk[i].run);
	}
	free(d->sk);
	free(d->v);
	free(d->c);
	free(d->sys);
	free(d->mark);
	pv_hmap_release(&d->vmap);
	pv_hmap_release(&d->cmap);
	pv_hmap_release(&d->skmap);
	free(d);
}

void
pv_render_decision_set_artifacts(struct pv_render_decision *d,
				 const char *dir)
{
	d->artifacts = dir;
}

size_t
pv_render_decision_count(const struct pv_render_decision *d)
{
	return d->nv;
}

const char *
pv_render_decision_error(const struct pv_render_decision *d)
{
	return pv_err_msg(&d->err);
}

/* Keys */

static uint32_t
intern(struct pv_render_decision *d, struct pv_str s)
{
	return pv_symtab_intern(d->str, s.s, s.len);
}

static struct pv_str
str(const struct pv_render_decision *d, uint64_t id)
{
	return pv_symtab_get(d->str, (uint32_t)id);
}

/* The key of k (role: BASE, version: TARGET; or b NOKEY, a version). */
static void
key_of(struct pv_render_decision *d, uint64_t *k, uint64_t a, uint64_t b,
       const struct pv_runkey *key)
{
	k[K_A] = a;
	k[K_B] = b;
	k[K_EXPERIMENT] = intern(d, key->experiment);
	k[K_SUITE] = intern(d, key->suite);
	k[K_TEST] = intern(d, key->test);
	k[K_OPERATION] = intern(d, key->operation);
	k[K_METRIC] = intern(d, key->metric);
	k[K_UNIT] = intern(d, key->unit);
	k[K_DIRECTION] = key->direction;
	k[K_LEVEL] = key->level;
}

static uint64_t
key_hash(const uint64_t *k)
{
	return pv_hash(k, NK * sizeof(*k), 0x70765f6b6579ULL);
}

static int
eq_v(const void *ctx, uint32_t id, const void *key)
{
	const struct pv_render_decision *d = ctx;

	return memcmp(d->v[id].k, key, NK * sizeof(uint64_t)) == 0;
}

static int
eq_c(const void *ctx, uint32_t id, const void *key)
{
	const struct pv_render_decision *d = ctx;

	return memcmp(d->c[id].k, key, NK * sizeof(uint64_t)) == 0;
}

static int
eq_sk(const void *ctx, uint32_t id, const void *key)
{
	const struct pv_render_decision *d = ctx;

	return memcmp(d->sk[id].k, key, NK * sizeof(uint64_t)) == 0;
}

/* The side key k, added when new. */
static struct skey *
side_key(struct pv_render_decision *d, const uint64_t *k)
{
	uint64_t h = key_hash(k);
	size_t pos;
	uint32_t id = pv_hmap_find(&d->skmap, h, eq_sk, d, k, &pos);
	struct skey *s;

	if (id != PV_HMAP_NONE)
		return &d->sk[id];
	PV_GROW(d->sk, d->nsk + 1, d->skalloc);
	s = &d->sk[d->nsk];
	memset(s, 0, sizeof(*s));
	memcpy(s->k, k, sizeof(s->k));
	pv_hmap_add_at(&d->skmap, pos, h, (uint32_t)d->nsk++);
	return s;
}

static size_t
find_side(const struct pv_render_decision *d, const uint64_t *k)
{
	uint32_t id = pv_hmap_get(&d->skmap, key_hash(k), eq_sk, d, k);

	return id == PV_HMAP_NONE ? NONE : id;
}

static void
side_value(struct skey *s, uint64_t run, double v)
{
	if (s->n == PV_DECISION_MAX_VALUES) {
		s->more++;
		return;
	}
	if (s->n == s->alloc) {
		PV_GROW(s->val, s->n + 1, s->alloc);
		s->run = pv_xreallocarray(s->run, s->alloc, sizeof(*s->run));
	}
	s->val[s->n] = v;
	s->run[s->n++] = run;
}

/* Collecting */

static int
verdict(struct pv_render_decision *d, const struct pv_record *rec)
{
	struct pv_verdict pv;
	struct pv_str reason;
	struct vd *v;
	uint64_t h;
	size_t pos;
	uint32_t c;

	if (pv_rec_verdict_parse(rec, &pv, &reason, &d->err) < 0)
		return -1;
	PV_GROW(d->v, d->nv + 1, d->valloc);
	v = &d->v[d->nv];
	memset(v, 0, sizeof(*v));
	key_of(d, v->k, intern(d, pv.cmp.key.role),
	       intern(d, pv.cmp.key.version), &pv.cmp.key);
	v->cls = pv.cls;
	v->severity = pv.severity;
	v->band = pv.band;
	v->change = pv.cmp.change;
	v->lo = pv.cmp.lo;
	v->hi = pv.cmp.hi;
	v->q = pv.qvalue;
	v->nb = pv.cmp.nb;
	v->nt = pv.cmp.nt;
	v->runs = pv.runs;
	v->reason = intern(d, reason);
	v->mde = NAN;
	v->p_welch = v->p_mwu = v->g = v->cliff = NAN;
	v->rcv_b = v->rcv_t = NAN;
	/* the verdict's FLAGS; a verdict written before them, its cmp's */
	v->flags = pv.flags;
	h = key_hash(v->k);
	c = pv_hmap_get(&d->cmap, h, eq_c, d, v->k);
	if (c != PV_HMAP_NONE) {
		const struct cmpx *x = &d->c[c];

		v->have_cmp = 1;
		if (rec->nfield < 23)	/* a verdict of 22 fields */
			v->flags = x->flags;
		v->p_welch = x->p_welch;
		v->p_mwu = x->p_mwu;
		v->g = x->g;
		v->cliff = x->cliff;
		v->rcv_b = x->rcv_b;
		v->rcv_t = x->rcv_t;
		v->out_b = x->out_b;
		v->out_t = x->out_t;
	}
	/* a key decided twice (two streams of it): the last decision */
	if (pv_hmap_find(&d->vmap, h, eq_v, d, v->k, &pos) != PV_HMAP_NONE)
		pv_hmap_set_at(&d->vmap, pos, (uint32_t)d->nv);
	else
		pv_hmap_add_at(&d->vmap, pos, h, (uint32_t)d->nv);
	d->nv++;
	return 1;
}

static int
cmp(struct pv_render_decision *d, const struct pv_record *rec)
{
	struct pv_cmp pc;
	struct cmpx *x;
	uint64_t k[NK], h;
	size_t pos;
	uint32_t id;

	if (pv_rec_cmp_parse(rec, &pc, &d->err) < 0)
		return -1;
	key_of(d, k, intern(d, pc.key.role), intern(d, pc.key.version),
	       &pc.key);
	h = key_hash(k);
	id = pv_hmap_find(&d->cmap, h, eq_c, d, k, &pos);
	if (id == PV_HMAP_NONE) {
		PV_GROW(d->c, d->nc + 1, d->calloc);
		id = (uint32_t)d->nc++;
		pv_hmap_add_at(&d->cmap, pos, h, id);
	}
	x = &d->c[id];
	memcpy(x->k, k, sizeof(k));
	x->flags = pc.flags;
	x->p_welch = pc.p_welch;
	x->p_mwu = pc.p_mwu;
	x->g = pc.g;
	x->cliff = pc.cliff;
	x->rcv_b = pc.rcv_b;
	x->rcv_t = pc.rcv_t;
	x->out_b = pc.out_b;
	x->out_t = pc.out_t;
	return 1;
}

static int
detect(struct pv_render_decision *d, const struct pv_record *rec)
{
	struct pv_cmp pc;
	double mde;
	uint64_t k[NK];
	uint32_t id;

	if (pv_rec_detect_parse(rec, &pc, &mde, &d->err) < 0)
		return -1;
	key_of(d, k, intern(d, pc.key.role), intern(d, pc.key.version),
	       &pc.key);
	id = pv_hmap_get(&d->vmap, key_hash(k), eq_v, d, k);
	if (id != PV_HMAP_NONE)
		d->v[id].mde = mde;
	return 1;
}

static int
systematic(struct pv_render_decision *d, const struct pv_record *rec)
{
	struct pv_runkey key;
	struct pv_str levels;
	struct sysreg *s;

	PV_GROW(d->sys, d->nsys + 1, d->sysalloc);
	s = &d->sys[d->nsys];
	if (pv_rec_systematic_parse(rec, &key, &s->s, &levels, &d->err) < 0)
		return -1;
	key_of(d, s->k, intern(d, key.role), intern(d, key.version), &key);
	s->levels = intern(d, levels);
	d->nsys++;
	return 1;
}

/* A changepoint, outlier or trend record. */
static int
mark(struct pv_render_decision *d, const struct pv_record *rec, int kind)
{
	struct pv_changepoint c;
	struct pv_outlier o;
	struct pv_trend t;
	struct mark *m;

	PV_GROW(d->mark, d->nmark + 1, d->markalloc);
	m = &d->mark[d->nmark];
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->lo = m->hi = NAN;
	if (kind == MARK_CP) {
		if (pv_rec_changepoint_parse(rec, &c, &d->err) < 0)
			return -1;
		key_of(d, m->k, NOKEY, NOKEY, &c.key);
		m->a = intern(d, c.before);
		m->b = intern(d, c.after);
		m->change = c.change;
		m->lo = c.lo;
		m->hi = c.hi;
		m->p = c.p;
		m->flags = c.flags;
	} else if (kind == MARK_OUTLIER) {
		if (pv_rec_outlier_parse(rec, &o, &d->err) < 0)
			return -1;
		key_of(d, m->k, NOKEY, NOKEY, &o.key);
		m->a = intern(d, o.version);
		m->b = d->empty;
		m->change = o.change;
		m->p = o.p;
	} else {
		if (pv_rec_trend_parse(rec, &t, &d->err) < 0)
			return -1;
		key_of(d, m->k, NOKEY, NOKEY, &t.key);
		m->a = intern(d, t.first);
		m->b = intern(d, t.last);
		m->change = t.change;
		m->lo = t.lo;
		m->hi = t.hi;
		m->p = t.p;
	}
	d->nmark++;
	return 1;
}

static int
runval(struct pv_render_decision *d, const struct pv_record *rec)
{
	struct pv_runval rv;
	struct skey *s;
	uint64_t k[NK];

	if (pv_rec_runval_parse(rec, &rv, &d->err) < 0)
		return -1;
	key_of(d, k, intern(d, rv.key.version), NOKEY, &rv.key);
	s = side_key(d, k);
	if (!s->runval) {
		/* a run's value, not its samples, where both come */
		s->runval = 1;
		s->n = s->more = 0;
	}
	side_value(s, rv.run, rv.value);
	return 1;
}

static int
sample(struct pv_render_decision *d, const struct pv_record *rec,
       uint32_t version, uint32_t experiment)
{
	struct pv_runkey key;
	struct skey *s;
	uint64_t k[NK];

	memset(&key, 0, sizeof(key));
	key.experiment = str(d, experiment);
	key.suite = rec->suite;
	key.test = rec->test;
	key.operation = rec->operation;
	key.metric = rec->metric;
	key.unit = rec->unit;
	key.direction = rec->direction;
	key.level = rec->level;
	key_of(d, k, version, NOKEY, &key);
	s = side_key(d, k);
	if (!s->runval)
		side_value(s, rec->run, rec->val);
	return 1;
}

static int
stat(struct pv_render_decision *d, const struct pv_record *rec)
{
	struct pv_runkey key;
	struct pv_summary sum;
	enum pv_replicate rep;
	struct skey *s;
	uint64_t k[NK];

	if (pv_rec_stat_parse(rec, &key, &sum, &rep, &d->err) < 0)
		return -1;
	key_of(d, k, intern(d, key.version), NOKEY, &key);
	s = side_key(d, k);
	s->have_stat = 1;
	s->median = sum.median;
	s->lo = sum.median_lo;
	s->hi = sum.median_hi;
	s->nstat = sum.n;
	return 1;
}

int
pv_render_decision_add(struct pv_render_decision *d,
		       const struct pv_record *rec, uint32_t version,
		       uint32_t experiment)
{
	struct pv_str t;

	if (rec->type == PV_REC_SAMPLE)
		return sample(d, rec, version, experiment);
	if (rec->type != PV_REC_OTHER)
		return 0;
	t = rec->field[0];
	if (pv_str_eq(t, "verdict"))
		return verdict(d, rec);
	if (pv_str_eq(t, "cmp"))
		return cmp(d, rec);
	if (pv_str_eq(t, "detect"))
		return detect(d, rec);
	if (pv_str_eq(t, "systematic"))
		return systematic(d, rec);
	if (pv_str_eq(t, "runval"))
		return runval(d, rec);
	if (pv_str_eq(t, "stat"))
		return stat(d, rec);
	if (pv_str_eq(t, "changepoint"))
		return mark(d, rec, MARK_CP);
	if (pv_str_eq(t, "outlier"))
		return mark(d, rec, MARK_OUTLIER);
	if (pv_str_eq(t, "trend"))
		return mark(d, rec, MARK_TREND);
	return 0;
}

size_t
pv_render_decision_find_side(const struct pv_render_decision *d,
			     const uint64_t *k)
{
	return find_side(d, k);
}

int
pv_render_decision_kept(const struct pv_render_decision *d, size_t i)
{
	return pv_hmap_get(&d->vmap, key_hash(d->v[i].k), eq_v, d,
			   d->v[i].k) == i;
}
