/*
 * arena: bump allocation for data that lives as long as a run (interned
 * frame names, stack frame lists).  Nothing is freed on its own; the whole
 * arena is freed at once by pv_arena_release() or emptied by
 * pv_arena_clear().  Allocation failure dies
 * (xalloc.h).
 */
#ifndef PV_ARENA_H
#define PV_ARENA_H

#include <stddef.h>

struct pv_arena_chunk;

struct pv_arena {
	struct pv_arena_chunk *chunk;	/* the current chunk, newest first */
	char *next, *end;
	size_t total;			/* bytes handed out */
};

#define PV_ARENA_INIT { NULL, NULL, NULL, 0 }

/* size bytes aligned for any object */
void *pv_arena_alloc(struct pv_arena *a, size_t size);
/* a NUL-terminated copy of s[0..len) */
char *pv_arena_memdup(struct pv_arena *a, const void *s, size_t len);
void pv_arena_release(struct pv_arena *a);
/*
 * Forget every block but keep the newest chunk for the next ones: an arena
 * emptied and filled again, group after group, does not go back to the
 * allocator (and the system) each time.
 */
void pv_arena_clear(struct pv_arena *a);

/*
 * Resize the block p of old bytes (NULL and 0 for none) to size bytes: in
 * place when p is the block handed out last and its chunk has room, else
 * a copy (the old block's bytes are lost until the release).  A table
 * that grows one element at a time while it is the newest block costs
 * neither copies nor slack.
 */
void *pv_arena_resize(struct pv_arena *a, void *p, size_t old, size_t size);
/* Whether p (of old bytes) is the block handed out last. */
int pv_arena_is_last(const struct pv_arena *a, const void *p, size_t old);

#endif
