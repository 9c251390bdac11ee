/*
 * sampdiff: a whole sample comparison, as pv-diff runs it: feed it every
 * record with pv_sampdiff_add(), then pv_sampdiff_finish() pairs each
 * baseline section with each target section of the same EXPERIMENT,
 * refuses pairs whose meta or env records differ (kvset.h), compares every
 * key of every pair (cmp.h) on several threads and writes the cmp records
 * (sorted by BASE, TARGET, EXPERIMENT and key) with their cmproll
 * roll-ups (rec_cmp.h): per test, suite and pair, the mean of the keys'
 * changes (the log of the geometric mean of their ratios), its interval
 * from the keys' standard errors (normal, independent keys) and the worst
 * change.
 *
 * Run values come from runval records where the input has any (the output
 * of pv-stat), otherwise from the sample records.
 *
 * The sides: the sections of one ROLE, VERSION and EXPERIMENT are one set.
 * With base_version or target_version set, a set of that VERSION is on
 * that side (whatever its role), and when only one of them is set, every
 * set of another version is on the other side.  Otherwise the roles
 * baseline and target say, and where no section has either, the first
 * version in the input is the baseline and the second the target.
 * Finding nothing to pair is an error that says why.
 *
 * The runstart records of a section (rec_runstart.h) give its runs' times:
 * with every run's start known on both sides the keys' drift is judged
 * across the sides, with only their order within each side; the keys of
 * each pair are computed first and then finished together (cmp.h,
 * pv_cmp_pair()).  The primary records (rec_primary.h) mark the other keys
 * of their tests secondary.
 *
 * Memory: while the input is grouped by test (no test's samples or
 * runvals come back after another test began), one test is held at a
 * time; the others are saved to an unlinked temporary file (in $TMPDIR,
 * else /tmp) and read back by pv_sampdiff_finish(), each pair's tests in
 * key order, about 8192 keys at a time.  A test that comes back, a
 * section with runstart records (the drift of a pair's keys is judged
 * over all of them together) or two pairs of the same versions and
 * experiment (their keys interleave) hold every key, as a table of the
 * whole input.  The output is the same either way.  The comparisons are
 * computed and written about 8192 at a time; with runstart records all
 * of them are kept until their pairs are finished.
 */
#ifndef PV_SAMPDIFF_H
#define PV_SAMPDIFF_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "arena.h"
#include "cmp.h"
#include "error.h"
#include "hmap.h"
#include "kvset.h"
#include "rec_primary.h"
#include "rec_runstart.h"
#include "record.h"
#include "runtab.h"
#include "strbuf.h"
#include "symtab.h"
#include "testspill.h"

struct pv_sampdiff_section {
	struct pv_str role, version, experiment;
	struct pv_kvset kv;
	struct pv_runstart *rs;		/* its runs' times, by run once sorted */
	size_t nrs, rsalloc;
};

struct pv_sampdiff {
	struct pv_cmp_opts opt;
	struct pv_runtab samples, runvals;
	struct pv_sampdiff_section *sec;	/* by id */
	size_t nsec, secalloc;
	struct pv_hmap secmap;		/* their ids by identity */
	struct pv_arena strs;		/* their strings */
	size_t cur;			/* the current section */
	struct pv_primary *prim;	/* every primary record, strings kept */
	size_t nprim, primalloc;
	struct pv_strbuf scratch;
	size_t npairs, ncmp;		/* after finish */
	size_t nstack;			/* stack records seen */
	/* each table's tests, held one at a time (testspill.h) */
	struct pv_testspill_file spill;
	struct pv_testspill gsamples, grunvals;
	/* the versions of the sides, set before finish; NULL: by role */
	const char *base_version, *target_version;
	struct pv_err err;
};

void pv_sampdiff_init(struct pv_sampdiff *d, const struct pv_cmp_opts *opt);
void pv_sampdiff_release(struct pv_sampdiff *d);

/*
 * Take in one record.  Returns 1 when the record is to be passed on, 0
 * when it is to be dropped (cmp and cmproll records of an earlier pv-diff,
 * computed again), -1 on a malformed record of ours (d->err set).
 */
int pv_sampdiff_add(struct pv_sampdiff *d, const struct pv_record *rec);

/*
 * Compare and write.  ignore: keys that may differ (see pv_kvset_diff()).
 * Returns the number of keys whose interval excludes no change, or -1 with
 * the refusal in d->err (nothing written): sets not comparable, a version
 * given that no section has, no baseline and target of one experiment.
 */
long pv_sampdiff_finish(struct pv_sampdiff *d, FILE *out,
			const char *const *ignore, size_t nignore);

#endif
