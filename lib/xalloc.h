/*
 * xalloc: allocators that never return NULL.  On failure they print
 * "PROG: out of memory" and exit with status 2; they are the only lib/ code
 * allowed to exit, as in git and elfutils.
 */
#ifndef PV_XALLOC_H
#define PV_XALLOC_H

#include <stddef.h>

void *pv_xmalloc(size_t size);
void *pv_xcalloc(size_t nmemb, size_t size);
void *pv_xrealloc(void *ptr, size_t size);
/* realloc to nmemb * size bytes, dying on multiplication overflow */
void *pv_xreallocarray(void *ptr, size_t nmemb, size_t size);
char *pv_xstrdup(const char *s);
char *pv_xmemdup(const void *p, size_t len);	/* NUL-terminated copy */

/*
 * Grow the array ptr, holding alloc elements, so that it holds at least
 * nr; like git's ALLOC_GROW.  Growth is geometric.
 */
#define PV_GROW(ptr, nr, alloc) do { \
	if ((nr) > (alloc)) { \
		size_t pv_grow_n = (alloc) < 16 ? 16 : (alloc); \
		while (pv_grow_n < (nr)) \
			pv_grow_n += pv_grow_n / 2; \
		(ptr) = pv_xreallocarray((ptr), pv_grow_n, sizeof(*(ptr))); \
		(alloc) = pv_grow_n; \
	} \
} while (0)

#endif
