/*
 * rec_index: writing and parsing the lines of a store's index (see
 * rec_index.h).  The parser checks a line in the order the store has
 * always reported its faults in: the number of fields, the object name,
 * the numbers, then the escapes of the strings; the fields of a type it
 * does not know it leaves alone, so that an index of a later version,
 * with records this one does not know, still reads (the tests line came
 * so: the pv-store before it skips it).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "field.h"
#include "rec_index.h"
#include "rec_section.h"
#include "sha256.h"
#include "xalloc.h"

void
pv_rec_index_init(struct pv_rec_index *ix)
{
	struct pv_rec_index blank = PV_REC_INDEX_INIT;

	*ix = blank;
}

void
pv_rec_index_release(struct pv_rec_index *ix)
{
	free(ix->field);
	free(ix->test_buf);
	pv_strbuf_release(&ix->unesc);
	pv_rec_index_init(ix);
}

void
pv_rec_index_write(struct pv_strbuf *sb, const struct pv_rec_index *ix)
{
	size_t i;

	switch (ix->type) {
	case PV_REC_INDEX_HEAD:
		/* the pv-format record has its codec */
		pv_rec_pv_format_write(sb);
		return;
	case PV_REC_INDEX_ADD:
		pv_field_type(sb, "add");
		pv_field_add_opt_str(sb, ix->version);
		pv_field_add_raw(sb, ix->hash.s, ix->hash.len);
		pv_field_add_u64(sb, ix->size);
		pv_field_add_u64(sb, ix->csize);
		pv_field_add_u64(sb, (uint64_t)ix->time);
		pv_field_add_opt_str(sb, ix->kinds);
		pv_field_add_opt_str(sb, ix->commit);
		pv_field_add_opt_str(sb, ix->branch);
		pv_field_add_opt_str(sb, ix->name);
		for (i = 0; i < ix->nexperiment; i++)
			pv_field_add_opt_str(sb, ix->experiment[i]);
		break;
	case PV_REC_INDEX_RM:
		pv_field_type(sb, "rm");
		pv_field_add_opt_str(sb, ix->version);
		pv_field_add_raw(sb, ix->hash.s, ix->hash.len);
		pv_field_add_u64(sb, (uint64_t)ix->time);
		break;
	case PV_REC_INDEX_TESTS:
		pv_field_type(sb, "tests");
		pv_field_add_opt_str(sb, ix->version);
		pv_field_add_raw(sb, ix->hash.s, ix->hash.len);
		for (i = 0; i < ix->ntest; i++) {
			pv_field_add_opt_str(sb, ix->test[i].experiment);
			pv_field_add_str(sb, ix->test[i].suite);
			pv_field_add_str(sb, ix->test[i].test);
			pv_field_add_u64(sb, ix->test[i].runs);
		}
		break;
	default:
		return;
	}
	pv_field_end(sb);
}

int
pv_rec_index_is_head(const char *line, size_t len)
{
	size_t n = sizeof(PV_FORMAT_NAME) - 1;

	return len > n && memcmp(line, PV_FORMAT_NAME, n) == 0 &&
		line[n] == '\t';
}

/* an object name: the SHA-256 of its bytes in 64 lowercase hex digits */
static int
get_hash(struct pv_str f, struct pv_str *hash, struct pv_err *e)
{
	const unsigned char *u = (const unsigned char *)f.s;
	unsigned char bad = 0;
	int ok = f.len == PV_SHA256_HEXLEN;
	size_t i;

	/* without a branch a byte (two names a stream are checked) */
	for (i = 0; ok && i < PV_SHA256_HEXLEN; i++)
		bad |= (unsigned char)(u[i] - '0') > 9 &&
		       (unsigned char)(u[i] - 'a') > 5;
	ok = ok && !bad;
	if (!ok)
		return pv_err_set(e, "'%.*s' is not an object name (64 hex "
				  "digits)", (int)(f.len > 70 ? 70 : f.len),
				  f.s);
	*hash = f;
	return 0;
}

static int
get_count(struct pv_str f, const char *what, uint64_t max, uint64_t *v,
	  struct pv_err *e)
{
	if (pv_field_get_u64(f, v) < 0 || *v > max)
		return pv_field_bad(e, what, f, "a whole number in range");
	return 0;
}

/*
 * A string field unescaped (into ix->unesc, which has room for the whole
 * line), or absent for "-" where dash is set; *bad set for a bad escape.
 */
static struct pv_str
get_str(struct pv_rec_index *ix, struct pv_str f, int dash, int *bad)
{
	struct pv_str out;

	if (dash && pv_str_eq(f, "-")) {
		out.s = NULL;
		out.len = 0;
		return out;
	}
	if (memchr(f.s, '\\', f.len) == NULL)
		return f;
	out.s = ix->unesc.buf + ix->unesc.len;
	if (pv_unescape(&ix->unesc, f.s, f.len) < 0) {
		*bad = 1;
		return f;
	}
	out.len = (size_t)(ix->unesc.buf + ix->unesc.len - out.s);
	return out;
}

/* A tests line's fields f[0..n): its tests into ix->test. */
static int
parse_tests(struct pv_rec_index *ix, struct pv_str *f, size_t n,
	    struct pv_err *e)
{
	struct pv_rec_index_test *t;
	size_t i, k;
	int bad = 0;

	if (n < 3 || (n - 3) % 4 != 0)
		return pv_err_set(e, "a 'tests' line has 3 fields and 4 a "
				  "test, not %zu", n);
	if (get_hash(f[2], &ix->hash, e) < 0)
		return -1;
	ix->version = get_str(ix, f[1], 0, &bad);
	ix->ntest = (n - 3) / 4;
	PV_GROW(ix->test_buf, ix->ntest, ix->test_alloc);
	for (i = 0, k = 3; i < ix->ntest; i++, k += 4) {
		t = &ix->test_buf[i];
		if (get_count(f[k + 3], "runs", UINT64_MAX, &t->runs, e) < 0)
			return -1;
		t->experiment = get_str(ix, f[k], 1, &bad);
		if (t->experiment.s == NULL)
			t->experiment.s = "";
		t->suite = get_str(ix, f[k + 1], 0, &bad);
		t->test = get_str(ix, f[k + 2], 0, &bad);
	}
	if (bad)
		return pv_err_set(e, "bad escape");
	ix->test = ix->test_buf;
	ix->type = PV_REC_INDEX_TESTS;
	return 0;
}

int
pv_rec_index_parse(const char *line, size_t len, struct pv_rec_index *ix,
		   struct pv_err *e)
{
	const char *p = line, *end = line + len, *tab;
	struct pv_str *f;
	uint64_t time;
	size_t n = 0, i;
	int bad = 0;

	ix->type = PV_REC_INDEX_NONE;
	if (len == 0 || line[0] == '#')
		return 0;
	/* as many fields as the line has: the writers put no limit on them */
	for (;;) {
		PV_GROW(ix->field, n + 1, ix->field_alloc);
		tab = memchr(p, '\t', (size_t)(end - p));
		ix->field[n].s = p;
		ix->field[n].len = (size_t)((tab != NULL ? tab : end) - p);
		n++;
		if (tab == NULL)
			break;
		p = tab + 1;
	}
	f = ix->field;
	if (pv_str_eq(f[0], PV_FORMAT_NAME)) {
		if (n != 2 || !pv_str_eq(f[1], "1"))
			return pv_err_set(e, "not a version 1 index");
		ix->type = PV_REC_INDEX_HEAD;
		return 0;
	}
	pv_strbuf_reset(&ix->unesc);
	pv_strbuf_grow(&ix->unesc, len);
	if (pv_str_eq(f[0], "rm")) {
		if (n != 4)
			return pv_err_set(e, "an 'rm' line has 4 fields, not "
					  "%zu", n);
		if (get_hash(f[2], &ix->hash, e) < 0)
			return -1;
		ix->version = get_str(ix, f[1], 0, &bad);
		if (bad)
			return pv_err_set(e, "bad escape");
		ix->time = 0;
		ix->type = PV_REC_INDEX_RM;
		return 0;
	}
	if (pv_str_eq(f[0], "tests"))
		return parse_tests(ix, f, n, e);
	if (!pv_str_eq(f[0], "add"))
		return 0;	/* a record type of a later version */
	if (n < 10)
		return pv_err_set(e, "an 'add' line has 10 fields or more, "
				  "not %zu", n);
	if (get_hash(f[2], &ix->hash, e) < 0)
		return -1;
	ix->version = get_str(ix, f[1], 0, &bad);
	if (get_count(f[3], "size", UINT64_MAX, &ix->size, e) < 0 ||
	    get_count(f[4], "compressed size", UINT64_MAX, &ix->csize, e) < 0 ||
	    get_count(f[5], "time", INT64_MAX, &time, e) < 0)
		return -1;
	ix->time = (int64_t)time;
	ix->kinds = get_str(ix, f[6], 0, &bad);
	ix->commit = get_str(ix, f[7], 1, &bad);
	ix->branch = get_str(ix, f[8], 1, &bad);
	ix->name = get_str(ix, f[9], 1, &bad);
	for (i = 10; i < n; i++) {
		f[i] = get_str(ix, f[i], 1, &bad);
		if (f[i].s == NULL)
			f[i].s = "";
	}
	if (bad)
		return pv_err_set(e, "bad escape");
	ix->experiment = f + 10;
	ix->nexperiment = n - 10;
	ix->type = PV_REC_INDEX_ADD;
	return 0;
}
