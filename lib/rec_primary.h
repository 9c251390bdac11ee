/*
 * rec_primary: the codec of the primary record, pv-format(5):
 *
 *   primary SUITE TEST OPERATION METRIC
 *
 * The primary metric of a measurement: of the keys of test TEST of suite
 * SUITE, those of OPERATION and METRIC (at every level) say how fast it
 * ran; the test's other keys (totals, times, CPU time rates, latency
 * percentiles) are secondary.  The benchmark readers write one before the
 * first sample of a test in each section; pv-diff marks the comparisons of
 * secondary keys, and pv-classify controls them in families of their own.
 * A test without a primary record has only primary keys.
 *
 * The writer appends one record, with its newline, to sb; the parser
 * fills p from a record (PV_REC_OTHER, its fields split), its strings
 * pointing into rec, returning 0, or -1 with e set.
 */
#ifndef PV_REC_PRIMARY_H
#define PV_REC_PRIMARY_H

#include "error.h"
#include "record.h"
#include "strbuf.h"

struct pv_primary {
	struct pv_str suite, test, operation, metric;
};

void pv_rec_primary_write(struct pv_strbuf *sb, const struct pv_primary *p);
int pv_rec_primary_parse(const struct pv_record *rec, struct pv_primary *p,
			 struct pv_err *e);

#endif
