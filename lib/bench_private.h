/*
 * bench_private: what the benchmark readers (bench_*.c) share with the
 * dispatcher (bench.c) and with nobody else.  Not an API: tools include
 * bench.h only.
 *
 * A reader is a table of three functions over a state it allocates in
 * init; line() gets every input line with its trailing spaces and "\r"
 * removed, and reports errors with fail(), which records the message
 * against the current line.
 */
#ifndef PV_BENCH_PRIVATE_H
#define PV_BENCH_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "error.h"
#include "record.h"
#include "strbuf.h"
#include "symtab.h"

struct bench_reader {
	const char *name;
	const char *suite;	/* the default SUITE */
	void *(*init)(struct pv_bench *b);
	int (*line)(struct pv_bench *b, void *state, const char *s,
		    size_t len);
	int (*finish)(struct pv_bench *b, void *state);
	void (*free)(void *state);
	/*
	 * Whether METRIC of OPERATION is the primary metric of TEST; NULL:
	 * the reader names none (every key is primary)
	 */
	int (*primary)(const char *test, const char *op, const char *metric);
};

extern const struct bench_reader pv_bench_stressng;
extern const struct bench_reader pv_bench_wis;
extern const struct bench_reader pv_bench_sysbench;
extern const struct bench_reader pv_bench_unixbench;
extern const struct bench_reader pv_bench_generic;

struct pv_bench {
	const struct bench_reader *rd;
	void *state;
	struct pv_bench_opts opts;
	FILE *out;
	unsigned long lineno;
	uint64_t nsamples;
	uint64_t last_run;		/* the largest RUN written */
	int failed, finished;
	struct pv_strbuf line;		/* the current line, trimmed */
	struct pv_err err;
	struct pv_strbuf errfile;	/* empty: line input */
	unsigned long errline;
	const char *file;		/* tree: the file being read */
	struct pv_bench *parent;	/* tree: the handle of the tree */
	/*
	 * The meta and env records written in this section, each as
	 * "TYPE\0KEY\0VALUE" (no part holds a NUL: lines with one are
	 * refused), and the one being looked up.  The root handle's only: a
	 * tree's files write through it.
	 */
	struct pv_symtab kvseen;
	struct pv_strbuf kvkey;
};

/* Record an error at the current line; returns -1. */
int pv_bench_fail(struct pv_bench *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Hand a warning about the current line to the callback, if any. */
void pv_bench_warn(struct pv_bench *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The SUITE to write: opts.suite, else the reader's. */
const char *pv_bench_suite(const struct pv_bench *b);
/* The RUN of the first repetition: opts.run, else 1. */
uint64_t pv_bench_run0(const struct pv_bench *b);

/* Write one sample record; NULL strings are written as "-". */
void pv_bench_sample(struct pv_bench *b, const char *test, const char *op,
		     const char *metric, const char *unit,
		     enum pv_direction dir, uint64_t level, uint64_t run,
		     uint64_t seq, double v);
/* Same, with the SUITE given. */
void pv_bench_sample_in(struct pv_bench *b, const char *suite,
			const char *test, const char *op, const char *metric,
			const char *unit, enum pv_direction dir,
			uint64_t level, uint64_t run, uint64_t seq, double v);
/*
 * Write a meta or env record, unless the same one was written already in
 * the current section (a tree repeats each file's parameters).
 */
void pv_bench_kv(struct pv_bench *b, const char *type, const char *key,
		 const char *value);
/* Same, for a value given as (pointer, length). */
void pv_bench_kvn(struct pv_bench *b, const char *type, const char *key,
		  const char *value, size_t len);
/* A new section starts: forget the meta and env records written. */
void pv_bench_kv_forget(struct pv_bench *b);

/*
 * Scanning helpers over (s, len) strings.  A "word" is a run of bytes
 * other than space and TAB.
 */
/* Whether s starts with the C string p. */
int pv_bench_prefix(const char *s, size_t len, const char *p);
/* Skip spaces and TABs from i; returns the new index. */
size_t pv_bench_skipws(const char *s, size_t len, size_t i);
/*
 * Split into at most max words; returns the number found (which may be
 * more than max: the rest is not stored).
 */
size_t pv_bench_words(const char *s, size_t len, struct pv_str *w,
		      size_t max);
/*
 * Parse a finite number; on failure fail() with "what 'TEXT' is not a
 * finite number" and return -1.
 */
int pv_bench_num(struct pv_bench *b, const char *what, const char *s,
		 size_t len, double *v);
/* Parse a whole number (no sign); on failure fail() and return -1. */
int pv_bench_u64(struct pv_bench *b, const char *what, const char *s,
		 size_t len, uint64_t *v);

/* The MMTests tree reader feeds these readers file by file. */
int pv_bench_feed_file(struct pv_bench *b, const struct bench_reader *rd,
		       const char *path, const struct pv_bench_opts *o);

#endif
