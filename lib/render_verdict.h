/*
 * render_verdict: verdicts (verdict.h) for people and for CI dashboards,
 * as pv-render --format=text and --format=junit print them.
 *
 * Feed every record to pv_vreport_add(); it keeps the verdict, systematic
 * and detect records (copies; memory grows with the comparisons) and
 * ignores the rest.  Then pv_vreport_text() prints the ranked summary:
 * counts per class, the regressions by falling severity, the systematic
 * regressions in the style of Linaro's summary, the improvements, the
 * uncertain comparisons with the runs that would likely decide them, and
 * the report card of the smallest detectable change per key;
 * pv_vreport_junit() writes JUnit XML with one test case per comparison,
 * regressions as failures and uncertain ones as skipped.
 */
#ifndef PV_RENDER_VERDICT_H
#define PV_RENDER_VERDICT_H

#include <stddef.h>
#include <stdio.h>

#include "arena.h"
#include "record.h"
#include "verdict.h"

struct pv_vreport_sys {
	struct pv_runkey key;
	struct pv_sysreg s;
	const char *levels;
};

struct pv_vreport_detect {
	struct pv_cmp c;
	double mde;
};

struct pv_vreport {
	struct pv_arena arena;
	struct pv_verdict *v;
	size_t nv, valloc;
	struct pv_vreport_sys *sys;
	size_t nsys, sysalloc;
	struct pv_vreport_detect *det;
	size_t ndet, detalloc;
	char err[256];
};

void pv_vreport_init(struct pv_vreport *r);
void pv_vreport_release(struct pv_vreport *r);

/*
 * Take one record: 1 when kept, 0 when not one of ours, -1 when it is
 * malformed (message in r->err).
 */
int pv_vreport_add(struct pv_vreport *r, const struct pv_record *rec);

void pv_vreport_text(struct pv_vreport *r, FILE *out);
void pv_vreport_junit(struct pv_vreport *r, FILE *out);

#endif
