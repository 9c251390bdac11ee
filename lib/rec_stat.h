/*
 * rec_stat: the codecs of pv-stat's records, pv-format(5):
 *
 *   stat ROLE VERSION EXPERIMENT SUITE TEST OPERATION METRIC UNIT
 *        DIRECTION LEVEL N MEAN MEDIAN SD CV RCV MIN MAX MEAN_LO MEAN_HI
 *        MEDIAN_LO MEDIAN_HI MEDIAN_COVER REPLICATE
 *   statroll ROLE VERSION EXPERIMENT SCOPE SUITE TEST KEYS RUNS MIN_N
 *        MEDIAN_RCV MAX_RCV
 *
 * A stat record is a key's summary over its runs (struct pv_summary of
 * stats.h, which computes it); a statroll the noise of the keys of a test,
 * suite or section (rollup.h).  Derived numbers have ten significant
 * digits, '-' for NaN.  REPLICATE names the independent unit the summary
 * counts: 'run' (a run's values averaged to one) or 'sample' (every value
 * its own); a stat record of 24 fields (written before it was) is by run.
 *
 * Writers append one record, with its newline, to sb.  Parsers fill their
 * structs from a record (PV_REC_OTHER, its fields split and unescaped),
 * strings pointing into rec; they return 0, or -1 with e set.
 */
#ifndef PV_REC_STAT_H
#define PV_REC_STAT_H

#include <stddef.h>

#include "error.h"
#include "rec_key.h"
#include "record.h"
#include "stats.h"
#include "strbuf.h"

/* the independent unit of a summary */
enum pv_replicate {
	PV_REPLICATE_RUN,
	PV_REPLICATE_SAMPLE
};

/*
 * A stat record of s, its unit rep; key_text, when not empty, is the key's
 * text (see rec_key.h) written in place of key.
 */
void pv_rec_stat_write(struct pv_strbuf *sb, const struct pv_runkey *key,
		       struct pv_str key_text, const struct pv_summary *s,
		       enum pv_replicate rep);
/* s->mad, which the record does not carry, is NaN. */
int pv_rec_stat_parse(const struct pv_record *rec, struct pv_runkey *key,
		      struct pv_summary *s, enum pv_replicate *rep,
		      struct pv_err *e);

struct pv_statroll {
	struct pv_runkey key;	/* its section, suite and test */
	enum pv_scope scope;
	size_t keys, runs, min_n;
	double median_rcv, max_rcv;
};

void pv_rec_statroll_write(struct pv_strbuf *sb, const struct pv_statroll *r);
int pv_rec_statroll_parse(const struct pv_record *rec,
			  struct pv_statroll *r, struct pv_err *e);

#endif
