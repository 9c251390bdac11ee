/*
 * render_verdict: verdicts (rec_verdict.h) for people and for CI
 * dashboards, as pv-render --format=text and --format=junit print them.
 * It reads the records through their codecs only: it needs neither the
 * classifier nor the statistics (GSL).
 *
 * Feed every record to pv_render_verdict_add(); it keeps the verdict,
 * systematic and detect records (copies; memory grows with the
 * comparisons) and ignores the rest.  Then pv_render_verdict_text() prints
 * the ranked summary: counts per class (of the primary metrics; the
 * secondary ones' on a line of their own), the regressions by falling
 * severity with their flags, the systematic regressions in the style of
 * Linaro's summary, the improvements, the uncertain comparisons with their
 * reasons (what would decide them), and the report card of the smallest
 * detectable change per key; pv_render_verdict_junit() writes JUnit XML with one test
 * case per comparison, regressions as failures and uncertain ones as
 * skipped.
 */
#ifndef PV_RENDER_VERDICT_H
#define PV_RENDER_VERDICT_H

#include <stddef.h>
#include <stdio.h>

#include "arena.h"
#include "error.h"
#include "record.h"
#include "rec_verdict.h"

struct pv_render_verdict_sys {
	struct pv_runkey key;
	struct pv_sysreg s;
	const char *levels;
};

struct pv_render_verdict_detect {
	struct pv_cmp c;
	double mde;
};

struct pv_render_verdict {
	struct pv_arena arena;
	struct pv_verdict *v;
	size_t nv, valloc;
	struct pv_render_verdict_sys *sys;
	size_t nsys, sysalloc;
	struct pv_render_verdict_detect *det;
	size_t ndet, detalloc;
	struct pv_err err;
};

void pv_render_verdict_init(struct pv_render_verdict *r);
void pv_render_verdict_release(struct pv_render_verdict *r);

/*
 * Take one record: 1 when kept, 0 when not one of ours, -1 when it is
 * malformed (r->err set).
 */
int pv_render_verdict_add(struct pv_render_verdict *r,
			  const struct pv_record *rec);

void pv_render_verdict_text(struct pv_render_verdict *r, FILE *out);
void pv_render_verdict_junit(struct pv_render_verdict *r, FILE *out);

#endif
