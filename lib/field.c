/*
 * field: writing and reading the scalar fields of records (see field.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "field.h"
#include "numfmt.h"

void
pv_field_type(struct pv_strbuf *sb, const char *type)
{
	pv_strbuf_addstr(sb, type);
}

void
pv_field_end(struct pv_strbuf *sb)
{
	pv_strbuf_addch(sb, '\n');
}

void
pv_field_add(struct pv_strbuf *sb, const char *s, size_t len)
{
	pv_strbuf_addch(sb, '\t');
	pv_escape(sb, s, len, 0);
}

void
pv_field_add_str(struct pv_strbuf *sb, struct pv_str s)
{
	pv_field_add(sb, s.s, s.len);
}

void
pv_field_add_opt(struct pv_strbuf *sb, const char *s)
{
	if (s == NULL || *s == '\0')
		s = "-";
	pv_field_add(sb, s, strlen(s));
}

void
pv_field_add_opt_str(struct pv_strbuf *sb, struct pv_str s)
{
	if (s.len == 0)
		pv_strbuf_add(sb, "\t-", 2);
	else
		pv_field_add(sb, s.s, s.len);
}

void
pv_field_next(struct pv_strbuf *sb)
{
	pv_strbuf_addch(sb, '\t');
}

void
pv_field_add_raw(struct pv_strbuf *sb, const char *s, size_t len)
{
	pv_strbuf_addch(sb, '\t');
	pv_strbuf_add(sb, s, len);
}

/*
 * The numbers are written in place, after their TAB, in one reservation:
 * a writer of many records (pv-diff's dstack and func records) spends
 * much of its time here.
 */
void
pv_field_add_u64(struct pv_strbuf *sb, uint64_t v)
{
	size_t len = sb->len;

	pv_strbuf_grow(sb, 1 + PV_NUMFMT_MAX);
	sb->buf[len] = '\t';
	pv_strbuf_setlen(sb, len + 1 + pv_numfmt_u64(sb->buf + len + 1, v));
}

void
pv_field_add_opt_u64(struct pv_strbuf *sb, uint64_t v)
{
	if (v == PV_NONE)
		pv_strbuf_add(sb, "\t-", 2);
	else
		pv_field_add_u64(sb, v);
}

void
pv_field_add_num(struct pv_strbuf *sb, double v)
{
	pv_strbuf_addch(sb, '\t');
	pv_numfmt(sb, v);
}

void
pv_field_add_exact(struct pv_strbuf *sb, double v)
{
	size_t len = sb->len;

	pv_strbuf_grow(sb, 1 + PV_NUMFMT_MAX);
	sb->buf[len] = '\t';
	pv_strbuf_setlen(sb, len + 1 + pv_numfmt_exact(sb->buf + len + 1, v));
}

int
pv_field_get_u64(struct pv_str f, uint64_t *v)
{
	return pv_parse_u64(f.s, f.len, v);
}

int
pv_field_get_opt_u64(struct pv_str f, uint64_t *v)
{
	if (pv_str_eq(f, "-")) {
		*v = PV_NONE;
		return 0;
	}
	return pv_parse_u64(f.s, f.len, v);
}

int
pv_field_get_size(struct pv_str f, size_t *v)
{
	uint64_t u;

	if (pv_parse_u64(f.s, f.len, &u) < 0 || u > SIZE_MAX)
		return -1;
	*v = (size_t)u;
	return 0;
}

int
pv_field_get_opt_size(struct pv_str f, size_t *v)
{
	if (pv_str_eq(f, "-")) {
		*v = 0;
		return 0;
	}
	return pv_field_get_size(f, v);
}

int
pv_field_get_num(struct pv_str f, double *v)
{
	char buf[64], *end;

	if (pv_str_eq(f, "-")) {
		*v = NAN;
		return 0;
	}
	if (pv_parse_double(f.s, f.len, v) == 0)
		return 0;
	/* pv_parse_double() refuses infinities, as strtod(3) spells them */
	if (f.len == 0 || f.len >= sizeof(buf))
		return -1;
	memcpy(buf, f.s, f.len);
	buf[f.len] = '\0';
	*v = strtod(buf, &end);
	return end == buf + f.len && isinf(*v) ? 0 : -1;
}

int
pv_field_get_finite(struct pv_str f, double *v)
{
	return pv_parse_double(f.s, f.len, v);
}

int
pv_field_get_opt_finite(struct pv_str f, double *v)
{
	if (pv_str_eq(f, "-")) {
		*v = NAN;
		return 0;
	}
	return pv_parse_double(f.s, f.len, v);
}

int
pv_field_bad(struct pv_err *e, const char *what, struct pv_str f,
	     const char *expected)
{
	return pv_err_set(e, "%s '%.*s' is not %s", what,
			  (int)(f.len > 40 ? 40 : f.len), f.s, expected);
}

int
pv_field_count_bad(struct pv_err *e, const char *type, size_t n, size_t got)
{
	int an = type[0] != '\0' && strchr("aeiou", type[0]) != NULL;

	return pv_err_set(e, "%s %s record has %zu fields, not %zu",
			  an ? "an" : "a", type, n, got);
}
