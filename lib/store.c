/*
 * store: the version store's handle and its directory (see store.h for the
 * layout, the index format and the durability rules): making a store,
 * opening one, its lock, and the helpers of durable writing that the other
 * store files share (store_private.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec_index.h"
#include "store.h"
#include "store_private.h"
#include "xalloc.h"

void
pv_store_path(const struct pv_store *st, struct pv_strbuf *sb,
	      const char *rel)
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

void
pv_store_release(struct pv_store *st)
{
	pv_arena_release(&st->arena);
	free(st->entry);
	free(st->slot);
	if (st->lockfd >= 0)
		close(st->lockfd);	/* drops the flock */
	free(st->dir);
	pv_store_init(st);
}

int
pv_store_sync_dir(struct pv_store *st, const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		return pv_err_set_errno(&st->err, errno, "cannot open '%s'",
					dir);
	if (fsync(fd) < 0 && errno != EINVAL) {
		pv_err_set_errno(&st->err, errno, "cannot sync '%s'", dir);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int
pv_store_write_all(int fd, const void *buf, size_t len)
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
make_dir(struct pv_store *st, const char *dir)
{
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return pv_err_set_errno(&st->err, errno, "cannot create '%s'",
					dir);
	return 0;
}

/*
 * Create file rel with contents unless it exists: written to a temporary
 * file, synced and linked, so that it appears whole or not at all.
 */
static int
create_file(struct pv_store *st, const char *rel,
	    const struct pv_strbuf *contents)
{
	struct pv_strbuf tmp = PV_STRBUF_INIT, dst = PV_STRBUF_INIT;
	int fd, rc = -1;

	pv_store_path(st, &dst, rel);
	pv_store_path(st, &tmp, "tmp/new-XXXXXX");
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		pv_err_set_errno(&st->err, errno, "cannot create a file in "
				 "'%s/tmp'", st->dir);
		goto out;
	}
	if (write(fd, contents->buf, contents->len) !=
	    (ssize_t)contents->len || fsync(fd) < 0 || fchmod(fd, 0644) < 0) {
		pv_err_set_errno(&st->err, errno, "cannot write '%s'",
				 tmp.buf);
		close(fd);
		unlink(tmp.buf);
		goto out;
	}
	close(fd);
	if (link(tmp.buf, dst.buf) < 0 && errno != EEXIST) {
		pv_err_set_errno(&st->err, errno, "cannot create '%s'",
				 dst.buf);
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

	pv_store_path(st, &p, "format");
	fd = open(p.buf, O_RDONLY);
	pv_strbuf_release(&p);
	if (fd < 0) {
		if (errno == ENOENT)
			return pv_err_set(&st->err, "'%s' is not a pv store "
					  "(no format file; make one with "
					  "'pv-store init')", st->dir);
		return pv_err_set_errno(&st->err, errno, "cannot open "
					"'%s/format'", st->dir);
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		pv_err_set_errno(&st->err, errno, "cannot read '%s/format'",
				 st->dir);
		close(fd);
		return -1;
	}
	close(fd);
	buf[n] = '\0';
	if (strcmp(buf, PV_STORE_FORMAT "\n") != 0)
		return pv_err_set(&st->err, "'%s' has a store format this "
				  "version does not know ('%.*s')", st->dir,
				  (int)strcspn(buf, "\n"), buf);
	return 0;
}

/* Whether dir holds nothing but what a store's making leaves there. */
static int
only_store_files(struct pv_store *st, const char *dir)
{
	static const char *const ok[] = {
		".", "..", "objects", "tmp", "index", "lock"
	};
	DIR *d;
	struct dirent *de;
	size_t i;

	if ((d = opendir(dir)) == NULL)
		return pv_err_set_errno(&st->err, errno, "cannot open '%s'",
					dir);
	while ((de = readdir(d)) != NULL) {
		for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
			if (strcmp(de->d_name, ok[i]) == 0)
				break;
		if (i == sizeof(ok) / sizeof(ok[0])) {
			closedir(d);
			return pv_err_set(&st->err, "'%s' exists and is not "
					  "a pv store", dir);
		}
	}
	closedir(d);
	return 0;
}

int
pv_store_create(struct pv_store *st, const char *dir)
{
	struct pv_strbuf p = PV_STRBUF_INIT, head = PV_STRBUF_INIT;
	struct pv_rec_index ix = PV_REC_INDEX_INIT;
	static const char *const sub[] = { "objects", "tmp" };
	size_t i;
	int rc = -1, fd;

	free(st->dir);
	st->dir = pv_xstrdup(dir);
	if (make_dir(st, dir) < 0)
		return -1;
	pv_store_path(st, &p, "format");
	if (access(p.buf, F_OK) == 0) {
		pv_strbuf_release(&p);
		return check_format(st);
	}
	/* refuse to scatter files into a directory used for something else */
	if (only_store_files(st, dir) < 0)
		goto out;
	for (i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		pv_store_path(st, &p, sub[i]);
		if (make_dir(st, p.buf) < 0)
			goto out;
	}
	pv_store_path(st, &p, "lock");
	fd = open(p.buf, O_RDWR | O_CREAT, 0644);
	if (fd < 0) {
		pv_err_set_errno(&st->err, errno, "cannot create '%s'", p.buf);
		goto out;
	}
	close(fd);
	/* the index before the format file: the format file says "done" */
	ix.type = PV_REC_INDEX_HEAD;
	pv_rec_index_write(&head, &ix);
	if (create_file(st, "index", &head) < 0)
		goto out;
	pv_strbuf_reset(&head);
	pv_strbuf_addstr(&head, PV_STORE_FORMAT "\n");
	if (create_file(st, "format", &head) < 0 ||
	    pv_store_sync_dir(st, dir) < 0)
		goto out;
	rc = 0;
out:
	pv_strbuf_release(&p);
	pv_strbuf_release(&head);
	return rc;
}

int
pv_store_open(struct pv_store *st, const char *dir)
{
	struct stat sb;

	free(st->dir);
	st->dir = pv_xstrdup(dir);
	if (stat(dir, &sb) < 0)
		return pv_err_set_errno(&st->err, errno, "cannot open store "
					"'%s'", dir);
	if (!S_ISDIR(sb.st_mode))
		return pv_err_set(&st->err, "'%s' is not a pv store (not a "
				  "directory)", dir);
	return check_format(st);
}

int
pv_store_lock(struct pv_store *st, int exclusive)
{
	struct pv_strbuf p = PV_STRBUF_INIT;

	if (st->lockfd < 0) {
		pv_store_path(st, &p, "lock");
		st->lockfd = open(p.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		/* flock needs no write access: a read-only store will do */
		if (st->lockfd < 0 && (errno == EACCES || errno == EROFS))
			st->lockfd = open(p.buf, O_RDONLY | O_CLOEXEC);
		pv_strbuf_release(&p);
		if (st->lockfd < 0)
			return pv_err_set_errno(&st->err, errno, "cannot open "
						"'%s/lock'", st->dir);
	}
	while (flock(st->lockfd, exclusive ? LOCK_EX : LOCK_SH) < 0)
		if (errno != EINTR)
			return pv_err_set_errno(&st->err, errno, "cannot lock "
						"'%s/lock'", st->dir);
	return 0;
}
