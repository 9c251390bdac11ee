/*
 * callpaths: a function's callers and callees as two trees (see
 * callpaths.h), each a flametree (flametree.h) of the names along the
 * paths, filled by one walk of the comparison's call tree.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "callpaths.h"
#include "xalloc.h"

#define NONE UINT32_MAX

/*
 * Fill callers and callees from the stacks under event node ev that hold
 * the function fn.  Returns whether some did.
 */
static int
fill(const struct pv_stackdiff *d, uint32_t ev, uint32_t fn,
     struct pv_flametree *callers, struct pv_flametree *callees)
{
	const struct pv_flametree *t = &d->tree;
	uint32_t *path = NULL, *up = NULL, i = t->node[ev].child;
	size_t alloc = 0, ualloc = 0, depth = 0, fdepth = SIZE_MAX, k;
	int found = 0;

	PV_GROW(path, (size_t)t->depth + 1, alloc);
	PV_GROW(up, (size_t)t->depth + 1, ualloc);
	while (i != PV_FLAMETREE_NONE) {
		const struct pv_ftnode *n = &t->node[i];
		uint64_t s0, s1;

		path[depth] = n->name;
		if (n->name == fn && fdepth == SIZE_MAX) {
			fdepth = depth;
			found = 1;
			for (k = 0; k < depth; k++)
				up[k] = path[depth - 1 - k];
			/* the trees' sizes are the caller tree's own */
			(void)pv_flametree_add(callers, up, depth, n->w[0],
					       n->w[1]);
		}
		if (fdepth != SIZE_MAX) {
			s0 = pv_flametree_self(t, i, 0);
			s1 = pv_flametree_self(t, i, 1);
			if (s0 != 0 || s1 != 0)
				(void)pv_flametree_add_end(callees,
					path + fdepth + 1, depth - fdepth,
					s0, s1);
		}
		if (n->child != PV_FLAMETREE_NONE) {
			i = n->child;
			depth++;
			continue;
		}
		/* leave nodes until one has a sibling */
		for (;;) {
			if (depth == fdepth)
				fdepth = SIZE_MAX;
			if (t->node[i].sibling != PV_FLAMETREE_NONE) {
				i = t->node[i].sibling;
				break;
			}
			if (depth == 0) {
				i = PV_FLAMETREE_NONE;
				break;
			}
			i = t->node[i].parent;
			depth--;
		}
	}
	free(path);
	free(up);
	pv_flametree_sum(callees);
	return found;
}

static const struct pv_symtab *sort_names;
static const struct pv_flametree *sort_tree;

static int
cmp_node(const void *pa, const void *pb)
{
	const struct pv_ftnode *a = &sort_tree->node[*(const uint32_t *)pa];
	const struct pv_ftnode *b = &sort_tree->node[*(const uint32_t *)pb];

	return pv_str_cmp(pv_symtab_get(sort_names, a->name),
			  pv_symtab_get(sort_names, b->name));
}

/* One path record a node of tree t, depth first, children by name. */
static void
add_paths(struct pv_stackdiff *d, const struct pv_flametree *t, uint32_t fn,
	  uint32_t event, unsigned dir, const uint64_t den[2])
{
	uint32_t *stack = NULL, *kids = NULL, *names = NULL;
	size_t nstack = 0, salloc = 0, kalloc = 0, nalloc = 0;
	size_t *depth = NULL, dalloc = 0;

	PV_GROW(stack, 1, salloc);
	PV_GROW(depth, 1, dalloc);
	PV_GROW(names, (size_t)t->depth + 2, nalloc);
	stack[nstack] = 0;
	depth[nstack++] = 0;
	names[0] = fn;
	while (nstack > 0) {
		uint32_t n = stack[--nstack], c;
		size_t dep = depth[nstack], nk = 0, k;
		struct pv_stackdiff_path *p;
		uint64_t incl[2], excl[2];
		uint32_t *fr;

		if (n != 0)
			names[dep] = t->node[n].name;
		d->path = pv_xreallocarray(d->path, d->npath + 1,
					   sizeof(*d->path));
		p = &d->path[d->npath++];
		memset(p, 0, sizeof(*p));
		p->event = event;
		p->dir = dir;
		fr = pv_arena_alloc(&d->arena, (dep + 1) * sizeof(*fr));
		memcpy(fr, names, (dep + 1) * sizeof(*fr));
		p->frame = fr;
		p->nframe = dep + 1;
		incl[0] = t->node[n].w[0];
		incl[1] = t->node[n].w[1];
		excl[0] = pv_flametree_self(t, n, 0);
		excl[1] = pv_flametree_self(t, n, 1);
		pv_stackdiff_figures(&p->fig, incl, excl, den);
		/* the children, in reverse order on the stack */
		for (c = t->node[n].child; c != PV_FLAMETREE_NONE;
		     c = t->node[c].sibling) {
			PV_GROW(kids, nk + 1, kalloc);
			kids[nk++] = c;
		}
		if (nk > 1) {
			sort_names = &d->names;
			sort_tree = t;
			qsort(kids, nk, sizeof(*kids), cmp_node);
			sort_names = NULL;
			sort_tree = NULL;
		}
		PV_GROW(stack, nstack + nk, salloc);
		PV_GROW(depth, nstack + nk, dalloc);
		for (k = nk; k-- > 0;) {
			stack[nstack] = kids[k];
			depth[nstack++] = dep + 1;
		}
	}
	free(stack);
	free(depth);
	free(kids);
	free(names);
}

void
pv_callpaths_find(struct pv_stackdiff *d, const uint32_t *evtotal)
{
	const struct pv_flametree *t = &d->tree;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	uint32_t fn;
	size_t i;

	pv_stackdiff_normalize(&sb, d->opt.function, strlen(d->opt.function),
			       &d->opt);
	fn = pv_symtab_find(&d->names, sb.buf, sb.len);
	pv_strbuf_release(&sb);
	if (fn == PV_HMAP_NONE)
		return;
	/* the events in the order of their totals: by name */
	for (i = 0; i < d->ntotal; i++) {
		struct pv_flametree callers, callees;
		uint32_t ev;
		uint64_t den[2];

		for (ev = t->node[0].child; ev != PV_FLAMETREE_NONE &&
		     t->node[ev].name != d->total[i].event;
		     ev = t->node[ev].sibling)
			;
		if (ev == PV_FLAMETREE_NONE)
			continue;
		pv_flametree_init(&callers);
		pv_flametree_init(&callees);
		if (fill(d, ev, fn, &callers, &callees)) {
			d->function_found = 1;
			den[0] = d->total[evtotal[d->total[i].event] - 1].period[0];
			den[1] = d->total[evtotal[d->total[i].event] - 1].period[1];
			if (d->opt.raw)
				den[0] = den[1] = den[0] != 0 ? den[0] : den[1];
			add_paths(d, &callers, fn, d->total[i].event,
				  PV_PATH_CALLERS, den);
			add_paths(d, &callees, fn, d->total[i].event,
				  PV_PATH_CALLEES, den);
		}
		if (callers.overflow || callees.overflow)
			d->overflow = 1;
		pv_flametree_release(&callers);
		pv_flametree_release(&callees);
	}
}

void
pv_callpaths_write(const struct pv_stackdiff *d, struct pv_strbuf *sb,
		   FILE *out)
{
	struct pv_str *fr = NULL;
	size_t alloc = 0, i, k;

	for (i = 0; i < d->npath; i++) {
		const struct pv_stackdiff_path *p = &d->path[i];
		struct pv_rec_path r;

		PV_GROW(fr, p->nframe, alloc);
		for (k = 0; k < p->nframe; k++)
			fr[k] = pv_symtab_get(&d->names, p->frame[k]);
		r.event = pv_symtab_get(&d->names, p->event);
		r.dir = p->dir;
		r.fig = p->fig;
		r.frame = fr;
		r.nframe = p->nframe;
		pv_rec_path_write(sb, &r);
		if (sb->len >= 65536) {
			fwrite(sb->buf, 1, sb->len, out);
			pv_strbuf_reset(sb);
		}
	}
	free(fr);
}
