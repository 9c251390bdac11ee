/*
 * sampdiff: the sample comparison of pv-diff: sections paired, their keys
 * compared on several threads, the records written in key order (see
 * sampdiff.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "hash.h"
#include "inorder.h"
#include "rollup.h"
#include "sampdiff.h"
#include "stats.h"
#include "xalloc.h"

/*
 * The record about to be added to gs's table is of this test (testspill.h):
 * when it came back after another began, every key is held from now on,
 * and the tests are no longer told apart.
 */
static int
enter_group(struct pv_sampdiff *d, struct pv_testspill *gs,
	    struct pv_str role, struct pv_str version,
	    struct pv_str experiment, struct pv_str suite, struct pv_str test)
{
	int rc;

	if (gs->hold)
		return 0;
	rc = pv_testspill_enter(gs, role, version, experiment, suite, test);
	if (rc > 0)
		rc = pv_testspill_hold_all(gs);
	if (rc < 0)
		d->err = gs->err;
	return rc;
}

/* Every saved test of both tables back: every key held. */
static int
hold_all(struct pv_sampdiff *d)
{
	if (pv_testspill_hold_all(&d->gsamples) < 0) {
		d->err = d->gsamples.err;
		return -1;
	}
	if (pv_testspill_hold_all(&d->grunvals) < 0) {
		d->err = d->grunvals.err;
		return -1;
	}
	return 0;
}

void
pv_sampdiff_init(struct pv_sampdiff *d, const struct pv_cmp_opts *opt)
{
	memset(d, 0, sizeof(*d));
	d->opt = *opt;
	pv_runtab_init(&d->samples);
	pv_runtab_init(&d->runvals);
	pv_hmap_init(&d->secmap, 0);
	pv_strbuf_init(&d->scratch, 128);
	d->cur = SIZE_MAX;
	pv_testspill_file_init(&d->spill, "pv-diff");
	pv_testspill_init(&d->gsamples, &d->samples, &d->spill);
	pv_testspill_init(&d->grunvals, &d->runvals, &d->spill);
}

void
pv_sampdiff_release(struct pv_sampdiff *d)
{
	size_t i;

	for (i = 0; i < d->nsec; i++) {
		pv_kvset_release(&d->sec[i].kv);
		free(d->sec[i].rs);
	}
	free(d->sec);
	free(d->prim);
	pv_runtab_release(&d->samples);
	pv_runtab_release(&d->runvals);
	pv_hmap_release(&d->secmap);
	pv_arena_release(&d->strs);
	pv_strbuf_release(&d->scratch);
	pv_testspill_release(&d->gsamples);
	pv_testspill_release(&d->grunvals);
	pv_testspill_file_release(&d->spill);
}

/* a section's identity, looked for */
struct secid {
	struct pv_str role, version, experiment;
};

static int
sec_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct pv_sampdiff_section *s =
		&((const struct pv_sampdiff *)ctx)->sec[id];
	const struct secid *k = key;

	return pv_str_cmp(s->role, k->role) == 0 &&
		pv_str_cmp(s->version, k->version) == 0 &&
		pv_str_cmp(s->experiment, k->experiment) == 0;
}

static struct pv_str
keep(struct pv_sampdiff *d, struct pv_str s)
{
	struct pv_str r = { pv_arena_memdup(&d->strs, s.s, s.len), s.len };

	return r;
}

/* The section of this identity, created when new. */
static size_t
section(struct pv_sampdiff *d, struct pv_str role, struct pv_str version,
	struct pv_str experiment)
{
	struct secid k = { role, version, experiment };
	struct pv_sampdiff_section *s;
	uint64_t h = pv_hash(role.s, role.len, 0);
	size_t pos;
	uint32_t id;

	h = pv_hash(version.s, version.len, h);
	h = pv_hash(experiment.s, experiment.len, h);
	id = pv_hmap_find(&d->secmap, h, sec_eq, d, &k, &pos);
	if (id != PV_HMAP_NONE)
		return id;
	id = (uint32_t)d->nsec;
	PV_GROW(d->sec, d->nsec + 1, d->secalloc);
	s = &d->sec[d->nsec++];
	s->role = keep(d, role);
	s->version = keep(d, version);
	s->experiment = keep(d, experiment);
	pv_kvset_init(&s->kv);
	s->rs = NULL;
	s->nrs = s->rsalloc = 0;
	pv_hmap_add_at(&d->secmap, pos, h, id);
	return id;
}

int
pv_sampdiff_add(struct pv_sampdiff *d, const struct pv_record *rec)
{
	static const struct pv_str none = { "", 0 };
	struct pv_sampdiff_section *s;

	switch (rec->type) {
	case PV_REC_VERSION:
		pv_runtab_stream(&d->samples);
		return 1;
	case PV_REC_SECTION:
		d->cur = section(d, rec->role, rec->version, rec->experiment);
		return 1;
	case PV_REC_STACK:
		d->nstack++;
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
		if (enter_group(d, &d->gsamples, s->role, s->version,
				s->experiment, rec->suite, rec->test) < 0)
			return -1;
		if (pv_runtab_add_sample(&d->samples, s->role, s->version,
					 s->experiment, rec) < 0) {
			d->err = d->samples.err;
			return -1;
		}
		return 1;
	case PV_REC_OTHER:
		if (pv_str_eq(rec->field[0], "stack"))
			d->nstack++;
		if (pv_str_eq(rec->field[0], "runstart")) {
			struct pv_runstart r;

			if (pv_rec_runstart_parse(rec, &r, &d->err) < 0)
				return -1;
			if (d->cur == SIZE_MAX)
				d->cur = section(d, none, none, none);
			s = &d->sec[d->cur];
			PV_GROW(s->rs, s->nrs + 1, s->rsalloc);
			s->rs[s->nrs++] = r;
			return 1;
		}
		if (pv_str_eq(rec->field[0], "primary")) {
			struct pv_primary p;

			if (pv_rec_primary_parse(rec, &p, &d->err) < 0)
				return -1;
			p.suite = keep(d, p.suite);
			p.test = keep(d, p.test);
			p.operation = keep(d, p.operation);
			p.metric = keep(d, p.metric);
			PV_GROW(d->prim, d->nprim + 1, d->primalloc);
			d->prim[d->nprim++] = p;
			return 1;
		}
		if (pv_str_eq(rec->field[0], "runval")) {
			struct pv_runval rv;
			const struct pv_runkey *k = &rv.key;

			if (pv_rec_runval_parse(rec, &rv, &d->err) < 0)
				return -1;
			if (enter_group(d, &d->grunvals, k->role, k->version,
					k->experiment, k->suite, k->test) < 0)
				return -1;
			if (pv_runtab_add_runval_parsed(&d->runvals, &rv) < 0) {
				d->err = d->runvals.err;
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
	int role;		/* 0 baseline, 1 target, -1 neither */
};

static int
version_is(const struct pv_runset *set, const char *v)
{
	return v != NULL && pv_str_eq(set->key.version, v);
}

/* Whether some set of v[0..n) has version ver. */
static int
has_version(struct pv_runset **v, size_t n, const char *ver)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (version_is(v[i], ver))
			return 1;
	return 0;
}

/* The versions of v[0..n), quoted and separated by ", ", into sb. */
static void
list_versions(struct pv_strbuf *sb, struct pv_runset **v, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (pv_str_cmp(v[j]->key.version, v[i]->key.version) == 0)
				break;
		if (j < i)
			continue;
		if (sb->len > 0)
			pv_strbuf_addstr(sb, ", ");
		pv_strbuf_addf(sb, "'%.*s'", (int)v[i]->key.version.len,
			       v[i]->key.version.s);
	}
}

/*
 * The side of every run of sets (sets of one experiment, role and
 * version), by the rules of sampdiff.h.  Returns 0, or -1 with d->err set.
 */
static int
assign_sides(struct pv_sampdiff *d, struct side *side, size_t nside,
	     struct pv_runset **v, size_t nset)
{
	const char *b = d->base_version, *t = d->target_version;
	struct pv_str first = { NULL, 0 }, second = { NULL, 0 };
	size_t i, k;
	int roles = 0;

	if (b != NULL || t != NULL) {
		const char *miss = b != NULL && !has_version(v, nset, b) ? b :
			t != NULL && !has_version(v, nset, t) ? t : NULL;

		if (b != NULL && t != NULL && strcmp(b, t) == 0)
			return pv_err_set(&d->err, "the baseline and the "
					  "target are the same version '%s'",
					  b);
		if (miss != NULL) {
			pv_strbuf_reset(&d->scratch);
			list_versions(&d->scratch, v, nset);
			return pv_err_set(&d->err, "no section of version "
					  "'%s' to take as the %s (the "
					  "versions: %s)", miss, miss == b ?
					  "baseline" : "target",
					  nset ? d->scratch.buf : "none");
		}
		for (i = 0; i < nside; i++) {
			const struct pv_runset *s = v[side[i].start];

			side[i].role = version_is(s, b) ? 0 :
				version_is(s, t) ? 1 : t == NULL ? 1 :
				b == NULL ? 0 : -1;
		}
		return 0;
	}
	for (i = 0; i < nside; i++) {
		const struct pv_runset *s = v[side[i].start];

		side[i].role = pv_str_eq(s->key.role, "baseline") ? 0 :
			pv_str_eq(s->key.role, "target") ? 1 : -1;
		roles |= side[i].role >= 0;
	}
	if (roles)
		return 0;
	/*
	 * No roles at all (pv-parse of an MMTests tree, say): the first
	 * version of the input is the baseline, the second the target, in
	 * the order of their sections
	 */
	for (k = 0; k < d->nsec; k++) {
		struct pv_str ver = d->sec[k].version;

		for (i = 0; i < nside; i++)
			if (pv_str_cmp(v[side[i].start]->key.version,
				       ver) == 0)
				break;
		if (i == nside || (first.s != NULL &&
				   pv_str_cmp(first, ver) == 0) ||
		    (second.s != NULL && pv_str_cmp(second, ver) == 0))
			continue;
		if (first.s == NULL) {
			first = ver;
		} else if (second.s == NULL) {
			second = ver;
		} else {
			pv_strbuf_reset(&d->scratch);
			list_versions(&d->scratch, v, nset);
			return pv_err_set(&d->err, "sections of more than two "
					  "versions and none with a role "
					  "(%s): name the sides with "
					  "--baseline and --target",
					  d->scratch.buf);
		}
	}
	for (i = 0; i < nside; i++) {
		struct pv_str ver = v[side[i].start]->key.version;

		side[i].role = first.s != NULL &&
			pv_str_cmp(ver, first) == 0 ? 0 :
			second.s != NULL && pv_str_cmp(ver, second) == 0 ?
			1 : -1;
	}
	return 0;
}

/* Why nothing was paired, in d->err; returns -1. */
static int
nothing_paired(struct pv_sampdiff *d, const struct side *side,
	       size_t nside, struct pv_runset **v, size_t nset)
{
	const char *hint = d->nstack > 0 ? "; the input holds stacks too: "
		"--profiles compares them" : "";
	struct pv_strbuf *sb = &d->scratch;
	int has[2] = { 0, 0 };
	size_t i, r;

	for (i = 0; i < nside; i++)
		if (side[i].role >= 0)
			has[side[i].role] = 1;
	if (nset == 0)
		return pv_err_set(&d->err, "no sample or runval records to "
				  "compare%s", hint);
	if (!has[0] || !has[1])
		return pv_err_set(&d->err, "no %s section to compare with: "
				  "give the sections the roles baseline and "
				  "target (pv-parse --role, pv-collect "
				  "--role), or name the versions with "
				  "--baseline and --target%s", has[0] ?
				  "target" : "baseline", hint);
	pv_strbuf_reset(sb);
	for (r = 0; r < 2; r++) {
		const struct pv_str *last = NULL;

		pv_strbuf_addstr(sb, r == 0 ? "baseline " : "; target ");
		for (i = 0; i < nside; i++) {
			const struct pv_str *e =
				&v[side[i].start]->key.experiment;

			if (side[i].role != (int)r ||
			    (last != NULL && pv_str_cmp(*last, *e) == 0))
				continue;
			pv_strbuf_addf(sb, "%s'%.*s'", last ? ", " : "",
				       (int)e->len, e->s);
			last = e;
		}
	}
	return pv_err_set(&d->err, "no baseline and target of one experiment "
			  "(%s): samples are compared within an experiment "
			  "only (pv-collect gives a plan one identity; "
			  "--experiment names it)%s", sb->buf, hint);
}

static size_t
side_sec(struct pv_sampdiff *d, const struct pv_runset *set)
{
	return section(d, set->key.role, set->key.version,
		       set->key.experiment);
}

/*
 * The comparisons to make: first listed (their sets and sections), then
 * taken in key order a slice at a time, computed by several threads when
 * there are many, each into its own slot, so that the output does not
 * depend on the threads, and written.  Where the runs' times may be known
 * the keys of each pair are finished together (pv_cmp_pair()): then the
 * slice is the whole list.
 */
struct cmplist {
	struct pv_arena arena;		/* c, h, set, sec, allocated once */
	struct pv_cmp *c;		/* the slice's; all (by at) where h */
	/*
	 * The honest interval's parts, kept for pv_cmp_pair() where the
	 * runs' times may be known (runstart records); else NULL, and each
	 * comparison is finished alone as it is computed: without times
	 * nothing is pooled over the pair.
	 */
	struct pv_honest *h;
	const struct pv_runset **set;	/* two a comparison: base, target */
	size_t *sec;			/* their sections */
	size_t n;
	size_t *pair;			/* where each pair's comparisons begin */
	struct pv_str *ver;		/* two a pair: its base, its target */
	size_t npair, pairalloc, veralloc;
	const struct pv_sampdiff *d;
	const struct pv_runtab *tab;	/* of the sets */
	size_t jobs;			/* 0: one thread per CPU */
	struct cmpref *ord;		/* the comparisons in key order */
	size_t from;			/* the slice's first, in ord */
	/* a batch of tests: their keys to roll up under, in order */
	const struct pv_runkey *roll;
	size_t nroll;
	/* the writing: where, the roll key reached, the changes found */
	struct writer *w;
	size_t ti;
	long found;
};

/* A comparison as sorted: its key is one's with the pair's versions. */
struct cmpref {
	const struct pv_runset *one;	/* its base's set, else target's */
	const struct pv_str *base, *target;	/* the pair's versions */
	size_t at;			/* in the list */
};

/* Comparisons computed and written at a time, where not all at once. */
#define CMP_SLICE 8192

/* Comparisons a thread takes at a time; the least worth a thread. */
#define CMP_BLOCK 256
#define CMP_PER_THREAD 2048

/* The comparisons from here on are of the pair of base and target. */
static void
pair_begin(struct cmplist *l, const struct pv_runset *base,
	   const struct pv_runset *target)
{
	PV_GROW(l->pair, l->npair + 1, l->pairalloc);
	PV_GROW(l->ver, 2 * l->npair + 2, l->veralloc);
	l->pair[l->npair] = l->n;
	l->ver[2 * l->npair] = base->key.version;
	l->ver[2 * l->npair + 1] = target->key.version;
	l->npair++;
}

/* Room for bound comparisons (pairs_bound()); times: keep h. */
static void
cmplist_alloc(struct cmplist *l, size_t bound, int times)
{
	size_t nc = times || bound < CMP_SLICE ? bound : CMP_SLICE;

	if (bound == 0)
		bound = nc = 1;
	l->c = pv_arena_alloc(&l->arena, pv_xmult(nc, sizeof(*l->c)));
	if (times)
		l->h = pv_arena_alloc(&l->arena,
				      pv_xmult(bound, sizeof(*l->h)));
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	l->set = pv_arena_alloc(&l->arena, pv_xmult(pv_xmult(2, bound),
						    sizeof(*l->set)));
	l->sec = pv_arena_alloc(&l->arena, pv_xmult(pv_xmult(2, bound),
						    sizeof(*l->sec)));
}

static void
cmplist_release(struct cmplist *l)
{
	pv_arena_release(&l->arena);
	free(l->pair);
	free(l->ver);
}

/* A comparison of the pair begun last: its sets (one may be NULL). */
static void
compare(struct cmplist *l, const struct pv_runset *bs,
	const struct pv_runset *ts, size_t ib, size_t it)
{
	/* room for it: pairs_bound() */
	l->set[2 * l->n] = bs;
	l->set[2 * l->n + 1] = ts;
	l->sec[2 * l->n] = ib;
	l->sec[2 * l->n + 1] = it;
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

static int
cmp_runstart(const void *a, const void *b)
{
	const struct pv_runstart *x = a, *y = b;

	return (x->run > y->run) - (x->run < y->run);
}

static const struct pv_runstart *
find_runstart(const struct pv_sampdiff_section *s, uint64_t run)
{
	struct pv_runstart k = { run, PV_NONE, NAN };

	return s->nrs ? bsearch(&k, s->rs, s->nrs, sizeof(*s->rs),
				cmp_runstart) : NULL;
}

/* Whether a section has runstart records: the runs' times may be known. */
static int
have_runstart(const struct pv_sampdiff *d)
{
	size_t i;

	for (i = 0; i < d->nsec; i++)
		if (d->sec[i].nrs > 0)
			return 1;
	return 0;
}

/*
 * The times of a side's runs (ids[0..n)) from its section's runstart
 * records into t: 2 when every run's start is known, 1 when only every
 * run's order is, 0 when not even that.
 */
static int
run_times(const struct pv_sampdiff_section *s, const uint64_t *ids,
	  size_t n, double *t, double *order)
{
	int start = 1, ord = 1;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct pv_runstart *r = find_runstart(s, ids[i]);

		start &= r != NULL && !isnan(r->start);
		ord &= r != NULL && r->order != PV_NONE;
		/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
		t[i] = r != NULL ? r->start : NAN;
		order[i] = r != NULL ? (double)r->order : NAN;
	}
	return start ? 2 : ord ? 1 : 0;
}

/* The key of a comparison: its set's, with the pair's versions. */
static void
ref_key(const struct cmpref *r, struct pv_runkey *k)
{
	*k = r->one->key;
	k->role = *r->base;
	k->version = *r->target;
}

/* Compute a block of comparisons (of ord), their honest parts too. */
static void
compute_block(void *arg, struct pv_inorder_block *blk)
{
	const struct cmplist *l = *(struct cmplist *const *)arg;
	double *buf = NULL;
	uint64_t *ids = NULL;
	size_t alloc = 0, ialloc = 0, i;

	for (i = blk->start; i < blk->end; i++) {
		const struct cmpref *r = &l->ord[l->from + i];
		size_t at = r->at;
		struct pv_cmp *c = l->h != NULL ? &l->c[at] : &l->c[i];
		const struct pv_runset *bs = l->set[2 * at];
		const struct pv_runset *ts = l->set[2 * at + 1];
		size_t nb = bs ? bs->nrun : 0, nt = ts ? ts->nrun : 0;
		struct pv_honest_side sb, st;
		struct pv_honest h;
		struct pv_runkey k;
		double *v, *tm, *ord;
		int kb = 0, kt = 0;

		ref_key(r, &k);
		/* values, start times and orders of both sides */
		PV_GROW(buf, 3 * (nb + nt) + 1, alloc);
		PV_GROW(ids, nb + nt + 1, ialloc);
		v = buf;
		tm = buf + nb + nt;
		ord = tm + nb + nt;
		if (bs != NULL)
			pv_runset_runs(bs, v, ids);
		if (ts != NULL)
			pv_runset_runs(ts, v + nb, ids + nb);
		if (bs != NULL && ts != NULL) {
			kb = run_times(&l->d->sec[l->sec[2 * at]], ids, nb, tm,
				       ord);
			kt = run_times(&l->d->sec[l->sec[2 * at + 1]], ids + nb,
				       nt, tm + nb, ord + nb);
		}
		sb = (struct pv_honest_side){ v, NULL, nb,
			bs ? pv_runset_quantum(bs) : 0, 0 };
		st = (struct pv_honest_side){ v + nb, NULL, nt,
			ts ? pv_runset_quantum(ts) : 0, 0 };
		if (kb == 2 && kt == 2) {
			sb.time = tm;
			st.time = tm + nb;
		} else if (kb && kt) {
			/* only the order within each side */
			sb.time = ord;
			st.time = ord + nb;
			sb.local = st.local = 1;
		}
		if (l->h != NULL) {
			pv_cmp_compute_sides(&k, &sb, &st, &l->d->opt, c,
					     &l->h[at]);
		} else {
			pv_cmp_compute_sides(&k, &sb, &st, &l->d->opt, c, &h);
			pv_cmp_pair(c, &h, 1, &l->d->opt);
			pv_honest_release(&h);
		}
		c->key_text = pv_runtab_key_text(l->tab, r->one);
	}
	free(buf);
	free(ids);
}

static void
take_none(void *arg, const struct pv_inorder_block *blk)
{
	(void)arg;
	(void)blk;
}

/* Comparisons in the order of their keys (as listed when equal). */
static int
cmp_ref(const void *a, const void *b)
{
	const struct cmpref *x = a, *y = b;
	struct pv_runkey kx, ky;
	int c;

	ref_key(x, &kx);
	ref_key(y, &ky);
	c = pv_rec_key_cmp(&kx, &ky);
	return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* The comparisons in key order, into l->ord. */
static void
sort_cmps(struct cmplist *l)
{
	size_t i, p;

	l->ord = pv_xreallocarray(NULL, l->n ? l->n : 1, sizeof(*l->ord));
	for (p = 0; p < l->npair; p++) {
		size_t end = p + 1 < l->npair ? l->pair[p + 1] : l->n;

		for (i = l->pair[p]; i < end; i++) {
			struct cmpref *r = &l->ord[i];

			/* compare() has bs, ts or both, never neither */
			r->one = l->set[2 * i] != NULL ? l->set[2 * i] :
				l->set[2 * i + 1];
			r->base = &l->ver[2 * p];
			r->target = &l->ver[2 * p + 1];
			r->at = i;
		}
	}
	/* one pair of sides at a time comes in order: check first */
	for (i = 1; i < l->n; i++)
		if (cmp_ref(&l->ord[i - 1], &l->ord[i]) > 0)
			break;
	if (i < l->n)
		qsort(l->ord, l->n, sizeof(*l->ord), cmp_ref);
}

/* The writer's state: the roll-ups and where the output goes. */
struct writer {
	struct pv_strbuf sb;
	struct pv_rollup ru;
	double z;
	FILE *out;
};

/* A cmproll record of the scope that ends. */
static void
roll_write(void *arg, struct pv_roll *r, enum pv_scope scope)
{
	struct writer *w = arg;
	struct pv_cmproll cr;
	double h;

	cr.key = *r->first;
	cr.scope = scope;
	cr.keys = r->keys;
	cr.change = r->sum / (double)r->keys;
	h = r->nse == r->keys ? w->z * sqrt(r->var) / (double)r->keys : NAN;
	cr.lo = cr.change - h;
	cr.hi = cr.change + h;
	cr.worst = r->min;
	pv_strbuf_reset(&w->sb);
	pv_rec_cmproll_write(&w->sb, &cr);
	fwrite(w->sb.buf, 1, w->sb.len, w->out);
}

/* the primary records, sorted by suite, test, operation, metric */
static int
cmp_prim(const void *a, const void *b)
{
	const struct pv_primary *x = a, *y = b;
	int c;

	if ((c = pv_str_cmp(x->suite, y->suite)) != 0 ||
	    (c = pv_str_cmp(x->test, y->test)) != 0 ||
	    (c = pv_str_cmp(x->operation, y->operation)) != 0)
		return c;
	return pv_str_cmp(x->metric, y->metric);
}

/* of the test only */
static int
cmp_prim_test(const void *a, const void *b)
{
	const struct pv_primary *x = a, *y = b;
	int c = pv_str_cmp(x->suite, y->suite);

	return c ? c : pv_str_cmp(x->test, y->test);
}

/*
 * Whether a key is secondary: its test has a primary record that is not
 * its operation and metric.
 */
static int
secondary(const struct pv_sampdiff *d, const struct pv_runkey *k)
{
	struct pv_primary p = { k->suite, k->test, k->operation, k->metric };

	if (d->nprim == 0 ||
	    bsearch(&p, d->prim, d->nprim, sizeof(*d->prim), cmp_prim_test) ==
	    NULL)
		return 0;
	return bsearch(&p, d->prim, d->nprim, sizeof(*d->prim), cmp_prim) ==
		NULL;
}

/*
 * Compute the comparisons on one thread per CPU (this one among them),
 * finish the keys of each pair together, and write their records in key
 * order with the roll-ups.
 */
static void
writer_start(struct pv_sampdiff *d, struct writer *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	pv_strbuf_init(&w->sb, 0);
	pv_rollup_init(&w->ru, 0, roll_write, w);
	w->z = pv_stats_normal_quantile(1 - (1 - d->opt.conf) / 2);
	w->out = out;
}

static void
writer_end(struct writer *w)
{
	pv_rollup_end(&w->ru);
	pv_rollup_release(&w->ru);
	pv_strbuf_release(&w->sb);
}

/* Whether c's interval excludes 0: the honest one where there is one. */
static int
excludes_zero(const struct pv_cmp *c)
{
	double lo = isnan(c->hlo) ? c->lo : c->hlo;
	double hi = isnan(c->hhi) ? c->hi : c->hhi;

	return hi < 0 || lo > 0;
}

/* Write a comparison of l, the next in key order, and roll it up. */
static void
write_cmp(struct cmplist *l, struct pv_cmp *c)
{
	struct writer *w = l->w;
	const struct pv_runkey *rk = &c->key;

	if (l->roll != NULL) {
		while (l->ti + 1 < l->nroll &&
		       (pv_str_cmp(l->roll[l->ti].suite, c->key.suite) != 0 ||
			pv_str_cmp(l->roll[l->ti].test, c->key.test) != 0))
			l->ti++;
		rk = &l->roll[l->ti];
	}
	if (secondary(l->d, &c->key))
		c->flags |= PV_CMP_SECONDARY;
	pv_rollup_next(&w->ru, rk);
	pv_strbuf_reset(&w->sb);
	pv_rec_cmp_write(&w->sb, c);
	fwrite(w->sb.buf, 1, w->sb.len, w->out);
	if (!isnan(c->change))
		pv_rollup_add(&w->ru, rk, 0, c->change, c->se);
	l->found += excludes_zero(c);
}

/* A block of a slice computed: written while the next are computed. */
static void
take_write(void *arg, const struct pv_inorder_block *blk)
{
	struct cmplist *l = *(struct cmplist *const *)arg;
	size_t i;

	for (i = blk->start; i < blk->end; i++)
		write_cmp(l, &l->c[i]);
}

/*
 * Compute l's comparisons and write them in key order with the roll-ups
 * to w.  Returns how many have an interval that excludes 0.
 */
static long
compute_batch(struct pv_sampdiff *d, struct cmplist *l, struct writer *w)
{
	struct pv_inorder job;
	struct cmplist *lp = l;
	size_t i, from, to;
	size_t slice = l->h != NULL ? l->n : CMP_SLICE;

	sort_cmps(l);
	l->w = w;
	l->ti = 0;
	l->found = 0;
	memset(&job, 0, sizeof(job));
	job.block = CMP_BLOCK;
	job.jobs = l->jobs;
	job.per_thread = CMP_PER_THREAD;
	job.work = compute_block;
	/* the keys of a pair finished together are written after */
	job.take = l->h != NULL ? take_none : take_write;
	job.thread_end = pv_stats_thread_release;
	job.arg = &lp;
	for (from = 0; from < l->n; from = to) {
		to = l->n - from > slice ? from + slice : l->n;
		l->from = from;
		job.n = to - from;
		pv_inorder_run(&job);
	}
	if (l->h != NULL) {
		for (i = 0; i < l->npair; i++) {
			size_t a = l->pair[i];
			size_t b = i + 1 < l->npair ? l->pair[i + 1] : l->n;

			pv_cmp_pair(l->c + a, l->h + a, b - a, &d->opt);
		}
		for (i = 0; i < l->n; i++)
			write_cmp(l, &l->c[l->ord[i].at]);
		for (i = 0; i < l->n; i++)
			pv_honest_release(&l->h[i]);
	}
	free(l->ord);
	return l->found;
}

/*
 * Whether the sections ib and it of the sides bk and tk differ in their
 * meta or env records (d->err says how).
 */
static int
not_comparable(struct pv_sampdiff *d, const struct pv_runset *bk,
	       const struct pv_runset *tk, size_t ib, size_t it,
	       const char *const *ignore, size_t nignore)
{
	pv_strbuf_reset(&d->scratch);
	if (pv_kvset_diff(&d->sec[ib].kv, &d->sec[it].kv, ignore, nignore,
			  &d->scratch) <= 0)
		return 0;
	pv_err_set(&d->err, "experiment '%.*s': baseline '%.*s' and target "
		   "'%.*s' are not comparable: %s",
		   (int)bk->key.experiment.len, bk->key.experiment.s,
		   (int)bk->key.version.len, bk->key.version.s,
		   (int)tk->key.version.len, tk->key.version.s,
		   d->scratch.buf);
	return 1;
}

/* Tests read back for a batch: about this many keys at a time. */
#define BATCH_SETS 8192

/* the groups by EXPERIMENT ROLE VERSION (sides), then SUITE TEST */
static int
cmp_group(const void *a, const void *b)
{
	const struct pv_testspill_group *x =
		*(const struct pv_testspill_group *const *)a;
	const struct pv_testspill_group *y =
		*(const struct pv_testspill_group *const *)b;
	int c;

	if ((c = pv_str_cmp(x->key.experiment, y->key.experiment)) != 0 ||
	    (c = pv_str_cmp(x->key.role, y->key.role)) != 0 ||
	    (c = pv_str_cmp(x->key.version, y->key.version)) != 0 ||
	    (c = pv_str_cmp(x->key.suite, y->key.suite)) != 0)
		return c;
	return pv_str_cmp(x->key.test, y->key.test);
}

static int
cmp_test(const struct pv_testspill_group *x,
	 const struct pv_testspill_group *y)
{
	int c = pv_str_cmp(x->key.suite, y->key.suite);

	return c ? c : pv_str_cmp(x->key.test, y->key.test);
}

/* A pair of sides (a baseline's, a target's), in the order written. */
struct bpair {
	size_t base, target;	/* sides */
	size_t ib, it;		/* their sections */
	size_t order;		/* as enumerated */
	const struct pv_runkey *bk, *tk;
};

static int
cmp_bpair(const void *a, const void *b)
{
	const struct bpair *x = a, *y = b;
	int c;

	if ((c = pv_str_cmp(x->bk->version, y->bk->version)) != 0 ||
	    (c = pv_str_cmp(x->tk->version, y->tk->version)) != 0 ||
	    (c = pv_str_cmp(x->bk->experiment, y->bk->experiment)) != 0)
		return c;
	return (x->order > y->order) - (x->order < y->order);
}

static int
same_pair(const struct bpair *x, const struct bpair *y)
{
	return pv_str_cmp(x->bk->version, y->bk->version) == 0 &&
		pv_str_cmp(x->tk->version, y->tk->version) == 0 &&
		pv_str_cmp(x->bk->experiment, y->bk->experiment) == 0;
}

/* The batch: the tests of a pair read back into bt, their roll keys. */
struct batch {
	struct pv_runtab bt;
	struct pv_runkey *roll;		/* this batch's */
	size_t nroll, alloc;
	long found;
};

/* Compare and write the keys of a batch of the pair p, then empty it. */
static void
batch_run(struct pv_sampdiff *d, struct batch *b, const struct bpair *p,
	  const struct pv_runset *bk, const struct pv_runset *tk,
	  struct writer *w)
{
	struct pv_runset **v = pv_runtab_sorted_sides(&b->bt);
	struct cmplist l;
	size_t n = b->bt.nset, mid, x, y;

	memset(&l, 0, sizeof(l));
	l.d = d;
	l.tab = &b->bt;
	l.jobs = d->opt.jobs;
	l.roll = b->roll;
	l.nroll = b->nroll;
	/* no runstart records here (finish_batched()): no times */
	cmplist_alloc(&l, n, 0);
	pair_begin(&l, bk, tk);
	/* the baseline's sets, then the target's, or the other way */
	for (mid = 0; mid < b->bt.nset && same_side(v[mid], v[0]); mid++)
		;
	x = 0;
	y = mid;
	if (b->bt.nset > 0 && !same_side(v[0], bk)) {
		x = mid;
		y = 0;
		mid = b->bt.nset;
	}
	{
		size_t xend = x == 0 ? mid : b->bt.nset;
		size_t yend = y == 0 ? x : b->bt.nset;

		while (x < xend || y < yend) {
			int c = x == xend ? 1 : y == yend ? -1 :
				pv_rec_key_cmp_measure(&v[x]->key,
						       &v[y]->key);

			if (c < 0)
				compare(&l, v[x++], NULL, p->ib, p->it);
			else if (c > 0)
				compare(&l, NULL, v[y++], p->ib, p->it);
			else
				compare(&l, v[x++], v[y++], p->ib, p->it);
		}
	}
	b->found += compute_batch(d, &l, w);
	d->ncmp += l.n;
	cmplist_release(&l);
	free(v);
	pv_runtab_clear(&b->bt);
	b->nroll = 0;
}

/* The roll key of a test of the pair p, into the batch. */
static void
batch_test(struct batch *b, const struct pv_runset *bk,
	   const struct pv_runset *tk, const struct pv_testspill_group *g)
{
	struct pv_runkey *k;

	PV_GROW(b->roll, b->nroll + 1, b->alloc);
	k = &b->roll[b->nroll++];
	*k = g->key;
	k->role = bk->key.version;
	k->version = tk->key.version;
}

/*
 * pv_sampdiff_finish() where one test was held at a time: the sides and
 * their pairs from the tests, then each pair's tests read back in key
 * order, a batch at a time, compared and written.  Returns -2 when the
 * keys must be held together (a test came back, runstart records, two
 * pairs of the same versions and experiment): every key is then back in
 * its table.
 */
static long
finish_batched(struct pv_sampdiff *d, FILE *out, const char *const *ignore,
	       size_t nignore)
{
	struct pv_testspill *gs = d->grunvals.n ? &d->grunvals :
		&d->gsamples;
	struct pv_testspill_group **ord = NULL;
	struct pv_runset *rep = NULL, **vp = NULL;
	struct side *side = NULL;
	size_t *gfrom = NULL;
	struct bpair *pair = NULL;
	struct writer w;
	struct batch b;
	size_t nside = 0, sidealloc = 0, npair = 0, pairalloc = 0, i, j, e;
	long ret = -2;

	if (gs->hold || gs->n == 0 || have_runstart(d))
		goto hold;
	if (pv_testspill_save_current(gs) < 0) {
		d->err = gs->err;
		return -1;
	}
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	ord = pv_xreallocarray(NULL, gs->n, sizeof(*ord));
	for (i = 0; i < gs->n; i++)
		ord[i] = &gs->g[i];
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	qsort(ord, gs->n, sizeof(*ord), cmp_group);
	gfrom = pv_xreallocarray(NULL, gs->n + 1, sizeof(*gfrom));
	for (i = 0; i < gs->n; i = j) {
		for (j = i + 1; j < gs->n &&
		     pv_str_cmp(ord[i]->key.experiment,
				ord[j]->key.experiment) == 0 &&
		     pv_str_cmp(ord[i]->key.role, ord[j]->key.role) == 0 &&
		     pv_str_cmp(ord[i]->key.version,
				ord[j]->key.version) == 0; j++)
			;
		gfrom[nside] = i;
		PV_GROW(side, nside + 1, sidealloc);
		side[nside] = (struct side){ nside, nside + 1, -1 };
		nside++;
	}
	gfrom[nside] = gs->n;
	rep = pv_xcalloc(nside, sizeof(*rep));
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	vp = pv_xreallocarray(NULL, nside, sizeof(*vp));
	for (i = 0; i < nside; i++) {
		rep[i].key = ord[gfrom[i]]->key;
		vp[i] = &rep[i];
	}
	if (assign_sides(d, side, nside, vp, nside) < 0) {
		ret = -1;
		goto out;
	}
	d->npairs = 0;
	for (e = 0; e < nside; e = j) {
		size_t x, y;

		for (j = e + 1; j < nside &&
		     pv_str_cmp(rep[j].key.experiment,
				rep[e].key.experiment) == 0; j++)
			;
		for (x = e; x < j; x++) {
			for (y = e; y < j; y++) {
				const struct pv_runset *bk = &rep[x];
				const struct pv_runset *tk = &rep[y];
				size_t ib, it;

				if (side[x].role != 0 || side[y].role != 1)
					continue;
				ib = side_sec(d, bk);
				it = side_sec(d, tk);
				if (not_comparable(d, bk, tk, ib, it, ignore,
						   nignore)) {
					ret = -1;
					goto out;
				}
				d->npairs++;
				PV_GROW(pair, npair + 1, pairalloc);
				pair[npair] = (struct bpair){ x, y, ib, it,
					npair, &bk->key, &tk->key };
				npair++;
			}
		}
	}
	if (npair == 0) {
		nothing_paired(d, side, nside, vp, nside);
		ret = -1;
		goto out;
	}
	qsort(pair, npair, sizeof(*pair), cmp_bpair);
	for (i = 1; i < npair; i++)
		if (same_pair(&pair[i - 1], &pair[i]))
			break;
	if (i < npair) {
		/* their keys interleave: held together */
		d->npairs = 0;
		goto hold;
	}

	memset(&b, 0, sizeof(b));
	pv_runtab_init(&b.bt);
	writer_start(d, &w, out);
	d->ncmp = 0;
	for (i = 0; i < npair; i++) {
		const struct bpair *p = &pair[i];
		const struct pv_runset *bk = &rep[p->base];
		const struct pv_runset *tk = &rep[p->target];
		size_t x = gfrom[p->base], xend = gfrom[p->base + 1];
		size_t y = gfrom[p->target], yend = gfrom[p->target + 1];

		while (x < xend || y < yend) {
			int c = x == xend ? 1 : y == yend ? -1 :
				cmp_test(ord[x], ord[y]);
			int rc = 0;

			if (c <= 0)
				rc = pv_testspill_load(gs, ord[x], &b.bt);
			if (c >= 0 && rc == 0)
				rc = pv_testspill_load(gs, ord[y], &b.bt);
			if (rc < 0) {
				d->err = gs->err;
				ret = -1;
				break;
			}
			batch_test(&b, bk, tk, ord[c <= 0 ? x : y]);
			if (c <= 0)
				x++;
			if (c >= 0)
				y++;
			if (b.bt.nset >= BATCH_SETS)
				batch_run(d, &b, p, bk, tk, &w);
		}
		if (ret == -1)
			break;
		if (b.nroll > 0)
			batch_run(d, &b, p, bk, tk, &w);
	}
	writer_end(&w);
	pv_runtab_release(&b.bt);
	free(b.roll);
	if (ret != -1)
		ret = b.found;
	goto out;
hold:
	if (hold_all(d) < 0)
		ret = -1;
out:
	free(ord);
	free(gfrom);
	free(rep);
	free(vp);
	free(side);
	free(pair);
	return ret;
}

long
pv_sampdiff_finish(struct pv_sampdiff *d, FILE *out,
		   const char *const *ignore, size_t nignore)
{
	struct pv_runtab *tab = d->runvals.nset ? &d->runvals : &d->samples;
	struct pv_runset **v;
	struct side *side = NULL;
	struct cmplist l;
	struct writer w;
	size_t nside = 0, sidealloc = 0, i, j, e;
	long found = 0;

	if ((found = finish_batched(d, out, ignore, nignore)) != -2)
		return found;
	found = 0;
	memset(&l, 0, sizeof(l));
	l.d = d;
	l.tab = tab;
	l.jobs = d->opt.jobs;
	for (i = 0; i < d->nsec; i++)
		if (d->sec[i].nrs > 1)
			qsort(d->sec[i].rs, d->sec[i].nrs, sizeof(*d->sec[i].rs),
			      cmp_runstart);
	if (d->nprim > 1)
		qsort(d->prim, d->nprim, sizeof(*d->prim), cmp_prim);
	v = pv_runtab_sorted_sides(tab);
	for (i = 0; i < tab->nset; i = j) {
		for (j = i + 1; j < tab->nset && same_side(v[i], v[j]); j++)
			;
		PV_GROW(side, nside + 1, sidealloc);
		side[nside++] = (struct side){ i, j, -1 };
	}
	if (assign_sides(d, side, nside, v, tab->nset) < 0) {
		free(side);
		free(v);
		return -1;
	}

	/* each experiment's baselines against its targets */
	cmplist_alloc(&l, pairs_bound(side, nside, v), have_runstart(d));
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
				if (not_comparable(d, bk, tk, ib, it, ignore,
						   nignore)) {
					cmplist_release(&l);
					free(side);
					free(v);
					return -1;
				}
				d->npairs++;
				pair_begin(&l, bk, tk);
				x = sb->start;
				y = st->start;
				while (x < sb->end || y < st->end) {
					int c = x == sb->end ? 1 :
						y == st->end ? -1 :
						pv_rec_key_cmp_measure(
							&v[x]->key,
							&v[y]->key);

					if (c < 0)
						compare(&l, v[x++], NULL, ib,
							it);
					else if (c > 0)
						compare(&l, NULL, v[y++], ib,
							it);
					else
						compare(&l, v[x++], v[y++], ib,
							it);
				}
			}
		}
	}
	if (d->npairs == 0) {
		nothing_paired(d, side, nside, v, tab->nset);
		cmplist_release(&l);
		free(side);
		free(v);
		return -1;
	}
	writer_start(d, &w, out);
	found = compute_batch(d, &l, &w);
	writer_end(&w);
	d->ncmp = l.n;
	cmplist_release(&l);
	free(side);
	free(v);
	return found;
}
