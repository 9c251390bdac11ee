/*
 * flametree: the call tree of two profiles at once, for flame graphs.
 *
 * Every distinct call path (root first) is a node holding two inclusive
 * weights, w[0] for the baseline and w[1] for the target: the sums of the
 * periods of the stacks that pass through it.  Node 0 is the root (the
 * whole profile, name PV_FLAMETREE_ROOT); a node's children are found by
 * (parent, name) in a hash table, so memory grows with the distinct call
 * paths, never with the samples.  Names are the caller's symtab ids.
 * Weights saturate at UINT64_MAX instead of wrapping; overflow says so.
 *
 * Lifecycle: pv_flametree_init(), pv_flametree_add() any number of times,
 * pv_flametree_release().  Allocation failure dies (xalloc.h).
 */
#ifndef PV_FLAMETREE_H
#define PV_FLAMETREE_H

#include <stddef.h>
#include <stdint.h>

#define PV_FLAMETREE_ROOT UINT32_MAX
#define PV_FLAMETREE_NONE UINT32_MAX

struct pv_ftnode {
	uint32_t name;		/* symtab id; PV_FLAMETREE_ROOT for node 0 */
	uint32_t parent;	/* PV_FLAMETREE_NONE for the root */
	uint32_t child;		/* first child, or PV_FLAMETREE_NONE */
	uint32_t sibling;	/* next sibling, or PV_FLAMETREE_NONE */
	uint64_t w[2];		/* inclusive weight: baseline, target */
};

struct pv_flametree {
	struct pv_ftnode *node;
	size_t nnode, alloc;
	uint32_t *slot;		/* open addressing: node index, 0 empty */
	size_t mask;
	unsigned depth;		/* the longest path added, in frames */
	int overflow;
};

void pv_flametree_init(struct pv_flametree *t);
void pv_flametree_release(struct pv_flametree *t);

/*
 * Add a stack of nframe frames (root first) weighing w0 in the baseline and
 * w1 in the target: every node on its path, the root included, gains them.
 */
void pv_flametree_add(struct pv_flametree *t, const uint32_t *frame,
		      size_t nframe, uint64_t w0, uint64_t w1);

#endif
