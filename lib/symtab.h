/*
 * symtab: interned byte strings (frame names, event names).  Each distinct
 * string gets a small id, dense from 0 in order of first appearance, and
 * one copy in the table's arena; ids stay valid, and the strings in place,
 * until pv_symtab_release() or pv_symtab_clear().  Memory grows with the distinct strings only.
 */
#ifndef PV_SYMTAB_H
#define PV_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "hash.h"
#include "hmap.h"
#include "record.h"

struct pv_symtab_entry {
	const char *s;		/* NUL-terminated copy */
	size_t len;
};

struct pv_symtab {
	struct pv_arena arena;
	struct pv_symtab_entry *sym;	/* by id */
	size_t nsym, alloc;
	struct pv_hmap map;		/* the ids by their strings */
};

void pv_symtab_init(struct pv_symtab *t);
void pv_symtab_release(struct pv_symtab *t);
/*
 * Forget every string, ids restarting from 0, and keep the memory for the
 * next ones: the arena's newest chunk, the id array, and the hash table,
 * unless it is much larger than the strings held (then a small one).
 */
void pv_symtab_clear(struct pv_symtab *t);

/* The id of s[0..len), or PV_HMAP_NONE when it was never interned. */
uint32_t pv_symtab_find(const struct pv_symtab *t, const char *s, size_t len);
uint64_t pv_symtab_hash(const char *s, size_t len);
/*
 * Add s[0..len), not interned yet, at pos, the empty slot that
 * pv_hmap_find() gave for it (pv_symtab_intern()); returns its new id.
 */
uint32_t pv_symtab_add_at(struct pv_symtab *t, const char *s, size_t len,
			  uint64_t hash, size_t pos);

static inline int
pv_symtab_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct pv_symtab *t = ctx;
	const struct pv_symtab_entry *e = &t->sym[id];
	const struct pv_str *k = key;

	return e->len == k->len && pv_hash_same(e->s, k->s, k->len);
}

/*
 * pv_symtab_intern() with the hash already computed by pv_symtab_hash().
 * The look-up is inline, the addition not: interning is the inner loop
 * of the readers of stacks, and most names it sees are known.
 */
static inline uint32_t
pv_symtab_intern_hashed(struct pv_symtab *t, const char *s, size_t len,
			uint64_t hash)
{
	struct pv_str key = { s, len };
	size_t pos;
	uint32_t id = pv_hmap_find(&t->map, hash, pv_symtab_eq, t, &key, &pos);

	return id != PV_HMAP_NONE ? id : pv_symtab_add_at(t, s, len, hash,
							  pos);
}

/* The id of s[0..len), adding it if new. */
static inline uint32_t
pv_symtab_intern(struct pv_symtab *t, const char *s, size_t len)
{
	return pv_symtab_intern_hashed(t, s, len, pv_hash(s, len, 0));
}

static inline struct pv_str
pv_symtab_get(const struct pv_symtab *t, uint32_t id)
{
	struct pv_str r = { t->sym[id].s, t->sym[id].len };

	return r;
}

#endif
