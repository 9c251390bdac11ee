/*
 * classifier: from comparisons (cmp records, rec_cmp.h) to decisions, as
 * pv-classify makes them; pv-classify(1) states the rules, this header the
 * interface.
 *
 * A pv_classifier takes every comparison (pv_classifier_add()), then
 * pv_classifier_run() controls the false discovery rate in stages (suites,
 * then the tests of the selected suites, then the keys of the selected
 * tests: Benjamini and Bogomolov's selective procedure with Simes' test
 * per family), classifies each key, finds the systematic regressions
 * (every concurrency level of an operation worse) and scores the
 * regressions; pv_classifier_write() writes the records (rec_verdict.h):
 *
 *   verdict BASE TARGET EXPERIMENT SUITE TEST OPERATION METRIC UNIT
 *           DIRECTION LEVEL CLASS SEVERITY BAND CHANGE LO HI QVALUE NB NT
 *           RUNS REASON
 *   systematic BASE TARGET EXPERIMENT SUITE TEST OPERATION METRIC UNIT
 *           DIRECTION LEVELS REGRESSED LEVEL_LIST RED YELLOW GREEN
 *           CHANGE_MIN CHANGE_MAX POOLED P
 *   detect BASE TARGET EXPERIMENT SUITE TEST OPERATION METRIC UNIT
 *           DIRECTION LEVEL NB NT RCV_B RCV_T MDE
 *
 * Changes are on the oriented log scale of cmp records (worse negative).
 * The strings of the comparisons are copied; the classifier owns them.
 */
#ifndef PV_CLASSIFIER_H
#define PV_CLASSIFIER_H

#include <stddef.h>
#include <stdio.h>

#include "arena.h"
#include "rec_cmp.h"
#include "rec_verdict.h"

struct pv_classifier_opts {
	double q;		/* false discovery rate, 0.05 */
	double delta;		/* practical threshold, 0.02 */
	double delta_eq;	/* no-change band, 0.05 */
	double cv_max;		/* robust CV gate, 0.10 */
	double cliff_min;	/* rank agreement, 0.474 */
	double outlier_share;	/* outlier runs per side, 0.2 */
	double power;		/* for RUNS and MDE, 0.8 */
	size_t min_runs;	/* 3 */
};

#define PV_CLASSIFIER_OPTS_INIT \
	{ 0.05, 0.02, 0.05, 0.10, 0.474, 0.2, 0.8, 3 }

/* where a key first differs from another, in the order keys sort */
enum pv_split {
	PV_SPLIT_PAIR,		/* ROLE, VERSION or EXPERIMENT */
	PV_SPLIT_SUITE,
	PV_SPLIT_TEST,
	PV_SPLIT_GROUP,		/* OPERATION, METRIC, UNIT, DIRECTION */
	PV_SPLIT_LEVEL,
	PV_SPLIT_NONE		/* the same key */
};

struct pv_classifier {
	struct pv_classifier_opts opt;
	struct pv_arena arena;
	struct pv_verdict *v;
	size_t n, alloc;
	struct pv_sysreg *g;	/* groups of levels, after run */
	size_t ng, galloc;
	struct pv_strbuf why;	/* scratch for the reason texts */
	uint64_t *level;	/* scratch for a systematic record's levels */
	size_t level_alloc;
};

void pv_classifier_init(struct pv_classifier *cl,
			const struct pv_classifier_opts *opt);
void pv_classifier_release(struct pv_classifier *cl);
void pv_classifier_add(struct pv_classifier *cl, const struct pv_cmp *c);
void pv_classifier_run(struct pv_classifier *cl);
void pv_classifier_write(struct pv_classifier *cl, FILE *out);

/* The worst band among the regressions, PV_BAND_NONE if there are none. */
enum pv_band pv_classifier_worst(const struct pv_classifier *cl);

#endif
