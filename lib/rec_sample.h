/*
 * rec_sample: the codecs of the measured values, pv-format(5):
 *
 *   sample SUITE TEST OPERATION METRIC UNIT DIRECTION LEVEL RUN SEQ VALUE
 *   runval ROLE VERSION EXPERIMENT SUITE TEST OPERATION METRIC UNIT
 *          DIRECTION LEVEL RUN NVALUES VALUE QUANTUM
 *
 * A sample is one value as a benchmark reader found it; the reader
 * (record.h) parses sample records itself, into a struct pv_record.  A
 * runval is a run reduced to one value, the mean of its NVALUES values
 * (runtab.h), which is how pv-stat -S writes partial results and pv-stat
 * -m and pv-diff read them back.  VALUE is written the shortest way that
 * reads back to the same double.  QUANTUM is the quantum of the key's
 * printed values (runtab.h; '-' for none), which the mean has lost; a
 * runval of 14 fields (written before it was) has none.
 *
 * Writers append one record, with its newline, to sb.  Parsers fill their
 * struct from a record (PV_REC_OTHER, its fields split and unescaped),
 * its strings pointing into rec; they return 0, or -1 with e set.
 */
#ifndef PV_REC_SAMPLE_H
#define PV_REC_SAMPLE_H

#include <stdint.h>

#include "error.h"
#include "rec_key.h"
#include "record.h"
#include "strbuf.h"

/* A sample record from rec's fields suite ... val (type PV_REC_SAMPLE). */
void pv_rec_sample_write(struct pv_strbuf *sb, const struct pv_record *rec);

struct pv_runval {
	struct pv_runkey key;
	uint64_t run;
	uint64_t nvalues;	/* at least 1 */
	double value;		/* finite */
	double quantum;		/* of the key's printed values; 0: none */
};

/*
 * A runval record; key_text, when not empty, is the key's text (see
 * rec_key.h) written in place of rv->key.
 */
void pv_rec_runval_write(struct pv_strbuf *sb, const struct pv_runval *rv,
			 struct pv_str key_text);
int pv_rec_runval_parse(const struct pv_record *rec, struct pv_runval *rv,
			struct pv_err *e);

#endif
