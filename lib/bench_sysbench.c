/*
 * bench_sysbench: the text output of sysbench 1.0 (it has no machine
 * format), read by label: the rate lines of the cpu, memory and OLTP tests,
 * "General statistics" (total time, total number of events) and the
 * latency summary in milliseconds (lower is better).  The output names
 * the cpu and memory tests by their option lines; threads, mutex and the
 * others must be named with --test.  Several outputs may be concatenated:
 * each "sysbench 1.x" banner after results starts the next run.
 *
 * sysbench prints its whole report when the test ends, and every test's
 * report ends with "Threads fairness" and its "execution time" line: a
 * run whose output stops before that line was cut short (killed, a full
 * disk), and its numbers are not a measurement.  Its samples are already
 * written by then; the error tells the caller to drop them.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bench_private.h"
#include "xalloc.h"

struct sb {
	char *test;		/* what the output says, or NULL */
	char *memop;		/* memory test: "write", "read", ... */
	uint64_t level, run;
	int emitted, in_latency, seen_banner;
	int complete;		/* the report's last line was seen */
};

static void *
sb_init(struct pv_bench *b)
{
	struct sb *st = pv_xcalloc(1, sizeof(*st));

	st->run = pv_bench_run0(b);
	st->level = b->opts.level;
	return st;
}

static void
sb_free(void *state)
{
	struct sb *st = state;

	if (st == NULL)
		return;
	free(st->test);
	free(st->memop);
	free(st);
}

static void
set(char **p, const char *s, size_t len)
{
	free(*p);
	*p = pv_xmemdup(s, len);
}

static int
emit(struct pv_bench *b, struct sb *st, const char *op, const char *metric,
     const char *unit, enum pv_direction dir, const char *s, size_t len)
{
	const char *test = st->test != NULL ? st->test : b->opts.test;
	double v;

	if (test == NULL)
		return pv_bench_fail(b, "cannot tell the sysbench test from "
				     "its output; name it with --test");
	if (pv_bench_num(b, metric, s, len, &v) < 0)
		return -1;
	pv_bench_sample(b, test, op, metric, unit, dir, st->level, st->run,
			PV_NONE, v);
	st->emitted = 1;
	return 0;
}

/* "N (X per sec.)": X */
static int
per_sec(struct pv_bench *b, struct sb *st, const char *op,
	const char *metric, const char *unit, const char *v, size_t n)
{
	const char *p = memchr(v, '(', n);

	if (p == NULL || n < 10 || memcmp(v + n - 10, " per sec.)", 10) != 0)
		return pv_bench_fail(b, "expected '%s: N (X per sec.)'", op);
	return emit(b, st, op, metric, unit, PV_HIGHER_BETTER, p + 1,
		    (size_t)(v + n - 10 - (p + 1)));
}

static int
cut_short(struct pv_bench *b, const struct sb *st)
{
	return pv_bench_fail(b, "sysbench output of run %llu ends before "
			     "the end of its report (its 'execution time' "
			     "line): the run was cut short",
			     (unsigned long long)st->run);
}

/* The text after "label:" with spaces skipped, or NULL. */
static const char *
after(const char *s, size_t len, const char *label, size_t *rest)
{
	size_t i = pv_bench_skipws(s, len, 0), n = strlen(label);

	if (len - i < n || memcmp(s + i, label, n) != 0)
		return NULL;
	i = pv_bench_skipws(s, len, i + n);
	*rest = len - i;
	return s + i;
}

static int
latency(struct pv_bench *b, struct sb *st, const char *s, size_t len)
{
	static const char *const lab[][2] = {
		{ "min:", "latency-min" }, { "avg:", "latency-avg" },
		{ "max:", "latency-max" },
	};
	const char *v;
	size_t n, i;
	double sum;

	for (i = 0; i < 3; i++)
		if ((v = after(s, len, lab[i][0], &n)) != NULL)
			return emit(b, st, "latency", lab[i][1], "ms",
				    PV_LOWER_BETTER, v, n);
	/* "95th percentile:", or another --percentile */
	i = pv_bench_skipws(s, len, 0);
	if ((v = after(s, len, "sum:", &n)) != NULL)
		return pv_bench_num(b, "latency sum", v, n, &sum);
	if (i < len && s[i] >= '1' && s[i] <= '9') {
		size_t d = i;
		char metric[32];

		while (d < len && s[d] >= '0' && s[d] <= '9')
			d++;
		if (d - i > 3 || !pv_bench_prefix(s + d, len - d,
						  "th percentile:"))
			return 0;
		snprintf(metric, sizeof(metric), "latency-p%.*s",
			 (int)(d - i), s + i);
		v = after(s + d, len - d, "th percentile:", &n);
		if (v == NULL)
			return 0;
		return emit(b, st, "latency", metric, "ms", PV_LOWER_BETTER,
			    v, n);
	}
	return 0;
}

static int
sb_line(struct pv_bench *b, void *state, const char *s, size_t len)
{
	struct sb *st = state;
	const char *v, *p;
	size_t n;
	uint64_t u;

	if (len == 0)
		return 0;
	if (pv_bench_prefix(s, len, "sysbench ") && len > 9 &&
	    s[9] >= '0' && s[9] <= '9') {
		if (st->emitted) {
			if (!st->complete)
				return cut_short(b, st);
			st->run++;
			st->complete = 0;
			st->emitted = 0;
			free(st->test);
			st->test = NULL;
			st->level = b->opts.level;
		}
		st->in_latency = 0;
		st->seen_banner = 1;
		n = 9;
		while (n < len && s[n] != ' ')
			n++;
		pv_bench_kvn(b, "meta", "sysbench-version", s + 9, n - 9);
		return 0;
	}
	if (s[0] != ' ')
		st->in_latency = pv_bench_prefix(s, len, "Latency (ms):");
	if (st->in_latency)
		return latency(b, st, s, len);
	if (after(s, len, "execution time (avg/stddev):", &n) != NULL) {
		st->complete = 1;
		return 0;
	}
	if ((v = after(s, len, "Number of threads:", &n)) != NULL) {
		if (pv_bench_u64(b, "number of threads", v, n, &u) < 0)
			return -1;
		if (b->opts.level != PV_NONE && b->opts.level != u)
			pv_bench_warn(b, "level %llu given, but the output "
				      "runs %llu threads; using %llu",
				      (unsigned long long)b->opts.level,
				      (unsigned long long)u,
				      (unsigned long long)u);
		st->level = u;
		return 0;
	}
	if ((v = after(s, len, "Prime numbers limit:", &n)) != NULL) {
		set(&st->test, "cpu", 3);
		pv_bench_kvn(b, "meta", "sysbench-cpu-max-prime", v, n);
		return 0;
	}
	if (pv_bench_prefix(s, len, "Running memory speed test")) {
		set(&st->test, "memory", 6);
		return 0;
	}
	if ((v = after(s, len, "block size:", &n)) != NULL) {
		pv_bench_kvn(b, "meta", "sysbench-memory-block-size", v, n);
		return 0;
	}
	if ((v = after(s, len, "total size:", &n)) != NULL) {
		pv_bench_kvn(b, "meta", "sysbench-memory-total-size", v, n);
		return 0;
	}
	if ((v = after(s, len, "scope:", &n)) != NULL) {
		pv_bench_kvn(b, "meta", "sysbench-memory-scope", v, n);
		return 0;
	}
	if ((v = after(s, len, "operation:", &n)) != NULL) {
		set(&st->memop, v, n);
		return 0;
	}
	if ((v = after(s, len, "events per second:", &n)) != NULL)
		return emit(b, st, "events", "events-per-second", "events/s",
			    PV_HIGHER_BETTER, v, n);
	if ((v = after(s, len, "total time:", &n)) != NULL) {
		if (n > 0 && v[n - 1] == 's')
			n--;
		return emit(b, st, "events", "total-time", "s",
			    PV_LOWER_BETTER, v, n);
	}
	if ((v = after(s, len, "total number of events:", &n)) != NULL)
		return emit(b, st, "events", "total-events", "events",
			    PV_HIGHER_BETTER, v, n);
	/* OLTP: "transactions: N (X per sec.)", "queries: N (X per sec.)" */
	if ((v = after(s, len, "transactions:", &n)) != NULL)
		return per_sec(b, st, "transactions", "transactions-per-second",
			       "transactions/s", v, n);
	if ((v = after(s, len, "queries:", &n)) != NULL)
		return per_sec(b, st, "queries", "queries-per-second",
			       "queries/s", v, n);
	/* memory: "Total operations: N (X per second)" */
	if ((v = after(s, len, "Total operations:", &n)) != NULL) {
		p = memchr(v, '(', n);
		if (p == NULL || !pv_bench_prefix(s + len - 12, 12,
						  " per second)"))
			return pv_bench_fail(b, "expected 'Total operations: "
					     "N (X per second)'");
		return emit(b, st, st->memop ? st->memop : "memory",
			    "operations-per-second", "ops/s",
			    PV_HIGHER_BETTER, p + 1,
			    (size_t)(s + len - 12 - (p + 1)));
	}
	/* memory: "X MiB transferred (Y MiB/sec)" */
	if ((p = memchr(s, '(', len)) != NULL &&
	    strstr(s, " MiB transferred (") != NULL) {
		if (!pv_bench_prefix(s + len - 9, 9, " MiB/sec)"))
			return pv_bench_fail(b, "expected 'X MiB transferred "
					     "(Y MiB/sec)'");
		return emit(b, st, st->memop ? st->memop : "memory",
			    "transfer-rate", "MiB/s", PV_HIGHER_BETTER, p + 1,
			    (size_t)(s + len - 9 - (p + 1)));
	}
	return 0;
}

static int
sb_finish(struct pv_bench *b, void *state)
{
	struct sb *st = state;

	if (st->seen_banner && !st->emitted)
		return pv_bench_fail(b, "sysbench output ends before its "
				     "results");
	if (st->emitted && !st->complete)
		return cut_short(b, st);
	if (b->nsamples == 0)
		return pv_bench_fail(b, "no sysbench results in the input");
	return 0;
}

/*
 * cpu and memory state their rate; threads runs for a time (its events
 * are the work done), mutex for a number of events (its time is what the
 * work took).
 */
static int
sb_primary(const char *test, const char *op, const char *metric)
{
	(void)op;
	if (test == NULL || metric == NULL)
		return 0;
	if (strcmp(test, "cpu") == 0)
		return strcmp(metric, "events-per-second") == 0;
	if (strcmp(test, "memory") == 0)
		return strcmp(metric, "operations-per-second") == 0;
	if (strcmp(test, "threads") == 0)
		return strcmp(metric, "total-events") == 0;
	if (strcmp(test, "mutex") == 0)
		return strcmp(metric, "total-time") == 0;
	return 0;
}

const struct bench_reader pv_bench_sysbench = {
	"sysbench", "sysbench", sb_init, sb_line, sb_finish, sb_free,
	sb_primary
};
