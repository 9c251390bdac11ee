/*
 * classifier: from comparisons (cmp records, rec_cmp.h) to decisions, as
 * pv-classify makes them; pv-classify(1) states the rules, this header the
 * interface.
 *
 * A pv_classifier takes every comparison (pv_classifier_add()), then
 * pv_classifier_run() decides each baseline and target pair on its own:
 * it controls the false discovery rate in two stages over the pair's
 * families, its tests (the keys of primary metrics and of secondary ones
 * apart), by Benjamini and Bogomolov's selective procedure with Simes'
 * test per family, on the p-values of the honest intervals (rec_cmp.h);
 * classifies each key against its metric's threshold; finds the
 * systematic regressions (every concurrency level of an operation
 * shifted: the groups that are, in cl->g); scores the regressions by the
 * change their interval supports; and plans the runs that would decide
 * the Uncertain ones.
 * pv_classifier_write() writes the records (rec_verdict.h):
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
 * Memory: about 170 bytes a comparison (struct pv_classifier_key), the
 * strings once each; the reasons are made again when written.
 */
#ifndef PV_CLASSIFIER_H
#define PV_CLASSIFIER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rec_cmp.h"
#include "rec_verdict.h"
#include "strbuf.h"
#include "symtab.h"

/* a metric's own threshold */
struct pv_delta {
	const char *metric;
	double delta;
};

struct pv_classifier_opts {
	double q;		/* false discovery rate, 0.05 */
	double delta;		/* the threshold, 0.02 */
	double band;		/* No change inside +-band (<= delta); 0: delta */
	double cv_max;		/* the unstable flag's robust CV, 0.10 */
	double power;		/* of the MDE, 0.8 */
	size_t min_runs;	/* the few-runs flag's, 3 */
	double decide_power;	/* of the runs that would decide, 0.8 */
	double plan_bound;	/* the noise's bound for planning them, 0.1 */
	const struct pv_delta *deltas;	/* per metric; borrowed */
	size_t ndelta;
};

#define PV_CLASSIFIER_OPTS_INIT \
	{ 0.05, 0.02, 0, 0.10, 0.8, 3, 0.8, 0.1, NULL, 0 }

/* where a key first differs from another, in the order keys sort */
enum pv_split {
	PV_SPLIT_PAIR,		/* ROLE, VERSION or EXPERIMENT */
	PV_SPLIT_SUITE,
	PV_SPLIT_TEST,
	PV_SPLIT_GROUP,		/* OPERATION, METRIC, UNIT, DIRECTION */
	PV_SPLIT_LEVEL,
	PV_SPLIT_NONE		/* the same key */
};

/*
 * What the classifier keeps of a comparison until the global step ends:
 * the numbers the families, the classes, the systematic rule and the
 * records need, the key's strings as ids (interned once: a million keys
 * repeat a few thousand strings), and the decisions.  A third of a
 * struct pv_verdict: pv_classifier_get() makes one again.
 */
struct pv_classifier_key {
	double change, lo, hi, se, df;	/* the cmp record's */
	double hlo, hhi, hp;		/* its honest interval and p */
	double rcv_b, rcv_t;
	double qvalue, mde;		/* decided */
	size_t nb, nt;
	uint64_t level;
	uint32_t sid[8];	/* ROLE ... UNIT, ids of cl->strs */
	uint32_t runs;		/* runs a side likely to decide; 0: - */
	uint16_t cflags;	/* the cmp record's flags */
	uint16_t flags;		/* the verdict's */
	uint8_t direction;	/* enum pv_direction */
	uint8_t cls;		/* enum pv_class */
	uint8_t severity;	/* 0-100 */
	uint8_t band;		/* enum pv_band */
	uint8_t split;		/* enum pv_split, from the key before */
};

struct pv_classifier {
	struct pv_classifier_opts opt;
	struct pv_symtab strs;		/* the keys' strings */
	struct pv_classifier_key *k;	/* in key order after run */
	size_t n, alloc;
	/* the systematic groups of levels, after run */
	struct pv_sysreg *g;
	size_t ng, galloc;
	struct pv_strbuf why;	/* scratch for the reason texts */
	uint64_t *level;	/* scratch for a systematic record's levels */
	size_t level_alloc;
	/* each pair's first verdict and prior, after run */
	struct pv_classifier_pair {
		size_t start;
		double mu, tau2;
		size_t ntested;
	} *pair;
	size_t npair, pair_alloc;
	/* log(1 - d) and log(1 + d) of the last d asked (NaN: none) */
	double logd, logd_lo, logd_hi;
};

void pv_classifier_init(struct pv_classifier *cl,
			const struct pv_classifier_opts *opt);
void pv_classifier_release(struct pv_classifier *cl);
void pv_classifier_add(struct pv_classifier *cl, const struct pv_cmp *c);
void pv_classifier_run(struct pv_classifier *cl);
/*
 * Verdict i (in key order, after run) made again as a struct pv_verdict:
 * its comparison's key (strings owned by cl), the numbers kept (the cmp
 * fields the classifier does not use are NaN or 0), the decisions;
 * v->reason is NULL (pv_classifier_reason()), v->group 0.
 */
void pv_classifier_get(const struct pv_classifier *cl, size_t i,
		       struct pv_verdict *v);
void pv_classifier_write(struct pv_classifier *cl, FILE *out);

/*
 * The reason text of verdict i, after run: made again from what decided
 * it (a million keys' reasons are not kept; v[i].reason is NULL), valid
 * until the next call.
 */
const char *pv_classifier_reason(struct pv_classifier *cl, size_t i);

/*
 * The worst band among the regressions of primary metrics (a secondary
 * metric's regression repeats its test's primary one), PV_BAND_NONE if
 * there are none.
 */
enum pv_band pv_classifier_worst(const struct pv_classifier *cl);

#endif
