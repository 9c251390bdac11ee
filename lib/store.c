/*
 * store: the version store's files (see store.h for the layout, the index
 * format and the durability rules).  Objects are written through zlib's
 * deflate to a temporary file and filed with link(2), so that no object is
 * ever replaced; the index is read a block at a time into an array of
 * entries (it is small: a line an entry, and log reads nothing else) and
 * appended to under flock(2).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "git.h"
#include "hash.h"
#include "record.h"
#include "store.h"
#include "version.h"
#include "xalloc.h"

#define BUFSIZE 65536

static int
fail(struct pv_store *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
fail(struct pv_store *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->err, sizeof(st->err), fmt, ap);
	va_end(ap);
	st->err_at = 0;
	return -1;
}

/* fail() about line lineno of the index: "DIR/index:LINE: message" */
static int
fail_index(struct pv_store *st, unsigned long lineno, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
fail_index(struct pv_store *st, unsigned long lineno, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	snprintf(st->err, sizeof(st->err), "%s/index:%lu: ", st->dir, lineno);
	n = strlen(st->err);
	va_start(ap, fmt);
	vsnprintf(st->err + n, sizeof(st->err) - n, fmt, ap);
	va_end(ap);
	st->err_at = 1;
	return -1;
}

/* fail() with ": strerror(errno)" appended */
static int
fail_errno(struct pv_store *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
fail_errno(struct pv_store *st, const char *fmt, ...)
{
	int e = errno;
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->err, sizeof(st->err), fmt, ap);
	va_end(ap);
	n = strlen(st->err);
	snprintf(st->err + n, sizeof(st->err) - n, ": %s", strerror(e));
	st->err_at = 0;
	errno = e;
	return -1;
}

static void
path(const struct pv_store *st, struct pv_strbuf *sb, const char *rel)
{
	pv_strbuf_reset(sb);
	pv_strbuf_addf(sb, "%s/%s", st->dir, rel);
}

void
pv_store_init(struct pv_store *st)
{
	struct pv_store blank = PV_STORE_INIT;

	*st = blank;
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

void
pv_store_release(struct pv_store *st)
{
	clear_entries(st);
	if (st->lockfd >= 0)
		close(st->lockfd);	/* drops the flock */
	free(st->dir);
	pv_store_init(st);
}

/* fsync a directory, so that a new name in it survives a crash */
static int
sync_dir(struct pv_store *st, const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		return fail_errno(st, "cannot open '%s'", dir);
	if (fsync(fd) < 0 && errno != EINVAL) {
		close(fd);
		return fail_errno(st, "cannot sync '%s'", dir);
	}
	close(fd);
	return 0;
}

static int
make_dir(struct pv_store *st, const char *dir)
{
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return fail_errno(st, "cannot create '%s'", dir);
	return 0;
}

/*
 * Create file rel with contents unless it exists: written to a temporary
 * file, synced and linked, so that it appears whole or not at all.
 */
static int
create_file(struct pv_store *st, const char *rel, const char *contents)
{
	struct pv_strbuf tmp = PV_STRBUF_INIT, dst = PV_STRBUF_INIT;
	size_t len = strlen(contents);
	int fd, rc = -1;

	path(st, &dst, rel);
	path(st, &tmp, "tmp/new-XXXXXX");
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		fail_errno(st, "cannot create a file in '%s/tmp'", st->dir);
		goto out;
	}
	if (write(fd, contents, len) != (ssize_t)len || fsync(fd) < 0 ||
	    fchmod(fd, 0644) < 0) {
		fail_errno(st, "cannot write '%s'", tmp.buf);
		close(fd);
		unlink(tmp.buf);
		goto out;
	}
	close(fd);
	if (link(tmp.buf, dst.buf) < 0 && errno != EEXIST) {
		fail_errno(st, "cannot create '%s'", dst.buf);
		unlink(tmp.buf);
		goto out;
	}
	unlink(tmp.buf);
	rc = 0;
out:
	pv_strbuf_release(&tmp);
	pv_strbuf_release(&dst);
	return rc;
}

static int
check_format(struct pv_store *st)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	char buf[64];
	ssize_t n;
	int fd;

	path(st, &p, "format");
	fd = open(p.buf, O_RDONLY);
	pv_strbuf_release(&p);
	if (fd < 0) {
		if (errno == ENOENT)
			return fail(st, "'%s' is not a pv store (no format "
				    "file; make one with 'pv-store init')",
				    st->dir);
		return fail_errno(st, "cannot open '%s/format'", st->dir);
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return fail_errno(st, "cannot read '%s/format'", st->dir);
	buf[n] = '\0';
	if (strcmp(buf, PV_STORE_FORMAT "\n") != 0)
		return fail(st, "'%s' has a store format this version does "
			    "not know ('%.*s')", st->dir,
			    (int)strcspn(buf, "\n"), buf);
	return 0;
}

int
pv_store_create(struct pv_store *st, const char *dir)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	static const char *const sub[] = { "objects", "tmp" };
	DIR *d;
	struct dirent *de;
	size_t i;
	int rc = -1, fd;

	free(st->dir);
	st->dir = pv_xstrdup(dir);
	if (make_dir(st, dir) < 0)
		return -1;
	path(st, &p, "format");
	if (access(p.buf, F_OK) == 0) {
		pv_strbuf_release(&p);
		return check_format(st);
	}
	/* refuse to scatter files into a directory used for something else */
	if ((d = opendir(dir)) == NULL) {
		fail_errno(st, "cannot open '%s'", dir);
		goto out;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    strcmp(de->d_name, "objects") == 0 ||
		    strcmp(de->d_name, "tmp") == 0 ||
		    strcmp(de->d_name, "index") == 0 ||
		    strcmp(de->d_name, "lock") == 0)
			continue;
		closedir(d);
		fail(st, "'%s' exists and is not a pv store", dir);
		goto out;
	}
	closedir(d);
	for (i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		path(st, &p, sub[i]);
		if (make_dir(st, p.buf) < 0)
			goto out;
	}
	path(st, &p, "lock");
	fd = open(p.buf, O_RDWR | O_CREAT, 0644);
	if (fd < 0) {
		fail_errno(st, "cannot create '%s'", p.buf);
		goto out;
	}
	close(fd);
	/* the index before the format file: the format file says "done" */
	if (create_file(st, "index", PV_FORMAT_NAME "\t1\n") < 0 ||
	    create_file(st, "format", PV_STORE_FORMAT "\n") < 0 ||
	    sync_dir(st, dir) < 0)
		goto out;
	rc = 0;
out:
	pv_strbuf_release(&p);
	return rc;
}

int
pv_store_open(struct pv_store *st, const char *dir)
{
	struct stat sb;

	free(st->dir);
	st->dir = pv_xstrdup(dir);
	if (stat(dir, &sb) < 0)
		return fail_errno(st, "cannot open store '%s'", dir);
	if (!S_ISDIR(sb.st_mode))
		return fail(st, "'%s' is not a pv store (not a directory)",
			    dir);
	return check_format(st);
}

int
pv_store_lock(struct pv_store *st, int exclusive)
{
	struct pv_strbuf p = PV_STRBUF_INIT;

	if (st->lockfd < 0) {
		path(st, &p, "lock");
		st->lockfd = open(p.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		/* flock needs no write access: a read-only store will do */
		if (st->lockfd < 0 && (errno == EACCES || errno == EROFS))
			st->lockfd = open(p.buf, O_RDONLY | O_CLOEXEC);
		pv_strbuf_release(&p);
		if (st->lockfd < 0)
			return fail_errno(st, "cannot open '%s/lock'",
					  st->dir);
	}
	while (flock(st->lockfd, exclusive ? LOCK_EX : LOCK_SH) < 0)
		if (errno != EINTR)
			return fail_errno(st, "cannot lock '%s/lock'",
					  st->dir);
	return 0;
}

/* The index */

static uint64_t
key_hash(const char *version, const char *hash)
{
	return pv_hash(version, strlen(version), pv_hash(hash, 64, 0));
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
pv_store_find(const struct pv_store *st, const char *version,
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

/* Parse one complete index line (without its newline). */
static int
bad_hash(struct pv_store *st, unsigned long lineno, struct pv_str f)
{
	return fail_index(st, lineno, "'%.*s' is not an object name (64 hex "
			  "digits)", (int)(f.len > 70 ? 70 : f.len), f.s);
}

static int
bad_number(struct pv_store *st, unsigned long lineno, const char *what,
	   struct pv_str f)
{
	return fail_index(st, lineno, "%s '%.*s' is not a whole number in "
			  "range", what, (int)(f.len > 40 ? 40 : f.len), f.s);
}

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
			return fail_index(st, lineno, "a line of more than "
					  "%zu fields", sizeof(f) / sizeof(f[0]));
		f[n].s = p;
		f[n].len = (size_t)((tab ? tab : end) - p);
		n++;
		if (tab == NULL)
			break;
		p = tab + 1;
	}
	if (pv_str_eq(f[0], PV_FORMAT_NAME)) {
		if (n != 2 || !pv_str_eq(f[1], "1"))
			return fail_index(st, lineno, "not a version 1 index");
		return 0;
	}
	if (pv_str_eq(f[0], "rm")) {
		char hash[PV_SHA256_HEXLEN + 1];
		const char *version;

		if (n != 4)
			return fail_index(st, lineno, "an 'rm' line has 4 "
					  "fields, not %zu", n);
		if (!is_hash(f[2].s, f[2].len))
			return bad_hash(st, lineno, f[2]);
		memcpy(hash, f[2].s, PV_SHA256_HEXLEN);
		hash[PV_SHA256_HEXLEN] = '\0';
		pv_strbuf_reset(tmp);
		if (pv_unescape(tmp, f[1].s, f[1].len) < 0)
			return fail_index(st, lineno, "bad escape");
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
	if (n < 10)
		return fail_index(st, lineno, "an 'add' line has 10 fields or "
				  "more, not %zu", n);
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
		return fail_index(st, lineno, "bad escape");
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
pv_store_load(struct pv_store *st)
{
	struct pv_strbuf p = PV_STRBUF_INIT, buf = PV_STRBUF_INIT;
	struct pv_strbuf tmp = PV_STRBUF_INIT;
	char *line, *nl, *end;
	unsigned long lineno = 0;
	ssize_t n;
	int fd, rc = -1;

	clear_entries(st);
	path(st, &p, "index");
	fd = open(p.buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fail_errno(st, "cannot open '%s'", p.buf);
		goto out;
	}
	/* a block at a time; an unfinished line waits for the next block */
	pv_strbuf_grow(&buf, BUFSIZE);
	for (;;) {
		if (buf.alloc - buf.len - 1 < BUFSIZE / 2)
			pv_strbuf_grow(&buf, BUFSIZE);
		n = read(fd, buf.buf + buf.len, buf.alloc - buf.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail_errno(st, "cannot read '%s'", p.buf);
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
				fail_index(st, 1, "not a pv store index");
				close(fd);
				goto out;
			}
			if (memchr(line, '\0', (size_t)(nl - line)) != NULL) {
				fail_index(st, lineno, "a NUL byte");
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
		fail_index(st, 1, "not a pv store index");
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
pv_store_format_add(struct pv_strbuf *sb, const struct pv_store_entry *e)
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
pv_store_format_rm(struct pv_strbuf *sb, const char *version,
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
		return fail_errno(st, "cannot seek in '%s/index'", st->dir);
	pos = size;
	while (pos > 0) {
		off_t at = pos > (off_t)sizeof(buf) ? pos - (off_t)sizeof(buf)
						      : 0;

		n = pread(fd, buf, (size_t)(pos - at), at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return fail_errno(st, "cannot read '%s/index'",
					  st->dir);
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
		return fail_errno(st, "cannot repair '%s/index'", st->dir);
	return 0;
}

int
pv_store_append(struct pv_store *st, const struct pv_strbuf *lines)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	ssize_t n;
	int fd, rc = -1;

	path(st, &p, "index");
	fd = open(p.buf, O_RDWR | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		fail_errno(st, "cannot open '%s'", p.buf);
		goto out;
	}
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			fail_errno(st, "cannot lock '%s'", p.buf);
			goto out_close;
		}
	}
	if (repair_tail(st, fd) < 0)
		goto out_close;
	do
		n = write(fd, lines->buf, lines->len);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)lines->len) {
		if (n >= 0)
			errno = ENOSPC;
		fail_errno(st, "cannot write '%s'", p.buf);
		/* leave no partial line for readers to stumble on */
		repair_tail(st, fd);
		goto out_close;
	}
	if (fsync(fd) < 0) {
		fail_errno(st, "cannot sync '%s'", p.buf);
		goto out_close;
	}
	rc = 0;
out_close:
	close(fd);	/* drops the flock */
out:
	pv_strbuf_release(&p);
	return rc;
}

/* Objects */

struct pv_store_objstate {
	int fd;
	struct pv_strbuf tmp;
	z_stream z;
	struct pv_sha256 sha;
	unsigned char out[BUFSIZE];
};

void
pv_store_object_path(const struct pv_store *st, const char *hash,
		     struct pv_strbuf *sb)
{
	pv_strbuf_reset(sb);
	pv_strbuf_addf(sb, "%s/objects/%.2s/%s", st->dir, hash, hash + 2);
}

static void
obj_free(struct pv_store_obj *obj)
{
	struct pv_store_objstate *s = obj->state;

	if (s->fd >= 0)
		close(s->fd);
	deflateEnd(&s->z);
	pv_strbuf_release(&s->tmp);
	free(s);
	free(obj);
}

void
pv_store_obj_abort(struct pv_store *st, struct pv_store_obj *obj)
{
	(void)st;
	if (obj == NULL)
		return;
	unlink(obj->state->tmp.buf);
	obj_free(obj);
}

struct pv_store_obj *
pv_store_obj_begin(struct pv_store *st)
{
	struct pv_store_obj *obj = pv_xcalloc(1, sizeof(*obj));
	struct pv_store_objstate *s = pv_xcalloc(1, sizeof(*s));

	obj->state = s;
	pv_strbuf_init(&s->tmp, 0);
	path(st, &s->tmp, "tmp/obj-XXXXXX");
	s->fd = mkstemp(s->tmp.buf);
	if (s->fd < 0) {
		fail_errno(st, "cannot create a file in '%s/tmp'", st->dir);
		pv_strbuf_release(&s->tmp);
		free(s);
		free(obj);
		return NULL;
	}
	/* gzip format (windowBits 15 + 16), so that zcat reads objects */
	if (deflateInit2(&s->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16,
			 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		fail(st, "cannot start zlib compression");
		s->z.state = NULL;
		unlink(s->tmp.buf);
		close(s->fd);
		pv_strbuf_release(&s->tmp);
		free(s);
		free(obj);
		return NULL;
	}
	pv_sha256_init(&s->sha);
	obj->tmp = s->tmp.buf;
	return obj;
}

static int
write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
deflate_some(struct pv_store *st, struct pv_store_obj *obj, int flush)
{
	struct pv_store_objstate *s = obj->state;
	int zr;

	do {
		size_t have;

		s->z.next_out = s->out;
		s->z.avail_out = sizeof(s->out);
		zr = deflate(&s->z, flush);
		if (zr == Z_STREAM_ERROR)
			return fail(st, "zlib compression failed");
		have = sizeof(s->out) - s->z.avail_out;
		if (have > 0 && write_all(s->fd, s->out, have) < 0)
			return fail_errno(st, "cannot write '%s'",
					  s->tmp.buf);
		obj->csize += have;
	} while (s->z.avail_out == 0 || (flush == Z_FINISH &&
					 zr != Z_STREAM_END));
	return 0;
}

int
pv_store_obj_write(struct pv_store *st, struct pv_store_obj *obj,
		   const void *buf, size_t len)
{
	struct pv_store_objstate *s = obj->state;

	if (len != (uInt)len)
		return fail(st, "a write of %zu bytes is too large", len);
	pv_sha256_update(&s->sha, buf, len);
	obj->size += len;
	s->z.next_in = (unsigned char *)(uintptr_t)buf;
	s->z.avail_in = (uInt)len;
	return deflate_some(st, obj, Z_NO_FLUSH);
}

int
pv_store_obj_finish(struct pv_store *st, struct pv_store_obj *obj)
{
	struct pv_store_objstate *s = obj->state;
	unsigned char digest[PV_SHA256_LEN];

	s->z.next_in = NULL;
	s->z.avail_in = 0;
	if (deflate_some(st, obj, Z_FINISH) < 0)
		goto fail;
	if (fchmod(s->fd, 0444) < 0 || fsync(s->fd) < 0) {
		fail_errno(st, "cannot sync '%s'", s->tmp.buf);
		goto fail;
	}
	if (close(s->fd) < 0) {
		s->fd = -1;
		fail_errno(st, "cannot write '%s'", s->tmp.buf);
		goto fail;
	}
	s->fd = -1;
	pv_sha256_final(&s->sha, digest);
	pv_sha256_hex(digest, obj->hash);
	return 0;
fail:
	pv_store_obj_abort(st, obj);
	return -1;
}

int
pv_store_obj_commit(struct pv_store *st, struct pv_store_obj *obj)
{
	struct pv_strbuf dir = PV_STRBUF_INIT, dst = PV_STRBUF_INIT;
	int rc = -1, fresh = 0;

	pv_strbuf_addf(&dir, "%s/objects/%.2s", st->dir, obj->hash);
	if (mkdir(dir.buf, 0777) == 0) {
		fresh = 1;
	} else if (errno != EEXIST) {
		fail_errno(st, "cannot create '%s'", dir.buf);
		goto out;
	}
	pv_store_object_path(st, obj->hash, &dst);
	/* link, not rename: an object already there is never replaced */
	if (link(obj->state->tmp.buf, dst.buf) == 0) {
		rc = 1;
	} else if (errno == EEXIST) {
		rc = 0;
	} else {
		fail_errno(st, "cannot create '%s'", dst.buf);
		goto out;
	}
	if (sync_dir(st, dir.buf) < 0) {
		rc = -1;
		goto out;
	}
	if (fresh) {
		pv_strbuf_reset(&dir);
		pv_strbuf_addf(&dir, "%s/objects", st->dir);
		if (sync_dir(st, dir.buf) < 0)
			rc = -1;
	}
out:
	pv_store_obj_abort(st, obj);	/* removes the temporary name */
	pv_strbuf_release(&dir);
	pv_strbuf_release(&dst);
	return rc;
}

/* Reading objects */

int
pv_store_cat(struct pv_store *st, const char *hash, FILE *out,
	     uint64_t *size)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	struct pv_sha256 sha;
	unsigned char digest[PV_SHA256_LEN];
	char hex[PV_SHA256_HEXLEN + 1];
	char *buf = pv_xmalloc(BUFSIZE);
	uint64_t total = 0;
	gzFile gz;
	int fd, n, rc = -1, zerr;

	pv_store_object_path(st, hash, &p);
	fd = open(p.buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT) {
			fail(st, "object %s is missing", hash);
			rc = 2;
		} else {
			fail_errno(st, "cannot open '%s'", p.buf);
		}
		goto out;
	}
	gz = gzdopen(fd, "rb");
	if (gz == NULL) {
		close(fd);
		fail(st, "cannot read '%s': out of memory", p.buf);
		goto out;
	}
	pv_sha256_init(&sha);
	while ((n = gzread(gz, buf, BUFSIZE)) > 0) {
		pv_sha256_update(&sha, buf, (size_t)n);
		total += (uint64_t)n;
		if (out != NULL)
			fwrite(buf, 1, (size_t)n, out);
	}
	if (n < 0) {
		const char *msg = gzerror(gz, &zerr);

		if (zerr == Z_ERRNO)
			fail_errno(st, "cannot read '%s'", p.buf);
		else {
			/* zlib names the file "<fd:N>": leave that out */
			if (strncmp(msg, "<fd:", 4) == 0 &&
			    strstr(msg, ": ") != NULL)
				msg = strstr(msg, ": ") + 2;
			fail(st, "object %s is corrupt (%s)", hash, msg);
			rc = 1;
		}
		gzclose_r(gz);
		goto out;
	}
	if ((gzerror(gz, &zerr), zerr == Z_BUF_ERROR)) {
		fail(st, "object %s is corrupt (truncated)", hash);
		gzclose_r(gz);
		rc = 1;
		goto out;
	}
	gzclose_r(gz);
	pv_sha256_final(&sha, digest);
	pv_sha256_hex(digest, hex);
	if (strcmp(hex, hash) != 0) {
		fail(st, "object %s is corrupt (its bytes hash to %.12s)",
		     hash, hex);
		rc = 1;
		goto out;
	}
	if (size != NULL)
		*size = total;
	rc = 0;
out:
	free(buf);
	pv_strbuf_release(&p);
	return rc;
}

static int
want_section(const char *experiment, const struct pv_str *x)
{
	return experiment == NULL || pv_str_eq(*x, experiment);
}

int
pv_store_copy(struct pv_store *st, const char *hash, FILE *out,
	      const char *role, const char *version, const char *experiment)
{
	return pv_store_copy_runs(st, hash, out, role, version, experiment,
				  NULL);
}

/* A sample record with RUN moved on by base (the top of the runs before). */
static int
write_sample_after(struct pv_store *st, FILE *out, const struct pv_record *rec,
		   uint64_t *base, uint64_t *top)
{
	struct pv_str f[11];
	char num[24];

	if (rec->run > UINT64_MAX - 1 - *base)
		return fail(st, "run %llu cannot follow %llu earlier runs",
			    (unsigned long long)rec->run,
			    (unsigned long long)*base);
	if (rec->run > *top)
		*top = rec->run;
	memcpy(f, rec->field, sizeof(f));
	f[8].s = num;
	f[8].len = (size_t)snprintf(num, sizeof(num), "%llu",
				    (unsigned long long)rec->run +
				    (unsigned long long)*base);
	pv_write_fields(out, f, 11);
	return 0;
}

int
pv_store_copy_runs(struct pv_store *st, const char *hash, FILE *out,
		   const char *role, const char *version,
		   const char *experiment, uint64_t *run_base)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	struct pv_reader *r;
	struct pv_record rec;
	struct pv_str none = { "", 0 }, f[4];
	int rc, in_section = 0, keep = 0;
	uint64_t top = 0;

	pv_store_object_path(st, hash, &p);
	r = pv_reader_open(p.buf);
	if (r == NULL) {
		rc = fail_errno(st, "cannot open '%s'", p.buf);
		pv_strbuf_release(&p);
		return rc;
	}
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if (rec.type == PV_REC_VERSION)
			continue;	/* the caller writes one at the top */
		if (rec.type == PV_REC_SECTION) {
			in_section = 1;
			keep = want_section(experiment, &rec.experiment);
			if (!keep)
				continue;
			if (role == NULL) {
				pv_write_raw(out, &rec);
				continue;
			}
			memcpy(f, rec.field, sizeof(f));
			f[1].s = role;
			f[1].len = strlen(role);
			if (version != NULL) {
				f[2].s = version;
				f[2].len = strlen(version);
			}
			pv_write_fields(out, f, 4);
			continue;
		}
		if (!in_section) {
			/* the unnamed section before any section record */
			in_section = 1;
			keep = want_section(experiment, &none);
			if (keep && role != NULL)
				pv_write_section(out, role, version, NULL);
		}
		if (keep && run_base != NULL && rec.type == PV_REC_SAMPLE) {
			if (write_sample_after(st, out, &rec, run_base,
					       &top) < 0) {
				pv_reader_close(r);
				pv_strbuf_release(&p);
				return -1;
			}
		} else if (keep) {
			pv_write_raw(out, &rec);
		}
	}
	if (rc < 0)
		fail(st, "%lu: %s", pv_reader_lineno(r), pv_reader_error(r));
	pv_reader_close(r);
	pv_strbuf_release(&p);
	if (rc >= 0 && run_base != NULL)
		*run_base += top;
	return rc < 0 ? -1 : 0;
}

/* Scanning a stream */

void
pv_store_scan_release(struct pv_store_scan *sc)
{
	size_t i;

	for (i = 0; i < sc->nexperiment; i++)
		free(sc->experiment[i]);
	free(sc->experiment);
	memset(sc, 0, sizeof(*sc));
}

const char *
pv_store_kinds_name(unsigned kinds)
{
	switch (kinds & (PV_KIND_STACK | PV_KIND_SAMPLE)) {
	case PV_KIND_STACK: return "stack";
	case PV_KIND_SAMPLE: return "sample";
	case PV_KIND_STACK | PV_KIND_SAMPLE: return "stack,sample";
	default: return "-";
	}
}

int
pv_store_scan(const char *file, struct pv_store_scan *sc)
{
	struct pv_reader *r = pv_reader_open(file);
	struct pv_record rec;
	size_t i;
	int rc, in_section = 0;

	memset(sc, 0, sizeof(*sc));
	if (r == NULL) {
		snprintf(sc->err, sizeof(sc->err), "cannot open: %s",
			 strerror(errno));
		return -1;
	}
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if (rec.type == PV_REC_STACK)
			sc->kinds |= PV_KIND_STACK;
		else if (rec.type == PV_REC_SAMPLE)
			sc->kinds |= PV_KIND_SAMPLE;
		if (rec.type == PV_REC_VERSION)
			continue;
		if (rec.type != PV_REC_SECTION) {
			/* records before any section: the absent experiment */
			if (in_section)
				continue;
			rec.experiment.s = "";
			rec.experiment.len = 0;
		}
		in_section = 1;
		/* few experiments a stream: a linear search is enough */
		for (i = 0; i < sc->nexperiment; i++)
			if (pv_str_eq(rec.experiment, sc->experiment[i]))
				break;
		if (i < sc->nexperiment)
			continue;
		if (memchr(rec.experiment.s, '\0', rec.experiment.len)) {
			snprintf(sc->err, sizeof(sc->err), "an experiment "
				 "identity with a NUL byte");
			rc = -2;
			break;
		}
		PV_GROW(sc->experiment, sc->nexperiment + 1, sc->alloc);
		sc->experiment[sc->nexperiment++] =
		    pv_xmemdup(rec.experiment.s, rec.experiment.len);
	}
	sc->line = pv_reader_lineno(r);
	if (rc == -1)
		snprintf(sc->err, sizeof(sc->err), "%s", pv_reader_error(r));
	pv_reader_close(r);
	return rc < 0 ? -1 : 0;
}

/* Baselines */

struct commit_map {
	const char **commit;	/* sorted */
	const char **version;	/* the same order */
	size_t n;
	const char *self;
	const char *found;
};

static int
cmp_commit(const void *a, const void *b)
{
	const struct pv_store_entry *x = *(const struct pv_store_entry *const *)a;
	const struct pv_store_entry *y = *(const struct pv_store_entry *const *)b;

	int c = strcmp(x->commit, y->commit);

	/* one commit under two names: the order must not be left to qsort */
	return c != 0 ? c : strcmp(x->version, y->version);
}

static int
find_commit(const char *id, void *arg)
{
	struct commit_map *m = arg;
	size_t lo = 0, hi = m->n;

	if (strcmp(id, m->self) == 0)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(id, m->commit[mid]);

		if (c == 0) {
			m->found = m->version[mid];
			return 1;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

/* The nearest stored ancestor of commit id: 0, 1 when none, -1. */
static int
commit_baseline(struct pv_store *st, const char *id, const char **found)
{
	const struct pv_store_entry **v;
	struct commit_map m;
	size_t i, n = 0;
	int rc;

	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	v = pv_xreallocarray(NULL, st->nentry + 1, sizeof(*v));
	for (i = 0; i < st->nentry; i++)
		if (st->entry[i].live && st->entry[i].commit != NULL)
			v[n++] = &st->entry[i];
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	qsort(v, n, sizeof(*v), cmp_commit);
	memset(&m, 0, sizeof(m));
	m.commit = pv_xreallocarray(NULL, n + 1, sizeof(*m.commit));
	m.version = pv_xreallocarray(NULL, n + 1, sizeof(*m.version));
	for (i = 0; i < n; i++) {
		m.commit[i] = v[i]->commit;
		m.version[i] = v[i]->version;
	}
	m.n = n;
	m.self = id;
	rc = pv_git_ancestors(id, find_commit, &m);
	free(v);
	free(m.commit);
	free(m.version);
	if (rc < 0)
		return fail(st, "git rev-list failed for '%s'", id);
	*found = m.found;
	return m.found != NULL ? 0 : 1;
}

int
pv_store_baseline(struct pv_store *st, const char *name, const char **found)
{
	struct pv_strbuf c = PV_STRBUF_INIT;
	const char **names;
	struct pv_kver kv;
	size_t i, n = 0;
	long k;
	int rc;

	*found = NULL;
	if (pv_kver_parse(name, &kv) == 0) {
		names = pv_xreallocarray(NULL, st->nentry + 1,
					 sizeof(*names));
		for (i = 0; i < st->nentry; i++)
			if (st->entry[i].live)
				names[n++] = st->entry[i].version;
		k = pv_kver_baseline(name, names, n);
		*found = k >= 0 ? names[k] : NULL;
		free(names);
		return *found != NULL ? 0 : 1;
	}
	if (pv_git_commit(name, &c) < 0) {
		pv_strbuf_release(&c);
		return 2;
	}
	rc = commit_baseline(st, c.buf, found);
	pv_strbuf_release(&c);
	return rc;
}


/* Listing and garbage collection */

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
pv_store_objects(struct pv_store *st, char ***names, size_t *n,
		 size_t *stray)
{
	struct pv_strbuf p = PV_STRBUF_INIT, name = PV_STRBUF_INIT;
	DIR *top, *sub;
	struct dirent *de, *fe;
	size_t alloc = 0;
	int rc = -1;

	*names = NULL;
	*n = 0;
	*stray = 0;
	path(st, &p, "objects");
	if ((top = opendir(p.buf)) == NULL) {
		fail_errno(st, "cannot open '%s'", p.buf);
		goto out;
	}
	while ((de = readdir(top)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		path(st, &p, "objects/");
		pv_strbuf_addstr(&p, de->d_name);
		if ((sub = opendir(p.buf)) == NULL) {
			if (errno == ENOTDIR) {
				(*stray)++;
				continue;
			}
			fail_errno(st, "cannot open '%s'", p.buf);
			closedir(top);
			goto out;
		}
		while ((fe = readdir(sub)) != NULL) {
			if (strcmp(fe->d_name, ".") == 0 ||
			    strcmp(fe->d_name, "..") == 0)
				continue;
			pv_strbuf_reset(&name);
			pv_strbuf_addf(&name, "%s%s", de->d_name, fe->d_name);
			if (!is_hash(name.buf, name.len)) {
				(*stray)++;
				continue;
			}
			PV_GROW(*names, *n + 1, alloc);
			(*names)[(*n)++] = pv_xstrdup(name.buf);
		}
		closedir(sub);
	}
	closedir(top);
	if (*n > 1)
		qsort(*names, *n, sizeof(**names), cmp_name);
	rc = 0;
out:
	pv_strbuf_release(&p);
	pv_strbuf_release(&name);
	return rc;
}

/* Remove the files in DIR/tmp: only while no writer can be running. */
static int
clean_tmp(struct pv_store *st)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	DIR *d;
	struct dirent *de;
	int rc = 0;

	path(st, &p, "tmp");
	if ((d = opendir(p.buf)) == NULL) {
		rc = fail_errno(st, "cannot open '%s'", p.buf);
		goto out;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		path(st, &p, "tmp/");
		pv_strbuf_addstr(&p, de->d_name);
		if (unlink(p.buf) < 0 && errno != ENOENT) {
			rc = fail_errno(st, "cannot remove '%s'", p.buf);
			break;
		}
	}
	closedir(d);
out:
	pv_strbuf_release(&p);
	return rc;
}

static int
rewrite_index(struct pv_store *st)
{
	struct pv_strbuf tmp = PV_STRBUF_INIT, dst = PV_STRBUF_INIT;
	struct pv_strbuf text = PV_STRBUF_INIT;
	size_t i;
	int fd, rc = -1;

	pv_strbuf_addstr(&text, PV_FORMAT_NAME "\t1\n");
	for (i = 0; i < st->nentry; i++)
		if (st->entry[i].live)
			pv_store_format_add(&text, &st->entry[i]);
	path(st, &tmp, "tmp/index-XXXXXX");
	path(st, &dst, "index");
	if ((fd = mkstemp(tmp.buf)) < 0) {
		fail_errno(st, "cannot create a file in '%s/tmp'", st->dir);
		goto out;
	}
	if (write_all(fd, text.buf, text.len) < 0 || fchmod(fd, 0644) < 0 ||
	    fsync(fd) < 0) {
		fail_errno(st, "cannot write '%s'", tmp.buf);
		close(fd);
		unlink(tmp.buf);
		goto out;
	}
	close(fd);
	if (rename(tmp.buf, dst.buf) < 0) {
		fail_errno(st, "cannot replace '%s'", dst.buf);
		unlink(tmp.buf);
		goto out;
	}
	rc = sync_dir(st, st->dir);
out:
	pv_strbuf_release(&tmp);
	pv_strbuf_release(&dst);
	pv_strbuf_release(&text);
	return rc;
}

static int
cmp_hash(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
pv_store_gc(struct pv_store *st, size_t *nobj, uint64_t *bytes)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	const char **live = NULL;
	char **names = NULL;
	size_t nlive = 0, n = 0, stray, i;
	struct stat sb;
	int rc = -1;

	*nobj = 0;
	*bytes = 0;
	if (pv_store_lock(st, 1) < 0 || pv_store_load(st) < 0 ||
	    rewrite_index(st) < 0 || clean_tmp(st) < 0 ||
	    pv_store_objects(st, &names, &n, &stray) < 0)
		goto out;
	live = pv_xreallocarray(NULL, st->nentry + 1, sizeof(*live));
	for (i = 0; i < st->nentry; i++)
		if (st->entry[i].live)
			live[nlive++] = st->entry[i].hash;
	qsort(live, nlive, sizeof(*live), cmp_hash);
	for (i = 0; i < n; i++) {
		const char *key = names[i];

		if (bsearch(&key, live, nlive, sizeof(*live), cmp_hash))
			continue;
		pv_store_object_path(st, names[i], &p);
		if (stat(p.buf, &sb) == 0)
			*bytes += (uint64_t)sb.st_size;
		if (unlink(p.buf) < 0 && errno != ENOENT) {
			fail_errno(st, "cannot remove '%s'", p.buf);
			goto out;
		}
		(*nobj)++;
		/* an emptied fan-out directory goes too; errors are fine */
		pv_strbuf_setlen(&p, p.len - (PV_SHA256_HEXLEN - 2) - 1);
		rmdir(p.buf);
	}
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(live);
	pv_strbuf_release(&p);
	return rc;
}
