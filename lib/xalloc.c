/*
 * xalloc: checked allocation (see xalloc.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "xalloc.h"

static noreturn void
oom(void)
{
	pv_die("out of memory");
}

void *
pv_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
pv_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
pv_xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
pv_xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		oom();
	return pv_xrealloc(ptr, nmemb * size);
}

char *
pv_xmemdup(const void *p, size_t len)
{
	char *s;

	if (len == SIZE_MAX)
		oom();
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
