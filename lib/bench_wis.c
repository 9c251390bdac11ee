/*
 * bench_wis: will-it-scale.  Two inputs:
 *
 * - the output of one test binary (./futex1_processes -t N -s S):
 *   "testcase:DESC", "warmup", one "min:A max:B total:C" line a second,
 *   "measurement", S measured lines, "average:X".  Each measured line is
 *   a sample (SEQ = its index from 0) of the run; the warm-up lines are
 *   not.  MMTests keeps this output minus its first 8 lines, so that it
 *   starts at "measurement".
 * - runtest.py's CSV (tasks,processes,processes_idle,threads,...): one
 *   row per task count, processes and threads being the binary's
 *   average; columns are found by their header names.
 *
 * The binary's output names neither the test (only its description) nor
 * the number of tasks: they come from the options (--test=WORKLOAD_MODEL,
 * --level=N).  Values are per-second throughputs of all tasks together.
 * A run's "average:" line is its summary: a measurement without it (the
 * binary killed, the file cut) is an error, not a shorter run.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bench_private.h"
#include "xalloc.h"

enum wis_state { W_START, W_WARMUP, W_MEASURE, W_DONE, W_CSV };

struct wis {
	enum wis_state state;
	char *test, *model;	/* from opts.test; NULL when not given */
	struct pv_strbuf desc;	/* the testcase line's description */
	uint64_t run, seq;
	double sum;		/* of the measured totals */
	unsigned long measure_line;
	int named;		/* warned about the missing --test */
	/* CSV column numbers, or -1 */
	int c_tasks, c_proc, c_thr, ncol;
};

static void *
wis_init(struct pv_bench *b)
{
	struct wis *st = pv_xcalloc(1, sizeof(*st));
	const char *t = b->opts.test, *us;

	pv_strbuf_init(&st->desc, 0);
	st->run = pv_bench_run0(b);
	if (t != NULL) {
		us = strrchr(t, '_');
		if (us != NULL && (strcmp(us + 1, "processes") == 0 ||
				   strcmp(us + 1, "threads") == 0)) {
			st->test = pv_xmemdup(t, (size_t)(us - t));
			st->model = pv_xstrdup(us + 1);
		} else {
			st->test = pv_xstrdup(t);
		}
	}
	return st;
}

static void
wis_free(void *state)
{
	struct wis *st = state;

	if (st == NULL)
		return;
	free(st->test);
	free(st->model);
	pv_strbuf_release(&st->desc);
	free(st);
}

/* "key:N" at w: the number after the colon */
static int
field(struct pv_bench *b, struct pv_str w, const char *key, double *v)
{
	size_t n = strlen(key);

	if (w.len <= n || memcmp(w.s, key, n) != 0)
		return pv_bench_fail(b, "expected '%s' in a will-it-scale "
				     "line, found '%.*s'", key,
				     (int)(w.len > 40 ? 40 : w.len), w.s);
	return pv_bench_num(b, key, w.s + n, w.len - n, v);
}

static int
cut_short(struct pv_bench *b, const struct wis *st)
{
	return pv_bench_fail(b, "will-it-scale run %llu ends without its "
			     "'average:' line: the run was cut short",
			     (unsigned long long)st->run);
}

static const char *
test_name(struct pv_bench *b, struct wis *st)
{
	if (st->test != NULL)
		return st->test;
	if (!st->named) {
		pv_bench_warn(b, "no test name given (--test); using the "
			      "testcase description '%s'", st->desc.buf);
		st->named = 1;
	}
	return st->desc.len ? st->desc.buf : NULL;
}

static int
binary_line(struct pv_bench *b, struct wis *st, const char *s, size_t len)
{
	struct pv_str w[4];
	size_t n;
	double mn = 0, mx = 0, total = 0;

	if (st->state == W_MEASURE && st->seq > 0 &&
	    (pv_bench_prefix(s, len, "testcase:") ||
	     (len == 6 && memcmp(s, "warmup", 6) == 0) ||
	     (len == 11 && memcmp(s, "measurement", 11) == 0)))
		return cut_short(b, st);
	if (pv_bench_prefix(s, len, "testcase:")) {
		if (st->state == W_MEASURE || st->state == W_DONE) {
			st->run++;
			st->state = W_START;
		}
		pv_strbuf_reset(&st->desc);
		pv_strbuf_add(&st->desc, s + 9, len - 9);
		pv_bench_kv(b, "meta", "will-it-scale-testcase", st->desc.buf);
		return 0;
	}
	if (len == 6 && memcmp(s, "warmup", 6) == 0) {
		if (st->state == W_MEASURE || st->state == W_DONE)
			st->run++;
		st->state = W_WARMUP;
		return 0;
	}
	if (len == 11 && memcmp(s, "measurement", 11) == 0) {
		if (st->state == W_MEASURE || st->state == W_DONE)
			st->run++;
		st->state = W_MEASURE;
		st->seq = 0;
		st->sum = 0;
		st->measure_line = b->lineno;
		return 0;
	}
	if (pv_bench_prefix(s, len, "average:")) {
		if (st->state != W_MEASURE)
			return pv_bench_fail(b, "'average:' line outside the "
					     "measurement");
		if (st->seq == 0)
			return pv_bench_fail(b, "'average:' line without "
					     "measured lines");
		st->state = W_DONE;
		if (pv_bench_num(b, "average", s + 8, len - 8, &mn) < 0)
			return -1;
		/* the binary prints the integer mean of the totals */
		mx = st->sum / (double)st->seq;
		if (mn < mx - 1 || mn > mx + 1)
			pv_bench_warn(b, "'average:%.0f' is not the mean of "
				      "the measured lines (%.1f)", mn, mx);
		return 0;
	}
	if (!pv_bench_prefix(s, len, "min:"))
		return 0;	/* -v per-task lines, tool noise */
	n = pv_bench_words(s, len, w, 4);
	if (n != 3)
		return pv_bench_fail(b, "will-it-scale line has %zu fields, "
				     "expected 'min:N max:N total:N'", n);
	if (field(b, w[0], "min:", &mn) < 0 ||
	    field(b, w[1], "max:", &mx) < 0 ||
	    field(b, w[2], "total:", &total) < 0)
		return -1;
	switch (st->state) {
	case W_WARMUP:
		return 0;
	case W_MEASURE:
		pv_bench_sample(b, test_name(b, st), st->model, "throughput",
				"ops/s", PV_HIGHER_BETTER, b->opts.level,
				st->run, st->seq++, total);
		st->sum += total;
		return 0;
	case W_DONE:
		return pv_bench_fail(b, "measured line after 'average:'");
	default:
		return pv_bench_fail(b, "'min:' line before 'warmup' or "
				     "'measurement': cannot tell warm-up "
				     "from measurement");
	}
}

static int
csv_header(struct pv_bench *b, struct wis *st, const char *s, size_t len)
{
	size_t i = 0;
	int col = 0;

	st->c_tasks = st->c_proc = st->c_thr = -1;
	for (;;) {
		const char *c = memchr(s + i, ',', len - i);
		size_t n = (c ? (size_t)(c - s) : len) - i;

		if (n == 5 && memcmp(s + i, "tasks", 5) == 0)
			st->c_tasks = col;
		else if (n == 9 && memcmp(s + i, "processes", 9) == 0)
			st->c_proc = col;
		else if (n == 7 && memcmp(s + i, "threads", 7) == 0)
			st->c_thr = col;
		col++;
		if (c == NULL)
			break;
		i += n + 1;
	}
	st->ncol = col;
	if (st->c_tasks < 0 || (st->c_proc < 0 && st->c_thr < 0))
		return pv_bench_fail(b, "runtest.py CSV header lacks 'tasks' "
				     "or 'processes'/'threads'");
	st->state = W_CSV;
	return 0;
}

static int
csv_row(struct pv_bench *b, struct wis *st, const char *s, size_t len)
{
	double v[32];
	size_t i = 0;
	int col = 0, k;
	uint64_t tasks;
	static const char *const model[2] = { "processes", "threads" };
	int cols[2] = { st->c_proc, st->c_thr };

	for (;;) {
		const char *c = memchr(s + i, ',', len - i);
		size_t n = (c ? (size_t)(c - s) : len) - i;

		if (col >= 32)
			return pv_bench_fail(b, "too many CSV columns");
		if (pv_bench_num(b, "CSV value", s + i, n, &v[col]) < 0)
			return -1;
		col++;
		if (c == NULL)
			break;
		i += n + 1;
	}
	if (col != st->ncol)
		return pv_bench_fail(b, "CSV row has %d columns, the header "
				     "%d", col, st->ncol);
	/* bounded first: a cast of a huge double is undefined */
	if (v[st->c_tasks] < 0 || v[st->c_tasks] > 1e9 ||
	    v[st->c_tasks] != (double)(uint64_t)v[st->c_tasks])
		return pv_bench_fail(b, "task count '%g' is not a whole "
				     "number in range", v[st->c_tasks]);
	tasks = (uint64_t)v[st->c_tasks];
	if (tasks == 0)
		return 0;	/* runtest.py's idle baseline row */
	if (st->test == NULL && !st->named) {
		pv_bench_warn(b, "no test name given (--test)");
		st->named = 1;
	}
	for (k = 0; k < 2; k++) {
		if (cols[k] < 0)
			continue;
		if (v[cols[k]] < 0) {
			pv_bench_warn(b, "no %s result at %llu tasks; skipped",
				      model[k], (unsigned long long)tasks);
			continue;
		}
		pv_bench_sample(b, st->test, model[k], "throughput", "ops/s",
				PV_HIGHER_BETTER, tasks, st->run, PV_NONE,
				v[cols[k]]);
	}
	return 0;
}

static int
wis_line(struct pv_bench *b, void *state, const char *s, size_t len)
{
	struct wis *st = state;

	if (len == 0)
		return 0;
	if (pv_bench_prefix(s, len, "tasks,"))
		return csv_header(b, st, s, len);
	if (st->state == W_CSV)
		return csv_row(b, st, s, len);
	return binary_line(b, st, s, len);
}

static int
wis_finish(struct pv_bench *b, void *state)
{
	struct wis *st = state;

	if (st->state == W_WARMUP)
		return pv_bench_fail(b, "will-it-scale output ends during "
				     "the warm-up");
	if (st->state == W_MEASURE && st->seq == 0) {
		b->lineno = st->measure_line;
		return pv_bench_fail(b, "no measured lines after "
				     "'measurement'");
	}
	if (st->state == W_MEASURE)
		return cut_short(b, st);
	if (b->nsamples == 0)
		return pv_bench_fail(b, "no will-it-scale results in the "
				     "input");
	return 0;
}

/* the operations a second of all tasks: the only metric */
static int
wis_primary(const char *test, const char *op, const char *metric)
{
	(void)test;
	(void)op;
	return metric != NULL && strcmp(metric, "throughput") == 0;
}

const struct bench_reader pv_bench_wis = {
	"will-it-scale", "will-it-scale", wis_init, wis_line, wis_finish,
	wis_free, wis_primary
};
