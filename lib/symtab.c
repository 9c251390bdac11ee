/*
 * symtab: string interning, the strings by id in an array and in an
 * arena, the ids by string in a hash table (see symtab.h).
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
	pv_hmap_init(&t->map, 512);
}

void
pv_symtab_release(struct pv_symtab *t)
{
	pv_arena_release(&t->arena);
	free(t->sym);
	pv_hmap_release(&t->map);
	memset(t, 0, sizeof(*t));
}

void
pv_symtab_clear(struct pv_symtab *t)
{
	size_t n = t->nsym;

	pv_arena_clear(&t->arena);
	t->nsym = 0;
	/*
	 * Emptying a table of 1,024 slots for the one key of a group costs
	 * more than the group: one sized for the strings just held instead.
	 */
	if (t->map.mask + 1 > 8 * n + 64) {
		pv_hmap_release(&t->map);
		pv_hmap_init(&t->map, n);
	} else {
		pv_hmap_reset(&t->map);
	}
}

uint64_t
pv_symtab_hash(const char *s, size_t len)
{
	return pv_hash(s, len, 0);
}

uint32_t
pv_symtab_add_at(struct pv_symtab *t, const char *s, size_t len,
		 uint64_t hash, size_t pos)
{
	uint32_t id = (uint32_t)t->nsym;

	PV_GROW(t->sym, t->nsym + 1, t->alloc);
	t->sym[id].s = pv_arena_memdup(&t->arena, s, len);
	t->sym[id].len = len;
	t->nsym++;
	pv_hmap_add_at(&t->map, pos, hash, id);
	return id;
}

uint32_t
pv_symtab_find(const struct pv_symtab *t, const char *s, size_t len)
{
	struct pv_str key = { s, len };

	return pv_hmap_get(&t->map, pv_hash(s, len, 0), pv_symtab_eq, t,
			   &key);
}
