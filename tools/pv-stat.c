/*
 * pv-stat: per-key statistics of benchmark samples.
 *
 * Reads sample records, reduces each run to one value (the mean of its
 * values: a run's per-second values are correlated, the run is the unit of
 * repetition) and writes, after the input passed through unchanged, for
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
 * written with --no-samples.
 */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "opt.h"
#include "inorder.h"
#include "record.h"
#include "runtab.h"
#include "numfmt.h"
#include "stats.h"
#include "strbuf.h"
#include "xalloc.h"

static const char usage[] =
	"pv-stat [-mS] [-c LEVEL] [FILE ...]";

static const char help[] =
	"Summarise benchmark samples (pv-format(5)) per key and run.\n"
	"\n"
	"  -c, --confidence=LEVEL  level of the intervals (default 0.95)\n"
	"  -m, --merge             build the statistics from the runval\n"
	"                          records of earlier pv-stat outputs\n"
	"  -S, --no-samples        write runval records (one per run) in\n"
	"                          place of the sample records\n"
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
};

struct state {
	const struct options *opt;
	struct pv_runtab tab;
	unsigned long merge_samples;	/* samples seen, not used, in -m */
	unsigned long runvals;		/* runval records dropped without -m */
	struct pv_strbuf role, version, experiment;
};

static struct pv_str
sbstr(const struct pv_strbuf *sb)
{
	struct pv_str s = { sb->buf, sb->len };

	return s;
}

static int
is_derived(const struct pv_record *rec)
{
	return rec->type == PV_REC_OTHER &&
		(pv_str_eq(rec->field[0], "runval") ||
		 pv_str_eq(rec->field[0], "stat") ||
		 pv_str_eq(rec->field[0], "statroll"));
}

/* the records read; the others are passed on unchecked */
static const char *const used[] = { "sample", "runval", NULL };

static void
read_file(struct state *st, const char *path)
{
	struct pv_reader *r = pv_reader_open(path);
	struct pv_record rec;
	int rc;

	if (r == NULL)
		pv_die_errno("cannot open '%s'", path);
	pv_reader_use(r, used);
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		switch (rec.type) {
		case PV_REC_SECTION:
			pv_strbuf_reset(&st->role);
			pv_strbuf_add(&st->role, rec.role.s, rec.role.len);
			pv_strbuf_reset(&st->version);
			pv_strbuf_add(&st->version, rec.version.s,
				      rec.version.len);
			pv_strbuf_reset(&st->experiment);
			pv_strbuf_add(&st->experiment, rec.experiment.s,
				      rec.experiment.len);
			pv_write_raw(stdout, &rec);
			break;
		case PV_REC_SAMPLE:
			if (!st->opt->merge) {
				if (pv_runtab_add_sample(&st->tab,
							 sbstr(&st->role),
							 sbstr(&st->version),
							 sbstr(&st->experiment),
							 &rec) < 0)
					pv_die_at(pv_reader_name(r),
						  pv_reader_lineno(r), "%s",
						  st->tab.err);
			} else
				st->merge_samples++;
			if (!st->opt->no_samples)
				pv_write_raw(stdout, &rec);
			break;
		default:
			if (!is_derived(&rec)) {
				pv_write_raw(stdout, &rec);
				break;
			}
			if (!st->opt->merge &&
			    pv_str_eq(rec.field[0], "runval"))
				st->runvals++;
			if (st->opt->merge &&
			    pv_str_eq(rec.field[0], "runval") &&
			    pv_runtab_add_runval(&st->tab, &rec) < 0)
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "%s",
					  st->tab.err);
			break;
		}
	}
	if (rc < 0)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r), "%s",
			  pv_reader_error(r));
	pv_reader_close(r);
}

static void
add_d(struct pv_strbuf *sb, double v)
{
	pv_strbuf_addch(sb, '\t');
	pv_numfmt(sb, v);
}

static void
format_stat(struct pv_strbuf *sb, struct pv_str key,
	    const struct pv_summary *s)
{
	pv_strbuf_addstr(sb, "stat");
	pv_strbuf_add(sb, key.s, key.len);
	pv_strbuf_addch(sb, '\t');
	pv_strbuf_addu(sb, s->n);
	add_d(sb, s->mean);
	add_d(sb, s->median);
	add_d(sb, s->sd);
	add_d(sb, s->cv);
	add_d(sb, s->rcv);
	add_d(sb, s->min);
	add_d(sb, s->max);
	add_d(sb, s->mean_lo);
	add_d(sb, s->mean_hi);
	add_d(sb, s->median_lo);
	add_d(sb, s->median_hi);
	add_d(sb, s->median_cover);
	pv_strbuf_addch(sb, '\n');
}

/*
 * A roll-up scope: the keys of one test, one suite or one section.  It
 * keeps the robust CVs of its keys for their median.
 */
struct roll {
	const struct pv_runkey *first;
	size_t keys, runs, min_n;
	double *rcv;
	size_t alloc;
};

static void
roll_add(struct roll *r, const struct pv_runset *set, double rcv)
{
	if (r->keys == 0) {
		r->first = &set->key;
		r->runs = 0;
		r->min_n = set->nrun;
	}
	PV_GROW(r->rcv, r->keys + 1, r->alloc);
	r->rcv[r->keys++] = rcv;
	r->runs += set->nrun;
	if (set->nrun < r->min_n)
		r->min_n = set->nrun;
}

static void
roll_flush(struct pv_strbuf *sb, struct roll *r, const char *scope)
{
	const struct pv_runkey *k = r->first;
	struct pv_str none = { "", 0 };

	if (r->keys == 0)
		return;
	pv_stats_sort(r->rcv, r->keys);
	pv_strbuf_reset(sb);
	pv_strbuf_addstr(sb, "statroll");
	pv_runkey_format_section(sb, k);
	pv_strbuf_addf(sb, "\t%s", scope);
	{
		struct pv_str suite = strcmp(scope, "run") ? k->suite : none;
		struct pv_str test = strcmp(scope, "test") == 0 ?
			k->test : none;

		pv_strbuf_addch(sb, '\t');
		if (suite.len)
			pv_escape(sb, suite.s, suite.len, 0);
		else
			pv_strbuf_addch(sb, '-');
		pv_strbuf_addch(sb, '\t');
		if (test.len)
			pv_escape(sb, test.s, test.len, 0);
		else
			pv_strbuf_addch(sb, '-');
	}
	pv_strbuf_addch(sb, '\t');
	pv_strbuf_addu(sb, r->keys);
	pv_strbuf_addch(sb, '\t');
	pv_strbuf_addu(sb, r->runs);
	pv_strbuf_addch(sb, '\t');
	pv_strbuf_addu(sb, r->min_n);
	add_d(sb, pv_stats_median_sorted(r->rcv, r->keys));
	add_d(sb, r->rcv[r->keys - 1]);
	pv_strbuf_addch(sb, '\n');
	fwrite(sb->buf, 1, sb->len, stdout);
	r->keys = 0;
}

static int
same_section(const struct pv_runkey *a, const struct pv_runkey *b)
{
	return pv_str_cmp(a->role, b->role) == 0 &&
		pv_str_cmp(a->version, b->version) == 0 &&
		pv_str_cmp(a->experiment, b->experiment) == 0;
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
	struct roll rt, rs, rr;
	struct pv_runset *stop;	/* the first huge set: nothing after it */
};

/* 1: the test's roll-up ends; 2: the suite's too; 3: the run's too. */
static void
flush_scopes(struct writer *w, int n)
{
	roll_flush(&w->sb, &w->rt, "test");
	if (n > 1)
		roll_flush(&w->sb, &w->rs, "suite");
	if (n > 2)
		roll_flush(&w->sb, &w->rr, "run");
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
				format_stat(&blk->text,
					    pv_runtab_key_text(&w->st->tab,
							       set), &s);
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
		if (w->rr.keys && !same_section(w->rr.first, &set->key))
			flush_scopes(w, 3);
		else if (w->rs.keys &&
			 pv_str_cmp(w->rs.first->suite, set->key.suite))
			flush_scopes(w, 2);
		else if (w->rt.keys &&
			 pv_str_cmp(w->rt.first->test, set->key.test))
			flush_scopes(w, 1);
		if (w->huge[i]) {
			/* what comes before it is written, then the error */
			w->stop = set;
			break;
		}
		fwrite(blk->text.buf + from, 1, to - from, stdout);
		from = to;
		roll_add(&w->rt, set, w->rcv[i]);
		roll_add(&w->rs, set, w->rcv[i]);
		roll_add(&w->rr, set, w->rcv[i]);
	}
}

static void
write_all(struct state *st)
{
	struct writer w;
	struct pv_inorder job;
	const struct pv_runset *huge;

	memset(&w, 0, sizeof(w));
	w.st = st;
	w.v = pv_runtab_sorted(&st->tab);
	w.rcv = pv_xreallocarray(NULL, st->tab.nset ? st->tab.nset : 1,
				 sizeof(*w.rcv));
	w.huge = pv_xcalloc(st->tab.nset ? st->tab.nset : 1, 1);
	pv_strbuf_init(&w.sb, 0);
	memset(&job, 0, sizeof(job));
	job.n = st->tab.nset;
	job.block = 256;
	job.per_thread = 4096;
	job.work = compute_block;
	job.take = write_block;
	job.thread_end = pv_stats_thread_release;
	job.arg = &w;
	pv_inorder_run(&job);
	if (w.stop == NULL)
		flush_scopes(&w, 3);
	huge = w.stop;
	free(w.rt.rcv);
	free(w.rs.rcv);
	free(w.rr.rcv);
	free(w.rcv);
	free(w.huge);
	free(w.v);
	pv_strbuf_release(&w.sb);
	if (huge != NULL)
		pv_die("the runs of test '%.*s' operation '%.*s' metric '%.*s' "
		       "are too large for their mean and deviation to fit in "
		       "a double", (int)huge->key.test.len, huge->key.test.s,
		       (int)huge->key.operation.len, huge->key.operation.s,
		       (int)huge->key.metric.len, huge->key.metric.s);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "confidence", required_argument, NULL, 'c' },
		{ "merge", no_argument, NULL, 'm' },
		{ "no-samples", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct options opt = { 0.95, 0, 0 };
	struct state st;
	int c, i;

	pv_diag_init(argv[0]);
	while ((c = getopt_long(argc, argv, "c:mShV", longopts, NULL)) != -1) {
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
		default:
			pv_opt_common(c, usage, help);
		}
	}

	memset(&st, 0, sizeof(st));
	st.opt = &opt;
	pv_runtab_init(&st.tab);
	pv_strbuf_init(&st.role, 0);
	pv_strbuf_init(&st.version, 0);
	pv_strbuf_init(&st.experiment, 0);
	if (optind == argc)
		read_file(&st, "-");
	for (i = optind; i < argc; i++)
		read_file(&st, argv[i]);
	if (opt.merge && st.tab.nset == 0 && st.merge_samples > 0)
		pv_warn("--merge found samples but no runval records "
			"(write the shards with pv-stat -S)");
	/* pv-stat -S output: without --merge its runs would be lost unsaid */
	if (!opt.merge && st.runvals > 0)
		pv_warn("%lu runval records dropped: give --merge to build "
			"the statistics from them", st.runvals);
	write_all(&st);

	pv_runtab_release(&st.tab);
	pv_strbuf_release(&st.role);
	pv_strbuf_release(&st.version);
	pv_strbuf_release(&st.experiment);
	pv_close_stdout();
	return PV_EXIT_OK;
}
