/*
 * sort: a stable natural merge sort, for arrays that mostly come sorted
 * already (the stacks of a folded profile, written sorted, or of pv-diff's
 * dstack records).  The ascending runs already in the array are found and
 * merged pairwise, so that an array of k runs takes about n log k
 * comparisons, n for one already sorted, where qsort() takes n log n.
 * Equal elements keep their order, as with glibc's qsort().
 *
 * cmp is called as qsort() calls it.  Allocation failure dies (xalloc.h).
 */
#ifndef PV_SORT_H
#define PV_SORT_H

#include <stddef.h>

void pv_sort_runs(void *base, size_t n, size_t size,
		  int (*cmp)(const void *, const void *));

#endif
