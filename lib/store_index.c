/*
 * store_index: the store's index (see store.h for its rules).  It is read
 * a block at a time into an array of entries (it is small: two lines an
 * entry, and log reads nothing else), with an hmap from (version, hash) to
 * entry for rm lines and duplicates; it is appended to under flock(2) and
 * replaced whole only by gc and fsck --repair.  Its lines are written and
 * parsed by their codec (rec_index.h).  Read tolerantly (for fsck), a
 * damaged line is reported and skipped instead of ending the read.
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
#include "hmap.h"
#include "rec_index.h"
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

/* An entry's key: (version, hash). */
struct key {
	const char *version, *hash;
};

static int
entry_eq(const void *ctx, uint32_t id, const void *k)
{
	const struct pv_store *st = ctx;
	const struct pv_store_entry *e = &st->entry[id];
	const struct key *key = k;

	/* versions differ early; hashes of one stream do not */
	return strcmp(e->version, key->version) == 0 &&
		strcmp(e->hash, key->hash) == 0;
}

/* The id of the last entry of (version, hash), live or not, or NONE. */
static uint32_t
find_entry(const struct pv_store *st, const char *version, const char *hash,
	   size_t *pos)
{
	struct key k = { version, hash };

	return pv_hmap_find(&st->map, key_hash(version, hash), entry_eq, st,
			    &k, pos);
}

const struct pv_store_entry *
pv_store_index_find(const struct pv_store *st, const char *version,
		    const char *hash)
{
	uint32_t id = find_entry(st, version, hash, NULL);

	if (id == PV_HMAP_NONE || !st->entry[id].live)
		return NULL;
	return &st->entry[id];
}

/* A parsed string in the arena, NULL when absent. */
static const char *
keep(struct pv_store *st, struct pv_str s)
{
	return s.s != NULL ? pv_arena_memdup(&st->arena, s.s, s.len) : NULL;
}

/*
 * The tests line last read, waiting for the add line of its version and
 * hash, which comes next (one write made both).
 */
struct pending {
	const char *version;
	char hash[PV_SHA256_HEXLEN + 1];
	struct pv_store_test *test;	/* in the arena */
	size_t ntest;
	int have;
};

static void
take_tests(struct pv_store *st, const struct pv_rec_index *ix,
	   struct pending *pd)
{
	size_t i;

	pd->version = keep(st, ix->version);
	memcpy(pd->hash, ix->hash.s, PV_SHA256_HEXLEN);
	pd->hash[PV_SHA256_HEXLEN] = '\0';
	pd->ntest = ix->ntest;
	pd->test = pv_arena_alloc(&st->arena, (ix->ntest + 1) *
				  sizeof(*pd->test));
	for (i = 0; i < ix->ntest; i++) {
		pd->test[i].experiment = keep(st, ix->test[i].experiment);
		pd->test[i].suite = keep(st, ix->test[i].suite);
		pd->test[i].test = keep(st, ix->test[i].test);
		pd->test[i].runs = ix->test[i].runs;
	}
	pd->have = 1;
}

/* Take the add line ix (line lineno) into the entries. */
static void
take_add(struct pv_store *st, const struct pv_rec_index *ix,
	 unsigned long lineno, const struct pending *pd)
{
	struct pv_store_entry e;
	uint32_t id;
	size_t i, pos;

	memset(&e, 0, sizeof(e));
	e.version = keep(st, ix->version);
	memcpy(e.hash, ix->hash.s, PV_SHA256_HEXLEN);
	e.size = ix->size;
	e.csize = ix->csize;
	e.time = ix->time;
	e.kinds = keep(st, ix->kinds);
	e.commit = keep(st, ix->commit);
	e.branch = keep(st, ix->branch);
	e.name = keep(st, ix->name);
	e.nexperiment = ix->nexperiment;
	e.experiment = pv_arena_alloc(&st->arena, (ix->nexperiment + 1) *
				      sizeof(*e.experiment));
	for (i = 0; i < ix->nexperiment; i++)
		e.experiment[i] = ix->experiment[i].len > 0 ?
			keep(st, ix->experiment[i]) : "";
	if (pd->have && strcmp(pd->version, e.version) == 0 &&
	    strcmp(pd->hash, e.hash) == 0) {
		e.test = pd->test;
		e.ntest = pd->ntest;
		e.has_tests = 1;
	}
	e.line = lineno;
	e.live = 1;
	id = find_entry(st, e.version, e.hash, &pos);
	if (id != PV_HMAP_NONE && st->entry[id].live)
		return;	/* added again: the first add stands */
	PV_GROW(st->entry, st->nentry + 1, st->entry_alloc);
	st->entry[st->nentry] = e;
	/* an entry withdrawn before: the table names the new one now */
	if (id != PV_HMAP_NONE)
		pv_hmap_set_at(&st->map, pos, (uint32_t)st->nentry);
	else
		pv_hmap_add_at(&st->map, pos, key_hash(e.version, e.hash),
			       (uint32_t)st->nentry);
	st->nentry++;
}

/* Take the rm line ix: its entry, if any, is withdrawn. */
static void
take_rm(struct pv_store *st, const struct pv_rec_index *ix,
	struct pv_strbuf *tmp)
{
	char hash[PV_SHA256_HEXLEN + 1];
	uint32_t id;

	memcpy(hash, ix->hash.s, PV_SHA256_HEXLEN);
	hash[PV_SHA256_HEXLEN] = '\0';
	/* a C string, as the entries' versions are */
	pv_strbuf_reset(tmp);
	pv_strbuf_add(tmp, ix->version.s, ix->version.len);
	id = find_entry(st, tmp->buf, hash, NULL);
	if (id != PV_HMAP_NONE)
		st->entry[id].live = 0;
}

static void
clear_entries(struct pv_store *st)
{
	pv_arena_release(&st->arena);
	free(st->entry);
	pv_hmap_release(&st->map);
	st->entry = NULL;
	st->nentry = st->entry_alloc = 0;
	st->torn = 0;
	st->ndamaged = 0;
}

/* The reading of the index: its codec's state and what is pending. */
struct loader {
	struct pv_rec_index ix;
	struct pv_strbuf tmp;
	struct pending pd;
	/* tolerant reading (fsck): damaged lines go to bad(), not fail */
	void (*bad)(void *arg, unsigned long line, const char *msg);
	void *arg;
};

/* One complete line (without its newline) of the index. */
static int
take_line(struct pv_store *st, struct loader *ld, const char *line,
	  size_t len, unsigned long lineno)
{
	struct pv_rec_index *ix = &ld->ix;

	if (lineno == 1 && !pv_rec_index_is_head(line, len))
		return bad_line(st, 1, "not a pv store index");
	if (memchr(line, '\0', len) != NULL)
		return bad_line(st, lineno, "a NUL byte");
	if (pv_rec_index_parse(line, len, ix, &st->err) < 0) {
		st->err_line = lineno;
		return -1;
	}
	switch (ix->type) {
	case PV_REC_INDEX_TESTS:
		take_tests(st, ix, &ld->pd);
		return 0;
	case PV_REC_INDEX_ADD:
		take_add(st, ix, lineno, &ld->pd);
		break;
	case PV_REC_INDEX_RM:
		take_rm(st, ix, &ld->tmp);
		break;
	default:
		return 0;
	}
	ld->pd.have = 0;
	return 0;
}

/* A damaged line in tolerant reading: noted, reported, skipped. */
static void
note_damage(struct pv_store *st, struct loader *ld)
{
	PV_GROW(st->damaged, st->ndamaged + 1, st->damaged_alloc);
	st->damaged[st->ndamaged++] = st->err_line;
	ld->bad(ld->arg, st->err_line, pv_err_msg(&st->err));
	pv_err_clear(&st->err);
	st->err_line = 0;
	ld->pd.have = 0;
}

int
pv_store_index_read(struct pv_store *st,
		    void (*bad)(void *arg, unsigned long line,
				const char *msg),
		    void *arg)
{
	struct pv_strbuf buf = PV_STRBUF_INIT;
	struct loader ld;
	char *line, *nl, *end;
	unsigned long lineno = 0;
	ssize_t n;
	int fd, rc = -1;

	memset(&ld, 0, sizeof(ld));
	pv_rec_index_init(&ld.ix);
	pv_strbuf_init(&ld.tmp, 0);
	ld.bad = bad;
	ld.arg = arg;
	clear_entries(st);
	st->err_line = 0;
	if ((fd = pv_store_openat(st, "index", O_RDONLY, 0)) < 0)
		goto out;
	/* a block at a time; an unfinished line waits for the next block */
	pv_strbuf_grow(&buf, PV_STORE_BUFSIZE);
	for (;;) {
		if (buf.alloc - buf.len - 1 < PV_STORE_BUFSIZE / 2)
			pv_strbuf_grow(&buf, PV_STORE_BUFSIZE);
		n = read(fd, buf.buf + buf.len, buf.alloc - buf.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			pv_err_set_errno(&st->err, errno, "cannot read "
					 "'%s/index'", st->dir);
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
			if (take_line(st, &ld, line, (size_t)(nl - line),
				      ++lineno) < 0) {
				if (bad == NULL) {
					close(fd);
					goto out;
				}
				note_damage(st, &ld);
			}
			line = nl + 1;
		}
		memmove(buf.buf, line, (size_t)(end - line));
		pv_strbuf_setlen(&buf, (size_t)(end - line));
	}
	close(fd);
	if (lineno == 0) {
		bad_line(st, 1, "not a pv store index");
		if (bad == NULL)
			goto out;
		note_damage(st, &ld);
	}
	st->torn = buf.len > 0 ? lineno + 1 : 0;
	rc = 0;
out:
	pv_strbuf_release(&buf);
	pv_strbuf_release(&ld.tmp);
	pv_rec_index_release(&ld.ix);
	return rc;
}

int
pv_store_index_load(struct pv_store *st)
{
	return pv_store_index_read(st, NULL, NULL);
}

static struct pv_str
cstr(const char *s)
{
	struct pv_str v = { s, s != NULL ? strlen(s) : 0 };

	return v;
}

/* An entry's tests line, through the codec. */
static void
format_tests(struct pv_strbuf *sb, const struct pv_store_entry *e)
{
	struct pv_rec_index ix = PV_REC_INDEX_INIT;
	struct pv_rec_index_test *t;
	size_t i;

	t = pv_xreallocarray(NULL, e->ntest + 1, sizeof(*t));
	for (i = 0; i < e->ntest; i++) {
		t[i].experiment = cstr(e->test[i].experiment);
		t[i].suite = cstr(e->test[i].suite);
		t[i].test = cstr(e->test[i].test);
		t[i].runs = e->test[i].runs;
	}
	ix.type = PV_REC_INDEX_TESTS;
	ix.version = cstr(e->version);
	ix.hash = cstr(e->hash);
	ix.test = t;
	ix.ntest = e->ntest;
	pv_rec_index_write(sb, &ix);
	free(t);
}

/* An entry's lines (tests, then add), through the codec. */
void
pv_store_index_format_add(struct pv_strbuf *sb,
			  const struct pv_store_entry *e)
{
	struct pv_rec_index ix = PV_REC_INDEX_INIT;
	struct pv_str *x;
	size_t i;

	if (e->has_tests)
		format_tests(sb, e);
	x = pv_xreallocarray(NULL, e->nexperiment + 1, sizeof(*x));
	for (i = 0; i < e->nexperiment; i++)
		x[i] = cstr(e->experiment[i]);
	ix.type = PV_REC_INDEX_ADD;
	ix.version = cstr(e->version);
	ix.hash = cstr(e->hash);
	ix.size = e->size;
	ix.csize = e->csize;
	ix.time = e->time;
	ix.kinds = cstr(e->kinds);
	ix.commit = cstr(e->commit);
	ix.branch = cstr(e->branch);
	ix.name = cstr(e->name);
	ix.experiment = x;
	ix.nexperiment = e->nexperiment;
	pv_rec_index_write(sb, &ix);
	free(x);
}

void
pv_store_index_format_rm(struct pv_strbuf *sb, const char *version,
			 const char *hash, int64_t time)
{
	struct pv_rec_index ix = PV_REC_INDEX_INIT;

	ix.type = PV_REC_INDEX_RM;
	ix.version.s = version;
	ix.version.len = strlen(version);
	ix.hash.s = hash;
	ix.hash.len = strlen(hash);
	ix.time = time;
	pv_rec_index_write(sb, &ix);
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
	ssize_t n;
	int fd, rc = -1;

	if ((fd = pv_store_openat(st, "index", O_RDWR | O_APPEND, 0)) < 0)
		return -1;
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			pv_err_set_errno(&st->err, errno, "cannot lock "
					 "'%s/index'", st->dir);
			goto out;
		}
	}
	if (repair_tail(st, fd) < 0)
		goto out;
	do
		n = write(fd, lines->buf, lines->len);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)lines->len) {
		pv_err_set_errno(&st->err, n >= 0 ? ENOSPC : errno,
				 "cannot write '%s/index'", st->dir);
		/* leave no partial line for readers to stumble on */
		repair_tail(st, fd);
		goto out;
	}
	if (fsync(fd) < 0) {
		pv_err_set_errno(&st->err, errno, "cannot sync '%s/index'",
				 st->dir);
		goto out;
	}
	rc = 0;
out:
	close(fd);	/* drops the flock */
	return rc;
}

int
pv_store_index_replace(struct pv_store *st, const struct pv_strbuf *text)
{
	struct pv_strbuf tmp = PV_STRBUF_INIT;
	int tmpfd, fd, rc = -1;

	if ((tmpfd = pv_store_openat(st, "tmp", PV_STORE_DIR, 0)) < 0)
		return -1;
	if ((fd = pv_store_tmpfile(st, tmpfd, "index", &tmp)) < 0)
		goto out;
	if (pv_store_write_all(fd, text->buf, text->len) < 0 ||
	    fchmod(fd, 0644) < 0 || fsync(fd) < 0) {
		pv_err_set_errno(&st->err, errno, "cannot write '%s/tmp/%s'",
				 st->dir, tmp.buf);
		close(fd);
		unlinkat(tmpfd, tmp.buf, 0);
		goto out;
	}
	close(fd);
	/* rename replaces a name, never what a link there points to */
	if (renameat(tmpfd, tmp.buf, st->dirfd, "index") < 0) {
		pv_err_set_errno(&st->err, errno, "cannot replace "
				 "'%s/index'", st->dir);
		unlinkat(tmpfd, tmp.buf, 0);
		goto out;
	}
	rc = pv_store_sync_fd(st, st->dirfd, ".");
out:
	close(tmpfd);
	pv_strbuf_release(&tmp);
	return rc;
}

int
pv_store_index_rewrite(struct pv_store *st)
{
	struct pv_strbuf text = PV_STRBUF_INIT;
	struct pv_rec_index head = PV_REC_INDEX_INIT;
	size_t i;
	int rc;

	head.type = PV_REC_INDEX_HEAD;
	pv_rec_index_write(&text, &head);
	for (i = 0; i < st->nentry; i++)
		if (st->entry[i].live)
			pv_store_index_format_add(&text, &st->entry[i]);
	rc = pv_store_index_replace(st, &text);
	pv_strbuf_release(&text);
	return rc;
}
