/*
 * hmap: the slots of the hash table and their growth (see hmap.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "xalloc.h"

/* the fewest slots a table that holds something has */
#define MIN_SLOTS 64

void
pv_hmap_init(struct pv_hmap *m, size_t hint)
{
	m->slot = NULL;
	m->mask = 0;
	m->count = 0;
	if (hint > 0)
		pv_hmap_reserve(m, hint);
}

void
pv_hmap_release(struct pv_hmap *m)
{
	free(m->slot);
	pv_hmap_init(m, 0);
}

void
pv_hmap_reset(struct pv_hmap *m)
{
	if (m->slot != NULL)
		memset(m->slot, 0, (m->mask + 1) * sizeof(*m->slot));
	m->count = 0;
}

/* Move the ids into a table of n slots (a power of two). */
static void
rehash(struct pv_hmap *m, size_t n)
{
	uint64_t *old = m->slot, *slot = pv_xcalloc(n, sizeof(*slot));
	size_t i, j, mask = n - 1;

	for (i = 0; old != NULL && i <= m->mask; i++) {
		if (old[i] == 0)
			continue;
		for (j = (size_t)(old[i] >> 32) & mask; slot[j] != 0;
		     j = (j + 1) & mask)
			;
		slot[j] = old[i];
	}
	free(old);
	m->slot = slot;
	m->mask = mask;
}

void
pv_hmap_grow(struct pv_hmap *m)
{
	/* twice the slots of a table that exists: calloc() refuses too many */
	rehash(m, m->slot == NULL ? MIN_SLOTS : (m->mask + 1) * 2);
}

void
pv_hmap_reserve(struct pv_hmap *m, size_t n)
{
	size_t slots = MIN_SLOTS;

	/* a hint: a table too large for memory is left to grow and die */
	while (slots / 2 < n && slots <= SIZE_MAX / 4 / sizeof(*m->slot))
		slots *= 2;
	if (m->slot == NULL || slots > m->mask + 1)
		rehash(m, slots);
}

void
pv_hmap_add(struct pv_hmap *m, uint64_t hash, uint32_t id)
{
	size_t pos;

	if ((m->count + 1) * 2 > m->mask + 1)
		pv_hmap_grow(m);
	for (pos = (size_t)(hash >> 32) & m->mask; m->slot[pos] != 0;
	     pos = (pos + 1) & m->mask)
		;
	pv_hmap_add_at(m, pos, hash, id);
}
