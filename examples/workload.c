/*
 * workload: the small program behind the bundled profile pair of the HTML
 * report test.  It fills a chained hash table with generated words, looks
 * each up again and sorts them.  "workload good" hashes the whole word;
 * "workload weak" hashes only its first two bytes, so chains grow long and
 * lookup() takes over: the regression the report must show.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NWORD 40000
#define NBUCKET 4096

struct entry {
	struct entry *next;
	char word[16];
	unsigned count;
};

static struct entry *bucket[NBUCKET];
static struct entry pool[NWORD];
static char words[NWORD][16];
static int weak;

__attribute__((noinline)) static unsigned
hash(const char *s)
{
	unsigned h = 2166136261u;
	size_t i, n = weak ? 2 : strlen(s);

	for (i = 0; i < n && s[i]; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h % NBUCKET;
}

__attribute__((noinline)) static struct entry *
lookup(const char *s)
{
	struct entry *e;

	for (e = bucket[hash(s)]; e != NULL; e = e->next)
		if (strcmp(e->word, s) == 0)
			return e;
	return NULL;
}

__attribute__((noinline)) static void
insert(const char *s, size_t i)
{
	struct entry *e = lookup(s);
	unsigned h;

	if (e != NULL) {
		e->count++;
		return;
	}
	e = &pool[i];
	snprintf(e->word, sizeof(e->word), "%s", s);
	e->count = 1;
	h = hash(s);
	e->next = bucket[h];
	bucket[h] = e;
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

__attribute__((noinline)) static unsigned long
run(unsigned seed)
{
	unsigned long found = 0;
	size_t i;

	memset(bucket, 0, sizeof(bucket));
	make_words(seed);
	for (i = 0; i < NWORD; i++)
		insert(words[i], i);
	for (i = 0; i < NWORD; i++)
		found += lookup(words[i]) != NULL;
	qsort(words, NWORD, sizeof(words[0]), cmp_word);
	return found;
}

int
main(int argc, char **argv)
{
	unsigned long found = 0;
	int round, rounds = argc > 2 ? atoi(argv[2]) : 20;

	weak = argc > 1 && strcmp(argv[1], "weak") == 0;
	for (round = 0; round < rounds; round++)
		found += run((unsigned)round + 1);
	printf("%lu\n", found);
	return 0;
}
