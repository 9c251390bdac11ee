/*
 * series: where a key's performance changed along a series of versions,
 * as pv-series(1) finds it.  Computation only: the caller reads the runs,
 * reduces each version of a key to a pv_series_point and writes the
 * records.
 *
 * The unit is the version: its runs are summarised by their count, the
 * mean of their logarithms and the sum of squares about that mean, all a
 * test of means needs.  Values are logs oriented so that higher is better
 * (the log of the value, or its negative when lower is better), so a
 * change is negative when it is worse, as in cmp records.
 *
 * The method, after Otava (Fleming et al., ICPE 2023), with the E-divisive
 * split replaced by binary segmentation on the version means and a t-test
 * that knows both the spread of a version's runs and that of the versions
 * (so that a version's runs are not taken for independent versions):
 *
 *  1. Split: windows of opts.window versions, starting every half window,
 *     are cut by binary segmentation: in an interval the best step (the
 *     largest between-segment sum of squares) and the best single version
 *     (an outlier) are tested, the better one kept when its p-value,
 *     corrected for the positions searched, is at most ten times
 *     opts.alpha (twice from 0.05, as Otava's first pass); the pieces are
 *     cut again.  The union of the cuts of all
 *     windows is the weak candidates.
 *  2. Merge: each candidate is tested between the segments on either side
 *     of it (corrected for the positions of the two segments); the weakest
 *     is dropped while one has a p-value above opts.alpha or a change
 *     smaller than opts.threshold, and its neighbours are tested again.
 *     Two cuts about a version that is an outlier as step 3 judges one
 *     are kept for it: each alone, against one version, is weak where the
 *     version against the versions about it is not, and dropping one would
 *     make the outlier part of a segment, moving its mean.
 *  3. Outliers: a segment of one version between two changes of opposite
 *     sign whose outer segments do not differ, or the first version alone,
 *     is an outlier when it differs from the versions about it by
 *     opts.threshold, with a p-value (corrected for their number) at most
 *     opts.alpha; either way its two changes go.  Outliers are left out
 *     of the statistics and the merge is done again.  A version alone at
 *     the end stays a change: the next version tells.
 *  4. Trend: a line through the versions is a trend instead of the changes
 *     when it fits them better than the steps do (each step beyond the
 *     first costing log(versions) noise variances, as in BIC), its slope
 *     is significant at opts.alpha, stays significant at 5 % with the
 *     steps (or the best single step) beside it, and it moves at least
 *     opts.threshold over the series.  The outliers are then judged again
 *     against the line, and those on it go back into the series.
 *
 * The variance of a test is the runs' pooled variance (within and between
 * versions) unless the version means scatter more than their runs allow
 * (an F-test at 25 %), when it is the between-version mean square alone,
 * on its own degrees of freedom: the test then has the versions, not the
 * runs, for its units.  With one run per version only the latter exists.
 *
 * Incremental use: the windows of the split start at fixed places, so a
 * window that holds opts.window versions never changes; its candidates are
 * kept (cand, nwin) and only the windows at the end are cut again when
 * versions are added.  Adding versions and analysing gives the same result
 * as analysing the whole series at once.
 */
#ifndef PV_SERIES_H
#define PV_SERIES_H

#include <stddef.h>
#include <stdint.h>

/* A version of a key: its runs' oriented logs, summarised. */
struct pv_series_point {
	uint32_t n;		/* runs, at least 1 */
	double mean;		/* mean of the logs */
	double ss;		/* sum of squared deviations about mean */
};

struct pv_series_opts {
	double alpha;		/* largest p-value of a change, 0.005 */
	double threshold;	/* smallest change, as a ratio less 1, 0.02 */
	double conf;		/* level of the intervals, 0.95 */
	size_t window;		/* versions a split looks at, at least 4, 50 */
};

#define PV_SERIES_OPTS_INIT { 0.005, 0.02, 0.95, 50 }

/*
 * A key's series.  pt holds its versions in order; cand the candidates
 * of the first nwin windows (complete ones: they never change), each the
 * index of the first version after a cut, ascending.
 */
struct pv_series {
	struct pv_series_point *pt;
	size_t npt, ptalloc;
	uint32_t *cand;
	size_t ncand, candalloc;
	size_t nwin;
};

#define PV_SERIES_INIT { NULL, 0, 0, NULL, 0, 0, 0 }

void pv_series_init(struct pv_series *s);
void pv_series_release(struct pv_series *s);
/* Append a version. */
void pv_series_add(struct pv_series *s, const struct pv_series_point *p);
/*
 * Forget the windows' candidates, for a series analysed before with other
 * options.
 */
void pv_series_forget(struct pv_series *s);

enum pv_series_kind {
	PV_SERIES_CHANGE,	/* a change point */
	PV_SERIES_OUTLIER	/* one version off the others */
};

/*
 * A change: at is the first version after it, before the last version
 * before it (an outlier just before a change is skipped); change its size
 * (the mean after less the mean before, on the oriented log scale) with
 * its interval [lo, hi] at opts.conf; p its corrected p-value; nbefore
 * and nafter the versions (outliers left out) of the segments on either
 * side.  An outlier: at is the version; change its difference from its
 * segment's mean; p the larger of the p-values of its two sides.
 */
struct pv_series_event {
	enum pv_series_kind kind;
	size_t at, before;
	double change, lo, hi, p;
	size_t nbefore, nafter;
};

/*
 * A trend over the versions first to last (outliers left out): change is
 * the slope, per version, with its interval and p-value.
 */
struct pv_series_trend {
	size_t first, last;
	double change, lo, hi, p;
};

/*
 * The findings of an analysis, events in version order, and the scratch
 * space of the analysis (reused from key to key; one per thread).
 */
struct pv_series_result {
	struct pv_series_event *ev;
	size_t nev, evalloc;
	int has_trend;
	struct pv_series_trend trend;
	struct pv_series_scratch *scratch;
};

void pv_series_result_init(struct pv_series_result *r);
void pv_series_result_release(struct pv_series_result *r);

/*
 * Analyse s with o into r (its findings replaced).  The candidates of the
 * windows that are complete are kept in s, so s changes; two threads may
 * analyse two series at once, each with its own result.
 */
void pv_series_analyse(struct pv_series *s, const struct pv_series_opts *o,
		       struct pv_series_result *r);

#endif
