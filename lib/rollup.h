/*
 * rollup: the roll-ups of pv-stat (statroll records, rec_stat.h) and
 * pv-diff (cmproll records, rec_cmp.h): keys given in key order, summed
 * up per test, per suite and per section (the scopes, rec_key.h).
 *
 * Give each key to pv_rollup_next() (which ends the scopes that the key is
 * not in, calling flush for each that holds keys, innermost first) and,
 * when it counts, to pv_rollup_add(); pv_rollup_end() ends them all.  A
 * scope sums its keys' runs and values, keeps the fewest runs and the
 * least value, and the sum of the squares of their standard errors; with
 * keep_values it keeps the values too, for a median.
 */
#ifndef PV_ROLLUP_H
#define PV_ROLLUP_H

#include <stddef.h>

#include "rec_key.h"

struct pv_roll {
	const struct pv_runkey *first;	/* its first key: &first_key */
	struct pv_runkey first_key;
	size_t keys;
	size_t runs, min_runs;		/* of the keys' runs: sum, fewest */
	double sum, min;		/* of the keys' values */
	double var;			/* the sum of their se^2 ... */
	size_t nse;			/* ... of the nse that have one */
	double *value;			/* keep_values: the values, in order */
	size_t alloc;
};

struct pv_rollup {
	struct pv_roll scope[PV_NSCOPE];
	struct pv_runkey prev;		/* the key given last ... */
	int have_prev;			/* ... if any */
	int keep_values;
	/* write the record of a scope that ends (roll is emptied after) */
	void (*flush)(void *arg, struct pv_roll *roll, enum pv_scope scope);
	void *arg;
};

void pv_rollup_init(struct pv_rollup *r, int keep_values,
		    void (*flush)(void *arg, struct pv_roll *roll,
				  enum pv_scope scope),
		    void *arg);
void pv_rollup_release(struct pv_rollup *r);

/*
 * key comes next: end the scopes it is not in.  The keys are copied (a
 * caller may reuse its own), their strings are not: those must outlive
 * the roll-up.
 */
void pv_rollup_next(struct pv_rollup *r, const struct pv_runkey *key);
/* Add key (the one given last) to every scope; se NaN: it has none. */
void pv_rollup_add(struct pv_rollup *r, const struct pv_runkey *key,
		   size_t runs, double value, double se);
/* End every scope. */
void pv_rollup_end(struct pv_rollup *r);

#endif
