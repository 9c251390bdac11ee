/*
 * store_obj: the store's objects written, named and listed (see store.h).
 * An object is written through zlib's deflate, in the gzip format so that
 * zcat reads it, to a temporary file while its SHA-256 is computed, and
 * filed with link(2), so that no object is ever replaced.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "store.h"
#include "store_private.h"
#include "xalloc.h"

struct pv_store_objstate {
	int fd;
	struct pv_strbuf tmp;
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

	if (s->fd >= 0)
		close(s->fd);
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
	pv_store_path(st, &s->tmp, "tmp/obj-XXXXXX");
	s->fd = mkstemp(s->tmp.buf);
	if (s->fd < 0) {
		pv_err_set_errno(&st->err, errno, "cannot create a file in "
				 "'%s/tmp'", st->dir);
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
		if (have > 0 && pv_store_write_all(s->fd, s->out, have) < 0)
			return pv_err_set_errno(&st->err, errno, "cannot write "
						"'%s'", s->tmp.buf);
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
	if (fchmod(s->fd, 0444) < 0 || fsync(s->fd) < 0) {
		pv_err_set_errno(&st->err, errno, "cannot sync '%s'",
				 s->tmp.buf);
		goto fail;
	}
	if (close(s->fd) < 0) {
		s->fd = -1;
		pv_err_set_errno(&st->err, errno, "cannot write '%s'",
				 s->tmp.buf);
		goto fail;
	}
	s->fd = -1;
	pv_sha256_final(&s->sha, digest);
	pv_sha256_hex(digest, obj->hash);
	return 0;
fail:
	pv_store_obj_discard(st, obj);
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
		pv_err_set_errno(&st->err, errno, "cannot create '%s'",
				 dir.buf);
		goto out;
	}
	pv_store_obj_path(st, obj->hash, &dst);
	/* link, not rename: an object already there is never replaced */
	if (link(obj->state->tmp.buf, dst.buf) == 0) {
		rc = 1;
	} else if (errno == EEXIST) {
		rc = 0;
	} else {
		pv_err_set_errno(&st->err, errno, "cannot create '%s'",
				 dst.buf);
		goto out;
	}
	if (pv_store_sync_dir(st, dir.buf) < 0) {
		rc = -1;
		goto out;
	}
	if (fresh) {
		pv_strbuf_reset(&dir);
		pv_strbuf_addf(&dir, "%s/objects", st->dir);
		if (pv_store_sync_dir(st, dir.buf) < 0)
			rc = -1;
	}
out:
	pv_store_obj_discard(st, obj);	/* removes the temporary name */
	pv_strbuf_release(&dir);
	pv_strbuf_release(&dst);
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

int
pv_store_obj_list(struct pv_store *st, char ***names, size_t *n,
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
	pv_store_path(st, &p, "objects");
	if ((top = opendir(p.buf)) == NULL) {
		pv_err_set_errno(&st->err, errno, "cannot open '%s'", p.buf);
		goto out;
	}
	while ((de = readdir(top)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		pv_store_path(st, &p, "objects/");
		pv_strbuf_addstr(&p, de->d_name);
		if ((sub = opendir(p.buf)) == NULL) {
			if (errno == ENOTDIR) {
				(*stray)++;
				continue;
			}
			pv_err_set_errno(&st->err, errno, "cannot open '%s'",
					 p.buf);
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
