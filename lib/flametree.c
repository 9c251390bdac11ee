/*
 * flametree: the two-sided call tree (see flametree.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "flametree.h"
#include "record.h"
#include "xalloc.h"

static size_t
slot_of(uint32_t parent, uint32_t name, size_t mask)
{
	uint64_t h = ((uint64_t)parent << 32 | name) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 29) & mask;
}

/* PV_TEST_MAX_PATHS, when it holds a number below the limit */
static size_t
max_paths(void)
{
	const char *s = getenv("PV_TEST_MAX_PATHS");
	uint64_t v;

	if (s != NULL && pv_parse_u64(s, strlen(s), &v) == 0 &&
	    v < PV_FLAMETREE_MAX)
		return (size_t)v;
	return PV_FLAMETREE_MAX;
}

void
pv_flametree_init(struct pv_flametree *t)
{
	memset(t, 0, sizeof(*t));
	t->mask = 1023;
	t->slot = pv_xcalloc(t->mask + 1, sizeof(*t->slot));
	PV_GROW(t->node, 1, t->alloc);
	t->node[0].name = PV_FLAMETREE_ROOT;
	t->node[0].parent = PV_FLAMETREE_NONE;
	t->node[0].child = PV_FLAMETREE_NONE;
	t->node[0].sibling = PV_FLAMETREE_NONE;
	t->node[0].w[0] = t->node[0].w[1] = 0;
	t->nnode = 1;
	t->max = max_paths();
}

void
pv_flametree_release(struct pv_flametree *t)
{
	free(t->node);
	free(t->slot);
	free(t->path);
	free(t->pathname);
	memset(t, 0, sizeof(*t));
}

/*
 * The table holds the children of the nodes that have more than one: an
 * only child is found from its parent, and most nodes of a profile's tree
 * are only children (the frames under the one that makes a stack new).
 */
static void
put(uint32_t *slot, size_t mask, const struct pv_ftnode *n, uint32_t i)
{
	size_t j = slot_of(n->parent, n->name, mask);

	while (slot[j])
		j = (j + 1) & mask;
	slot[j] = i;
}

static void
grow(struct pv_flametree *t)
{
	size_t mask = t->mask * 2 + 1, i;
	uint32_t *slot = pv_xcalloc(mask + 1, sizeof(*slot));

	pv_xadvise_huge(slot, (mask + 1) * sizeof(*slot));
	/* from the slots alone */
	for (i = 0; i <= t->mask; i++)
		if (t->slot[i] != 0)
			put(slot, mask, &t->node[t->slot[i]], t->slot[i]);
	free(t->slot);
	t->slot = slot;
	t->mask = mask;
}

/*
 * A new child of parent named name (PV_FLAMETREE_NONE, err set, when that
 * would pass the limit), first of its siblings; table: 1 when parent's
 * children are in the table, 2 when its only child goes there now too.
 */
static uint32_t
new_child(struct pv_flametree *t, uint32_t parent, uint32_t name, int table)
{
	uint32_t first = t->node[parent].child, i;
	struct pv_ftnode *n;

	if (t->nnode - 1 >= t->max + t->uncounted ||
	    t->nnode - 1 >= PV_FLAMETREE_MAX) {
		pv_err_set(&t->err, "too many distinct call paths (more "
			   "than %zu)", t->max);
		return PV_FLAMETREE_NONE;
	}
	i = (uint32_t)t->nnode++;
	if (t->nnode > t->alloc) {
		PV_GROW(t->node, t->nnode, t->alloc);
		pv_xadvise_huge(t->node, t->alloc * sizeof(*t->node));
	}
	n = &t->node[i];
	n->name = name;
	n->parent = parent;
	n->child = PV_FLAMETREE_NONE;
	n->sibling = first;
	n->w[0] = n->w[1] = 0;
	t->node[parent].child = i;
	if (table == 2) {
		put(t->slot, t->mask, &t->node[first], first);
		t->nslot++;
	}
	if (table > 0) {
		put(t->slot, t->mask, n, i);
		t->nslot++;
		if (t->nslot * 2 > t->mask)
			grow(t);
	}
	return i;
}

/*
 * The child of parent named name, made when it is new (new_child()): an
 * only child is found from its parent, the children of a node with more
 * in the table.  Inline; only the making of a node is not.
 */
static inline uint32_t
child(struct pv_flametree *t, uint32_t parent, uint32_t name)
{
	uint32_t first = t->node[parent].child;
	size_t j;

	if (first == PV_FLAMETREE_NONE)
		return new_child(t, parent, name, 0);
	if (t->node[first].sibling == PV_FLAMETREE_NONE) {
		if (t->node[first].name == name)
			return first;
		/* an only child, not named name: into the table with it */
		return new_child(t, parent, name, 2);
	}
	for (j = slot_of(parent, name, t->mask); t->slot[j] != 0;
	     j = (j + 1) & t->mask) {
		const struct pv_ftnode *n = &t->node[t->slot[j]];

		if (n->parent == parent && n->name == name)
			return t->slot[j];
	}
	return new_child(t, parent, name, 1);
}

/* Room for a path of n frames (more than path_alloc), nodes and names. */
static void
grow_path(struct pv_flametree *t, size_t n)
{
	PV_GROW(t->path, n, t->path_alloc);
	t->pathname = pv_xreallocarray(t->pathname, t->path_alloc,
				       sizeof(*t->pathname));
}

static void
gain(struct pv_flametree *t, struct pv_ftnode *n, uint64_t w0, uint64_t w1)
{
	if (n->w[0] > UINT64_MAX - w0 || n->w[1] > UINT64_MAX - w1) {
		t->overflow = 1;
		n->w[0] = n->w[0] > UINT64_MAX - w0 ? UINT64_MAX : n->w[0] + w0;
		n->w[1] = n->w[1] > UINT64_MAX - w1 ? UINT64_MAX : n->w[1] + w1;
		return;
	}
	n->w[0] += w0;
	n->w[1] += w1;
}

int
pv_flametree_add(struct pv_flametree *t, const uint32_t *frame,
		 size_t nframe, uint64_t w0, uint64_t w1)
{
	uint32_t at = 0;
	size_t i = 0;

	gain(t, &t->node[0], w0, w1);
	/* the frames on the last stack's path: the same nodes */
	for (; i < nframe && i < t->npath; i++) {
		if (t->pathname[i] != frame[i])
			break;
		at = t->path[i];
		gain(t, &t->node[at], w0, w1);
	}
	if (nframe > t->path_alloc)
		grow_path(t, nframe);
	for (; i < nframe; i++) {
		at = child(t, at, frame[i]);
		if (at == PV_FLAMETREE_NONE) {
			t->npath = i;
			return -1;
		}
		gain(t, &t->node[at], w0, w1);
		t->path[i] = at;
		t->pathname[i] = frame[i];
	}
	t->npath = nframe;
	if (nframe > t->depth)
		t->depth = nframe > UINT32_MAX ? UINT32_MAX : (unsigned)nframe;
	return 0;
}

uint64_t
pv_flametree_self(const struct pv_flametree *t, uint32_t i, int side)
{
	uint64_t w = t->node[i].w[side];
	uint32_t c;

	/* at most 0: the children may pass a saturated weight (overflow) */
	for (c = t->node[i].child; c != PV_FLAMETREE_NONE;
	     c = t->node[c].sibling)
		w = t->node[c].w[side] < w ? w - t->node[c].w[side] : 0;
	return w;
}

uint32_t
pv_flametree_add_end(struct pv_flametree *t, const uint32_t *frame,
		     size_t nframe, uint64_t w0, uint64_t w1)
{
	return pv_flametree_add_end_known(t, frame, nframe, 0, w0, w1);
}

uint32_t
pv_flametree_add_end_known(struct pv_flametree *t, const uint32_t *frame,
			   size_t nframe, size_t known, uint64_t w0,
			   uint64_t w1)
{
	uint32_t at = 0;
	size_t same = nframe < t->npath ? nframe : t->npath;
	size_t i = known < same ? known : same;

	/* the frames on the last stack's path: the same nodes */
	while (i < same && t->pathname[i] == frame[i])
		i++;
	if (i > 0)
		at = t->path[i - 1];
	if (nframe > t->path_alloc)
		grow_path(t, nframe);
	for (; i < nframe; i++) {
		at = child(t, at, frame[i]);
		if (at == PV_FLAMETREE_NONE) {
			t->npath = i;
			return PV_FLAMETREE_NONE;
		}
		t->path[i] = at;
		t->pathname[i] = frame[i];
	}
	t->npath = nframe;
	if (nframe > t->depth)
		t->depth = nframe > UINT32_MAX ? UINT32_MAX : (unsigned)nframe;
	gain(t, &t->node[at], w0, w1);
	return at;
}

void
pv_flametree_sum(struct pv_flametree *t)
{
	size_t i;

	/* a node comes after its parent: the last ones are summed first */
	for (i = t->nnode; i-- > 1;)
		gain(t, &t->node[t->node[i].parent], t->node[i].w[0],
		     t->node[i].w[1]);
}

void
pv_flametree_reserve(struct pv_flametree *t, size_t nnode)
{
	/*
	 * The nodes only: they are touched in order as they come, while
	 * the table of children is touched all over, and is better grown
	 * with the tree than made large and sparse.  Both are read all
	 * over (a child found from its parent): huge pages (xalloc.h).
	 */
	if (nnode > t->alloc) {
		t->node = pv_xreallocarray(t->node, nnode, sizeof(*t->node));
		t->alloc = nnode;
		pv_xadvise_huge(t->node, nnode * sizeof(*t->node));
	}
}
