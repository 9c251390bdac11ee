/*
 * record: the pv interchange format, pv-format(5).  This module knows its
 * syntax: it reads records (and plain folded stacks) from a pv_input and
 * writes them to a stdio stream.  The fields of the record types are
 * written (and, for the types the reader leaves as PV_REC_OTHER, parsed)
 * by one codec per type, lib/rec_*.c, from the field primitives of
 * field.h; nothing else formats a record.
 *
 * A stream is text, one record a line, fields separated by TAB, the first
 * field naming the record type.  In every field, backslash, TAB, newline
 * and carriage return are written as \\ \t \n \r (and NUL as \0); inside
 * the frame list of a stack record, a ';' belonging to a frame name is
 * written \; so that an unescaped ';' separates frames.  Every other byte,
 * non-ASCII included, stands for itself.
 *
 * Reading: pv_reader_next() fills a struct pv_record whose strings point
 * into the reader's buffers and stay valid until the next call.  Record
 * types this module does not know are returned as PV_REC_OTHER with their
 * fields split and unescaped and their raw line kept, so that a tool can
 * pass them on unchanged with pv_write_raw(); a dstack record (pv-diff(1))
 * of five fields, or a path record of sixteen, is PV_REC_OTHER too, its
 * frame list (field[4], field[15]) kept escaped and split into frame and
 * nframe as a stack record's, so that no reader of these splits frames
 * again (rec_profile.h).  Errors
 * are returned as -1 with "FILE:LINE: message" parts in the reader
 * (pv_reader_error()); the module never prints.
 */
#ifndef PV_RECORD_H
#define PV_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "strbuf.h"

#define PV_FORMAT_NAME "pv-format"
#define PV_FORMAT_VERSION 1

/* A byte string that is not NUL-terminated unless said so. */
struct pv_str {
	const char *s;
	size_t len;
};

enum pv_rec_type {
	PV_REC_VERSION,		/* pv-format VERSION */
	PV_REC_SECTION,		/* section ROLE VERSION EXPERIMENT */
	PV_REC_META,		/* meta KEY VALUE */
	PV_REC_ENV,		/* env KEY VALUE */
	PV_REC_STACK,		/* stack EVENT SAMPLES PERIOD FRAMES; or folded */
	PV_REC_SAMPLE,		/* sample SUITE TEST OPERATION METRIC UNIT
				   DIRECTION LEVEL RUN SEQ VALUE */
	PV_REC_OTHER		/* any other type: pass it on */
};

enum pv_direction {
	PV_HIGHER_BETTER,
	PV_LOWER_BETTER
};

/* "-" in LEVEL or SEQ: not given */
#define PV_NONE UINT64_MAX

struct pv_record {
	enum pv_rec_type type;
	struct pv_str raw;	/* the line as read, without its newline */
	/*
	 * 0 for a record; 1 for a plain folded line "FRAMES COUNT"; 2 for a
	 * diff-folded line "FRAMES COUNT1 COUNT2" (period holds COUNT1,
	 * period2 COUNT2).  A folded line has no escapes and no event.
	 */
	int folded;
	uint64_t period2;

	/* every record: its fields, unescaped; field[0] is the type */
	struct pv_str *field;
	size_t nfield;

	/* PV_REC_SECTION: field[1..3]; an absent value ("-") has len 0 */
	struct pv_str role, version, experiment;
	/* PV_REC_META, PV_REC_ENV */
	struct pv_str key, value;
	/* PV_REC_STACK: event is empty for folded lines */
	struct pv_str event;
	uint64_t samples, period;
	struct pv_str *frame;	/* root first; a dstack's, a path's too */
	size_t nframe;
	/* PV_REC_SAMPLE */
	struct pv_str suite, test, operation, metric, unit;
	enum pv_direction direction;
	uint64_t level, run, seq;	/* level, seq: PV_NONE when "-" */
	double val;
};

struct pv_reader;

/*
 * Open a reader on path ("-" or NULL: standard input).  Returns NULL with
 * errno set when the file cannot be opened.
 */
struct pv_reader *pv_reader_open(const char *path);
/* A reader of the input in, which it owns from now on (input.h). */
struct pv_input;
struct pv_reader *pv_reader_open_input(struct pv_input *in);
void pv_reader_close(struct pv_reader *r);

/*
 * Read the next record: 1 and *rec filled, 0 at the end, -1 on an error
 * (pv_reader_error()).  Blank lines and lines starting with '#' are
 * skipped.  A version record is checked and returned.  After an error the
 * reader returns -1 again.
 */
int pv_reader_next(struct pv_reader *r, struct pv_record *rec);

/*
 * Start again from the first record, while the lines read are still
 * buffered (pv_input_rewind()): 0, or -1 when that is not possible.
 */
int pv_reader_rewind(struct pv_reader *r);

/*
 * Parse only the records whose type is in types (a NULL-terminated array
 * that must outlive the reader), besides pv-format and section records;
 * the others come back as PV_REC_OTHER with their type word as the one
 * field and their line in raw, unchecked, for a tool that passes them on
 * without looking.  NULL (the default) parses every record.
 */
void pv_reader_use(struct pv_reader *r, const char *const *types);

/*
 * Leave the frame lists of dstack and path records unsplit (on != 0), for
 * a reader that takes FRAMES whole (pv-render --format=diff-folded): such
 * a record then comes with frame NULL and nframe 0, its list still escaped
 * in its field (field[4], field[15]) until pv_reader_split_frames().
 * Stack records and folded lines are split as ever.
 */
void pv_reader_keep_frames(struct pv_reader *r, int on);
/*
 * Split the frame list of rec, the record just read, as pv_reader_next()
 * does without pv_reader_keep_frames(): once, before the next record is
 * read.  Returns 0, or -1 for a bad escape (pv_reader_error()).
 */
int pv_reader_split_frames(struct pv_reader *r, struct pv_record *rec);

const char *pv_reader_name(const struct pv_reader *r);
unsigned long pv_reader_lineno(const struct pv_reader *r);
const char *pv_reader_error(const struct pv_reader *r);

/* Equality of a pv_str with a C string (inline: strlen of a literal folds). */
static inline int
pv_str_eq(struct pv_str a, const char *s)
{
	size_t n = strlen(s);

	return a.len == n && memcmp(a.s, s, n) == 0;
}
/*
 * Byte-wise comparison, as memcmp over the shorter then by length.  Inline
 * with two shortcuts, because sorting keys of many fields calls it most:
 * one copy of a string (interned, runtab.h) is equal to itself, and most
 * strings that differ do so in the first byte.
 */
static inline int
pv_str_cmp(struct pv_str a, struct pv_str b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int c;

	if (a.s == b.s || n == 0)
		return a.len < b.len ? -1 : a.len > b.len;
	if (a.s[0] != b.s[0])
		return (unsigned char)a.s[0] < (unsigned char)b.s[0] ? -1 : 1;
	if ((c = memcmp(a.s, b.s, n)) != 0)
		return c;
	return a.len < b.len ? -1 : a.len > b.len;
}

/*
 * Parsers of the format's scalar fields, used by the reader and by tools
 * for their own record types: a decimal uint64_t without sign, spaces or
 * overflow; a finite double.  They return 0, or -1 for a bad value.
 */
int pv_parse_u64(const char *s, size_t len, uint64_t *out);
int pv_parse_double(const char *s, size_t len, double *out);
/*
 * What a number refused by pv_parse_double() is not, for its message:
 * "a finite number", or, for a nonzero number too near 0 for a double
 * (which would read as 0), "a number a double holds (...)".
 */
const char *pv_double_fault(const char *s, size_t len);

/*
 * Writing.  Every writer appends whole lines to out with stdio; the caller
 * checks the stream's errors once, at the end (pv_close_stdout()).
 * Strings given as (pointer, length) may hold any bytes.  The records of
 * the types read above are formatted by their codecs (rec_section.h,
 * rec_sample.h), which these write to a stream.
 */
void pv_write_version(FILE *out);
/* NULL or "" for an absent value */
void pv_write_section(FILE *out, const char *role, const char *version,
		      const char *experiment);
/* type is "meta" or "env" (another type: its three fields, escaped) */
void pv_write_kv(FILE *out, const char *type, const char *key,
		 const char *value);
void pv_write_sample(FILE *out, const struct pv_record *rec);
/* the raw line of a record, as read */
void pv_write_raw(FILE *out, const struct pv_record *rec);
/*
 * A record of any type from its fields (field[0] the type), escaping each;
 * for record types other than stack, whose frame list is kept escaped.
 */
void pv_write_fields(FILE *out, const struct pv_str *field, size_t nfield);

/*
 * Escaping: append s escaped for a field (frame != 0: also escape ';',
 * for a name inside a frame list).
 */
void pv_escape(struct pv_strbuf *sb, const char *s, size_t len, int frame);

/*
 * Text for a terminal: s with each control byte (below 0x20, and 0x7f)
 * written \xHH (ESC as \x1b), so that no name in it can move the cursor,
 * recolour or retitle the terminal; with backslash set, each '\\' too
 * (\x5c), so that a name's bytes can be told back.  Appended to sb, or
 * (pv_write_visible(), backslash set) written to out.  The rule of every
 * message on standard error and of the text renderings (pv(7)).
 */
void pv_escape_visible(struct pv_strbuf *sb, const char *s, size_t len,
		       int backslash);
void pv_write_visible(FILE *out, const char *s, size_t len);

/*
 * The reverse of pv_escape(): append the field s[0..len) unescaped to sb
 * (a frame's "\;" becomes ';').  Returns 0, or -1 for a backslash at the
 * end or an unknown escape (sb then holds a partial result).  For readers
 * of record-like text that does not come through a pv_reader (the version
 * store's index).
 */
int pv_unescape(struct pv_strbuf *sb, const char *s, size_t len);

#endif
