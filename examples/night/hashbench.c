/*
 * hashbench: the benchmark of the bundled night (examples/night/README).
 * JOBS worker processes each fill a chained hash table with generated
 * words, look each up again and sort them, ROUNDS times; the parent prints
 * the rates of the three phases, summed over the workers, and the wall
 * time, in pv-parse's generic form (pv-bench(7)):
 *
 *   hashbench/table/insert/rate VALUE words/s higher
 *
 * Built twice, as two versions of one program: v1 hashes whole words;
 * v2 (-DHASH_BYTES=2) only their first two bytes, so chains grow long and
 * lookup() takes over, insert() (which looks up first) with it, while
 * sorting does not change: the regressions the report must show.
 *
 *   hashbench [JOBS [ROUNDS]]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef HASH_BYTES
#define HASH_BYTES 0		/* 0: the whole word */
#endif
#define NWORD 40000
#define NBUCKET 4096

struct entry {
	struct entry *next;
	char word[16];
};

static struct entry *bucket[NBUCKET];
static struct entry pool[NWORD];
static char words[NWORD][16];

__attribute__((noinline)) static unsigned
hash(const char *s)
{
	unsigned h = 2166136261u;
	size_t i, n = HASH_BYTES > 0 ? HASH_BYTES : strlen(s);

	for (i = 0; i < n && s[i]; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h % NBUCKET;
}

/* the words compared in lookup() itself, where the profile shows them */
static inline int
same(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b)
		a++, b++;
	return *a == *b;
}

__attribute__((noinline)) static struct entry *
lookup(const char *s)
{
	struct entry *e;

	for (e = bucket[hash(s)]; e != NULL; e = e->next)
		if (same(e->word, s))
			return e;
	return NULL;
}

__attribute__((noinline)) static void
insert(const char *s, size_t i)
{
	unsigned h;

	if (lookup(s) != NULL)
		return;
	snprintf(pool[i].word, sizeof(pool[i].word), "%s", s);
	h = hash(s);
	pool[i].next = bucket[h];
	bucket[h] = &pool[i];
}

__attribute__((noinline)) static void
make_words(unsigned seed)
{
	size_t i, k;

	for (i = 0; i < NWORD; i++) {
		for (k = 0; k < 10; k++) {
			seed = seed * 1103515245u + 12345u;
			words[i][k] = (char)('a' + (seed >> 16) % 26);
		}
		words[i][k] = '\0';
	}
}

static int
cmp_word(const void *a, const void *b)
{
	return strcmp(a, b);
}

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One worker: the seconds of each phase, summed over the rounds, to fd. */
static void
work(int rounds, unsigned seed, int fd)
{
	double t[3] = { 0, 0, 0 }, t0;
	size_t i, found = 0;
	int r;

	for (r = 0; r < rounds; r++) {
		memset(bucket, 0, sizeof(bucket));
		make_words(seed + (unsigned)r);
		t0 = now();
		for (i = 0; i < NWORD; i++)
			insert(words[i], i);
		t[0] += now() - t0;
		t0 = now();
		for (i = 0; i < NWORD; i++)
			found += lookup(words[i]) != NULL;
		t[1] += now() - t0;
		t0 = now();
		qsort(words, NWORD, sizeof(words[0]), cmp_word);
		t[2] += now() - t0;
	}
	if (found == 0 || write(fd, t, sizeof(t)) != (ssize_t)sizeof(t))
		_exit(1);
	_exit(0);
}

int
main(int argc, char **argv)
{
	static const char *const phase[3] = { "insert", "lookup", "sort" };
	int jobs = argc > 1 ? atoi(argv[1]) : 1;
	int rounds = argc > 2 ? atoi(argv[2]) : 10;
	double rate[3] = { 0, 0, 0 }, t[3], start = now();
	int fd[2], j, k, status, failed = 0;

	if (jobs < 1 || rounds < 1 || pipe(fd) != 0)
		return 2;
	for (j = 0; j < jobs; j++) {
		pid_t p = fork();

		if (p < 0)
			return 2;
		if (p == 0) {
			close(fd[0]);
			work(rounds, (unsigned)j * 7919u + 1u, fd[1]);
		}
	}
	close(fd[1]);
	for (j = 0; j < jobs; j++) {
		if (read(fd[0], t, sizeof(t)) != (ssize_t)sizeof(t))
			return 2;
		for (k = 0; k < 3; k++)
			rate[k] += (double)NWORD * rounds / t[k];
	}
	while (wait(&status) > 0)
		failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	if (failed)
		return 1;
	for (k = 0; k < 3; k++)
		printf("hashbench/table/%s/rate %.6g words/s higher\n",
		       phase[k], rate[k]);
	printf("hashbench/table/all/time %.6g s lower\n", now() - start);
	return 0;
}
