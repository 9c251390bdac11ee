/*
 * inorder: work cut into blocks that several threads compute, each block
 * taken back by the calling thread in block order as soon as it is done.
 * A tool writes its first results while it computes the rest, the
 * threads format what they compute, and the output does not depend on
 * how many threads there were or which did what.
 */
#ifndef PV_INORDER_H
#define PV_INORDER_H

#include <stddef.h>

#include "strbuf.h"

struct pv_inorder_block {
	size_t start, end;	/* its items, [start, end) */
	struct pv_strbuf text;	/* what work() wrote for them */
	size_t *mark;		/* [i - start]: text.len after item i */
};

struct pv_inorder {
	size_t n;		/* the items */
	size_t block;		/* items a block (at least 1) */
	size_t jobs;		/* the most threads; 0: one per CPU */
	size_t per_thread;	/* the fewest items worth a thread */
	/* compute a block's items into its text and marks (any thread) */
	void (*work)(void *arg, struct pv_inorder_block *b);
	/* take a done block: the calling thread, blocks in order */
	void (*take)(void *arg, const struct pv_inorder_block *b);
	/* called by each started thread before it ends, or NULL */
	void (*thread_end)(void);
	void *arg;
};

/*
 * Run the job: the calling thread is one of the workers and takes the
 * blocks in order, computing blocks not yet claimed while the next one to
 * take is not done.  A thread that cannot be started is one fewer.
 */
void pv_inorder_run(const struct pv_inorder *job);

#endif
