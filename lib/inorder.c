/*
 * inorder: blocks computed by threads, taken in order (see inorder.h).
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "inorder.h"
#include "xalloc.h"

#define MAX_THREADS 16

struct run {
	const struct pv_inorder *job;
	struct pv_inorder_block *blk;
	atomic_int *done;
	atomic_size_t next;	/* the next block to claim */
	size_t nblk;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

/* Claim and compute the next block; 0 when none is left to claim. */
static int
work_one(struct run *r)
{
	size_t b = atomic_fetch_add(&r->next, 1);
	struct pv_inorder_block *blk;

	if (b >= r->nblk)
		return 0;
	blk = &r->blk[b];
	r->job->work(r->job->arg, blk);
	pthread_mutex_lock(&r->mu);
	atomic_store(&r->done[b], 1);
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return 1;
}

static void *
worker(void *arg)
{
	struct run *r = arg;

	while (work_one(r))
		;
	if (r->job->thread_end != NULL)
		r->job->thread_end();
	return NULL;
}

void
pv_inorder_run(const struct pv_inorder *job)
{
	pthread_t tid[MAX_THREADS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t block = job->block ? job->block : 1, started = 0, want, b;
	struct run r;

	r.job = job;
	r.nblk = (job->n + block - 1) / block;
	r.blk = pv_xcalloc(r.nblk ? r.nblk : 1, sizeof(*r.blk));
	r.done = pv_xcalloc(r.nblk ? r.nblk : 1, sizeof(*r.done));
	for (b = 0; b < r.nblk; b++) {
		r.blk[b].start = b * block;
		r.blk[b].end = b * block + block < job->n ? b * block + block :
			job->n;
		pv_strbuf_init(&r.blk[b].text, 0);
		r.blk[b].mark = pv_xreallocarray(NULL, r.blk[b].end -
						 r.blk[b].start,
						 sizeof(*r.blk[b].mark));
		atomic_init(&r.done[b], 0);
	}
	atomic_init(&r.next, 0);
	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	want = job->per_thread ? job->n / job->per_thread : r.nblk;
	b = job->jobs ? job->jobs : (size_t)(cpus > 0 ? cpus : 1);
	if (want > b)
		want = b;
	if (want > MAX_THREADS)
		want = MAX_THREADS;
	/* this thread is one of them */
	for (b = 1; b < want; b++)
		if (pthread_create(&tid[started], NULL, worker, &r) == 0)
			started++;
	for (b = 0; b < r.nblk; b++) {
		/* while this one is not done, help with the unclaimed */
		while (!atomic_load(&r.done[b])) {
			if (work_one(&r))
				continue;
			pthread_mutex_lock(&r.mu);
			while (!atomic_load(&r.done[b]))
				pthread_cond_wait(&r.cv, &r.mu);
			pthread_mutex_unlock(&r.mu);
		}
		job->take(job->arg, &r.blk[b]);
		pv_strbuf_release(&r.blk[b].text);
		free(r.blk[b].mark);
	}
	for (b = 0; b < started; b++)
		pthread_join(tid[b], NULL);
	pthread_cond_destroy(&r.cv);
	pthread_mutex_destroy(&r.mu);
	free(r.done);
	free(r.blk);
}
