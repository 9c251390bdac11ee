/*
 * stacktab: aggregation of stack samples by distinct (event, frame list).
 *
 * Frames and events are symtab ids (the caller's symtab, which must outlive
 * the table).  Adding the same stack again adds to its sample count and
 * period sum; memory grows with the distinct stacks only.  Counts saturate
 * at UINT64_MAX rather than wrap, and pv_stacktab_overflowed() says so.
 *
 * A table holds at most max distinct stacks (PV_STACKTAB_MAX, as many as
 * a 32-bit index counts, unless the environment variable
 * PV_TEST_MAX_STACKS sets a smaller number: a knob for the tests of the
 * error path, as git's GIT_TEST_* variables are).  A new stack past the
 * limit, or one of more than UINT32_MAX frames, is an error: the add
 * returns NULL with the message in err, and the table is unchanged.
 */
#ifndef PV_STACKTAB_H
#define PV_STACKTAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "error.h"
#include "hmap.h"
#include "symtab.h"

#define PV_STACKTAB_MAX ((size_t)UINT32_MAX - 1)

struct pv_stack {
	const uint32_t *frame;	/* root first, in the table's arena */
	uint32_t nframe;
	uint32_t event;
	uint64_t samples, period;
};

struct pv_stacktab {
	struct pv_arena arena;
	struct pv_stack *stack;	/* in order of first appearance */
	size_t nstack, alloc;
	struct pv_hmap map;	/* the stacks' indices by event and frames */
	size_t max;		/* distinct stacks allowed */
	int overflow;
	struct pv_err err;
};

void pv_stacktab_init(struct pv_stacktab *t);
void pv_stacktab_release(struct pv_stacktab *t);

/*
 * Make room for n stacks in all, so that adding up to n distinct stacks
 * moves no memory.  A hint: a table may hold more, and pages of the room
 * not yet used are not touched.
 */
void pv_stacktab_reserve(struct pv_stacktab *t, size_t n);

/*
 * Add samples and period to the stack (event, frame[0..nframe)).  Returns
 * the stack, or NULL (err set) when it is new and cannot be held.
 */
struct pv_stack *pv_stacktab_add(struct pv_stacktab *t, uint32_t event,
				 const uint32_t *frame, size_t nframe,
				 uint64_t samples, uint64_t period);

static inline int
pv_stacktab_overflowed(const struct pv_stacktab *t)
{
	return t->overflow;
}

/*
 * Add every stack of src (named in src_names) to dst (named in names),
 * as if they had been added to dst one by one, in src's order.  Returns 0,
 * or -1 (dst's err set) when dst cannot hold them: dst then holds those
 * that came before.
 */
int pv_stacktab_merge(struct pv_stacktab *dst, struct pv_symtab *names,
		       const struct pv_stacktab *src,
		       const struct pv_symtab *src_names);

/*
 * The stacks by event, in the order the events were first interned in
 * names, then in the order of their folded form: the frame names joined
 * with ';', compared byte-wise (as sort(1) with LC_ALL=C orders folded
 * lines).  Returns an array of nstack pointers the
 * caller frees; the table is unchanged.
 */
struct pv_stack **pv_stacktab_sorted(const struct pv_stacktab *t,
				     const struct pv_symtab *names);

/*
 * Write the table as stack records (their codec, rec_profile.h) to out,
 * in the order of pv_stacktab_sorted(): what pv-parse and pv-collect write
 * of a profile.  The caller checks out's errors at the end, as with every
 * writer.
 */
void pv_stacktab_write(const struct pv_stacktab *t,
		       const struct pv_symtab *names, FILE *out);

#endif
