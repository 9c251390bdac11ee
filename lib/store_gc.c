/*
 * store_gc: garbage collection (see store.h).  Under the exclusive lock no
 * writer runs, so what DIR/tmp holds is what killed writers left, and an
 * object that no live entry names will not be named by a line still to
 * come.  Everything is removed through directory fds opened without
 * following a link, so nothing outside the store can be reached.  The
 * index is rewritten last: removing needs no room on the disk, the new
 * index does, and until it is in place the old one says the same (its
 * withdrawn entries are no one's).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store.h"
#include "store_private.h"
#include "xalloc.h"

static int
cmp_hash(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Remove object name, and its fan-out directory once empty. */
static int
remove_object(struct pv_store *st, int objfd, const char *name,
	      struct pv_store_gc_stats *gs)
{
	char sub[3] = { name[0], name[1], '\0' };
	struct stat sb;
	int fd;

	fd = openat(objfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		return pv_err_set_errno(&st->err, errno, "cannot open "
					"'%s/objects/%s'", st->dir, sub);
	if (fstatat(fd, name + 2, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(sb.st_mode))
		gs->bytes += (uint64_t)sb.st_size;
	if (unlinkat(fd, name + 2, 0) < 0 && errno != ENOENT) {
		pv_err_set_errno(&st->err, errno, "cannot remove "
				 "'%s/objects/%s/%s'", st->dir, sub, name + 2);
		close(fd);
		return -1;
	}
	gs->objects++;
	close(fd);
	/* an emptied fan-out directory goes too; errors are fine */
	unlinkat(objfd, sub, AT_REMOVEDIR);
	return 0;
}

int
pv_store_gc(struct pv_store *st, struct pv_store_gc_stats *gs)
{
	const char **live = NULL;
	char **names = NULL;
	size_t nlive = 0, n = 0, stray, i, withdrawn = 0;
	int objfd = -1, rc = -1;

	memset(gs, 0, sizeof(*gs));
	if (pv_store_lock(st, 1) < 0 || pv_store_index_load(st) < 0 ||
	    pv_store_clean_tmp(st, &gs->tmpfiles, &gs->tmpbytes) < 0 ||
	    pv_store_obj_list(st, &names, &n, &stray) < 0)
		goto out;
	live = pv_xreallocarray(NULL, st->nentry + 1, sizeof(*live));
	for (i = 0; i < st->nentry; i++)
		if (st->entry[i].live)
			live[nlive++] = st->entry[i].hash;
	qsort(live, nlive, sizeof(*live), cmp_hash);
	if (n > 0 &&
	    (objfd = pv_store_openat(st, "objects", PV_STORE_DIR, 0)) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		const char *key = names[i];

		if (bsearch(&key, live, nlive, sizeof(*live), cmp_hash))
			continue;
		if (remove_object(st, objfd, names[i], gs) < 0)
			goto out;
	}
	/* withdrawn entries go from the index, with their rm lines */
	for (i = 0; i < st->nentry; i++)
		withdrawn += st->entry[i].live ? 0 : 1;
	if (pv_store_index_rewrite(st) < 0)
		goto out;
	gs->withdrawn = withdrawn;
	rc = 0;
out:
	if (objfd >= 0)
		close(objfd);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(live);
	return rc;
}
