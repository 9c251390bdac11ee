/*
 * hmap: the one hash table of the project, after git's hashmap.h.  The
 * table keeps no entries of its own and knows nothing of their keys: the
 * caller keeps its entries where it likes and names each by a 32-bit id
 * (most keep them in an array that grows, an entry's id being its index,
 * so that ids stay valid where pointers into the array would not); the
 * table maps a hash to the ids of the entries that have it, and a lookup
 * asks the caller's equality function, with the caller's context, whether
 * the entry of an id holds the key looked for.
 *
 * Slots: open addressing with linear probing, a slot of 8 bytes holding
 * the hash's upper 32 bits and id + 1 (0 is an empty slot).  A probe
 * compares those bits before it calls eq, so that the caller's entries
 * are touched nearly only where the key is; the home slot comes from the
 * same bits, so that the table rehashes from its slots alone and the
 * entries need not keep their hash.  The table doubles when an addition
 * would fill more than half of it.  Hashes must be good in their upper
 * half (pv_hash() and pv_hash_fold() of hash.h are).
 *
 * Lookups and additions are inline, so that a table whose caller passes
 * a function of its own file as eq compares keys without an indirect
 * call; the code is not a macro template, only functions the compiler
 * may specialise.
 *
 * Entries are never removed one by one: pv_hmap_reset() forgets them all.
 * Ids are 0 to UINT32_MAX - 1 (PV_HMAP_NONE means none).  Lifecycle:
 * PV_HMAP_INIT, zeros, or pv_hmap_init(); pv_hmap_release() frees the
 * slots and leaves the table initialised and empty.  Allocation failure dies
 * (xalloc.h).
 */
#ifndef PV_HMAP_H
#define PV_HMAP_H

#include <stddef.h>
#include <stdint.h>

struct pv_hmap {
	uint64_t *slot;		/* mask + 1 slots, or NULL */
	size_t mask;
	size_t count;		/* ids held */
};

/* all zeros: a table may also be initialised by memset() or calloc() */
#define PV_HMAP_INIT { NULL, 0, 0 }

#define PV_HMAP_NONE UINT32_MAX

/* Whether the entry of id holds key (ctx: the caller's, as given). */
typedef int pv_hmap_eq_fn(const void *ctx, uint32_t id, const void *key);

/* An empty table with room for hint ids (0: none allocated yet). */
void pv_hmap_init(struct pv_hmap *m, size_t hint);
void pv_hmap_release(struct pv_hmap *m);
/* Forget every id; the slots are kept. */
void pv_hmap_reset(struct pv_hmap *m);
/* Make room for n ids in all, so that adding up to n grows nothing. */
void pv_hmap_reserve(struct pv_hmap *m, size_t n);
/* Double the table (for pv_hmap_add_at(); callers need not call it). */
void pv_hmap_grow(struct pv_hmap *m);

/*
 * The id of the entry with key and this hash, or PV_HMAP_NONE.  *pos (when
 * pos is not NULL) gets the slot of that id, or the empty slot where an id
 * of key belongs, for pv_hmap_add_at() or pv_hmap_set_at() before the table
 * next changes.
 */
static inline uint32_t
pv_hmap_find(const struct pv_hmap *m, uint64_t hash, pv_hmap_eq_fn *eq,
	     const void *ctx, const void *key, size_t *pos)
{
	size_t j = (size_t)(hash >> 32) & m->mask;
	uint64_t s;

	if (m->slot == NULL) {
		/* pv_hmap_add_at() grows it first */
		if (pos != NULL)
			*pos = 0;
		return PV_HMAP_NONE;
	}
	for (; (s = m->slot[j]) != 0; j = (j + 1) & m->mask) {
		if ((s ^ hash) >> 32 == 0 && eq(ctx, (uint32_t)s - 1, key)) {
			if (pos != NULL)
				*pos = j;
			return (uint32_t)s - 1;
		}
	}
	if (pos != NULL)
		*pos = j;
	return PV_HMAP_NONE;
}

static inline uint32_t
pv_hmap_get(const struct pv_hmap *m, uint64_t hash, pv_hmap_eq_fn *eq,
	    const void *ctx, const void *key)
{
	return pv_hmap_find(m, hash, eq, ctx, key, NULL);
}

/*
 * Add id with this hash at pos, the empty slot pv_hmap_find() gave for its
 * key (the table grows first when it must).
 */
static inline void
pv_hmap_add_at(struct pv_hmap *m, size_t pos, uint64_t hash, uint32_t id)
{
	if ((m->count + 1) * 2 > m->mask + 1) {
		pv_hmap_grow(m);
		for (pos = (size_t)(hash >> 32) & m->mask; m->slot[pos] != 0;
		     pos = (pos + 1) & m->mask)
			;
	}
	m->slot[pos] = (hash & 0xffffffff00000000ULL) | ((uint64_t)id + 1);
	m->count++;
}

/* Add id with this hash, whose key the table does not hold yet. */
void pv_hmap_add(struct pv_hmap *m, uint64_t hash, uint32_t id);

/* Put id in place of the one pv_hmap_find() found at pos (same key). */
static inline void
pv_hmap_set_at(struct pv_hmap *m, size_t pos, uint32_t id)
{
	m->slot[pos] = (m->slot[pos] & 0xffffffff00000000ULL) |
		((uint64_t)id + 1);
}

#endif
