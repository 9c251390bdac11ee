/*
 * render_json: the results of a comparison as one JSON document (RFC
 * 8259), for dashboards and bots, as pv-render --format=json writes it:
 * the comparisons of pv-diff (cmp records), the verdicts, systematic
 * regressions and detectable changes of pv-classify (verdict, systematic
 * and detect records, as render_verdict.h keeps them), the change points
 * of pv-series (changepoint records) and the function changes of a
 * comparison of profiles (func records, or those computed from dstack
 * records, stackdiff.h).  man/pv-render-json.schema.json is its JSON
 * Schema and pv-render(1) describes it.
 *
 * Every value comes from a record through its codec; nothing is computed
 * but the changes in percent, 100 (e^x - 1) of the log changes beside
 * them.  A value the record has as '-' (absent), NaN or infinite is null;
 * strings are UTF-8, bytes that are not as U+FFFD (textenc.h).
 *
 * Feed every record to pv_render_json_add(); it keeps the cmp and
 * changepoint records (copies; memory grows with the comparisons and the
 * change points).
 */
#ifndef PV_RENDER_JSON_H
#define PV_RENDER_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "error.h"
#include "rec_cmp.h"
#include "rec_changepoint.h"
#include "record.h"
#include "render_verdict.h"
#include "stackdiff.h"
#include "symtab.h"

struct pv_render_json {
	struct pv_arena arena;
	struct pv_cmp *cmp;
	size_t ncmp, cmpalloc;
	/*
	 * pv-series's changepoint records (lib/rec_changepoint.c), their
	 * strings in arena; key.role and key.version unused
	 */
	struct pv_changepoint *cp;
	size_t ncp, cpalloc;
	uint64_t scanned;	/* keys pv-series searched (scanned) */
	struct pv_err err;
};

void pv_render_json_init(struct pv_render_json *j);
void pv_render_json_release(struct pv_render_json *j);

/*
 * Take one record: 1 when kept (a cmp or changepoint record), 0 when not
 * one of ours, -1 when malformed (j->err set).
 */
int pv_render_json_add(struct pv_render_json *j, const struct pv_record *rec);

/*
 * Write the document: j's comparisons, v's verdicts, systematic and
 * detect records, j's change points, and the functions f[0..nf) (their
 * names and events in names).
 */
void pv_render_json_write(const struct pv_render_json *j,
			    const struct pv_render_verdict *v,
			    const struct pv_stackdiff_func *f, size_t nf,
			    const struct pv_symtab *names, FILE *out);

#endif
