/*
 * symtab: string interning with an open-addressing table of ids and the
 * full hash kept per entry, so that a probe compares bytes only on a likely
 * match (see symtab.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "symtab.h"
#include "xalloc.h"

void
pv_symtab_init(struct pv_symtab *t)
{
	memset(t, 0, sizeof(*t));
	t->mask = 1023;
	t->slot = pv_xcalloc(t->mask + 1, sizeof(*t->slot));
}

void
pv_symtab_release(struct pv_symtab *t)
{
	pv_arena_release(&t->arena);
	free(t->sym);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

uint64_t
pv_symtab_hash(const char *s, size_t len)
{
	return pv_hash(s, len, 0);
}

static void
grow(struct pv_symtab *t)
{
	size_t mask = t->mask * 2 + 1, i, j;
	uint32_t *slot = pv_xcalloc(mask + 1, sizeof(*slot));

	for (i = 0; i < t->nsym; i++) {
		for (j = t->sym[i].hash & mask; slot[j]; j = (j + 1) & mask)
			;
		slot[j] = (uint32_t)i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->mask = mask;
}

uint32_t
pv_symtab_intern_hashed(struct pv_symtab *t, const char *s, size_t len,
			uint64_t hash)
{
	size_t j;
	uint32_t id;

	for (j = hash & t->mask; t->slot[j]; j = (j + 1) & t->mask) {
		const struct pv_symtab_entry *e = &t->sym[t->slot[j] - 1];

		if (e->hash == hash && e->len == len &&
		    pv_hash_same(e->s, s, len))
			return t->slot[j] - 1;
	}
	id = (uint32_t)t->nsym;
	PV_GROW(t->sym, t->nsym + 1, t->alloc);
	t->sym[id].s = pv_arena_memdup(&t->arena, s, len);
	t->sym[id].len = len;
	t->sym[id].hash = hash;
	t->nsym++;
	t->slot[j] = id + 1;
	if (t->nsym * 2 > t->mask + 1)
		grow(t);
	return id;
}

uint32_t
pv_symtab_intern(struct pv_symtab *t, const char *s, size_t len)
{
	return pv_symtab_intern_hashed(t, s, len, pv_hash(s, len, 0));
}
