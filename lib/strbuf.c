/*
 * strbuf: growable byte strings (see strbuf.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

char pv_strbuf_slopbuf[1];

void
pv_strbuf_init(struct pv_strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = pv_strbuf_slopbuf;
	if (hint)
		pv_strbuf_grow(sb, hint);
}

void
pv_strbuf_release(struct pv_strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	pv_strbuf_init(sb, 0);
}

void
pv_strbuf_extend(struct pv_strbuf *sb, size_t extra)
{
	size_t want;
	int fresh = sb->alloc == 0;

	if (extra > SIZE_MAX - sb->len - 1)
		pv_xalloc_die();
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return;
	if (fresh)
		sb->buf = NULL;
	if (want < 64)
		want = 64;
	if (want < sb->alloc + sb->alloc / 2)
		want = sb->alloc + sb->alloc / 2;
	sb->buf = pv_xrealloc(sb->buf, want);
	sb->alloc = want;
	if (fresh)
		sb->buf[0] = '\0';
}

void
pv_strbuf_add(struct pv_strbuf *sb, const void *data, size_t len)
{
	pv_strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void
pv_strbuf_addstr(struct pv_strbuf *sb, const char *s)
{
	pv_strbuf_add(sb, s, strlen(s));
}

void
pv_strbuf_addch(struct pv_strbuf *sb, int c)
{
	pv_strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void
pv_strbuf_addu(struct pv_strbuf *sb, unsigned long long v)
{
	char tmp[20], *p = tmp + sizeof(tmp);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	pv_strbuf_add(sb, p, (size_t)(tmp + sizeof(tmp) - p));
}

void
pv_strbuf_vaddf(struct pv_strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc ? sb->alloc - sb->len : 0,
		      fmt, cp);
	va_end(cp);
	/*
	 * The formats are checked at compile time (the format attribute)
	 * and none converts wide characters, so vsnprintf fails only when
	 * the result would pass INT_MAX bytes (EOVERFLOW): a string no
	 * allocation made here could hold, reported as xalloc reports a
	 * size that overflows.
	 */
	if (n < 0)
		pv_xalloc_die();
	if ((size_t)n >= (sb->alloc ? sb->alloc - sb->len : 0)) {
		pv_strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void
pv_strbuf_addf(struct pv_strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pv_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *
pv_strbuf_detach(struct pv_strbuf *sb, size_t *len)
{
	char *res;

	pv_strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	pv_strbuf_init(sb, 0);
	return res;
}
