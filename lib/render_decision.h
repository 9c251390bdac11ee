/*
 * render_decision: the decision pages of the HTML report (render_html.h):
 * what pv-classify decided about a night's benchmark comparisons, from the
 * night's summary down to the run values of one key.
 *
 * It keeps, through their codecs, the verdict, systematic and detect
 * records of pv-classify, the cmp records of pv-diff (their flags and
 * p-values), the stat records of pv-stat (the trend of a key across
 * versions), the changepoint, outlier and trend records of pv-series (the
 * marks on that trend), and the run values of each key of each version (runval
 * records, else the sample records of its sections).  Memory grows with
 * the comparisons and their runs, never with the lines of the input; a
 * key keeps at most PV_DECISION_MAX_VALUES values a side (the page says
 * how many more there were).
 *
 * The report's first screen, the night's summary, is written here as
 * HTML, so that it is drawn before any script runs: per version pair the
 * counts by class and band, the report card (what the data could detect,
 * what was uncertain and why), the regressions ranked by severity with
 * their change, interval and q-value and, where the input holds the
 * profile comparison of their experiment and level, its top suspect
 * functions, the systematic regressions, and what pv-series found across
 * versions.  The rest (the suites, a
 * test's levels, a key's runs and facts, the trends) is data for the
 * page's script.  Nothing is compared or decided again: the numbers are
 * the records'.
 */
#ifndef PV_RENDER_DECISION_H
#define PV_RENDER_DECISION_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "record.h"
#include "render_html.h"
#include "strbuf.h"
#include "symtab.h"

/* run values kept a key and side */
#define PV_DECISION_MAX_VALUES 1000
/* suspects shown beside a regression */
#define PV_DECISION_SUSPECTS 3
/* rows of the first screen's lists; the page shows the rest */
#define PV_DECISION_ROWS 100

/* A profile comparison of the report, as the join needs it. */
struct pv_render_decision_prof {
	uint32_t base, target, experiment;	/* ids in the string table */
	uint64_t level;				/* PV_NONE: none */
	const char *event;			/* of the suspects */
	size_t nsusp;
	struct pv_str susp[PV_DECISION_SUSPECTS];	/* pv-diff's order */
	double dexcl[PV_DECISION_SUSPECTS], dincl[PV_DECISION_SUSPECTS];
};

struct pv_render_decision;

/* str: the document's string table, where ids of sections live too */
struct pv_render_decision *pv_render_decision_new(struct pv_symtab *str);
void pv_render_decision_free(struct pv_render_decision *d);
/* The directory of the artifacts (pv_html_set_artifacts()). */
void pv_render_decision_set_artifacts(struct pv_render_decision *d,
				      const char *dir);

/*
 * Take one record; version and experiment are the ids of the section it
 * is in.  Returns 1 when it was one of the records kept, 0 when not, -1
 * when it is malformed (pv_render_decision_error()).
 */
int pv_render_decision_add(struct pv_render_decision *d,
			   const struct pv_record *rec, uint32_t version,
			   uint32_t experiment);
/* The verdicts read. */
size_t pv_render_decision_count(const struct pv_render_decision *d);
/*
 * What the input says across versions: its change point, outlier and
 * trend records (pv-series), and the keys with stat records of three
 * versions or more.
 */
size_t pv_render_decision_series(const struct pv_render_decision *d);

/* The night's summary, a section of the document. */
void pv_render_decision_html(struct pv_render_decision *d,
			     struct pv_strbuf *sb,
			     const struct pv_render_decision_prof *prof,
			     size_t nprof);
/*
 * The rows of a profile comparison's context table (render_html.c) that
 * show the benchmark results of its experiment and level: each key's
 * median on both sides (stat records) and its verdict.
 */
void pv_render_decision_results(struct pv_render_decision *d,
				struct pv_strbuf *sb,
				const struct pv_render_decision_prof *prof);
/*
 * The data of the decision pages, a JSON object; sect[0..nsect) are the
 * input's sections, to which it refers by index.
 */
void pv_render_decision_json(struct pv_render_decision *d,
			     struct pv_strbuf *sb,
			     const struct pv_html_sect *sect, size_t nsect,
			     const struct pv_render_decision_prof *prof,
			     size_t nprof);
const char *pv_render_decision_error(const struct pv_render_decision *d);

#endif
