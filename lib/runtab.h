/*
 * runtab: benchmark values grouped by key and reduced to one value per run,
 * the unit of repetition for every statistic (pv-stat, pv-diff).
 *
 * A key is a section's identity (ROLE, VERSION, EXPERIMENT) and a sample's
 * SUITE, TEST, OPERATION, METRIC, UNIT, DIRECTION and LEVEL.  Within a key,
 * a run (RUN) collects its values: the correlated values of one run (SEQ
 * given, one a second, say) are averaged, so that a run of five seconds
 * weighs as much as a run of one value.  A run's value is the arithmetic
 * mean of its values in input order, so the same stream (or the same
 * stream cut into shards that keep each run whole) gives the same bits.
 *
 * Memory grows with the distinct keys and runs, not with the values.
 *
 * A runval record (rec_sample.h) carries a reduced run; reading it back
 * (pv_runtab_add_runval()) gives the same run, which is how partial
 * results merge.
 *
 * Streams: each pv-format line starts a stream (pv_runtab_stream()), as
 * after cat(1) of two nights.  A stream whose samples give a key a RUN
 * that an earlier stream gave it too holds other runs, not more values
 * of the same ones: the run is numbered on after the key's largest
 * (every sample of that run in that stream alike), never merged, and the
 * clash is reported (pv_runtab_clash()) for the tool to warn about.
 */
#ifndef PV_RUNTAB_H
#define PV_RUNTAB_H

#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>

#include "arena.h"
#include "error.h"
#include "rec_key.h"
#include "rec_sample.h"
#include "record.h"
#include "symtab.h"

struct pv_run {
	uint64_t id;
	uint64_t nvalues;
	double sum;		/* of its values; the value itself if merged */
	int merged;		/* came from a runval record */
	uint32_t stream;	/* the stream it came in */
};

struct pv_runset {
	struct pv_runkey key;
	struct pv_run *run;	/* in order of first appearance */
	size_t nrun, alloc;
	uint64_t max_id;	/* the largest RUN */
	uint32_t stream;	/* of the latest sample */
	uint64_t *renum;	/* pairs RUN given, RUN taken in this stream */
	size_t nrenum, renum_alloc;
	/* the ids in the table's strs of ROLE VERSION EXPERIMENT SUITE TEST
	 * OPERATION METRIC UNIT, for sorting */
	uint32_t sid[8];
	/*
	 * The quantum of the printed values (honest.h): the smallest of
	 * theirs, 0 when one has more than 12 decimals or none is known;
	 * INFINITY while no value is in.  pv_runset_quantum() reads it.
	 */
	double quantum;
};

struct pv_runtab {
	struct pv_symtab keys;	/* the escaped key line -> set index */
	struct pv_symtab strs;	/* the keys' strings, one copy of each */
	struct pv_arena runs;	/* the sets' run tables */
	struct pv_runset *set;	/* by symtab id */
	size_t nset, alloc;
	struct pv_strbuf scratch;
	struct pv_runset *last;	/* the set of the previous sample */
	struct pv_strbuf last_raw;	/* its key as written, or empty */
	uint32_t stream;	/* the current stream; 0 before a pv-format */
	uint64_t last_run;	/* the RUN the latest sample was added to */
	/* the first clash of the current stream, until taken */
	struct pv_runtab_clash {
		uint32_t stream, earlier;	/* this stream, the other */
		const struct pv_runset *set;	/* its key */
		uint64_t run, renumbered;	/* the RUN given, taken */
	} clash;
	int clash_new, clash_seen;
	/*
	 * Every sample its own run (pv-stat --unit=sample): a key's samples
	 * get the RUN ids 1, 2, ... in the order they come, whatever their
	 * RUN.  0 (pv_runtab_init()): a run is its samples' RUN.
	 */
	int per_sample;
	struct pv_err err;
};

void pv_runtab_init(struct pv_runtab *t);
void pv_runtab_release(struct pv_runtab *t);

/*
 * The set of a key, created when new; the key's strings are copied.
 */
struct pv_runset *pv_runtab_get(struct pv_runtab *t,
				const struct pv_runkey *key);

/* A pv-format line: the records after it are a new stream. */
void pv_runtab_stream(struct pv_runtab *t);

/*
 * The first clash of RUN numbers of the current stream with an earlier
 * one, once: 1 and *c filled the first time it is asked after the clash,
 * else 0.  c->set stays valid until the next sample is added.
 */
int pv_runtab_clash(struct pv_runtab *t, struct pv_runtab_clash *c);

/*
 * A clash in words, for a warning: "RUN 1 of SUITE/TEST/OPERATION/METRIC
 * at level L (VERSION) is numbered 6", appended to sb.
 */
void pv_runtab_clash_describe(const struct pv_runtab_clash *c,
			      struct pv_strbuf *sb);

/*
 * Add a sample record of the section (role, version, experiment).  Returns
 * 0, or -1 with t->err set when the values of its run add up to
 * more than a double holds (the sample is then not added).  t->last_run
 * is the RUN it was added to: its own, or the one it was numbered on to.
 */
int pv_runtab_add_sample(struct pv_runtab *t, struct pv_str role,
			  struct pv_str version, struct pv_str experiment,
			  const struct pv_record *rec);

/*
 * Add a runval record (as PV_REC_OTHER, its fields split).  Returns 0, or
 * -1 with t->err set when the record is malformed or its run is
 * already there (a run must not be cut across the inputs of a merge).
 */
int pv_runtab_add_runval(struct pv_runtab *t, const struct pv_record *rec);
/* The same for a runval record parsed already (pv_rec_runval_parse()). */
int pv_runtab_add_runval_parsed(struct pv_runtab *t,
				const struct pv_runval *rv);
/*
 * The same into set, the set of t that has rv's key, for a caller that has
 * compared the keys (a merge of sorted inputs): no key is looked at.
 */
int pv_runtab_add_run(struct pv_runtab *t, struct pv_runset *set,
		      const struct pv_runval *rv);

/*
 * Holding some keys at a time (pv-stat on input grouped by test): the
 * sets of t appended to sb as bytes (pv_runtab_save()), which
 * pv_runtab_load() adds back to a table as they were: keys and their
 * text, runs in their order, the numbering of the current stream.  The
 * bytes are for this process only (native integers and doubles), a
 * temporary file's, say.  pv_runtab_load() returns 0, or -1 with t->err
 * set when buf is not what pv_runtab_save() wrote or holds a key that t
 * has.
 *
 * pv_runtab_clear() empties t of its sets, keys and strings but keeps
 * what spans them: the stream, its clash, per_sample and last_run.
 */
void pv_runtab_save(const struct pv_runtab *t, struct pv_strbuf *sb);
int pv_runtab_load(struct pv_runtab *t, const char *buf, size_t len);
void pv_runtab_clear(struct pv_runtab *t);

/* The run's value. */
static inline double
pv_run_value(const struct pv_run *r)
{
	return r->merged ? r->sum : r->sum / (double)r->nvalues;
}

/* The set's quantum, 0 for none. */
static inline double
pv_runset_quantum(const struct pv_runset *set)
{
	return isinf(set->quantum) ? 0 : set->quantum;
}

/* Sort a set's runs by RUN (ids are distinct within a set). */
void pv_runset_sort(struct pv_runset *set);

/*
 * The values of a set's runs in ascending RUN order into out (room for
 * set->nrun); the set is not changed (threads may share it).
 */
void pv_runset_values(const struct pv_runset *set, double *out);
/* The same with the runs' ids into ids (room for set->nrun) too. */
void pv_runset_runs(const struct pv_runset *set, double *out, uint64_t *ids);

/*
 * The sets ordered by key (pv_rec_key_cmp()); the caller frees the array.
 */
struct pv_runset **pv_runtab_sorted(struct pv_runtab *t);

/*
 * The same with EXPERIMENT first: ROLE VERSION EXPERIMENT become
 * EXPERIMENT ROLE VERSION (the order pv-diff pairs sides in).
 */
struct pv_runset **pv_runtab_sorted_sides(struct pv_runtab *t);

/*
 * The key of a set of t as pv_rec_key_add(sb, &set->key, 1) appends it,
 * kept from when the set was made.
 */
struct pv_str pv_runtab_key_text(const struct pv_runtab *t,
				 const struct pv_runset *set);

/*
 * Append the runval records of a set of t to sb, runs in ascending order
 * (the set's runs are sorted in place).
 */
void pv_runset_format(struct pv_strbuf *sb, const struct pv_runtab *t,
		      struct pv_runset *set);

/* Write the runval records of a set of t, runs in ascending order. */
void pv_runset_write(FILE *out, const struct pv_runtab *t,
		     struct pv_runset *set);

#endif
