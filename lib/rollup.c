/*
 * rollup: keys summed up per test, suite and section (see rollup.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rollup.h"
#include "xalloc.h"

void
pv_rollup_init(struct pv_rollup *r, int keep_values,
	       void (*flush)(void *arg, struct pv_roll *roll,
			     enum pv_scope scope),
	       void *arg)
{
	memset(r, 0, sizeof(*r));
	r->keep_values = keep_values;
	r->flush = flush;
	r->arg = arg;
}

void
pv_rollup_release(struct pv_rollup *r)
{
	int s;

	for (s = 0; s < PV_NSCOPE; s++)
		free(r->scope[s].value);
	memset(r, 0, sizeof(*r));
}

/* End the scopes [0, n). */
static void
end(struct pv_rollup *r, int n)
{
	int s;

	for (s = 0; s < n; s++) {
		if (r->scope[s].keys == 0)
			continue;
		r->flush(r->arg, &r->scope[s], (enum pv_scope)s);
		r->scope[s].keys = 0;
	}
}

void
pv_rollup_next(struct pv_rollup *r, const struct pv_runkey *key)
{
	const struct pv_runkey *p = &r->prev;

	if (!r->have_prev)
		r->have_prev = 1;
	else if (pv_str_cmp(p->role, key->role) ||
		 pv_str_cmp(p->version, key->version) ||
		 pv_str_cmp(p->experiment, key->experiment))
		end(r, 3);
	else if (pv_str_cmp(p->suite, key->suite))
		end(r, 2);
	else if (pv_str_cmp(p->test, key->test))
		end(r, 1);
	r->prev = *key;
}

void
pv_rollup_add(struct pv_rollup *r, const struct pv_runkey *key, size_t runs,
	      double value, double se)
{
	int s;

	for (s = 0; s < PV_NSCOPE; s++) {
		struct pv_roll *o = &r->scope[s];

		if (o->keys == 0) {
			o->first_key = *key;
			o->first = &o->first_key;
			o->runs = o->nse = 0;
			o->min_runs = runs;
			o->sum = o->var = 0;
			o->min = value;
		}
		if (r->keep_values) {
			PV_GROW(o->value, o->keys + 1, o->alloc);
			o->value[o->keys] = value;
		}
		o->keys++;
		o->runs += runs;
		if (runs < o->min_runs)
			o->min_runs = runs;
		o->sum += value;
		if (value < o->min)
			o->min = value;
		if (!isnan(se)) {
			o->var += se * se;
			o->nse++;
		}
	}
}

void
pv_rollup_end(struct pv_rollup *r)
{
	end(r, 3);
}
