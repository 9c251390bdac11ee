/*
 * store: the version store's handle and its directory (see store.h for the
 * layout, the index format and the durability rules): making a store,
 * opening one, its lock, and what the other store files share
 * (store_private.h): the walk of paths that follows no link, temporary
 * files, durable writes.
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
	pv_hmap_release(&st->map);
	free(st->damaged);
	if (st->lockfd >= 0)
		close(st->lockfd);	/* drops the flock */
	if (st->dirfd >= 0)
		close(st->dirfd);
	free(st->dir);
	pv_store_init(st);
}

/* st->err for errnum err at the name rel[0..len) of the walk */
static int
walk_error(struct pv_store *st, int err, const char *rel, size_t len)
{
	switch (err) {
	case ELOOP:
		pv_err_set(&st->err, "'%s/%.*s' is a symbolic link: a store "
			   "holds none, and pv-store follows none", st->dir,
			   (int)len, rel);
		break;
	case ENOTDIR:
		pv_err_set(&st->err, "'%s/%.*s' is not a directory", st->dir,
			   (int)len, rel);
		break;
	default:
		pv_err_set_errno(&st->err, err, "cannot open '%s/%.*s'",
				 st->dir, (int)len, rel);
		break;
	}
	st->err.errnum = err;
	return -1;
}

int
pv_store_openat(struct pv_store *st, const char *rel, int flags,
		mode_t mode)
{
	const char *p = rel, *slash;
	char name[256];
	struct stat sb;
	int cur = st->dirfd, fd, err = 0;

	for (;;) {
		size_t n;
		int last;

		slash = strchr(p, '/');
		n = slash != NULL ? (size_t)(slash - p) : strlen(p);
		last = slash == NULL;
		if (n == 0 || n >= sizeof(name)) {
			err = EINVAL;
			fd = -1;
		} else {
			memcpy(name, p, n);
			name[n] = '\0';
			/*
			 * O_NONBLOCK: a FIFO put in a file's place opens
			 * at once, to be refused below, rather than block
			 */
			if (!last || flags == PV_STORE_DIR)
				fd = openat(cur, name, O_RDONLY | O_DIRECTORY |
					    O_NOFOLLOW | O_CLOEXEC);
			else
				fd = openat(cur, name, flags | O_NOFOLLOW |
					    O_CLOEXEC | O_NONBLOCK, mode);
			err = errno;
			/* O_DIRECTORY | O_NOFOLLOW on a link is ENOTDIR */
			if (fd < 0 && (err == ENOTDIR || err == ELOOP))
				err = fstatat(cur, name, &sb,
					      AT_SYMLINK_NOFOLLOW) == 0 &&
				      S_ISLNK(sb.st_mode) ? ELOOP : ENOTDIR;
		}
		if (cur != st->dirfd)
			close(cur);
		if (fd < 0)
			return walk_error(st, err, rel,
					  (size_t)(p - rel) + n);
		if (last)
			break;
		cur = fd;
		p = slash + 1;
	}
	if (flags == PV_STORE_DIR)
		return fd;
	if (fstat(fd, &sb) < 0) {
		err = errno;
		close(fd);
		return walk_error(st, err, rel, strlen(rel));
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		pv_err_set(&st->err, "'%s/%s' is not a regular file", st->dir,
			   rel);
		st->err.errnum = EINVAL;
		return -1;
	}
	/* blocking again: for regular files it never mattered */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int
pv_store_tmpfile(struct pv_store *st, int tmpfd, const char *prefix,
		 struct pv_strbuf *name)
{
	static unsigned long counter;
	int fd, tries;

	/* names are unique among the living; a dead writer's may be taken */
	for (tries = 0; tries < 10000; tries++) {
		pv_strbuf_reset(name);
		pv_strbuf_addf(name, "%s-%ld-%lu", prefix, (long)getpid(),
			       counter++);
		fd = openat(tmpfd, name->buf, O_RDWR | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			break;
	}
	return pv_err_set_errno(&st->err, errno, "cannot create a file in "
				"'%s/tmp'", st->dir);
}

int
pv_store_sync_fd(struct pv_store *st, int fd, const char *rel)
{
	if (fsync(fd) < 0 && errno != EINVAL)
		return pv_err_set_errno(&st->err, errno, "cannot sync "
					"'%s/%s'", st->dir, rel);
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

int
pv_store_clean_tmp(struct pv_store *st, size_t *n, uint64_t *bytes)
{
	DIR *d;
	struct dirent *de;
	struct stat sb;
	int fd, rc = 0;

	if ((fd = pv_store_openat(st, "tmp", PV_STORE_DIR, 0)) < 0)
		return st->err.errnum == ENOENT ? 0 : -1;
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return pv_err_set_errno(&st->err, errno, "cannot read "
					"'%s/tmp'", st->dir);
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(fd, de->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0 ||
		    S_ISDIR(sb.st_mode))
			continue;
		/* unlinkat removes a link itself, never what it names */
		if (unlinkat(fd, de->d_name, 0) < 0) {
			if (errno == ENOENT)
				continue;
			rc = pv_err_set_errno(&st->err, errno, "cannot remove "
					      "'%s/tmp/%s'", st->dir,
					      de->d_name);
			break;
		}
		if (n != NULL)
			(*n)++;
		if (bytes != NULL && S_ISREG(sb.st_mode))
			*bytes += (uint64_t)sb.st_size;
	}
	closedir(d);
	return rc;
}

/* Make directory rel unless it is there; refuse a link in its place. */
static int
make_dir(struct pv_store *st, const char *rel)
{
	int fd;

	if (mkdirat(st->dirfd, rel, 0777) < 0 && errno != EEXIST)
		return pv_err_set_errno(&st->err, errno, "cannot create "
					"'%s/%s'", st->dir, rel);
	if ((fd = pv_store_openat(st, rel, PV_STORE_DIR, 0)) < 0)
		return -1;
	close(fd);
	return 0;
}

int
pv_store_prepare(struct pv_store *st)
{
	return make_dir(st, "tmp") < 0 || make_dir(st, "objects") < 0 ?
		-1 : 0;
}

/* DIR/lock, made if missing: an empty file that git keeps, or not */
static int
open_lock(struct pv_store *st)
{
	int fd = pv_store_openat(st, "lock", O_RDWR | O_CREAT, 0644);

	/* flock needs no write access: a read-only store will do */
	if (fd < 0 && (st->err.errnum == EACCES || st->err.errnum == EROFS))
		fd = pv_store_openat(st, "lock", O_RDONLY, 0);
	return fd;
}

/*
 * Create file rel with contents unless it exists: written to a temporary
 * file, synced and linked, so that it appears whole or not at all.
 */
static int
create_file(struct pv_store *st, const char *rel,
	    const struct pv_strbuf *contents)
{
	struct pv_strbuf tmp = PV_STRBUF_INIT;
	int tmpfd, fd = -1, rc = -1;

	if ((tmpfd = pv_store_openat(st, "tmp", PV_STORE_DIR, 0)) < 0)
		return -1;
	if ((fd = pv_store_tmpfile(st, tmpfd, "new", &tmp)) < 0)
		goto out;
	if (pv_store_write_all(fd, contents->buf, contents->len) < 0 ||
	    fsync(fd) < 0 || fchmod(fd, 0644) < 0) {
		pv_err_set_errno(&st->err, errno, "cannot write '%s/tmp/%s'",
				 st->dir, tmp.buf);
		goto out_unlink;
	}
	if (linkat(tmpfd, tmp.buf, st->dirfd, rel, 0) < 0 && errno != EEXIST) {
		pv_err_set_errno(&st->err, errno, "cannot create '%s/%s'",
				 st->dir, rel);
		goto out_unlink;
	}
	rc = 0;
out_unlink:
	unlinkat(tmpfd, tmp.buf, 0);
out:
	if (fd >= 0)
		close(fd);
	close(tmpfd);
	pv_strbuf_release(&tmp);
	return rc;
}

static int
check_format(struct pv_store *st)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = pv_store_openat(st, "format", O_RDONLY, 0);
	if (fd < 0) {
		if (st->err.errnum == ENOENT)
			return pv_err_set(&st->err, "'%s' is not a pv store "
					  "(no format file; make one with "
					  "'pv-store init')", st->dir);
		return -1;
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

/* Whether DIR holds nothing but what a store's making leaves there. */
static int
only_store_files(struct pv_store *st)
{
	static const char *const ok[] = {
		".", "..", "objects", "tmp", "index", "lock"
	};
	DIR *d;
	struct dirent *de;
	size_t i;
	int fd = fcntl(st->dirfd, F_DUPFD_CLOEXEC, 0);

	if (fd < 0 || (d = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return pv_err_set_errno(&st->err, errno, "cannot read '%s'",
					st->dir);
	}
	while ((de = readdir(d)) != NULL) {
		for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
			if (strcmp(de->d_name, ok[i]) == 0)
				break;
		if (i == sizeof(ok) / sizeof(ok[0])) {
			closedir(d);
			return pv_err_set(&st->err, "'%s' exists and is not "
					  "a pv store", st->dir);
		}
	}
	closedir(d);
	return 0;
}

/* st->dir and st->dirfd for dir; the path itself may be a link */
static int
open_dir(struct pv_store *st, const char *dir)
{
	free(st->dir);
	st->dir = pv_xstrdup(dir);
	if (st->dirfd >= 0)
		close(st->dirfd);
	st->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (st->dirfd >= 0)
		return 0;
	if (errno == ENOTDIR)
		return pv_err_set(&st->err, "'%s' is not a pv store (not a "
				  "directory)", dir);
	return pv_err_set_errno(&st->err, errno, "cannot open store '%s'",
				dir);
}

int
pv_store_create(struct pv_store *st, const char *dir)
{
	struct pv_strbuf head = PV_STRBUF_INIT;
	struct pv_rec_index ix = PV_REC_INDEX_INIT;
	struct stat sb;
	int rc = -1, fd;

	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return pv_err_set_errno(&st->err, errno, "cannot create '%s'",
					dir);
	if (open_dir(st, dir) < 0)
		return -1;
	if (fstatat(st->dirfd, "format", &sb, AT_SYMLINK_NOFOLLOW) == 0) {
		/* a store: make again what a copy may have lost */
		if (check_format(st) < 0 || pv_store_prepare(st) < 0 ||
		    (fd = open_lock(st)) < 0)
			return -1;
		close(fd);
		return 0;
	}
	/* refuse to scatter files into a directory used for something else */
	if (only_store_files(st) < 0 || pv_store_prepare(st) < 0)
		goto out;
	if ((fd = open_lock(st)) < 0)
		goto out;
	close(fd);
	/* the index before the format file: the format file says "done" */
	ix.type = PV_REC_INDEX_HEAD;
	pv_rec_index_write(&head, &ix);
	if (create_file(st, "index", &head) < 0)
		goto out;
	pv_strbuf_reset(&head);
	pv_strbuf_addstr(&head, PV_STORE_FORMAT "\n");
	if (create_file(st, "format", &head) < 0 ||
	    pv_store_sync_fd(st, st->dirfd, ".") < 0)
		goto out;
	rc = 0;
out:
	pv_strbuf_release(&head);
	return rc;
}

int
pv_store_open(struct pv_store *st, const char *dir)
{
	if (open_dir(st, dir) < 0)
		return -1;
	return check_format(st);
}

int
pv_store_lock(struct pv_store *st, int exclusive)
{
	if (st->lockfd < 0 && (st->lockfd = open_lock(st)) < 0)
		return -1;
	/*
	 * Alone (the lock to be had exclusively at once): no writer runs,
	 * so what DIR/tmp holds was left by killed ones.  Clearing it is a
	 * courtesy that must not stop a reader: its errors are dropped.
	 */
	if (!exclusive && flock(st->lockfd, LOCK_EX | LOCK_NB) == 0) {
		struct pv_err keep = st->err;

		(void)pv_store_clean_tmp(st, NULL, NULL);
		st->err = keep;
	}
	while (flock(st->lockfd, exclusive ? LOCK_EX : LOCK_SH) < 0)
		if (errno != EINTR)
			return pv_err_set_errno(&st->err, errno, "cannot lock "
						"'%s/lock'", st->dir);
	return 0;
}
