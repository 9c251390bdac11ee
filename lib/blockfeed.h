/*
 * blockfeed: a stream that cannot be split by offsets (a pipe, gzip data)
 * cut into blocks at the ends of its units, the blocks folded by worker
 * threads and taken back by the calling thread in input order.  It is how
 * pv-parse folds standard input on every processor, as it folds a plain
 * file by ranges of its bytes.
 *
 * The calling thread reads: it fills a block of about job->block bytes
 * from the input (pv_input_read(), decompressed), asks job->cut() where the
 * block's last whole unit ends, hands the bytes before that to the
 * workers and carries the rest into the next block.  A worker that takes a
 * block calls job->work() on it with its own number, so that each worker
 * folds into state of its own; the calling thread gives each done block,
 * in input order, to job->take().
 *
 * A unit longer than a block is carried across blocks: cut() returns the
 * end of a part of it with *whole 0, and the block after it is "joined":
 * it goes to the same worker, after it.  The first block goes to worker 0,
 * so that worker 0 sees the start of the input (a header, say).  A block
 * with no place to cut at all (cut() returns 0: one line longer than a
 * block) grows until it has one, so memory is the blocks in flight and the
 * longest line, not the input.  An input that ends within the first block
 * is worked on the calling thread, without starting any thread.
 *
 * Every block read is worked and taken.  When take() returns -1 no more
 * blocks are read; those already read are still worked and taken, and
 * then the run ends.  When the input fails, the bytes read before the
 * error are one last block with failed set (pv_input_error() says why);
 * they may end in the middle of a line.
 */
#ifndef PV_BLOCKFEED_H
#define PV_BLOCKFEED_H

#include <stddef.h>

#include "input.h"

struct pv_blockfeed_block {
	size_t index;		/* from 0, in input order */
	size_t slot;		/* in [0, pv_blockfeed_slots()), reused */
	const char *buf;	/* its bytes, buf[0..len) */
	size_t len;
	int joined;		/* it continues a unit of the block before */
	int whole;		/* it ends at the end of a unit */
	int last;		/* the input ends after it */
	int failed;		/* the input failed after it */
};

struct pv_blockfeed {
	struct pv_input *in;	/* read as bytes from where it is */
	size_t block;		/* bytes a block, about; 0: 1 MiB */
	size_t jobs;		/* worker threads; 0: one per CPU, at most 8 */
	/*
	 * Where buf[0..len) is cut: after its last whole unit, with *whole
	 * 1; after a part of a unit (a line), with *whole 0, when it holds
	 * no whole unit; 0 to read more first.  Called by the calling
	 * thread, blocks in order, never on the input's last bytes.
	 */
	size_t (*cut)(void *arg, const char *buf, size_t len, size_t index,
		      int *whole);
	/* fold a block: worker's thread, or the calling thread */
	void (*work)(void *arg, size_t worker,
		     const struct pv_blockfeed_block *b);
	/* a done block, on the calling thread, in order; -1 to stop */
	int (*take)(void *arg, const struct pv_blockfeed_block *b);
	void *arg;
};

/*
 * The blocks in flight at most, for jobs workers (after jobs 0 is made one
 * per CPU: pv_blockfeed_jobs()): the caller keeps state per slot.
 */
size_t pv_blockfeed_jobs(size_t jobs);
size_t pv_blockfeed_slots(size_t jobs);

/*
 * Run the job.  Returns the number of blocks (0 for an empty input).  A
 * worker that cannot be started is one fewer; with none, the calling
 * thread works every block itself.
 */
size_t pv_blockfeed_run(const struct pv_blockfeed *job);

#endif
