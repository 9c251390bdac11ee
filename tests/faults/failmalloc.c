/*
 * failmalloc: an LD_PRELOAD allocation-fault injector for the tools.
 *
 * PV_FAILMALLOC=N makes the Nth call of malloc, calloc or realloc (counting
 * from 1, over all threads) fail with ENOMEM, once; every other call goes
 * to glibc.  PV_FAILMALLOC_COUNT=FILE writes the number of calls made to
 * FILE at exit, so that a test knows the range of N to try.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t nmemb, size_t size);
void *__libc_realloc(void *ptr, size_t size);

void *malloc(size_t size);
void *calloc(size_t nmemb, size_t size);
void *realloc(void *ptr, size_t size);

static unsigned long fail_at;	/* 0: never */
static unsigned long ncalls;
static int inited;

static void
report(void)
{
	const char *path = getenv("PV_FAILMALLOC_COUNT");
	char buf[32];
	int fd, n;

	if (path == NULL || (fd = open(path, O_WRONLY | O_CREAT | O_TRUNC,
				       0644)) < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%lu\n",
		     __atomic_load_n(&ncalls, __ATOMIC_RELAXED));
	if (write(fd, buf, (size_t)n) < 0)
		n = 0;
	close(fd);
}

static void
init(void)
{
	const char *s;

	inited = 1;
	if ((s = getenv("PV_FAILMALLOC")) != NULL)
		fail_at = strtoul(s, NULL, 10);
	if (getenv("PV_FAILMALLOC_COUNT") != NULL)
		atexit(report);
}

/* Whether this call is the one to fail. */
static int
fail_now(void)
{
	unsigned long n;

	if (!inited)
		init();
	n = __atomic_add_fetch(&ncalls, 1, __ATOMIC_RELAXED);
	if (fail_at != 0 && n == fail_at) {
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *
malloc(size_t size)
{
	return fail_now() ? NULL : __libc_malloc(size);
}

void *
calloc(size_t nmemb, size_t size)
{
	return fail_now() ? NULL : __libc_calloc(nmemb, size);
}

void *
realloc(void *ptr, size_t size)
{
	return fail_now() ? NULL : __libc_realloc(ptr, size);
}
