/*
 * stackdiff: two profiles paired on one call tree, function by function
 * (see stackdiff.h).
 *
 * Frame names are interned twice: as read (raw), and normalised (names,
 * by stackdiff_norm.c), with a raw id -> normalised id map, so that each
 * distinct name is normalised once however often it appears.  The stacks
 * of both sides go into one flametree, an event a node under its root,
 * each stack's periods at the node where it ends
 * (pv_flametree_add_end()), made inclusive once all are in; ends[] says
 * which sides' stacks end at a node.  Sorted input, as folded stacks and
 * pv-parse's records are, finds most of a stack on the path of the one
 * before, without a look-up.
 *
 * Everything else is a walk of that tree, depth first: the functions (a
 * node's inclusive weight counts for its name unless the name is on the
 * path above it too, so that recursion counts a stack once), the groups
 * the same way (groups.h), the dstack records (the nodes where stacks
 * end, in the order of their folded form, for which the children of each
 * node are sorted once by their names), the matches (funcmatch.h) and the
 * call paths of one function (callpaths.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "callpaths.h"
#include "funcmatch.h"
#include "groups.h"
#include "hash.h"
#include "sort.h"
#include "stackdiff.h"
#include "stacktab.h"
#include "xalloc.h"

#define NONE UINT32_MAX

struct pv_stackdiff_event {
	uint32_t event;			/* names id */
	uint64_t samples[2];
	unsigned presence;		/* sides with stacks of the event */
};

void
pv_stackdiff_init(struct pv_stackdiff *d, const struct pv_stackdiff_opts *opt)
{
	memset(d, 0, sizeof(*d));
	if (opt != NULL)
		d->opt = *opt;
	pv_symtab_init(&d->names);
	pv_symtab_init(&d->raw);
	pv_symtab_init(&d->gnames);
	pv_flametree_init(&d->tree);
	pv_strbuf_init(&d->buf, 0);
}

void
pv_stackdiff_release(struct pv_stackdiff *d)
{
	int side;

	pv_symtab_release(&d->names);
	pv_symtab_release(&d->raw);
	pv_symtab_release(&d->gnames);
	pv_flametree_release(&d->tree);
	pv_strbuf_release(&d->buf);
	pv_arena_release(&d->arena);
	free(d->ends);
	free(d->total);
	free(d->func);
	free(d->group);
	free(d->match);
	free(d->rootmerge);
	free(d->path);
	for (side = 0; side < 2; side++)
		free(d->frame[side]);
	free(d->gid);
	free(d->gdef);
	free(d->norm);
	free(d->prev);
	free(d->dprev);
	free(d->frames);
	free(d->event);
	free(d->order);
	free(d->evtotal);
	if (d->collect != NULL)
		pv_stacktab_release(d->collect);
	free(d->collect);
	memset(d, 0, sizeof(*d));
}

void
pv_stackdiff_reserve(struct pv_stackdiff *d, size_t nstack)
{
	/* a stack adds a few call paths to those of the stacks before */
	size_t n = nstack < SIZE_MAX / 4 ? nstack * 4 : nstack;

	if (d->collect != NULL)
		pv_stacktab_reserve(d->collect, nstack);
	else
		pv_flametree_reserve(&d->tree, n);
}

size_t
pv_stackdiff_nstacks(const struct pv_stackdiff *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->tree.nnode && i < d->ends_alloc; i++)
		n += d->ends[i] != 0;
	return n;
}

/* Adding */

/* The normalised id of raw id raw, normalised now if it is new. */
static uint32_t
norm_new(struct pv_stackdiff *d, uint32_t raw)
{
	struct pv_str name = pv_symtab_get(&d->raw, raw);
	size_t old = d->norm_alloc;

	if (raw >= d->norm_alloc) {
		PV_GROW(d->norm, (size_t)raw + 1, d->norm_alloc);
		memset(d->norm + old, 0xff,
		       (d->norm_alloc - old) * sizeof(*d->norm));
	}
	if (d->norm[raw] == NONE) {
		pv_strbuf_reset(&d->buf);
		pv_stackdiff_normalize(&d->buf, name.s, name.len, &d->opt);
		d->norm[raw] = pv_symtab_intern(&d->names, d->buf.buf,
						d->buf.len);
	}
	return d->norm[raw];
}

/*
 * The normalised id of a name, interned as read and normalised the first
 * time it is seen; its copy in raw in *rawp.  Inline: a known name, by
 * far the most frequent, costs a look-up only.
 */
static inline uint32_t
norm_id(struct pv_stackdiff *d, struct pv_str name, struct pv_str *rawp)
{
	uint32_t raw = pv_symtab_intern(&d->raw, name.s, name.len);

	*rawp = pv_symtab_get(&d->raw, raw);
	if (raw < d->norm_alloc && d->norm[raw] != NONE)
		return d->norm[raw];
	return norm_new(d, raw);
}

static inline uint64_t
sat_add(struct pv_stackdiff *d, uint64_t a, uint64_t b)
{
	uint64_t c;

	if (__builtin_add_overflow(a, b, &c)) {
		d->overflow = 1;
		return UINT64_MAX;
	}
	return c;
}

/* The index in d->event of the event named by names id ev. */
static uint32_t
event_of(struct pv_stackdiff *d, uint32_t ev)
{
	struct pv_stackdiff_event *e;
	size_t i;

	if (d->nevent > 0 && d->event[d->last_event].event == ev)
		return d->last_event;
	for (i = 0; i < d->nevent; i++)
		if (d->event[i].event == ev)
			return d->last_event = (uint32_t)i;
	PV_GROW(d->event, d->nevent + 1, d->event_alloc);
	/* an event's node is no call path: the limit is the frames' */
	d->tree.uncounted++;
	e = &d->event[d->nevent];
	memset(e, 0, sizeof(*e));
	e->event = ev;
	return d->last_event = (uint32_t)d->nevent++;
}

/* Mark the sides of a stack ending at node n, ends[] grown as the tree. */
static void
mark_end(struct pv_stackdiff *d, uint32_t n, unsigned sides)
{
	if (d->tree.nnode > d->ends_alloc) {
		size_t old = d->ends_alloc;

		PV_GROW(d->ends, d->tree.nnode, d->ends_alloc);
		memset(d->ends + old, 0, d->ends_alloc - old);
	}
	d->ends[n] |= (unsigned char)sides;
}

/*
 * Add the stack frame[0..n) (frame[0] the event's names id) with periods
 * and samples of both sides; sides says which have it.  Its first known
 * ids are those of the stack added before.
 */
static int
add_ids(struct pv_stackdiff *d, const uint32_t *frame, size_t n,
	size_t known, const uint64_t period[2], const uint64_t samples[2],
	unsigned sides)
{
	uint32_t k = event_of(d, frame[0]);
	struct pv_stackdiff_event *e = &d->event[k];
	uint32_t node = pv_flametree_add_end_known(&d->tree, frame, n, known,
						   period[0], period[1]);
	int side;

	if (node == PV_FLAMETREE_NONE) {
		d->err = d->tree.err;
		return -1;
	}
	mark_end(d, node, sides);
	for (side = 0; side < 2; side++)
		e->samples[side] = sat_add(d, e->samples[side],
					   samples[side]);
	e->presence |= sides;
	return 0;
}

void
pv_stackdiff_collect(struct pv_stackdiff *d, int side)
{
	d->collect = pv_xcalloc(1, sizeof(*d->collect));
	pv_stacktab_init(d->collect);
	d->collect_side = side;
}

/* add_ids() of pv_stackdiff_collect(): the stack into the table. */
static int
collect_ids(struct pv_stackdiff *d, int side, const uint32_t *frame,
	    size_t n, uint64_t samples, uint64_t period)
{
	uint32_t k = event_of(d, frame[0]);
	struct pv_stackdiff_event *e = &d->event[k];

	e->samples[side] = sat_add(d, e->samples[side], samples);
	e->presence |= side == PV_SIDE_BASE ? PV_IN_BASE : PV_IN_TARGET;
	if (pv_stacktab_add(d->collect, frame[0], frame + 1, n - 1, samples,
			    period) == NULL) {
		d->err = d->collect->err;
		return -1;
	}
	return 0;
}

int
pv_stackdiff_add(struct pv_stackdiff *d, int side, struct pv_str event,
		 const struct pv_str *frame, size_t nframe, uint64_t samples,
		 uint64_t period)
{
	uint64_t p[2] = { 0, 0 }, s[2] = { 0, 0 };
	size_t i, same, known;

	/* the same event as the stack before, most often */
	if (d->nevent > 0) {
		struct pv_str last = pv_symtab_get(&d->names,
			d->event[d->last_event].event);

		if (last.len == event.len &&
		    pv_hash_same(last.s, event.s, event.len))
			goto same;
	}
	(void)event_of(d, pv_symtab_intern(&d->names, event.s, event.len));
same:
	PV_GROW(d->frames, nframe + 1, d->frames_alloc);
	PV_GROW(d->prev, nframe, d->prev_alloc);
	/* the same event as the stack before: the tree's path starts so */
	known = d->nprev > 0 && d->frames[0] == d->event[d->last_event].event;
	d->frames[0] = d->event[d->last_event].event;
	/*
	 * Folded input is mostly sorted: a stack often begins with the
	 * frames of the stack before, whose ids are still in frames.  Past
	 * the first that differs, a frame is seldom the one at its depth
	 * before: those are looked up.
	 */
	same = nframe < d->nprev ? nframe : d->nprev;
	for (i = 0; i < same; i++) {
		if (d->prev[i].len != frame[i].len ||
		    !pv_hash_same(d->prev[i].s, frame[i].s, frame[i].len))
			break;
	}
	known = known ? i + 1 : 0;
	for (; i < nframe; i++)
		d->frames[i + 1] = norm_id(d, frame[i], &d->prev[i]);
	d->nprev = nframe;
	if (d->collect != NULL)
		return collect_ids(d, side, d->frames, nframe + 1, samples,
				   period);
	p[side] = period;
	s[side] = samples;
	return add_ids(d, d->frames, nframe + 1, known, p, s,
		       side == PV_SIDE_BASE ? PV_IN_BASE : PV_IN_TARGET);
}

int
pv_stackdiff_add_dstack(struct pv_stackdiff *d, const struct pv_rec_dstack *rec)
{
	uint64_t p[2] = { rec->period[0], rec->period[1] };
	unsigned sides = 0;
	size_t i;

	d->nprev = 0;		/* frames no longer holds a stack's ids */
	PV_GROW(d->frames, rec->nframe + 1, d->frames_alloc);
	PV_GROW(d->dprev, rec->nframe, d->dprev_alloc);
	for (i = 0; i < rec->nframe; i++) {
		struct pv_str f = rec->frame[i];

		/* sorted records: most often the name of the record before */
		if (i < d->ndprev) {
			struct pv_str q = pv_symtab_get(&d->names,
							d->dprev[i]);

			if (q.len == f.len && pv_hash_same(q.s, f.s, f.len)) {
				d->frames[i + 1] = d->dprev[i];
				continue;
			}
		}
		d->frames[i + 1] = d->dprev[i] =
			pv_symtab_intern(&d->names, f.s, f.len);
	}
	d->ndprev = rec->nframe;
	d->frames[0] = pv_symtab_intern(&d->names, rec->event.s,
					rec->event.len);
	/* a side with no count did not have the stack */
	if (p[0] != 0 || p[1] == 0)
		sides |= PV_IN_BASE;
	if (p[1] != 0 || p[0] == 0)
		sides |= PV_IN_TARGET;
	return add_ids(d, d->frames, rec->nframe + 1, 0, p, p, sides);
}

/*
 * The gnames id of s: most often last's, the same field's in the frame
 * record before (records come sorted by name, and the names of a module
 * or a file together).
 */
static uint32_t
gname_id(struct pv_stackdiff *d, struct pv_str s, uint32_t last)
{
	if (last < d->gnames.nsym) {
		struct pv_str l = pv_symtab_get(&d->gnames, last);

		if (l.len == s.len && pv_hash_same(l.s, s.s, s.len))
			return last;
	}
	return pv_symtab_intern(&d->gnames, s.s, s.len);
}

void
pv_stackdiff_add_frame(struct pv_stackdiff *d, int side,
		       const struct pv_rec_frame *f)
{
	struct pv_stackdiff_frame *fr;
	struct pv_str raw;
	uint32_t id;
	size_t old = d->frame_alloc[side];

	if (!d->opt.groups)
		return;
	d->nframe_rec++;
	id = norm_id(d, f->name, &raw);
	if (id >= d->frame_alloc[side]) {
		PV_GROW(d->frame[side], (size_t)id + 1, d->frame_alloc[side]);
		memset(d->frame[side] + old, 0xff, (d->frame_alloc[side] - old) *
		       sizeof(*d->frame[side]));
	}
	fr = &d->frame[side][id];
	if (fr->space != NONE)
		return;		/* the first record of the name counts */
	fr->space = gname_id(d, f->space, d->last_frame.space);
	fr->module = gname_id(d, f->module, d->last_frame.module);
	fr->file = gname_id(d, f->file, d->last_frame.file);
	fr->subsys = gname_id(d, f->subsys, d->last_frame.subsys);
	d->last_frame = *fr;
}

int
pv_stackdiff_merge(struct pv_stackdiff *d, const struct pv_stackdiff *from)
{
	const struct pv_stacktab *tab = from->collect;
	int side = from->collect_side;
	uint32_t *map, *gmap, *path = NULL;
	size_t i, k, alloc = 0, paths = 0;

	if (tab == NULL)
		return -1;
	d->nprev = 0;		/* the tree's last path will be none of d's */
	/* at most a new call path a frame */
	for (i = 0; i < tab->nstack; i++)
		paths += tab->stack[i].nframe;
	if (d->tree.nnode - 1 + paths > d->tree.max + d->tree.uncounted)
		return -1;
	/* the names in the order from met them: the ids d would give */
	map = pv_xreallocarray(NULL, from->names.nsym + 1, sizeof(*map));
	for (i = 0; i < from->names.nsym; i++)
		map[i] = pv_symtab_intern(&d->names, from->names.sym[i].s,
					  from->names.sym[i].len);
	gmap = pv_xreallocarray(NULL, from->gnames.nsym + 1, sizeof(*gmap));
	for (i = 0; i < from->gnames.nsym; i++)
		gmap[i] = pv_symtab_intern(&d->gnames, from->gnames.sym[i].s,
					   from->gnames.sym[i].len);
	for (i = 0; i < from->nevent; i++) {
		const struct pv_stackdiff_event *fe = &from->event[i];
		uint32_t at = event_of(d, map[fe->event]);	/* moves event */
		struct pv_stackdiff_event *e = &d->event[at];

		for (k = 0; k < 2; k++)
			e->samples[k] = sat_add(d, e->samples[k],
						fe->samples[k]);
		e->presence |= fe->presence;
	}
	/*
	 * The distinct stacks in the order they first came, their periods
	 * added up: d makes its new call paths in the order it would have,
	 * had each line come to it.
	 */
	for (i = 0; i < tab->nstack; i++) {
		const struct pv_stack *st = &tab->stack[i];
		uint32_t node;

		PV_GROW(path, (size_t)st->nframe + 1, alloc);
		path[0] = map[st->event];
		for (k = 0; k < st->nframe; k++)
			path[k + 1] = map[st->frame[k]];
		/* (the room was checked: no path passes the limit) */
		node = pv_flametree_add_end(&d->tree, path,
					    (size_t)st->nframe + 1,
					    side == PV_SIDE_BASE ? st->period : 0,
					    side == PV_SIDE_TARGET ? st->period :
					    0);
		mark_end(d, node, side == PV_SIDE_BASE ? PV_IN_BASE :
			 PV_IN_TARGET);
	}
	free(path);
	d->overflow |= from->overflow || pv_stacktab_overflowed(tab);
	d->nprev = 0;		/* frames no longer holds a stack's ids */
	/* the frame records, by name */
	d->nframe_rec += from->nframe_rec;
	for (side = 0; side < 2; side++) {
		for (i = 0; i < from->frame_alloc[side]; i++) {
			const struct pv_stackdiff_frame *ff =
				&from->frame[side][i];
			struct pv_stackdiff_frame *fr;
			size_t old = d->frame_alloc[side];
			uint32_t id;

			if (ff->space == NONE)
				continue;
			id = map[i];
			if (id >= d->frame_alloc[side]) {
				PV_GROW(d->frame[side], (size_t)id + 1,
					d->frame_alloc[side]);
				memset(d->frame[side] + old, 0xff,
				       (d->frame_alloc[side] - old) *
				       sizeof(*d->frame[side]));
			}
			fr = &d->frame[side][id];
			if (fr->space != NONE)
				continue;	/* d had one first */
			fr->space = gmap[ff->space];
			fr->module = gmap[ff->module];
			fr->file = gmap[ff->file];
			fr->subsys = gmap[ff->subsys];
		}
	}
	free(gmap);
	free(map);
	return 0;
}

/* Computing */

/* qsort has no context argument in C11: one sort at a time */
static const struct pv_symtab *sort_names;

static int
cmp_total(const void *pa, const void *pb)
{
	const struct pv_stackdiff_total *a = pa, *b = pb;

	return pv_str_cmp(pv_symtab_get(sort_names, a->event),
			  pv_symtab_get(sort_names, b->event));
}

static int
cmp_func(const void *pa, const void *pb)
{
	const struct pv_stackdiff_func *a = pa, *b = pb;
	int c;

	if (a->event != b->event) {
		c = pv_str_cmp(pv_symtab_get(sort_names, a->event),
			       pv_symtab_get(sort_names, b->event));
		if (c != 0)
			return c;
	}
	if (a->delta_excl != b->delta_excl)
		return a->delta_excl > b->delta_excl ? -1 : 1;
	return pv_str_cmp(pv_symtab_get(sort_names, a->name),
			  pv_symtab_get(sort_names, b->name));
}

void
pv_stackdiff_sort_funcs(struct pv_stackdiff_func *f, size_t n,
			const struct pv_symtab *names)
{
	if (n < 2)		/* f may be NULL when n is 0 */
		return;
	sort_names = names;
	qsort(f, n, sizeof(*f), cmp_func);
	sort_names = NULL;
}

static double
share(uint64_t c, uint64_t total)
{
	return total == 0 ? 0.0 : 100.0 * (double)c / (double)total;
}

static double
rel(double t, double b)
{
	return b == 0.0 ? NAN : t / b - 1.0;
}

void
pv_stackdiff_figures(struct pv_rec_figures *g, const uint64_t incl[2],
		     const uint64_t excl[2], const uint64_t den[2])
{
	int side;

	for (side = 0; side < 2; side++) {
		g->incl[side] = incl[side];
		g->excl[side] = excl[side];
		g->incl_pct[side] = share(incl[side], den[side]);
		g->excl_pct[side] = share(excl[side], den[side]);
	}
	g->delta_incl = g->incl_pct[1] - g->incl_pct[0];
	g->delta_excl = g->excl_pct[1] - g->excl_pct[0];
	g->rel_incl = rel(g->incl_pct[1], g->incl_pct[0]);
	g->rel_excl = rel(g->excl_pct[1], g->excl_pct[0]);
}

/*
 * Build the tree again with its events and root frames renamed: ev maps
 * an event's names id to another (NULL: none), root a root frame's.  The
 * new tree holds the same stacks, those that become one added up.
 */
static int
rebuild(struct pv_stackdiff *d, const uint32_t *ev, const uint32_t *root)
{
	struct pv_flametree old = d->tree;
	unsigned char *ends = d->ends;
	uint32_t *path = NULL;
	size_t alloc = 0, i, k, n;
	int rc = 0;

	pv_flametree_init(&d->tree);
	d->tree.uncounted = old.uncounted;
	pv_flametree_reserve(&d->tree, old.nnode);
	d->nprev = 0;		/* the new tree's last path is none of d's */
	d->ends = NULL;
	d->ends_alloc = 0;
	mark_end(d, 0, 0);
	for (i = 1; i < old.nnode && rc == 0; i++) {
		uint64_t w[2];
		uint32_t j, node;

		w[0] = pv_flametree_self(&old, (uint32_t)i, 0);
		w[1] = pv_flametree_self(&old, (uint32_t)i, 1);
		if (ends[i] == 0 && w[0] == 0 && w[1] == 0)
			continue;
		for (n = 0, j = (uint32_t)i; j != 0; j = old.node[j].parent)
			n++;
		PV_GROW(path, n, alloc);
		for (k = n, j = (uint32_t)i; j != 0; j = old.node[j].parent)
			path[--k] = old.node[j].name;
		if (ev != NULL)
			path[0] = ev[path[0]];
		if (root != NULL && n > 1)
			path[1] = root[path[1]];
		node = pv_flametree_add_end(&d->tree, path, n, w[0], w[1]);
		if (node == PV_FLAMETREE_NONE) {
			d->err = d->tree.err;
			rc = -1;
			break;
		}
		mark_end(d, node, ends[i]);
	}
	free(path);
	free(ends);
	pv_flametree_release(&old);
	pv_flametree_sum(&d->tree);
	return rc;
}

/*
 * Where one side has only stacks without an event and the other only one
 * event, give the first side's stacks that event.
 */
static int
pair_events(struct pv_stackdiff *d)
{
	uint32_t ev[2] = { NONE, NONE }, none, *map;
	int many[2] = { 0, 0 }, side, rc;
	size_t i;

	none = pv_symtab_intern(&d->names, "", 0);
	for (i = 0; i < d->nevent; i++) {
		for (side = 0; side < 2; side++) {
			if (!(d->event[i].presence & (1u << side)))
				continue;
			if (ev[side] == NONE)
				ev[side] = d->event[i].event;
			else if (ev[side] != d->event[i].event)
				many[side] = 1;
		}
	}
	if (many[0] || many[1] || ev[0] == NONE || ev[1] == NONE ||
	    ev[0] == ev[1] || (ev[0] != none && ev[1] != none))
		return 0;
	map = pv_xreallocarray(NULL, d->names.nsym, sizeof(*map));
	for (i = 0; i < d->names.nsym; i++)
		map[i] = (uint32_t)i;
	map[none] = ev[ev[0] == none];
	rc = rebuild(d, map, NULL);
	free(map);
	/* the samples of the event without a name go to the other */
	for (i = 0; i < d->nevent; i++) {
		if (d->event[i].event == none) {
			uint32_t k = event_of(d, ev[ev[0] == none]);
			struct pv_stackdiff_event *to = &d->event[k];

			for (side = 0; side < 2; side++)
				to->samples[side] = sat_add(d,
					to->samples[side],
					d->event[i].samples[side]);
			to->presence |= d->event[i].presence;
			d->event[i] = d->event[--d->nevent];
			d->last_event = 0;
			break;
		}
	}
	return rc;
}

/* The root frames renamed as funcmatch found them (merge_roots). */
static int
merge_roots(struct pv_stackdiff *d)
{
	uint32_t *map;
	size_t i;
	int rc;

	pv_funcmatch_roots(d);
	if (d->nrootmerge == 0)
		return 0;
	map = pv_xreallocarray(NULL, d->names.nsym, sizeof(*map));
	for (i = 0; i < d->names.nsym; i++)
		map[i] = (uint32_t)i;
	for (i = 0; i < d->nrootmerge; i++)
		map[d->rootmerge[i].name[0]] = d->rootmerge[i].name[1];
	rc = rebuild(d, NULL, map);
	free(map);
	return rc;
}

/*
 * The order of the output.  Folded order compares the frames joined by
 * ';' byte by byte; the tree gives it depth first when each node's
 * children are sorted by their names as if each were followed by ';'
 * (rank[]), a stack ending at a node coming before those that go on
 * (its joined frames are their prefix).  That fails only where a name
 * holds a ';', or where a node where a stack ends has a sibling whose
 * name is its own and more, the next byte before ';' ("f" and "f.isra.0"
 * kept): "a;f" < "a;f.isra.0;g" < "a;f;g".  There (rarely) the stacks are
 * sorted by their joined frames instead (stacktab.h), into d->order.
 */
struct key {
	uint32_t id;
	unsigned semi;		/* the name followed by ';' */
};

static int
cmp_key(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;
	struct pv_str x = pv_symtab_get(sort_names, a->id);
	struct pv_str y = pv_symtab_get(sort_names, b->id);
	size_t n = x.len < y.len ? x.len : y.len;
	int c = n ? memcmp(x.s, y.s, n) : 0, cx, cy;

	if (c != 0)
		return c;
	cx = x.len > n ? (unsigned char)x.s[n] : a->semi ? ';' : -1;
	cy = y.len > n ? (unsigned char)y.s[n] : b->semi ? ';' : -1;
	if (cx != cy)
		return cx < cy ? -1 : 1;
	if (x.len == y.len)
		return (int)a->semi - (int)b->semi;
	/* one ran out on its ';': the other goes on past the same byte */
	return x.len < y.len ? (a->semi ? 1 : -1) : (b->semi ? -1 : 1);
}

/* Whether a stack ending in name a goes before the name b and more. */
static int
ends_before(uint32_t a, uint32_t b)
{
	struct key x = { a, 0 }, y = { b, 1 };

	return cmp_key(&x, &y) < 0;
}

static const uint32_t *sort_rank;
static const struct pv_flametree *sort_tree;

/* two nodes by the ranks of their names */
static int
cmp_child(const void *pa, const void *pb)
{
	uint32_t a = sort_rank[sort_tree->node[*(const uint32_t *)pa].name];
	uint32_t b = sort_rank[sort_tree->node[*(const uint32_t *)pb].name];

	return a < b ? -1 : a > b;
}

/* Sort every node's children; returns whether depth first is exact. */
static int
sort_children(struct pv_stackdiff *d)
{
	struct pv_flametree *t = &d->tree;
	size_t nsym = d->names.nsym, i, k, nc, alloc = 0;
	struct key *key = pv_xreallocarray(NULL, nsym + 1, sizeof(*key));
	uint32_t *rank = pv_xreallocarray(NULL, nsym + 1, sizeof(*rank));
	uint32_t *kid = NULL, *evrank;
	int exact = 1;

	for (i = 0; i < nsym; i++) {
		key[i].id = (uint32_t)i;
		key[i].semi = 1;
		if (memchr(d->names.sym[i].s, ';', d->names.sym[i].len))
			exact = 0;
	}
	sort_names = &d->names;
	qsort(key, nsym, sizeof(*key), cmp_key);
	for (i = 0; i < nsym; i++)
		rank[key[i].id] = (uint32_t)i;
	free(key);
	/* events in the order they were first named */
	evrank = pv_xreallocarray(NULL, nsym + 1, sizeof(*evrank));
	for (i = 0; i < nsym; i++)
		evrank[i] = (uint32_t)i;

	for (i = 0; i < t->nnode; i++) {
		uint32_t c = t->node[i].child;
		int up = 1, down = 1;

		if (c == PV_FLAMETREE_NONE || t->node[c].sibling ==
		    PV_FLAMETREE_NONE)
			continue;
		sort_rank = i == 0 ? evrank : rank;
		for (nc = 0; c != PV_FLAMETREE_NONE; c = t->node[c].sibling) {
			PV_GROW(kid, nc + 1, alloc);
			kid[nc] = c;
			if (nc > 0) {
				uint32_t a = sort_rank[t->node[kid[nc - 1]].name];
				uint32_t b = sort_rank[t->node[c].name];

				up &= a < b;
				down &= a > b;
			}
			nc++;
		}
		/* children are listed newest first: sorted input, reversed */
		if (down) {
			for (k = 0; k < nc / 2; k++) {
				uint32_t x = kid[k];

				kid[k] = kid[nc - 1 - k];
				kid[nc - 1 - k] = x;
			}
		} else if (!up) {
			sort_tree = t;
			qsort(kid, nc, sizeof(*kid), cmp_child);
			sort_tree = NULL;
		}
		t->node[i].child = kid[0];
		for (k = 0; k < nc; k++) {
			t->node[kid[k]].sibling = k + 1 < nc ? kid[k + 1] :
				PV_FLAMETREE_NONE;
			/*
			 * A stack ending here goes before a sibling's that
			 * extends this name with a byte below ';'.
			 */
			if (i != 0 && d->ends[kid[k]] != 0 && k > 0 &&
			    ends_before(t->node[kid[k]].name,
					t->node[kid[k - 1]].name))
				exact = 0;
		}
	}
	sort_names = NULL;
	sort_rank = NULL;
	free(kid);
	free(rank);
	free(evrank);
	return exact;
}

/*
 * The nodes where stacks end, in folded order, from a stack table of
 * their joined frames (when the tree's order is not exact).
 */
static void
order_by_table(struct pv_stackdiff *d)
{
	const struct pv_flametree *t = &d->tree;
	struct pv_stacktab tab;
	struct pv_stack **v;
	uint32_t *path = NULL, *node = NULL;
	size_t alloc = 0, nalloc = 0, i, k, n;

	pv_stacktab_init(&tab);
	for (i = 1; i < t->nnode; i++) {
		uint32_t j;

		if (d->ends[i] == 0)
			continue;
		for (n = 0, j = (uint32_t)i; j != 0; j = t->node[j].parent)
			n++;
		PV_GROW(path, n, alloc);
		for (k = n, j = (uint32_t)i; j != 0; j = t->node[j].parent)
			path[--k] = t->node[j].name;
		/* the paths are distinct: the table holds them all */
		(void)pv_stacktab_add(&tab, path[0], path + 1, n - 1, 0, 0);
		PV_GROW(node, tab.nstack, nalloc);
		node[tab.nstack - 1] = (uint32_t)i;
	}
	v = pv_stacktab_sorted(&tab, &d->names);
	d->order = pv_xreallocarray(NULL, tab.nstack + 1, sizeof(*d->order));
	for (i = 0; i < tab.nstack; i++)
		d->order[i] = node[v[i] - tab.stack];
	d->norder = tab.nstack;
	free(v);
	free(node);
	free(path);
	pv_stacktab_release(&tab);
}

/*
 * The walk: depth first over the tree, an event at a time, every node
 * entered and left once.  Leaving a node adds its weight to its
 * function's inclusive count unless the function is on the path above it
 * too, and its exclusive weight (its own less its children's) to the
 * function's exclusive count; the groups of its name likewise, each
 * counted at the first node of the path that has it.  A node's
 * presence is that of the stacks ending in it or below.
 */
struct level {
	uint32_t node;
	uint64_t below[2];	/* the children's weights, summed */
	unsigned presence;
	/*
	 * The groups of the node's name, and the kinds (bits) whose group
	 * came on the path with the node: no node above has it.
	 */
	const uint32_t *g;
	unsigned gnew;
};

struct gacc {
	uint64_t incl[2], excl[2];
	unsigned presence;
	int onpath;		/* a node of the path has the group */
	int touched;
};

static void
walk(struct pv_stackdiff *d)
{
	const struct pv_flametree *t = &d->tree;
	uint32_t *byname;	/* name id -> func index + 1, this event */
	uint32_t *onpath;	/* name id -> times on the path */
	struct gacc *gacc = NULL;
	uint32_t *touched = NULL;
	size_t ntouched = 0, talloc = 0, falloc = 0, galloc = 0;
	struct level *lv = NULL;
	size_t lalloc = 0, first = 0, k;
	uint32_t ev;

	byname = pv_xcalloc(d->names.nsym + 1, sizeof(*byname));
	onpath = pv_xcalloc(d->names.nsym + 1, sizeof(*onpath));
	if (d->gid != NULL)
		gacc = pv_xcalloc(d->ngdef + 1, sizeof(*gacc));
	PV_GROW(lv, (size_t)t->depth + 2, lalloc);

	for (ev = t->node[0].child; ev != PV_FLAMETREE_NONE;
	     ev = t->node[ev].sibling) {
		uint32_t evname = t->node[ev].name, n;
		size_t depth = 0;

		/* depth first below the event node; lv[0] is the event */
		lv[0].node = ev;
		n = t->node[ev].child;
		while (n != PV_FLAMETREE_NONE) {
			const struct pv_ftnode *nd = &t->node[n];
			uint32_t name = nd->name;
			struct level *l;

			/* enter n */
			if (byname[name] == 0) {
				struct pv_stackdiff_func *f;

				PV_GROW(d->func, d->nfunc + 1, falloc);
				f = &d->func[d->nfunc++];
				memset(f, 0, sizeof(*f));
				f->event = evname;
				f->name = name;
				byname[name] = (uint32_t)d->nfunc;
			}
			onpath[name]++;
			l = &lv[++depth];
			if (gacc != NULL) {
				const uint32_t *g = &d->gid[(size_t)name *
							    PV_GROUP_NKINDS];

				l->g = g;
				l->gnew = 0;
				for (k = 0; k < PV_GROUP_NKINDS; k++) {
					if (g[k] != NONE &&
					    !gacc[g[k]].onpath) {
						gacc[g[k]].onpath = 1;
						l->gnew |= 1U << k;
					}
				}
			}
			l->node = n;
			l->below[0] = l->below[1] = 0;
			l->presence = d->ends[n];
			if (nd->child != PV_FLAMETREE_NONE) {
				n = nd->child;
				continue;
			}
			/* leave nodes until one has a sibling */
			for (;;) {
				const struct pv_ftnode *m;
				struct pv_stackdiff_func *f;
				uint64_t self[2];
				int side;

				l = &lv[depth];
				m = &t->node[l->node];
				name = m->name;
				f = &d->func[byname[name] - 1];
				for (side = 0; side < 2; side++)
					self[side] = m->w[side] >
						l->below[side] ? m->w[side] -
						l->below[side] : 0;
				if (--onpath[name] == 0) {
					f->presence |= l->presence;
					for (side = 0; side < 2; side++)
						f->incl[side] = sat_add(d,
							f->incl[side],
							m->w[side]);
				}
				for (side = 0; side < 2; side++)
					f->excl[side] = sat_add(d,
						f->excl[side], self[side]);
				if (gacc != NULL) {
					unsigned bits;

					for (bits = l->gnew; bits != 0;
					     bits &= bits - 1) {
						struct gacc *a = &gacc[l->g[
							__builtin_ctz(bits)]];

						a->onpath = 0;
						a->presence |= l->presence;
						for (side = 0; side < 2; side++)
							a->incl[side] = sat_add(
								d, a->incl[side],
								m->w[side]);
					}
				}
				lv[depth - 1].presence |= l->presence;
				for (side = 0; side < 2; side++)
					lv[depth - 1].below[side] += m->w[side];
				depth--;
				if (m->sibling != PV_FLAMETREE_NONE) {
					n = m->sibling;
					break;
				}
				if (depth == 0) {
					n = PV_FLAMETREE_NONE;
					break;
				}
			}
		}
		/*
		 * A group's exclusive count is its functions', summed once an
		 * event rather than a node at a time; its groups are in the
		 * order the walk first entered them, as the functions are.
		 */
		for (k = first; k < d->nfunc; k++) {
			const struct pv_stackdiff_func *f = &d->func[k];
			const uint32_t *g;
			size_t j;
			int side;

			byname[f->name] = 0;
			if (gacc == NULL)
				continue;
			g = &d->gid[(size_t)f->name * PV_GROUP_NKINDS];
			for (j = 0; j < PV_GROUP_NKINDS; j++) {
				struct gacc *a;

				if (g[j] == NONE)
					continue;
				a = &gacc[g[j]];
				if (!a->touched) {
					a->touched = 1;
					PV_GROW(touched, ntouched + 1, talloc);
					touched[ntouched++] = g[j];
				}
				for (side = 0; side < 2; side++)
					a->excl[side] = sat_add(d, a->excl[side],
								f->excl[side]);
			}
		}
		first = d->nfunc;
		/* the groups of the event */
		for (k = 0; k < ntouched; k++) {
			struct gacc *a = &gacc[touched[k]];
			struct pv_stackdiff_group *g;

			PV_GROW(d->group, d->ngroup + 1, galloc);
			g = &d->group[d->ngroup++];
			memset(g, 0, sizeof(*g));
			g->event = evname;
			g->kind = d->gdef[touched[k]].kind;
			g->name = d->gdef[touched[k]].name;
			memcpy(g->fig.incl, a->incl, sizeof(a->incl));
			memcpy(g->fig.excl, a->excl, sizeof(a->excl));
			g->presence = a->presence;
			memset(a, 0, sizeof(*a));
		}
		ntouched = 0;
	}
	free(lv);
	free(touched);
	free(gacc);
	free(onpath);
	free(byname);
}

/* The totals of an event, from its node: shares are of these. */
static void
denominators(const struct pv_stackdiff *d, const uint32_t *evtotal,
	     uint32_t event, uint64_t den[2])
{
	const struct pv_stackdiff_total *t = &d->total[evtotal[event] - 1];

	den[0] = t->period[0];
	den[1] = t->period[1];
	if (d->opt.raw)
		den[0] = den[1] = den[0] != 0 ? den[0] : den[1];
}

static int
cmp_group(const void *pa, const void *pb)
{
	const struct pv_stackdiff_group *a = pa, *b = pb;
	int c;

	if (a->event != b->event) {
		c = pv_str_cmp(pv_symtab_get(sort_names, a->event),
			       pv_symtab_get(sort_names, b->event));
		if (c != 0)
			return c;
	}
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->fig.delta_excl != b->fig.delta_excl)
		return a->fig.delta_excl > b->fig.delta_excl ? -1 : 1;
	return 0;
}

/* cmp_group, then the names (in gnames) byte-wise */
static const struct pv_symtab *sort_gnames;

static int
cmp_group_name(const void *pa, const void *pb)
{
	const struct pv_stackdiff_group *a = pa, *b = pb;
	int c = cmp_group(pa, pb);

	if (c != 0)
		return c;
	return pv_str_cmp(pv_symtab_get(sort_gnames, a->name),
			  pv_symtab_get(sort_gnames, b->name));
}

/* -1 with err set when a count overflowed, else 0 */
static int
overflowed(struct pv_stackdiff *d)
{
	if (d->overflow || d->tree.overflow) {
		pv_err_set(&d->err, "a count does not fit in 64 bits");
		return -1;
	}
	return 0;
}

int
pv_stackdiff_compute(struct pv_stackdiff *d)
{
	if (pv_stackdiff_compute_stacks(d) < 0)
		return -1;
	return pv_stackdiff_compute_funcs(d);
}

int
pv_stackdiff_compute_stacks(struct pv_stackdiff *d)
{
	struct pv_flametree *t;
	size_t i, talloc = 0;
	uint32_t *evtotal, n;

	pv_flametree_sum(&d->tree);
	if (pair_events(d) < 0)
		return -1;
	if (d->opt.merge_roots && merge_roots(d) < 0)
		return -1;
	t = &d->tree;

	/* totals, by event */
	evtotal = pv_xcalloc(d->names.nsym + 1, sizeof(*evtotal));
	for (n = t->node[0].child; n != PV_FLAMETREE_NONE;
	     n = t->node[n].sibling) {
		struct pv_stackdiff_total *tt;

		PV_GROW(d->total, d->ntotal + 1, talloc);
		tt = &d->total[d->ntotal++];
		memset(tt, 0, sizeof(*tt));
		tt->event = t->node[n].name;
		tt->period[0] = t->node[n].w[0];
		tt->period[1] = t->node[n].w[1];
	}
	for (i = 0; i < d->nevent; i++) {
		size_t k;

		for (k = 0; k < d->ntotal; k++)
			if (d->total[k].event == d->event[i].event)
				memcpy(d->total[k].samples,
				       d->event[i].samples,
				       sizeof(d->total[k].samples));
	}
	sort_names = &d->names;
	if (d->ntotal > 1)	/* d->total is NULL with no stacks */
		qsort(d->total, d->ntotal, sizeof(*d->total), cmp_total);
	sort_names = NULL;
	for (i = 0; i < d->ntotal; i++)
		evtotal[d->total[i].event] = (uint32_t)i + 1;

	if (!sort_children(d))
		order_by_table(d);
	if (d->opt.groups && d->nframe_rec > 0)	/* else no group */
		pv_groups_prepare(d);
	d->evtotal = evtotal;
	/*
	 * The walk's sums are of weights below an event's, which did not
	 * overflow when these did not: nothing is found too large later.
	 */
	return overflowed(d);
}

int
pv_stackdiff_compute_funcs(struct pv_stackdiff *d)
{
	uint32_t *evtotal = d->evtotal;
	size_t i;
	int side;

	walk(d);
	for (i = 0; i < d->nfunc; i++) {
		struct pv_stackdiff_func *f = &d->func[i];
		uint64_t den[2];

		denominators(d, evtotal, f->event, den);
		for (side = 0; side < 2; side++) {
			f->incl_pct[side] = share(f->incl[side], den[side]);
			f->excl_pct[side] = share(f->excl[side], den[side]);
		}
		f->delta_incl = f->incl_pct[1] - f->incl_pct[0];
		f->delta_excl = f->excl_pct[1] - f->excl_pct[0];
		f->rel_incl = rel(f->incl_pct[1], f->incl_pct[0]);
		f->rel_excl = rel(f->excl_pct[1], f->excl_pct[0]);
	}
	for (i = 0; i < d->ngroup; i++) {
		struct pv_stackdiff_group *g = &d->group[i];
		uint64_t den[2], incl[2], excl[2];

		denominators(d, evtotal, g->event, den);
		memcpy(incl, g->fig.incl, sizeof(incl));
		memcpy(excl, g->fig.excl, sizeof(excl));
		pv_stackdiff_figures(&g->fig, incl, excl, den);
	}
	pv_stackdiff_sort_funcs(d->func, d->nfunc, &d->names);
	if (d->ngroup > 1) {
		sort_names = &d->names;
		sort_gnames = &d->gnames;
		qsort(d->group, d->ngroup, sizeof(*d->group), cmp_group_name);
		sort_names = sort_gnames = NULL;
	}
	if (d->opt.match)
		pv_funcmatch_find(d, evtotal);
	if (d->opt.function != NULL)
		pv_callpaths_find(d, evtotal);
	free(evtotal);
	d->evtotal = NULL;
	return overflowed(d);
}

int
pv_stackdiff_moved(const struct pv_stackdiff *d, double threshold)
{
	size_t i;

	for (i = 0; i < d->nfunc; i++) {
		if (fabs(d->func[i].delta_excl) > threshold ||
		    fabs(d->func[i].delta_incl) > threshold)
			return 1;
	}
	return 0;
}

/* Writing */

/*
 * Lines are built in one buffer and written in blocks of about this size;
 * each name's escaped form is made once (pv_rec_frame_escape()), and the
 * dstack records are written from those.
 */
#define BLOCK 65536

/* The escaped forms of every name, for a frame list (';' escaped). */
struct escaped {
	struct pv_strbuf buf;
	size_t *off;		/* name id i is buf[off[i]..off[i + 1]) */
};

static void
escaped_init(struct escaped *x, const struct pv_symtab *names)
{
	size_t i;

	pv_strbuf_init(&x->buf, names->arena.total + names->nsym);
	x->off = pv_xreallocarray(NULL, names->nsym + 1, sizeof(*x->off));
	for (i = 0; i < names->nsym; i++) {
		x->off[i] = x->buf.len;
		pv_rec_frame_escape(&x->buf, names->sym[i].s,
				    names->sym[i].len);
	}
	x->off[names->nsym] = x->buf.len;
}

static void
escaped_release(struct escaped *x)
{
	pv_strbuf_release(&x->buf);
	free(x->off);
}

static void
flush(struct pv_strbuf *sb, FILE *out, size_t at_least)
{
	if (sb->len >= at_least) {
		fwrite(sb->buf, 1, sb->len, out);
		pv_strbuf_reset(sb);
	}
}

static struct pv_str
escaped_name(const struct escaped *x, uint32_t id)
{
	struct pv_str s = { x->buf.buf + x->off[id],
			    x->off[id + 1] - x->off[id] };

	return s;
}

/*
 * The dstack record of the stack ending at node n, whose frames are fr
 * (escaped), or when fr is NULL, the escaped frames joined in path.
 */
static void
write_dstack(const struct pv_stackdiff *d, struct pv_strbuf *sb, uint32_t n,
	     uint32_t event, const struct pv_str *fr, size_t nfr,
	     struct pv_str path)
{
	struct pv_rec_dstack r;

	memset(&r, 0, sizeof(r));
	r.event = pv_symtab_get(&d->names, event);
	r.period[0] = pv_flametree_self(&d->tree, n, 0);
	r.period[1] = pv_flametree_self(&d->tree, n, 1);
	r.frame = fr;
	r.nframe = nfr;
	r.escaped = 1;
	if (fr == NULL)
		r.frames_raw = path;
	pv_rec_dstack_write(sb, &r);
}

static void
write_stacks(const struct pv_stackdiff *d, struct pv_strbuf *sb, FILE *out)
{
	const struct pv_flametree *t = &d->tree;
	struct escaped x;
	struct pv_str *fr = NULL, path = { NULL, 0 };
	char *p = NULL;		/* the path's names, joined */
	size_t *at = NULL;	/* at[k]: the bytes of the first k frames */
	size_t alloc = 0, palloc = 0, i, k, depth;
	uint32_t ev, n;

	escaped_init(&x, &d->names);
	if (d->order != NULL) {
		/* the order of a stack table: the paths from the parents */
		PV_GROW(fr, (size_t)t->depth + 1, alloc);
		for (i = 0; i < d->norder; i++) {
			uint32_t j, top = 0;

			n = d->order[i];
			for (depth = 0, j = n; j != 0; j = t->node[j].parent)
				depth++;
			for (k = depth, j = n; j != 0; j = t->node[j].parent) {
				fr[--k] = escaped_name(&x, t->node[j].name);
				top = j;
			}
			write_dstack(d, sb, n, t->node[top].name, fr + 1,
				     depth - 1, path);
			flush(sb, out, BLOCK);
		}
		free(fr);
		escaped_release(&x);
		return;
	}
	/*
	 * Depth first, the path's escaped names joined as they are entered,
	 * so that a record copies its frames in one piece.
	 */
	PV_GROW(at, (size_t)t->depth + 1, alloc);
	PV_GROW(p, 256, palloc);
	at[0] = 0;
	for (ev = t->node[0].child; ev != PV_FLAMETREE_NONE;
	     ev = t->node[ev].sibling) {
		uint32_t event = t->node[ev].name;

		path.s = p;
		path.len = 0;
		if (d->ends[ev] != 0)
			write_dstack(d, sb, ev, event, NULL, 0, path);
		depth = 0;
		n = t->node[ev].child;
		while (n != PV_FLAMETREE_NONE) {
			struct pv_str nm = escaped_name(&x, t->node[n].name);
			size_t len = at[depth];

			PV_GROW(p, len + nm.len + 1, palloc);
			if (depth > 0)
				p[len++] = ';';
			memcpy(p + len, nm.s, nm.len);
			at[++depth] = len + nm.len;
			if (d->ends[n] != 0) {
				path.s = p;
				path.len = at[depth];
				write_dstack(d, sb, n, event, NULL, 0, path);
				flush(sb, out, BLOCK);
			}
			if (t->node[n].child != PV_FLAMETREE_NONE) {
				n = t->node[n].child;
				continue;
			}
			while (t->node[n].sibling == PV_FLAMETREE_NONE) {
				n = t->node[n].parent;
				depth--;
				if (n == ev)
					break;
			}
			if (n == ev)
				break;
			n = t->node[n].sibling;
			depth--;
		}
	}
	free(at);
	free(p);
	escaped_release(&x);
}

static void
write_funcs(const struct pv_stackdiff *d, struct pv_strbuf *sb, FILE *out)
{
	size_t i;

	for (i = 0; i < d->nfunc; i++) {
		const struct pv_stackdiff_func *f = &d->func[i];
		struct pv_rec_func r;

		r.event = pv_symtab_get(&d->names, f->event);
		r.name = pv_symtab_get(&d->names, f->name);
		memcpy(r.incl, f->incl, sizeof(r.incl));
		memcpy(r.excl, f->excl, sizeof(r.excl));
		memcpy(r.incl_pct, f->incl_pct, sizeof(r.incl_pct));
		memcpy(r.excl_pct, f->excl_pct, sizeof(r.excl_pct));
		r.delta_incl = f->delta_incl;
		r.delta_excl = f->delta_excl;
		r.rel_incl = f->rel_incl;
		r.rel_excl = f->rel_excl;
		r.presence = f->presence;
		pv_rec_func_write(sb, &r);
		flush(sb, out, BLOCK);
	}
}

void
pv_stackdiff_write(const struct pv_stackdiff *d, FILE *out)
{
	pv_stackdiff_write_stacks(d, out);
	pv_stackdiff_write_funcs(d, out);
}

void
pv_stackdiff_write_stacks(const struct pv_stackdiff *d, FILE *out)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	size_t i;

	pv_strbuf_grow(&sb, BLOCK + 4096);
	for (i = 0; i < d->nrootmerge; i++) {
		struct pv_rec_rootmerge r;

		r.name[0] = pv_symtab_get(&d->names, d->rootmerge[i].name[0]);
		r.name[1] = pv_symtab_get(&d->names, d->rootmerge[i].name[1]);
		r.score = d->rootmerge[i].score;
		pv_rec_rootmerge_write(&sb, &r);
	}
	for (i = 0; i < d->ntotal; i++) {
		const struct pv_stackdiff_total *t = &d->total[i];
		struct pv_rec_total r;

		r.event = pv_symtab_get(&d->names, t->event);
		memcpy(r.period, t->period, sizeof(r.period));
		memcpy(r.samples, t->samples, sizeof(r.samples));
		pv_rec_total_write(&sb, &r);
	}
	if (d->opt.groups)
		pv_groups_write_frames(d, &sb, out);
	write_stacks(d, &sb, out);
	flush(&sb, out, 0);
	pv_strbuf_release(&sb);
}

void
pv_stackdiff_write_funcs(const struct pv_stackdiff *d, FILE *out)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;

	pv_strbuf_grow(&sb, BLOCK + 4096);
	write_funcs(d, &sb, out);
	if (d->opt.groups)
		pv_groups_write(d, &sb, out);
	if (d->opt.match)
		pv_funcmatch_write(d, &sb, out);
	if (d->opt.function != NULL)
		pv_callpaths_write(d, &sb, out);
	flush(&sb, out, 0);
	pv_strbuf_release(&sb);
}
