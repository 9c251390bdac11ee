/*
 * store_obj: the store's objects written, named and listed (see store.h).
 * An object is written through zlib's deflate, in the gzip format so that
 * zcat reads it, to a temporary file while its SHA-256 is computed, and
 * filed with link(2), so that a sound object is never replaced; one that
 * is not sound (tampered with, cut) is replaced by rename(2).  Every name
 * is opened relative to its directory, following no link.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "store.h"
#include "store_private.h"
#include "xalloc.h"

struct pv_store_objstate {
	int tmpfd;			/* DIR/tmp */
	struct pv_strbuf tmp;		/* the temporary's name in it */
	z_stream z;
	struct pv_sha256 sha;
	unsigned char out[PV_STORE_BUFSIZE];
};

void
pv_store_obj_path(const struct pv_store *st, const char *hash,
		  struct pv_strbuf *sb)
{
	pv_strbuf_reset(sb);
	pv_strbuf_addf(sb, "%s/objects/%.2s/%s", st->dir, hash, hash + 2);
}

static void
obj_free(struct pv_store_obj *obj)
{
	struct pv_store_objstate *s = obj->state;

	if (obj->fd >= 0)
		close(obj->fd);
	if (s->tmpfd >= 0)
		close(s->tmpfd);
	deflateEnd(&s->z);
	pv_strbuf_release(&s->tmp);
	free(s);
	free(obj);
}

void
pv_store_obj_discard(struct pv_store *st, struct pv_store_obj *obj)
{
	(void)st;
	if (obj == NULL)
		return;
	/* gone already when a commit renamed it into place */
	unlinkat(obj->state->tmpfd, obj->state->tmp.buf, 0);
	obj_free(obj);
}

struct pv_store_obj *
pv_store_obj_begin(struct pv_store *st)
{
	struct pv_store_obj *obj = pv_xcalloc(1, sizeof(*obj));
	struct pv_store_objstate *s = pv_xcalloc(1, sizeof(*s));

	obj->state = s;
	obj->fd = -1;
	pv_strbuf_init(&s->tmp, 0);
	if ((s->tmpfd = pv_store_openat(st, "tmp", PV_STORE_DIR, 0)) < 0 ||
	    (obj->fd = pv_store_tmpfile(st, s->tmpfd, "obj", &s->tmp)) < 0) {
		if (s->tmpfd >= 0)
			close(s->tmpfd);
		pv_strbuf_release(&s->tmp);
		free(s);
		free(obj);
		return NULL;
	}
	/* gzip format (windowBits 15 + 16), so that zcat reads objects */
	if (deflateInit2(&s->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16,
			 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		pv_err_set(&st->err, "cannot start zlib compression");
		s->z.state = NULL;
		pv_store_obj_discard(st, obj);
		return NULL;
	}
	pv_sha256_init(&s->sha);
	return obj;
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
			return pv_err_set(&st->err, "zlib compression failed");
		have = sizeof(s->out) - s->z.avail_out;
		if (have > 0 && pv_store_write_all(obj->fd, s->out, have) < 0)
			return pv_err_set_errno(&st->err, errno, "cannot write "
						"'%s/tmp/%s'", st->dir,
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
		return pv_err_set(&st->err, "a write of %zu bytes is too "
				  "large", len);
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
	if (fchmod(obj->fd, 0444) < 0 || fsync(obj->fd) < 0 ||
	    lseek(obj->fd, 0, SEEK_SET) < 0) {
		pv_err_set_errno(&st->err, errno, "cannot sync '%s/tmp/%s'",
				 st->dir, s->tmp.buf);
		goto fail;
	}
	pv_sha256_final(&s->sha, digest);
	pv_sha256_hex(digest, obj->hash);
	return 0;
fail:
	pv_store_obj_discard(st, obj);
	return -1;
}

/*
 * The fan-out directory objects/XX of hash, made if missing (*fresh then
 * set), opened without following a link; objfd gets objects/.
 */
static int
fanout_dir(struct pv_store *st, const char *hash, int *objfd, int *fresh)
{
	char name[3] = { hash[0], hash[1], '\0' };
	struct pv_strbuf rel = PV_STRBUF_INIT;
	int fd;

	*fresh = 0;
	if ((*objfd = pv_store_openat(st, "objects", PV_STORE_DIR, 0)) < 0)
		return -1;
	if (mkdirat(*objfd, name, 0777) == 0)
		*fresh = 1;
	else if (errno != EEXIST) {
		pv_err_set_errno(&st->err, errno, "cannot create "
				 "'%s/objects/%s'", st->dir, name);
		close(*objfd);
		return -1;
	}
	pv_strbuf_addf(&rel, "objects/%s", name);
	fd = pv_store_openat(st, rel.buf, PV_STORE_DIR, 0);
	pv_strbuf_release(&rel);
	if (fd < 0)
		close(*objfd);
	return fd;
}

int
pv_store_obj_commit(struct pv_store *st, struct pv_store_obj *obj)
{
	struct pv_store_objstate *s = obj->state;
	struct pv_err keep;
	const char *rest = obj->hash + 2;
	int objfd = -1, dirfd, rc = -1, fresh, old;

	if ((dirfd = fanout_dir(st, obj->hash, &objfd, &fresh)) < 0)
		goto out;
	/* link, not rename: an object already there is never replaced... */
	if (linkat(s->tmpfd, s->tmp.buf, dirfd, rest, 0) == 0) {
		rc = 1;
	} else if (errno != EEXIST) {
		pv_err_set_errno(&st->err, errno, "cannot create "
				 "'%s/objects/%.2s/%s'", st->dir, obj->hash,
				 rest);
		goto out_dir;
	} else {
		/* ...unless it is not sound: then the new one takes its name */
		keep = st->err;
		old = pv_store_verify(st, obj->hash, NULL);
		if (old < 0)
			goto out_dir;
		st->err = keep;
		rc = 0;
		if (old > 0) {
			if (renameat(s->tmpfd, s->tmp.buf, dirfd, rest) < 0) {
				pv_err_set_errno(&st->err, errno, "cannot "
						 "replace '%s/objects/%.2s/%s'",
						 st->dir, obj->hash, rest);
				rc = -1;
				goto out_dir;
			}
			rc = 1;
		}
	}
	if (pv_store_sync_fd(st, dirfd, "objects") < 0 ||
	    (fresh && pv_store_sync_fd(st, objfd, "objects") < 0))
		rc = -1;
out_dir:
	close(dirfd);
	close(objfd);
out:
	pv_store_obj_discard(st, obj);	/* removes the temporary name */
	return rc;
}

/* Listing */

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

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether name in directory fd is of the kind wanted, a link never. */
static int
is_kind(int fd, const char *name, mode_t kind)
{
	struct stat sb;

	return fstatat(fd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		(sb.st_mode & S_IFMT) == kind;
}

int
pv_store_obj_list(struct pv_store *st, char ***names, size_t *n,
		  size_t *stray)
{
	struct pv_strbuf name = PV_STRBUF_INIT;
	DIR *top, *sub;
	struct dirent *de, *fe;
	size_t alloc = 0;
	int topfd, subfd, rc = -1;

	*names = NULL;
	*n = 0;
	*stray = 0;
	if ((topfd = pv_store_openat(st, "objects", PV_STORE_DIR, 0)) < 0) {
		/* git keeps no empty directory: no objects/, no objects */
		if (st->err.errnum == ENOENT) {
			pv_err_clear(&st->err);
			return 0;
		}
		return -1;
	}
	if ((top = fdopendir(topfd)) == NULL) {
		close(topfd);
		pv_err_set_errno(&st->err, errno, "cannot read '%s/objects'",
				 st->dir);
		goto out;
	}
	while ((de = readdir(top)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (!is_kind(topfd, de->d_name, S_IFDIR) ||
		    (subfd = openat(topfd, de->d_name, O_RDONLY | O_DIRECTORY |
				    O_NOFOLLOW | O_CLOEXEC)) < 0) {
			(*stray)++;	/* a file, a link: never followed */
			continue;
		}
		if ((sub = fdopendir(subfd)) == NULL) {
			close(subfd);
			pv_err_set_errno(&st->err, errno, "cannot read "
					 "'%s/objects/%s'", st->dir,
					 de->d_name);
			closedir(top);
			goto out;
		}
		while ((fe = readdir(sub)) != NULL) {
			if (strcmp(fe->d_name, ".") == 0 ||
			    strcmp(fe->d_name, "..") == 0)
				continue;
			pv_strbuf_reset(&name);
			pv_strbuf_addf(&name, "%s%s", de->d_name, fe->d_name);
			if (!is_hash(name.buf, name.len) ||
			    !is_kind(subfd, fe->d_name, S_IFREG)) {
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
	pv_strbuf_release(&name);
	return rc;
}
