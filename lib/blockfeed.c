/*
 * blockfeed: a stream cut into blocks, worked by threads, taken in order
 * (see blockfeed.h).
 *
 * The blocks live in a ring of slots.  Block i is in slot i % nslot; the
 * calling thread fills slot "nread" while fewer than nslot blocks are in
 * flight, otherwise takes the oldest ("head") once it is done.  Workers
 * claim blocks in input order ("next"): the one at next may be claimed by
 * any worker, unless it is joined to the block before, which only the
 * worker that claimed that one ("chain") may take.  A block's bytes after
 * its cut stay in its slot until the next block is filled: they are the
 * next block's start, and no worker reads past a block's length.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockfeed.h"
#include "xalloc.h"

#define DEFAULT_BLOCK (1u << 20)
#define MAX_JOBS 8

enum { FREE, READY, DONE };

struct slot {
	struct pv_blockfeed_block b;
	char *buf;
	size_t cap;
	size_t fill;		/* bytes in buf: the block's, then the next's */
	int state;
};

struct feed {
	const struct pv_blockfeed *job;
	struct slot *slot;
	size_t nslot, block;
	size_t nread;		/* blocks read */
	size_t next;		/* the next block to claim */
	size_t chain;		/* the worker of the block before next */
	int quit;		/* no more blocks will be read */
	pthread_mutex_t mu;
	pthread_cond_t ready;	/* a block was read, or quit */
	pthread_cond_t done;	/* a block was worked */
};

struct worker {
	struct feed *f;
	size_t id;
};

size_t
pv_blockfeed_jobs(size_t jobs)
{
	long cpus;

	if (jobs == 0) {
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = cpus > 0 ? (size_t)cpus : 1;
	}
	return jobs < MAX_JOBS ? jobs : MAX_JOBS;
}

size_t
pv_blockfeed_slots(size_t jobs)
{
	return 2 * pv_blockfeed_jobs(jobs) + 2;
}

/* Whether worker id may claim the block at f->next (f->mu held). */
static int
claimable(const struct feed *f, size_t id)
{
	const struct slot *s;

	if (f->next >= f->nread)
		return 0;
	s = &f->slot[f->next % f->nslot];
	return !s->b.joined || f->chain == id;
}

static void *
work_loop(void *arg)
{
	struct worker *w = arg;
	struct feed *f = w->f;
	struct slot *s;

	pthread_mutex_lock(&f->mu);
	for (;;) {
		while (!claimable(f, w->id) &&
		       !(f->quit && f->next >= f->nread))
			pthread_cond_wait(&f->ready, &f->mu);
		if (!claimable(f, w->id))
			break;		/* quit, and every block claimed */
		s = &f->slot[f->next % f->nslot];
		f->next++;
		f->chain = w->id;
		/* the next block may be this worker's alone: wake it */
		pthread_cond_broadcast(&f->ready);
		pthread_mutex_unlock(&f->mu);
		f->job->work(f->job->arg, w->id, &s->b);
		pthread_mutex_lock(&f->mu);
		s->state = DONE;
		pthread_cond_broadcast(&f->done);
	}
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

/* Room for n bytes in the slot. */
static void
room(struct slot *s, size_t n)
{
	if (s->cap < n) {
		s->cap = n;
		s->buf = pv_xrealloc(s->buf, s->cap);
	}
}

/*
 * Fill the slot of block i from the input, after the bytes the block
 * before left, and cut it.  Returns 0, or 1 when the input ended (or
 * failed) with this block.
 */
static int
fill(struct feed *f, size_t i)
{
	const struct pv_blockfeed *job = f->job;
	struct slot *s = &f->slot[i % f->nslot];
	const struct slot *prev = i > 0 ? &f->slot[(i - 1) % f->nslot] : NULL;
	size_t carry = prev ? prev->fill - prev->b.len : 0, want, at = 0;
	long r;
	int whole = 1;

	want = f->block > carry ? f->block : carry + 1;
	room(s, want);
	if (carry > 0)
		memcpy(s->buf, prev->buf + prev->b.len, carry);
	memset(&s->b, 0, sizeof(s->b));
	s->b.index = i;
	s->b.slot = i % f->nslot;
	/* the first block is worker 0's, as a unit continued is */
	s->b.joined = prev == NULL || !prev->b.whole;
	s->fill = carry;
	for (;;) {
		while (s->fill < want) {
			r = pv_input_read(job->in, s->buf + s->fill,
					  s->cap - s->fill);
			if (r <= 0) {
				s->b.last = 1;
				s->b.failed = r < 0;
				break;
			}
			s->fill += (size_t)r;
		}
		if (s->b.last)
			break;
		at = job->cut(job->arg, s->buf, s->fill, i, &whole);
		if (at > 0 && at <= s->fill)
			break;
		/* nowhere to cut (a line longer than a block): read on */
		want = pv_xmult(s->fill, 2);
		room(s, want);
	}
	s->b.buf = s->buf;
	if (s->b.last) {
		s->b.len = s->fill;
		s->b.whole = 1;
		return 1;
	}
	s->b.len = at;
	s->b.whole = whole;
	return 0;
}

/* Every block on this thread, one at a time: no worker could start. */
static size_t
run_here(struct feed *f, int ended)
{
	const struct pv_blockfeed *job = f->job;
	size_t i = 0;
	int stop = 0;

	for (;;) {
		struct slot *s = &f->slot[i % f->nslot];

		job->work(job->arg, 0, &s->b);
		if (job->take(job->arg, &s->b) < 0)
			stop = 1;
		i++;
		if (ended || stop)
			return i;
		ended = fill(f, i);
	}
}

size_t
pv_blockfeed_run(const struct pv_blockfeed *job)
{
	pthread_t tid[MAX_JOBS];
	struct worker w[MAX_JOBS];
	struct feed f;
	size_t jobs = pv_blockfeed_jobs(job->jobs), started = 0, head = 0, k;
	int ended, stop = 0;

	memset(&f, 0, sizeof(f));
	f.job = job;
	f.nslot = pv_blockfeed_slots(job->jobs);
	f.block = job->block ? job->block : DEFAULT_BLOCK;
	f.slot = pv_xcalloc(f.nslot, sizeof(*f.slot));
	ended = fill(&f, 0);
	if (ended && f.slot[0].b.len == 0 && !f.slot[0].b.failed) {
		free(f.slot[0].buf);
		free(f.slot);
		return 0;
	}
	if (ended) {
		/* all of it in one block: no thread for so little */
		run_here(&f, 1);
		free(f.slot[0].buf);
		free(f.slot);
		return 1;
	}
	pthread_mutex_init(&f.mu, NULL);
	pthread_cond_init(&f.ready, NULL);
	pthread_cond_init(&f.done, NULL);
	f.slot[0].state = READY;
	f.nread = 1;
	for (k = 0; k < jobs; k++) {
		w[k].f = &f;
		w[k].id = k;
		if (pthread_create(&tid[k], NULL, work_loop, &w[k]) != 0)
			break;
		started++;
	}
	if (started == 0) {
		f.nread = run_here(&f, 0);
		goto out;
	}

	pthread_mutex_lock(&f.mu);
	for (;;) {
		if (!ended && !stop && f.nread - head < f.nslot) {
			/* the slot is free: no worker looks at it */
			pthread_mutex_unlock(&f.mu);
			ended = fill(&f, f.nread);
			pthread_mutex_lock(&f.mu);
			f.slot[f.nread % f.nslot].state = READY;
			f.nread++;
			pthread_cond_broadcast(&f.ready);
			continue;
		}
		if (head == f.nread)
			break;
		while (f.slot[head % f.nslot].state != DONE)
			pthread_cond_wait(&f.done, &f.mu);
		pthread_mutex_unlock(&f.mu);
		if (job->take(job->arg, &f.slot[head % f.nslot].b) < 0)
			stop = 1;
		pthread_mutex_lock(&f.mu);
		f.slot[head % f.nslot].state = FREE;
		head++;
	}
	f.quit = 1;
	pthread_cond_broadcast(&f.ready);
	pthread_mutex_unlock(&f.mu);
	for (k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
out:
	pthread_cond_destroy(&f.done);
	pthread_cond_destroy(&f.ready);
	pthread_mutex_destroy(&f.mu);
	for (k = 0; k < f.nslot; k++)
		free(f.slot[k].buf);
	free(f.slot);
	return f.nread;
}
