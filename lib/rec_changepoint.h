/*
 * rec_changepoint: the codecs of pv-series's records, pv-format(5):
 *
 *   changepoint EXPERIMENT SUITE TEST OPERATION METRIC UNIT DIRECTION LEVEL
 *               BEFORE AFTER CHANGE LO HI P N_BEFORE N_AFTER FLAGS
 *   outlier     EXPERIMENT SUITE TEST OPERATION METRIC UNIT DIRECTION LEVEL
 *               VERSION CHANGE P FLAGS
 *   trend       EXPERIMENT SUITE TEST OPERATION METRIC UNIT DIRECTION LEVEL
 *               FIRST LAST CHANGE LO HI P
 *   cpgroup     EXPERIMENT SUITE TEST OPERATION METRIC UNIT DIRECTION
 *               BEFORE AFTER LEVELS LEVEL_LIST CHANGE_MIN CHANGE_MAX FLAGS
 *   scanned     KEYS VERSIONS
 *
 * The key is a sample's, with its section's EXPERIMENT but without ROLE
 * and VERSION: the records describe a series of versions.  A change point
 * lies between BEFORE, the last version before it, and AFTER, the first
 * after; CHANGE (with its interval LO to HI) is on the log scale, worse
 * negative, as in cmp records; N_BEFORE and N_AFTER count the versions of
 * the segments either side; FLAGS is a comma-separated list of "newest"
 * (AFTER is the series' newest version) and "known" (acknowledged), or
 * '-'.  An outlier is one version off its neighbours, CHANGE its
 * difference from them, FLAGS as a change point's ("newest": VERSION is
 * the series' newest version).  A trend's CHANGE is per version, from FIRST to
 * LAST.  A cpgroup (pv-classify) gathers the change points of one
 * operation between the same versions at LEVELS of its concurrency levels
 * (LEVEL_LIST, comma-separated), with the range of their changes; FLAGS
 * are those all of them have.  One scanned record says what pv-series
 * searched: KEYS keys along two or more versions, of VERSIONS versions in
 * all, so that a series without a change point is known to have been
 * compared.  Derived numbers have ten significant digits, '-' for NaN.
 *
 * Writers append one record, with its newline, to sb; key_text, when not
 * empty, is the key's fields as pv_rec_series_key_add() writes them,
 * written in place of the key.  Parsers fill their struct from a record
 * (PV_REC_OTHER, its fields split and unescaped), strings pointing into
 * rec; they return 0, or -1 with e set.
 */
#ifndef PV_REC_CHANGEPOINT_H
#define PV_REC_CHANGEPOINT_H

#include <stdint.h>

#include "error.h"
#include "rec_key.h"
#include "record.h"
#include "strbuf.h"

enum {
	PV_CHANGEPOINT_NEWEST = 1,	/* AFTER is the newest version */
	PV_CHANGEPOINT_KNOWN = 2	/* acknowledged: does not fail a job */
};

struct pv_changepoint {
	struct pv_runkey key;	/* role and version unused */
	struct pv_str before, after;
	double change, lo, hi, p;
	uint64_t nbefore, nafter;
	unsigned flags;
};

struct pv_outlier {
	struct pv_runkey key;
	struct pv_str version;
	double change, p;
	unsigned flags;		/* PV_CHANGEPOINT_NEWEST, _KNOWN */
};

struct pv_trend {
	struct pv_runkey key;
	struct pv_str first, last;
	double change, lo, hi, p;
};

struct pv_scanned {
	uint64_t keys;		/* keys along two or more versions */
	uint64_t versions;
};

struct pv_cpgroup {
	struct pv_runkey key;	/* role, version and level unused */
	struct pv_str before, after;
	uint64_t levels;
	struct pv_str level_list;
	double change_min, change_max;
	unsigned flags;
};

/* The key fields EXPERIMENT ... LEVEL, each with the TAB before it. */
void pv_rec_series_key_add(struct pv_strbuf *sb, const struct pv_runkey *key);
/*
 * The bytes of a runval record's fields EXPERIMENT ... LEVEL as read,
 * with the TAB before each, when they are in its line (none unescaped
 * elsewhere); else empty.  Where they are a key's text as
 * pv_rec_series_key_add() writes it, they are that key's (to look a key
 * up without writing its text); they may be another spelling of it.
 */
struct pv_str pv_rec_runval_series_key_text(const struct pv_record *rec);

void pv_rec_changepoint_write(struct pv_strbuf *sb,
			      const struct pv_changepoint *c,
			      struct pv_str key_text);
int pv_rec_changepoint_parse(const struct pv_record *rec,
			     struct pv_changepoint *c, struct pv_err *e);

void pv_rec_outlier_write(struct pv_strbuf *sb, const struct pv_outlier *o,
			  struct pv_str key_text);
int pv_rec_outlier_parse(const struct pv_record *rec, struct pv_outlier *o,
			 struct pv_err *e);

void pv_rec_trend_write(struct pv_strbuf *sb, const struct pv_trend *t,
			struct pv_str key_text);
int pv_rec_trend_parse(const struct pv_record *rec, struct pv_trend *t,
		       struct pv_err *e);

/* The key of a cpgroup is that of its change points, without LEVEL. */
void pv_rec_cpgroup_write(struct pv_strbuf *sb, const struct pv_cpgroup *g);
int pv_rec_cpgroup_parse(const struct pv_record *rec, struct pv_cpgroup *g,
			 struct pv_err *e);

void pv_rec_scanned_write(struct pv_strbuf *sb, const struct pv_scanned *s);
int pv_rec_scanned_parse(const struct pv_record *rec, struct pv_scanned *s,
			 struct pv_err *e);

#endif
