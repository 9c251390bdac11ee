/*
 * record: reading and writing pv-format(5) streams (see record.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "input.h"
#include "rec_sample.h"
#include "rec_section.h"
#include "record.h"
#include "xalloc.h"

#ifndef HAVE_FWRITE_UNLOCKED
#define fwrite_unlocked fwrite
#endif

struct pv_reader {
	struct pv_input *in;
	struct pv_strbuf unesc;	/* unescaped copies; reserved per line */
	struct pv_str *field;
	size_t field_alloc;
	struct pv_str *frame;
	size_t frame_alloc;
	const char *const *use;	/* NULL: every type; else these only */
	/*
	 * The previous sample record's bytes up to RUN, when none of its
	 * fields had an escape, with its fields' places and its parsed
	 * DIRECTION and LEVEL: a sample of the same key starts with them
	 * (samples come grouped by key) and is parsed from RUN on.
	 */
	struct pv_strbuf sample_key;
	size_t sample_off[8], sample_len[8];
	enum pv_direction sample_direction;
	uint64_t sample_level;
	int failed;
	struct pv_err err;
};

/* Bytes that end the scan of a field: its TAB, or an escape in it. */
static const unsigned char field_end[256] = { ['\t'] = 1, ['\\'] = 1 };

/* Bytes that need an escape: 1 in a field, 2 only in a frame name. */
static const unsigned char special[256] = {
	['\\'] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['\0'] = 1, [';'] = 2,
};

struct pv_reader *
pv_reader_open(const char *path)
{
	struct pv_input *in = pv_input_open(path);

	return in != NULL ? pv_reader_open_input(in) : NULL;
}

struct pv_reader *
pv_reader_open_input(struct pv_input *in)
{
	struct pv_reader *r = pv_xcalloc(1, sizeof(*r));

	r->in = in;
	pv_strbuf_init(&r->unesc, 0);
	pv_strbuf_init(&r->sample_key, 0);
	return r;
}

int
pv_reader_rewind(struct pv_reader *r)
{
	return r->failed ? -1 : pv_input_rewind(r->in);
}

void
pv_reader_use(struct pv_reader *r, const char *const *types)
{
	r->use = types;
	pv_strbuf_reset(&r->sample_key);
}

/* Whether records of the type word s[0..len) are to be parsed. */
static int
used(const struct pv_reader *r, const char *s, size_t len)
{
	const char *const *t;

	if (r->use == NULL)
		return 1;
	for (t = r->use; *t != NULL; t++)
		if ((*t)[0] == s[0] && strncmp(*t, s, len) == 0 &&
		    (*t)[len] == '\0')
			return 1;
	/* the structure of the stream is always checked */
	return (len == 7 && memcmp(s, "section", 7) == 0) ||
		(len == 9 && memcmp(s, PV_FORMAT_NAME, 9) == 0);
}

void
pv_reader_close(struct pv_reader *r)
{
	if (r == NULL)
		return;
	pv_input_close(r->in);
	pv_strbuf_release(&r->unesc);
	pv_strbuf_release(&r->sample_key);
	free(r->field);
	free(r->frame);
	free(r);
}

const char *
pv_reader_name(const struct pv_reader *r)
{
	return pv_input_name(r->in);
}

unsigned long
pv_reader_lineno(const struct pv_reader *r)
{
	return pv_input_lineno(r->in);
}

const char *
pv_reader_error(const struct pv_reader *r)
{
	return pv_err_msg(&r->err);
}

static int
bad(struct pv_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
bad(struct pv_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pv_err_vset(&r->err, fmt, ap);
	va_end(ap);
	r->failed = 1;
	return -1;
}

int
pv_parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0 || len > 20)
		return -1;
	/* nineteen digits fit; only a twentieth can overflow */
	for (i = 0; i < len && i < 19; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9)
			return -1;
		v = v * 10 + d;
	}
	if (i < len) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/*
 * The exact value of a short decimal, or -1 to leave it to strtod: when
 * the digits make an integer m < 2^53 and the power of ten p is within
 * 10^22, both are doubles and m * 10^p or m / 10^-p is one correctly
 * rounded operation, which is what strtod returns (Clinger's fast path).
 * Benchmark values ("1234.567", "0.25", "3e5") nearly always take it.
 */
static int
parse_double_fast(const char *s, size_t len, double *out)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
		1e22
	};
	const char *p = s, *end = s + len;
	uint64_t m = 0;
	int neg = 0, ndig = 0, exp10 = 0, any = 0;
	double v;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end && *p >= '0' && *p <= '9'; p++, any = 1) {
		if (m == 0 && *p == '0')
			continue;	/* leading zeros are not digits */
		if (++ndig > 15)
			return -1;
		m = m * 10 + (uint64_t)(*p - '0');
	}
	if (p < end && *p == '.') {
		for (p++; p < end && *p >= '0' && *p <= '9'; p++, any = 1) {
			exp10--;
			if (m == 0 && *p == '0')
				continue;
			if (++ndig > 15)
				return -1;
			m = m * 10 + (uint64_t)(*p - '0');
		}
	}
	if (!any)
		return -1;
	if (p < end && (*p == 'e' || *p == 'E')) {
		int eneg = 0, e = 0, edig = 0;

		p++;
		if (p < end && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		for (; p < end && *p >= '0' && *p <= '9'; p++, edig++) {
			if (e > 1000)
				return -1;
			e = e * 10 + (*p - '0');
		}
		if (edig == 0)
			return -1;
		exp10 += eneg ? -e : e;
	}
	if (p != end)
		return -1;
	if (m == 0) {
		*out = neg ? -0.0 : 0.0;
		return 0;
	}
	if (exp10 < -22 || exp10 > 22)
		return -1;
	v = (double)m;
	v = exp10 < 0 ? v / pow10[-exp10] : v * pow10[exp10];
	*out = neg ? -v : v;
	return 0;
}

int
pv_parse_double(const char *s, size_t len, double *out)
{
	char buf[64], *end;
	double v;

	/* strtod needs a terminated string and skips spaces: refuse both */
	if (len == 0 || len >= sizeof(buf) || s[0] == ' ' || s[0] == '\t')
		return -1;
	if (parse_double_fast(s, len, out) == 0)
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtod(buf, &end);
	if (end != buf + len || !isfinite(v))
		return -1;
	/*
	 * an overflow; or an underflow to 0 of a number that is not 0,
	 * which would be read as one silently (a subnormal result is kept)
	 */
	if (errno == ERANGE && (fabs(v) > 1.0 || v == 0))
		return -1;
	*out = v;
	return 0;
}

const char *
pv_double_fault(const char *s, size_t len)
{
	char buf[64], *end;
	double v;

	if (len == 0 || len >= sizeof(buf))
		return "a finite number";
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtod(buf, &end);
	if (end == buf + len && errno == ERANGE && v == 0)
		return "a number a double holds (it is not 0, and would read "
			"as 0)";
	return "a finite number";
}

/*
 * Unescape s[0..len) into dst (room for len bytes): the one place that
 * knows the escapes.  Returns the length written, or -1 with *bad at the
 * offending backslash.
 */
static long
unescape_into(char *dst, const char *s, size_t len, const char **bad)
{
	const char *p = s, *end = s + len;
	char *d = dst;

	while (p < end) {
		if (*p != '\\') {
			*d++ = *p++;
			continue;
		}
		*bad = p;
		if (++p == end)
			return -1;
		switch (*p++) {
		case '\\': *d++ = '\\'; break;
		case 't': *d++ = '\t'; break;
		case 'n': *d++ = '\n'; break;
		case 'r': *d++ = '\r'; break;
		case '0': *d++ = '\0'; break;
		case ';': *d++ = ';'; break;
		default:
			return -1;
		}
	}
	return d - dst;
}

/* Unescape s[0..len) into the reserved unesc buffer; zero-copy if clean. */
static int
unescape(struct pv_reader *r, const char *s, size_t len, struct pv_str *out)
{
	const char *bs;
	long n;

	if (memchr(s, '\\', len) == NULL) {
		out->s = s;
		out->len = len;
		return 0;
	}
	out->s = r->unesc.buf + r->unesc.len;
	n = unescape_into(r->unesc.buf + r->unesc.len, s, len, &bs);
	if (n < 0) {
		if (bs + 1 == s + len)
			return bad(r, "backslash at the end of a field");
		return bad(r, "unknown escape '\\%c'", bs[1]);
	}
	out->len = (size_t)n;
	r->unesc.len += out->len;
	return 0;
}

/*
 * The first ';' in [p, end), or NULL.  Frame names are short, so a call
 * of memchr costs more than the search: look eight bytes at a time (the
 * lowest flagged byte of a word is exact).
 */
static inline const char *
find_semi(const char *p, const char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; end - p >= 8; p += 8) {
		uint64_t w, x, m;

		memcpy(&w, p, 8);
		x = w ^ 0x3b3b3b3b3b3b3b3bULL;
		m = (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL;
		if (m != 0)
			return p + __builtin_ctzll(m) / 8;
	}
#endif
	for (; p < end; p++)
		if (*p == ';')
			return p;
	return NULL;
}

/*
 * The first TAB or backslash in line[j..len), or len: where the scan of a
 * field stops.  Eight bytes at a time, as find_semi(): a frame list is
 * the longest field of most records.
 */
static inline size_t
field_stop(const char *line, size_t j, size_t len)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; len - j >= 8; j += 8) {
		uint64_t w, t, b, m;

		memcpy(&w, line + j, 8);
		t = w ^ 0x0909090909090909ULL;
		b = w ^ 0x5c5c5c5c5c5c5c5cULL;
		m = ((t - 0x0101010101010101ULL) & ~t) |
		    ((b - 0x0101010101010101ULL) & ~b);
		m &= 0x8080808080808080ULL;
		if (m != 0)
			return j + (size_t)__builtin_ctzll(m) / 8;
	}
#endif
	while (j < len && !field_end[(unsigned char)line[j]])
		j++;
	return j;
}

/* Split s into frames at unescaped ';', unescaping each. */
static int
split_frames(struct pv_reader *r, const char *s, size_t len, int escaped,
	     struct pv_record *rec)
{
	const char *p = s, *end = s + len, *start = s;
	size_t n = 0;

	if (len == 0) {
		rec->nframe = 0;
		rec->frame = r->frame;
		return 0;
	}
	for (;;) {
		const char *semi;

		if (escaped) {
			/* skip escaped bytes while looking for ';' */
			while (p < end && *p != ';') {
				if (*p == '\\' && p + 1 < end)
					p++;
				p++;
			}
			semi = p < end ? p : NULL;
		} else {
			semi = find_semi(p, end);
		}
		if (n == r->frame_alloc)
			PV_GROW(r->frame, n + 1, r->frame_alloc);
		if (semi == NULL) {
			if (escaped) {
				if (unescape(r, start, (size_t)(end - start),
					     &r->frame[n]) < 0)
					return -1;
			} else {
				r->frame[n].s = start;
				r->frame[n].len = (size_t)(end - start);
			}
			n++;
			break;
		}
		if (escaped) {
			if (unescape(r, start, (size_t)(semi - start),
				     &r->frame[n]) < 0)
				return -1;
		} else {
			r->frame[n].s = start;
			r->frame[n].len = (size_t)(semi - start);
		}
		n++;
		p = start = semi + 1;
	}
	rec->frame = r->frame;
	rec->nframe = n;
	return 0;
}

/*
 * The field that holds a frame list, kept escaped until it is split: a
 * stack's and a dstack's, and a path's of sixteen fields (pv-diff(1)); 0
 * for none.
 */
static size_t
frames_field(const struct pv_record *rec)
{
	if (pv_str_eq(rec->field[0], "stack") ||
	    pv_str_eq(rec->field[0], "dstack"))
		return 4;
	if (rec->nfield == 16 && pv_str_eq(rec->field[0], "path"))
		return 15;
	return 0;
}

static int
want_fields(struct pv_reader *r, const struct pv_record *rec, size_t n)
{
	if (rec->nfield == n)
		return 0;
	return bad(r, "'%.*s' record has %zu fields, expected %zu",
		   (int)rec->field[0].len, rec->field[0].s,
		   rec->nfield - 1, n - 1);
}

static int
num_field(struct pv_reader *r, struct pv_str f, const char *what,
	  int dash_ok, uint64_t *out)
{
	if (dash_ok && pv_str_eq(f, "-")) {
		*out = PV_NONE;
		return 0;
	}
	if (pv_parse_u64(f.s, f.len, out) < 0)
		return bad(r, "%s '%.*s' is not a whole number in range", what,
			   (int)(f.len > 40 ? 40 : f.len), f.s);
	return 0;
}

static struct pv_str
opt_field(struct pv_str f)
{
	if (pv_str_eq(f, "-"))
		f.len = 0;
	return f;
}

/* A plain folded line: "frame;frame;frame COUNT" or "... COUNT1 COUNT2". */
static int
parse_folded(struct pv_reader *r, char *line, size_t len,
	     struct pv_record *rec)
{
	size_t end = len, sp;
	uint64_t c;

	while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t'))
		end--;
	sp = end;
	while (sp > 0 && line[sp - 1] != ' ' && line[sp - 1] != '\t')
		sp--;
	if (sp == 0)
		return bad(r, "not a pv record or a folded stack "
			   "(no count at the end of the line)");
	if (pv_parse_u64(line + sp, end - sp, &c) < 0)
		return bad(r, "not a pv record or a folded stack "
			   "(count '%.*s' is not a whole number in range)",
			   (int)(end - sp > 40 ? 40 : end - sp), line + sp);
	rec->type = PV_REC_STACK;
	rec->folded = 1;
	rec->event.s = "";
	rec->event.len = 0;
	rec->samples = rec->period = c;
	rec->period2 = 0;
	end = sp;
	while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t'))
		end--;
	/* diff-folded: "stack COUNT1 COUNT2" */
	sp = end;
	while (sp > 0 && line[sp - 1] >= '0' && line[sp - 1] <= '9')
		sp--;
	if (sp < end && sp > 0 && (line[sp - 1] == ' ' || line[sp - 1] == '\t')
	    && pv_parse_u64(line + sp, end - sp, &c) == 0) {
		rec->folded = 2;
		rec->period2 = rec->period;
		rec->period = rec->samples = c;
		end = sp;
		while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t'))
			end--;
	}
	rec->field = r->field;
	rec->nfield = 0;
	return split_frames(r, line, end, 0, rec);
}

/* A sample's RUN, SEQ and VALUE; its other fields are in place. */
static int
sample_values(struct pv_reader *r, struct pv_record *rec)
{
	const struct pv_str *f = rec->field;

	if (num_field(r, f[8], "run", 0, &rec->run) < 0 ||
	    num_field(r, f[9], "sequence number", 1, &rec->seq) < 0)
		return -1;
	if (pv_parse_double(f[10].s, f[10].len, &rec->val) < 0)
		return bad(r, "value '%.*s' is not %s",
			   (int)(f[10].len > 40 ? 40 : f[10].len), f[10].s,
			   pv_double_fault(f[10].s, f[10].len));
	return 0;
}

/* Keep a parsed sample's bytes up to RUN (none of its fields escaped). */
static void
sample_remember(struct pv_reader *r, const struct pv_record *rec)
{
	const char *line = rec->raw.s;
	size_t k;

	pv_strbuf_reset(&r->sample_key);
	pv_strbuf_add(&r->sample_key, line, (size_t)(rec->field[8].s - line));
	for (k = 0; k < 8; k++) {
		r->sample_off[k] = (size_t)(rec->field[k].s - line);
		r->sample_len[k] = rec->field[k].len;
	}
	r->sample_direction = rec->direction;
	r->sample_level = rec->level;
}

/*
 * A sample that starts with the previous sample's bytes up to RUN: take
 * its key from that one and split the rest.  Returns 1 with the record,
 * 0 when the rest has an escape (the caller parses the whole line), -1
 * on a bad record.
 */
static int
sample_again(struct pv_reader *r, struct pv_record *rec, const char *line,
	     size_t len)
{
	size_t n, i, j;

	for (j = r->sample_key.len; j < len; j++)
		if (line[j] == '\\')
			return 0;
	PV_GROW(r->field, 11, r->field_alloc);
	for (n = 0; n < 8; n++) {
		r->field[n].s = line + r->sample_off[n];
		r->field[n].len = r->sample_len[n];
	}
	for (i = r->sample_key.len;; n++) {
		const char *tab = memchr(line + i, '\t', len - i);

		j = tab ? (size_t)(tab - line) : len;
		PV_GROW(r->field, n + 1, r->field_alloc);
		r->field[n].s = line + i;
		r->field[n].len = j - i;
		if (j == len)
			break;
		i = j + 1;
	}
	rec->type = PV_REC_SAMPLE;
	rec->field = r->field;
	rec->nfield = n + 1;
	if (want_fields(r, rec, 11) < 0)
		return -1;
	rec->suite = rec->field[1];
	rec->test = rec->field[2];
	rec->operation = rec->field[3];
	rec->metric = rec->field[4];
	rec->unit = rec->field[5];
	rec->direction = r->sample_direction;
	rec->level = r->sample_level;
	return sample_values(r, rec) < 0 ? -1 : 1;
}

int
pv_reader_next(struct pv_reader *r, struct pv_record *rec)
{
	char *line;
	size_t len, i, n, tlen;
	unsigned long escaped;	/* bit k: field k has a backslash */
	int rc;

	if (r->failed)
		return -1;
	for (;;) {
		rc = pv_input_getline(r->in, &line, &len);
		if (rc < 0)
			return bad(r, "%s", pv_input_error(r->in));
		if (rc == 0)
			return 0;
		if (len > 0 && line[0] != '#')
			break;
	}
	memset(rec, 0, sizeof(*rec));
	rec->raw.s = line;
	rec->raw.len = len;
	if (r->sample_key.len > 0 && len > r->sample_key.len &&
	    memcmp(line, r->sample_key.buf, r->sample_key.len) == 0 &&
	    (rc = sample_again(r, rec, line, len)) != 0)
		return rc;
	pv_strbuf_reset(&r->unesc);
	pv_strbuf_grow(&r->unesc, len + 1);

	/* a type word, [a-z][a-z0-9_-]*, then TAB or the end: a record */
	tlen = 0;
	if (line[0] >= 'a' && line[0] <= 'z') {
		for (tlen = 1; tlen < len; tlen++) {
			char c = line[tlen];

			if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			      c == '-' || c == '_'))
				break;
		}
	}
	if (tlen == 0 || (tlen < len && line[tlen] != '\t'))
		return parse_folded(r, line, len, rec) < 0 ? -1 : 1;

	if (!used(r, line, tlen)) {
		/* passed on as read, unchecked (pv_reader_use()) */
		PV_GROW(r->field, 1, r->field_alloc);
		r->field[0].s = line;
		r->field[0].len = tlen;
		rec->type = PV_REC_OTHER;
		rec->field = r->field;
		rec->nfield = 1;
		return 1;
	}

	/*
	 * Split into fields in one pass, noting those with a backslash;
	 * unescape those but a stack's frame list.
	 */
	n = 0;
	escaped = 0;
	for (i = 0;;) {
		size_t j = i;

		j = field_stop(line, j, len);
		if (j < len && line[j] == '\\') {
			char *tab = memchr(line + j, '\t', len - j);

			j = tab ? (size_t)(tab - line) : len;
			if (n < sizeof(escaped) * 8)
				escaped |= 1UL << n;
			else
				escaped |= 1UL << (sizeof(escaped) * 8 - 1);
		}
		PV_GROW(r->field, n + 1, r->field_alloc);
		r->field[n].s = line + i;
		r->field[n].len = j - i;
		n++;
		if (j == len)
			break;
		i = j + 1;
	}
	rec->field = r->field;
	rec->nfield = n;
	for (i = 1; i < n && escaped >> 1 != 0; i++) {
		if (i < sizeof(escaped) * 8 - 1 && !(escaped >> i & 1))
			continue;
		if (i == frames_field(rec))
			continue;
		if (unescape(r, rec->field[i].s, rec->field[i].len,
			     &rec->field[i]) < 0)
			return -1;
	}

	if (pv_str_eq(rec->field[0], PV_FORMAT_NAME)) {
		uint64_t v;

		rec->type = PV_REC_VERSION;
		if (want_fields(r, rec, 2) < 0 ||
		    num_field(r, rec->field[1], "format version", 0, &v) < 0)
			return -1;
		if (v != PV_FORMAT_VERSION)
			return bad(r, "pv-format version %llu is not supported "
				   "(this tool reads version %d)",
				   (unsigned long long)v, PV_FORMAT_VERSION);
	} else if (pv_str_eq(rec->field[0], "section")) {
		rec->type = PV_REC_SECTION;
		if (want_fields(r, rec, 4) < 0)
			return -1;
		rec->role = opt_field(rec->field[1]);
		rec->version = opt_field(rec->field[2]);
		rec->experiment = opt_field(rec->field[3]);
	} else if (pv_str_eq(rec->field[0], "meta") ||
		   pv_str_eq(rec->field[0], "env")) {
		rec->type = rec->field[0].s[0] == 'm' ? PV_REC_META : PV_REC_ENV;
		if (want_fields(r, rec, 3) < 0)
			return -1;
		rec->key = rec->field[1];
		rec->value = rec->field[2];
	} else if (pv_str_eq(rec->field[0], "stack")) {
		rec->type = PV_REC_STACK;
		if (want_fields(r, rec, 5) < 0 ||
		    num_field(r, rec->field[2], "sample count", 0,
			      &rec->samples) < 0 ||
		    num_field(r, rec->field[3], "period", 0, &rec->period) < 0)
			return -1;
		rec->event = opt_field(rec->field[1]);
		if (split_frames(r, rec->field[4].s, rec->field[4].len,
				 memchr(rec->field[4].s, '\\',
					rec->field[4].len) != NULL, rec) < 0)
			return -1;
	} else if (pv_str_eq(rec->field[0], "sample")) {
		struct pv_str *f = rec->field;

		rec->type = PV_REC_SAMPLE;
		if (want_fields(r, rec, 11) < 0)
			return -1;
		rec->suite = f[1];
		rec->test = f[2];
		rec->operation = f[3];
		rec->metric = f[4];
		rec->unit = f[5];
		if (pv_str_eq(f[6], "higher"))
			rec->direction = PV_HIGHER_BETTER;
		else if (pv_str_eq(f[6], "lower"))
			rec->direction = PV_LOWER_BETTER;
		else
			return bad(r, "direction '%.*s' is neither 'higher' "
				   "nor 'lower'", (int)(f[6].len > 40 ? 40 :
				   f[6].len), f[6].s);
		if (num_field(r, f[7], "level", 1, &rec->level) < 0 ||
		    sample_values(r, rec) < 0)
			return -1;
		if (escaped == 0)
			sample_remember(r, rec);
		else
			pv_strbuf_reset(&r->sample_key);
	} else {
		rec->type = PV_REC_OTHER;
		/* dstack and path frames, split as a stack's (pv-diff(1)) */
		i = frames_field(rec);
		if (i > 0 && i < n && (n == 5 || i == 15) && split_frames(r, rec->field[i].s,
					  rec->field[i].len,
					  memchr(rec->field[i].s, '\\',
						 rec->field[i].len) != NULL,
					  rec) < 0)
			return -1;
	}
	return 1;
}

/* Writing */

void
pv_escape(struct pv_strbuf *sb, const char *s, size_t len, int frame)
{
	size_t i, start = 0;
	unsigned char lim = frame ? 2 : 1;

	pv_strbuf_grow(sb, len);
	for (i = 0; i < len; i++) {
		unsigned char k = special[(unsigned char)s[i]];
		char e;

		if (k == 0 || k > lim)
			continue;
		pv_strbuf_add(sb, s + start, i - start);
		switch (s[i]) {
		case '\t': e = 't'; break;
		case '\n': e = 'n'; break;
		case '\r': e = 'r'; break;
		case '\0': e = '0'; break;
		default: e = s[i]; break;	/* '\\' and ';' */
		}
		pv_strbuf_addch(sb, '\\');
		pv_strbuf_addch(sb, e);
		start = i + 1;
	}
	pv_strbuf_add(sb, s + start, len - start);
}

static struct pv_strbuf linebuf = PV_STRBUF_INIT;

static void
put_line(FILE *out)
{
	pv_strbuf_addch(&linebuf, '\n');
	fwrite(linebuf.buf, 1, linebuf.len, out);
	pv_strbuf_reset(&linebuf);
}

/* A C string as a pv_str, "" for NULL. */
static struct pv_str
cstr(const char *s)
{
	struct pv_str r = { s != NULL ? s : "", s != NULL ? strlen(s) : 0 };

	return r;
}

/* Write the line a codec formatted into linebuf. */
static void
put_record(FILE *out)
{
	fwrite(linebuf.buf, 1, linebuf.len, out);
	pv_strbuf_reset(&linebuf);
}

void
pv_write_version(FILE *out)
{
	pv_rec_pv_format_write(&linebuf);
	put_record(out);
}

void
pv_write_section(FILE *out, const char *role, const char *version,
		 const char *experiment)
{
	pv_rec_section_write(&linebuf, cstr(role), cstr(version),
			     cstr(experiment));
	put_record(out);
}

void
pv_write_kv(FILE *out, const char *type, const char *key, const char *value)
{
	struct pv_str f[3];

	if (strcmp(type, "meta") == 0) {
		pv_rec_meta_write(&linebuf, cstr(key), cstr(value));
	} else if (strcmp(type, "env") == 0) {
		pv_rec_env_write(&linebuf, cstr(key), cstr(value));
	} else {
		f[0] = cstr(type);
		f[1] = cstr(key);
		f[2] = cstr(value);
		pv_write_fields(out, f, 3);
		return;
	}
	put_record(out);
}

void
pv_write_sample(FILE *out, const struct pv_record *rec)
{
	pv_rec_sample_write(&linebuf, rec);
	put_record(out);
}

void
pv_write_raw(FILE *out, const struct pv_record *rec)
{
	/* one thread writes a stream: the tools' threads only compute */
	fwrite_unlocked(rec->raw.s, 1, rec->raw.len, out);
	putc_unlocked('\n', out);
}

void
pv_write_fields(FILE *out, const struct pv_str *field, size_t nfield)
{
	size_t i;

	for (i = 0; i < nfield; i++) {
		if (i > 0)
			pv_strbuf_addch(&linebuf, '\t');
		pv_escape(&linebuf, field[i].s, field[i].len, 0);
	}
	put_line(out);
}

int
pv_unescape(struct pv_strbuf *sb, const char *s, size_t len)
{
	const char *bs;
	long n;

	pv_strbuf_grow(sb, len);
	n = unescape_into(sb->buf + sb->len, s, len, &bs);
	if (n < 0)
		return -1;
	pv_strbuf_setlen(sb, sb->len + (size_t)n);
	return 0;
}

/* Whether c is written \xHH for a terminal. */
static int
invisible(unsigned char c, int backslash)
{
	return c < 0x20 || c == 0x7f || (backslash && c == '\\');
}

void
pv_escape_visible(struct pv_strbuf *sb, const char *s, size_t len,
		  int backslash)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, from = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!invisible(c, backslash))
			continue;
		pv_strbuf_add(sb, s + from, i - from);
		pv_strbuf_addstr(sb, "\\x");
		pv_strbuf_addch(sb, hex[c >> 4]);
		pv_strbuf_addch(sb, hex[c & 15]);
		from = i + 1;
	}
	pv_strbuf_add(sb, s + from, len - from);
}

void
pv_write_visible(FILE *out, const char *s, size_t len)
{
	size_t i, from = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!invisible(c, 1))
			continue;
		fwrite(s + from, 1, i - from, out);
		fprintf(out, "\\x%02x", c);
		from = i + 1;
	}
	fwrite(s + from, 1, len - from, out);
}
