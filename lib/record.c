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
#if defined(__SSE2__) && !defined(PV_NO_SSE2)
#include <emmintrin.h>
#endif

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
	size_t *use_len;	/* their lengths */
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
	int keep_frames;	/* dstack and path lists left unsplit */
	int failed;
	struct pv_err err;
};

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
	size_t n = 0;

	r->use = types;
	free(r->use_len);
	r->use_len = NULL;
	if (types != NULL) {
		while (types[n] != NULL)
			n++;
		r->use_len = pv_xreallocarray(NULL, n + 1,
					      sizeof(*r->use_len));
		for (n = 0; types[n] != NULL; n++)
			r->use_len[n] = strlen(types[n]);
	}
	pv_strbuf_reset(&r->sample_key);
}

/* Whether records of the type word s[0..len) are to be parsed. */
static int
used(const struct pv_reader *r, const char *s, size_t len)
{
	size_t i;

	if (r->use == NULL)
		return 1;
	for (i = 0; r->use[i] != NULL; i++)
		if (r->use_len[i] == len && memcmp(r->use[i], s, len) == 0)
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
	free(r->use_len);
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
 * The bytes the tokenizer stops at: a TAB ends a field, a backslash
 * starts an escape, a ';' ends a frame in a frame list.  For sixteen
 * bytes from p, bit i set when p[i] is a TAB or a backslash, and in
 * *semi when it is a ';': with SSE2 (every x86-64) a few compares, else
 * a loop.
 */
static inline unsigned
stops16(const char *p, unsigned *semi)
{
#if defined(__SSE2__) && !defined(PV_NO_SSE2)
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i tb = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
				  _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));

	*semi = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v,
							    _mm_set1_epi8(';')));
	return (unsigned)_mm_movemask_epi8(tb);
#else
	unsigned m = 0, sm = 0, i;

	for (i = 0; i < 16; i++) {
		m |= (unsigned)(p[i] == '\t' || p[i] == '\\') << i;
		sm |= (unsigned)(p[i] == ';') << i;
	}
	*semi = sm;
	return m;
#endif
}

/*
 * The stop bytes of s[at..at + 64): bit i for a TAB or backslash at
 * s[at + i], and in *semi for a ';'.  Inline: every block of a line but
 * its last.
 */
static inline uint64_t
stops64(const char *s, size_t at, uint64_t *semi)
{
	uint64_t m = 0, sm = 0;
	unsigned a, b;
	size_t k;

	for (k = 0; k < 64; k += 16) {
		a = stops16(s + at + k, &b);
		m |= (uint64_t)a << k;
		sm |= (uint64_t)b << k;
	}
	*semi = sm;
	return m;
}

/*
 * The same of s[at..len), shorter than 64 bytes: a shorter end is read as
 * the last sixteen bytes of s, those before it shifted out, or copied
 * when s is shorter than that: nothing after s[len - 1] is read.  Out of
 * line: a line has one.
 */
static uint64_t
stops_tail(const char *s, size_t at, size_t len, uint64_t *semi)
{
	uint64_t m = 0, sm = 0;
	unsigned a, b;
	size_t k;

	for (k = 0; at + k < len; k += 16) {
		size_t left = len - at - k;

		if (left >= 16) {
			a = stops16(s + at + k, &b);
		} else if (len >= 16) {
			a = stops16(s + len - 16, &b) >> (16 - left);
			b >>= 16 - left;
		} else {
			char tail[16] = { 0 };	/* NUL is no stop byte */

			memcpy(tail, s + at + k, left);
			a = stops16(tail, &b);
		}
		m |= (uint64_t)a << k;
		sm |= (uint64_t)b << k;
	}
	*semi = sm;
	return m;
}

/*
 * One scan of s[0..len) for its stop bytes, in order, 64 bytes at a
 * time: the line's TABs, backslashes and ';'s are found in one pass, for
 * the fields and the frames together.
 */
struct scan {
	const char *s;
	size_t len;
	size_t base;		/* offset of bit 0 of the masks */
	size_t next;		/* the next block to look at */
	uint64_t mask;		/* the block's TABs and backslashes not yet
				   taken */
	uint64_t semi;		/* its ';'s not yet taken */
};

static inline void
scan_init(struct scan *sc, const char *s, size_t from, size_t len)
{
	sc->s = s;
	sc->len = len;
	sc->base = sc->next = from;
	sc->mask = sc->semi = 0;
}

/* Look at the next block: 0 at the end of s. */
static inline int
scan_block(struct scan *sc)
{
	if (sc->next >= sc->len)
		return 0;
	sc->base = sc->next;
	if (sc->len - sc->next >= 64)
		sc->mask = stops64(sc->s, sc->next, &sc->semi);
	else
		sc->mask = stops_tail(sc->s, sc->next, sc->len, &sc->semi);
	sc->next += 64;
	return 1;
}

/*
 * Take the ';'s of a frame list from the scan, up to its first TAB or
 * backslash, which is left in the scan: the frames that end there go to
 * r->frame from index *nf on, the first starting at offset from (the
 * ';'s before it taken already).
 * Returns the offset where the last frame starts.  The tokenizer's inner
 * loop: a frame costs a few instructions, and every 64 bytes a block.
 */
static inline size_t
scan_frames(struct pv_reader *r, struct scan *sc, size_t from, size_t *nf)
{
	const char *s = sc->s;
	size_t n = *nf;

	for (;;) {
		uint64_t semi = sc->semi;
		size_t base = sc->base;
		struct pv_str *f;

		if (sc->mask != 0)	/* the ';'s before the TAB only */
			semi &= sc->mask - 1;
		sc->semi &= ~semi;
		if (n + 64 > r->frame_alloc)
			PV_GROW(r->frame, n + 64, r->frame_alloc);
		/* locals, which the stores to the frames cannot alias */
		for (f = r->frame + n; semi != 0; f++) {
			size_t j = base + (size_t)__builtin_ctzll(semi);

			f->s = s + from;
			f->len = j - from;
			from = j + 1;
			semi &= semi - 1;
		}
		n = (size_t)(f - r->frame);
		if (sc->mask != 0 || !scan_block(sc))
			break;
	}
	*nf = n;
	return from;
}

/* Room for frame n in the reader's frame array. */
static inline void
frame_room(struct pv_reader *r, size_t n)
{
	if (n >= r->frame_alloc)
		PV_GROW(r->frame, n + 1, r->frame_alloc);
}

/* Split s, with no escapes (a folded line's), into frames at ';'. */
static void
split_frames(struct pv_reader *r, const char *s, size_t len,
	     struct pv_record *rec)
{
	struct scan sc;
	size_t n = 0, from = 0;

	rec->frame = r->frame;
	rec->nframe = 0;
	if (len == 0)
		return;
	scan_init(&sc, s, 0, len);
	for (;;) {
		from = scan_frames(r, &sc, from, &n);
		if (sc.mask == 0)
			break;
		sc.mask &= sc.mask - 1;	/* a TAB or backslash in a name */
	}
	frame_room(r, n);
	r->frame[n].s = s + from;
	r->frame[n].len = len - from;
	rec->frame = r->frame;
	rec->nframe = n + 1;
}

/* Split s, which has a backslash, into frames at unescaped ';'. */
static int
split_escaped_frames(struct pv_reader *r, const char *s, size_t len,
		     struct pv_record *rec)
{
	const char *p = s, *end = s + len, *start = s;
	size_t n = 0;

	for (;;) {
		/* skip escaped bytes while looking for ';' */
		while (p < end && *p != ';') {
			if (*p == '\\' && p + 1 < end)
				p++;
			p++;
		}
		frame_room(r, n);
		if (unescape(r, start, (size_t)(p - start), &r->frame[n]) < 0)
			return -1;
		n++;
		if (p == end)
			break;
		p = start = p + 1;
	}
	rec->frame = r->frame;
	rec->nframe = n;
	return 0;
}

/*
 * The field that holds the frame list of a record of type s[0..len),
 * kept escaped until it is split: a stack's and a dstack's, and a path's
 * when it has sixteen fields (pv-diff(1)); NOFRAMES for none.
 */
#define NOFRAMES SIZE_MAX

static size_t
frames_of(const char *s, size_t len)
{
	if ((len == 5 && memcmp(s, "stack", 5) == 0) ||
	    (len == 6 && memcmp(s, "dstack", 6) == 0))
		return 4;
	if (len == 4 && memcmp(s, "path", 4) == 0)
		return 15;
	return NOFRAMES;
}

/*
 * The frames of frame list f: those the scan of the line split, or, when
 * f has a backslash (fesc), split again and unescaped.
 */
static int
frames(struct pv_reader *r, struct pv_record *rec, struct pv_str f, int fesc,
       size_t nf)
{
	if (fesc)
		return split_escaped_frames(r, f.s, f.len, rec);
	rec->frame = r->frame;
	rec->nframe = nf;
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
	split_frames(r, line, end, rec);
	return 0;
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
	size_t len, i, n, tlen, fl, sf, nf, start, from;
	unsigned long escaped;	/* bit k: field k has a backslash */
	int rc, fesc;		/* fesc: the frame list has one */
	struct scan sc;
	struct pv_str *field;
	size_t falloc;

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
	 * Split into fields in one scan of the line for its stop bytes,
	 * noting the fields with a backslash; a frame list (field fl) is
	 * split into frames in the same scan, unless it has a backslash.
	 * Then unescape the fields with one but a frame list.
	 */
	fl = frames_of(line, tlen);
	/* the field whose frames the scan splits: a stack's always, a dstack's
	 * and a path's unless kept whole (pv_reader_keep_frames()) */
	sf = r->keep_frames && fl != NOFRAMES && tlen != 5 ? NOFRAMES : fl;
	field = r->field;
	falloc = r->field_alloc;
	n = 0;
	nf = 0;
	start = from = 0;
	escaped = 0;
	fesc = 0;
	scan_init(&sc, line, tlen, len);
	while (scan_block(&sc)) {
		uint64_t m = sc.mask;
		size_t base = sc.base;

		while (m != 0) {
			size_t j = base + (size_t)__builtin_ctzll(m);

			m &= m - 1;
			if (line[j] == '\\') {
				if (n < sizeof(escaped) * 8)
					escaped |= 1UL << n;
				else
					escaped |= 1UL << (sizeof(escaped) * 8 - 1);
				fesc |= n == fl;
				continue;
			}
			/* a TAB: field n ends */
			if (n == sf && !fesc && j > start) {
				frame_room(r, nf);
				r->frame[nf].s = line + from;
				r->frame[nf].len = j - from;
				nf++;
			}
			/* a local array, which the stores to it cannot alias */
			PV_GROW(field, n + 1, falloc);
			field[n].s = line + start;
			field[n].len = j - start;
			n++;
			start = from = j + 1;
			if (n == sf) {
				/* the ';'s of the fields before are no frames' */
				sc.mask = m;
				sc.semi &= ~((2ULL << (j - base)) - 1);
				from = scan_frames(r, &sc, from, &nf);
				m = sc.mask;
				base = sc.base;
			}
		}
	}
	/* the last field ends with the line */
	if (n == sf && !fesc && len > start) {
		frame_room(r, nf);
		r->frame[nf].s = line + from;
		r->frame[nf].len = len - from;
		nf++;
	}
	PV_GROW(field, n + 1, falloc);
	field[n].s = line + start;
	field[n].len = len - start;
	n++;
	r->field = rec->field = field;
	r->field_alloc = falloc;
	rec->nfield = n;
	/* a path's frame list is its sixteenth field, when it has sixteen */
	if (fl != NOFRAMES && fl != 4 && n != fl + 1)
		fl = NOFRAMES;
	for (i = 1; i < n && escaped >> 1 != 0; i++) {
		if (i < sizeof(escaped) * 8 - 1 && !(escaped >> i & 1))
			continue;
		if (i == fl)
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
		if (frames(r, rec, rec->field[4], fesc, nf) < 0)
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
		if (fl != NOFRAMES && n == fl + 1 && !r->keep_frames &&
		    frames(r, rec, rec->field[fl], fesc, nf) < 0)
			return -1;
	}
	return 1;
}

void
pv_reader_keep_frames(struct pv_reader *r, int on)
{
	r->keep_frames = on != 0;
}

int
pv_reader_split_frames(struct pv_reader *r, struct pv_record *rec)
{
	size_t i = rec->type == PV_REC_OTHER ?
		frames_of(rec->field[0].s, rec->field[0].len) : NOFRAMES;
	struct pv_str f;

	if (i == NOFRAMES || rec->nfield != i + 1)
		return 0;
	f = rec->field[i];
	if (memchr(f.s, '\\', f.len) != NULL)
		return split_escaped_frames(r, f.s, f.len, rec);
	split_frames(r, f.s, f.len, rec);
	return 0;
}

/* Writing */

/*
 * The length of the run of bytes at the start of s[0..len) that need no
 * escape (special[] above lim or 0): sixteen at a time with SSE2, which
 * most names and every reason are made of, the rest one at a time.
 */
static inline size_t
plain_span(const char *s, size_t len, unsigned char lim)
{
	size_t i = 0;

#if defined(__SSE2__) && !defined(PV_NO_SSE2)
	if (len >= 16) {
		const __m128i semi = _mm_set1_epi8(lim > 1 ? ';' : '\\');

		for (; len - i >= 16; i += 16) {
			__m128i v = _mm_loadu_si128(
				(const __m128i *)(const void *)(s + i));
			__m128i m = _mm_or_si128(
				_mm_or_si128(
				    _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
				    _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
				_mm_or_si128(
				    _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')),
				    _mm_cmpeq_epi8(v, _mm_setzero_si128())));
			unsigned bits;

			m = _mm_or_si128(m, _mm_or_si128(
				_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')),
				_mm_cmpeq_epi8(v, semi)));
			bits = (unsigned)_mm_movemask_epi8(m);
			if (bits != 0)
				return i + (size_t)__builtin_ctz(bits);
		}
	}
#endif
	for (; i < len; i++) {
		unsigned char k = special[(unsigned char)s[i]];

		if (k != 0 && k <= lim)
			break;
	}
	return i;
}

void
pv_escape(struct pv_strbuf *sb, const char *s, size_t len, int frame)
{
	size_t i = 0, n;
	unsigned char lim = frame ? 2 : 1;

	pv_strbuf_grow(sb, len);
	for (;;) {
		char e;

		n = plain_span(s + i, len - i, lim);
		pv_strbuf_add(sb, s + i, n);
		i += n;
		if (i == len)
			break;
		switch (s[i]) {
		case '\t': e = 't'; break;
		case '\n': e = 'n'; break;
		case '\r': e = 'r'; break;
		case '\0': e = '0'; break;
		default: e = s[i]; break;	/* '\\' and ';' */
		}
		pv_strbuf_addch(sb, '\\');
		pv_strbuf_addch(sb, e);
		i++;
	}
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
