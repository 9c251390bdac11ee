/*
 * kvset: meta and env records compared (see kvset.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kvset.h"
#include "xalloc.h"

void
pv_kvset_init(struct pv_kvset *s)
{
	memset(s, 0, sizeof(*s));
}

void
pv_kvset_release(struct pv_kvset *s)
{
	size_t i;

	for (i = 0; i < s->nkv; i++) {
		free(s->kv[i].type);
		free(s->kv[i].key);
		free(s->kv[i].value);
	}
	free(s->kv);
	memset(s, 0, sizeof(*s));
}

void
pv_kvset_add(struct pv_kvset *s, struct pv_str type, struct pv_str key,
	     struct pv_str value)
{
	size_t i;

	for (i = 0; i < s->nkv; i++) {
		struct pv_kv *kv = &s->kv[i];

		if (pv_str_eq(type, kv->type) && pv_str_eq(key, kv->key)) {
			if (!pv_str_eq(value, kv->value)) {
				free(kv->value);
				kv->value = pv_xstrdup("(several values)");
			}
			return;
		}
	}
	PV_GROW(s->kv, s->nkv + 1, s->alloc);
	s->kv[s->nkv].type = pv_xmemdup(type.s, type.len);
	s->kv[s->nkv].key = pv_xmemdup(key.s, key.len);
	s->kv[s->nkv].value = pv_xmemdup(value.s, value.len);
	s->nkv++;
	s->sorted = 0;
}

static int
cmp_kv(const void *a, const void *b)
{
	const struct pv_kv *x = a, *y = b;
	int c = strcmp(x->type, y->type);

	return c != 0 ? c : strcmp(x->key, y->key);
}

const char *const pv_kvset_default_ignore[] = {
	"version", "commit", "branch", "describe", "date", "time", "start",
	"end", "duration", "hostname", "host", "kernel", "kernel-release",
	"kernel-version", "kernel-build", "uname", "os-release", "cmdline",
	"kernel-cmdline", "perf-cmdline",
	"run-id", "captured-on",
	/* the facts of one collection (pv-collect(1)) */
	"started", "collection", "run", "warmup", "runs-ok", "runs-failed",
	"artifacts",
	/* the run's name, which older MMTests readings wrote as a fact */
	"mmtests-run",
	/*
	 * a field of each sample's key, not a condition: the sections of one
	 * side and experiment, one a level, are one set
	 */
	"level"
};
const size_t pv_kvset_default_nignore =
	sizeof(pv_kvset_default_ignore) / sizeof(pv_kvset_default_ignore[0]);

static int
ignored(const struct pv_kv *kv, const char *const *ignore, size_t n)
{
	size_t i, tl = strlen(kv->type);

	for (i = 0; i < n; i++) {
		const char *p = ignore[i];
		size_t pl = strlen(p);

		if (pl > 0 && p[pl - 1] == '*') {
			if (strncmp(kv->key, p, pl - 1) == 0)
				return 1;
			if (strncmp(p, kv->type, tl) == 0 && p[tl] == '.' &&
			    strncmp(kv->key, p + tl + 1, pl - tl - 2) == 0)
				return 1;
			continue;
		}
		if (strcmp(kv->key, p) == 0)
			return 1;
		if (strncmp(p, kv->type, tl) == 0 && p[tl] == '.' &&
		    strcmp(kv->key, p + tl + 1) == 0)
			return 1;
	}
	return 0;
}

static void
describe(struct pv_strbuf *why, size_t n, const struct pv_kv *a,
	 const struct pv_kv *b)
{
	const struct pv_kv *k = a != NULL ? a : b;

	if (n > 0)
		pv_strbuf_addstr(why, ", ");
	pv_strbuf_addf(why, "%s '%s' ('%s' vs '%s')", k->type, k->key,
		       a != NULL ? a->value : "(none)",
		       b != NULL ? b->value : "(none)");
}

size_t
pv_kvset_diff(struct pv_kvset *a, struct pv_kvset *b,
	      const char *const *ignore, size_t nignore,
	      struct pv_strbuf *why)
{
	size_t i = 0, j = 0, n = 0;

	if (a->nkv > 0)
		qsort(a->kv, a->nkv, sizeof(*a->kv), cmp_kv);
	if (b->nkv > 0)
		qsort(b->kv, b->nkv, sizeof(*b->kv), cmp_kv);
	while (i < a->nkv || j < b->nkv) {
		const struct pv_kv *x = i < a->nkv ? &a->kv[i] : NULL;
		const struct pv_kv *y = j < b->nkv ? &b->kv[j] : NULL;
		int c = x == NULL ? 1 : y == NULL ? -1 : cmp_kv(x, y);

		if (c < 0) {
			if (!ignored(x, ignore, nignore))
				describe(why, n++, x, NULL);
			i++;
		} else if (c > 0) {
			if (!ignored(y, ignore, nignore))
				describe(why, n++, NULL, y);
			j++;
		} else {
			if (strcmp(x->value, y->value) != 0 &&
			    !ignored(x, ignore, nignore))
				describe(why, n++, x, y);
			i++;
			j++;
		}
	}
	return n;
}
