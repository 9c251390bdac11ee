/*
 * render_series: what pv-series and pv-classify found along a series of
 * versions, for people, as pv-render --format=text prints it.  It reads
 * the records through their codecs (rec_changepoint.h) and computes
 * nothing again.
 *
 * Feed every record to pv_render_series_add(); it keeps the changepoint,
 * outlier, trend and cpgroup records (copies; memory grows with them) and
 * ignores the rest.  Then pv_render_series_text() prints the summary: the
 * counts, the change points for the worse ranked as regressions are, by
 * the end of their interval nearer zero (the change the data support,
 * most severe first), each with the range to bisect ("git bisect start
 * AFTER BEFORE"); the groups across levels; the change points for the
 * better; the outliers; the trends.
 */
#ifndef PV_RENDER_SERIES_H
#define PV_RENDER_SERIES_H

#include <stddef.h>
#include <stdio.h>

#include "arena.h"
#include "error.h"
#include "rec_changepoint.h"
#include "record.h"

struct pv_render_series {
	struct pv_arena arena;
	struct pv_changepoint *cp;
	size_t ncp, cpalloc;
	struct pv_outlier *ol;
	size_t nol, olalloc;
	struct pv_trend *tr;
	size_t ntr, tralloc;
	struct pv_cpgroup *grp;
	size_t ngrp, grpalloc;
	size_t nscanned;	/* scanned records: what was searched */
	uint64_t keys, versions;	/* their keys summed, most versions */
	struct pv_err err;
};

void pv_render_series_init(struct pv_render_series *r);
void pv_render_series_release(struct pv_render_series *r);

/*
 * Take one record: 1 when kept, 0 when not one of ours, -1 when it is
 * malformed (r->err set).
 */
int pv_render_series_add(struct pv_render_series *r,
			 const struct pv_record *rec);

/* Whether any record was kept. */
int pv_render_series_any(const struct pv_render_series *r);

void pv_render_series_text(struct pv_render_series *r, FILE *out);

#endif
