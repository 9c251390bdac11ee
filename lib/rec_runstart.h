/*
 * rec_runstart: the codec of the runstart record, pv-format(5):
 *
 *   runstart RUN ORDER START
 *
 * When run RUN of the section's samples was made: ORDER, its place among
 * the runs of its collection (from 1; '-' when unknown), and START, when
 * it began, in seconds since the epoch ('-' when unknown).  ORDER orders
 * the runs of one section; START places them against the runs of other
 * sections too.  pv-collect and the MMTests reader write them; pv-diff
 * reads them to find a trend across run order, and sides measured one
 * after the other while it lasted (the drift flag).
 *
 * The writer appends one record, with its newline, to sb; the parser
 * fills r from a record (PV_REC_OTHER, its fields split), returning 0, or
 * -1 with e set.
 */
#ifndef PV_REC_RUNSTART_H
#define PV_REC_RUNSTART_H

#include <stdint.h>

#include "error.h"
#include "record.h"
#include "strbuf.h"

struct pv_runstart {
	uint64_t run;
	uint64_t order;		/* PV_NONE when unknown */
	double start;		/* NaN when unknown */
};

void pv_rec_runstart_write(struct pv_strbuf *sb, const struct pv_runstart *r);
int pv_rec_runstart_parse(const struct pv_record *rec, struct pv_runstart *r,
			  struct pv_err *e);

#endif
