/*
 * rec_cmp: the codecs of pv-diff's sample comparisons, pv-format(5):
 *
 *   cmp BASE TARGET EXPERIMENT SUITE TEST OPERATION METRIC UNIT DIRECTION
 *       LEVEL NB NT CHANGE LO HI SE DF BOOT_LO BOOT_HI P_WELCH P_MWU
 *       HEDGES_G CLIFF RCV_B RCV_T OUT_B OUT_T FLAGS HONEST_LO HONEST_HI
 *       HONEST_P TREND ORDER RHO QUANTUM
 *   cmproll BASE TARGET EXPERIMENT SCOPE SUITE TEST KEYS CHANGE LO HI
 *       WORST
 *
 * A cmp record is one key of a baseline against a target (cmp.h computes
 * it); a cmproll the mean change of the keys of a test, suite or pair of
 * sections, its interval and the worst change (rollup.h).  Changes are
 * on the oriented log scale, worse negative.  Derived numbers have ten
 * significant digits, '-' for NaN; FLAGS is a comma-separated list of
 * flag names, or '-'.  The fields after FLAGS (honest.h) are the honest
 * interval the decision rests on, its p-value, the Mann-Kendall z of a
 * trend within the sides, how the sides lie in time ('interleaved',
 * 'apart' or '-'), the pair's serial correlation used, and the quantum of
 * the printed values ('-' for none); a cmp record of 29 fields (written
 * before they were) is read as one whose honest interval is Welch's.
 *
 * Writers append one record, with its newline, to sb.  Parsers fill their
 * struct from a record (PV_REC_OTHER, its fields split and unescaped),
 * strings pointing into rec; they return 0, or -1 with e set.
 */
#ifndef PV_REC_CMP_H
#define PV_REC_CMP_H

#include <stddef.h>

#include "error.h"
#include "rec_key.h"
#include "record.h"
#include "strbuf.h"

/* stability flags */
enum {
	PV_CMP_FEW_RUNS = 1 << 0,	/* a side has fewer than min_runs */
	PV_CMP_UNSTABLE = 1 << 1,	/* a side's robust CV above cv_max */
	PV_CMP_OUTLIERS = 1 << 2,	/* a run beyond outlier_z MADs */
	PV_CMP_BASE_ONLY = 1 << 3,	/* no target runs */
	PV_CMP_TARGET_ONLY = 1 << 4,	/* no baseline runs */
	PV_CMP_ZERO_VAR = 1 << 5,	/* both sides without spread */
	PV_CMP_NONPOSITIVE = 1 << 6,	/* a value <= 0: no log scale */
	PV_CMP_QUANTISED = 1 << 7,	/* rounding of printed values matters */
	PV_CMP_DRIFT = 1 << 8,		/* a trend, or serial correlation */
	PV_CMP_SECONDARY = 1 << 9	/* not the test's primary metric */
};
#define PV_CMP_NFLAGS 10

/* The name of flag 1 << i in FLAGS ("few-runs", ...), i < PV_CMP_NFLAGS. */
const char *pv_rec_cmp_flag_name(int i);

/*
 * One comparison.  key.role holds the baseline's version, key.version the
 * target's (the record's BASE and TARGET).  Values that do not exist are
 * NaN: all but nb, nt, flags when a side is empty; the Welch values, g and
 * the bootstrap when a side has one run; the bootstrap when there was none.
 */
struct pv_cmp {
	struct pv_runkey key;
	/*
	 * the key of a side as pv_rec_key_add(sb, key, 1) writes it, or
	 * empty: written with key's BASE and TARGET (pv_rec_key_add_text())
	 */
	struct pv_str key_text;
	size_t nb, nt;
	double change, lo, hi, se, df, boot_lo, boot_hi;
	double p_welch, p_mwu, g, cliff, rcv_b, rcv_t;
	size_t out_b, out_t;
	unsigned flags;
	/* the honest interval (NaN where lo and hi are) and its p */
	double hlo, hhi, hp;
	double trend;		/* Mann-Kendall z within the sides, or NaN */
	int order;		/* enum pv_order (honest.h) */
	double rho;		/* the pair's serial correlation, or NaN */
	double quantum;		/* of the printed values; 0: none */
};

void pv_rec_cmp_write(struct pv_strbuf *sb, const struct pv_cmp *c);
/* A FLAGS field of flags (its TAB first), and one read back. */
void pv_rec_cmp_flags_add(struct pv_strbuf *sb, unsigned flags);
int pv_rec_cmp_flags_get(struct pv_str s, unsigned *flags);
/* c->key_text is left empty. */
int pv_rec_cmp_parse(const struct pv_record *rec, struct pv_cmp *c,
		     struct pv_err *e);

struct pv_cmproll {
	struct pv_runkey key;	/* its section, suite and test */
	enum pv_scope scope;
	size_t keys;
	double change, lo, hi, worst;
};

void pv_rec_cmproll_write(struct pv_strbuf *sb, const struct pv_cmproll *r);
int pv_rec_cmproll_parse(const struct pv_record *rec, struct pv_cmproll *r,
			 struct pv_err *e);

#endif
