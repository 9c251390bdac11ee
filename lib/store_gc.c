/*
 * store_gc: garbage collection (see store.h).  Under the exclusive lock no
 * writer runs, so what DIR/tmp holds is what killed writers left, and an
 * object that no live entry names will not be named by a line still to
 * come.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store.h"
#include "store_private.h"
#include "xalloc.h"

/* Remove the files in DIR/tmp: only while no writer can be running. */
static int
clean_tmp(struct pv_store *st)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	DIR *d;
	struct dirent *de;
	int rc = 0;

	pv_store_path(st, &p, "tmp");
	if ((d = opendir(p.buf)) == NULL) {
		rc = pv_err_set_errno(&st->err, errno, "cannot open '%s'",
				      p.buf);
		goto out;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		pv_store_path(st, &p, "tmp/");
		pv_strbuf_addstr(&p, de->d_name);
		if (unlink(p.buf) < 0 && errno != ENOENT) {
			rc = pv_err_set_errno(&st->err, errno, "cannot remove "
					      "'%s'", p.buf);
			break;
		}
	}
	closedir(d);
out:
	pv_strbuf_release(&p);
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
	if (pv_store_lock(st, 1) < 0 || pv_store_index_load(st) < 0 ||
	    pv_store_index_rewrite(st) < 0 || clean_tmp(st) < 0 ||
	    pv_store_obj_list(st, &names, &n, &stray) < 0)
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
		pv_store_obj_path(st, names[i], &p);
		if (stat(p.buf, &sb) == 0)
			*bytes += (uint64_t)sb.st_size;
		if (unlink(p.buf) < 0 && errno != ENOENT) {
			pv_err_set_errno(&st->err, errno, "cannot remove '%s'",
					 p.buf);
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
