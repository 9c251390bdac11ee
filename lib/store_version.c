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

/* A version to order: its name, kernel version, commit, first entry. */
struct ordered {
	const char *name;
	struct pv_kver kv;
	const char *commit;
	size_t first;		/* the index of its first live entry */
	size_t rank;		/* its place in git's order */
};

static int
cmp_kernel(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;
	int c = pv_kver_cmp(&x->kv, &y->kv);

	/* two spellings of one version: by name, not by qsort */
	return c != 0 ? c : strcmp(x->name, y->name);
}

static int
cmp_first(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

static int
cmp_rank(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

static int
cmp_ordered_commit(const void *a, const void *b)
{
	return strcmp(((const struct ordered *)a)->commit,
		      ((const struct ordered *)b)->commit);
}

/*
 * The ranks of w's commits in git's order of descent, ancestors first:
 * 0, or -1 when git cannot list them all.
 */
static int
commit_ranks(struct ordered *w, size_t n)
{
	struct pv_strbuf out = PV_STRBUF_INIT;
	const char **args;
	const char *p, *nl;
	size_t i, rank = 0, seen = 0;
	int rc;

	args = pv_xreallocarray(NULL, n + 4, sizeof(*args));
	args[0] = "rev-list";
	args[1] = "--topo-order";
	args[2] = "--reverse";
	for (i = 0; i < n; i++)
		args[3 + i] = w[i].commit;
	args[3 + n] = NULL;
	rc = pv_git_run(args, &out);
	free(args);
	if (rc != 0) {
		pv_strbuf_release(&out);
		return -1;
	}
	qsort(w, n, sizeof(*w), cmp_ordered_commit);
	for (i = 0; i < n; i++)
		w[i].rank = SIZE_MAX;
	for (p = out.buf; *p != '\0'; p = nl + 1) {
		struct ordered key;
		struct ordered *hit;
		char id[72];
		size_t len;

		nl = strchr(p, '\n');
		if (nl == NULL)
			break;
		len = (size_t)(nl - p);
		if (len >= sizeof(id))
			continue;
		memcpy(id, p, len);
		id[len] = '\0';
		key.commit = id;
		hit = bsearch(&key, w, n, sizeof(*w), cmp_ordered_commit);
		/* one commit under two names: give each its place */
		while (hit != NULL && hit > w && strcmp(hit[-1].commit, id) == 0)
			hit--;
		for (; hit != NULL && hit < w + n &&
		     strcmp(hit->commit, id) == 0; hit++)
			if (hit->rank == SIZE_MAX) {
				hit->rank = rank++;
				seen++;
			}
	}
	pv_strbuf_release(&out);
	return seen == n ? 0 : -1;
}

int
pv_store_version_order(struct pv_store *st, const char **v, size_t n)
{
	struct ordered *w;
	size_t i, j, kernel = 0, commits = 0;
	int rc = 0;

	w = pv_xreallocarray(NULL, n ? n : 1, sizeof(*w));
	for (i = 0; i < n; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].name = v[i];
		w[i].first = SIZE_MAX;
		for (j = 0; j < st->nentry; j++) {
			const struct pv_store_entry *e = &st->entry[j];

			if (!e->live || strcmp(e->version, v[i]) != 0)
				continue;
			if (w[i].first == SIZE_MAX)
				w[i].first = j;
			if (w[i].commit == NULL)
				w[i].commit = e->commit;
		}
		if (pv_kver_parse(v[i], &w[i].kv) == 0)
			kernel++;
		else if (w[i].commit != NULL)
			commits++;
	}
	if (kernel == n) {
		qsort(w, n, sizeof(*w), cmp_kernel);
	} else if (commits == n && n > 1 && commit_ranks(w, n) == 0) {
		qsort(w, n, sizeof(*w), cmp_rank);
	} else {
		if (commits == n && n > 1) {
			pv_err_set(&st->err, "git cannot order the stored "
				   "commits (not in this repository?): they "
				   "are in the order they were stored");
			rc = 1;
		}
		qsort(w, n, sizeof(*w), cmp_first);
	}
	for (i = 0; i < n; i++)
		v[i] = w[i].name;
	free(w);
	return rc;
}
