/*
 * bench: readers that turn the text output of benchmarks into pv-format(5)
 * sample records, with the run's parameters as meta records and the
 * environment facts the output states as env records.
 *
 * Formats (names as pv-parse --format=NAME takes them; every one is
 * described in pv-bench(7), man/pv-bench.7):
 *
 *   stress-ng       the --yaml document and the --metrics-brief/--metrics
 *                   table (stderr), mixed or apart
 *   will-it-scale   a test binary's output and runtest.py's CSV
 *   sysbench        sysbench 1.0 text output (cpu, memory, threads, mutex)
 *   unixbench       COUNT|n|timebase|unit lines, Run's report and its
 *                   per-pass .log
 *   generic         one measurement a line: KEY VALUE UNIT DIRECTION ...
 *   mmtests         a results tree (work/log/<run>/iter-<I>/<test>/logs);
 *                   read with pv_bench_read_tree(), not line by line
 *
 * Each reader names the primary metric of each of its tests (the one that
 * says how fast it ran: sysbench's events-per-second, stress-ng's
 * bogo-ops-per-second-real-time, ...) in a primary record (rec_primary.h)
 * before the test's first sample in a section.
 *
 * Streaming: a reader is fed one line at a time, in order, and writes its
 * records as soon as it knows them, so a caller can look at the first line
 * of an input (pv_bench_detect()) and then hand it and the rest to the
 * reader without rewinding.  Memory does not grow with the input.  The
 * direction of every metric (higher or lower is better) is decided here, by
 * metric, never taken from the benchmark's own tooling.
 *
 * Lifecycle: pv_bench_new(), any number of pv_bench_line(), one
 * pv_bench_finish() (which reports a truncated or empty input), then
 * pv_bench_free().  A handle reads one input; use a new handle for each.
 *
 * Errors: the functions that can fail return 0, or -1 with a message in
 * pv_bench_error() ("what is wrong", without a location; the handle's
 * struct pv_err, error.h) and the place in
 * pv_bench_error_file() (NULL for line input: the caller knows its file
 * name) and pv_bench_error_line() (the number of the offending line,
 * counting the lines given to pv_bench_line() from 1; for a tree, in the
 * file named).  After an error every call returns -1 again.  Nothing here
 * prints or exits except on out of memory (xalloc.h).  Warnings (input that
 * is skipped on purpose) go to the callback in the options, if any.
 */
#ifndef PV_BENCH_H
#define PV_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pv_bench;

/*
 * A warning: file is opts->name for line input, the path inside the tree
 * for pv_bench_read_tree(); line counts from 1 (0: about the whole input).
 */
typedef void pv_bench_warn_fn(void *arg, const char *file,
			      unsigned long line, const char *msg);

/*
 * Options; zero-initialise (PV_BENCH_OPTS_INIT) and set what the caller
 * knows.  Strings are borrowed and must outlive the handle.
 */
struct pv_bench_opts {
	/*
	 * Section: when any of role, version and experiment is set,
	 * pv_bench_new() writes a section record with them first (the
	 * caller writes the pv-format version record).  For a tree, each
	 * <run> opens its own section whose VERSION is the run's name,
	 * unless version is set.
	 */
	const char *role, *version, *experiment;
	/* SUITE instead of the format's own (stress-ng, sysbench, ...) */
	const char *suite;
	/*
	 * TEST where the output does not name it (will-it-scale as
	 * WORKLOAD_MODEL, e.g. futex1_processes; sysbench threads or mutex;
	 * unixbench COUNT lines).  Where the output names its test (a
	 * stress-ng stressor, a sysbench cpu run), the output wins.
	 */
	const char *test;
	/* LEVEL where the output does not state it; PV_NONE (record.h,
	 * UINT64_MAX): not given */
	uint64_t level;
	/* RUN of the first repetition in this input; PV_NONE: 1 */
	uint64_t run;
	/*
	 * SEQ of every value, where the input is one repetition inside a run
	 * (an MMTests inner repetition: the runs are the iterations);
	 * PV_NONE: the reader's own (per-second values, or none)
	 */
	uint64_t seq;
	/* the input's name, handed back to warn() */
	const char *name;
	pv_bench_warn_fn *warn;
	void *warn_arg;
};

#define PV_BENCH_OPTS_INIT { NULL, NULL, NULL, NULL, NULL, UINT64_MAX, \
	UINT64_MAX, UINT64_MAX, NULL, NULL, NULL }

/*
 * The format of an input from its first non-empty line: a format name
 * above (never "mmtests"), or NULL when the line is not recognised.  Some
 * inputs cannot be told from their first line (the console output of
 * UnixBench's Run starts with make's output): name them with --format.
 */
const char *pv_bench_detect(const char *line, size_t len);

/* Whether format names a reader (including "mmtests"). */
int pv_bench_known(const char *format);

/*
 * A reader of format writing to out.  Returns NULL when format is not
 * known.  opts is copied; the strings it points to are not.
 */
struct pv_bench *pv_bench_new(const char *format,
			      const struct pv_bench_opts *opts, FILE *out);

/*
 * Feed the next line (without its newline; it need not be NUL-terminated
 * and is not modified).  Returns 0 or -1.
 */
int pv_bench_line(struct pv_bench *b, const char *line, size_t len);

/*
 * End of the input: write what is pending and check that the input was
 * complete (a stress-ng table with no rows, a will-it-scale output without
 * measured lines, an input with no results at all are errors).  Returns 0
 * or -1.
 */
int pv_bench_finish(struct pv_bench *b);

/*
 * Read an MMTests results tree: dir is work/log (holding <run>/iter-<I>/),
 * a directory holding work/log, or one <run> directory.  Runs, iterations,
 * tests and files are read in sorted order, so the output is
 * deterministic.  The handle must be made with format "mmtests".  Returns
 * 0, or -1 with the error's file and line.
 */
int pv_bench_read_tree(struct pv_bench *b, const char *dir);

const char *pv_bench_error(const struct pv_bench *b);
const char *pv_bench_error_file(const struct pv_bench *b);
unsigned long pv_bench_error_line(const struct pv_bench *b);

/* The number of sample records written so far. */
uint64_t pv_bench_samples(const struct pv_bench *b);

/*
 * The largest RUN of the samples written so far, 0 before the first: a
 * caller reading several inputs as one section numbers the next input's
 * runs from one above it.
 */
uint64_t pv_bench_last_run(const struct pv_bench *b);

void pv_bench_free(struct pv_bench *b);

#endif
