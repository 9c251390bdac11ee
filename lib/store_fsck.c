/*
 * store_fsck: the damage of a store's index found line by line, and the
 * index repaired (see store.h).  The tolerant reading is the index loader
 * itself (store_index.c) told to go past a damaged line; the repair copies
 * the index as it is, less the lines found damaged, so that nothing a
 * good line says is lost: not the withdrawn entries, not the lines of a
 * later pv-store this one does not know.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec_index.h"
#include "store.h"
#include "store_private.h"
#include "xalloc.h"

long
pv_store_index_check(struct pv_store *st,
		     void (*bad)(void *arg, unsigned long line,
				 const char *msg),
		     void *arg)
{
	if (pv_store_index_read(st, bad, arg) < 0)
		return -1;
	return (long)st->ndamaged;
}

/* Whether line lineno is one of the damaged (st->damaged ascends). */
static int
is_damaged(const struct pv_store *st, unsigned long lineno, size_t *next)
{
	while (*next < st->ndamaged && st->damaged[*next] < lineno)
		(*next)++;
	return *next < st->ndamaged && st->damaged[*next] == lineno;
}

long
pv_store_index_repair(struct pv_store *st)
{
	struct pv_strbuf buf = PV_STRBUF_INIT, text = PV_STRBUF_INIT;
	struct pv_rec_index head = PV_REC_INDEX_INIT;
	unsigned long lineno = 0;
	char *line, *nl, *end;
	size_t next = 0;
	long dropped = 0;
	ssize_t n;
	int fd, rc = -1;

	if ((fd = pv_store_openat(st, "index", O_RDONLY, 0)) < 0)
		return -1;
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
			goto out;
		}
		if (n == 0)
			break;
		pv_strbuf_setlen(&buf, buf.len + (size_t)n);
		line = buf.buf;
		end = buf.buf + buf.len;
		while ((nl = memchr(line, '\n', (size_t)(end - line))) != NULL) {
			if (is_damaged(st, ++lineno, &next))
				dropped++;
			else
				pv_strbuf_add(&text, line,
					      (size_t)(nl - line) + 1);
			/* a damaged head is written anew */
			if (lineno == 1 && text.len == 0) {
				head.type = PV_REC_INDEX_HEAD;
				pv_rec_index_write(&text, &head);
			}
			line = nl + 1;
		}
		memmove(buf.buf, line, (size_t)(end - line));
		pv_strbuf_setlen(&buf, (size_t)(end - line));
	}
	if (text.len == 0) {
		/* no line at all: an index of no entry */
		head.type = PV_REC_INDEX_HEAD;
		pv_rec_index_write(&text, &head);
	}
	/* a cut last line (buf) is a write that never returned: it goes */
	if (pv_store_index_replace(st, &text) < 0)
		goto out;
	rc = 0;
out:
	close(fd);
	pv_strbuf_release(&buf);
	pv_strbuf_release(&text);
	return rc < 0 ? -1 : dropped;
}

static int
is_link(int fd, const char *name)
{
	struct stat sb;

	return fstatat(fd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		S_ISLNK(sb.st_mode);
}

/* Remove the link name in fd, never what it names; -1 with st->err. */
static int
unlink_link(struct pv_store *st, int fd, const char *rel, const char *name)
{
	if (unlinkat(fd, name, 0) < 0 && errno != ENOENT)
		return pv_err_set_errno(&st->err, errno, "cannot remove "
					"'%s/%s'", st->dir, rel);
	return 0;
}

/* The links in directory rel (objects/, a fan-out directory), and below. */
static long
links_in(struct pv_store *st, const char *rel, int depth, int repair,
	 void (*bad)(void *, const char *, int), void *arg)
{
	struct pv_strbuf sub = PV_STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	long found = 0, k;
	int fd;

	if ((fd = pv_store_openat(st, rel, PV_STORE_DIR, 0)) < 0)
		return st->err.errnum == ENOENT || st->err.errnum == ELOOP ?
			0 : -1;
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return pv_err_set_errno(&st->err, errno, "cannot read "
					"'%s/%s'", st->dir, rel);
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		pv_strbuf_reset(&sub);
		pv_strbuf_addf(&sub, "%s/%s", rel, de->d_name);
		if (is_link(fd, de->d_name)) {
			found++;
			if (repair && unlink_link(st, fd, sub.buf,
						  de->d_name) < 0) {
				found = -1;
				break;
			}
			bad(arg, sub.buf, repair);
		} else if (depth > 0) {
			k = links_in(st, sub.buf, depth - 1, repair, bad, arg);
			if (k < 0 && st->err.errnum != ENOTDIR) {
				found = -1;
				break;
			}
			found += k > 0 ? k : 0;
		}
	}
	closedir(d);
	pv_strbuf_release(&sub);
	return found;
}

long
pv_store_check_links(struct pv_store *st, int repair,
		     void (*bad)(void *arg, const char *rel, int repaired),
		     void *arg)
{
	static const char *const top[] = {
		"format", "index", "lock", "objects", "tmp"
	};
	long found = 0, k;
	size_t i;
	int fd;

	for (i = 0; i < sizeof(top) / sizeof(top[0]); i++) {
		/* tmp and lock hold nothing that a new one would lack */
		int mend = repair && (strcmp(top[i], "tmp") == 0 ||
				      strcmp(top[i], "lock") == 0);

		if (!is_link(st->dirfd, top[i]))
			continue;
		found++;
		if (mend) {
			if (unlink_link(st, st->dirfd, top[i], top[i]) < 0)
				return -1;
			if (strcmp(top[i], "tmp") == 0) {
				if (mkdirat(st->dirfd, "tmp", 0777) < 0 &&
				    errno != EEXIST)
					return pv_err_set_errno(&st->err,
						errno, "cannot create "
						"'%s/tmp'", st->dir);
			} else {
				fd = pv_store_openat(st, "lock", O_RDWR |
						     O_CREAT, 0644);
				if (fd < 0)
					return -1;
				close(fd);
			}
		}
		bad(arg, top[i], mend);
	}
	if ((k = links_in(st, "objects", 1, repair, bad, arg)) < 0)
		return -1;
	return found + k;
}
