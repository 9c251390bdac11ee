/*
 * rec_profile: the codecs of the profile records of pv-format(5): stack
 * and frame (pv-parse(1), pv-collect(1)) and the comparison that pv-diff(1)
 * writes of two profiles, rootmerge, total, dstack, func, group, match and
 * path.
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
	 * FRAMES as written.  Reading: without a backslash in it, it is the
	 * names joined by ';', none of which holds a ';', for a reader that
	 * takes the list whole.  Writing: with escaped set and frame NULL,
	 * the names already escaped and joined by ';', copied as they are,
	 * for a writer that keeps the path of a walk so; else not used.
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
 * frame NAME SPACE MODULE FILE SUBSYSTEM: what is known of a frame name of
 * the section's stacks.  SPACE is "kernel", "user" or absent; the others
 * are free text, absent where not known.
 */
struct pv_rec_frame {
	struct pv_str name;
	struct pv_str space, module, file, subsys;	/* empty: absent */
};

void pv_rec_frame_write(struct pv_strbuf *sb, const struct pv_rec_frame *f);
int pv_rec_frame_parse(const struct pv_record *rec, struct pv_rec_frame *f,
		       struct pv_err *e);

/*
 * The figures that func, group, match and path records share, in this
 * order: INCL_BASE EXCL_BASE INCL_TARGET EXCL_TARGET INCL_PCT_BASE
 * EXCL_PCT_BASE INCL_PCT_TARGET EXCL_PCT_TARGET DELTA_INCL_PP DELTA_EXCL_PP
 * REL_INCL REL_EXCL.
 */
struct pv_rec_figures {
	uint64_t incl[2], excl[2];		/* baseline, target */
	double incl_pct[2], excl_pct[2];	/* percent of the total */
	double delta_incl, delta_excl;		/* points, target - base */
	double rel_incl, rel_excl;		/* ratio - 1; NAN is '-' */
};

/* the kinds of a group record, as written */
enum {
	PV_GROUP_SPACE,
	PV_GROUP_MODULE,
	PV_GROUP_FILE,
	PV_GROUP_SUBSYSTEM,
	PV_GROUP_NKINDS
};

extern const char *const pv_rec_group_kind[PV_GROUP_NKINDS];

/* group EVENT KIND NAME FIGURES PRESENCE */
struct pv_rec_group {
	struct pv_str event, name;
	unsigned kind;				/* PV_GROUP_* */
	struct pv_rec_figures fig;
	unsigned presence;			/* PV_IN_BASE | PV_IN_TARGET */
};

void pv_rec_group_write(struct pv_strbuf *sb, const struct pv_rec_group *g);
int pv_rec_group_parse(const struct pv_record *rec, struct pv_rec_group *g,
		       struct pv_err *e);

/*
 * match EVENT BASE_NAME TARGET_NAME FIGURES SCORE: a function seen in the
 * baseline only paired with one seen in the target only; the baseline's
 * figures are BASE_NAME's, the target's TARGET_NAME's.  SCORE is in
 * [0, 1].
 */
struct pv_rec_match {
	struct pv_str event, name[2];		/* baseline's, target's */
	struct pv_rec_figures fig;
	double score;
};

void pv_rec_match_write(struct pv_strbuf *sb, const struct pv_rec_match *m);
int pv_rec_match_parse(const struct pv_record *rec, struct pv_rec_match *m,
		       struct pv_err *e);

/*
 * path EVENT DIRECTION FIGURES FRAMES: a call path of a function, FRAMES
 * starting at the function: its callers outward (DIRECTION "callers") or
 * its callees inward ("callees").  FRAMES is a frame list as a stack
 * record's; the reader splits it (record.h).
 */
enum {
	PV_PATH_CALLERS,
	PV_PATH_CALLEES
};

struct pv_rec_path {
	struct pv_str event;
	unsigned dir;				/* PV_PATH_* */
	struct pv_rec_figures fig;
	const struct pv_str *frame;		/* the function first */
	size_t nframe;
};

void pv_rec_path_write(struct pv_strbuf *sb, const struct pv_rec_path *p);
int pv_rec_path_parse(const struct pv_record *rec, struct pv_rec_path *p,
		      struct pv_err *e);

/*
 * rootmerge BASE_ROOT TARGET_ROOT SCORE: two root frames taken as one (the
 * names of one program's processes in two builds), the stacks named by
 * the target's.
 */
struct pv_rec_rootmerge {
	struct pv_str name[2];			/* baseline's, target's */
	double score;
};

void pv_rec_rootmerge_write(struct pv_strbuf *sb,
			    const struct pv_rec_rootmerge *m);
int pv_rec_rootmerge_parse(const struct pv_record *rec,
			   struct pv_rec_rootmerge *m, struct pv_err *e);

/*
 * Append the name s[0..len) to sb as a frame list writes it: escaped as
 * any field, and ';' as "\;".
 */
void pv_rec_frame_escape(struct pv_strbuf *sb, const char *s, size_t len);

#endif
