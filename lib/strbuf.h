/*
 * strbuf: a growable byte string, after git's strbuf.h.
 *
 * Invariants: buf is never NULL and buf[len] is always '\0' (so buf may be
 * used as a C string when it holds no NUL byte of its own); alloc is 0 while
 * buf points at a shared, read-only empty string.  A strbuf may hold any
 * bytes, NUL included.
 *
 * Lifecycle: PV_STRBUF_INIT or pv_strbuf_init(); pv_strbuf_reset() empties
 * it and keeps the memory; pv_strbuf_release() frees it and leaves it
 * initialised again.  Allocation failure dies (xalloc.h).
 */
#ifndef PV_STRBUF_H
#define PV_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct pv_strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char pv_strbuf_slopbuf[];
#define PV_STRBUF_INIT { 0, 0, pv_strbuf_slopbuf }

void pv_strbuf_init(struct pv_strbuf *sb, size_t hint);
void pv_strbuf_release(struct pv_strbuf *sb);
/* pv_strbuf_grow() when the room is not there: the allocation. */
void pv_strbuf_extend(struct pv_strbuf *sb, size_t extra);

/*
 * Make room for extra more bytes after len (plus the final NUL).  Inline,
 * as the writers of records call it for every field: most often the room
 * is there.
 */
static inline void
pv_strbuf_grow(struct pv_strbuf *sb, size_t extra)
{
	if (extra >= sb->alloc - sb->len)	/* alloc 0: always */
		pv_strbuf_extend(sb, extra);
}

/* Set len (at most alloc - 1, or 0), and the NUL after it. */
static inline void
pv_strbuf_setlen(struct pv_strbuf *sb, size_t len)
{
	if (sb->alloc == 0)
		return;		/* only len 0 is possible */
	sb->len = len;
	sb->buf[len] = '\0';
}

static inline void
pv_strbuf_reset(struct pv_strbuf *sb)
{
	pv_strbuf_setlen(sb, 0);
}

void pv_strbuf_add(struct pv_strbuf *sb, const void *data, size_t len);
void pv_strbuf_addstr(struct pv_strbuf *sb, const char *s);
void pv_strbuf_addch(struct pv_strbuf *sb, int c);
/* Append v in decimal (as "%llu" does, without printf's cost). */
void pv_strbuf_addu(struct pv_strbuf *sb, unsigned long long v);
void pv_strbuf_addf(struct pv_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pv_strbuf_vaddf(struct pv_strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Take the buffer (NUL-terminated, caller frees); sb is left empty. */
char *pv_strbuf_detach(struct pv_strbuf *sb, size_t *len);

#endif
