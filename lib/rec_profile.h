/*
 * rec_profile: the codecs of the profile records of pv-format(5): stack
 * (pv-parse(1), pv-collect(1)) and the comparison that pv-diff(1) writes
 * of two profiles, total, dstack and func.
 *
 * Each record type has one struct, one writer and (but stack, which the
 * reader parses itself, record.h) one parser, and nothing else: the
 * figures are computed elsewhere (stackdiff.h), and these only move them
 * between a struct and a line.
 *
 * Writing: pv_rec_TYPE_write() appends one whole line, its newline
 * included, to a strbuf (field.h); the caller writes the buffer out,
 * so that a tool writes many records in one call.
 *
 * Reading: pv_rec_TYPE_parse() fills the struct from a record that the
 * reader returned (its type word already known to be TYPE).  The struct's
 * strings point into the record and stay valid as long as it does.  A
 * malformed record is -1, with the message in e ("func record: ...", or
 * "'func' record has N fields, expected M" for a wrong count); nothing is
 * printed.
 *
 * Everywhere, an empty event stands for '-', an absent one.
 */
#ifndef PV_REC_PROFILE_H
#define PV_REC_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "record.h"
#include "strbuf.h"

/* presence bits: the sides where a stack, or a function, was seen */
#define PV_IN_BASE	1u
#define PV_IN_TARGET	2u

/* stack EVENT SAMPLES PERIOD FRAMES */
struct pv_rec_stack {
	struct pv_str event;
	uint64_t samples, period;
	const struct pv_str *frame;	/* root first, names as they are */
	size_t nframe;
};

void pv_rec_stack_write(struct pv_strbuf *sb, const struct pv_rec_stack *s);

/* total EVENT PERIOD_BASE PERIOD_TARGET SAMPLES_BASE SAMPLES_TARGET */
struct pv_rec_total {
	struct pv_str event;
	uint64_t period[2], samples[2];	/* baseline, target */
};

void pv_rec_total_write(struct pv_strbuf *sb, const struct pv_rec_total *t);
int pv_rec_total_parse(const struct pv_record *rec, struct pv_rec_total *t,
		       struct pv_err *e);

/* dstack EVENT PERIOD_BASE PERIOD_TARGET FRAMES */
struct pv_rec_dstack {
	struct pv_str event;
	uint64_t period[2];		/* baseline, target */
	const struct pv_str *frame;	/* root first */
	size_t nframe;
	/*
	 * Writing: frame[] holds the names already escaped, as
	 * pv_rec_frame_escape() writes them, for a writer of many records
	 * that escapes each distinct name once.  The parser sets it to 0:
	 * its frames are the names, split and unescaped by the reader.
	 */
	int escaped;
	/*
	 * Reading: FRAMES as written.  Without a backslash in it, it is the
	 * names joined by ';', none of which holds a ';', for a reader that
	 * takes the list whole.  Not used for writing.
	 */
	struct pv_str frames_raw;
};

void pv_rec_dstack_write(struct pv_strbuf *sb,
			 const struct pv_rec_dstack *d);
int pv_rec_dstack_parse(const struct pv_record *rec, struct pv_rec_dstack *d,
			struct pv_err *e);

/*
 * func EVENT NAME INCL_BASE EXCL_BASE INCL_TARGET EXCL_TARGET
 *      INCL_PCT_BASE EXCL_PCT_BASE INCL_PCT_TARGET EXCL_PCT_TARGET
 *      DELTA_INCL_PP DELTA_EXCL_PP REL_INCL REL_EXCL PRESENCE
 */
struct pv_rec_func {
	struct pv_str event, name;
	uint64_t incl[2], excl[2];		/* baseline, target */
	double incl_pct[2], excl_pct[2];	/* percent of the total */
	double delta_incl, delta_excl;		/* points, target - base */
	double rel_incl, rel_excl;		/* ratio - 1; NAN is '-' */
	unsigned presence;			/* PV_IN_BASE | PV_IN_TARGET */
};

void pv_rec_func_write(struct pv_strbuf *sb, const struct pv_rec_func *f);
int pv_rec_func_parse(const struct pv_record *rec, struct pv_rec_func *f,
		      struct pv_err *e);

/*
 * Append the name s[0..len) to sb as a frame list writes it: escaped as
 * any field, and ';' as "\;".
 */
void pv_rec_frame_escape(struct pv_strbuf *sb, const char *s, size_t len);

#endif
