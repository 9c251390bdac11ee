/*
 * cmp: the comparison of a baseline's runs with a target's runs at one
 * key, as pv-diff makes it for every key (sampdiff.h) and writes it as a
 * cmp record (rec_cmp.h, which holds struct pv_cmp and its flags).
 *
 * Everything is on the natural-log scale and oriented so that worse is
 * negative: a run's value v becomes ln(v) when higher is better and -ln(v)
 * when lower is better.  The change is then the difference of the mean
 * logs (the log of the ratio of geometric means), and 100 (exp(change) - 1)
 * the change in percent, positive for better.
 */
#ifndef PV_CMP_H
#define PV_CMP_H

#include <stddef.h>

#include "honest.h"
#include "rec_cmp.h"
#include "rec_key.h"

struct pv_cmp_opts {
	double conf;		/* interval level, 0.95 */
	unsigned boot;		/* bootstrap resamples; 0: none */
	size_t min_runs;	/* 3 */
	double cv_max;		/* 0.10 */
	double outlier_z;	/* 3.5 */
	size_t jobs;		/* threads of pv_sampdiff_finish(); 0: a CPU */
};

#define PV_CMP_OPTS_INIT { 0.95, 1000, 3, 0.10, 3.5, 0 }

/*
 * Compare b[0..nb) with t[0..nt) (run values, either may be empty) into
 * c, their times unknown and their values unrounded, as one key alone.
 * The key's strings are used as given (not copied) and seed the
 * bootstrap, so that each key's interval is the same whatever else is in
 * the run.  c->key_text is left empty.
 */
void pv_cmp_compute(const struct pv_runkey *key, const double *b, size_t nb,
		    const double *t, size_t nt,
		    const struct pv_cmp_opts *opt, struct pv_cmp *c);

/*
 * The same from each side's runs (pv_honest_side: values, times where
 * known, the quantum of the printed values), in two steps, as pv-diff
 * takes them: pv_cmp_compute_sides() for each key, its honest interval's
 * parts in h (the caller's, pv_honest_release() after), then
 * pv_cmp_pair() over the keys of one baseline and target, which pools
 * their evidence of drift and sets each c's honest interval, its p and the
 * quantised and drift flags.
 */
void pv_cmp_compute_sides(const struct pv_runkey *key,
			  const struct pv_honest_side *b,
			  const struct pv_honest_side *t,
			  const struct pv_cmp_opts *opt, struct pv_cmp *c,
			  struct pv_honest *h);
void pv_cmp_pair(struct pv_cmp *c, struct pv_honest *h, size_t n,
		 const struct pv_cmp_opts *opt);

#endif
