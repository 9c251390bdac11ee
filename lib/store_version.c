/*
 * store_version: questions about the stored versions (see store.h): the
 * baseline rule, by the kernel's release order (kver.h) or by git's
 * ancestry of commits (git.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "git.h"
#include "kver.h"
#include "store.h"
#include "xalloc.h"

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
		return pv_err_set(&st->err, "git rev-list failed for '%s'",
				  id);
	*found = m.found;
	return m.found != NULL ? 0 : 1;
}

int
pv_store_version_baseline(struct pv_store *st, const char *name,
			  const char **found)
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
