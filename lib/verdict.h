/*
 * verdict: from comparisons (cmp records, sampdiff.h) to decisions, as
 * pv-classify makes them; pv-classify(1) states the rules, this header the
 * interface.
 *
 * A pv_classifier takes every comparison (pv_classifier_add()), then
 * pv_classifier_run() controls the false discovery rate in stages (suites,
 * then the tests of the selected suites, then the keys of the selected
 * tests: Benjamini and Bogomolov's selective procedure with Simes' test
 * per family), classifies each key, finds the systematic regressions
 * (every concurrency level of an operation worse) and scores the
 * regressions; pv_classifier_write() writes the records:
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
#ifndef PV_VERDICT_H
#define PV_VERDICT_H

#include <stddef.h>
#include <stdio.h>

#include "arena.h"
#include "record.h"
#include "sampdiff.h"

enum pv_class {
	PV_CLASS_REGRESSION,
	PV_CLASS_IMPROVEMENT,
	PV_CLASS_NO_CHANGE,
	PV_CLASS_UNCERTAIN
};

enum pv_band {
	PV_BAND_NONE,		/* not a regression */
	PV_BAND_GREEN,
	PV_BAND_YELLOW,
	PV_BAND_RED
};

struct pv_verdict_opts {
	double q;		/* false discovery rate, 0.05 */
	double delta;		/* practical threshold, 0.02 */
	double delta_eq;	/* no-change band, 0.05 */
	double cv_max;		/* robust CV gate, 0.10 */
	double cliff_min;	/* rank agreement, 0.474 */
	double outlier_share;	/* outlier runs per side, 0.2 */
	double power;		/* for RUNS and MDE, 0.8 */
	size_t min_runs;	/* 3 */
};

#define PV_VERDICT_OPTS_INIT { 0.05, 0.02, 0.05, 0.10, 0.474, 0.2, 0.8, 3 }

/* where a key first differs from another, in the order keys sort */
enum pv_split {
	PV_SPLIT_PAIR,		/* ROLE, VERSION or EXPERIMENT */
	PV_SPLIT_SUITE,
	PV_SPLIT_TEST,
	PV_SPLIT_GROUP,		/* OPERATION, METRIC, UNIT, DIRECTION */
	PV_SPLIT_LEVEL,
	PV_SPLIT_NONE		/* the same key */
};

struct pv_verdict {
	struct pv_cmp cmp;
	double qvalue;		/* hierarchical adjusted p; NaN if untested */
	enum pv_class cls;
	int severity;		/* 0-100, regressions and improvements */
	enum pv_band band;
	size_t runs;		/* runs per side likely to decide; 0: - */
	const char *reason;	/* in the classifier's arena */
	double mde;		/* smallest detectable change (log), or NaN */
	size_t group;		/* index of its level group */
	int split;		/* pv_split from the one before (run) */
};

struct pv_sysreg {
	size_t first, count;	/* verdicts [first, first + count) */
	size_t levels, regressed, bands[4];
	double dmin, dmax, pooled;
	double p;		/* NaN unless the other conditions hold */
	int systematic;
};

struct pv_classifier {
	struct pv_verdict_opts opt;
	struct pv_arena arena;
	struct pv_verdict *v;
	size_t n, alloc;
	struct pv_sysreg *g;	/* groups of levels, after run */
	size_t ng, galloc;
	struct pv_strbuf why;	/* scratch for the reason texts */
};

void pv_classifier_init(struct pv_classifier *cl,
			const struct pv_verdict_opts *opt);
void pv_classifier_release(struct pv_classifier *cl);
void pv_classifier_add(struct pv_classifier *cl, const struct pv_cmp *c);
void pv_classifier_run(struct pv_classifier *cl);
void pv_classifier_write(struct pv_classifier *cl, FILE *out);

/* The worst band among the regressions, PV_BAND_NONE if there are none. */
enum pv_band pv_classifier_worst(const struct pv_classifier *cl);

const char *pv_class_name(enum pv_class c);
const char *pv_band_name(enum pv_band b);

/*
 * Reading the records back (for pv-render).  pv_verdict_parse() fills v
 * from a verdict record (strings pointing into rec, the reason into
 * *reason, v->reason NULL); pv_sysreg_parse() the
 * fields of a systematic record into key, s and the level list.  They
 * return 0, or -1 with a message in err.
 */
int pv_verdict_parse(const struct pv_record *rec, struct pv_verdict *v,
		     struct pv_str *reason, char *err, size_t errlen);
int pv_sysreg_parse(const struct pv_record *rec, struct pv_runkey *key,
		    struct pv_sysreg *s, struct pv_str *levels, char *err,
		    size_t errlen);
int pv_detect_parse(const struct pv_record *rec, struct pv_cmp *c,
		    double *mde, char *err, size_t errlen);

#endif
