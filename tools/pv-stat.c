/*
 * pv-stat: per-key statistics of benchmark samples.
 *
 * Reads sample records, reduces each run to one value (the mean of its
 * values: a run's per-second values, an MMTests iteration's inner
 * repetitions are correlated, the run is the unit of repetition; or, with
 * --unit=sample, every value its own) and writes, after the input passed through unchanged, for
 * every key (section identity, suite, test, operation, metric, unit,
 * direction, level) one stat record, then statroll records that summarise
 * the noise per test, suite and section.  With --no-samples the samples
 * are replaced by runval records, one per run, which carry all that the
 * statistics need.
 *
 * The derived records of an earlier pv-stat in the input are dropped and
 * computed again, so pv-stat on the concatenated outputs of shards writes
 * the same bytes as pv-stat on the concatenated shards.  --merge builds the
 * statistics from those runval records instead of the samples, for shards
 * written with --no-samples; several such outputs given as FILEs are read
 * side by side, a key at a time from all of them (merge_files()).
 * --shard=I/N keeps the samples and runval records of the tests of key
 * shard I of N alone (lib/shard.h), for nights cut by key that need no
 * merge.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "opt.h"
#include "inorder.h"
#include "rec_sample.h"
#include "rec_stat.h"
#include "record.h"
#include "rollup.h"
#include "runtab.h"
#include "shard.h"
#include "stats.h"
#include "strbuf.h"
#include "testspill.h"
#include "xalloc.h"

static const char usage[] =
	"pv-stat [-mS] [-c LEVEL] [-u UNIT] [--shard=I/N] [FILE ...]";

static const char help[] =
	"Summarise benchmark samples (pv-format(5)) per key and run.\n"
	"\n"
	"  -c, --confidence=LEVEL  level of the intervals (default 0.95)\n"
	"  -m, --merge             build the statistics from the runval\n"
	"                          records of earlier pv-stat outputs\n"
	"                          (several FILEs: read side by side, each\n"
	"                          one output of pv-stat -S)\n"
	"  -S, --no-samples        write runval records (one per run) in\n"
	"                          place of the sample records\n"
	"  -u, --unit=UNIT         the independent unit: run (default: a\n"
	"                          run's values averaged) or sample (every\n"
	"                          value its own run)\n"
	"      --shard=I/N         only the tests of key shard I of N (0 to\n"
	"                          N - 1: FNV-1a of SUITE, TAB, TEST mod N);\n"
	"                          the other records pass on in every shard\n"
	"  -h, --help              print this help and exit\n"
	"  -V, --version           print the version and exit\n"
	"\n"
	"With no FILE, or when FILE is -, read standard input; gzip-compressed\n"
	"input is read transparently.\n"
	"\n"
	"Exit status: 0 on success, 2 on trouble.\n";

struct options {
	double conf;
	int merge;
	int no_samples;
	enum pv_replicate unit;
	uint32_t shard, nshard;	/* --shard=I/N; nshard 0: the whole */
};

/* Where each stream began (index: its number; 0, before a pv-format). */
struct stream {
	char *name;
	unsigned long line;
};

/* the keys of a batch of tests read back to write */
#define BATCH_SETS 8192

struct state {
	const struct options *opt;
	struct pv_runtab tab;
	/*
	 * One test held at a time while the input is grouped by test, the
	 * others in the spill, read back in key order a batch at a time; a
	 * test that comes back holds every key from then on (testspill.h).
	 */
	struct pv_testspill_file spill;
	struct pv_testspill tests;
	struct stream *stream;
	size_t nstream, stream_alloc;
	unsigned long merge_samples;	/* samples seen, not used, in -m */
	unsigned long runvals;		/* runval records dropped without -m */
	struct pv_strbuf role, version, experiment;
	struct pv_strbuf line;		/* a sample written again */
	struct pv_strbuf span;		/* the key -m takes, as a span */
};

static struct pv_str
sbstr(const struct pv_strbuf *sb)
{
	struct pv_str s = { sb->buf, sb->len };

	return s;
}

static void
stream_at(struct state *st, const char *name, unsigned long line)
{
	PV_GROW(st->stream, st->nstream + 1, st->stream_alloc);
	st->stream[st->nstream].name = pv_xstrdup(name);
	st->stream[st->nstream].line = line;
	st->nstream++;
}

/*
 * The record about to be added is of this test: the one read before saved
 * when it is another.  When a test comes back (the input is not grouped by
 * test), every saved test is taken back, the whole table is held from
 * then on, as write_all() would hold it at the end, and the tests are no
 * longer told apart.
 */
static void
enter_group(struct state *st, struct pv_str role, struct pv_str version,
	    struct pv_str experiment, struct pv_str suite, struct pv_str test)
{
	struct pv_testspill *ts = &st->tests;
	int rc;

	if (ts->hold)
		return;
	rc = pv_testspill_enter(ts, role, version, experiment, suite, test);
	if (rc > 0)
		rc = pv_testspill_hold_all(ts);
	if (rc < 0)
		pv_die("%s", pv_err_msg(&ts->err));
}

/* A RUN that an earlier stream gave the same key: said once a stream. */
static void
warn_clash(struct state *st, struct pv_reader *r)
{
	struct pv_runtab_clash c;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	const struct stream *a, *b;

	if (!pv_runtab_clash(&st->tab, &c))
		return;
	a = &st->stream[c.earlier];
	b = &st->stream[c.stream];
	pv_runtab_clash_describe(&c, &sb);
	pv_warn_at(pv_reader_name(r), pv_reader_lineno(r), "the stream at "
		   "%s:%lu repeats RUN numbers of the stream at %s:%lu for the "
		   "same keys: its runs are numbered on, not merged (%s)",
		   b->name, b->line, a->name, a->line, sb.buf);
	pv_strbuf_release(&sb);
}

/*
 * A sample of a run numbered on, written with its new RUN, so that what
 * reads the output downstream takes it as the run the statistics did.
 */
static void
write_renumbered(const struct pv_record *rec, uint64_t run)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_record c = *rec;

	c.run = run;
	pv_rec_sample_write(&sb, &c);
	fwrite(sb.buf, 1, sb.len, stdout);
	pv_strbuf_release(&sb);
}

/* Whether a test is outside the shard asked for. */
static int
other_shard(const struct options *opt, struct pv_str suite, struct pv_str test)
{
	return opt->nshard > 0 &&
		pv_shard_of(suite, test, opt->nshard) != opt->shard;
}

static int
is_derived(const struct pv_record *rec)
{
	return rec->type == PV_REC_OTHER &&
		(pv_str_eq(rec->field[0], "runval") ||
		 pv_str_eq(rec->field[0], "stat") ||
		 pv_str_eq(rec->field[0], "statroll"));
}

/* A runval record, with -m: its key's test held, its run added. */
static void
merge_runval(struct state *st, struct pv_reader *r,
	     const struct pv_record *rec)
{
	struct pv_runval rv;
	const struct pv_runkey *k = &rv.key;

	if (pv_rec_runval_parse(rec, &rv, &st->tab.err) < 0)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r), "%s",
			  pv_err_msg(&st->tab.err));
	if (other_shard(st->opt, k->suite, k->test))
		return;
	enter_group(st, k->role, k->version, k->experiment, k->suite,
		    k->test);
	if (pv_runtab_add_runval_parsed(&st->tab, &rv) < 0)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r), "%s",
			  pv_err_msg(&st->tab.err));
}

/* the records read; the others are passed on unchecked */
static const char *const used[] = { "sample", "runval", NULL };

/* A record of the input, as the reading of a FILE takes it. */
static void
take(struct state *st, struct pv_reader *r, const struct pv_record *rec)
{
	switch (rec->type) {
	case PV_REC_VERSION:
		pv_runtab_stream(&st->tab);
		stream_at(st, pv_reader_name(r), pv_reader_lineno(r));
		pv_write_raw(stdout, rec);
		break;
	case PV_REC_SECTION:
		pv_strbuf_reset(&st->role);
		pv_strbuf_add(&st->role, rec->role.s, rec->role.len);
		pv_strbuf_reset(&st->version);
		pv_strbuf_add(&st->version, rec->version.s, rec->version.len);
		pv_strbuf_reset(&st->experiment);
		pv_strbuf_add(&st->experiment, rec->experiment.s,
			      rec->experiment.len);
		pv_write_raw(stdout, rec);
		break;
	case PV_REC_SAMPLE:
		if (other_shard(st->opt, rec->suite, rec->test))
			break;
		if (!st->opt->merge) {
			enter_group(st, sbstr(&st->role), sbstr(&st->version),
				    sbstr(&st->experiment), rec->suite,
				    rec->test);
			if (pv_runtab_add_sample(&st->tab, sbstr(&st->role),
						 sbstr(&st->version),
						 sbstr(&st->experiment),
						 rec) < 0)
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "%s",
					  pv_err_msg(&st->tab.err));
			warn_clash(st, r);
		} else
			st->merge_samples++;
		if (st->opt->no_samples)
			break;
		if (st->opt->unit == PV_REPLICATE_SAMPLE && !st->opt->merge) {
			/* the run it now is, for pv-diff after us */
			struct pv_record s = *rec;

			s.run = st->tab.last_run;
			s.seq = PV_NONE;
			pv_strbuf_reset(&st->line);
			pv_rec_sample_write(&st->line, &s);
			fwrite(st->line.buf, 1, st->line.len, stdout);
			break;
		}
		if (!st->opt->merge && st->tab.last_run != rec->run)
			write_renumbered(rec, st->tab.last_run);
		else
			pv_write_raw(stdout, rec);
		break;
	default:
		/* samples renumbered: the runs' start times no longer belong
		 * to them */
		if (st->opt->unit == PV_REPLICATE_SAMPLE &&
		    rec->type == PV_REC_OTHER &&
		    pv_str_eq(rec->field[0], "runstart"))
			break;
		if (!is_derived(rec)) {
			pv_write_raw(stdout, rec);
			break;
		}
		if (!st->opt->merge && pv_str_eq(rec->field[0], "runval"))
			st->runvals++;
		if (st->opt->merge && pv_str_eq(rec->field[0], "runval"))
			merge_runval(st, r, rec);
		break;
	}
}

static struct pv_reader *
open_file(struct state *st, const char *path)
{
	struct pv_reader *r = pv_reader_open(path);

	if (r == NULL)
		pv_die_errno("cannot open '%s'", path);
	pv_reader_use(r, used);
	if (st->nstream == 0)
		stream_at(st, pv_reader_name(r), 1);
	return r;
}

static void
read_file(struct state *st, const char *path)
{
	struct pv_reader *r = open_file(st, path);
	struct pv_record rec;
	int rc;

	while ((rc = pv_reader_next(r, &rec)) > 0)
		take(st, r, &rec);
	if (rc < 0)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r), "%s",
			  pv_reader_error(r));
	pv_reader_close(r);
}

/*
 * The statistics of the sets in key order, computed and formatted in
 * blocks by one thread per CPU (pv_inorder_run()), written in order with
 * the roll-ups between them.
 */
struct writer {
	struct state *st;
	struct pv_runset **v;
	double *rcv;		/* of each set, for the roll-ups */
	unsigned char *huge;	/* its runs too large to summarise */
	struct pv_strbuf sb;
	struct pv_rollup ru;	/* of the robust CVs */
	struct pv_runset *stop;	/* the first huge set: nothing after it */
	/* the key each set is rolled up under, or NULL: its own */
	const struct pv_runkey *const *roll;
	int in_order;		/* the table's sets are in key order */
};

/*
 * The key a set is rolled up under: its own, or, when the table holds a
 * batch of keys, its test's, whose strings outlive the batch: the roll-up
 * copies the keys it is given, not their strings (rollup.h).
 */
static const struct pv_runkey *
roll_key(const struct writer *w, const struct pv_runset *set)
{
	if (w->roll == NULL)
		return &set->key;
	return w->roll[set - w->st->tab.set];
}

/* A statroll record of the scope that ends. */
static void
roll_write(void *arg, struct pv_roll *r, enum pv_scope scope)
{
	struct writer *w = arg;
	struct pv_statroll sr;

	sr.key = *r->first;
	sr.scope = scope;
	sr.keys = r->keys;
	sr.runs = r->runs;
	sr.min_n = r->min_runs;
	/* a median, not an order: selected, not sorted */
	sr.median_rcv = pv_stats_median_max(r->value, r->keys, &sr.max_rcv);
	pv_strbuf_reset(&w->sb);
	pv_rec_statroll_write(&w->sb, &sr);
	fwrite(w->sb.buf, 1, w->sb.len, stdout);
}

static void
compute_block(void *arg, struct pv_inorder_block *blk)
{
	struct writer *w = arg;
	double *x = NULL, *sorted = NULL;
	size_t alloc = 0, i;

	for (i = blk->start; i < blk->end; i++) {
		struct pv_runset *set = w->v[i];
		struct pv_summary s;

		if (set->nrun > 0) {
			PV_GROW(x, set->nrun, alloc);
			sorted = pv_xreallocarray(sorted, alloc,
						  sizeof(*sorted));
			pv_runset_values(set, x);
			memcpy(sorted, x, set->nrun * sizeof(*x));
			pv_stats_sort(sorted, set->nrun);
			pv_stats_summary(x, sorted, set->nrun,
					 w->st->opt->conf, &s);
			w->rcv[i] = s.rcv;
			/* finite runs, but too large to sum or square */
			w->huge[i] = !isfinite(s.mean) || !isfinite(s.sd);
			if (!w->huge[i]) {
				if (w->st->opt->no_samples)
					pv_runset_format(&blk->text,
							 &w->st->tab, set);
				pv_rec_stat_write(&blk->text, &set->key,
						  pv_runtab_key_text(&w->st->tab,
								     set), &s,
						  w->st->opt->unit);
			}
		}
		blk->mark[i - blk->start] = blk->text.len;
	}
	free(x);
	free(sorted);
}

static void
write_block(void *arg, const struct pv_inorder_block *blk)
{
	struct writer *w = arg;
	size_t i, from = 0;

	for (i = blk->start; i < blk->end && w->stop == NULL; i++) {
		struct pv_runset *set = w->v[i];
		size_t to = blk->mark[i - blk->start];

		if (set->nrun == 0)
			continue;
		pv_rollup_next(&w->ru, roll_key(w, set));
		if (w->huge[i]) {
			/* what comes before it is written, then the error */
			w->stop = set;
			break;
		}
		fwrite(blk->text.buf + from, 1, to - from, stdout);
		from = to;
		pv_rollup_add(&w->ru, roll_key(w, set), set->nrun, w->rcv[i],
			      NAN);
	}
}

/* The sets of the table, in key order, computed and written. */
static void
write_sets(struct writer *w)
{
	struct state *st = w->st;
	struct pv_inorder job;
	size_t n = st->tab.nset ? st->tab.nset : 1, i;

	if (w->in_order) {
		/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
		w->v = pv_xreallocarray(NULL, n, sizeof(*w->v));
		for (i = 0; i < st->tab.nset; i++)
			w->v[i] = &st->tab.set[i];
	} else {
		w->v = pv_runtab_sorted(&st->tab);
	}
	w->rcv = pv_xreallocarray(NULL, n, sizeof(*w->rcv));
	w->huge = pv_xcalloc(n, 1);
	memset(&job, 0, sizeof(job));
	job.n = st->tab.nset;
	job.block = 256;
	job.per_thread = 4096;
	job.work = compute_block;
	job.take = write_block;
	job.thread_end = pv_stats_thread_release;
	job.arg = w;
	pv_inorder_run(&job);
	free(w->rcv);
	free(w->huge);
	free(w->v);
	w->rcv = NULL;
	w->huge = NULL;
	w->v = NULL;
}

/* the groups in key order: ROLE VERSION EXPERIMENT SUITE TEST */
static int
cmp_group(const void *a, const void *b)
{
	const struct pv_testspill_group *x =
		*(const struct pv_testspill_group *const *)a;
	const struct pv_testspill_group *y =
		*(const struct pv_testspill_group *const *)b;
	int c;

	if ((c = pv_str_cmp(x->key.role, y->key.role)) != 0 ||
	    (c = pv_str_cmp(x->key.version, y->key.version)) != 0 ||
	    (c = pv_str_cmp(x->key.experiment, y->key.experiment)) != 0 ||
	    (c = pv_str_cmp(x->key.suite, y->key.suite)) != 0)
		return c;
	return pv_str_cmp(x->key.test, y->key.test);
}

/*
 * The saved tests read back in key order, a batch of about BATCH_SETS
 * keys at a time, each batch's statistics written before the next is
 * read: the output of a table of all the keys, in the memory of a batch.
 */
static void
write_groups(struct writer *w)
{
	struct state *st = w->st;
	struct pv_testspill *ts = &st->tests;
	struct pv_testspill_group **ord;
	const struct pv_runkey **roll = NULL;
	size_t alloc = 0, i, j;

	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	ord = pv_xreallocarray(NULL, ts->n ? ts->n : 1, sizeof(*ord));
	for (i = 0; i < ts->n; i++)
		ord[i] = &ts->g[i];
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	qsort(ord, ts->n, sizeof(*ord), cmp_group);
	for (i = 0; i < ts->n && w->stop == NULL;) {
		pv_runtab_clear(&st->tab);
		for (; i < ts->n && st->tab.nset < BATCH_SETS; i++) {
			size_t from = st->tab.nset;

			if (pv_testspill_take(ts, ord[i]) < 0)
				pv_die("%s", pv_err_msg(&ts->err));
			/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
			PV_GROW(roll, st->tab.nset + 1, alloc);
			for (j = from; j < st->tab.nset; j++)
				roll[j] = &ord[i]->key;
		}
		w->roll = roll;
		write_sets(w);
	}
	/* (a huge set stops the output: its key is in the table still) */
	if (w->stop == NULL)
		pv_runtab_clear(&st->tab);
	free(roll);
	free(ord);
}

static void
writer_init(struct writer *w, struct state *st)
{
	memset(w, 0, sizeof(*w));
	w->st = st;
	pv_strbuf_init(&w->sb, 0);
	pv_rollup_init(&w->ru, 1, roll_write, w);
}

/* The roll-ups ended, or the error of a set too large. */
static void
writer_end(struct writer *w)
{
	const struct pv_runset *huge;

	if (w->stop == NULL)
		pv_rollup_end(&w->ru);
	huge = w->stop;
	pv_rollup_release(&w->ru);
	pv_strbuf_release(&w->sb);
	if (huge != NULL)
		pv_die("the runs of test '%.*s' operation '%.*s' metric '%.*s' "
		       "are too large for their mean and deviation to fit in "
		       "a double", (int)huge->key.test.len, huge->key.test.s,
		       (int)huge->key.operation.len, huge->key.operation.s,
		       (int)huge->key.metric.len, huge->key.metric.s);
}

static void
write_all(struct state *st)
{
	struct writer w;

	writer_init(&w, st);
	if (st->tests.hold) {
		/* not grouped: every key at once, as read */
		if (pv_testspill_hold_all(&st->tests) < 0)
			pv_die("%s", pv_err_msg(&st->tests.err));
		write_sets(&w);
	} else if (st->spill.fd < 0) {
		/* one test, or none: nothing was saved */
		write_sets(&w);
	} else {
		if (pv_testspill_save_current(&st->tests) < 0)
			pv_die("%s", pv_err_msg(&st->tests.err));
		write_groups(&w);
	}
	writer_end(&w);
}

/*
 * -m with several FILEs: the files read side by side, as sort -m reads
 * its, each one's runval records in key order (as pv-stat -S writes
 * them): a key's runs are taken from every file that has it before the
 * next key, so the table holds a batch of keys, whatever the number of
 * keys and files.  What comes before a file's first runval record is
 * taken as read_file() takes it, file by file, so that the output is
 * that of the files concatenated; after it, only runval, stat and
 * statroll records may follow.
 */
struct side {
	struct pv_reader *r;
	struct pv_runval rv;	/* its next runval record, while have */
	struct pv_str span;	/* its key's fields in its line, or empty */
	int have;
};

static int
is_runval(const struct pv_record *rec)
{
	return rec->type == PV_REC_OTHER && pv_str_eq(rec->field[0], "runval");
}

static void
side_parse(struct state *st, struct side *s, const struct pv_record *rec)
{
	const struct pv_str *f = rec->field;
	const char *lo = rec->raw.s, *hi = lo + rec->raw.len;
	size_t i;

	if (pv_rec_runval_parse(rec, &s->rv, &st->tab.err) < 0)
		pv_die_at(pv_reader_name(s->r), pv_reader_lineno(s->r), "%s",
			  pv_err_msg(&st->tab.err));
	/*
	 * ROLE to LEVEL as one span of the line, when no field of them was
	 * unescaped (elsewhere): keys whose spans are the same bytes are the
	 * same, told by one memcmp instead of ten fields.
	 */
	s->span.s = NULL;
	s->span.len = 0;
	for (i = 1; i <= 10; i++)
		if (f[i].s < lo || f[i].s > hi)
			return;
	s->span.s = f[1].s;
	s->span.len = (size_t)(f[10].s + f[10].len - f[1].s);
}

/* Whether the spans of two keys say they are the same (else: unknown). */
static int
same_span(struct pv_str a, struct pv_str b)
{
	return a.len > 0 && a.len == b.len && memcmp(a.s, b.s, a.len) == 0;
}

/* The order of the next keys of two files. */
static int
side_cmp(const struct side *a, const struct side *b)
{
	if (same_span(a->span, b->span))
		return 0;
	return pv_rec_key_cmp(&a->rv.key, &b->rv.key);
}

/* The next runval record of the shard asked for: 1, or 0 at the end. */
static int
side_next(struct state *st, struct side *s)
{
	struct pv_record rec;
	int rc;

	while ((rc = pv_reader_next(s->r, &rec)) > 0) {
		if (is_runval(&rec)) {
			side_parse(st, s, &rec);
			if (!other_shard(st->opt, s->rv.key.suite,
					 s->rv.key.test))
				return 1;
		} else if (!is_derived(&rec)) {
			/* a folded line has no type word (nfield 0) */
			struct pv_str t = { "folded stack", 12 };

			if (rec.nfield > 0)
				t = rec.field[0];

			pv_die_at(pv_reader_name(s->r),
				  pv_reader_lineno(s->r), "a '%.*s' record "
				  "after runval records: with several FILEs, "
				  "-m takes each as one output of pv-stat -S "
				  "(give others concatenated, on standard "
				  "input)", (int)t.len, t.s);
		}
	}
	if (rc < 0)
		pv_die_at(pv_reader_name(s->r), pv_reader_lineno(s->r), "%s",
			  pv_reader_error(s->r));
	return 0;
}

/* A file read up to its first runval record. */
static void
side_open(struct state *st, struct side *s, const char *path)
{
	struct pv_record rec;
	int rc;

	s->r = open_file(st, path);
	while ((rc = pv_reader_next(s->r, &rec)) > 0) {
		if (!is_runval(&rec)) {
			take(st, s->r, &rec);
			continue;
		}
		side_parse(st, s, &rec);
		s->have = !other_shard(st->opt, s->rv.key.suite,
				       s->rv.key.test) || side_next(st, s);
		return;
	}
	if (rc < 0)
		pv_die_at(pv_reader_name(s->r), pv_reader_lineno(s->r), "%s",
			  pv_reader_error(s->r));
}

/* The run of s's next record added to set, its key's, or a new set. */
static void
side_add(struct state *st, struct side *s, struct pv_runset *set)
{
	int rc = set != NULL ? pv_runtab_add_run(&st->tab, set, &s->rv) :
		pv_runtab_add_runval_parsed(&st->tab, &s->rv);

	if (rc < 0)
		pv_die_at(pv_reader_name(s->r), pv_reader_lineno(s->r), "%s",
			  pv_err_msg(&st->tab.err));
}

/*
 * The runs of the key of s's next record taken, into set (NULL: the
 * key is new, its set made and left the table's last).
 */
static void
side_take(struct state *st, struct side *s, struct pv_runset *set)
{
	int c;

	side_add(st, s, set);
	set = st->tab.last;
	pv_strbuf_reset(&st->span);
	if (s->span.len > 0)	/* (an empty span is NULL) */
		pv_strbuf_add(&st->span, s->span.s, s->span.len);
	while ((s->have = side_next(st, s))) {
		if (!same_span(s->span, sbstr(&st->span))) {
			c = pv_rec_key_cmp(&s->rv.key, &set->key);
			if (c > 0)
				break;
			if (c < 0)
				pv_die_at(pv_reader_name(s->r),
					  pv_reader_lineno(s->r), "runval "
					  "records out of key order: with "
					  "several FILEs, -m reads each in "
					  "the order pv-stat -S writes (give "
					  "others concatenated, on standard "
					  "input)");
		}
		side_add(st, s, set);
	}
}

/* a copy of the test of key that lives the run: what roll-ups point to */
static const struct pv_runkey *
keep_test(struct pv_arena *a, const struct pv_runkey *key)
{
	struct pv_runkey *k = pv_arena_alloc(a, sizeof(*k));
	const struct pv_str *from[5] = { &key->role, &key->version,
		&key->experiment, &key->suite, &key->test };
	struct pv_str *to[5] = { &k->role, &k->version, &k->experiment,
		&k->suite, &k->test };
	int i;

	memset(k, 0, sizeof(*k));
	for (i = 0; i < 5; i++) {
		to[i]->s = pv_arena_memdup(a, from[i]->s, from[i]->len);
		to[i]->len = from[i]->len;
	}
	k->operation.s = k->metric.s = k->unit.s = "";
	k->level = PV_NONE;
	return k;
}

static int
same_test(const struct pv_runkey *a, const struct pv_runkey *b)
{
	return pv_str_cmp(a->test, b->test) == 0 &&
		pv_str_cmp(a->suite, b->suite) == 0 &&
		pv_str_cmp(a->experiment, b->experiment) == 0 &&
		pv_str_cmp(a->version, b->version) == 0 &&
		pv_str_cmp(a->role, b->role) == 0;
}

static void
merge_files(struct state *st, char *const *path, size_t n)
{
	struct side *s = pv_xcalloc(n, sizeof(*s));
	struct pv_arena tests = PV_ARENA_INIT;
	const struct pv_runkey *test = NULL, **roll = NULL;
	struct writer w;
	size_t alloc = 0, i, m, any = 0;

	for (i = 0; i < n; i++) {
		side_open(st, &s[i], path[i]);
		any |= (size_t)s[i].have;
	}
	if (!any && st->merge_samples > 0)
		pv_warn("--merge found samples but no runval records "
			"(write the shards with pv-stat -S)");
	writer_init(&w, st);
	w.in_order = 1;
	for (;;) {
		struct pv_runset *set;

		for (m = n, i = 0; i < n; i++)
			if (s[i].have && (m == n || side_cmp(&s[i], &s[m]) < 0))
				m = i;
		if (m == n || st->tab.nset >= BATCH_SETS) {
			/* a batch: its keys written, the table emptied */
			w.roll = roll;
			write_sets(&w);
			if (m == n || w.stop != NULL)
				break;
			pv_runtab_clear(&st->tab);
		}
		/*
		 * The files before m have greater keys; those after it the
		 * same key, whose span s[m] no longer holds, or greater.
		 */
		side_take(st, &s[m], NULL);
		set = st->tab.last;
		for (i = m + 1; i < n; i++)
			if (s[i].have &&
			    (same_span(s[i].span, sbstr(&st->span)) ||
			     pv_rec_key_cmp(&s[i].rv.key, &set->key) == 0))
				side_take(st, &s[i], set);
		if (test == NULL || !same_test(test, &set->key))
			test = keep_test(&tests, &set->key);
		/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
		PV_GROW(roll, st->tab.nset, alloc);
		roll[st->tab.nset - 1] = test;
	}
	writer_end(&w);
	for (i = 0; i < n; i++)
		pv_reader_close(s[i].r);
	free(s);
	free(roll);
	pv_arena_release(&tests);
}

/* --shard=I/N: I from 0 to N - 1, N from 1 */
static void
parse_shard(char *arg, struct options *opt)
{
	char *slash = strchr(arg, '/');

	if (slash == NULL || slash == arg || slash[1] == '\0') {
		pv_error("shard '%s' is not I/N (say 0/4)", arg);
		pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
	}
	*slash = '\0';
	opt->nshard = (uint32_t)pv_opt_count("shard count", slash + 1, 1,
					     UINT32_MAX);
	opt->shard = (uint32_t)pv_opt_count("shard", arg, 0,
					    opt->nshard - 1);
	*slash = '/';
}

int
main(int argc, char **argv)
{
	enum { OPT_SHARD = 256 };
	static const struct option longopts[] = {
		{ "confidence", required_argument, NULL, 'c' },
		{ "merge", no_argument, NULL, 'm' },
		{ "no-samples", no_argument, NULL, 'S' },
		{ "unit", required_argument, NULL, 'u' },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct options opt = { 0.95, 0, 0, PV_REPLICATE_RUN, 0, 0 };
	struct state st;
	int c, i;

	pv_diag_init(argv[0]);
	while ((c = getopt_long(argc, argv, "c:mSu:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (pv_parse_double(optarg, strlen(optarg),
					    &opt.conf) < 0 ||
			    !(opt.conf > 0 && opt.conf < 1)) {
				pv_error("confidence '%s' is not a number "
					 "between 0 and 1", optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			break;
		case 'm':
			opt.merge = 1;
			break;
		case 'S':
			opt.no_samples = 1;
			break;
		case 'u':
			if (strcmp(optarg, "run") == 0) {
				opt.unit = PV_REPLICATE_RUN;
			} else if (strcmp(optarg, "sample") == 0) {
				opt.unit = PV_REPLICATE_SAMPLE;
			} else {
				pv_error("unit '%s' is neither 'run' nor "
					 "'sample'", optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			break;
		case OPT_SHARD:
			parse_shard(optarg, &opt);
			break;
		default:
			pv_opt_common(c, usage, help);
		}
	}

	memset(&st, 0, sizeof(st));
	st.opt = &opt;
	pv_runtab_init(&st.tab);
	st.tab.per_sample = opt.unit == PV_REPLICATE_SAMPLE;
	pv_strbuf_init(&st.role, 0);
	pv_strbuf_init(&st.version, 0);
	pv_strbuf_init(&st.experiment, 0);
	pv_strbuf_init(&st.line, 0);
	pv_strbuf_init(&st.span, 0);
	pv_testspill_file_init(&st.spill, "pv-stat");
	pv_testspill_init(&st.tests, &st.tab, &st.spill);
	pv_opt_files(argc - optind, argv + optind);
	if (opt.merge && argc - optind > 1) {
		merge_files(&st, argv + optind, (size_t)(argc - optind));
	} else {
		if (optind == argc)
			read_file(&st, "-");
		for (i = optind; i < argc; i++)
			read_file(&st, argv[i]);
		if (opt.merge && st.tab.nset == 0 && st.merge_samples > 0)
			pv_warn("--merge found samples but no runval records "
				"(write the shards with pv-stat -S)");
		/* pv-stat -S output: without --merge its runs would be lost
		 * unsaid */
		if (!opt.merge && st.runvals > 0)
			pv_warn("%lu runval records dropped: give --merge to "
				"build the statistics from them", st.runvals);
		write_all(&st);
	}

	pv_runtab_release(&st.tab);
	for (i = 0; i < (int)st.nstream; i++)
		free(st.stream[i].name);
	free(st.stream);
	pv_strbuf_release(&st.role);
	pv_strbuf_release(&st.version);
	pv_strbuf_release(&st.experiment);
	pv_strbuf_release(&st.line);
	pv_strbuf_release(&st.span);
	pv_testspill_release(&st.tests);
	pv_testspill_file_release(&st.spill);
	pv_close_stdout();
	return PV_EXIT_OK;
}
