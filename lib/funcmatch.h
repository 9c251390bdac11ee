/*
 * funcmatch: what is one thing under two names in a comparison
 * (stackdiff.h), found from the shape of the call tree.
 *
 * Roots (pv_funcmatch_roots(), with opt.merge_roots): a root frame that
 * only the baseline's stacks have and one that only the target's have
 * are taken for one process, the same program built twice and named
 * differently, when their profiles are alike: the score of two roots is
 * the share of their time spent in the same leaf functions, the sum over
 * the leaves of the smaller of the two shares (each root's leaves'
 * exclusive counts over its total).  Roots that frame records describe
 * (functions) are not taken, nor more than the 64 largest of a side.
 * Pairs are taken by score, best first, each root in one pair at most,
 * when the score is at least one half; the baseline's root is renamed to
 * the target's.
 *
 * Functions (pv_funcmatch_find(), with opt.match): within an event, a
 * function seen on one side only is paired with one seen on the other
 * side only whose callers and callees are alike (a function renamed, or
 * inlined differently).  A function's callers are the frames right above
 * its nodes (or none, for a root), each weighing the inclusive count of
 * the node under it; its callees, the frames right below, each weighing
 * its inclusive count, and itself, weighing its exclusive count.  The
 * callers' similarity of two functions is the sum over the callers of
 * the smaller of their two shares (a caller's weight over the function's
 * callers' total); the callees' likewise; the score is the mean of the
 * two.  Only functions that share a caller or a callee (other than none
 * and itself) are compared, and a frame that more than 256 functions of a
 * side share proposes no pairs; root frames are not matched.  Pairs are
 * taken by score, best first, each function in one pair at most, when
 * the score is above one half (tests/bench/funcmatch.sh measures why);
 * of scores that round to the same multiple of 0.05, the pair whose names
 * have more of their beginnings and ends in common first, then the one
 * whose shares differ less, then the higher score, then by the names,
 * byte-wise.
 *
 * Called by stackdiff.c only: the roots on the summed tree before the
 * walk, the functions after it (evtotal: names id of an event -> its
 * index in d->total, plus one).
 */
#ifndef PV_FUNCMATCH_H
#define PV_FUNCMATCH_H

#include <stdio.h>

#include "stackdiff.h"
#include "strbuf.h"

void pv_funcmatch_roots(struct pv_stackdiff *d);
void pv_funcmatch_find(struct pv_stackdiff *d, const uint32_t *evtotal);
void pv_funcmatch_write(const struct pv_stackdiff *d, struct pv_strbuf *sb,
			FILE *out);

#endif
