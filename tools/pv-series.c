/*
 * pv-series: where along a series of versions the performance of each key
 * changed.
 *
 * Reads sample or runval records of many versions (the series is in the
 * order the versions first appear, as pv-store series writes them),
 * passes the whole input on and appends, per key, changepoint records
 * (where the runs before and after differ, significantly and by at least
 * the threshold), outlier records (one version off its neighbours) and
 * trend records (a steady drift); lib/series.c finds them, lib/seriestab.c
 * reads the stream (pv_seriestab_read()) and keeps the series.  With --state the series and the earlier result are
 * kept in a file, so that a nightly job gives only the new version.  The
 * exit status says whether a change for the worse starts at the newest
 * version and is not acknowledged in the --known file.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "inorder.h"
#include "input.h"
#include "opt.h"
#include "rec_changepoint.h"
#include "record.h"
#include "series.h"
#include "seriestab.h"
#include "stats.h"
#include "strbuf.h"
#include "xalloc.h"

static const char usage[] =
	"pv-series [-c LEVEL] [-k FILE] [-p P] [-s FILE] [-t THRESHOLD] "
	"[-w VERSIONS] [FILE ...]";

static const char help[] =
	"Find where benchmark results changed along a series of versions\n"
	"(sample or runval records, pv-format(5), versions in order).\n"
	"\n"
	"  -c, --confidence=LEVEL  level of the intervals (default 0.95)\n"
	"  -k, --known=FILE        change points acknowledged: BEFORE AFTER\n"
	"                          [SUITE [TEST]] a line (an outlier: its\n"
	"                          VERSION twice, or alone); they do not fail\n"
	"  -p, --max-pvalue=P      largest p-value of a change (default\n"
	"                          0.005, corrected for the versions searched)\n"
	"  -s, --state=FILE        keep the series in FILE and go on from it:\n"
	"                          the input then holds only new versions\n"
	"  -t, --threshold=T       smallest change (default 0.02: 2%)\n"
	"  -w, --window=VERSIONS   versions searched at once (default 50)\n"
	"  -h, --help              print this help and exit\n"
	"  -V, --version           print the version and exit\n"
	"\n"
	"With no FILE, or when FILE is -, read standard input; gzip-compressed\n"
	"input is read transparently.\n"
	"\n"
	"Exit status: 0 no change (or outlier) for the worse at the newest\n"
	"version, 1 one (not acknowledged), 2 trouble.\n";

/*
 * An acknowledged change point: its versions, and its suite and test; an
 * acknowledged outlier's versions are both its version.
 */
struct known {
	char *before, *after, *suite, *test;
};

struct options {
	struct pv_series_opts s;
	const char *state;
	const char *known;
};

struct state {
	const struct options *opt;
	struct pv_seriestab tab;
	struct known *known;
	size_t nknown, knownalloc;
	struct pv_strbuf pass;	/* records passed on, written in blocks */
};

#define PASS_BLOCK 65536

static void
pass_flush(struct state *st)
{
	fwrite(st->pass.buf, 1, st->pass.len, stdout);
	pv_strbuf_reset(&st->pass);
}

static void
pass(struct state *st, const struct pv_record *rec)
{
	pv_strbuf_add(&st->pass, rec->raw.s, rec->raw.len);
	pv_strbuf_addch(&st->pass, '\n');
	if (st->pass.len >= PASS_BLOCK)
		pass_flush(st);
}

/* pv_seriestab_read()'s records, passed on */
static void
pass_record(void *arg, const struct pv_record *rec)
{
	pass(arg, rec);
}

static void
read_file(struct state *st, const char *path)
{
	int rc = pv_seriestab_read(&st->tab, path, pass_record, st);

	/* what was passed on before a bad record is written first */
	pass_flush(st);
	if (rc == 0)
		return;
	if (st->tab.errfile.len == 0)
		pv_die("%s", pv_err_msg(&st->tab.err));
	pv_die_at(st->tab.errfile.buf, st->tab.errline, "%s",
		  pv_err_msg(&st->tab.err));
}

/* The words of a line of the known file, split at blanks. */
static size_t
words(char *line, char **w, size_t max)
{
	size_t n = 0;
	char *p = line;

	while (*p != '\0') {
		while (isblank((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		if (n == max)
			return max + 1;
		w[n++] = p;
		while (*p != '\0' && !isblank((unsigned char)*p))
			p++;
		if (*p != '\0')
			*p++ = '\0';
	}
	return n;
}

static void
read_known(struct state *st, const char *path)
{
	struct pv_input *in = pv_input_open(path);
	unsigned long lineno = 0;
	char *line, *w[5];
	size_t len, n;
	int rc;

	if (in == NULL)
		pv_die_errno("cannot open '%s'", path);
	while ((rc = pv_input_getline(in, &line, &len)) > 0) {
		struct known *k;

		lineno++;
		n = words(line, w, 4);
		if (n == 0 || w[0][0] == '#')
			continue;
		if (n > 4)
			pv_die_at(path, lineno, "a known change point is "
				  "BEFORE AFTER [SUITE [TEST]], an outlier "
				  "VERSION, not %zu words", n);
		PV_GROW(st->known, st->nknown + 1, st->knownalloc);
		k = &st->known[st->nknown++];
		k->before = pv_xstrdup(w[0]);
		/* VERSION alone: an outlier's, VERSION VERSION */
		k->after = pv_xstrdup(w[n > 1 ? 1 : 0]);
		k->suite = n > 2 ? pv_xstrdup(w[2]) : NULL;
		k->test = n > 3 ? pv_xstrdup(w[3]) : NULL;
	}
	if (rc < 0)
		pv_die_at(path, lineno + 1, "%s", pv_input_error(in));
	pv_input_close(in);
}

static int
is_known(const struct state *st, const struct pv_runkey *key,
	 struct pv_str before, struct pv_str after)
{
	size_t i;

	for (i = 0; i < st->nknown; i++) {
		const struct known *k = &st->known[i];

		if (pv_str_eq(before, k->before) &&
		    pv_str_eq(after, k->after) &&
		    (k->suite == NULL || pv_str_eq(key->suite, k->suite)) &&
		    (k->test == NULL || pv_str_eq(key->test, k->test)))
			return 1;
	}
	return 0;
}

/*
 * The analysis of the keys in order, in blocks computed by one thread
 * per CPU (pv_inorder_run()) and written in order.
 */
struct writer {
	struct state *st;
	struct pv_skey **v;
	uint32_t newest;
	unsigned char *found;	/* per key: a change that fails the job */
};

static void
format_key(struct writer *w, struct pv_skey *k, struct pv_series_result *r,
	   struct pv_strbuf *sb, unsigned char *found)
{
	const struct pv_seriestab *t = &w->st->tab;
	size_t i;

	pv_series_analyse(&k->series, &w->st->opt->s, r);
	for (i = 0; i < r->nev; i++) {
		const struct pv_series_event *e = &r->ev[i];

		if (e->kind == PV_SERIES_CHANGE) {
			struct pv_changepoint c;

			memset(&c, 0, sizeof(c));
			c.before = pv_seriestab_version_name(t,
							     k->ver[e->before]);
			c.after = pv_seriestab_version_name(t, k->ver[e->at]);
			c.change = e->change;
			c.lo = e->lo;
			c.hi = e->hi;
			c.p = e->p;
			c.nbefore = e->nbefore;
			c.nafter = e->nafter;
			if (k->ver[e->at] == w->newest)
				c.flags |= PV_CHANGEPOINT_NEWEST;
			if (is_known(w->st, &k->key, c.before, c.after))
				c.flags |= PV_CHANGEPOINT_KNOWN;
			if (c.flags == PV_CHANGEPOINT_NEWEST && c.change < 0)
				*found = 1;
			pv_rec_changepoint_write(sb, &c, k->text);
		} else {
			struct pv_outlier o;

			memset(&o, 0, sizeof(o));
			o.version = pv_seriestab_version_name(t, k->ver[e->at]);
			o.change = e->change;
			o.p = e->p;
			if (k->ver[e->at] == w->newest)
				o.flags |= PV_CHANGEPOINT_NEWEST;
			if (is_known(w->st, &k->key, o.version, o.version))
				o.flags |= PV_CHANGEPOINT_KNOWN;
			if (o.flags == PV_CHANGEPOINT_NEWEST && o.change < 0)
				*found = 1;
			pv_rec_outlier_write(sb, &o, k->text);
		}
	}
	if (r->has_trend) {
		struct pv_trend tr;

		memset(&tr, 0, sizeof(tr));
		tr.first = pv_seriestab_version_name(t,
						     k->ver[r->trend.first]);
		tr.last = pv_seriestab_version_name(t, k->ver[r->trend.last]);
		tr.change = r->trend.change;
		tr.lo = r->trend.lo;
		tr.hi = r->trend.hi;
		tr.p = r->trend.p;
		pv_rec_trend_write(sb, &tr, k->text);
	}
}

static void
compute_block(void *arg, struct pv_inorder_block *blk)
{
	struct writer *w = arg;
	struct pv_series_result r;
	size_t i;

	pv_series_result_init(&r);
	for (i = blk->start; i < blk->end; i++) {
		struct pv_skey *k = w->v[i];

		if (!k->bad)
			format_key(w, k, &r, &blk->text, &w->found[i]);
		blk->mark[i - blk->start] = blk->text.len;
	}
	pv_series_result_release(&r);
}

static void
write_block(void *arg, const struct pv_inorder_block *blk)
{
	(void)arg;
	fwrite(blk->text.buf, 1, blk->text.len, stdout);
}

/*
 * What was searched: the keys analysed along two or more versions, and
 * the versions that hold runs, so that a series without a change point
 * reads as compared (pv-classify), not as nothing.
 */
static void
write_scanned(struct state *st)
{
	struct pv_scanned sc = { 0, 0 };
	struct pv_strbuf sb;
	unsigned char *seen;
	size_t i, j, nv = st->tab.versions.nsym;

	if (st->tab.nkey == 0)
		return;		/* warned: nothing was read to search */
	seen = pv_xcalloc(nv ? nv : 1, 1);
	for (i = 0; i < st->tab.nkey; i++) {
		const struct pv_skey *k = &st->tab.key[i];

		if (k->bad)
			continue;
		if (k->series.npt >= 2)
			sc.keys++;
		for (j = 0; j < k->series.npt; j++)
			if (k->ver[j] < nv && !seen[k->ver[j]]) {
				seen[k->ver[j]] = 1;
				sc.versions++;
			}
	}
	free(seen);
	pv_strbuf_init(&sb, 64);
	pv_rec_scanned_write(&sb, &sc);
	fwrite(sb.buf, 1, sb.len, stdout);
	pv_strbuf_release(&sb);
}

/* Analyse and write every key; returns whether one fails the job. */
static int
write_all(struct state *st)
{
	struct writer w;
	struct pv_inorder job;
	size_t i, bad = 0;
	const struct pv_skey *first_bad = NULL;
	int found = 0;

	memset(&w, 0, sizeof(w));
	w.st = st;
	w.v = pv_seriestab_sorted(&st->tab);
	/* the newest version with a run of some key (not a section alone) */
	w.newest = PV_SERIESTAB_NONE;
	for (i = 0; i < st->tab.nkey; i++) {
		const struct pv_skey *k = &st->tab.key[i];

		if (k->series.npt > 0 && (w.newest == PV_SERIESTAB_NONE ||
					  k->ver[k->series.npt - 1] > w.newest))
			w.newest = k->ver[k->series.npt - 1];
	}
	w.found = pv_xcalloc(st->tab.nkey ? st->tab.nkey : 1, 1);
	memset(&job, 0, sizeof(job));
	job.n = st->tab.nkey;
	job.block = 64;
	job.per_thread = 512;
	job.work = compute_block;
	job.take = write_block;
	job.thread_end = pv_stats_thread_release;
	job.arg = &w;
	pv_inorder_run(&job);
	for (i = 0; i < st->tab.nkey; i++) {
		found |= w.found[i];
		if (w.v[i]->bad && bad++ == 0)
			first_bad = w.v[i];
	}
	if (bad > 0)
		pv_warn("%zu key%s left out: a run value is not positive, "
			"and changes are ratios (the first: '%.*s' '%.*s' "
			"'%.*s' '%.*s')", bad, bad > 1 ? "s" : "",
			(int)first_bad->key.suite.len, first_bad->key.suite.s,
			(int)first_bad->key.test.len, first_bad->key.test.s,
			(int)first_bad->key.operation.len,
			first_bad->key.operation.s,
			(int)first_bad->key.metric.len,
			first_bad->key.metric.s);
	free(w.found);
	free(w.v);
	write_scanned(st);
	return found;
}

static void
load_state(struct state *st, const char *path)
{
	double alpha;
	size_t window, i;
	int rc;

	rc = pv_seriestab_load(&st->tab, path, &alpha, &window);
	if (rc < 0)
		pv_die("%s", pv_err_msg(&st->tab.err));
	/* candidates found with other options are found again */
	if (rc > 0 && (alpha != st->opt->s.alpha ||
		       window != st->opt->s.window))
		for (i = 0; i < st->tab.nkey; i++)
			pv_series_forget(&st->tab.key[i].series);
}

/* Write the state, then the output; the state is renamed into place last. */
static void
save_state(struct state *st, const char *path)
{
	struct pv_strbuf tmp = PV_STRBUF_INIT;

	if (pv_seriestab_save(&st->tab, path, &st->opt->s, &tmp) < 0)
		pv_die("%s", pv_err_msg(&st->tab.err));
	if (fflush(stdout) != 0 || ferror(stdout)) {
		unlink(tmp.buf);
		pv_close_stdout();	/* reports the error and exits */
		pv_die("write error on standard output");
	}
	if (rename(tmp.buf, path) != 0) {
		int e = errno;

		unlink(tmp.buf);
		errno = e;
		pv_die_errno("cannot rename '%s' to '%s'", tmp.buf, path);
	}
	pv_strbuf_release(&tmp);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "confidence", required_argument, NULL, 'c' },
		{ "known", required_argument, NULL, 'k' },
		{ "max-pvalue", required_argument, NULL, 'p' },
		{ "state", required_argument, NULL, 's' },
		{ "threshold", required_argument, NULL, 't' },
		{ "window", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct options opt;
	struct state st;
	size_t i;
	int c, found;

	pv_diag_init(argv[0]);
	memset(&opt, 0, sizeof(opt));
	{
		struct pv_series_opts def = PV_SERIES_OPTS_INIT;

		opt.s = def;
	}
	while ((c = getopt_long(argc, argv, "c:k:p:s:t:w:hV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			opt.s.conf = pv_opt_number("confidence", optarg, 0.5,
						   0.999999);
			break;
		case 'k':
			opt.known = optarg;
			break;
		case 'p':
			opt.s.alpha = pv_opt_number("p-value", optarg, 1e-12,
						    0.5);
			break;
		case 's':
			opt.state = optarg;
			break;
		case 't':
			opt.s.threshold = pv_opt_number("threshold", optarg, 0,
							10);
			break;
		case 'w':
			opt.s.window = pv_opt_count("window", optarg, 4,
						    100000);
			break;
		default:
			pv_opt_common(c, usage, help);
		}
	}

	memset(&st, 0, sizeof(st));
	st.opt = &opt;
	pv_seriestab_init(&st.tab);
	pv_strbuf_init(&st.pass, PASS_BLOCK);
	if (opt.known != NULL)
		read_known(&st, opt.known);
	if (opt.state != NULL)
		load_state(&st, opt.state);
	if (optind == argc)
		read_file(&st, "-");
	for (i = (size_t)optind; i < (size_t)argc; i++)
		read_file(&st, argv[i]);
	pv_seriestab_close(&st.tab);
	if (st.tab.nkey == 0)
		pv_warn("no sample or runval records to analyse");
	found = write_all(&st);
	if (opt.state != NULL)
		save_state(&st, opt.state);

	for (i = 0; i < st.nknown; i++) {
		free(st.known[i].before);
		free(st.known[i].after);
		free(st.known[i].suite);
		free(st.known[i].test);
	}
	free(st.known);
	pv_seriestab_release(&st.tab);
	pv_strbuf_release(&st.pass);
	pv_close_stdout();
	return found ? PV_EXIT_FOUND : PV_EXIT_OK;
}
