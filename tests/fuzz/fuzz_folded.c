/*
 * fuzz_folded: the folded and diff-folded reading path of pv-render: the
 * reader's stack records and folded lines, aggregated in a stack table
 * (--format=folded) and drawn from a call tree as a plain SVG; diff-folded
 * lines drawn from a call tree as a differential SVG, written again as
 * diff-folded lines, and compared (lib/stackdiff) for the text table.
 */
#include "config.h"

#include <stdlib.h>

#include "flametree.h"
#include "fuzz.h"
#include "record.h"
#include "render_svg.h"
#include "render_text.h"
#include "stackdiff.h"
#include "stacktab.h"
#include "symtab.h"
#include "xalloc.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct pv_stackdiff_opts asis = { .keep_suffixes = 1 };
	struct pv_reader *r = pv_reader_open(fuzz_file(data, size));
	struct pv_symtab names;
	struct pv_stacktab stacks;
	struct pv_stackdiff d;
	struct pv_flametree tree, dtree;
	struct pv_dfold dfold;
	struct pv_record rec;
	uint32_t *frames = NULL;
	size_t alloc = 0, i;
	FILE *out = fuzz_devnull();

	if (r == NULL)
		return 0;
	pv_symtab_init(&names);
	pv_stacktab_init(&stacks);
	pv_stackdiff_init(&d, &asis);
	pv_flametree_init(&tree);
	pv_flametree_init(&dtree);
	pv_dfold_init(&dfold);
	while (pv_reader_next(r, &rec) > 0) {
		if (rec.type != PV_REC_STACK)
			continue;
		PV_GROW(frames, rec.nframe, alloc);
		for (i = 0; i < rec.nframe; i++)
			frames[i] = pv_symtab_intern(&names, rec.frame[i].s,
						     rec.frame[i].len);
		if (rec.folded == 2) {
			pv_stackdiff_add(&d, PV_SIDE_BASE, rec.event, rec.frame,
					 rec.nframe, rec.period, rec.period);
			pv_stackdiff_add(&d, PV_SIDE_TARGET, rec.event,
					 rec.frame, rec.nframe, rec.period2,
					 rec.period2);
			pv_flametree_add(&dtree, frames, rec.nframe,
					 rec.period, rec.period2);
			pv_dfold_add(&dfold, rec.frame, rec.nframe, NULL,
				     rec.period, rec.period2);
			continue;
		}
		pv_flametree_add(&tree, frames, rec.nframe, 0, rec.period);
		pv_stacktab_add(&stacks,
				pv_symtab_intern(&names, rec.event.s,
						 rec.event.len),
				frames, rec.nframe, rec.samples, rec.period);
	}
	pv_reader_close(r);
	free(pv_stacktab_sorted(&stacks, &names));
	(void)pv_render_diff_folded(out, &dfold, 0);
	(void)pv_render_diff_folded(out, &dfold, 1);
	if (pv_stackdiff_nstacks(&d) > 0 && pv_stackdiff_compute(&d) == 0)
		pv_render_text(out, d.func, d.nfunc, &d.names, 10, 1);
	{
		struct pv_svg_opts so = { NULL, 0, -1, 0 };

		(void)pv_svg_write(out, &so, &names, &tree);
		so.differential = 1;
		so.min_width = 0;
		(void)pv_svg_write(out, &so, &names, &dtree);
	}
	free(frames);
	pv_dfold_release(&dfold);
	pv_flametree_release(&dtree);
	pv_flametree_release(&tree);
	pv_stackdiff_release(&d);
	pv_stacktab_release(&stacks);
	pv_symtab_release(&names);
	return 0;
}
