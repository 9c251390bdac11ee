/*
 * rec_index: the codec of a version store's index lines (pv-format(5),
 * "Index records"; pv-store(1) has the store around them).  An index is a
 * pv-format(5) stream of four kinds of line:
 *
 *   pv-format 1
 *   add   VERSION HASH SIZE CSIZE TIME KINDS COMMIT BRANCH NAME [EXPERIMENT...]
 *   rm    VERSION HASH TIME
 *   tests VERSION HASH [EXPERIMENT SUITE TEST RUNS]...
 *
 * The writer formats one line into a strbuf with lib/field.h; the parser
 * fills a struct pv_rec_index from one line.  There is no computation here:
 * what the lines mean (an rm withdraws the add of its VERSION and HASH, a
 * tests line describes the add after it) is lib/store_index.c's.
 *
 * The parser takes the line, not a struct pv_record: the store reads its
 * index itself (lib/store_index.c), because a line without its newline is
 * a write cut short that readers skip, and a CR is part of a field there.
 * Every field is taken as written: a line of any number of fields (an add
 * line has one an experiment, a tests line four a test, as many as the
 * stream had), TAB-separated, escaped as in every pv stream (record.h).
 * The strings of a parsed line point into the line or into ix's own
 * buffers, valid until the next parse with ix or pv_rec_index_release().
 *
 * Lifecycle: PV_REC_INDEX_INIT or pv_rec_index_init(); any number of
 * parses; pv_rec_index_release().  A struct filled by hand for the writer
 * needs neither.
 */
#ifndef PV_REC_INDEX_H
#define PV_REC_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "record.h"
#include "strbuf.h"

enum pv_rec_index_type {
	PV_REC_INDEX_NONE,	/* a blank line, a comment, a later type */
	PV_REC_INDEX_HEAD,	/* "pv-format 1": the first line */
	PV_REC_INDEX_ADD,
	PV_REC_INDEX_RM,
	PV_REC_INDEX_TESTS
};

/* One test of a tests line; "-" in EXPERIMENT reads as "" (absent). */
struct pv_rec_index_test {
	struct pv_str experiment, suite, test;
	uint64_t runs;
};

struct pv_rec_index {
	enum pv_rec_index_type type;
	/*
	 * add, rm and tests: VERSION and HASH (64 hex digits); rm's TIME is
	 * not read (nothing uses it) and parses as 0.
	 */
	struct pv_str version, hash;
	int64_t time;		/* seconds since 1970, not negative */
	/* add only */
	uint64_t size, csize;
	struct pv_str kinds;			/* "-": neither kind */
	struct pv_str commit, branch, name;	/* s NULL: absent ("-") */
	const struct pv_str *experiment;	/* "-" reads as "" */
	size_t nexperiment;
	/* tests only */
	const struct pv_rec_index_test *test;
	size_t ntest;

	/* the parser's own */
	struct pv_str *field;
	size_t field_alloc;
	struct pv_rec_index_test *test_buf;
	size_t test_alloc;
	struct pv_strbuf unesc;			/* unescaped strings */
};

#define PV_REC_INDEX_INIT { .unesc = PV_STRBUF_INIT }

void pv_rec_index_init(struct pv_rec_index *ix);
void pv_rec_index_release(struct pv_rec_index *ix);

/*
 * Append ix's line, newline included, to sb: the pv-format line, an add,
 * rm or tests line by ix->type (PV_REC_INDEX_NONE writes nothing).  An
 * empty or absent string is written '-', except a test's SUITE and TEST,
 * which are written as they are.
 */
void pv_rec_index_write(struct pv_strbuf *sb, const struct pv_rec_index *ix);

/*
 * Parse line[0..len), without its newline and free of NUL bytes, into ix:
 * 0 with ix->type set (PV_REC_INDEX_NONE for a line to skip), or -1 with
 * e set to what is wrong with the line (the caller adds where it is).
 */
int pv_rec_index_parse(const char *line, size_t len, struct pv_rec_index *ix,
		       struct pv_err *e);

/* Whether line[0..len) can begin an index: a pv-format record. */
int pv_rec_index_is_head(const char *line, size_t len);

#endif
