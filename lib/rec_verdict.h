/*
 * rec_verdict: the codecs of pv-classify's records, pv-format(5):
 *
 *   verdict BASE TARGET EXPERIMENT SUITE TEST OPERATION METRIC UNIT
 *           DIRECTION LEVEL CLASS SEVERITY BAND CHANGE LO HI QVALUE NB NT
 *           RUNS REASON FLAGS
 *   systematic BASE TARGET EXPERIMENT SUITE TEST OPERATION METRIC UNIT
 *           DIRECTION LEVELS REGRESSED LEVEL_LIST RED YELLOW GREEN
 *           CHANGE_MIN CHANGE_MAX POOLED P
 *   detect BASE TARGET EXPERIMENT SUITE TEST OPERATION METRIC UNIT
 *           DIRECTION LEVEL NB NT RCV_B RCV_T MDE
 *
 * The decisions are the classifier's (classifier.h); this is what they
 * look like as records, and all that a reader of them (pv-render) needs,
 * without the statistics.  Changes are on the oriented log scale of cmp
 * records (worse negative).  A verdict's LO and HI are the honest interval
 * the decision rests on; FLAGS the cmp record's flag names (rec_cmp.h),
 * '-' for none; a verdict of 22 fields (written before FLAGS was) has
 * none.
 *
 * Writers append one record, with its newline, to sb; key_text, when not
 * empty, is the key's text (see rec_key.h) written in place of the key.
 * Parsers fill their structs from a record (PV_REC_OTHER, its fields split
 * and unescaped), strings pointing into rec; they return 0, or -1 with e
 * set.
 */
#ifndef PV_REC_VERDICT_H
#define PV_REC_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "rec_cmp.h"
#include "rec_key.h"
#include "record.h"
#include "strbuf.h"

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

/* "regression", ...; "-", "green", "yellow", "red" */
const char *pv_class_name(enum pv_class c);
const char *pv_band_name(enum pv_band b);

/*
 * A decision on a comparison.  The record carries cmp's key, change, lo,
 * hi, nb and nt; mde goes in the detect record; group and split are the
 * classifier's.
 */
struct pv_verdict {
	struct pv_cmp cmp;
	double qvalue;		/* hierarchical adjusted p; NaN if untested */
	enum pv_class cls;
	int severity;		/* 0-100, regressions and improvements */
	enum pv_band band;
	size_t runs;		/* runs per side likely to decide; 0: - */
	const char *reason;
	unsigned flags;		/* PV_CMP_* */
	double mde;		/* smallest detectable change (log), or NaN */
	size_t group;		/* index of its level group */
	int split;		/* where its key parts from the one before */
};

/* A group of levels of one operation (the classifier's, and a record). */
struct pv_sysreg {
	size_t first, count;	/* verdicts [first, first + count) */
	size_t levels, regressed, bands[4];
	double dmin, dmax, pooled;
	double p;		/* NaN unless the other conditions hold */
	int systematic;
};

void pv_rec_verdict_write(struct pv_strbuf *sb, const struct pv_verdict *v,
			  struct pv_str key_text);
/* The reason goes to *reason; v->reason is NULL. */
int pv_rec_verdict_parse(const struct pv_record *rec, struct pv_verdict *v,
			 struct pv_str *reason, struct pv_err *e);

/*
 * A systematic record of the group s of key (its LEVEL is not written;
 * key_text may be the text of any key of the group), the levels of its
 * comparisons level[0..nlevel) in LEVEL_LIST.
 */
void pv_rec_systematic_write(struct pv_strbuf *sb,
			     const struct pv_runkey *key,
			     struct pv_str key_text,
			     const struct pv_sysreg *s, const uint64_t *level,
			     size_t nlevel);
/* key->level is PV_NONE; LEVEL_LIST goes to *levels, as written. */
int pv_rec_systematic_parse(const struct pv_record *rec,
			    struct pv_runkey *key, struct pv_sysreg *s,
			    struct pv_str *levels, struct pv_err *e);

/* A detect record of c's key, nb, nt, rcv_b and rcv_t, and mde. */
void pv_rec_detect_write(struct pv_strbuf *sb, const struct pv_cmp *c,
			 double mde, struct pv_str key_text);
int pv_rec_detect_parse(const struct pv_record *rec, struct pv_cmp *c,
			double *mde, struct pv_err *e);

#endif
