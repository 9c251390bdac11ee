/*
 * bench_unixbench: UnixBench (byte-unixbench 5.x and 6.x).  Two inputs,
 * told apart line by line:
 *
 * - "COUNT|n|timebase|unit" lines, which each program of pgms/ prints
 *   once per invocation (MMTests' unixbenchd parses them).  One line is
 *   one run; pgms/context1 prints two, parent and child, kept as SEQ 0
 *   and 1 of one run.  The value is the raw count over the program's
 *   duration, which the line does not state.
 * - the text report of Run (results/<host>-<date>-NN, or Run's console):
 *   per "Benchmark Run" block, the concurrency from "running N parallel
 *   copies" and one line "%-40s %12.1f %-5s (%.1f s, %d samples)" per
 *   test, the geometric mean of the best passes, and the index score.
 * - Run's per-pass log (results/<host>-<date>-NN.log): blocks "<Title>
 *   -- N copies", then per "#### Pass K" the "# COUNT0/1/2" and
 *   "# elapsed" of each copy; every pass is one run.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bench_private.h"
#include "xalloc.h"

struct ub {
	uint64_t run, seq, level;
	int pairs;			/* context1: two lines per run */
	int block_open;			/* a Benchmark Run without results */
	unsigned long block_line;
	uint64_t levels[16];		/* levels reported in this run */
	size_t nlevels;
	struct pv_strbuf slug;
	/* the per-pass log */
	struct pv_strbuf ltest;		/* the block's test; empty: none */
	struct pv_strbuf lseen;		/* "test/copies\n" of the blocks */
	struct pv_strbuf lunit;
	uint64_t lcopies, lpass, ltimebase, lmaxpass, loffset;
	double lcount, lelapsed;
	size_t ncopy;			/* COUNT0 lines in this pass */
	int in_pass, lstatus;
};

static void *
ub_init(struct pv_bench *b)
{
	struct ub *st = pv_xcalloc(1, sizeof(*st));

	st->run = pv_bench_run0(b);
	st->level = b->opts.level;
	st->pairs = b->opts.test != NULL &&
		    strcmp(b->opts.test, "context1") == 0;
	pv_strbuf_init(&st->slug, 0);
	pv_strbuf_init(&st->ltest, 0);
	pv_strbuf_init(&st->lseen, 0);
	pv_strbuf_init(&st->lunit, 0);
	return st;
}

static void
ub_free(void *state)
{
	struct ub *st = state;

	if (st == NULL)
		return;
	pv_strbuf_release(&st->slug);
	pv_strbuf_release(&st->ltest);
	pv_strbuf_release(&st->lseen);
	pv_strbuf_release(&st->lunit);
	free(st);
}

/* "Pipe-based Context Switching" -> "pipe-based-context-switching" */
static const char *
slug(struct ub *st, const char *s, size_t len)
{
	size_t i;
	int dash = 0;

	pv_strbuf_reset(&st->slug);
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '.') {
			if (dash && st->slug.len > 0)
				pv_strbuf_addch(&st->slug, '-');
			pv_strbuf_addch(&st->slug, c);
			dash = 0;
		} else {
			dash = 1;
		}
	}
	return st->slug.buf;
}

static int
count_line(struct pv_bench *b, struct ub *st, const char *s, size_t len)
{
	struct pv_str f[5];
	size_t n = 0, i = 0;
	uint64_t count, timebase;
	const char *unit;

	for (;;) {
		const char *bar = memchr(s + i, '|', len - i);
		size_t flen = (bar ? (size_t)(bar - s) : len) - i;

		if (n == 5)
			break;
		f[n].s = s + i;
		f[n].len = flen;
		n++;
		if (bar == NULL)
			break;
		i += flen + 1;
	}
	if (n != 4)
		return pv_bench_fail(b, "COUNT line has %zu fields, expected "
				     "COUNT|count|timebase|unit", n);
	if (pv_bench_u64(b, "count", f[1].s, f[1].len, &count) < 0 ||
	    pv_bench_u64(b, "timebase", f[2].s, f[2].len, &timebase) < 0)
		return -1;
	if (pv_str_eq(f[3], "lps") || pv_str_eq(f[3], "lpm"))
		unit = "loops";
	else if (pv_str_eq(f[3], "KBps"))
		unit = "KiB";
	else
		unit = "count";
	pv_bench_kvn(b, "meta", "unixbench-count-unit", f[3].s, f[3].len);
	pv_bench_kvn(b, "meta", "unixbench-timebase", f[2].s, f[2].len);
	if (b->opts.test == NULL && st->seq == 0 && st->run ==
	    pv_bench_run0(b))
		pv_bench_warn(b, "no test name given (--test)");
	pv_bench_sample(b, b->opts.test, "count", "count", unit,
			PV_HIGHER_BETTER, b->opts.level, st->run,
			st->pairs ? st->seq : PV_NONE, (double)count);
	if (st->pairs && st->seq == 0) {
		st->seq = 1;
	} else {
		st->seq = 0;
		st->run++;
	}
	return 0;
}

static void
env_after(struct pv_bench *b, const char *s, size_t len, const char *label,
	  const char *type, const char *key)
{
	size_t i = pv_bench_skipws(s, len, 0), n = strlen(label), e;

	if (len - i < n || memcmp(s + i, label, n) != 0)
		return;
	i = pv_bench_skipws(s, len, i + n);
	for (e = i; e < len && s[e] != ' ' && s[e] != ':'; e++)
		;
	if (e > i)
		pv_bench_kvn(b, type, key, s + i, e - i);
}

/* "   OS: GNU/Linux -- 6.18.44-fc-v782 -- #1 SMP PREEMPT_DYNAMIC @0" */
static void
os_line(struct pv_bench *b, const char *s, size_t len)
{
	const char *p = strstr(s, " -- "), *q;

	if (p == NULL)
		return;
	p += 4;
	q = strstr(p, " -- ");
	if (q == NULL) {
		pv_bench_kvn(b, "env", "os-release", p,
			     (size_t)(s + len - p));
		return;
	}
	pv_bench_kvn(b, "env", "os-release", p, (size_t)(q - p));
	pv_bench_kv(b, "env", "kernel-version", q + 4);
}

/* "2 CPUs in system; running 1 parallel copy of tests" */
static int
copies(struct pv_bench *b, struct ub *st, const char *s, size_t len)
{
	struct pv_str w[8];
	size_t n = pv_bench_words(s, len, w, 8), i;
	uint64_t lv;

	if (n < 7 || !pv_str_eq(w[4], "running"))
		return pv_bench_fail(b, "expected 'N CPUs in system; running "
				     "N parallel copies of tests'");
	pv_bench_kvn(b, "env", "nrcpus-online", w[0].s, w[0].len);
	if (pv_bench_u64(b, "number of copies", w[5].s, w[5].len, &lv) < 0)
		return -1;
	for (i = 0; i < st->nlevels; i++)
		if (st->levels[i] == lv)
			break;
	if (i < st->nlevels) {		/* a second report: the next run */
		st->run++;
		st->nlevels = 0;
	}
	if (st->nlevels < 16)
		st->levels[st->nlevels++] = lv;
	st->level = lv;
	return 0;
}

/* "Pipe Throughput     121416.9 lps   (10.1 s, 2 samples)" */
static int
result_line(struct pv_bench *b, struct ub *st, const char *s, size_t len)
{
	const char *open = NULL, *p;
	struct pv_str w[64];
	size_t n, nw;
	double v;

	for (p = s; (p = memchr(p, '(', (size_t)(s + len - p))) != NULL; p++)
		open = p;
	if (open == NULL)
		return pv_bench_fail(b, "UnixBench result line without its "
				     "'(... samples)'");
	n = (size_t)(open - s);
	nw = pv_bench_words(s, n, w, 64);
	if (nw < 3 || nw > 64)
		return pv_bench_fail(b, "UnixBench result line lacks a name, "
				     "a value or a unit");
	if (pv_bench_num(b, "result", w[nw - 2].s, w[nw - 2].len, &v) < 0)
		return -1;
	{
		char *unit = pv_xmemdup(w[nw - 1].s, w[nw - 1].len);

		pv_bench_sample(b, slug(st, s, (size_t)(w[nw - 3].s +
				w[nw - 3].len - s)), "score", "score", unit,
				PV_HIGHER_BETTER, st->level, st->run, PV_NONE,
				v);
		free(unit);
	}
	st->block_open = 0;
	return 0;
}

/*
 * The per-pass log: one pass's value is, as Run computes it, the sum of
 * the copies' counts over their mean elapsed time in timebase units (the
 * count itself for timebase 0).
 */
static int
flush_pass(struct pv_bench *b, struct ub *st)
{
	double v = st->lcount;

	if (!st->in_pass || st->ncopy == 0) {
		st->in_pass = 0;
		return 0;
	}
	st->in_pass = 0;
	if (st->lstatus != 0) {
		pv_bench_warn(b, "pass %llu of '%s' exited with status %d; "
			      "skipped", (unsigned long long)st->lpass,
			      st->ltest.buf, st->lstatus);
		return 0;
	}
	if (st->ltimebase > 0) {
		if (!(st->lelapsed > 0))
			return pv_bench_fail(b, "pass %llu of '%s' has no "
					     "elapsed time",
					     (unsigned long long)st->lpass,
					     st->ltest.buf);
		v = st->lcount / (st->lelapsed / (double)st->ncopy /
				  (double)st->ltimebase);
	}
	pv_bench_sample(b, st->ltest.buf, "pass", "score", st->lunit.buf,
			PV_HIGHER_BETTER, st->lcopies,
			pv_bench_run0(b) + st->loffset + st->lpass - 1, PV_NONE,
			v);
	if (st->lpass > st->lmaxpass)
		st->lmaxpass = st->lpass;
	return 0;
}

/* "System Call Overhead -- 2 copies": a block of the log */
static int
log_block(struct pv_bench *b, struct ub *st, const char *s, size_t len,
	  const char *dashes)
{
	struct pv_strbuf key = PV_STRBUF_INIT;
	size_t at = (size_t)(dashes - s) + 4, e = at;

	if (flush_pass(b, st) < 0)
		return -1;
	while (e < len && s[e] >= '0' && s[e] <= '9')
		e++;
	if (pv_bench_u64(b, "number of copies", s + at, e - at,
			 &st->lcopies) < 0)
		return -1;
	pv_strbuf_reset(&st->ltest);
	pv_strbuf_addstr(&st->ltest, slug(st, s, (size_t)(dashes - s)));
	pv_strbuf_addf(&key, "%s/%llu\n", st->ltest.buf,
		       (unsigned long long)st->lcopies);
	if (strstr(st->lseen.buf, key.buf) != NULL) {
		/* a second log: its passes are further runs */
		st->loffset += st->lmaxpass;
		st->lmaxpass = 0;
		pv_strbuf_reset(&st->lseen);
	}
	pv_strbuf_add(&st->lseen, key.buf, key.len);
	pv_strbuf_release(&key);
	return 0;
}

/* "# COUNT0: n" and its kin inside a pass */
static int
log_value(struct pv_bench *b, struct ub *st, const char *s, size_t len)
{
	size_t i = 2;
	double v;

	if (pv_bench_prefix(s, len, "# COUNT2: ")) {
		pv_strbuf_reset(&st->lunit);
		pv_strbuf_add(&st->lunit, s + 10, len - 10);
		return 0;
	}
	while (i < len && s[i] != ':')
		i++;
	if (i == len)
		return 0;
	i = pv_bench_skipws(s, len, i + 1);
	if (pv_bench_prefix(s, len, "# COUNT0: ")) {
		if (pv_bench_num(b, "count", s + i, len - i, &v) < 0)
			return -1;
		st->lcount += v;
		st->ncopy++;
	} else if (pv_bench_prefix(s, len, "# COUNT1: ")) {
		return pv_bench_u64(b, "timebase", s + i, len - i,
				    &st->ltimebase);
	} else if (pv_bench_prefix(s, len, "# elapsed: ")) {
		if (pv_bench_num(b, "elapsed time", s + i, len - i, &v) < 0)
			return -1;
		st->lelapsed += v;
	} else if (pv_bench_prefix(s, len, "# status: ")) {
		if (pv_bench_num(b, "status", s + i, len - i, &v) < 0)
			return -1;
		if (v != 0)
			st->lstatus = (int)(v > 255 || v < -255 ? 255 : v);
	}
	return 0;
}

static int
log_line(struct pv_bench *b, struct ub *st, const char *s, size_t len)
{
	uint64_t pass;

	if (pv_bench_prefix(s, len, "#### Pass ")) {
		if (flush_pass(b, st) < 0)
			return -1;
		if (st->ltest.len == 0)
			return pv_bench_fail(b, "pass outside a test block");
		if (pv_bench_u64(b, "pass number", s + 10, len - 10, &pass) < 0)
			return -1;
		if (pass == 0)
			return pv_bench_fail(b, "pass number 0");
		st->lpass = pass;
		st->in_pass = 1;
		st->lcount = st->lelapsed = 0;
		st->ncopy = 0;
		st->ltimebase = 0;
		st->lstatus = 0;
		pv_strbuf_reset(&st->lunit);
		return 0;
	}
	if (st->in_pass && pv_bench_prefix(s, len, "# "))
		return log_value(b, st, s, len);
	/* "########...", "*Dump score", "Count score", ">>>> ...": the end */
	return flush_pass(b, st);
}

static int
ub_line(struct pv_bench *b, void *state, const char *s, size_t len)
{
	struct ub *st = state;
	size_t i;
	struct pv_str w[16];
	double v;
	const char *dash;

	if (pv_bench_prefix(s, len, "COUNT|"))
		return count_line(b, st, s, len);
	if (pv_bench_prefix(s, len, "#### Pass ") ||
	    pv_bench_prefix(s, len, "# ") ||
	    pv_bench_prefix(s, len, "########") ||
	    pv_bench_prefix(s, len, "*Dump score:") ||
	    pv_bench_prefix(s, len, "Count score:") ||
	    pv_bench_prefix(s, len, ">>>> "))
		return log_line(b, st, s, len);
	if (len > 7 && s[0] != ' ' && (dash = strstr(s, " -- ")) != NULL &&
	    (pv_bench_prefix(s + len - 5, 5, " copy") ||
	     pv_bench_prefix(s + len - 7, 7, " copies")))
		return log_block(b, st, s, len, dash);
	i = pv_bench_skipws(s, len, 0);
	if (pv_bench_prefix(s + i, len - i, "BYTE UNIX Benchmarks (Version ")) {
		const char *p = s + i + 30, *e = memchr(p, ')',
			(size_t)(s + len - p));

		if (e != NULL)
			pv_bench_kvn(b, "meta", "unixbench-version", p,
				     (size_t)(e - p));
		return 0;
	}
	if (pv_bench_prefix(s + i, len - i, "System: ")) {
		env_after(b, s, len, "System:", "env", "hostname");
		return 0;
	}
	if (pv_bench_prefix(s + i, len - i, "OS: ")) {
		os_line(b, s, len);
		return 0;
	}
	if (pv_bench_prefix(s + i, len - i, "Machine: ")) {
		env_after(b, s, len, "Machine:", "env", "arch");
		return 0;
	}
	if (pv_bench_prefix(s + i, len - i, "CPU 0: ")) {
		const char *p = s + i + 7, *e = strstr(p, " (");

		pv_bench_kvn(b, "env", "cpudesc", p,
			     e ? (size_t)(e - p) : (size_t)(s + len - p));
		return 0;
	}
	if (pv_bench_prefix(s, len, "Benchmark Run: ")) {
		st->block_open = 1;
		st->block_line = b->lineno;
		return 0;
	}
	if (strstr(s, " CPUs in system; running ") != NULL ||
	    strstr(s, " CPU in system; running ") != NULL)
		return copies(b, st, s, len);
	if (len > 8 && memcmp(s + len - 8, "samples)", 8) == 0 &&
	    memchr(s, '(', len) != NULL)
		return result_line(b, st, s, len);
	if (pv_bench_prefix(s, len, "System Benchmarks Index Score")) {
		size_t nw = pv_bench_words(s, len, w, 16);

		/* "System Benchmarks Index Score [(Partial Only)]  89.7" */
		if (nw < 5 || nw > 16)
			return pv_bench_fail(b, "expected 'System Benchmarks "
					     "Index Score ... N'");
		if (pv_bench_num(b, "index score", w[nw - 1].s, w[nw - 1].len,
				 &v) < 0)
			return -1;
		pv_bench_sample(b, "index-score", "index", "index", "index",
				PV_HIGHER_BETTER, st->level, st->run, PV_NONE,
				v);
	}
	return 0;
}

static int
ub_finish(struct pv_bench *b, void *state)
{
	struct ub *st = state;

	if (flush_pass(b, st) < 0)
		return -1;
	if (st->block_open) {
		b->lineno = st->block_line;
		return pv_bench_fail(b, "UnixBench run has no results");
	}
	if (st->seq != 0)
		return pv_bench_fail(b, "context1 output ends between the "
				     "COUNT lines of a run");
	if (b->nsamples == 0)
		return pv_bench_fail(b, "no UnixBench results in the input");
	return 0;
}

/* one number a test: its score, the index, a pass's score, a count */
static int
ub_primary(const char *test, const char *op, const char *metric)
{
	(void)test;
	(void)op;
	return metric != NULL && (strcmp(metric, "score") == 0 ||
				  strcmp(metric, "index") == 0 ||
				  strcmp(metric, "count") == 0);
}

const struct bench_reader pv_bench_unixbench = {
	"unixbench", "unixbench", ub_init, ub_line, ub_finish, ub_free,
	ub_primary
};
