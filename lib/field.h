/*
 * field: the scalar fields of pv-format(5) records, written and read.
 * The record codecs (lib/rec_*.c, one per record type) build their lines
 * from these and nothing else, so that the format's rules (TAB between
 * fields, escapes, '-' for an absent value, ten significant digits for
 * derived numbers, the exact form for measured ones) live in one place.
 *
 * Writing: a line is begun with pv_field_type(), each field appended with
 * one pv_field_add_*() call (which writes the TAB before it), and ended with
 * pv_field_end() (the newline).  Everything goes to a strbuf; the caller
 * writes the buffer out, so that a record is formatted once, on any
 * thread, and written whole.
 *
 * Reading: the reader (record.h) splits and unescapes a line into fields;
 * the getters below turn one field into a value.  They return 0, or -1
 * for a bad value without touching anything else; the codec then names
 * the field in its error (pv_field_bad()).
 */
#ifndef PV_FIELD_H
#define PV_FIELD_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "record.h"
#include "strbuf.h"

/* the type word that begins a line */
void pv_field_type(struct pv_strbuf *sb, const char *type);
/* the newline that ends it */
void pv_field_end(struct pv_strbuf *sb);

/* a string field, escaped; any bytes */
void pv_field_add(struct pv_strbuf *sb, const char *s, size_t len);
void pv_field_add_str(struct pv_strbuf *sb, struct pv_str s);
/* a string field, '-' for NULL, "" or an empty pv_str */
void pv_field_add_opt(struct pv_strbuf *sb, const char *s);
void pv_field_add_opt_str(struct pv_strbuf *sb, struct pv_str s);
/*
 * the TAB that begins a field the caller appends itself, in pieces (a
 * list of names or numbers that need no escapes)
 */
void pv_field_next(struct pv_strbuf *sb);
/* a field already written as the format wants it: no escaping */
void pv_field_add_raw(struct pv_strbuf *sb, const char *s, size_t len);
/* a whole number; the _opt form writes PV_NONE as '-' */
void pv_field_add_u64(struct pv_strbuf *sb, uint64_t v);
void pv_field_add_opt_u64(struct pv_strbuf *sb, uint64_t v);
/* a derived number: ten significant digits, NaN as '-', inf and -inf */
void pv_field_add_num(struct pv_strbuf *sb, double v);
/* a measured number: the shortest form that reads back to v */
void pv_field_add_exact(struct pv_strbuf *sb, double v);

/* a whole number without sign, spaces or overflow */
int pv_field_get_u64(struct pv_str f, uint64_t *v);
/* the same, or '-' for PV_NONE */
int pv_field_get_opt_u64(struct pv_str f, uint64_t *v);
/* a count that fits a size_t */
int pv_field_get_size(struct pv_str f, size_t *v);
/* the same, or '-' for 0 (a count that was not given) */
int pv_field_get_opt_size(struct pv_str f, size_t *v);
/* a derived number: finite, inf, -inf, or '-' for NaN */
int pv_field_get_num(struct pv_str f, double *v);
/* a finite number (measured values) */
int pv_field_get_finite(struct pv_str f, double *v);
/* the same, or '-' for NaN */
int pv_field_get_opt_finite(struct pv_str f, double *v);

/*
 * Set e to "WHAT 'VALUE' is not EXPECTED" with the value cut to 40 bytes,
 * and return -1: the one wording of a bad field.
 */
int pv_field_bad(struct pv_err *e, const char *what, struct pv_str f,
		 const char *expected);
/* "a TYPE record has N fields, not GOT"; returns -1 */
int pv_field_count_bad(struct pv_err *e, const char *type, size_t n,
		       size_t got);

#endif
