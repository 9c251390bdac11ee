/*
 * flametree: the call tree of two profiles at once, the one call tree of
 * the renderers: the flame graphs of the SVG and the HTML report are laid
 * out from it.
 *
 * Every distinct call path (root first) is a node holding two inclusive
 * weights, w[0] for the baseline and w[1] for the target: the sums of the
 * periods of the stacks that pass through it.  A node's exclusive weight,
 * that of the stacks that end at it, is its own minus its children's
 * (pv_flametree_self()).  Node 0 is the root (the whole profile, name
 * PV_FLAMETREE_ROOT); a node's children are found by (parent, name) in a
 * hash table (an only child from its parent), so memory grows with the
 * distinct call paths, never with the samples.  Names are the caller's symtab ids.  Weights saturate at
 * UINT64_MAX instead of wrapping; overflow says so.
 *
 * Stacks may come in any order; in sorted order (folded stacks, pv-diff's
 * records) most frames are found on the path of the stack before, without
 * a look-up.
 *
 * A tree holds at most max call paths besides the root (PV_FLAMETREE_MAX,
 * as many as a 32-bit index counts, unless the environment variable
 * PV_TEST_MAX_PATHS sets a smaller number, for the tests of the error
 * path), and the caller's uncounted nodes; a stack that would pass it is
 * an error, in err.
 *
 * A tree may instead be filled with pv_flametree_add_end(), which gives a
 * stack's weights to the node where it ends only, and then made inclusive
 * once by pv_flametree_sum(): a stack then costs nothing on the nodes it
 * shares with the stack before.  pv-diff's comparison (stackdiff.h) fills
 * its tree so; the two ways are not mixed in one tree.
 *
 * Lifecycle: pv_flametree_init(), pv_flametree_add() (or _add_end() and
 * then _sum()) any number of times, pv_flametree_release().  Allocation
 * failure dies (xalloc.h).
 */
#ifndef PV_FLAMETREE_H
#define PV_FLAMETREE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define PV_FLAMETREE_ROOT UINT32_MAX
#define PV_FLAMETREE_NONE UINT32_MAX
#define PV_FLAMETREE_MAX ((size_t)UINT32_MAX - 2)

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
	size_t mask, nslot;	/* nslot: the nodes in it (not only children) */
	unsigned depth;		/* the longest path added, in frames */
	int overflow;
	size_t max;		/* call paths allowed, the root aside */
	size_t uncounted;	/* nodes that are no call path (the caller's
				   own levels, such as pv-diff's events) */
	struct pv_err err;
	uint32_t *path;		/* the nodes of the last stack added */
	uint32_t *pathname;	/* and their names, path_alloc of both */
	size_t npath, path_alloc;
};

void pv_flametree_init(struct pv_flametree *t);
void pv_flametree_release(struct pv_flametree *t);

/*
 * Add a stack of nframe frames (root first) weighing w0 in the baseline and
 * w1 in the target: every node on its path, the root included, gains them.
 * Returns 0, or -1 (err set) when a new call path would pass the limit;
 * the nodes before it on the path then hold the weights.
 */
int pv_flametree_add(struct pv_flametree *t, const uint32_t *frame,
		      size_t nframe, uint64_t w0, uint64_t w1);

/*
 * Add a stack as pv_flametree_add() does, but give its weights to the node
 * where it ends (the root, for an empty stack) and to no other.  Returns
 * that node, or PV_FLAMETREE_NONE (err set) when a new call path would pass
 * the limit.
 */
uint32_t pv_flametree_add_end(struct pv_flametree *t, const uint32_t *frame,
			      size_t nframe, uint64_t w0, uint64_t w1);
/*
 * The same, when the caller knows that the first known frames (at most
 * nframe) are those of the stack added last, so that they need not be
 * compared again; 0 after an add that failed.  A known past the last
 * stack's length counts as that length.
 */
uint32_t pv_flametree_add_end_known(struct pv_flametree *t,
				    const uint32_t *frame, size_t nframe,
				    size_t known, uint64_t w0, uint64_t w1);

/*
 * Make the weights of a tree filled by pv_flametree_add_end() inclusive:
 * every node gains its descendants' weights.  Call once, after the adding.
 */
void pv_flametree_sum(struct pv_flametree *t);

/*
 * Make room for nnode nodes in all (a hint: the tree may hold more, and
 * room not used is not touched).
 */
void pv_flametree_reserve(struct pv_flametree *t, size_t nnode);

/* The exclusive weight of node i on side (0 baseline, 1 target). */
uint64_t pv_flametree_self(const struct pv_flametree *t, uint32_t i,
			   int side);

#endif
