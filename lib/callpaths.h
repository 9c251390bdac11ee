/*
 * callpaths: the call paths of one function in a comparison (stackdiff.h),
 * for a butterfly view of a suspect: who calls it, and what it calls, with
 * the change of each path (pv-diff(1) --function).
 *
 * The function (opt.function, normalised as the frames are) is found in
 * every stack that holds it; its outermost frame there splits the stack
 * into a caller path (the frames above, from the function outward to the
 * root) and a callee path (the frames below, inward to the leaf).  The
 * caller paths of all such stacks make one tree, the callee paths another,
 * each rooted at the function, and every node of each is a path record:
 * its inclusive counts are those of the stacks that take the path (each
 * once, recursion or not), its exclusive counts those of the stacks whose
 * path ends there, at the root (callers) or the leaf (callees).  Records
 * come by event, the callers first, each tree depth first with children
 * by name, byte-wise.
 *
 * Called by stackdiff.c only, after the walk (evtotal: names id of an
 * event -> its index in d->total, plus one); d->function_found says
 * whether the function was in some stack.
 */
#ifndef PV_CALLPATHS_H
#define PV_CALLPATHS_H

#include <stdio.h>

#include "stackdiff.h"
#include "strbuf.h"

void pv_callpaths_find(struct pv_stackdiff *d, const uint32_t *evtotal);
void pv_callpaths_write(const struct pv_stackdiff *d, struct pv_strbuf *sb,
			FILE *out);

#endif
