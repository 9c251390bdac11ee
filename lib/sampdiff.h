/*
 * sampdiff: the comparison of a baseline's runs with a target's runs at one
 * key, and the cmp record that carries it (pv-diff on samples, read back by
 * pv-classify).
 *
 * Everything is on the natural-log scale and oriented so that worse is
 * negative: a run's value v becomes ln(v) when higher is better and -ln(v)
 * when lower is better.  The change is then the difference of the mean
 * logs (the log of the ratio of geometric means), and 100 (exp(change) - 1)
 * the change in percent, positive for better.
 *
 * Record (pv-format(5)), 29 fields, "-" where a value does not exist:
 *   cmp BASE TARGET EXPERIMENT SUITE TEST OPERATION METRIC UNIT DIRECTION
 *       LEVEL NB NT CHANGE LO HI SE DF BOOT_LO BOOT_HI P_WELCH P_MWU
 *       HEDGES_G CLIFF RCV_B RCV_T OUT_B OUT_T FLAGS
 */
#ifndef PV_SAMPDIFF_H
#define PV_SAMPDIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record.h"
#include "runtab.h"
#include "strbuf.h"
#include "symtab.h"

/* stability flags */
enum {
	PV_CMP_FEW_RUNS = 1 << 0,	/* a side has fewer than min_runs */
	PV_CMP_UNSTABLE = 1 << 1,	/* a side's robust CV above cv_max */
	PV_CMP_OUTLIERS = 1 << 2,	/* a run beyond outlier_z MADs */
	PV_CMP_BASE_ONLY = 1 << 3,	/* no target runs */
	PV_CMP_TARGET_ONLY = 1 << 4,	/* no baseline runs */
	PV_CMP_ZERO_VAR = 1 << 5,	/* both sides without spread */
	PV_CMP_NONPOSITIVE = 1 << 6	/* a value <= 0: no log scale */
};
#define PV_CMP_NFLAGS 7

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
 * One comparison.  key.role holds the baseline's version, key.version the
 * target's (the record's BASE and TARGET).  Values that do not exist are
 * NaN: all but nb, nt, flags when a side is empty; the Welch values, g and
 * the bootstrap when a side has one run; the bootstrap when boot is 0.
 */
struct pv_cmp {
	struct pv_runkey key;
	/* the key as pv_runtab_key_text() gives it, or empty */
	struct pv_str key_text;
	size_t nb, nt;
	double change, lo, hi, se, df, boot_lo, boot_hi;
	double p_welch, p_mwu, g, cliff, rcv_b, rcv_t;
	size_t out_b, out_t;
	unsigned flags;
};

/*
 * Compare b[0..nb) with t[0..nt) (run values, either may be empty).  The
 * key's strings are used as given (not copied) and seed the bootstrap, so
 * that each key's interval is the same whatever else is in the run.
 */
void pv_cmp_compute(const struct pv_runkey *key, const double *b, size_t nb,
		    const double *t, size_t nt,
		    const struct pv_cmp_opts *opt, struct pv_cmp *c);

/* Append a cmp record, with its newline, to sb. */
void pv_cmp_format(struct pv_strbuf *sb, const struct pv_cmp *c);

/*
 * Parse a cmp record (PV_REC_OTHER) into c, its strings pointing into rec.
 * Returns 0, or -1 with a message in err.
 */
int pv_cmp_parse(const struct pv_record *rec, struct pv_cmp *c, char *err,
		 size_t errlen);

/* The flag names, comma-separated, or "-" (and parsing them back). */
void pv_cmp_flags_format(struct pv_strbuf *sb, unsigned flags);
int pv_cmp_flags_parse(struct pv_str s, unsigned *flags);

/*
 * Comparability of two sections: their meta and env records.  A pv_kvset
 * holds (type, key, value) triples; a key given twice with different
 * values holds the value "(several values)".
 */
struct pv_kv {
	char *type, *key, *value;
};

struct pv_kvset {
	struct pv_kv *kv;
	size_t nkv, alloc;
	int sorted;
};

void pv_kvset_init(struct pv_kvset *s);
void pv_kvset_release(struct pv_kvset *s);
void pv_kvset_add(struct pv_kvset *s, struct pv_str type, struct pv_str key,
		  struct pv_str value);

/*
 * The keys whose values differ between a and b (or that only one has),
 * apart from the keys in ignore[0..nignore) (matched by "TYPE.KEY", "KEY",
 * or a prefix ending in '*'), described as "meta 'KEY' ('A' vs 'B')" and
 * separated by ", " into why.  Returns their number.
 */
size_t pv_kvset_diff(struct pv_kvset *a, struct pv_kvset *b,
		     const char *const *ignore, size_t nignore,
		     struct pv_strbuf *why);

/* The keys that differ by design between a baseline and a target. */
extern const char *const pv_kv_default_ignore[];
extern const size_t pv_kv_default_nignore;


/*
 * A whole sample comparison, as pv-diff runs it: feed it every record with
 * pv_sampdiff_add(), then pv_sampdiff_finish() pairs each baseline section
 * with each target section of the same EXPERIMENT, refuses pairs whose
 * meta or env records differ, and writes the cmp records of every key of
 * every pair (sorted by BASE, TARGET, EXPERIMENT and key) and their
 * roll-ups:
 *   cmproll BASE TARGET EXPERIMENT SCOPE SUITE TEST KEYS CHANGE LO HI WORST
 * SCOPE is test, suite or run; CHANGE the mean of the keys' changes (the
 * log of the geometric mean of their ratios); LO and HI its interval from
 * the keys' standard errors (normal, independent keys); WORST the lowest
 * change.
 *
 * Run values come from runval records where the input has any (the output
 * of pv-stat), otherwise from the sample records.
 */
struct pv_sampdiff_section {
	struct pv_str role, version, experiment;
	struct pv_kvset kv;
};

struct pv_sampdiff {
	struct pv_cmp_opts opt;
	struct pv_runtab samples, runvals;
	struct pv_symtab secnames;	/* "ROLE\tVERSION\tEXPERIMENT" */
	struct pv_sampdiff_section *sec;
	size_t nsec, secalloc;
	size_t cur;			/* the current section */
	struct pv_strbuf scratch;
	size_t npairs, ncmp;		/* after finish */
	char err[512];
};

void pv_sampdiff_init(struct pv_sampdiff *d, const struct pv_cmp_opts *opt);
void pv_sampdiff_release(struct pv_sampdiff *d);

/*
 * Take in one record.  Returns 1 when the record is to be passed on, 0
 * when it is to be dropped (cmp and cmproll records of an earlier pv-diff,
 * computed again), -1 on a malformed record of ours (message in d->err).
 */
int pv_sampdiff_add(struct pv_sampdiff *d, const struct pv_record *rec);

/*
 * Compare and write.  ignore: keys that may differ (see pv_kvset_diff()).
 * Returns the number of keys whose interval excludes no change, or -1 with
 * the refusal in d->err (nothing written).
 */
long pv_sampdiff_finish(struct pv_sampdiff *d, FILE *out,
			const char *const *ignore, size_t nignore);

#endif
