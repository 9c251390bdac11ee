/*
 * render_profile: the data of the HTML report's profile comparisons (see
 * render_html.h): each event's call tree and function table, packed, for
 * the profile's own script element, and its summary (totals, the shares'
 * denominators, the unit, the top suspects) for the page's list.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_html_private.h"
#include "stackdiff.h"
#include "xalloc.h"

/* suspects listed in a profile's summary, by each ranking */
#define TOP_SUSPECTS 5

static void
json_name(struct pv_strbuf *sb, const struct pv_symtab *t, uint32_t id)
{
	struct pv_str s = pv_symtab_get(t, id);

	pv_html_json(sb, s.s, s.len);
}

/*
 * Packed numbers: the large arrays of a profile (its call tree and
 * function table) are strings of whole numbers, each written in groups
 * of five bits, most significant first, one character a group from a
 * 64-letter alphabet whose upper half marks a group that more follow.
 * A count of periods in nanoseconds takes 6 characters where JSON takes
 * 11 with its comma; report.js (unpack()) reads them back.  Signed
 * numbers are written zigzag: 2n, or -2n - 1.
 */
static const char pack_digit[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef"	/* 0-31: the last group */
	"ghijklmnopqrstuvwxyz0123456789-_";	/* 32-63: more follow */

static void
pack(struct pv_strbuf *sb, uint64_t v)
{
	char buf[16];
	size_t n = 0;

	do {
		buf[n] = pack_digit[(v & 31) | (n > 0 ? 32 : 0)];
		n++;
		v >>= 5;
	} while (v != 0);
	while (n > 0)
		pv_strbuf_addch(sb, buf[--n]);
}

void
pv_render_profile_pack(struct pv_strbuf *sb, uint64_t v)
{
	pack(sb, v);
}

static void
pack_signed(struct pv_strbuf *sb, int64_t v)
{
	pack(sb, v >= 0 ? (uint64_t)v * 2 : (uint64_t)(-(v + 1)) * 2 + 1);
}

/* Writing: the data */

struct emit {
	struct pv_html *h;
	struct pv_strbuf *sb;
	const uint32_t *rank;	/* name id -> rank in byte order */
	uint32_t *remap;	/* name id -> index in the profile's name list */
	uint32_t *used;		/* the names it lists, in that order */
	size_t nused;
};

static int
cmp_names(const void *a, const void *b, void *arg)
{
	const struct pv_symtab *t = arg;

	return pv_str_cmp(pv_symtab_get(t, *(const uint32_t *)a),
			  pv_symtab_get(t, *(const uint32_t *)b));
}

static uint32_t
use_name(struct emit *em, uint32_t id)
{
	if (em->remap[id] == UINT32_MAX) {
		em->remap[id] = (uint32_t)em->nused;
		em->used[em->nused++] = id;
	}
	return em->remap[id];
}

struct child {
	uint32_t rank, node;
};

static int
cmp_child(const void *a, const void *b)
{
	const struct child *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int
kept(const struct pv_ftnode *n, const double *min)
{
	return (double)n->w[0] >= min[0] || (double)n->w[1] >= min[1];
}

/*
 * The tree in depth-first order, children by name, as four packed arrays:
 * name index (-1 the root, -(k + 1) a merge of k small call paths), the
 * depths climbed before the node (its parent's depth + 1 less its own),
 * and its exclusive weights on the baseline and the target (the page sums
 * them up the tree again).
 */
static void
emit_tree(struct emit *em, const struct pv_flametree *t)
{
	struct pv_strbuf n = PV_STRBUF_INIT, d = PV_STRBUF_INIT;
	struct pv_strbuf b = PV_STRBUF_INIT, w = PV_STRBUF_INIT;
	struct child *kids = NULL;
	size_t nkids_alloc = 0;
	uint32_t *stack = NULL;
	unsigned *depth = NULL;
	size_t sp = 0, stack_alloc = 0, depth_alloc = 0;
	unsigned last = 0;	/* the depth of the node before, + 1 */
	double min[2];

	min[0] = (double)t->node[0].w[0] * em->h->min_share;
	min[1] = (double)t->node[0].w[1] * em->h->min_share;
	PV_GROW(stack, 1, stack_alloc);
	PV_GROW(depth, 1, depth_alloc);
	stack[sp] = 0;
	depth[sp++] = 0;
	while (sp > 0) {
		uint32_t at = stack[--sp];
		unsigned dep = depth[sp];
		const struct pv_ftnode *nd = &t->node[at];
		uint64_t mw[2] = { 0, 0 }, self[2] = { nd->w[0], nd->w[1] };
		size_t nk = 0, merged = 0, i;
		uint32_t c;

		for (c = nd->child; c != PV_FLAMETREE_NONE;
		     c = t->node[c].sibling) {
			self[0] -= t->node[c].w[0];
			self[1] -= t->node[c].w[1];
			if (!kept(&t->node[c], min)) {
				mw[0] += t->node[c].w[0];
				mw[1] += t->node[c].w[1];
				merged++;
				continue;
			}
			PV_GROW(kids, nk + 1, nkids_alloc);
			kids[nk].rank = em->rank[t->node[c].name];
			kids[nk++].node = c;
		}
		pack_signed(&n, at == 0 ? -1 :
			    (int64_t)use_name(em, nd->name));
		pack(&d, last - dep);
		pack(&b, self[0]);
		pack(&w, self[1]);
		last = dep + 1;
		if (merged > 0) {
			/* a leaf right after its parent; the page draws it
			 * after the kept children */
			pack_signed(&n, -(int64_t)merged - 1);
			pack(&d, 0);
			pack(&b, mw[0]);
			pack(&w, mw[1]);
			last = dep + 2;
		}
		if (nk > 1)
			qsort(kids, nk, sizeof(*kids), cmp_child);
		PV_GROW(stack, sp + nk, stack_alloc);
		PV_GROW(depth, sp + nk, depth_alloc);
		for (i = nk; i > 0; i--) {	/* the first child on top */
			stack[sp] = kids[i - 1].node;
			depth[sp++] = dep + 1;
		}
	}
	pv_strbuf_addstr(em->sb, "\"tree\":{\"n\":\"");
	pv_strbuf_add(em->sb, n.buf, n.len);
	pv_strbuf_addstr(em->sb, "\",\"d\":\"");
	pv_strbuf_add(em->sb, d.buf, d.len);
	pv_strbuf_addstr(em->sb, "\",\"b\":\"");
	pv_strbuf_add(em->sb, b.buf, b.len);
	pv_strbuf_addstr(em->sb, "\",\"t\":\"");
	pv_strbuf_add(em->sb, w.buf, w.len);
	pv_strbuf_addstr(em->sb, "\"}");
	pv_strbuf_release(&n);
	pv_strbuf_release(&d);
	pv_strbuf_release(&b);
	pv_strbuf_release(&w);
	free(kids);
	free(stack);
	free(depth);
}

static int
cmp_func_name(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return x->name < y->name ? -1 : x->name > y->name;
}

/*
 * The functions of an event without func records: the stacks of its tree
 * (each node's exclusive weights) compared by stackdiff, as pv-diff would,
 * and listed in the order the names were met; those on neither side left
 * out.  Returns 0, or -1 (h->err set) when the stacks pass the stack
 * table's limit.
 */
int
pv_render_profile_funcs(struct pv_html *h, struct event *e)
{
	static const struct pv_stackdiff_opts asis = { .keep_suffixes = 1 };
	static const struct pv_str nameless = { "", 0 };
	const struct pv_flametree *t = &e->tree;
	struct pv_stackdiff d;
	struct pv_str *path = NULL;
	size_t depth = 0, alloc = 0, i;
	uint32_t n = t->node[0].child;
	int rc = 0;

	pv_stackdiff_init(&d, &asis);
	/* depth first by the tree's links, the path's names in path[] */
	while (n != PV_FLAMETREE_NONE && rc == 0) {
		const struct pv_ftnode *nd = &t->node[n];
		int side;

		PV_GROW(path, depth + 1, alloc);
		path[depth++] = pv_symtab_get(&h->names, nd->name);
		for (side = 0; side < 2 && rc == 0; side++) {
			uint64_t self = pv_flametree_self(t, n, side);

			if (self != 0)
				rc = pv_stackdiff_add(&d, side, nameless, path,
						      depth, self, self);
		}
		if (nd->child != PV_FLAMETREE_NONE) {
			n = nd->child;
			continue;
		}
		for (;;) {
			depth--;
			if (t->node[n].sibling != PV_FLAMETREE_NONE) {
				n = t->node[n].sibling;
				break;
			}
			n = t->node[n].parent;
			if (n == 0) {
				n = PV_FLAMETREE_NONE;
				break;
			}
		}
	}
	free(path);
	/* the tree's weights fit in 64 bits (pv_html_write()): so do these */
	if (rc < 0 || pv_stackdiff_compute(&d) < 0) {
		snprintf(h->err, sizeof(h->err), "%.*s",
			 (int)sizeof(h->err) - 1, pv_err_msg(&d.err));
		pv_stackdiff_release(&d);
		return -1;
	}
	for (i = 0; i < d.nfunc; i++) {
		const struct pv_stackdiff_func *f = &d.func[i];
		struct pv_str name = pv_symtab_get(&d.names, f->name);
		struct func *g;

		if (f->incl[0] == 0 && f->incl[1] == 0)
			continue;
		PV_GROW(e->func, e->nfunc + 1, e->func_alloc);
		g = &e->func[e->nfunc++];
		g->name = pv_symtab_intern(&h->names, name.s, name.len);
		g->v[0] = f->incl[0];
		g->v[1] = f->excl[0];
		g->v[2] = f->incl[1];
		g->v[3] = f->excl[1];
		g->dincl = f->delta_incl;
		g->dexcl = f->delta_excl;
	}
	if (e->nfunc > 1)
		qsort(e->func, e->nfunc, sizeof(*e->func), cmp_func_name);
	pv_stackdiff_release(&d);
	return 0;
}

/*
 * The unit of an event's periods: time in nanoseconds for the software
 * clocks, else a count of the event itself (a modifier such as ":u" left
 * out); plain folded stacks count samples.
 */
static void
event_unit(struct pv_strbuf *sb, const char *event)
{
	size_t n = strcspn(event, ":");

	if (n == 0)
		pv_strbuf_addstr(sb, "samples");
	else if ((n == 9 && strncmp(event, "cpu-clock", 9) == 0) ||
		 (n == 10 && strncmp(event, "task-clock", 10) == 0))
		pv_strbuf_addstr(sb, "ns");
	else
		pv_strbuf_add(sb, event, n);
}

/* The totals the shares are of: pv-diff --raw's are both the baseline's. */
static void
shares_of(const struct profile *p, const struct event *e, uint64_t *tot,
	  uint64_t *den)
{
	const struct pv_ftnode *root = &e->tree.node[0];

	tot[0] = e->have_total ? e->total[0] : root->w[0];
	tot[1] = e->have_total ? e->total[1] : root->w[1];
	den[0] = tot[0];
	den[1] = tot[1];
	if (p->raw)
		den[0] = den[1] = tot[0] != 0 ? tot[0] : tot[1];
}

static const struct func *rank_funcs;

/* the suspects by the change of their inclusive share, then by name */
static int
cmp_incl(const void *a, const void *b, void *arg)
{
	const struct func *x = &rank_funcs[*(const size_t *)a];
	const struct func *y = &rank_funcs[*(const size_t *)b];
	const struct pv_symtab *names = arg;

	if (x->dincl != y->dincl)
		return x->dincl > y->dincl ? -1 : 1;
	return pv_str_cmp(pv_symtab_get(names, x->name),
			  pv_symtab_get(names, y->name));
}

/* the same by the exclusive share: pv-diff's order of its func records */
static int
cmp_excl(const void *a, const void *b, void *arg)
{
	const struct func *x = &rank_funcs[*(const size_t *)a];
	const struct func *y = &rank_funcs[*(const size_t *)b];
	const struct pv_symtab *names = arg;

	if (x->dexcl != y->dexcl)
		return x->dexcl > y->dexcl ? -1 : 1;
	return pv_str_cmp(pv_symtab_get(names, x->name),
			  pv_symtab_get(names, y->name));
}

/*
 * The first n functions of e by the change of their exclusive share
 * (incl 0) or inclusive share (incl 1), into idx[]; returns how many.
 */
size_t
pv_render_profile_top(struct pv_html *h, const struct event *e, int incl,
		      size_t *idx, size_t n)
{
	size_t *all, i, k;

	if (e->nfunc == 0)
		return 0;
	all = pv_xreallocarray(NULL, e->nfunc, sizeof(*all));
	for (i = 0; i < e->nfunc; i++)
		all[i] = i;
	rank_funcs = e->func;
	qsort_r(all, e->nfunc, sizeof(*all), incl ? cmp_incl : cmp_excl,
		&h->names);
	rank_funcs = NULL;
	for (k = 0; k < n && k < e->nfunc; k++)
		idx[k] = all[k];
	free(all);
	return k;
}

/*
 * What the profile's summary shows of an event, with the profile list:
 * totals, the denominators of the shares, the unit, the top suspects.
 */
void
pv_render_profile_summary(struct pv_html *h, struct pv_strbuf *sb,
			  const struct profile *p, const struct event *e)
{
	uint64_t tot[2], den[2], smp[2];
	size_t idx[TOP_SUSPECTS], n, i;
	int incl;

	shares_of(p, e, tot, den);
	smp[0] = e->have_total ? e->samples[0] : 0;
	smp[1] = e->have_total ? e->samples[1] : 0;
	pv_strbuf_addstr(sb, "{\"name\":");
	pv_html_json(sb, e->name[0] != '\0' ? e->name : "samples",
		     e->name[0] != '\0' ? strlen(e->name) : 7);
	pv_strbuf_addstr(sb, ",\"unit\":\"");
	event_unit(sb, e->name);
	pv_strbuf_addf(sb, "\",\"total\":[%llu,%llu],\"samples\":[%llu,%llu]"
		       ",\"den\":[%llu,%llu],\"merged\":%g,\"source\":\"%s\""
		       ",\"nodes\":%zu,\"nfunc\":%zu",
		       (unsigned long long)tot[0], (unsigned long long)tot[1],
		       (unsigned long long)smp[0], (unsigned long long)smp[1],
		       (unsigned long long)den[0], (unsigned long long)den[1],
		       h->min_share, e->from_func ? "func" : "stacks",
		       e->tree.nnode, e->nfunc);
	for (incl = 0; incl < 2; incl++) {
		pv_strbuf_addstr(sb, incl ? ",\"topIncl\":[" : ",\"top\":[");
		n = pv_render_profile_top(h, e, incl, idx, TOP_SUSPECTS);
		for (i = 0; i < n; i++) {
			const struct func *f = &e->func[idx[i]];

			pv_strbuf_addstr(sb, i > 0 ? ",[" : "[");
			json_name(sb, &h->names, f->name);
			pv_strbuf_addf(sb, ",%llu,%llu,%llu,%llu,",
				       (unsigned long long)f->v[0],
				       (unsigned long long)f->v[1],
				       (unsigned long long)f->v[2],
				       (unsigned long long)f->v[3]);
			pv_html_json_num(sb, f->dexcl);
			pv_strbuf_addch(sb, ',');
			pv_html_json_num(sb, f->dincl);
			pv_strbuf_addch(sb, ']');
		}
		pv_strbuf_addch(sb, ']');
	}
	pv_strbuf_addch(sb, '}');
}

/* An event's tree and functions, for the profile's own data. */
static void
emit_event(struct emit *em, const struct event *e)
{
	size_t i;

	pv_strbuf_addch(em->sb, '{');
	emit_tree(em, &e->tree);
	pv_strbuf_addstr(em->sb, ",\"func\":\"");
	for (i = 0; i < e->nfunc; i++) {
		const struct func *f = &e->func[i];

		pack(em->sb, use_name(em, f->name));
		pack(em->sb, f->v[0]);
		pack(em->sb, f->v[1]);
		pack(em->sb, f->v[2]);
		pack(em->sb, f->v[3]);
	}
	pv_strbuf_addstr(em->sb, "\"}");
}

int
pv_render_profile_shown(const struct pv_html *h, const struct event *e)
{
	return e->tree.nnode > 1 &&
		(h->only == NULL || strcmp(e->name, h->only) == 0);
}

/* The profile's call trees and functions: the JSON of its own element. */
void
pv_render_profile_data(struct pv_html *h, const struct profile *p,
		       struct pv_strbuf *sb, const uint32_t *rank)
{
	struct emit em;
	struct pv_strbuf ev = PV_STRBUF_INIT;
	size_t i, k, nsym = h->names.nsym, n = 0;

	em.h = h;
	em.sb = &ev;
	em.rank = rank;
	em.remap = pv_xreallocarray(NULL, nsym + 1, sizeof(*em.remap));
	em.used = pv_xreallocarray(NULL, nsym + 1, sizeof(*em.used));
	em.nused = 0;
	for (i = 0; i < nsym; i++)
		em.remap[i] = UINT32_MAX;
	/* the events first, to learn the names they use */
	for (i = 0; i < p->nev; i++) {
		if (!pv_render_profile_shown(h, &p->ev[i]))
			continue;
		if (n++ > 0)
			pv_strbuf_addch(&ev, ',');
		emit_event(&em, &p->ev[i]);
	}
	pv_strbuf_addstr(sb, "{\"names\":[");
	for (k = 0; k < em.nused; k++) {
		if (k > 0)
			pv_strbuf_addch(sb, ',');
		json_name(sb, &h->names, em.used[k]);
	}
	pv_strbuf_addstr(sb, "],\"events\":[");
	pv_strbuf_add(sb, ev.buf, ev.len);
	pv_strbuf_addch(sb, ']');
	pv_render_groups_data(h, p, sb, em.used, em.nused);
	pv_strbuf_addch(sb, '}');
	pv_strbuf_release(&ev);
	free(em.remap);
	free(em.used);
}


uint32_t *
pv_render_profile_rank(const struct pv_html *h)
{
	size_t i, nsym = h->names.nsym;
	uint32_t *order = pv_xreallocarray(NULL, nsym + 1, sizeof(*order));
	uint32_t *rank = pv_xreallocarray(NULL, nsym + 1, sizeof(*rank));

	for (i = 0; i < nsym; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, nsym, sizeof(*order), cmp_names, (void *)&h->names);
	for (i = 0; i < nsym; i++)
		rank[order[i]] = (uint32_t)i;
	free(order);
	return rank;
}
