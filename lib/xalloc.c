/*
 * xalloc: checked allocation (see xalloc.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "xalloc.h"

static const char *progname = "pv";

void
pv_xalloc_set_name(const char *name)
{
	if (name != NULL && *name != '\0')
		progname = name;
}

void
pv_xalloc_die(void)
{
	static const char msg[] = ": out of memory\n";
	struct iovec iov[2];
	ssize_t r;

	iov[0].iov_base = (void *)progname;
	iov[0].iov_len = strlen(progname);
	iov[1].iov_base = (void *)msg;
	iov[1].iov_len = sizeof(msg) - 1;
	/* the output so far first, as before any fatal message */
	fflush(stdout);
	r = writev(STDERR_FILENO, iov, 2);	/* one line, one write */
	(void)r;	/* nothing is left to tell a failure to */
	exit(2);
}

void *
pv_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		pv_xalloc_die();
	return p;
}

void *
pv_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		pv_xalloc_die();
	return p;
}

void *
pv_xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (p == NULL)
		pv_xalloc_die();
	return p;
}

void
pv_xadvise_huge(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = (uintptr_t)2 << 20;	/* x86-64, arm64 */
	uintptr_t from = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t to = ((uintptr_t)p + size) & ~(huge - 1);

	if (to > from)
		(void)madvise((void *)from, to - from, MADV_HUGEPAGE);
#else
	(void)p;
	(void)size;
#endif
}

void *
pv_xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		pv_xalloc_die();
	return pv_xrealloc(ptr, nmemb * size);
}

void *
pv_xaligned_alloc(size_t align, size_t size)
{
	void *p = aligned_alloc(align, size ? size : align);

	if (p == NULL)
		pv_xalloc_die();
	return p;
}

size_t
pv_xmult(size_t a, size_t b)
{
	if (b != 0 && a > SIZE_MAX / b)
		pv_xalloc_die();
	return a * b;
}

char *
pv_xmemdup(const void *p, size_t len)
{
	char *s;

	if (len == SIZE_MAX)
		pv_xalloc_die();
	s = pv_xmalloc(len + 1);
	memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

char *
pv_xstrdup(const char *s)
{
	return pv_xmemdup(s, strlen(s));
}
