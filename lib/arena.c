/*
 * arena: bump allocation in chunks (see arena.h).  Chunks grow with the
 * arena so that the number of chunks stays logarithmic; a request larger
 * than a chunk gets a chunk of its own.
 */
#include "config.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "xalloc.h"

struct pv_arena_chunk {
	struct pv_arena_chunk *prev;
	alignas(max_align_t) char data[];
};

#define ALIGN alignof(max_align_t)

/* Chunks from this size are backed by huge pages where the system can. */
#define HUGE (2u << 20)

/*
 * The arenas of a few hundred thousand keys take a hundred megabytes or
 * more, touched page by page as they fill: a page fault every 4 KiB costs
 * more than the work on the page on a virtual machine.  Where transparent
 * huge pages are on request (madvise), a large chunk asks for them: one
 * fault every 2 MiB.  A hint only; an error changes nothing.
 */
static void *
chunk_new(size_t size)
{
	if (size >= HUGE) {
		void *p;

		size = (size + HUGE - 1) / HUGE * HUGE;
		p = pv_xaligned_alloc(HUGE, size);
		pv_xadvise_huge(p, size);
		return p;
	}
	return pv_xmalloc(size);
}

void *
pv_arena_alloc(struct pv_arena *a, size_t size)
{
	char *p;
	size_t pad = (ALIGN - ((uintptr_t)a->next % ALIGN)) % ALIGN;

	if (a->next == NULL || (size_t)(a->end - a->next) < size + pad) {
		size_t csize = a->total < (64u << 10) ? (64u << 10) : a->total;
		struct pv_arena_chunk *c;

		if (csize > (64u << 20))
			csize = 64u << 20;
		if (size > SIZE_MAX - sizeof(*c) - ALIGN)
			pv_xalloc_die();
		if (csize < size)
			csize = size;
		c = chunk_new(sizeof(*c) + csize);
		c->prev = a->chunk;
		a->chunk = c;
		a->next = c->data;
		a->end = c->data + csize;
		pad = 0;
	}
	p = a->next + pad;
	a->next = p + size;
	a->total += size;
	return p;
}

char *
pv_arena_memdup(struct pv_arena *a, const void *s, size_t len)
{
	char *p;

	if (len == SIZE_MAX)
		pv_xalloc_die();
	p = pv_arena_alloc(a, len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

int
pv_arena_is_last(const struct pv_arena *a, const void *p, size_t old)
{
	return p != NULL && (const char *)p + old == a->next;
}

void *
pv_arena_resize(struct pv_arena *a, void *p, size_t old, size_t size)
{
	void *q;

	if (pv_arena_is_last(a, p, old) && size >= old &&
	    (size_t)(a->end - a->next) >= size - old) {
		a->next += size - old;
		a->total += size - old;
		return p;
	}
	q = pv_arena_alloc(a, size);
	if (old > 0)
		memcpy(q, p, old < size ? old : size);
	return q;
}

void
pv_arena_release(struct pv_arena *a)
{
	struct pv_arena_chunk *c = a->chunk;

	while (c != NULL) {
		struct pv_arena_chunk *prev = c->prev;

		free(c);
		c = prev;
	}
	memset(a, 0, sizeof(*a));
}

void
pv_arena_clear(struct pv_arena *a)
{
	struct pv_arena_chunk *c;

	if (a->chunk == NULL)
		return;
	/* the newest chunk is the largest but for a request of its own */
	c = a->chunk->prev;
	while (c != NULL) {
		struct pv_arena_chunk *prev = c->prev;

		free(c);
		c = prev;
	}
	a->chunk->prev = NULL;
	a->next = a->chunk->data;
	a->total = 0;
}
