/*
 * store_scan: what a stream holds, read as every pv tool reads it before
 * it is added to the store (see store.h): the kinds of its records for the
 * index's KINDS field, the experiments of its sections for its EXPERIMENT
 * fields, the tests of its samples with their runs for its tests line.
 *
 * Runs are counted as distinct (LEVEL, RUN) pairs of a test, in a set of
 * (test, LEVEL, RUN) keys (an hmap): memory grows with the runs, not the
 * samples.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hash.h"
#include "hmap.h"
#include "input.h"
#include "record.h"
#include "store.h"
#include "xalloc.h"

/* A run of a test: the test's index, LEVEL and RUN. */
struct pv_store_runkey {
	size_t test;
	uint64_t level, run;
};

void
pv_store_scan_release(struct pv_store_scan *sc)
{
	size_t i;

	for (i = 0; i < sc->nexperiment; i++)
		free(sc->experiment[i]);
	free(sc->experiment);
	for (i = 0; i < sc->ntest; i++) {
		free((char *)sc->test[i].suite);
		free((char *)sc->test[i].test);
	}
	free(sc->test);
	free(sc->run);
	pv_hmap_release(&sc->runs);
	memset(sc, 0, sizeof(*sc));
}

const char *
pv_store_scan_kinds(unsigned kinds)
{
	switch (kinds & (PV_KIND_STACK | PV_KIND_SAMPLE)) {
	case PV_KIND_STACK: return "stack";
	case PV_KIND_SAMPLE: return "sample";
	case PV_KIND_STACK | PV_KIND_SAMPLE: return "stack,sample";
	default: return "-";
	}
}

/* The index of experiment x, added when new; -1 for a NUL byte in it. */
static long
experiment(struct pv_store_scan *sc, struct pv_str x)
{
	size_t i;

	/* few experiments a stream: a linear search is enough */
	for (i = 0; i < sc->nexperiment; i++)
		if (pv_str_eq(x, sc->experiment[i]))
			return (long)i;
	if (memchr(x.s, '\0', x.len) != NULL) {
		pv_err_set(&sc->err, "an experiment identity with a NUL byte");
		return -1;
	}
	PV_GROW(sc->experiment, sc->nexperiment + 1, sc->alloc);
	sc->experiment[sc->nexperiment] = pv_xmemdup(x.s, x.len);
	return (long)sc->nexperiment++;
}

static uint64_t
run_hash(const struct pv_store_runkey *k)
{
	return pv_hash_fold(pv_hash_fold(k->test, k->level), k->run);
}

static int
run_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct pv_store_runkey *a = &((const struct pv_store_scan *)ctx)->
		run[id], *b = key;

	return a->test == b->test && a->level == b->level && a->run == b->run;
}

/* Count the run (level, run) of test t once. */
static void
add_run(struct pv_store_scan *sc, size_t t, uint64_t level, uint64_t run)
{
	struct pv_store_runkey k = { t, level, run };
	uint64_t h = run_hash(&k);
	size_t pos;

	if (pv_hmap_find(&sc->runs, h, run_eq, sc, &k, &pos) != PV_HMAP_NONE)
		return;
	PV_GROW(sc->run, sc->nrun + 1, sc->run_alloc);
	sc->run[sc->nrun] = k;
	pv_hmap_add_at(&sc->runs, pos, h, (uint32_t)sc->nrun);
	sc->nrun++;
	sc->test[t].runs++;
}

static int
is_test(const struct pv_store_test *t, const char *x, struct pv_str suite,
	struct pv_str test)
{
	return t->experiment == x && pv_str_eq(suite, t->suite) &&
		pv_str_eq(test, t->test);
}

/*
 * The test (suite, test) of experiment x, added when new: the one before
 * (records come grouped by key), else a linear search of the few a
 * stream has.
 */
static size_t
find_test(struct pv_store_scan *sc, size_t x, struct pv_str suite,
	  struct pv_str test, size_t last)
{
	const char *xs = sc->experiment[x];
	size_t i;

	if (last < sc->ntest && is_test(&sc->test[last], xs, suite, test))
		return last;
	for (i = 0; i < sc->ntest; i++)
		if (is_test(&sc->test[i], xs, suite, test))
			return i;
	PV_GROW(sc->test, sc->ntest + 1, sc->test_alloc);
	sc->test[sc->ntest].experiment = xs;
	sc->test[sc->ntest].suite = pv_xmemdup(suite.s, suite.len);
	sc->test[sc->ntest].test = pv_xmemdup(test.s, test.len);
	sc->test[sc->ntest].runs = 0;
	return sc->ntest++;
}

/* The LEVEL and RUN of a runval record's fields; -1 if not whole numbers. */
static int
runval_run(const struct pv_record *rec, uint64_t *level, uint64_t *run)
{
	const struct pv_str *f = rec->field;

	if (pv_str_eq(f[10], "-"))
		*level = PV_NONE;
	else if (pv_parse_u64(f[10].s, f[10].len, level) < 0)
		return -1;
	return pv_parse_u64(f[11].s, f[11].len, run);
}

int
pv_store_scan(int fd, struct pv_store_scan *sc)
{
	struct pv_reader *r;
	struct pv_record rec;
	struct pv_str none = { "", 0 }, x;
	uint64_t level, run;
	size_t last = 0;
	long cur = -1, k;
	int rc, in_section = 0;

	memset(sc, 0, sizeof(*sc));
	if ((fd = dup(fd)) < 0)
		return pv_err_set_errno(&sc->err, errno, "cannot read");
	r = pv_reader_open_input(pv_input_open_fd(fd, "stream"));
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if (rec.type == PV_REC_VERSION)
			continue;
		if (rec.type == PV_REC_SECTION || !in_section) {
			/* records before any section: the absent experiment */
			x = rec.type == PV_REC_SECTION ? rec.experiment : none;
			in_section = 1;
			if ((cur = experiment(sc, x)) < 0) {
				rc = -2;
				break;
			}
		}
		if (rec.type == PV_REC_STACK) {
			sc->kinds |= PV_KIND_STACK;
		} else if (rec.type == PV_REC_SAMPLE) {
			sc->kinds |= PV_KIND_SAMPLE;
			last = find_test(sc, (size_t)cur, rec.suite, rec.test,
					 last);
			add_run(sc, last, rec.level, rec.run);
		} else if (rec.type == PV_REC_OTHER && rec.nfield >= 14 &&
			   pv_str_eq(rec.field[0], "runval") &&
			   runval_run(&rec, &level, &run) == 0) {
			/* pv-stat -S: a run as one value, with its identity */
			x = rec.field[3];
			if (pv_str_eq(x, "-"))
				x = none;
			if ((k = experiment(sc, x)) < 0) {
				rc = -2;
				break;
			}
			last = find_test(sc, (size_t)k, rec.field[4],
					 rec.field[5], last);
			add_run(sc, last, level, run);
		}
	}
	sc->line = pv_reader_lineno(r);
	if (rc == -1)
		pv_err_set(&sc->err, "%s", pv_reader_error(r));
	pv_reader_close(r);
	return rc < 0 ? -1 : 0;
}
