/*
 * runtab: values by key, reduced to one per run (see runtab.h).
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtab.h"
#include "xalloc.h"

void
pv_runtab_init(struct pv_runtab *t)
{
	memset(t, 0, sizeof(*t));
	pv_symtab_init(&t->keys);
	pv_symtab_init(&t->strs);
	pv_strbuf_init(&t->scratch, 256);
	pv_strbuf_init(&t->last_raw, 256);
}

void
pv_runtab_release(struct pv_runtab *t)
{
	free(t->set);
	pv_symtab_release(&t->keys);
	pv_symtab_release(&t->strs);
	pv_arena_release(&t->runs);
	pv_strbuf_release(&t->scratch);
	pv_strbuf_release(&t->last_raw);
	memset(t, 0, sizeof(*t));
}

static void
add_num(struct pv_strbuf *sb, uint64_t v)
{
	pv_strbuf_addch(sb, '\t');
	if (v == PV_NONE)
		pv_strbuf_addch(sb, '-');
	else
		pv_strbuf_addu(sb, v);
}

static void
add_str(struct pv_strbuf *sb, struct pv_str s)
{
	pv_strbuf_addch(sb, '\t');
	if (s.len == 0)
		pv_strbuf_addch(sb, '-');
	else
		pv_escape(sb, s.s, s.len, 0);
}

void
pv_runkey_format_section(struct pv_strbuf *sb, const struct pv_runkey *k)
{
	add_str(sb, k->role);
	add_str(sb, k->version);
	add_str(sb, k->experiment);
}

void
pv_runkey_format(struct pv_strbuf *sb, const struct pv_runkey *k,
		 int with_section)
{
	if (with_section)
		pv_runkey_format_section(sb, k);
	add_str(sb, k->suite);
	add_str(sb, k->test);
	add_str(sb, k->operation);
	add_str(sb, k->metric);
	add_str(sb, k->unit);
	pv_strbuf_addstr(sb, k->direction == PV_LOWER_BETTER ?
			 "\tlower" : "\thigher");
	add_num(sb, k->level);
}

struct pv_str
pv_runtab_key_text(const struct pv_runtab *t, const struct pv_runset *set)
{
	/* a set's index is its key's id */
	return pv_symtab_get(&t->keys, (uint32_t)(set - t->set));
}

void
pv_runkey_format_text(struct pv_strbuf *sb, const struct pv_runkey *key,
		      struct pv_str text)
{
	/* text is TAB ROLE TAB VERSION TAB EXPERIMENT ...: the third TAB */
	const char *end = text.s + text.len, *p = text.len ? text.s : NULL;
	int k;

	for (k = 0; k < 2 && p != NULL; k++)
		p = memchr(p + 1, '\t', (size_t)(end - p - 1));
	add_str(sb, key->role);
	add_str(sb, key->version);
	if (p != NULL)
		pv_strbuf_add(sb, p, (size_t)(end - p));
}

static struct pv_str
keep(struct pv_runtab *t, struct pv_str s, uint32_t *id)
{
	*id = pv_symtab_intern(&t->strs, s.s, s.len);
	return pv_symtab_get(&t->strs, *id);
}

/* The set of key, whose text (pv_runkey_format()) is in t->scratch. */
static struct pv_runset *
get_formatted(struct pv_runtab *t, const struct pv_runkey *key)
{
	struct pv_runset *set;
	uint32_t id;

	id = pv_symtab_intern(&t->keys, t->scratch.buf, t->scratch.len);
	if (id < t->nset)
		return &t->set[id];
	PV_GROW(t->set, (size_t)id + 1, t->alloc);
	t->last = NULL;		/* the array may have moved */
	pv_strbuf_reset(&t->last_raw);
	t->nset = (size_t)id + 1;
	set = &t->set[id];
	memset(set, 0, sizeof(*set));
	set->key.role = keep(t, key->role, &set->sid[0]);
	set->key.version = keep(t, key->version, &set->sid[1]);
	set->key.experiment = keep(t, key->experiment, &set->sid[2]);
	set->key.suite = keep(t, key->suite, &set->sid[3]);
	set->key.test = keep(t, key->test, &set->sid[4]);
	set->key.operation = keep(t, key->operation, &set->sid[5]);
	set->key.metric = keep(t, key->metric, &set->sid[6]);
	set->key.unit = keep(t, key->unit, &set->sid[7]);
	set->key.direction = key->direction;
	set->key.level = key->level;
	return set;
}

struct pv_runset *
pv_runtab_get(struct pv_runtab *t, const struct pv_runkey *key)
{
	pv_strbuf_reset(&t->scratch);
	pv_runkey_format(&t->scratch, key, 1);
	return get_formatted(t, key);
}

/* The run with this id, or NULL; runs mostly arrive in order, so look
 * from the newest. */
static struct pv_run *
find_run(struct pv_runset *set, uint64_t id)
{
	size_t i;

	for (i = set->nrun; i-- > 0;)
		if (set->run[i].id == id)
			return &set->run[i];
	return NULL;
}

/*
 * A new run of set.  Run tables live in an arena: samples come grouped by
 * key, so the table that grows is nearly always the newest block and grows
 * in place by one; another doubles into a copy.
 */
static struct pv_run *
new_run(struct pv_runtab *t, struct pv_runset *set, uint64_t id)
{
	struct pv_run *r;

	if (set->nrun == set->alloc) {
		size_t n = set->alloc + 1, sz = sizeof(*set->run);

		if (!pv_arena_is_last(&t->runs, set->run, set->alloc * sz))
			n = set->alloc < 4 ? 4 : 2 * set->alloc;
		if (n > SIZE_MAX / sz)
			pv_xalloc_die();
		set->run = pv_arena_resize(&t->runs, set->run,
					   set->alloc * sz, n * sz);
		set->alloc = n;
	}
	r = &set->run[set->nrun++];
	memset(r, 0, sizeof(*r));
	r->id = id;
	return r;
}

/*
 * The bytes of a sample record's fields SUITE to LEVEL as read, when they
 * all point into the line (none unescaped elsewhere); else empty.
 */
static struct pv_str
key_span(const struct pv_record *rec)
{
	struct pv_str s = { NULL, 0 };
	const char *lo = rec->raw.s, *hi = rec->raw.s + rec->raw.len;
	size_t i;

	if (rec->folded || rec->nfield < 8)
		return s;
	for (i = 1; i <= 7; i++)
		if (rec->field[i].s < lo || rec->field[i].s > hi)
			return s;
	s.s = rec->field[1].s;
	s.len = (size_t)(rec->field[7].s + rec->field[7].len - s.s);
	return s;
}

/*
 * Whether a key span (key_span(), not empty) is the text
 * pv_runkey_format() writes for its fields: none is empty (written "-"),
 * none holds a CR (written escaped), and LEVEL has no leading zero.
 */
static int
span_is_text(struct pv_str span, struct pv_str level)
{
	size_t i;

	if (span.s[0] == '\t' || span.s[0] == '\r' ||
	    span.s[span.len - 1] == '\t')
		return 0;
	for (i = 1; i < span.len; i++)
		if (span.s[i] == '\r' || (span.s[i] == '\t' &&
					   span.s[i - 1] == '\t'))
			return 0;
	return level.len < 2 || level.s[0] != '0';
}

int
pv_runtab_add_sample(struct pv_runtab *t, struct pv_str role,
		     struct pv_str version, struct pv_str experiment,
		     const struct pv_record *rec)
{
	struct pv_runkey k;
	struct pv_runset *set;
	struct pv_run *r;
	struct pv_str raw;

	k.role = role;
	k.version = version;
	k.experiment = experiment;
	k.suite = rec->suite;
	k.test = rec->test;
	k.operation = rec->operation;
	k.metric = rec->metric;
	k.unit = rec->unit;
	k.direction = rec->direction;
	k.level = rec->level;
	/*
	 * Samples come grouped by key: skip the hash when it repeats.  The
	 * key's fields SUITE to LEVEL are one span of the line when none
	 * was escaped: compare that with the previous sample's first.
	 */
	raw = key_span(rec);
	set = t->last;
	if (set != NULL && raw.len > 0 && raw.len == t->last_raw.len &&
	    memcmp(raw.s, t->last_raw.buf, raw.len) == 0) {
		if (pv_str_cmp(set->key.role, role) != 0 ||
		    pv_str_cmp(set->key.version, version) != 0 ||
		    pv_str_cmp(set->key.experiment, experiment) != 0)
			set = NULL;
	} else if (set != NULL && pv_runkey_cmp(&set->key, &k) != 0) {
		set = NULL;
	}
	if (set == NULL) {
		/* the key's text from the line's, escaped as it is */
		pv_strbuf_reset(&t->scratch);
		if (raw.len > 0 && span_is_text(raw, rec->field[7])) {
			pv_runkey_format_section(&t->scratch, &k);
			pv_strbuf_addch(&t->scratch, '\t');
			pv_strbuf_add(&t->scratch, raw.s, raw.len);
		} else {
			pv_runkey_format(&t->scratch, &k, 1);
		}
		set = get_formatted(t, &k);
		t->last = set;
		pv_strbuf_reset(&t->last_raw);
		if (raw.len > 0)
			pv_strbuf_add(&t->last_raw, raw.s, raw.len);
	}
	r = find_run(set, rec->run);
	if (r == NULL)
		r = new_run(t, set, rec->run);
	/* finite values can add up to an infinity: refuse the run */
	if (!isfinite(r->sum + rec->val)) {
		snprintf(t->err, sizeof(t->err), "the values of run %llu add "
			 "up to more than a double holds",
			 (unsigned long long)rec->run);
		return -1;
	}
	r->nvalues++;
	r->sum += rec->val;
	return 0;
}

static int
fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static struct pv_str
absent(struct pv_str f)
{
	if (f.len == 1 && f.s[0] == '-')
		f.len = 0;
	return f;
}

int
pv_runkey_parse(const struct pv_record *rec, size_t first,
		struct pv_runkey *k, char *err, size_t errlen)
{
	const struct pv_str *f = rec->field + first;
	struct pv_str dir, lev;

	/* all of k is set whatever the outcome (the analyzer asks it) */
	memset(k, 0, sizeof(*k));
	if (rec->nfield < first + 10)
		return fail(err, errlen, "a '%.*s' record needs at least %zu "
			    "fields", (int)rec->field[0].len,
			    rec->field[0].s, first + 10);
	k->role = absent(f[0]);
	k->version = absent(f[1]);
	k->experiment = absent(f[2]);
	k->suite = absent(f[3]);
	k->test = absent(f[4]);
	k->operation = absent(f[5]);
	k->metric = absent(f[6]);
	k->unit = absent(f[7]);
	dir = f[8];
	if (pv_str_eq(dir, "higher"))
		k->direction = PV_HIGHER_BETTER;
	else if (pv_str_eq(dir, "lower"))
		k->direction = PV_LOWER_BETTER;
	else
		return fail(err, errlen, "direction '%.*s' is neither "
			    "'higher' nor 'lower'",
			    (int)(dir.len > 40 ? 40 : dir.len), dir.s);
	lev = f[9];
	if (pv_str_eq(lev, "-"))
		k->level = PV_NONE;
	else if (pv_parse_u64(lev.s, lev.len, &k->level) < 0 ||
		 k->level == PV_NONE)
		return fail(err, errlen, "level '%.*s' is not a whole number",
			    (int)(lev.len > 40 ? 40 : lev.len), lev.s);
	return 0;
}

int
pv_runtab_add_runval(struct pv_runtab *t, const struct pv_record *rec)
{
	struct pv_runkey k;
	struct pv_runset *set;
	struct pv_run *r;
	uint64_t id, nv;
	double v;

	if (rec->nfield != 14)
		return fail(t->err, sizeof(t->err), "a runval record has 14 "
			    "fields, not %zu", rec->nfield);
	if (pv_runkey_parse(rec, 1, &k, t->err, sizeof(t->err)) < 0)
		return -1;
	if (pv_parse_u64(rec->field[11].s, rec->field[11].len, &id) < 0)
		return fail(t->err, sizeof(t->err), "run '%.*s' is not a "
			    "whole number", (int)rec->field[11].len,
			    rec->field[11].s);
	if (pv_parse_u64(rec->field[12].s, rec->field[12].len, &nv) < 0 ||
	    nv == 0)
		return fail(t->err, sizeof(t->err), "count '%.*s' is not a "
			    "positive whole number", (int)rec->field[12].len,
			    rec->field[12].s);
	if (pv_parse_double(rec->field[13].s, rec->field[13].len, &v) < 0)
		return fail(t->err, sizeof(t->err), "value '%.*s' is not a "
			    "finite number",
			    (int)(rec->field[13].len > 40 ? 40 :
				  rec->field[13].len), rec->field[13].s);
	set = pv_runtab_get(t, &k);
	if (find_run(set, id) != NULL)
		return fail(t->err, sizeof(t->err), "run %llu of this key is "
			    "given twice (a run cut across inputs?)",
			    (unsigned long long)id);
	r = new_run(t, set, id);
	r->nvalues = nv;
	r->sum = v;		/* merged: sum holds the value itself */
	r->merged = 1;
	return 0;
}

static int
cmp_run(const void *a, const void *b)
{
	const struct pv_run *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The first run out of order, or n when they are in order. */
static size_t
runs_unsorted(const struct pv_run *run, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (run[i - 1].id > run[i].id)
			return i;
	return n;
}

/* Sort run[0..n) by id; run[0..i) is in order. */
static void
sort_runs(struct pv_run *run, size_t n, size_t i)
{
	size_t j;

	if (n > 32) {
		qsort(run, n, sizeof(*run), cmp_run);
		return;
	}
	for (; i < n; i++) {
		struct pv_run r = run[i];

		for (j = i; j > 0 && run[j - 1].id > r.id; j--)
			run[j] = run[j - 1];
		run[j] = r;
	}
}

void
pv_runset_sort(struct pv_runset *set)
{
	/* runs nearly always come in order: check before sorting */
	size_t i = runs_unsorted(set->run, set->nrun);

	if (i < set->nrun)
		sort_runs(set->run, set->nrun, i);
}

void
pv_runset_values(const struct pv_runset *set, double *out)
{
	size_t i = runs_unsorted(set->run, set->nrun);
	struct pv_run *copy;

	if (i >= set->nrun) {
		for (i = 0; i < set->nrun; i++)
			out[i] = pv_run_value(&set->run[i]);
		return;
	}
	/* the set may be read by other threads: sort a copy */
	copy = pv_xreallocarray(NULL, set->nrun, sizeof(*copy));
	memcpy(copy, set->run, set->nrun * sizeof(*copy));
	sort_runs(copy, set->nrun, i);
	for (i = 0; i < set->nrun; i++)
		out[i] = pv_run_value(&copy[i]);
	free(copy);
}

int
pv_runkey_cmp_measure(const struct pv_runkey *a, const struct pv_runkey *b)
{
	int c;

	if ((c = pv_str_cmp(a->experiment, b->experiment)) != 0 ||
	    (c = pv_str_cmp(a->suite, b->suite)) != 0 ||
	    (c = pv_str_cmp(a->test, b->test)) != 0 ||
	    (c = pv_str_cmp(a->operation, b->operation)) != 0 ||
	    (c = pv_str_cmp(a->metric, b->metric)) != 0 ||
	    (c = pv_str_cmp(a->unit, b->unit)) != 0)
		return c;
	if (a->direction != b->direction)
		return a->direction == PV_HIGHER_BETTER ? -1 : 1;
	/* absent (PV_NONE) first, then ascending */
	if (a->level != b->level) {
		if (a->level == PV_NONE)
			return -1;
		if (b->level == PV_NONE)
			return 1;
		return a->level < b->level ? -1 : 1;
	}
	return 0;
}

int
pv_runkey_cmp(const struct pv_runkey *a, const struct pv_runkey *b)
{
	int c;

	if ((c = pv_str_cmp(a->role, b->role)) != 0 ||
	    (c = pv_str_cmp(a->version, b->version)) != 0)
		return c;
	return pv_runkey_cmp_measure(a, b);
}

/*
 * Sorting sets by key compares strings field by field; with a rank for
 * each string of the table (its place among them all in byte order) a
 * key becomes a row of numbers, compared without touching the strings.
 */
struct rankrow {
	uint32_t r[9];		/* the eight strings' ranks, then direction */
	uint64_t level;		/* absent (PV_NONE) first: 0, else level + 1 */
	struct pv_runset *set;
};

struct sym {
	struct pv_str s;
	uint32_t id;
};

static int
cmp_sym(const void *a, const void *b)
{
	return pv_str_cmp(((const struct sym *)a)->s,
			  ((const struct sym *)b)->s);
}

static int
cmp_row(const void *a, const void *b)
{
	const struct rankrow *x = a, *y = b;
	int i;

	for (i = 0; i < 9; i++)
		if (x->r[i] != y->r[i])
			return x->r[i] < y->r[i] ? -1 : 1;
	return (x->level > y->level) - (x->level < y->level);
}

/* The sets in key order, the fields of the section in the order given. */
static struct pv_runset **
sorted(struct pv_runtab *t, const int section[3])
{
	struct pv_runset **v;
	struct pv_arena rows = PV_ARENA_INIT;
	struct rankrow *row;
	struct sym *sym;
	uint32_t *rank;
	size_t i, n = t->strs.nsym;
	int k;

	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	v = pv_xreallocarray(NULL, t->nset ? t->nset : 1, sizeof(*v));
	sym = pv_xreallocarray(NULL, n ? n : 1, sizeof(*sym));
	rank = pv_xreallocarray(NULL, n ? n : 1, sizeof(*rank));
	for (i = 0; i < n; i++) {
		sym[i].s = pv_symtab_get(&t->strs, (uint32_t)i);
		sym[i].id = (uint32_t)i;
	}
	/* the strings are distinct: no two get one rank */
	qsort(sym, n, sizeof(*sym), cmp_sym);
	for (i = 0; i < n; i++)
		rank[sym[i].id] = (uint32_t)i;
	/* from an arena: a large one is on huge pages, faulted in fewer */
	if (t->nset > SIZE_MAX / sizeof(*row))
		pv_xalloc_die();
	row = pv_arena_alloc(&rows, (t->nset ? t->nset : 1) * sizeof(*row));
	for (i = 0; i < t->nset; i++) {
		const struct pv_runset *set = &t->set[i];

		for (k = 0; k < 3; k++)
			row[i].r[k] = rank[set->sid[section[k]]];
		for (k = 3; k < 8; k++)
			row[i].r[k] = rank[set->sid[k]];
		row[i].r[8] = set->key.direction == PV_HIGHER_BETTER ? 0 : 1;
		row[i].level = set->key.level == PV_NONE ? 0 :
			set->key.level + 1;
		row[i].set = &t->set[i];
	}
	qsort(row, t->nset, sizeof(*row), cmp_row);
	for (i = 0; i < t->nset; i++)
		v[i] = row[i].set;
	pv_arena_release(&rows);
	free(rank);
	free(sym);
	return v;
}

struct pv_runset **
pv_runtab_sorted(struct pv_runtab *t)
{
	static const int section[3] = { 0, 1, 2 };

	return sorted(t, section);
}

struct pv_runset **
pv_runtab_sorted_sides(struct pv_runtab *t)
{
	static const int section[3] = { 2, 0, 1 };

	return sorted(t, section);
}

void
pv_runset_format(struct pv_strbuf *sb, const struct pv_runtab *t,
		 struct pv_runset *set)
{
	struct pv_str text = pv_runtab_key_text(t, set);
	size_t i;

	pv_runset_sort(set);
	for (i = 0; i < set->nrun; i++) {
		const struct pv_run *r = &set->run[i];

		pv_strbuf_addstr(sb, "runval");
		pv_strbuf_add(sb, text.s, text.len);
		pv_strbuf_addch(sb, '\t');
		pv_strbuf_addu(sb, r->id);
		pv_strbuf_addch(sb, '\t');
		pv_strbuf_addu(sb, r->nvalues);
		pv_strbuf_addch(sb, '\t');
		pv_format_double(sb, pv_run_value(r));
		pv_strbuf_addch(sb, '\n');
	}
}

void
pv_runset_write(FILE *out, const struct pv_runtab *t, struct pv_runset *set)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;

	pv_runset_format(&sb, t, set);
	fwrite(sb.buf, 1, sb.len, out);
	pv_strbuf_release(&sb);
}
