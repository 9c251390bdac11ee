/*
 * xalloc: allocators that never return NULL.  On failure they print
 * "PROG: out of memory" and exit with status 2; they are the only lib/ code
 * allowed to exit, as in git and elfutils.
 *
 * The die path is this module's own, so that the bottom layer depends on
 * nothing above it (the front end's diag is in lib/fe/): it flushes stdout
 * (the records written so far go out before the message, as with every
 * other fatal error), writes the fixed message to file descriptor 2 with
 * writev(2), which needs no memory, and calls exit(2).  PROG is the name the
 * front end gives pv_xalloc_set_name() when it starts ("pv" until then).
 */
#ifndef PV_XALLOC_H
#define PV_XALLOC_H

#include <stddef.h>
#include <stdnoreturn.h>

void *pv_xmalloc(size_t size);
void *pv_xcalloc(size_t nmemb, size_t size);
void *pv_xrealloc(void *ptr, size_t size);
/* realloc to nmemb * size bytes, dying on multiplication overflow */
void *pv_xreallocarray(void *ptr, size_t nmemb, size_t size);
char *pv_xstrdup(const char *s);
char *pv_xmemdup(const void *p, size_t len);	/* NUL-terminated copy */
/* aligned_alloc(3): align a power of two, size a multiple of it */
void *pv_xaligned_alloc(size_t align, size_t size);
/*
 * Advice for the array p[0..size) (from these allocators), which is read
 * all over rather than in order (a tree's nodes, a hash table): back it
 * with huge pages where the system makes them on request (Linux's
 * transparent huge pages, madvise(MADV_HUGEPAGE) on the part of it that
 * whole huge pages cover), so that it takes fewer page faults and TLB
 * misses.  Nothing elsewhere, nor for an array too small to hold one.
 */
void pv_xadvise_huge(void *p, size_t size);
/* a * b, for sizes of memory to get elsewhere (an arena): dies on overflow */
size_t pv_xmult(size_t a, size_t b);

/*
 * The name the message starts with; the string is borrowed and must live
 * as long as the program (argv[0]'s last component).
 */
void pv_xalloc_set_name(const char *name);

/*
 * The die path itself, for code that sizes memory on its own and finds
 * that a size does not fit (an overflowing multiplication, a string longer
 * than printf can count): such a request is one no allocator could meet,
 * and is reported as out of memory.
 */
noreturn void pv_xalloc_die(void);

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
