/*
 * render_text: the plain-text renderings of a profile comparison
 * (pv-render(1) --format=text and --format=diff-folded).
 *
 * Both write to a stdio stream and leave its errors for the caller to
 * check once, at the end; neither prints anything else nor exits.
 */
#ifndef PV_RENDER_TEXT_H
#define PV_RENDER_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stackdiff.h"
#include "symtab.h"

/*
 * Diff-folded lines, "frame;frame COUNT1 COUNT2", the input of
 * flamegraph.pl: the stacks of d->sorted under event (a names id), the
 * baseline's count first, in byte-wise order of the frames.  Frame names
 * are written as they are.  With normalize set, the baseline's counts are
 * scaled to the target's total and rounded down, as difffolded.pl -n does.
 * d must have been computed (pv_stackdiff_compute()).
 */
void pv_render_diff_folded(FILE *out, const struct pv_stackdiff *d,
			   uint32_t event, int normalize);

/*
 * The table of suspects: for each event (in the order of f, which
 * pv_stackdiff_sort_funcs() gives), a heading and the first top functions
 * of that event: their exclusive and inclusive shares on both sides, the
 * changes in percentage points and the relative changes.  With color set,
 * growth is shown in red and shrinking in blue (ANSI escapes).  Bytes of
 * names that a terminal would act on (control characters) are written as
 * \xHH.
 */
void pv_render_text(FILE *out, const struct pv_stackdiff_func *f, size_t n,
		    const struct pv_symtab *names, size_t top, int color);

#endif
