/*
 * funcmatch: roots and functions matched across two profiles by their
 * place in the call tree (see funcmatch.h).
 *
 * Both searches reduce each candidate to a sorted list of (neighbour,
 * weight): the leaves under a root, the callers and callees of a
 * function.  Scores of two candidates are then a merge of their lists.
 * Functions are many, so the pairs worth scoring are proposed by the
 * neighbours they share: each neighbour lists the candidates of each side
 * that have it, and a pair is scored once for all of them.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "funcmatch.h"
#include "hash.h"
#include "hmap.h"
#include "xalloc.h"

#define NONE UINT32_MAX
#define MAX_ROOTS 64
#define MAX_SHARED 256

/* a neighbour of a candidate: a names id (or a pseudo one), its weight */
struct nb {
	uint32_t cand;
	uint32_t kind;		/* CALLER, CALLEE */
	uint32_t name;		/* names id, or NOCALLER, SELF */
	uint64_t w;
};

enum {
	CALLER,
	CALLEE
};

#define NOCALLER (UINT32_MAX - 1)
#define SELF (UINT32_MAX - 2)

static int
cmp_nb(const void *pa, const void *pb)
{
	const struct nb *a = pa, *b = pb;

	if (a->cand != b->cand)
		return a->cand < b->cand ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return a->name < b->name ? -1 : a->name > b->name;
}

/* Sort a list and add up its duplicates; returns the new length. */
static size_t
merge_nb(struct nb *v, size_t n)
{
	size_t i, out = 0;

	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_nb);
	for (i = 0; i < n; i++) {
		if (out > 0 && cmp_nb(&v[out - 1], &v[i]) == 0) {
			v[out - 1].w = v[out - 1].w > UINT64_MAX - v[i].w ?
				UINT64_MAX : v[out - 1].w + v[i].w;
			continue;
		}
		v[out++] = v[i];
	}
	return out;
}

/* Sum over the names of both lists of the smaller share. */
static double
overlap(const struct nb *a, size_t na, double ta, const struct nb *b,
	size_t nb, double tb)
{
	size_t i = 0, j = 0;
	double s = 0;

	if (ta <= 0 || tb <= 0)
		return 0;
	while (i < na && j < nb) {
		if (a[i].name < b[j].name) {
			i++;
		} else if (a[i].name > b[j].name) {
			j++;
		} else {
			double x = (double)a[i].w / ta, y = (double)b[j].w / tb;

			s += x < y ? x : y;
			i++;
			j++;
		}
	}
	return s > 1 ? 1 : s;
}

/* Roots */

struct root {
	uint32_t name;
	int side;
	uint64_t total;
	size_t first, n;	/* its leaves in the list */
};

static int
cmp_root(const void *pa, const void *pb)
{
	const struct root *a = pa, *b = pb;

	if (a->side != b->side)
		return a->side - b->side;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return a->name < b->name ? -1 : a->name > b->name;
}

/*
 * The ranks of scores: two pairs whose scores round to the same multiple
 * of it are ordered by their names and shares, as the noise of sampling
 * moves a score by about that (a leaf sampled once in an interrupt in 200
 * samples scores 0.997, not 1).
 */
#define SCORE_STEP 0.05

struct pair {
	uint32_t a, b;		/* candidates */
	uint32_t na, nb;	/* their names ids */
	double score, name_sim, share_diff;
	double s[2];		/* callers', callees' similarity */
	long bin;		/* the score's rank: to the nearest SCORE_STEP */
};

static const struct pv_symtab *sort_names;

static int
cmp_pair(const void *pa, const void *pb)
{
	const struct pair *a = pa, *b = pb;
	int c;

	if (a->bin != b->bin)
		return a->bin > b->bin ? -1 : 1;
	if (a->name_sim != b->name_sim)
		return a->name_sim > b->name_sim ? -1 : 1;
	if (a->share_diff != b->share_diff)
		return a->share_diff < b->share_diff ? -1 : 1;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	c = pv_str_cmp(pv_symtab_get(sort_names, a->na),
		       pv_symtab_get(sort_names, b->na));
	if (c != 0)
		return c;
	return pv_str_cmp(pv_symtab_get(sort_names, a->nb),
			  pv_symtab_get(sort_names, b->nb));
}

/* Whether a frame record describes name id. */
static int
described(const struct pv_stackdiff *d, uint32_t id)
{
	int side;

	for (side = 0; side < 2; side++)
		if (id < d->frame_alloc[side] &&
		    d->frame[side][id].space != NONE)
			return 1;
	return 0;
}

/* Each root's total on both sides, by names id, over the events. */
static uint64_t (*root_totals(const struct pv_stackdiff *d))[2]
{
	const struct pv_flametree *t = &d->tree;
	uint64_t (*tot)[2] = pv_xcalloc(d->names.nsym + 1, sizeof(*tot));
	uint32_t ev, r;

	for (ev = t->node[0].child; ev != PV_FLAMETREE_NONE;
	     ev = t->node[ev].sibling)
		for (r = t->node[ev].child; r != PV_FLAMETREE_NONE;
		     r = t->node[r].sibling) {
			int side;

			for (side = 0; side < 2; side++) {
				uint64_t *x = &tot[t->node[r].name][side];

				*x = *x > UINT64_MAX - t->node[r].w[side] ?
					UINT64_MAX : *x + t->node[r].w[side];
			}
		}
	return tot;
}

/* The leaves under root node r, weighed on side, appended to *v. */
static void
leaves(const struct pv_flametree *t, uint32_t r, int side, uint32_t cand,
       struct nb **v, size_t *n, size_t *alloc)
{
	uint32_t i = r;

	/* depth first below r, by the tree's links */
	for (;;) {
		uint64_t self = pv_flametree_self(t, i, side);

		if (self > 0) {
			PV_GROW(*v, *n + 1, *alloc);
			(*v)[*n].cand = cand;
			(*v)[*n].kind = 0;
			(*v)[*n].name = t->node[i].name;
			(*v)[(*n)++].w = self;
		}
		if (t->node[i].child != PV_FLAMETREE_NONE) {
			i = t->node[i].child;
			continue;
		}
		while (i != r && t->node[i].sibling == PV_FLAMETREE_NONE)
			i = t->node[i].parent;
		if (i == r)
			return;
		i = t->node[i].sibling;
	}
}

void
pv_funcmatch_roots(struct pv_stackdiff *d)
{
	const struct pv_flametree *t = &d->tree;
	uint64_t (*tot)[2] = root_totals(d);
	struct root *root = NULL;
	struct nb *v = NULL;
	struct pair *pair = NULL;
	size_t nroot = 0, ralloc = 0, nv = 0, valloc = 0, npair = 0, i, j;
	size_t nside[2] = { 0, 0 }, palloc = 0;
	unsigned char *taken;
	uint32_t ev, r;

	for (i = 0; i < d->names.nsym; i++) {
		int side;

		if ((tot[i][0] == 0) == (tot[i][1] == 0) ||
		    described(d, (uint32_t)i))
			continue;
		side = tot[i][0] == 0;
		PV_GROW(root, nroot + 1, ralloc);
		root[nroot].name = (uint32_t)i;
		root[nroot].side = side;
		root[nroot].total = tot[i][side];
		nroot++;
	}
	free(tot);
	if (nroot > 1)
		qsort(root, nroot, sizeof(*root), cmp_root);
	/* the largest of each side */
	for (i = j = 0; i < nroot; i++)
		if (nside[root[i].side]++ < MAX_ROOTS)
			root[j++] = root[i];
	nroot = j;
	if (nside[0] == 0 || nside[1] == 0) {
		free(root);
		return;
	}
	/* each root's leaves, over the events */
	for (i = 0; i < nroot; i++) {
		root[i].first = nv;
		for (ev = t->node[0].child; ev != PV_FLAMETREE_NONE;
		     ev = t->node[ev].sibling)
			for (r = t->node[ev].child; r != PV_FLAMETREE_NONE;
			     r = t->node[r].sibling)
				if (t->node[r].name == root[i].name)
					leaves(t, r, root[i].side, (uint32_t)i,
					       &v, &nv, &valloc);
		root[i].n = merge_nb(v + root[i].first, nv - root[i].first);
		nv = root[i].first + root[i].n;
	}
	for (i = 0; i < nroot; i++) {
		if (root[i].side != 0)
			continue;
		for (j = 0; j < nroot; j++) {
			double s;

			if (root[j].side != 1)
				continue;
			s = overlap(v + root[i].first, root[i].n,
				    (double)root[i].total, v + root[j].first,
				    root[j].n, (double)root[j].total);
			if (s < 0.5)
				continue;
			PV_GROW(pair, npair + 1, palloc);
			memset(&pair[npair], 0, sizeof(pair[npair]));
			pair[npair].a = (uint32_t)i;
			pair[npair].b = (uint32_t)j;
			pair[npair].na = root[i].name;
			pair[npair].nb = root[j].name;
			pair[npair].score = s;
			npair++;
		}
	}
	if (npair > 1) {
		sort_names = &d->names;
		qsort(pair, npair, sizeof(*pair), cmp_pair);
		sort_names = NULL;
	}
	taken = pv_xcalloc(nroot + 1, 1);
	for (i = 0; i < npair; i++) {
		struct pv_stackdiff_rootmerge *m;

		if (taken[pair[i].a] || taken[pair[i].b])
			continue;
		taken[pair[i].a] = taken[pair[i].b] = 1;
		d->rootmerge = pv_xreallocarray(d->rootmerge,
						d->nrootmerge + 1,
						sizeof(*d->rootmerge));
		m = &d->rootmerge[d->nrootmerge++];
		m->name[0] = root[pair[i].a].name;
		m->name[1] = root[pair[i].b].name;
		m->score = pair[i].score;
	}
	free(taken);
	free(pair);
	free(v);
	free(root);
}

/* Functions */

struct cand {
	uint32_t func;		/* index in d->func */
	int side;
	uint64_t total[2];	/* callers', callees' (self included) */
	size_t first, n;	/* its neighbours in the list */
};

/* a pair's similarities, found by the neighbours that propose it */
struct pkey {
	uint32_t a, b;
};

struct ptab {
	struct pair *pair;
	size_t n, alloc;
	struct pv_hmap map;
};

static int
pair_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct ptab *p = ctx;
	const struct pkey *k = key;

	return p->pair[id].a == k->a && p->pair[id].b == k->b;
}

static struct pair *
pair_get(struct ptab *p, uint32_t a, uint32_t b)
{
	struct pkey k = { a, b };
	uint64_t h = pv_hash_fold(((uint64_t)a << 32 | b) + 1, PV_HASH_K1);
	size_t pos;
	uint32_t id = pv_hmap_find(&p->map, h, pair_eq, p, &k, &pos);

	if (id != PV_HMAP_NONE)
		return &p->pair[id];
	PV_GROW(p->pair, p->n + 1, p->alloc);
	memset(&p->pair[p->n], 0, sizeof(p->pair[p->n]));
	p->pair[p->n].a = a;
	p->pair[p->n].b = b;
	pv_hmap_add_at(&p->map, pos, h, (uint32_t)p->n);
	return &p->pair[p->n++];
}

/* How alike two names are: common beginning and end over the longer. */
static double
name_sim(struct pv_str a, struct pv_str b)
{
	size_t n = a.len < b.len ? a.len : b.len, p = 0, s = 0;
	size_t m = a.len > b.len ? a.len : b.len;

	while (p < n && a.s[p] == b.s[p])
		p++;
	while (s < n - p && a.s[a.len - 1 - s] == b.s[b.len - 1 - s])
		s++;
	return m == 0 ? 1 : (double)(p + s) / (double)m;
}

/*
 * The neighbours of the candidates of the event under node ev: cand[]
 * maps a names id to its candidate (or NONE); rootname[] marks the names
 * of root frames.
 */
static void
neighbours(const struct pv_stackdiff *d, uint32_t ev, const uint32_t *cand,
	   const struct cand *c, struct nb **v, size_t *nv, size_t *alloc)
{
	const struct pv_flametree *t = &d->tree;
	uint32_t i = t->node[ev].child;

	while (i != PV_FLAMETREE_NONE) {
		const struct pv_ftnode *n = &t->node[i];
		uint32_t p = n->parent == ev ? NOCALLER :
			t->node[n->parent].name;
		uint32_t k;

		if ((k = cand[n->name]) != NONE) {
			int side = c[k].side;
			uint64_t self = pv_flametree_self(t, i, side);

			PV_GROW(*v, *nv + 2, *alloc);
			(*v)[*nv].cand = k;
			(*v)[*nv].kind = CALLER;
			(*v)[*nv].name = p;
			(*v)[(*nv)++].w = n->w[side];
			if (self > 0) {
				(*v)[*nv].cand = k;
				(*v)[*nv].kind = CALLEE;
				(*v)[*nv].name = SELF;
				(*v)[(*nv)++].w = self;
			}
		}
		if (p != NOCALLER && (k = cand[p]) != NONE) {
			PV_GROW(*v, *nv + 1, *alloc);
			(*v)[*nv].cand = k;
			(*v)[*nv].kind = CALLEE;
			(*v)[*nv].name = n->name;
			(*v)[(*nv)++].w = n->w[c[k].side];
		}
		if (n->child != PV_FLAMETREE_NONE) {
			i = n->child;
			continue;
		}
		while (i != ev && t->node[i].sibling == PV_FLAMETREE_NONE)
			i = t->node[i].parent;
		if (i == ev)
			break;
		i = t->node[i].sibling;
	}
}

/* by kind and neighbour, then side: the candidates that share each */
static int
cmp_shared(const void *pa, const void *pb)
{
	const struct nb *a = pa, *b = pb;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->name != b->name)
		return a->name < b->name ? -1 : 1;
	return a->cand < b->cand ? -1 : a->cand > b->cand;
}

/* Match the candidates of one event; pairs go to d->match. */
static void
match_event(struct pv_stackdiff *d, uint32_t ev, uint32_t *cand,
	    struct cand *c, size_t nc, const uint64_t den[2])
{
	struct nb *v = NULL, *sh;
	size_t nv = 0, valloc = 0, i, j, k;
	struct ptab pt;
	unsigned char *taken;

	memset(&pt, 0, sizeof(pt));
	neighbours(d, ev, cand, c, &v, &nv, &valloc);
	nv = merge_nb(v, nv);
	for (i = 0; i < nv; i = j) {
		for (j = i; j < nv && v[j].cand == v[i].cand; j++)
			c[v[i].cand].total[v[j].kind] += v[j].w;
		c[v[i].cand].first = i;
		c[v[i].cand].n = j - i;
	}
	/* pairs proposed by the callers and callees they share */
	sh = pv_xreallocarray(NULL, nv + 1, sizeof(*sh));
	if (nv > 0)
		memcpy(sh, v, nv * sizeof(*sh));
	if (nv > 1)
		qsort(sh, nv, sizeof(*sh), cmp_shared);
	for (i = 0; i < nv; i = j) {
		size_t nbase = 0, ntarget = 0;

		for (j = i; j < nv && sh[j].kind == sh[i].kind &&
		     sh[j].name == sh[i].name; j++) {
			if (c[sh[j].cand].side == 0)
				nbase++;
			else
				ntarget++;
		}
		if (sh[i].name == NOCALLER || sh[i].name == SELF ||
		    nbase == 0 || ntarget == 0 || nbase > MAX_SHARED ||
		    ntarget > MAX_SHARED)
			continue;
		for (k = i; k < j; k++) {
			size_t m;

			if (c[sh[k].cand].side != 0)
				continue;
			for (m = i; m < j; m++)
				if (c[sh[m].cand].side == 1)
					(void)pair_get(&pt, sh[k].cand,
						       sh[m].cand);
		}
	}
	free(sh);
	/* score every pair proposed */
	for (i = 0; i < pt.n; i++) {
		struct pair *p = &pt.pair[i];
		const struct cand *a = &c[p->a], *b = &c[p->b];
		const struct pv_stackdiff_func *fa = &d->func[a->func];
		const struct pv_stackdiff_func *fb = &d->func[b->func];
		size_t ka, kb;

		/* each list: the callers, then the callees */
		for (ka = 0; ka < a->n && v[a->first + ka].kind == CALLER;
		     ka++)
			;
		for (kb = 0; kb < b->n && v[b->first + kb].kind == CALLER;
		     kb++)
			;
		p->s[0] = overlap(v + a->first, ka, (double)a->total[0],
				  v + b->first, kb, (double)b->total[0]);
		p->s[1] = overlap(v + a->first + ka, a->n - ka,
				  (double)a->total[1], v + b->first + kb,
				  b->n - kb, (double)b->total[1]);
		p->score = (p->s[0] + p->s[1]) / 2;
		p->na = fa->name;
		p->nb = fb->name;
		p->name_sim = name_sim(pv_symtab_get(&d->names, fa->name),
				       pv_symtab_get(&d->names, fb->name));
		p->share_diff = fabs(fa->incl_pct[0] - fb->incl_pct[1]);
		/* scores a sample or two apart are one rank (SCORE_STEP) */
		p->bin = (long)floor(p->score / SCORE_STEP + 0.5);
	}
	if (pt.n > 1) {
		sort_names = &d->names;
		qsort(pt.pair, pt.n, sizeof(*pt.pair), cmp_pair);
		sort_names = NULL;
	}
	taken = pv_xcalloc(nc + 1, 1);
	for (i = 0; i < pt.n; i++) {
		const struct pair *p = &pt.pair[i];
		const struct pv_stackdiff_func *fa = &d->func[c[p->a].func];
		const struct pv_stackdiff_func *fb = &d->func[c[p->b].func];
		struct pv_stackdiff_match *m;
		uint64_t incl[2], excl[2];

		/* above one half: one side alike and the other not at all is
		 * a shared caller, or a shared leaf shape, and no more */
		if (!(p->score > 0.5) || taken[p->a] || taken[p->b])
			continue;
		taken[p->a] = taken[p->b] = 1;
		d->match = pv_xreallocarray(d->match, d->nmatch + 1,
					    sizeof(*d->match));
		m = &d->match[d->nmatch++];
		m->event = fa->event;
		m->name[0] = fa->name;
		m->name[1] = fb->name;
		incl[0] = fa->incl[0];
		incl[1] = fb->incl[1];
		excl[0] = fa->excl[0];
		excl[1] = fb->excl[1];
		pv_stackdiff_figures(&m->fig, incl, excl, den);
		m->score = p->score;
	}
	free(taken);
	free(pt.pair);
	pv_hmap_release(&pt.map);
	free(v);
}

void
pv_funcmatch_find(struct pv_stackdiff *d, const uint32_t *evtotal)
{
	const struct pv_flametree *t = &d->tree;
	uint32_t *cand = NULL;
	unsigned char *isroot;
	struct cand *c = NULL;
	size_t i, first, calloc = 0;
	uint32_t ev, r;

	isroot = pv_xcalloc(d->names.nsym + 1, 1);
	for (ev = t->node[0].child; ev != PV_FLAMETREE_NONE;
	     ev = t->node[ev].sibling)
		for (r = t->node[ev].child; r != PV_FLAMETREE_NONE;
		     r = t->node[r].sibling)
			isroot[t->node[r].name] = 1;
	cand = pv_xreallocarray(NULL, d->names.nsym + 1, sizeof(*cand));
	memset(cand, 0xff, (d->names.nsym + 1) * sizeof(*cand));
	/* the functions are sorted by event: one event at a time */
	for (first = 0; first < d->nfunc; first = i) {
		uint32_t event = d->func[first].event;
		const struct pv_stackdiff_total *tt =
			&d->total[evtotal[event] - 1];
		size_t nc = 0, k;
		int sides = 0;
		uint64_t den[2];

		for (i = first; i < d->nfunc && d->func[i].event == event;
		     i++) {
			const struct pv_stackdiff_func *f = &d->func[i];

			if ((f->presence != PV_IN_BASE &&
			     f->presence != PV_IN_TARGET) || isroot[f->name])
				continue;
			PV_GROW(c, nc + 1, calloc);
			memset(&c[nc], 0, sizeof(c[nc]));
			c[nc].func = (uint32_t)i;
			c[nc].side = f->presence == PV_IN_TARGET;
			sides |= 1 << c[nc].side;
			cand[f->name] = (uint32_t)nc++;
		}
		den[0] = tt->period[0];
		den[1] = tt->period[1];
		if (d->opt.raw)
			den[0] = den[1] = den[0] != 0 ? den[0] : den[1];
		if (sides == 3) {
			for (ev = t->node[0].child; ev != PV_FLAMETREE_NONE &&
			     t->node[ev].name != event;
			     ev = t->node[ev].sibling)
				;
			if (ev != PV_FLAMETREE_NONE)
				match_event(d, ev, cand, c, nc, den);
		}
		for (k = 0; k < nc; k++)
			cand[d->func[c[k].func].name] = NONE;
	}
	free(c);
	free(cand);
	free(isroot);
}

void
pv_funcmatch_write(const struct pv_stackdiff *d, struct pv_strbuf *sb,
		   FILE *out)
{
	size_t i;

	for (i = 0; i < d->nmatch; i++) {
		const struct pv_stackdiff_match *m = &d->match[i];
		struct pv_rec_match r;

		r.event = pv_symtab_get(&d->names, m->event);
		r.name[0] = pv_symtab_get(&d->names, m->name[0]);
		r.name[1] = pv_symtab_get(&d->names, m->name[1]);
		r.fig = m->fig;
		r.score = m->score;
		pv_rec_match_write(sb, &r);
		if (sb->len >= 65536) {
			fwrite(sb->buf, 1, sb->len, out);
			pv_strbuf_reset(sb);
		}
	}
}
