/*
 * cpgroup: the change points of pv-series as pv-classify judges them: the
 * ones that fail a job (and the outliers that do), and the groups of one operation's change points
 * between the same two versions across its concurrency levels (a change
 * in a code path shows up at several levels, as a systematic regression
 * does).
 *
 * Add every change point (pv_cpgroups_add() copies its strings); then
 * pv_cpgroups_write() appends a cpgroup record (rec_changepoint.h) for
 * every group of two levels or more, in key order: by EXPERIMENT, SUITE,
 * TEST, OPERATION, METRIC, UNIT and DIRECTION, then BEFORE and AFTER, the
 * levels ascending within a group.  Memory grows with the change points.
 */
#ifndef PV_CPGROUP_H
#define PV_CPGROUP_H

#include <stddef.h>

#include "arena.h"
#include "rec_changepoint.h"
#include "strbuf.h"

struct pv_cpgroups {
	struct pv_arena arena;		/* the change points' strings */
	struct pv_changepoint *cp;
	size_t ncp, alloc;
	size_t failing;			/* change points that fail a job */
};

void pv_cpgroups_init(struct pv_cpgroups *g);
void pv_cpgroups_release(struct pv_cpgroups *g);

/*
 * Whether a change point fails a job: for the worse (CHANGE negative),
 * starting at the newest version of its series, and not known.
 */
int pv_changepoint_fails(const struct pv_changepoint *c);
/* The same of an outlier: for the worse, at the newest version, not known. */
int pv_outlier_fails(const struct pv_outlier *o);

void pv_cpgroups_add(struct pv_cpgroups *g, const struct pv_changepoint *c);
/* The cpgroup records, appended to sb (the change points are sorted). */
void pv_cpgroups_write(struct pv_cpgroups *g, struct pv_strbuf *sb);

#endif
