/*
 * cpgroup: change points judged and grouped across levels (see
 * cpgroup.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cpgroup.h"
#include "xalloc.h"

void
pv_cpgroups_init(struct pv_cpgroups *g)
{
	memset(g, 0, sizeof(*g));
}

void
pv_cpgroups_release(struct pv_cpgroups *g)
{
	free(g->cp);
	pv_arena_release(&g->arena);
	memset(g, 0, sizeof(*g));
}

int
pv_changepoint_fails(const struct pv_changepoint *c)
{
	return c->change < 0 && (c->flags & PV_CHANGEPOINT_NEWEST) &&
		!(c->flags & PV_CHANGEPOINT_KNOWN);
}

int
pv_outlier_fails(const struct pv_outlier *o)
{
	return o->change < 0 && (o->flags & PV_CHANGEPOINT_NEWEST) &&
		!(o->flags & PV_CHANGEPOINT_KNOWN);
}

static struct pv_str
keep(struct pv_cpgroups *g, struct pv_str s)
{
	struct pv_str k = { pv_arena_memdup(&g->arena, s.s, s.len), s.len };

	return k;
}

void
pv_cpgroups_add(struct pv_cpgroups *g, const struct pv_changepoint *c)
{
	struct pv_changepoint *d;

	PV_GROW(g->cp, g->ncp + 1, g->alloc);
	d = &g->cp[g->ncp++];
	*d = *c;
	d->key.experiment = keep(g, c->key.experiment);
	d->key.suite = keep(g, c->key.suite);
	d->key.test = keep(g, c->key.test);
	d->key.operation = keep(g, c->key.operation);
	d->key.metric = keep(g, c->key.metric);
	d->key.unit = keep(g, c->key.unit);
	d->before = keep(g, c->before);
	d->after = keep(g, c->after);
	g->failing += pv_changepoint_fails(c);
}

/* The order of groups: the key without its level, the versions. */
static int
cmp_group(const struct pv_changepoint *x, const struct pv_changepoint *y)
{
	struct pv_runkey a = x->key, b = y->key;
	int c;

	a.level = b.level = PV_NONE;
	if ((c = pv_rec_key_cmp_measure(&a, &b)) != 0 ||
	    (c = pv_str_cmp(x->before, y->before)) != 0)
		return c;
	return pv_str_cmp(x->after, y->after);
}

static int
cmp_cp(const void *a, const void *b)
{
	const struct pv_changepoint *x = a, *y = b;
	int c = cmp_group(x, y);

	if (c != 0)
		return c;
	/* absent levels first, then ascending */
	if (x->key.level == y->key.level)
		return 0;
	if (x->key.level == PV_NONE)
		return -1;
	if (y->key.level == PV_NONE)
		return 1;
	return x->key.level < y->key.level ? -1 : 1;
}

void
pv_cpgroups_write(struct pv_cpgroups *g, struct pv_strbuf *sb)
{
	struct pv_strbuf list = PV_STRBUF_INIT;
	size_t i, j, k;

	if (g->ncp > 1)
		qsort(g->cp, g->ncp, sizeof(g->cp[0]), cmp_cp);
	for (i = 0; i < g->ncp; i = j) {
		struct pv_cpgroup grp;
		const struct pv_changepoint *c = &g->cp[i];

		for (j = i + 1; j < g->ncp && cmp_group(c, &g->cp[j]) == 0;
		     j++)
			;
		if (j - i < 2)
			continue;
		memset(&grp, 0, sizeof(grp));
		grp.key = c->key;
		grp.key.level = PV_NONE;
		grp.before = c->before;
		grp.after = c->after;
		grp.levels = j - i;
		grp.change_min = grp.change_max = c->change;
		grp.flags = c->flags;
		pv_strbuf_reset(&list);
		for (k = i; k < j; k++) {
			const struct pv_changepoint *d = &g->cp[k];

			if (k > i)
				pv_strbuf_addch(&list, ',');
			if (d->key.level == PV_NONE)
				pv_strbuf_addch(&list, '-');
			else
				pv_strbuf_addu(&list, d->key.level);
			if (d->change < grp.change_min)
				grp.change_min = d->change;
			if (d->change > grp.change_max)
				grp.change_max = d->change;
			grp.flags &= d->flags;
		}
		grp.level_list.s = list.buf;
		grp.level_list.len = list.len;
		pv_rec_cpgroup_write(sb, &grp);
	}
	pv_strbuf_release(&list);
}
