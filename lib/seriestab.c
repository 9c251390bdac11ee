/*
 * seriestab: the keys' series of versions and the state file (see
 * seriestab.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "rec_changepoint.h"
#include "rec_sample.h"
#include "record.h"
#include "seriestab.h"
#include "xalloc.h"

/* "PVSERIES", the format version, then the contents and their CRC-32 */
#define STATE_MAGIC "PVSERIES"
/*
 * A point's mean is of the logs of positive doubles: within about 745 of
 * zero (log DBL_MAX is 709.8, the log of the least subnormal -744.4); a
 * state's means past it were not written here, and would overflow the
 * search.
 */
#define LOG_MAX 745.0
#define STATE_VERSION 1

void
pv_seriestab_init(struct pv_seriestab *t)
{
	memset(t, 0, sizeof(*t));
	pv_symtab_init(&t->versions);
	pv_symtab_init(&t->keytext);
	pv_strbuf_init(&t->scratch, 256);
	pv_strbuf_init(&t->errfile, 0);
	pv_strbuf_init(&t->experiment, 0);
	pv_strbuf_init(&t->version, 0);
	pv_strbuf_init(&t->last_span, 0);
	t->ver = PV_SERIESTAB_NONE;
	t->last = SIZE_MAX;
}

void
pv_seriestab_release(struct pv_seriestab *t)
{
	size_t i;

	for (i = 0; i < t->nkey; i++) {
		pv_series_release(&t->key[i].series);
		free(t->key[i].ver);
		free(t->key[i].run);
	}
	free(t->key);
	pv_symtab_release(&t->versions);
	pv_symtab_release(&t->keytext);
	pv_arena_release(&t->arena);
	pv_strbuf_release(&t->scratch);
	pv_strbuf_release(&t->errfile);
	pv_strbuf_release(&t->experiment);
	pv_strbuf_release(&t->version);
	pv_strbuf_release(&t->last_span);
	memset(t, 0, sizeof(*t));
}

uint32_t
pv_seriestab_newest(const struct pv_seriestab *t)
{
	return t->versions.nsym ? (uint32_t)t->versions.nsym - 1 :
		PV_SERIESTAB_NONE;
}

struct pv_str
pv_seriestab_version_name(const struct pv_seriestab *t, uint32_t id)
{
	return pv_symtab_get(&t->versions, id);
}

uint32_t
pv_seriestab_note(struct pv_seriestab *t, struct pv_str name)
{
	if (name.len == 0)
		return PV_SERIESTAB_NONE;
	return pv_symtab_intern(&t->versions, name.s, name.len);
}

int
pv_seriestab_version(struct pv_seriestab *t, struct pv_str name,
		     uint32_t *id)
{
	uint32_t v;

	if (name.len == 0)
		return pv_err_set(&t->err, "a series needs the version of "
				  "every value: its section has none");
	v = pv_symtab_intern(&t->versions, name.s, name.len);
	if (v < t->nstate)
		return pv_err_set(&t->err, "version '%.*s' is in the state "
				  "already", (int)name.len, name.s);
	*id = v;
	return 0;
}

static struct pv_str
keep(struct pv_seriestab *t, struct pv_str s)
{
	struct pv_str k = { pv_arena_memdup(&t->arena, s.s, s.len), s.len };

	return k;
}

struct pv_skey *
pv_seriestab_key(struct pv_seriestab *t, const struct pv_runkey *k)
{
	struct pv_skey *key;
	struct pv_str text;
	uint32_t id;

	pv_strbuf_reset(&t->scratch);
	pv_rec_series_key_add(&t->scratch, k);
	id = pv_symtab_intern(&t->keytext, t->scratch.buf, t->scratch.len);
	if (id < t->nkey)
		return &t->key[id];
	PV_GROW(t->key, (size_t)id + 1, t->keyalloc);
	t->nkey = (size_t)id + 1;
	key = &t->key[id];
	memset(key, 0, sizeof(*key));
	text = pv_symtab_get(&t->keytext, id);
	key->text = text;
	key->key.experiment = keep(t, k->experiment);
	key->key.suite = keep(t, k->suite);
	key->key.test = keep(t, k->test);
	key->key.operation = keep(t, k->operation);
	key->key.metric = keep(t, k->metric);
	key->key.unit = keep(t, k->unit);
	key->key.direction = k->direction;
	key->key.level = k->level;
	pv_series_init(&key->series);
	key->cur = PV_SERIESTAB_NONE;
	return key;
}

static void
add_point(struct pv_skey *k, uint32_t ver, const struct pv_series_point *p)
{
	pv_series_add(&k->series, p);
	PV_GROW(k->ver, k->series.npt, k->veralloc);
	k->ver[k->series.npt - 1] = ver;
	if (ver >= k->top)
		k->top = ver + 1;
}

/* The runs gathered for k become a point of its series. */
static void
close_key(struct pv_skey *k)
{
	struct pv_series_point p = { 0, 0, 0 };
	double sum = 0, x;
	size_t i;

	if (k->nrun == 0 || k->bad) {
		k->nrun = 0;
		k->cur = PV_SERIESTAB_NONE;
		return;
	}
	for (i = 0; i < k->nrun; i++) {
		const struct pv_srun *r = &k->run[i];
		double v = r->merged ? r->sum : r->sum / (double)r->n;

		if (!(v > 0) || !isfinite(v)) {
			k->bad = 1;
			k->nrun = 0;
			k->cur = PV_SERIESTAB_NONE;
			return;
		}
		x = log(v);
		/* the run's log, oriented: worse is lower */
		k->run[i].sum = k->key.direction == PV_LOWER_BETTER ? -x : x;
		sum += k->run[i].sum;
	}
	p.n = (uint32_t)k->nrun;
	p.mean = sum / (double)k->nrun;
	for (i = 0; i < k->nrun; i++) {
		x = k->run[i].sum - p.mean;
		p.ss += x * x;
	}
	add_point(k, k->cur, &p);
	k->nrun = 0;
	k->cur = PV_SERIESTAB_NONE;
}

/* Whether k has a point of version ver already. */
static int
has_version(const struct pv_skey *k, uint32_t ver)
{
	size_t i, n = k->series.npt;

	/*
	 * Versions mostly come in order: newer than any is new (not only
	 * newer than the last: an older version may have come last).
	 */
	if (n == 0 || ver >= k->top)
		return 0;
	for (i = 0; i < n; i++)
		if (k->ver[i] == ver)
			return 1;
	return 0;
}

int
pv_seriestab_add(struct pv_seriestab *t, struct pv_skey *k, uint32_t ver,
		 uint64_t run, uint64_t nvalues, double value, int merged)
{
	struct pv_srun *r = NULL;
	size_t i;

	if (k->cur != ver) {
		close_key(k);
		if (has_version(k, ver)) {
			struct pv_str v = pv_symtab_get(&t->versions, ver);

			return pv_err_set(&t->err, "the runs of version '%.*s' "
					  "of this key come in two places (a "
					  "version's runs of a key come "
					  "together)", (int)v.len, v.s);
		}
		k->cur = ver;
	}
	/* runs mostly come in order: look from the newest */
	for (i = k->nrun; i-- > 0;)
		if (k->run[i].id == run) {
			r = &k->run[i];
			break;
		}
	if (r != NULL && (merged || r->merged))
		return pv_err_set(&t->err, "run %llu of this key and version "
				  "is given twice", (unsigned long long)run);
	if (r == NULL) {
		PV_GROW(k->run, k->nrun + 1, k->runalloc);
		r = &k->run[k->nrun++];
		memset(r, 0, sizeof(*r));
		r->id = run;
		r->merged = merged;
	}
	if (!isfinite(r->sum + value))
		return pv_err_set(&t->err, "the values of run %llu add up to "
				  "more than a double holds",
				  (unsigned long long)run);
	r->sum += value;
	r->n += nvalues;
	return 0;
}

/* Sort k's points by version (they came in another order). */
static void
sort_points(struct pv_skey *k)
{
	struct pv_series_point *pt = k->series.pt;
	uint32_t *ver = k->ver;
	size_t i, j, n = k->series.npt;

	for (i = 1; i < n; i++) {
		struct pv_series_point p = pt[i];
		uint32_t v = ver[i];

		for (j = i; j > 0 && ver[j - 1] > v; j--) {
			pt[j] = pt[j - 1];
			ver[j] = ver[j - 1];
		}
		pt[j] = p;
		ver[j] = v;
	}
}

void
pv_seriestab_close(struct pv_seriestab *t)
{
	size_t i, j;

	for (i = 0; i < t->nkey; i++) {
		struct pv_skey *k = &t->key[i];

		close_key(k);
		for (j = 1; j < k->series.npt; j++)
			if (k->ver[j - 1] > k->ver[j]) {
				sort_points(k);
				break;
			}
	}
}

static int
cmp_key(const void *a, const void *b)
{
	const struct pv_skey *x = *(const struct pv_skey *const *)a;
	const struct pv_skey *y = *(const struct pv_skey *const *)b;

	return pv_rec_key_cmp_measure(&x->key, &y->key);
}

struct pv_skey **
pv_seriestab_sorted(struct pv_seriestab *t)
{
	struct pv_skey **v;
	size_t i;

	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	v = pv_xreallocarray(NULL, t->nkey ? t->nkey : 1, sizeof(*v));
	for (i = 0; i < t->nkey; i++)
		v[i] = &t->key[i];
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	qsort(v, t->nkey, sizeof(*v), cmp_key);
	return v;
}

/*
 * The record stream (pv_seriestab_read()): the records read; the others
 * are passed on unchecked.
 */
static const char *const used[] = { "sample", "runval", NULL };

/* pv-series's own records: computed again, not passed on */
static int
is_ours(const struct pv_record *rec)
{
	return rec->type == PV_REC_OTHER &&
		(pv_str_eq(rec->field[0], "changepoint") ||
		 pv_str_eq(rec->field[0], "outlier") ||
		 pv_str_eq(rec->field[0], "trend") ||
		 pv_str_eq(rec->field[0], "scanned"));
}

static struct pv_str
sbstr(const struct pv_strbuf *sb)
{
	struct pv_str s = { sb->buf, sb->len };

	return s;
}

/*
 * The bytes of fields [first, last] of rec as read, when each points into
 * the line (none was unescaped elsewhere); else empty.
 */
static struct pv_str
span(const struct pv_record *rec, size_t first, size_t last)
{
	struct pv_str s = { NULL, 0 };
	const char *lo = rec->raw.s, *hi = rec->raw.s + rec->raw.len;
	size_t i;

	if (rec->folded || rec->nfield <= last)
		return s;
	for (i = first; i <= last; i++)
		if (rec->field[i].s < lo || rec->field[i].s > hi)
			return s;
	s.s = rec->field[first].s;
	s.len = (size_t)(rec->field[last].s + rec->field[last].len - s.s);
	return s;
}

/*
 * The key of a record whose key fields are k and, as read, sp: the key
 * before when sp repeats it; else, when text (a runval record's fields
 * EXPERIMENT to LEVEL as read, with the TAB before each) is the text of a
 * key, as the records write it, that key: its text need not be made
 * again.
 */
static struct pv_skey *
key_of(struct pv_seriestab *t, const struct pv_runkey *k, struct pv_str sp,
       int runval, struct pv_str text)
{
	struct pv_skey *key = NULL;
	uint32_t id;

	if (t->last != SIZE_MAX && sp.len > 0 && runval == t->last_runval &&
	    sp.len == t->last_span.len &&
	    memcmp(sp.s, t->last_span.buf, sp.len) == 0)
		return &t->key[t->last];
	if (text.len > 0) {
		id = pv_symtab_find(&t->keytext, text.s, text.len);
		if (id < t->nkey)
			key = &t->key[id];
	}
	/* a new key may move the others: keep the index */
	if (key == NULL)
		key = pv_seriestab_key(t, k);
	t->last = sp.len > 0 ? (size_t)(key - t->key) : SIZE_MAX;
	t->last_runval = runval;
	pv_strbuf_reset(&t->last_span);
	if (sp.len > 0)
		pv_strbuf_add(&t->last_span, sp.s, sp.len);
	return key;
}

static int
read_sample(struct pv_seriestab *t, const struct pv_record *rec)
{
	const struct pv_str none = { NULL, 0 };
	struct pv_runkey k;
	struct pv_skey *key;

	if (t->ver == PV_SERIESTAB_NONE &&
	    pv_seriestab_version(t, sbstr(&t->version), &t->ver) < 0)
		return -1;
	memset(&k, 0, sizeof(k));
	k.experiment = sbstr(&t->experiment);
	k.suite = rec->suite;
	k.test = rec->test;
	k.operation = rec->operation;
	k.metric = rec->metric;
	k.unit = rec->unit;
	k.direction = rec->direction;
	k.level = rec->level;
	key = key_of(t, &k, span(rec, 1, 7), 0, none);
	return pv_seriestab_add(t, key, t->ver, rec->run, 1, rec->val, 0);
}

static int
read_runval(struct pv_seriestab *t, const struct pv_record *rec)
{
	struct pv_str sp = span(rec, 3, 10);
	struct pv_str text = pv_rec_runval_series_key_text(rec);
	struct pv_runval rv;
	struct pv_skey *key;
	uint32_t ver;

	if (pv_rec_runval_parse(rec, &rv, &t->err) < 0 ||
	    pv_seriestab_version(t, rv.key.version, &ver) < 0)
		return -1;
	key = key_of(t, &rv.key, sp, 1, text);
	return pv_seriestab_add(t, key, ver, rv.run, rv.nvalues, rv.value, 1);
}

int
pv_seriestab_read(struct pv_seriestab *t, const char *path,
		  pv_seriestab_pass_fn *pass, void *arg)
{
	struct pv_reader *r;
	struct pv_record rec;
	int rc;

	pv_strbuf_reset(&t->errfile);
	t->errline = 0;
	if ((r = pv_reader_open(path)) == NULL)
		return pv_err_set_errno(&t->err, errno, "cannot open '%s'",
					path);
	pv_reader_use(r, used);
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if (rec.type == PV_REC_SECTION) {
			pv_strbuf_reset(&t->experiment);
			pv_strbuf_add(&t->experiment, rec.experiment.s,
				      rec.experiment.len);
			pv_strbuf_reset(&t->version);
			pv_strbuf_add(&t->version, rec.version.s,
				      rec.version.len);
			t->ver = PV_SERIESTAB_NONE;
			t->last = SIZE_MAX;
			/* the order of the series: that of the sections */
			pv_seriestab_note(t, rec.version);
		} else if (rec.type == PV_REC_SAMPLE) {
			if (read_sample(t, &rec) < 0)
				break;
		} else if (is_ours(&rec)) {
			continue;
		} else if (rec.type == PV_REC_OTHER &&
			   pv_str_eq(rec.field[0], "runval")) {
			if (read_runval(t, &rec) < 0)
				break;
		}
		if (pass != NULL)
			pass(arg, &rec);
	}
	if (rc < 0)
		pv_err_set(&t->err, "%s", pv_reader_error(r));
	if (rc != 0) {
		pv_strbuf_addstr(&t->errfile, pv_reader_name(r));
		t->errline = pv_reader_lineno(r);
	}
	pv_reader_close(r);
	return rc != 0 ? -1 : 0;
}

/*
 * The state's encoding: whole numbers and doubles (their IEEE-754 bits)
 * little endian, strings as a 32-bit length and their bytes.
 */
static void
put_u64(struct pv_strbuf *sb, uint64_t v, int bytes)
{
	unsigned char *p;
	int i;

	pv_strbuf_grow(sb, (size_t)bytes);
	p = (unsigned char *)sb->buf + sb->len;
	for (i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
	pv_strbuf_setlen(sb, sb->len + (size_t)bytes);
}

static void
put_f64(struct pv_strbuf *sb, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	put_u64(sb, v, 8);
}

static void
put_str(struct pv_strbuf *sb, struct pv_str s)
{
	put_u64(sb, s.len, 4);
	pv_strbuf_add(sb, s.s, s.len);
}

struct cursor {
	const unsigned char *p, *end;
	int bad;
};

static uint64_t
get_u64(struct cursor *c, int bytes)
{
	uint64_t v = 0;
	int i;

	if (c->bad || c->end - c->p < bytes) {
		c->bad = 1;
		return 0;
	}
	for (i = 0; i < bytes; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += bytes;
	return v;
}

static double
get_f64(struct cursor *c)
{
	uint64_t v = get_u64(c, 8);
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

static struct pv_str
get_str(struct cursor *c)
{
	struct pv_str s = { "", 0 };
	uint64_t n = get_u64(c, 4);

	if (c->bad || (uint64_t)(c->end - c->p) < n) {
		c->bad = 1;
		return s;
	}
	s.s = (const char *)c->p;
	s.len = (size_t)n;
	c->p += n;
	return s;
}

int
pv_seriestab_save(struct pv_seriestab *t, const char *path,
		  const struct pv_series_opts *o, struct pv_strbuf *tmp)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	size_t i, j, n;
	uLong crc;
	FILE *f;
	int fd;

	pv_strbuf_addstr(&sb, STATE_MAGIC);
	put_u64(&sb, STATE_VERSION, 4);
	put_f64(&sb, o->alpha);
	put_u64(&sb, o->window, 8);
	put_u64(&sb, t->versions.nsym, 8);
	for (i = 0; i < t->versions.nsym; i++)
		put_str(&sb, pv_symtab_get(&t->versions, (uint32_t)i));
	put_u64(&sb, t->nkey, 8);
	for (i = 0; i < t->nkey; i++) {
		const struct pv_skey *k = &t->key[i];
		const struct pv_series *s = &k->series;

		put_str(&sb, k->key.experiment);
		put_str(&sb, k->key.suite);
		put_str(&sb, k->key.test);
		put_str(&sb, k->key.operation);
		put_str(&sb, k->key.metric);
		put_str(&sb, k->key.unit);
		put_u64(&sb, k->key.direction == PV_LOWER_BETTER, 1);
		put_u64(&sb, k->key.level, 8);
		put_u64(&sb, (uint64_t)k->bad, 1);
		put_u64(&sb, s->npt, 8);
		for (j = 0; j < s->npt; j++) {
			put_u64(&sb, k->ver[j], 4);
			put_u64(&sb, s->pt[j].n, 4);
			put_f64(&sb, s->pt[j].mean);
			put_f64(&sb, s->pt[j].ss);
		}
		put_u64(&sb, s->nwin, 8);
		put_u64(&sb, s->ncand, 8);
		for (j = 0; j < s->ncand; j++)
			put_u64(&sb, s->cand[j], 4);
	}
	crc = crc32(0L, Z_NULL, 0);
	for (i = 0; i < sb.len; i += n) {
		n = sb.len - i > (1u << 30) ? (1u << 30) : sb.len - i;
		crc = crc32(crc, (const Bytef *)sb.buf + i, (uInt)n);
	}
	put_u64(&sb, crc, 4);

	pv_strbuf_reset(tmp);
	pv_strbuf_addf(tmp, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp->buf);
	if (fd < 0) {
		pv_err_set_errno(&t->err, errno, "cannot create '%s'",
				 tmp->buf);
		pv_strbuf_release(&sb);
		return -1;
	}
	f = fdopen(fd, "wb");
	if (f == NULL || fwrite(sb.buf, 1, sb.len, f) != sb.len ||
	    fflush(f) != 0 || fsync(fileno(f)) != 0) {
		pv_err_set_errno(&t->err, errno, "cannot write '%s'",
				 tmp->buf);
		if (f != NULL)
			fclose(f);
		else
			close(fd);
		unlink(tmp->buf);
		pv_strbuf_release(&sb);
		return -1;
	}
	pv_strbuf_release(&sb);
	if (fclose(f) != 0) {
		pv_err_set_errno(&t->err, errno, "cannot write '%s'",
				 tmp->buf);
		unlink(tmp->buf);
		return -1;
	}
	return 0;
}

/* The whole of file path into sb: 0, or -1 with errno set. */
static int
slurp(const char *path, struct pv_strbuf *sb)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (f == NULL)
		return -1;
	for (;;) {
		pv_strbuf_grow(sb, 1 << 16);
		n = fread(sb->buf + sb->len, 1, sb->alloc - sb->len - 1, f);
		pv_strbuf_setlen(sb, sb->len + n);
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		errno = e ? e : EIO;
		return -1;
	}
	fclose(f);
	return 0;
}

static int
bad_state(struct pv_seriestab *t, const char *path, const char *why)
{
	return pv_err_set(&t->err, "'%s' is not a pv-series state: %s", path,
			  why);
}

int
pv_seriestab_load(struct pv_seriestab *t, const char *path,
		  double *o_alpha, size_t *o_window)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct cursor c;
	uint64_t nver, nkey, i, j, npt, ncand;
	uLong crc;
	size_t n;
	int rc = -1;

	if (slurp(path, &sb) < 0) {
		pv_strbuf_release(&sb);
		if (errno == ENOENT)
			return 0;
		return pv_err_set_errno(&t->err, errno, "cannot read '%s'",
					path);
	}
	if (sb.len < 8 + 4 + 4 || memcmp(sb.buf, STATE_MAGIC, 8) != 0) {
		bad_state(t, path, "no header");
		goto out;
	}
	c.p = (const unsigned char *)sb.buf + sb.len - 4;
	c.end = c.p + 4;
	c.bad = 0;
	crc = crc32(0L, Z_NULL, 0);
	for (i = 0; i < sb.len - 4; i += n) {
		n = sb.len - 4 - i > (1u << 30) ? (1u << 30) :
			sb.len - 4 - (size_t)i;
		crc = crc32(crc, (const Bytef *)sb.buf + i, (uInt)n);
	}
	if (get_u64(&c, 4) != (crc & 0xffffffff)) {
		bad_state(t, path, "its checksum does not match (damaged or "
			  "cut short)");
		goto out;
	}
	c.p = (const unsigned char *)sb.buf + 8;
	c.end = (const unsigned char *)sb.buf + sb.len - 4;
	if (get_u64(&c, 4) != STATE_VERSION) {
		bad_state(t, path, "a format version this pv-series does not "
			  "know");
		goto out;
	}
	*o_alpha = get_f64(&c);
	*o_window = (size_t)get_u64(&c, 8);
	nver = get_u64(&c, 8);
	for (i = 0; i < nver && !c.bad; i++) {
		struct pv_str s = get_str(&c);

		if (c.bad || pv_symtab_intern(&t->versions, s.s, s.len) != i) {
			bad_state(t, path, "a version given twice");
			goto out;
		}
	}
	t->nstate = (uint32_t)t->versions.nsym;
	nkey = get_u64(&c, 8);
	for (i = 0; i < nkey && !c.bad; i++) {
		struct pv_runkey k;
		struct pv_skey *key;

		memset(&k, 0, sizeof(k));
		k.experiment = get_str(&c);
		k.suite = get_str(&c);
		k.test = get_str(&c);
		k.operation = get_str(&c);
		k.metric = get_str(&c);
		k.unit = get_str(&c);
		k.direction = get_u64(&c, 1) ? PV_LOWER_BETTER :
			PV_HIGHER_BETTER;
		k.level = get_u64(&c, 8);
		if (c.bad)
			break;
		key = pv_seriestab_key(t, &k);
		if (key->series.npt > 0 || key->bad) {
			bad_state(t, path, "a key given twice");
			goto out;
		}
		key->bad = (int)get_u64(&c, 1);
		npt = get_u64(&c, 8);
		for (j = 0; j < npt && !c.bad; j++) {
			struct pv_series_point p;
			uint32_t ver = (uint32_t)get_u64(&c, 4);

			p.n = (uint32_t)get_u64(&c, 4);
			p.mean = get_f64(&c);
			p.ss = get_f64(&c);
			if (c.bad || ver >= nver || p.n == 0 ||
			    (j > 0 && ver <= key->ver[j - 1]) ||
			    !(fabs(p.mean) <= LOG_MAX) || !(p.ss >= 0) ||
			    !(p.ss <= (double)p.n * 4 * LOG_MAX * LOG_MAX)) {
				bad_state(t, path, "a key's versions or values "
					  "are out of order or out of range");
				goto out;
			}
			add_point(key, ver, &p);
		}
		key->series.nwin = (size_t)get_u64(&c, 8);
		/* windows searched are windows of its points: no more */
		if (key->series.nwin > npt) {
			bad_state(t, path, "more windows searched than a key "
				  "has versions");
			goto out;
		}
		ncand = get_u64(&c, 8);
		for (j = 0; j < ncand && !c.bad; j++) {
			uint64_t at = get_u64(&c, 4);

			if (at == 0 || at >= npt) {
				bad_state(t, path, "a candidate out of range");
				goto out;
			}
			PV_GROW(key->series.cand, key->series.ncand + 1,
				key->series.candalloc);
			key->series.cand[key->series.ncand++] = (uint32_t)at;
		}
	}
	if (c.bad || c.p != c.end) {
		bad_state(t, path, "cut short or too long");
		goto out;
	}
	rc = 1;
out:
	pv_strbuf_release(&sb);
	return rc;
}
