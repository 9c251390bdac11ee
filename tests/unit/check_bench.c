/*
 * check_bench: the benchmark readers (lib/bench.h) over real benchmark
 * outputs (tests/data/bench, see its README), compared exactly with
 * reviewed golden streams (<case>.pv, and <case>.err for the warnings),
 * and over malformed inputs, which must fail with the right line.
 *
 * PV_UPDATE_GOLDEN=1 in the environment rewrites the goldens instead of
 * comparing (review the diff before committing).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "input.h"
#include "record.h"
#include "strbuf.h"

#ifndef BENCH_DATA
#define BENCH_DATA "tests/data/bench"
#endif

static void
collect_warning(void *arg, const char *file, unsigned long line,
		const char *msg)
{
	struct pv_strbuf *sb = arg;
	size_t n = strlen(BENCH_DATA);

	/* the tree's paths are absolute: keep them relative to the data */
	if (file != NULL && strncmp(file, BENCH_DATA "/", n + 1) == 0)
		file += n + 1;
	pv_strbuf_addf(sb, "%s:%lu: %s\n", file ? file : "-", line, msg);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct pv_strbuf sb = PV_STRBUF_INIT;
	char buf[4096];
	size_t n;

	if (f == NULL)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		pv_strbuf_add(&sb, buf, n);
	fclose(f);
	return pv_strbuf_detach(&sb, len);
}

static void
spew(const char *path, const char *s, size_t len)
{
	FILE *f;

	if (len == 0) {
		unlink(path);
		return;
	}
	f = fopen(path, "wb");
	ck_assert_msg(f != NULL, "cannot write %s", path);
	fwrite(s, 1, len, f);
	ck_assert(fclose(f) == 0);
}

/* Compare got with the golden file, or rewrite it in update mode. */
static void
golden(const char *name, const char *ext, const char *got, size_t len)
{
	char path[512];
	char *want;
	size_t wlen, i, line = 1;

	snprintf(path, sizeof(path), "%s/%s.%s", BENCH_DATA, name, ext);
	if (getenv("PV_UPDATE_GOLDEN") != NULL) {
		spew(path, got, len);
		return;
	}
	want = slurp(path, &wlen);
	if (want == NULL) {
		wlen = 0;
		want = strdup("");
	}
	for (i = 0; i < len && i < wlen && got[i] == want[i]; i++)
		if (got[i] == '\n')
			line++;
	/* back to the start of the differing line */
	while (i > 0 && got[i - 1] != '\n')
		i--;
	ck_assert_msg(len == wlen && memcmp(got, want, len) == 0,
		      "%s: output differs from the golden at line %zu:\n"
		      "got:  %.*s\nwant: %.*s", path, line,
		      (int)strcspn(got + i, "\n"), got + i,
		      (int)(i < wlen ? strcspn(want + i, "\n") : 0),
		      i < wlen ? want + i : "");
	free(want);
}

struct gcase {
	const char *name;	/* the golden: <name>.pv, <name>.err */
	const char *format;	/* NULL: detect from the first line */
	const char *input;	/* file under tests/data/bench */
	const char *test;
	uint64_t level, run;
	const char *role, *version;
};

#define N PV_NONE
static const struct gcase gcases[] = {
	{ "stress-ng-futex-yaml", NULL, "stress-ng-futex-n2-r1.yaml",
	  NULL, 2, N, NULL, NULL },
	{ "stress-ng-futex-table", NULL, "stress-ng-futex-n2-r1.stderr",
	  NULL, N, N, NULL, NULL },
	{ "stress-ng-cpu-yaml", NULL, "stress-ng-cpu-matrixprod-n2-r1.yaml",
	  NULL, 2, 3, NULL, NULL },
	{ "stress-ng-cpu-table", NULL,
	  "stress-ng-cpu-matrixprod-n2-r1.stderr", NULL, 1, N, NULL, NULL },
	{ "stress-ng-newer", NULL, "stress-ng-newer.stderr", NULL, N, N,
	  NULL, NULL },
	{ "wis-futex1-processes", NULL, "wis-futex1_processes-t2-r2.out",
	  "futex1_processes", 2, 2, NULL, NULL },
	{ "wis-getppid1-threads", NULL, "wis-getppid1_threads-t1-r1.out",
	  NULL, 1, N, NULL, NULL },
	{ "wis-runtest-csv", NULL, "wis-runtest-futex1.csv", "futex1", N, N,
	  NULL, NULL },
	{ "sysbench-cpu", NULL, "sysbench-cpu-t2-r1.txt", NULL, N, N,
	  "baseline", "v6.18" },
	{ "sysbench-memory", NULL, "sysbench-memory-t2-r1.txt", NULL, N, N,
	  NULL, NULL },
	{ "sysbench-mutex", NULL, "sysbench-mutex-t2-r1.txt", "mutex", N, N,
	  NULL, NULL },
	{ "sysbench-threads", NULL, "sysbench-threads-t2-r1.txt", "threads",
	  N, 7, NULL, NULL },
	{ "unixbench-report", NULL, "unixbench-report.txt", NULL, N, N,
	  NULL, NULL },
	{ "unixbench-run-stdout", "unixbench", "unixbench-Run-stdout.txt",
	  NULL, N, N, NULL, NULL },
	{ "unixbench-log", NULL, "unixbench-report.log", NULL, N, N, NULL,
	  NULL },
	{ "unixbench-context1", NULL, "unixbench-pgms-context1.log",
	  "context1", 1, N, NULL, NULL },
	{ "unixbench-syscall", NULL, "unixbench-pgms-syscall-getpid.log",
	  "syscall", 1, N, NULL, NULL },
	{ "generic", "generic", "generic.txt", NULL, N, N, NULL, NULL },
};

/* Run one reader over a file; returns 0 or -1 with err filled. */
static int
run_file(const char *format, const char *path,
	 const struct pv_bench_opts *o, struct pv_strbuf *out,
	 struct pv_strbuf *err)
{
	struct pv_input *in = pv_input_open(path);
	struct pv_bench *b = NULL;
	char *line, *buf = NULL;
	size_t len, blen = 0;
	FILE *f = open_memstream(&buf, &blen);
	int rc = 0;

	ck_assert_msg(in != NULL, "cannot open %s", path);
	ck_assert(f != NULL);
	while (pv_input_getline(in, &line, &len) > 0) {
		if (b == NULL) {
			if (format == NULL) {
				if (len == 0)
					continue;
				format = pv_bench_detect(line, len);
				ck_assert_msg(format != NULL,
					      "%s: not detected", path);
			}
			b = pv_bench_new(format, o, f);
			ck_assert(b != NULL);
		}
		if (pv_bench_line(b, line, len) < 0) {
			rc = -1;
			break;
		}
	}
	ck_assert(b != NULL);
	if (rc == 0)
		rc = pv_bench_finish(b);
	if (rc < 0)
		pv_strbuf_addf(err, "%lu: %s", pv_bench_error_line(b),
			       pv_bench_error(b));
	pv_bench_free(b);
	pv_input_close(in);
	fclose(f);
	pv_strbuf_add(out, buf, blen);
	free(buf);
	return rc;
}

START_TEST(test_golden)
{
	const struct gcase *c = &gcases[_i];
	struct pv_bench_opts o = PV_BENCH_OPTS_INIT;
	struct pv_strbuf out = PV_STRBUF_INIT, err = PV_STRBUF_INIT;
	struct pv_strbuf warn = PV_STRBUF_INIT;
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", BENCH_DATA, c->input);
	o.test = c->test;
	o.level = c->level;
	o.run = c->run;
	o.role = c->role;
	o.version = c->version;
	o.name = c->input;
	o.warn = collect_warning;
	o.warn_arg = &warn;
	ck_assert_msg(run_file(c->format, path, &o, &out, &err) == 0,
		      "%s: %s", c->name, err.buf);
	golden(c->name, "pv", out.buf, out.len);
	golden(c->name, "err", warn.buf, warn.len);
	pv_strbuf_release(&out);
	pv_strbuf_release(&err);
	pv_strbuf_release(&warn);
}
END_TEST

/* The output of every golden case reads back as a valid pv stream. */
START_TEST(test_golden_reads_back)
{
	const struct gcase *c = &gcases[_i];
	char path[512];
	struct pv_reader *r;
	struct pv_record rec;
	int rc, n = 0;

	snprintf(path, sizeof(path), "%s/%s.pv", BENCH_DATA, c->name);
	r = pv_reader_open(path);
	ck_assert_msg(r != NULL, "%s: %s", path, strerror(errno));
	while ((rc = pv_reader_next(r, &rec)) > 0)
		n += rec.type == PV_REC_SAMPLE;
	ck_assert_msg(rc == 0, "%s:%lu: %s", path, pv_reader_lineno(r),
		      pv_reader_error(r));
	ck_assert_int_gt(n, 0);
	pv_reader_close(r);
}
END_TEST

static void
run_tree(const char *dir, struct pv_strbuf *out, struct pv_strbuf *warn,
	 struct pv_strbuf *err)
{
	struct pv_bench_opts o = PV_BENCH_OPTS_INIT;
	struct pv_bench *b;
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);

	o.warn = collect_warning;
	o.warn_arg = warn;
	b = pv_bench_new("mmtests", &o, f);
	ck_assert(b != NULL);
	if (pv_bench_read_tree(b, dir) < 0)
		pv_strbuf_addf(err, "%s:%lu: %s",
			       pv_bench_error_file(b) ? pv_bench_error_file(b)
			       : "-", pv_bench_error_line(b),
			       pv_bench_error(b));
	pv_bench_free(b);
	fclose(f);
	pv_strbuf_add(out, buf, blen);
	free(buf);
}

START_TEST(test_mmtests_tree)
{
	struct pv_strbuf out = PV_STRBUF_INIT, warn = PV_STRBUF_INIT;
	struct pv_strbuf err = PV_STRBUF_INIT, again = PV_STRBUF_INIT;

	run_tree(BENCH_DATA "/mm", &out, &warn, &err);
	ck_assert_msg(err.len == 0, "%s", err.buf);
	golden("mmtests", "pv", out.buf, out.len);
	golden("mmtests", "err", warn.buf, warn.len);
	/* work/log itself and a trailing slash give the same stream */
	run_tree(BENCH_DATA "/mm/work/log/", &again, &warn, &err);
	ck_assert_msg(err.len == 0, "%s", err.buf);
	ck_assert(again.len == out.len &&
		  memcmp(again.buf, out.buf, out.len) == 0);
	pv_strbuf_release(&out);
	pv_strbuf_release(&warn);
	pv_strbuf_release(&err);
	pv_strbuf_release(&again);
}
END_TEST

/* One <run> directory alone is one section named after it. */
START_TEST(test_mmtests_one_run)
{
	struct pv_strbuf out = PV_STRBUF_INIT, warn = PV_STRBUF_INIT;
	struct pv_strbuf err = PV_STRBUF_INIT;

	run_tree(BENCH_DATA "/mm/work/log/aa-2", &out, &warn, &err);
	ck_assert_msg(err.len == 0, "%s", err.buf);
	ck_assert(strncmp(out.buf, "section\t-\taa-2\t-\n", 16) == 0);
	ck_assert(strstr(out.buf, "aa-1") == NULL);
	pv_strbuf_release(&out);
	pv_strbuf_release(&warn);
	pv_strbuf_release(&err);
}
END_TEST

/*
 * The directions MMTests gets wrong: stress-ng bogo ops/s and sysbench
 * cpu events/s are higher-is-better, in the tree and in the bare outputs;
 * every latency and time is lower-is-better.  Counted over the tree so
 * that a change in the readers cannot silently lose the samples.
 */
START_TEST(test_directions)
{
	struct pv_reader *r = pv_reader_open(BENCH_DATA "/mmtests.pv");
	struct pv_record rec;
	int rc, bogo = 0, events = 0, wis = 0, lower = 0;

	ck_assert(r != NULL);
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if (rec.type != PV_REC_SAMPLE)
			continue;
		if (pv_str_eq(rec.unit, "bogo-ops/s")) {
			ck_assert(rec.direction == PV_HIGHER_BETTER);
			bogo++;
		} else if (pv_str_eq(rec.metric, "events-per-second")) {
			ck_assert(rec.direction == PV_HIGHER_BETTER);
			events++;
		} else if (pv_str_eq(rec.suite, "will-it-scale")) {
			ck_assert(rec.direction == PV_HIGHER_BETTER);
			ck_assert(rec.seq != PV_NONE);
			wis++;
		} else if (pv_str_eq(rec.unit, "ms") ||
			   pv_str_eq(rec.unit, "s")) {
			ck_assert(rec.direction == PV_LOWER_BETTER);
			lower++;
		}
	}
	ck_assert_int_eq(rc, 0);
	/* 2 runs x 3 iterations x 2 levels x 3 repetitions x 2 rates */
	ck_assert_int_eq(bogo, 72);
	/* 2 runs x 3 iterations x 2 levels x 3 repetitions */
	ck_assert_int_eq(events, 36);
	/* 2 runs x 3 iterations x 2 levels x 5 measured seconds */
	ck_assert_int_eq(wis, 60);
	/* total time and 4 latencies per sysbench run */
	ck_assert_int_eq(lower, 36 * 5);
	pv_reader_close(r);
}
END_TEST

static const struct {
	const char *line, *format;
} detect_cases[] = {
	{ "---", "stress-ng" },
	{ "stress-ng: info:  [6110] setting to a 3 second run per stressor",
	  "stress-ng" },
	{ "testcase:futex(FUTEX_WAKE)", "will-it-scale" },
	{ "measurement", "will-it-scale" },
	{ "tasks,processes,processes_idle,threads,threads_idle,linear",
	  "will-it-scale" },
	{ "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)", "sysbench" },
	{ "COUNT|819988|1|lps", "unixbench" },
	{ "   BYTE UNIX Benchmarks (Version 6.0.0)", "unixbench" },
	{ "########################################################",
	  "unixbench" },
	{ "lat 12.5 us lower", "generic" },
	{ "a/b/c/d 1 - higher 1 2 3", "generic" },
	{ "meta kernel v6.12", "generic" },
	{ "make all", NULL },
	{ "sysbench is great", NULL },
	{ "lat 12.5 us sideways", NULL },
	{ "pv-format\t1", NULL },
	{ "meta\tkey\tvalue", NULL },
	{ "# ========", NULL },
	{ "", NULL },
};

START_TEST(test_detect)
{
	const char *got = pv_bench_detect(detect_cases[_i].line,
					  strlen(detect_cases[_i].line));
	const char *want = detect_cases[_i].format;

	ck_assert_msg(want == NULL ? got == NULL :
		      got != NULL && strcmp(got, want) == 0,
		      "'%s': got %s, want %s", detect_cases[_i].line,
		      got ? got : "NULL", want ? want : "NULL");
}
END_TEST

START_TEST(test_known)
{
	ck_assert(pv_bench_known("stress-ng"));
	ck_assert(pv_bench_known("mmtests"));
	ck_assert(!pv_bench_known("perf"));
	ck_assert(!pv_bench_known(NULL));
	ck_assert(pv_bench_new("nonesuch", NULL, stdout) == NULL);
}
END_TEST

/* Malformed input: the error and the line it names. */
static const struct {
	const char *format, *test, *input, *error;
} bad_cases[] = {
	{ "stress-ng", NULL,
	  "stress-ng: metrc: [1] stressor       bogo ops real time  usr time"
	  "  sys time   bogo ops/s     bogo ops/s\n"
	  "stress-ng: metrc: [1]                           (secs)    (secs)"
	  "    (secs)   (real time) (usr+sys time)\n"
	  "stress-ng: metrc: [1] futex             75968      3.00      1.08"
	  "      3.54          nan       16433.04\n",
	  "3: value 'nan' is not a finite number" },
	{ "stress-ng", NULL,
	  "stress-ng: info:  [1] dispatching hogs: 1 futex\n"
	  "stress-ng: metrc: [1] stressor       bogo ops real time  usr time"
	  "  sys time   bogo ops/s     bogo ops/s\n"
	  "stress-ng: metrc: [1]                           (secs)    (secs)"
	  "    (secs)   (real time) (usr+sys time)\n",
	  "2: stress-ng metrics table has no rows" },
	{ "stress-ng", NULL,
	  "stress-ng: metrc: [1] stressor       bogo ops real time  usr time"
	  "  sys time   bogo ops/s     bogo ops/s\n"
	  "stress-ng: metrc: [1] futex             75968      3.00\n",
	  "2: stress-ng table row has 3 fields, expected 7 to 9" },
	{ "stress-ng", NULL,
	  "---\nmetrics:\n    - stressor: futex\n"
	  "      bogo-ops-per-second-real-time: inf\n",
	  "4: bogo-ops-per-second-real-time 'inf' is not a finite number" },
	{ "stress-ng", NULL,
	  "---\nmetrics:\n    - stressor: futex\n"
	  "      wall-clock-time: three\n",
	  "4: value 'three' is not a finite number" },
	{ "stress-ng", NULL,
	  "---\nmetrics:\n      bogo-ops: 12\n",
	  "3: metrics item does not start with 'stressor:'" },
	{ "stress-ng", NULL, "---\nsystem-info:\n      cpus: 2\n...\n",
	  "4: no stress-ng metrics in the input" },
	{ "will-it-scale", "futex1_processes",
	  "testcase:futex(FUTEX_WAKE)\nwarmup\n"
	  "min:1 max:1 total:1\n",
	  "3: will-it-scale output ends during the warm-up" },
	{ "will-it-scale", "futex1_processes",
	  "testcase:futex(FUTEX_WAKE)\nwarmup\nmin:1 max:1 total:1\n"
	  "measurement\n",
	  "4: no measured lines after 'measurement'" },
	{ "will-it-scale", "futex1_processes",
	  "measurement\nmin:1 max:1 total:1\nmin:1 max:1 total:1\n",
	  "3: will-it-scale run 1 ends without its 'average:' line: the "
	  "run was cut short" },
	{ "will-it-scale", "futex1_processes",
	  "testcase:x\nwarmup\nmin:1 max:1 total:1\nmeasurement\n"
	  "min:1 max:1 total:1\ntestcase:x\nwarmup\n",
	  "6: will-it-scale run 1 ends without its 'average:' line: the "
	  "run was cut short" },
	{ "will-it-scale", "futex1_processes",
	  "measurement\nmin:1 max:2 total:NaN\n",
	  "2: total: 'NaN' is not a finite number" },
	{ "will-it-scale", "futex1_processes",
	  "measurement\nmin:1 max:2\n",
	  "2: will-it-scale line has 2 fields, expected 'min:N max:N "
	  "total:N'" },
	{ "will-it-scale", "futex1_processes",
	  "testcase:x\nmin:1 max:2 total:3\n",
	  "2: 'min:' line before 'warmup' or 'measurement': cannot tell "
	  "warm-up from measurement" },
	{ "will-it-scale", "futex1_processes",
	  "measurement\nmin:1 max:2 total:3\naverage:3\n"
	  "min:1 max:2 total:3\n",
	  "4: measured line after 'average:'" },
	{ "will-it-scale", "futex1",
	  "tasks,processes,processes_idle,threads,threads_idle,linear\n"
	  "1,832636,46.89,804090\n",
	  "2: CSV row has 4 columns, the header 6" },
	{ "will-it-scale", "futex1",
	  "tasks,processes,processes_idle,threads,threads_idle,linear\n"
	  "1,832636,46.89,x,39.42,832636\n",
	  "2: CSV value 'x' is not a finite number" },
	{ "will-it-scale", "futex1",
	  "tasks,processes,processes_idle,threads,threads_idle,linear\n"
	  "1e30,832636,46.89,804090,39.42,832636\n",
	  "2: task count '1e+30' is not a whole number in range" },
	{ "will-it-scale", "futex1",
	  "tasks,processes,processes_idle,threads,threads_idle,linear\n"
	  "1.5,832636,46.89,804090,39.42,832636\n",
	  "2: task count '1.5' is not a whole number in range" },
	{ "sysbench", NULL,
	  "sysbench 1.0.20\n\nPrime numbers limit: 10000\n"
	  "CPU speed:\n    events per second:  fast\n",
	  "5: events-per-second 'fast' is not a finite number" },
	{ "sysbench", NULL,
	  "sysbench 1.0.20\n\nGeneral statistics:\n"
	  "    total time:                          3.0039s\n",
	  "4: cannot tell the sysbench test from its output; name it with "
	  "--test" },
	{ "sysbench", "threads",
	  "sysbench 1.0.20\n\nNumber of threads: 2\nThreads started!\n",
	  "4: sysbench output ends before its results" },
	/* cut short: a report without its last line, at the end or not */
	{ "sysbench", NULL,
	  "sysbench 1.0.20\n\nPrime numbers limit: 10000\n"
	  "CPU speed:\n    events per second:  2843.98\n\n"
	  "General statistics:\n    total time:     3.0039s\n"
	  "    total number of events:              8551\n\n"
	  "Latency (ms):\n         min:   0.26\n",
	  "12: sysbench output of run 1 ends before the end of its report "
	  "(its 'execution time' line): the run was cut short" },
	{ "sysbench", NULL,
	  "sysbench 1.0.20\n\nPrime numbers limit: 10000\n"
	  "CPU speed:\n    events per second:  2843.98\n"
	  "sysbench 1.0.20\n\nPrime numbers limit: 10000\n",
	  "6: sysbench output of run 1 ends before the end of its report "
	  "(its 'execution time' line): the run was cut short" },
	{ "sysbench", "oltp_read_only",
	  "sysbench 1.0.20\n    transactions:     10000  (fast per sec.)\n",
	  "2: transactions-per-second 'fast' is not a finite number" },
	{ "sysbench", "oltp_read_only",
	  "sysbench 1.0.20\n    queries:     10000\n",
	  "2: expected 'queries: N (X per sec.)'" },
	{ "sysbench", NULL,
	  "sysbench 1.0.20\nNumber of threads: -2\n",
	  "2: number of threads '-2' is not a whole number" },
	{ "unixbench", "syscall", "COUNT|819988|1\n",
	  "1: COUNT line has 3 fields, expected COUNT|count|timebase|unit" },
	{ "unixbench", "syscall", "COUNT|8e5|1|lps\n",
	  "1: count '8e5' is not a whole number" },
	{ "unixbench", "context1", "COUNT|1|1|lps\nCOUNT|2|1|lps\n"
	  "COUNT|3|1|lps\n",
	  "3: context1 output ends between the COUNT lines of a run" },
	{ "unixbench", NULL,
	  "Benchmark Run: Sun Nov 29 2026 07:50:35 - 07:52:35\n"
	  "2 CPUs in system; running 1 parallel copy of tests\n\n",
	  "1: UnixBench run has no results" },
	{ "unixbench", NULL,
	  "2 CPUs in system; running 1 parallel copy of tests\n"
	  "Pipe Throughput        nan lps   (10.1 s, 2 samples)\n",
	  "2: result 'nan' is not a finite number" },
	{ "unixbench", NULL,
	  "Pipe Throughput -- 1 copy\n#### Pass 1\n# COUNT0: 10\n"
	  "# COUNT1: 1\n# COUNT2: lps\n# elapsed: nan\n",
	  "6: elapsed time 'nan' is not a finite number" },
	{ "unixbench", NULL,
	  "Pipe Throughput -- 1 copy\n#### Pass 1\n# COUNT0: 10\n"
	  "# COUNT1: 1\n# COUNT2: lps\n",
	  "5: pass 1 of 'pipe-throughput' has no elapsed time" },
	{ "unixbench", NULL, "#### Pass 1\n# COUNT0: 10\n",
	  "1: pass outside a test block" },
	{ "generic", NULL, "lat 12.5 us sideways\n",
	  "1: direction 'sideways' is neither 'higher' nor 'lower'" },
	{ "generic", NULL, "# c\nlat NaN us lower\n",
	  "2: value 'NaN' is not a finite number" },
	{ "generic", NULL, "lat 1 us lower 1 x\n",
	  "1: run 'x' is not a whole number" },
	{ "generic", NULL, "a/b/c/d/e 1 us lower\n",
	  "1: key 'a/b/c/d/e' has more than 4 parts" },
	{ "generic", NULL, "a//d 1 us lower\n",
	  "1: key 'a//d' has an empty part" },
	{ "generic", NULL, "lat 1 us\n",
	  "1: expected 'KEY VALUE UNIT DIRECTION [LEVEL [RUN [SEQ]]]', found "
	  "3 fields" },
	{ "generic", NULL, "# nothing\n\n",
	  "2: no measurements in the input" },
	{ "mmtests", NULL, "x\n", "1: format 'mmtests' reads a directory, "
	  "not lines" },
};

START_TEST(test_bad)
{
	struct pv_bench_opts o = PV_BENCH_OPTS_INIT;
	struct pv_bench *b;
	struct pv_strbuf err = PV_STRBUF_INIT;
	const char *p = bad_cases[_i].input;
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);
	int rc = 0;

	o.test = bad_cases[_i].test;
	b = pv_bench_new(bad_cases[_i].format, &o, f);
	ck_assert(b != NULL);
	while (*p != '\0' && rc == 0) {
		size_t n = strcspn(p, "\n");

		rc = pv_bench_line(b, p, n);
		p += n + (p[n] == '\n');
	}
	if (rc == 0)
		rc = pv_bench_finish(b);
	ck_assert_msg(rc < 0, "case %d: no error", _i);
	pv_strbuf_addf(&err, "%lu: %s", pv_bench_error_line(b),
		       pv_bench_error(b));
	ck_assert_str_eq(err.buf, bad_cases[_i].error);
	ck_assert(pv_bench_error_file(b) == NULL);
	/* after an error, every call fails again */
	ck_assert_int_eq(pv_bench_line(b, "x", 1), -1);
	ck_assert_int_eq(pv_bench_finish(b), -1);
	pv_bench_free(b);
	fclose(f);
	free(buf);
	pv_strbuf_release(&err);
}
END_TEST

/* A bad file inside a tree is named with its line. */
START_TEST(test_mmtests_bad_file)
{
	char dir[] = "/tmp/check_bench.XXXXXX";
	struct pv_strbuf out = PV_STRBUF_INIT, warn = PV_STRBUF_INIT;
	struct pv_strbuf err = PV_STRBUF_INIT, p = PV_STRBUF_INIT;
	struct pv_strbuf want = PV_STRBUF_INIT;
	FILE *f;

	ck_assert(mkdtemp(dir) != NULL);
	pv_strbuf_addf(&p, "mkdir -p %s/work/log/k1/iter-0/stressng/logs "
		       "%s/work/log/k1/iter-0/pft/logs", dir, dir);
	ck_assert_int_eq(system(p.buf), 0);
	pv_strbuf_reset(&p);
	pv_strbuf_addf(&p, "%s/work/log/k1/iter-0/stressng/logs/"
		       "stressng-1-1.log", dir);
	f = fopen(p.buf, "w");
	ck_assert(f != NULL);
	fputs("stress-ng: info:  [1] dispatching hogs: 1 futex\n"
	      "stress-ng: metrc: [1] stressor       bogo ops real time  "
	      "usr time  sys time   bogo ops/s     bogo ops/s\n"
	      "stress-ng: metrc: [1] futex             75968      3.00      "
	      "1.08      3.54     -nan       16433.04\n", f);
	fclose(f);
	run_tree(dir, &out, &warn, &err);
	pv_strbuf_addf(&want, "%s:3: value '-nan' is not a finite number",
		       p.buf);
	ck_assert_str_eq(err.buf, want.buf);
	pv_strbuf_reset(&want);
	pv_strbuf_addf(&want, "%s/work/log/k1/iter-0/pft:0: MMTests test "
		       "'pft' has no reader; skipped\n", dir);
	ck_assert_str_eq(warn.buf, want.buf);
	pv_strbuf_reset(&p);
	pv_strbuf_addf(&p, "rm -rf %s", dir);
	ck_assert_int_eq(system(p.buf), 0);
	pv_strbuf_release(&out);
	pv_strbuf_release(&warn);
	pv_strbuf_release(&err);
	pv_strbuf_release(&p);
	pv_strbuf_release(&want);
}
END_TEST

START_TEST(test_mmtests_empty)
{
	struct pv_strbuf out = PV_STRBUF_INIT, warn = PV_STRBUF_INIT;
	struct pv_strbuf err = PV_STRBUF_INIT;

	run_tree(BENCH_DATA "/mm/work/log/aa-1/iter-0/wis-futex",
		 &out, &warn, &err);
	ck_assert_str_eq(err.buf, BENCH_DATA "/mm/work/log/aa-1/"
			 "iter-0/wis-futex:0: no MMTests results of wis, "
			 "stressng or sysbenchcpu under the directory");
	pv_strbuf_reset(&err);
	run_tree("/nonexistent/pv-tools", &out, &warn, &err);
	ck_assert_str_eq(err.buf, "/nonexistent/pv-tools:0: cannot read the "
			 "directory: No such file or directory");
	pv_strbuf_release(&out);
	pv_strbuf_release(&warn);
	pv_strbuf_release(&err);
}
END_TEST

/* Lines may come without a NUL and with CR or spaces at their end. */
START_TEST(test_line_ends)
{
	struct pv_bench_opts o = PV_BENCH_OPTS_INIT;
	struct pv_bench *b;
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);
	char line[] = "lat 12.5 us lower 4\r\nXXXX";

	b = pv_bench_new("generic", &o, f);
	ck_assert_int_eq(pv_bench_line(b, line, 20), 0);
	ck_assert_int_eq(pv_bench_line(b, "x 1 - higher  ", 14), 0);
	ck_assert_int_eq(pv_bench_line(b, "x\0y 1 - higher", 14), -1);
	ck_assert_str_eq(pv_bench_error(b), "NUL byte in the line");
	ck_assert_uint_eq(pv_bench_samples(b), 2);
	pv_bench_free(b);
	fclose(f);
	ck_assert_str_eq(buf, "sample\tgeneric\t-\t-\tlat\tus\tlower\t4\t1\t-"
			 "\t12.5\nsample\tgeneric\t-\t-\tx\t-\thigher\t-\t1"
			 "\t-\t1\n");
	free(buf);
}
END_TEST

/*
 * A meta or env record is written once a section: again only with another
 * type, key or value.  Many distinct ones, in one pass.
 */
START_TEST(test_kv_once)
{
	static const char *const in[] = {
		"meta a b", "meta a b", "env a b", "meta a c", "meta a b",
		"meta a\tb c", "meta a b\tc", "lat 1 us lower",
	};
	struct pv_bench_opts o = PV_BENCH_OPTS_INIT;
	struct pv_bench *b;
	char *buf = NULL;
	size_t blen = 0, i, n;
	FILE *f = open_memstream(&buf, &blen);
	char line[64];

	b = pv_bench_new("generic", &o, f);
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		ck_assert_int_eq(pv_bench_line(b, in[i], strlen(in[i])), 0);
	ck_assert_int_eq(pv_bench_finish(b), 0);
	pv_bench_free(b);
	fflush(f);
	ck_assert_str_eq(buf, "meta\ta\tb\nenv\ta\tb\nmeta\ta\tc\n"
			 "meta\ta\tb c\nmeta\ta\tb\\tc\n"
			 "sample\tgeneric\t-\t-\tlat\tus\tlower\t-\t1\t-\t1\n");
	fclose(f);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &blen);
	b = pv_bench_new("generic", &o, f);
	for (i = 0; i < 20000; i++) {
		n = (size_t)snprintf(line, sizeof(line), "meta k v%zu",
				     i % 10000);
		ck_assert_int_eq(pv_bench_line(b, line, n), 0);
	}
	ck_assert_int_eq(pv_bench_line(b, "lat 1 us lower", 14), 0);
	ck_assert_int_eq(pv_bench_finish(b), 0);
	pv_bench_free(b);
	fflush(f);
	for (i = n = 0; i < blen; i++)
		n += buf[i] == '\n';
	ck_assert_uint_eq(n, 10000 + 1);
	fclose(f);
	free(buf);
}
END_TEST

/*
 * Concatenated outputs: each invocation is the next RUN with its own
 * level; a wrong will-it-scale average is reported.
 */
START_TEST(test_concatenated)
{
	static const char *const in[] = {
		"stress-ng: info:  [1] dispatching hogs: 1 futex",
		"stress-ng: metrc: [1] stressor       bogo ops real time  "
		"usr time  sys time   bogo ops/s     bogo ops/s",
		"stress-ng: metrc: [1] futex  10  3.00  1.00  1.00  3.33  5.00",
		"stress-ng: info:  [2] dispatching hogs: 2 futex",
		"stress-ng: metrc: [2] stressor       bogo ops real time  "
		"usr time  sys time   bogo ops/s     bogo ops/s",
		"stress-ng: metrc: [2] futex  20  3.00  1.00  1.00  6.67  "
		"10.00",
	};
	struct pv_bench_opts o = PV_BENCH_OPTS_INIT;
	struct pv_strbuf warn = PV_STRBUF_INIT;
	struct pv_bench *b;
	char *buf = NULL;
	size_t blen = 0, i;
	FILE *f = open_memstream(&buf, &blen);

	b = pv_bench_new("stress-ng", &o, f);
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		ck_assert_int_eq(pv_bench_line(b, in[i], strlen(in[i])), 0);
	ck_assert_int_eq(pv_bench_finish(b), 0);
	pv_bench_free(b);
	fflush(f);
	/* the primary metric named once, before its first sample */
	ck_assert_str_eq(buf,
	    "primary\tstress-ng\tfutex\tbogo-ops\t"
	    "bogo-ops-per-second-real-time\n"
	    "sample\tstress-ng\tfutex\tbogo-ops\tbogo-ops-per-second-real-"
	    "time\tbogo-ops/s\thigher\t1\t1\t-\t3.33\n"
	    "sample\tstress-ng\tfutex\tbogo-ops\tbogo-ops-per-second-usr-"
	    "sys-time\tbogo-ops/s\thigher\t1\t1\t-\t5\n"
	    "sample\tstress-ng\tfutex\tbogo-ops\tbogo-ops-per-second-real-"
	    "time\tbogo-ops/s\thigher\t2\t2\t-\t6.67\n"
	    "sample\tstress-ng\tfutex\tbogo-ops\tbogo-ops-per-second-usr-"
	    "sys-time\tbogo-ops/s\thigher\t2\t2\t-\t10\n");
	fclose(f);
	free(buf);

	o.test = "futex1_processes";
	o.warn = collect_warning;
	o.warn_arg = &warn;
	buf = NULL;
	f = open_memstream(&buf, &blen);
	b = pv_bench_new("will-it-scale", &o, f);
	ck_assert_int_eq(pv_bench_line(b, "measurement", 11), 0);
	ck_assert_int_eq(pv_bench_line(b, "min:1 max:1 total:10", 20), 0);
	ck_assert_int_eq(pv_bench_line(b, "min:1 max:1 total:20", 20), 0);
	ck_assert_int_eq(pv_bench_line(b, "average:15", 10), 0);
	ck_assert_int_eq(pv_bench_line(b, "measurement", 11), 0);
	ck_assert_int_eq(pv_bench_line(b, "min:1 max:1 total:30", 20), 0);
	ck_assert_int_eq(pv_bench_line(b, "average:20", 10), 0);
	ck_assert_int_eq(pv_bench_finish(b), 0);
	pv_bench_free(b);
	fclose(f);
	ck_assert_str_eq(warn.buf, "-:7: 'average:20' is not the mean of the "
			 "measured lines (30.0)\n");
	ck_assert(strstr(buf, "\t2\t0\t30\n") != NULL);	/* RUN 2 */
	free(buf);
	pv_strbuf_release(&warn);
}
END_TEST

/* sysbench OLTP rates, in the layout of sysbench 1.0's report */
START_TEST(test_sysbench_oltp)
{
	static const char in[] =
	    "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n"
	    "Number of threads: 8\n"
	    "SQL statistics:\n"
	    "    queries performed:\n"
	    "        read:                            140000\n"
	    "        total:                           200000\n"
	    "    transactions:                        10000  "
	    "(332.71 per sec.)\n"
	    "    queries:                             200000 "
	    "(6654.27 per sec.)\n"
	    "    ignored errors:                      0      (0.00 per sec.)\n"
	    "    reconnects:                          0      (0.00 per sec.)\n"
	    "\n"
	    "General statistics:\n"
	    "    total time:                          30.0546s\n"
	    "    total number of events:              10000\n"
	    "\n"
	    "Latency (ms):\n"
	    "         min:                                    6.65\n"
	    "         avg:                                   24.02\n"
	    "         max:                                  115.04\n"
	    "         95th percentile:                       38.94\n"
	    "         sum:                               240248.53\n"
	    "\n"
	    "Threads fairness:\n"
	    "    events (avg/stddev):           1250.0000/6.98\n"
	    "    execution time (avg/stddev):   30.0311/0.01\n";
	struct pv_bench_opts o = PV_BENCH_OPTS_INIT;
	struct pv_bench *b;
	const char *p = in;
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);

	o.test = "oltp_read_write";
	b = pv_bench_new("sysbench", &o, f);
	while (*p != '\0') {
		size_t n = strcspn(p, "\n");

		ck_assert_int_eq(pv_bench_line(b, p, n), 0);
		p += n + 1;
	}
	ck_assert_int_eq(pv_bench_finish(b), 0);
	pv_bench_free(b);
	fclose(f);
	ck_assert_str_eq(buf,
	    "meta\tsysbench-version\t1.0.20\n"
	    "sample\tsysbench\toltp_read_write\ttransactions\ttransactions-"
	    "per-second\ttransactions/s\thigher\t8\t1\t-\t332.71\n"
	    "sample\tsysbench\toltp_read_write\tqueries\tqueries-per-second"
	    "\tqueries/s\thigher\t8\t1\t-\t6654.27\n"
	    "sample\tsysbench\toltp_read_write\tevents\ttotal-time\ts\t"
	    "lower\t8\t1\t-\t30.0546\n"
	    "sample\tsysbench\toltp_read_write\tevents\ttotal-events\t"
	    "events\thigher\t8\t1\t-\t10000\n"
	    "sample\tsysbench\toltp_read_write\tlatency\tlatency-min\tms\t"
	    "lower\t8\t1\t-\t6.65\n"
	    "sample\tsysbench\toltp_read_write\tlatency\tlatency-avg\tms\t"
	    "lower\t8\t1\t-\t24.02\n"
	    "sample\tsysbench\toltp_read_write\tlatency\tlatency-max\tms\t"
	    "lower\t8\t1\t-\t115.04\n"
	    "sample\tsysbench\toltp_read_write\tlatency\tlatency-p95\tms\t"
	    "lower\t8\t1\t-\t38.94\n");
	free(buf);
}
END_TEST

static int
dblcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The per-pass values of Run's .log give back Run's own scores (the
 * report of the same run): the geometric mean of the passes left after
 * dropping the worst third.  So the pass values are the ones Run used.
 */
START_TEST(test_unixbench_log_matches_report)
{
	struct pv_reader *lr = pv_reader_open(BENCH_DATA "/unixbench-log.pv");
	struct pv_reader *rr;
	struct pv_record rec;
	char key[256][128];
	double val[256][8], score;
	size_t nval[256], nkey = 0, i, checked = 0;

	ck_assert(lr != NULL);
	while (pv_reader_next(lr, &rec) > 0) {
		char k[128];

		if (rec.type != PV_REC_SAMPLE)
			continue;
		snprintf(k, sizeof(k), "%.*s/%llu", (int)rec.test.len,
			 rec.test.s, (unsigned long long)rec.level);
		for (i = 0; i < nkey && strcmp(key[i], k) != 0; i++)
			;
		if (i == nkey) {
			ck_assert(nkey < 256);
			snprintf(key[nkey], sizeof(key[nkey]), "%s", k);
			nval[nkey++] = 0;
		}
		ck_assert(nval[i] < 8);
		val[i][nval[i]++] = rec.val;
	}
	pv_reader_close(lr);
	rr = pv_reader_open(BENCH_DATA "/unixbench-report.pv");
	ck_assert(rr != NULL);
	while (pv_reader_next(rr, &rec) > 0) {
		char k[128];
		size_t drop, j;
		double lsum = 0;

		if (rec.type != PV_REC_SAMPLE ||
		    !pv_str_eq(rec.operation, "score"))
			continue;
		snprintf(k, sizeof(k), "%.*s/%llu", (int)rec.test.len,
			 rec.test.s, (unsigned long long)rec.level);
		for (i = 0; i < nkey && strcmp(key[i], k) != 0; i++)
			;
		ck_assert_msg(i < nkey, "%s not in the log", k);
		qsort(val[i], nval[i], sizeof(double), dblcmp);
		drop = nval[i] / 3;
		for (j = drop; j < nval[i]; j++)
			lsum += log(val[i][j]);
		score = exp(lsum / (double)(nval[i] - drop));
		/* the report prints one decimal */
		ck_assert_msg(fabs(score - rec.val) <= 0.05, "%s: %f vs %f", k,
			      score, rec.val);
		checked++;
	}
	pv_reader_close(rr);
	ck_assert_uint_eq(checked, 6);
}
END_TEST

static Suite *
bench_suite(void)
{
	Suite *s = suite_create("bench");
	TCase *tc = tcase_create("readers");
	int ng = (int)(sizeof(gcases) / sizeof(gcases[0]));

	tcase_add_loop_test(tc, test_golden, 0, ng);
	tcase_add_loop_test(tc, test_golden_reads_back, 0, ng);
	tcase_add_test(tc, test_mmtests_tree);
	tcase_add_test(tc, test_mmtests_one_run);
	tcase_add_test(tc, test_directions);
	tcase_add_loop_test(tc, test_detect, 0,
			    (int)(sizeof(detect_cases) /
				  sizeof(detect_cases[0])));
	tcase_add_test(tc, test_known);
	tcase_add_loop_test(tc, test_bad, 0,
			    (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	tcase_add_test(tc, test_mmtests_bad_file);
	tcase_add_test(tc, test_mmtests_empty);
	tcase_add_test(tc, test_line_ends);
	tcase_add_test(tc, test_kv_once);
	tcase_add_test(tc, test_concatenated);
	tcase_add_test(tc, test_sysbench_oltp);
	tcase_add_test(tc, test_unixbench_log_matches_report);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(bench_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
