/*
 * sort: natural merge sort (see sort.h).  Run boundaries are kept in an
 * array; each pass merges neighbouring runs into the other buffer, so
 * that the passes number log2 of the runs.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sort.h"
#include "xalloc.h"

void
pv_sort_runs(void *base, size_t n, size_t size,
	     int (*cmp)(const void *, const void *))
{
	char *v = base, *tmp, *src, *dst;
	size_t *run, nrun = 0, i;

	if (n < 2)
		return;
	run = pv_xreallocarray(NULL, n + 1, sizeof(*run));
	run[nrun++] = 0;
	for (i = 1; i < n; i++) {
		if (cmp(v + (i - 1) * size, v + i * size) > 0)
			run[nrun++] = i;
	}
	if (nrun == 1) {
		free(run);
		return;
	}
	run[nrun] = n;
	tmp = pv_xreallocarray(NULL, n, size);
	src = v;
	dst = tmp;
	while (nrun > 1) {
		size_t r, m = 0;

		for (r = 0; r < nrun; r += 2) {
			size_t a = run[r], am = run[r + 1], b, bm, o = a;

			run[m++] = a;
			if (r + 1 == nrun) {	/* an odd run out: copy */
				memcpy(dst + a * size, src + a * size,
				       (am - a) * size);
				break;
			}
			b = am;
			bm = run[r + 2];
			while (a < am && b < bm) {
				/* the left one first when equal: stable */
				if (cmp(src + b * size, src + a * size) < 0)
					memcpy(dst + o++ * size,
					       src + b++ * size, size);
				else
					memcpy(dst + o++ * size,
					       src + a++ * size, size);
			}
			memcpy(dst + o * size, src + a * size,
			       (am - a) * size);
			o += am - a;
			memcpy(dst + o * size, src + b * size,
			       (bm - b) * size);
		}
		run[m] = n;
		nrun = m;
		dst = src;
		src = src == v ? tmp : v;
	}
	if (src != v)
		memcpy(v, src, n * size);
	free(run);
	free(tmp);
}
