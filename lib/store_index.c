/*
 * store_index: the store's index (see store.h for its rules).  It is read
 * a block at a time into an array of entries (it is small: a line an
 * entry, and log reads nothing else), with a table from (version, hash) to
 * entry for rm lines and duplicates; it is appended to under flock(2) and
 * replaced whole only by gc.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"
#include "record.h"
#include "store.h"
#include "store_private.h"
#include "xalloc.h"

/* st->err about line lineno of the index; returns -1 */
static int
bad_line(struct pv_store *st, unsigned long lineno, const char *msg)
{
	pv_err_set(&st->err, "%s", msg);
	st->err_line = lineno;
	return -1;
}

static uint64_t
key_hash(const char *version, const char *hash)
{
	return pv_hash(version, strlen(version),
		       pv_hash(hash, PV_SHA256_HEXLEN, 0));
}

/* The slot of (version, hash) with key hash key: its own, or an empty one. */
static struct pv_store_slot *
find_slot(const struct pv_store *st, const char *version, const char *hash,
	  uint64_t key)
{
	size_t mask = st->nslot - 1;
	size_t i = (size_t)key & mask;

	for (;; i = (i + 1) & mask) {
		struct pv_store_slot *sl = &st->slot[i];
		const struct pv_store_entry *e;

		if (sl->entry == 0)
			return sl;
		if (sl->key != key)
			continue;
		e = &st->entry[sl->entry - 1];
		/* versions differ early; hashes of one stream do not */
		if (strcmp(e->version, version) == 0 &&
		    strcmp(e->hash, hash) == 0)
			return sl;
	}
}

static void
grow_slots(struct pv_store *st)
{
	struct pv_store_slot *old = st->slot;
	size_t i, nold = st->nslot, mask;

	st->nslot = nold ? nold * 2 : 64;
	mask = st->nslot - 1;
	st->slot = pv_xcalloc(st->nslot, sizeof(*st->slot));
	for (i = 0; i < nold; i++) {
		size_t k;

		if (old[i].entry == 0)
			continue;
		/* keys are distinct entries: only an empty slot is needed */
		for (k = (size_t)old[i].key & mask; st->slot[k].entry != 0;
		     k = (k + 1) & mask)
			;
		st->slot[k] = old[i];
	}
	free(old);
}

const struct pv_store_entry *
pv_store_index_find(const struct pv_store *st, const char *version,
		    const char *hash)
{
	const struct pv_store_slot *sl;

	if (st->nslot == 0)
		return NULL;
	sl = find_slot(st, version, hash, key_hash(version, hash));
	if (sl->entry == 0 || !st->entry[sl->entry - 1].live)
		return NULL;
	return &st->entry[sl->entry - 1];
}

static void
clear_entries(struct pv_store *st)
{
	pv_arena_release(&st->arena);
	free(st->entry);
	free(st->slot);
	st->entry = NULL;
	st->slot = NULL;
	st->nentry = st->entry_alloc = st->nslot = 0;
	st->torn = 0;
}

static int
is_hash(const char *s, size_t len)
{
	size_t i;

	if (len != PV_SHA256_HEXLEN)
		return 0;
	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* A field, unescaped, in the arena; "-" is NULL when dash_null. */
static const char *
field_str(struct pv_store *st, struct pv_strbuf *tmp, const char *s,
	  size_t len, int dash_null, int *bad)
{
	if (dash_null && len == 1 && s[0] == '-')
		return NULL;
	if (memchr(s, '\\', len) == NULL)
		return pv_arena_memdup(&st->arena, s, len);
	pv_strbuf_reset(tmp);
	if (pv_unescape(tmp, s, len) < 0)
		*bad = 1;
	return pv_arena_memdup(&st->arena, tmp->buf, tmp->len);
}

static int
bad_hash(struct pv_store *st, unsigned long lineno, struct pv_str f)
{
	st->err_line = lineno;
	return pv_err_set(&st->err, "'%.*s' is not an object name (64 hex "
			  "digits)", (int)(f.len > 70 ? 70 : f.len), f.s);
}

static int
bad_number(struct pv_store *st, unsigned long lineno, const char *what,
	   struct pv_str f)
{
	st->err_line = lineno;
	return pv_err_set(&st->err, "%s '%.*s' is not a whole number in "
			  "range", what, (int)(f.len > 40 ? 40 : f.len), f.s);
}

/* Parse one complete index line (without its newline). */
static int
parse_line(struct pv_store *st, char *line, size_t len, unsigned long lineno,
	   struct pv_strbuf *tmp)
{
	struct pv_str f[64];
	struct pv_store_entry e;
	struct pv_store_slot *slot;
	size_t n = 0, i;
	uint64_t u, key;
	int bad = 0;
	char *p = line, *end = line + len, *tab;

	if (len == 0 || line[0] == '#')
		return 0;
	for (;;) {
		tab = memchr(p, '\t', (size_t)(end - p));
		if (n == sizeof(f) / sizeof(f[0]))
			return bad_line(st, lineno, "a line of more than 64 "
					"fields");
		f[n].s = p;
		f[n].len = (size_t)((tab ? tab : end) - p);
		n++;
		if (tab == NULL)
			break;
		p = tab + 1;
	}
	if (pv_str_eq(f[0], PV_FORMAT_NAME)) {
		if (n != 2 || !pv_str_eq(f[1], "1"))
			return bad_line(st, lineno, "not a version 1 index");
		return 0;
	}
	if (pv_str_eq(f[0], "rm")) {
		char hash[PV_SHA256_HEXLEN + 1];
		const char *version;

		if (n != 4) {
			st->err_line = lineno;
			return pv_err_set(&st->err, "an 'rm' line has 4 "
					  "fields, not %zu", n);
		}
		if (!is_hash(f[2].s, f[2].len))
			return bad_hash(st, lineno, f[2]);
		memcpy(hash, f[2].s, PV_SHA256_HEXLEN);
		hash[PV_SHA256_HEXLEN] = '\0';
		pv_strbuf_reset(tmp);
		if (pv_unescape(tmp, f[1].s, f[1].len) < 0)
			return bad_line(st, lineno, "bad escape");
		version = tmp->buf;
		if (st->nslot > 0) {
			slot = find_slot(st, version, hash,
					 key_hash(version, hash));
			if (slot->entry != 0)
				st->entry[slot->entry - 1].live = 0;
		}
		return 0;
	}
	if (!pv_str_eq(f[0], "add"))
		return 0;	/* a record type of a later version */
	if (n < 10) {
		st->err_line = lineno;
		return pv_err_set(&st->err, "an 'add' line has 10 fields or "
				  "more, not %zu", n);
	}
	if (!is_hash(f[2].s, f[2].len))
		return bad_hash(st, lineno, f[2]);
	memset(&e, 0, sizeof(e));
	e.version = field_str(st, tmp, f[1].s, f[1].len, 0, &bad);
	memcpy(e.hash, f[2].s, PV_SHA256_HEXLEN);
	if (pv_parse_u64(f[3].s, f[3].len, &e.size) < 0)
		return bad_number(st, lineno, "size", f[3]);
	if (pv_parse_u64(f[4].s, f[4].len, &e.csize) < 0)
		return bad_number(st, lineno, "compressed size", f[4]);
	if (pv_parse_u64(f[5].s, f[5].len, &u) < 0 || u > INT64_MAX)
		return bad_number(st, lineno, "time", f[5]);
	e.time = (int64_t)u;
	e.kinds = field_str(st, tmp, f[6].s, f[6].len, 0, &bad);
	e.commit = field_str(st, tmp, f[7].s, f[7].len, 1, &bad);
	e.branch = field_str(st, tmp, f[8].s, f[8].len, 1, &bad);
	e.name = field_str(st, tmp, f[9].s, f[9].len, 1, &bad);
	e.nexperiment = n - 10;
	e.experiment = pv_arena_alloc(&st->arena,
				      (n - 10 + 1) * sizeof(*e.experiment));
	for (i = 10; i < n; i++) {
		const char *x = field_str(st, tmp, f[i].s, f[i].len, 1, &bad);

		e.experiment[i - 10] = x ? x : "";
	}
	if (bad)
		return bad_line(st, lineno, "bad escape");
	e.line = lineno;
	e.live = 1;
	if (2 * (st->nentry + 1) > st->nslot)
		grow_slots(st);
	key = key_hash(e.version, e.hash);
	slot = find_slot(st, e.version, e.hash, key);
	if (slot->entry != 0 && st->entry[slot->entry - 1].live)
		return 0;	/* added again: the first add stands */
	PV_GROW(st->entry, st->nentry + 1, st->entry_alloc);
	st->entry[st->nentry++] = e;
	slot->entry = st->nentry;
	slot->key = key;
	return 0;
}

int
pv_store_index_load(struct pv_store *st)
{
	struct pv_strbuf p = PV_STRBUF_INIT, buf = PV_STRBUF_INIT;
	struct pv_strbuf tmp = PV_STRBUF_INIT;
	char *line, *nl, *end;
	unsigned long lineno = 0;
	ssize_t n;
	int fd, rc = -1;

	clear_entries(st);
	st->err_line = 0;
	pv_store_path(st, &p, "index");
	fd = open(p.buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		pv_err_set_errno(&st->err, errno, "cannot open '%s'", p.buf);
		goto out;
	}
	/* a block at a time; an unfinished line waits for the next block */
	pv_strbuf_grow(&buf, PV_STORE_BUFSIZE);
	for (;;) {
		if (buf.alloc - buf.len - 1 < PV_STORE_BUFSIZE / 2)
			pv_strbuf_grow(&buf, PV_STORE_BUFSIZE);
		n = read(fd, buf.buf + buf.len, buf.alloc - buf.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			pv_err_set_errno(&st->err, errno, "cannot read '%s'",
					 p.buf);
			close(fd);
			goto out;
		}
		if (n == 0)
			break;
		pv_strbuf_setlen(&buf, buf.len + (size_t)n);
		line = buf.buf;
		end = buf.buf + buf.len;
		while ((nl = memchr(line, '\n', (size_t)(end - line))) != NULL) {
			*nl = '\0';
			if (lineno++ == 0 && strncmp(line, PV_FORMAT_NAME "\t",
						     sizeof(PV_FORMAT_NAME)) != 0) {
				bad_line(st, 1, "not a pv store index");
				close(fd);
				goto out;
			}
			if (memchr(line, '\0', (size_t)(nl - line)) != NULL) {
				bad_line(st, lineno, "a NUL byte");
				close(fd);
				goto out;
			}
			if (parse_line(st, line, (size_t)(nl - line), lineno,
				       &tmp) < 0) {
				close(fd);
				goto out;
			}
			line = nl + 1;
		}
		memmove(buf.buf, line, (size_t)(end - line));
		pv_strbuf_setlen(&buf, (size_t)(end - line));
	}
	close(fd);
	if (lineno == 0) {
		bad_line(st, 1, "not a pv store index");
		goto out;
	}
	st->torn = buf.len > 0;
	rc = 0;
out:
	pv_strbuf_release(&p);
	pv_strbuf_release(&buf);
	pv_strbuf_release(&tmp);
	return rc;
}

static void
add_field(struct pv_strbuf *sb, const char *s)
{
	pv_strbuf_addch(sb, '\t');
	if (s == NULL || *s == '\0')
		pv_strbuf_addch(sb, '-');
	else
		pv_escape(sb, s, strlen(s), 0);
}

void
pv_store_index_format_add(struct pv_strbuf *sb,
			  const struct pv_store_entry *e)
{
	size_t i;

	pv_strbuf_addstr(sb, "add");
	add_field(sb, e->version);
	pv_strbuf_addf(sb, "\t%s\t%llu\t%llu\t%lld", e->hash,
		       (unsigned long long)e->size,
		       (unsigned long long)e->csize, (long long)e->time);
	add_field(sb, e->kinds);
	add_field(sb, e->commit);
	add_field(sb, e->branch);
	add_field(sb, e->name);
	for (i = 0; i < e->nexperiment; i++)
		add_field(sb, e->experiment[i]);
	pv_strbuf_addch(sb, '\n');
}

void
pv_store_index_format_rm(struct pv_strbuf *sb, const char *version,
			 const char *hash, int64_t time)
{
	pv_strbuf_addstr(sb, "rm");
	add_field(sb, version);
	pv_strbuf_addf(sb, "\t%s\t%lld\n", hash, (long long)time);
}

/* Cut a torn last line (no newline) off the locked index fd. */
static int
repair_tail(struct pv_store *st, int fd)
{
	char buf[4096];
	off_t size, pos;
	ssize_t n, i;

	if ((size = lseek(fd, 0, SEEK_END)) < 0)
		return pv_err_set_errno(&st->err, errno, "cannot seek in "
					"'%s/index'", st->dir);
	pos = size;
	while (pos > 0) {
		off_t at = pos > (off_t)sizeof(buf) ? pos - (off_t)sizeof(buf)
						      : 0;

		n = pread(fd, buf, (size_t)(pos - at), at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return pv_err_set_errno(&st->err, errno, "cannot read "
						"'%s/index'", st->dir);
		for (i = n; i > 0; i--)
			if (buf[i - 1] == '\n')
				break;
		if (i > 0) {
			pos = at + i;
			break;
		}
		pos = at;
	}
	if (pos == size)
		return 0;
	if (ftruncate(fd, pos) < 0)
		return pv_err_set_errno(&st->err, errno, "cannot repair "
					"'%s/index'", st->dir);
	return 0;
}

int
pv_store_index_append(struct pv_store *st, const struct pv_strbuf *lines)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	ssize_t n;
	int fd, rc = -1;

	pv_store_path(st, &p, "index");
	fd = open(p.buf, O_RDWR | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		pv_err_set_errno(&st->err, errno, "cannot open '%s'", p.buf);
		goto out;
	}
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			pv_err_set_errno(&st->err, errno, "cannot lock '%s'",
					 p.buf);
			goto out_close;
		}
	}
	if (repair_tail(st, fd) < 0)
		goto out_close;
	do
		n = write(fd, lines->buf, lines->len);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)lines->len) {
		pv_err_set_errno(&st->err, n >= 0 ? ENOSPC : errno,
				 "cannot write '%s'", p.buf);
		/* leave no partial line for readers to stumble on */
		repair_tail(st, fd);
		goto out_close;
	}
	if (fsync(fd) < 0) {
		pv_err_set_errno(&st->err, errno, "cannot sync '%s'", p.buf);
		goto out_close;
	}
	rc = 0;
out_close:
	close(fd);	/* drops the flock */
out:
	pv_strbuf_release(&p);
	return rc;
}

int
pv_store_index_rewrite(struct pv_store *st)
{
	struct pv_strbuf tmp = PV_STRBUF_INIT, dst = PV_STRBUF_INIT;
	struct pv_strbuf text = PV_STRBUF_INIT;
	size_t i;
	int fd, rc = -1;

	pv_strbuf_addstr(&text, PV_FORMAT_NAME "\t1\n");
	for (i = 0; i < st->nentry; i++)
		if (st->entry[i].live)
			pv_store_index_format_add(&text, &st->entry[i]);
	pv_store_path(st, &tmp, "tmp/index-XXXXXX");
	pv_store_path(st, &dst, "index");
	if ((fd = mkstemp(tmp.buf)) < 0) {
		pv_err_set_errno(&st->err, errno, "cannot create a file in "
				 "'%s/tmp'", st->dir);
		goto out;
	}
	if (pv_store_write_all(fd, text.buf, text.len) < 0 ||
	    fchmod(fd, 0644) < 0 || fsync(fd) < 0) {
		pv_err_set_errno(&st->err, errno, "cannot write '%s'",
				 tmp.buf);
		close(fd);
		unlink(tmp.buf);
		goto out;
	}
	close(fd);
	if (rename(tmp.buf, dst.buf) < 0) {
		pv_err_set_errno(&st->err, errno, "cannot replace '%s'",
				 dst.buf);
		unlink(tmp.buf);
		goto out;
	}
	rc = pv_store_sync_dir(st, st->dir);
out:
	pv_strbuf_release(&tmp);
	pv_strbuf_release(&dst);
	pv_strbuf_release(&text);
	return rc;
}
