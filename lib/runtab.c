/*
 * runtab: values by key, reduced to one per run (see runtab.h).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field.h"
#include "honest.h"
#include "rec_sample.h"
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
	size_t i;

	for (i = 0; i < t->nset; i++)
		free(t->set[i].renum);
	free(t->set);
	pv_symtab_release(&t->keys);
	pv_symtab_release(&t->strs);
	pv_arena_release(&t->runs);
	pv_strbuf_release(&t->scratch);
	pv_strbuf_release(&t->last_raw);
	memset(t, 0, sizeof(*t));
}

struct pv_str
pv_runtab_key_text(const struct pv_runtab *t, const struct pv_runset *set)
{
	/* a set's index is its key's id */
	return pv_symtab_get(&t->keys, (uint32_t)(set - t->set));
}

static struct pv_str
keep(struct pv_runtab *t, struct pv_str s, uint32_t *id)
{
	*id = pv_symtab_intern(&t->strs, s.s, s.len);
	return pv_symtab_get(&t->strs, *id);
}

/* The set of key, whose text (pv_rec_key_add()) is in t->scratch. */
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
	set->quantum = INFINITY;
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
	pv_rec_key_add(&t->scratch, key, 1);
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
		set->run = pv_arena_resize(&t->runs, set->run,
					   set->alloc * sz, pv_xmult(n, sz));
		set->alloc = n;
	}
	r = &set->run[set->nrun++];
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->stream = t->stream;
	if (id > set->max_id)
		set->max_id = id;
	return r;
}

void
pv_runtab_stream(struct pv_runtab *t)
{
	t->stream++;
	t->clash_seen = 0;
}

int
pv_runtab_clash(struct pv_runtab *t, struct pv_runtab_clash *c)
{
	if (!t->clash_new)
		return 0;
	t->clash_new = 0;
	*c = t->clash;
	return 1;
}

static void
add_part(struct pv_strbuf *sb, struct pv_str s, int slash)
{
	if (slash)
		pv_strbuf_addch(sb, '/');
	if (s.len == 0)
		pv_strbuf_addch(sb, '-');
	else
		pv_strbuf_add(sb, s.s, s.len);
}

void
pv_runtab_clash_describe(const struct pv_runtab_clash *c,
			 struct pv_strbuf *sb)
{
	const struct pv_runkey *k = &c->set->key;

	pv_strbuf_addf(sb, "RUN %llu of ", (unsigned long long)c->run);
	add_part(sb, k->suite, 0);
	add_part(sb, k->test, 1);
	add_part(sb, k->operation, 1);
	add_part(sb, k->metric, 1);
	if (k->level != PV_NONE)
		pv_strbuf_addf(sb, " at level %llu",
			       (unsigned long long)k->level);
	pv_strbuf_addstr(sb, " (");
	add_part(sb, k->version, 0);
	pv_strbuf_addf(sb, ") is numbered %llu",
		       (unsigned long long)c->renumbered);
}

/*
 * The run of a sample of the current stream with RUN id: the one it
 * began in this stream, else, when an earlier stream gave the key that
 * RUN, a new one numbered on after the key's largest; NULL when there is
 * none yet, or (*fail set) when the numbers have run out.
 */
static struct pv_run *
stream_run(struct pv_runtab *t, struct pv_runset *set, uint64_t id,
	   int *fail)
{
	struct pv_run *r;
	size_t i;

	if (set->stream != t->stream) {
		set->stream = t->stream;
		set->nrenum = 0;
	}
	for (i = 0; i < set->nrenum; i++)
		if (set->renum[2 * i] == id)
			return find_run(set, set->renum[2 * i + 1]);
	r = find_run(set, id);
	if (r == NULL || r->stream == t->stream)
		return r;
	if (set->max_id >= PV_NONE - 1) {
		*fail = pv_err_set(&t->err, "run %llu of this key is given "
				   "by an earlier stream, and no RUN is left "
				   "to number it on", (unsigned long long)id);
		return NULL;
	}
	if (!t->clash_seen) {
		t->clash_seen = t->clash_new = 1;
		t->clash.stream = t->stream;
		t->clash.earlier = r->stream;
		t->clash.set = set;
		t->clash.run = id;
		t->clash.renumbered = set->max_id + 1;
	}
	PV_GROW(set->renum, 2 * (set->nrenum + 1), set->renum_alloc);
	set->renum[2 * set->nrenum] = id;
	set->renum[2 * set->nrenum + 1] = set->max_id + 1;
	set->nrenum++;
	return new_run(t, set, set->max_id + 1);
}

/* a value's quantum into its set's: the finest; 0 (none) wins */
static void
add_quantum(struct pv_runset *set, double q)
{
	if (set->quantum != 0 && (q == 0 || q < set->quantum))
		set->quantum = q;
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
	int fail = 0;

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
	raw = pv_rec_key_sample_span(rec);
	set = t->last;
	if (set != NULL && raw.len > 0 && raw.len == t->last_raw.len &&
	    memcmp(raw.s, t->last_raw.buf, raw.len) == 0) {
		if (pv_str_cmp(set->key.role, role) != 0 ||
		    pv_str_cmp(set->key.version, version) != 0 ||
		    pv_str_cmp(set->key.experiment, experiment) != 0)
			set = NULL;
	} else if (set != NULL && pv_rec_key_cmp(&set->key, &k) != 0) {
		set = NULL;
	}
	if (set == NULL) {
		/* the key's text from the line's, escaped as it is */
		pv_strbuf_reset(&t->scratch);
		if (raw.len > 0 && pv_rec_key_span_is_text(raw,
							    rec->field[7])) {
			pv_rec_key_add_section(&t->scratch, &k);
			pv_field_add_raw(&t->scratch, raw.s, raw.len);
		} else {
			pv_rec_key_add(&t->scratch, &k, 1);
		}
		set = get_formatted(t, &k);
		t->last = set;
		pv_strbuf_reset(&t->last_raw);
		if (raw.len > 0)
			pv_strbuf_add(&t->last_raw, raw.s, raw.len);
	}
	if (t->per_sample) {
		r = new_run(t, set, (uint64_t)set->nrun + 1);
	} else {
		r = stream_run(t, set, rec->run, &fail);
		if (fail)
			return -1;
	}
	if (r == NULL)
		r = new_run(t, set, rec->run);
	t->last_run = r->id;
	/* finite values can add up to an infinity: refuse the run */
	if (!isfinite(r->sum + rec->val))
		return pv_err_set(&t->err, "the values of run %llu add up to "
				  "more than a double holds",
				  (unsigned long long)rec->run);
	r->nvalues++;
	r->sum += rec->val;
	set->quantum = pv_honest_quantum_min(set->quantum, rec->val);
	return 0;
}

int
pv_runtab_add_runval(struct pv_runtab *t, const struct pv_record *rec)
{
	struct pv_runval rv;

	if (pv_rec_runval_parse(rec, &rv, &t->err) < 0)
		return -1;
	return pv_runtab_add_runval_parsed(t, &rv);
}

int
pv_runtab_add_runval_parsed(struct pv_runtab *t, const struct pv_runval *rv)
{
	struct pv_runset *set = t->last;

	/*
	 * A key's runs come together (pv-stat -S writes them so): compare
	 * with the key before, and format and hash the key only when it
	 * changes.
	 */
	if (set == NULL || pv_rec_key_cmp(&set->key, &rv->key) != 0) {
		set = pv_runtab_get(t, &rv->key);
		t->last = set;
		/* (a sample after it compares its fields, not its span) */
		pv_strbuf_reset(&t->last_raw);
	}
	return pv_runtab_add_run(t, set, rv);
}

int
pv_runtab_add_run(struct pv_runtab *t, struct pv_runset *set,
		  const struct pv_runval *rv)
{
	struct pv_run *r;

	if (find_run(set, rv->run) != NULL)
		return pv_err_set(&t->err, "run %llu of this key is given "
				  "twice (a run cut across inputs?)",
				  (unsigned long long)rv->run);
	r = new_run(t, set, rv->run);
	r->nvalues = rv->nvalues;
	r->sum = rv->value;	/* merged: sum holds the value itself */
	r->merged = 1;
	add_quantum(set, rv->quantum);
	return 0;
}

/*
 * The bytes of a saved set: its key's text, its eight strings, direction
 * and level, max_id, stream, quantum, the counts of its runs and renumbered
 * pairs, then the runs and the pairs as they are in memory.
 */
static void
put(struct pv_strbuf *sb, const void *p, size_t n)
{
	/* (an empty string, or no runs, may be NULL) */
	if (n > 0)
		pv_strbuf_add(sb, p, n);
}

static void
put_str(struct pv_strbuf *sb, struct pv_str s)
{
	uint32_t n = (uint32_t)s.len;

	put(sb, &n, sizeof(n));
	put(sb, s.s, s.len);
}

void
pv_runtab_save(const struct pv_runtab *t, struct pv_strbuf *sb)
{
	size_t i;

	for (i = 0; i < t->nset; i++) {
		const struct pv_runset *set = &t->set[i];
		const struct pv_runkey *k = &set->key;
		uint64_t n[2] = { set->nrun, set->nrenum };
		int32_t dir = (int32_t)k->direction;

		put_str(sb, pv_runtab_key_text(t, set));
		put_str(sb, k->role);
		put_str(sb, k->version);
		put_str(sb, k->experiment);
		put_str(sb, k->suite);
		put_str(sb, k->test);
		put_str(sb, k->operation);
		put_str(sb, k->metric);
		put_str(sb, k->unit);
		put(sb, &dir, sizeof(dir));
		put(sb, &k->level, sizeof(k->level));
		put(sb, &set->max_id, sizeof(set->max_id));
		put(sb, &set->stream, sizeof(set->stream));
		put(sb, &set->quantum, sizeof(set->quantum));
		put(sb, n, sizeof(n));
		put(sb, set->run, set->nrun * sizeof(*set->run));
		put(sb, set->renum, 2 * set->nrenum * sizeof(*set->renum));
	}
}

/* the reader of saved bytes */
struct load {
	const char *p, *end;
	int bad;
};

static void
get(struct load *l, void *out, size_t n)
{
	if (l->bad || (size_t)(l->end - l->p) < n) {
		l->bad = 1;
		memset(out, 0, n);
		return;
	}
	memcpy(out, l->p, n);
	l->p += n;
}

static struct pv_str
get_str(struct load *l)
{
	struct pv_str s = { "", 0 };
	uint32_t n;

	get(l, &n, sizeof(n));
	if (l->bad || (size_t)(l->end - l->p) < n) {
		l->bad = 1;
		return s;
	}
	s.s = l->p;
	s.len = n;
	l->p += n;
	return s;
}

int
pv_runtab_load(struct pv_runtab *t, const char *buf, size_t len)
{
	struct load l = { buf, buf + len, 0 };

	while (l.p < l.end) {
		struct pv_runkey k;
		struct pv_str text = get_str(&l);
		struct pv_runset *set;
		uint64_t n[2], max_id;
		uint32_t stream;
		int32_t dir;
		double quantum;
		size_t nset = t->nset, sz = sizeof(*set->run);

		k.role = get_str(&l);
		k.version = get_str(&l);
		k.experiment = get_str(&l);
		k.suite = get_str(&l);
		k.test = get_str(&l);
		k.operation = get_str(&l);
		k.metric = get_str(&l);
		k.unit = get_str(&l);
		get(&l, &dir, sizeof(dir));
		get(&l, &k.level, sizeof(k.level));
		get(&l, &max_id, sizeof(max_id));
		get(&l, &stream, sizeof(stream));
		get(&l, &quantum, sizeof(quantum));
		get(&l, n, sizeof(n));
		if (l.bad || n[0] > (size_t)(l.end - l.p) / sz ||
		    n[1] > (size_t)(l.end - l.p) / (2 * sizeof(uint64_t)))
			return pv_err_set(&t->err, "saved keys cut short");
		k.direction = (enum pv_direction)dir;
		pv_strbuf_reset(&t->scratch);
		pv_strbuf_add(&t->scratch, text.s, text.len);
		set = get_formatted(t, &k);
		if (t->nset == nset)
			return pv_err_set(&t->err, "a saved key loaded twice");
		set->max_id = max_id;
		set->stream = stream;
		set->quantum = quantum;
		if (n[0] > 0) {
			set->run = pv_arena_alloc(&t->runs,
						  pv_xmult((size_t)n[0], sz));
			get(&l, set->run, (size_t)n[0] * sz);
		}
		set->nrun = set->alloc = (size_t)n[0];
		if (n[1] > 0) {
			set->renum = pv_xreallocarray(NULL, 2 * (size_t)n[1],
						      sizeof(*set->renum));
			get(&l, set->renum,
			    2 * (size_t)n[1] * sizeof(*set->renum));
		}
		set->nrenum = (size_t)n[1];
		set->renum_alloc = 2 * (size_t)n[1];
		if (l.bad)
			return pv_err_set(&t->err, "saved keys cut short");
	}
	return 0;
}

void
pv_runtab_clear(struct pv_runtab *t)
{
	size_t i;

	/*
	 * In place, the memory kept: a table cleared for every group of a
	 * run (pv-stat, pv-diff on grouped input) gave its arenas back and
	 * the system its pages each time.  The clash's set goes with the
	 * sets: taken or not, it is said.
	 */
	for (i = 0; i < t->nset; i++)
		free(t->set[i].renum);
	t->nset = 0;
	pv_symtab_clear(&t->keys);
	pv_symtab_clear(&t->strs);
	pv_arena_clear(&t->runs);
	pv_strbuf_reset(&t->scratch);
	pv_strbuf_reset(&t->last_raw);
	t->last = NULL;
	memset(&t->clash, 0, sizeof(t->clash));
	t->clash_new = 0;
	t->err.errnum = 0;
	t->err.msg[0] = '\0';
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
pv_runset_runs(const struct pv_runset *set, double *out, uint64_t *ids)
{
	size_t i = runs_unsorted(set->run, set->nrun);
	struct pv_run *copy;

	if (i >= set->nrun) {
		for (i = 0; i < set->nrun; i++) {
			out[i] = pv_run_value(&set->run[i]);
			if (ids != NULL)
				ids[i] = set->run[i].id;
		}
		return;
	}
	/* the set may be read by other threads: sort a copy */
	copy = pv_xreallocarray(NULL, set->nrun, sizeof(*copy));
	memcpy(copy, set->run, set->nrun * sizeof(*copy));
	sort_runs(copy, set->nrun, i);
	for (i = 0; i < set->nrun; i++) {
		out[i] = pv_run_value(&copy[i]);
		if (ids != NULL)
			ids[i] = copy[i].id;
	}
	free(copy);
}

void
pv_runset_values(const struct pv_runset *set, double *out)
{
	pv_runset_runs(set, out, NULL);
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
	row = pv_arena_alloc(&rows, pv_xmult(t->nset ? t->nset : 1,
					     sizeof(*row)));
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
	struct pv_runval rv;
	size_t i;

	pv_runset_sort(set);
	rv.key = set->key;
	rv.quantum = pv_runset_quantum(set);
	for (i = 0; i < set->nrun; i++) {
		rv.run = set->run[i].id;
		rv.nvalues = set->run[i].nvalues;
		rv.value = pv_run_value(&set->run[i]);
		pv_rec_runval_write(sb, &rv, text);
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
