/*
 * fuzz_folded: the folded and diff-folded reading path of pv-render: the
 * reader's stack records and folded lines, aggregated in a stack table
 * (--format=folded) and, for diff-folded lines, in a comparison
 * (lib/stackdiff) written as diff-folded, text and a differential SVG.
 */
#include "config.h"

#include <stdlib.h>

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
	static const struct pv_stackdiff_opts asis = { 0, 1, 0 };
	struct pv_reader *r = pv_reader_open(fuzz_file(data, size));
	struct pv_symtab names;
	struct pv_stacktab stacks;
	struct pv_stackdiff d;
	struct pv_record rec;
	uint32_t *frames = NULL;
	size_t alloc = 0, i;
	FILE *out = fuzz_devnull();

	if (r == NULL)
		return 0;
	pv_symtab_init(&names);
	pv_stacktab_init(&stacks);
	pv_stackdiff_init(&d, &asis);
	while (pv_reader_next(r, &rec) > 0) {
		if (rec.type != PV_REC_STACK)
			continue;
		if (rec.folded == 2) {
			pv_stackdiff_add(&d, PV_SIDE_BASE, rec.event, rec.frame,
					 rec.nframe, rec.period, rec.period);
			pv_stackdiff_add(&d, PV_SIDE_TARGET, rec.event,
					 rec.frame, rec.nframe, rec.period2,
					 rec.period2);
			continue;
		}
		PV_GROW(frames, rec.nframe, alloc);
		for (i = 0; i < rec.nframe; i++)
			frames[i] = pv_symtab_intern(&names, rec.frame[i].s,
						     rec.frame[i].len);
		pv_stacktab_add(&stacks,
				pv_symtab_intern(&names, rec.event.s,
						 rec.event.len),
				frames, rec.nframe, rec.samples, rec.period);
	}
	pv_reader_close(r);
	free(pv_stacktab_sorted(&stacks, &names));
	if (d.stacks.nstack > 0 && pv_stackdiff_compute(&d) == 0) {
		struct pv_svg_opts so = { NULL, 0, -1, 1 };
		struct pv_svg_stack *v;
		size_t n = d.stacks.nstack;

		for (i = 0; i < d.ntotal; i++)
			pv_render_diff_folded(out, &d, d.total[i].event,
					      (int)(i & 1));
		pv_render_text(out, d.func, d.nfunc, &d.names, 10, 1);
		v = pv_xreallocarray(NULL, n + 1, sizeof(*v));
		for (i = 0; i < n; i++) {
			const struct pv_stack *s = &d.stacks.stack[i];
			const struct pv_stackdiff_stack *p =
				pv_stackdiff_pair(&d, s);

			v[i].frame = s->frame;
			v[i].nframe = s->nframe;
			v[i].base = p->period[PV_SIDE_BASE];
			v[i].count = p->period[PV_SIDE_TARGET];
		}
		(void)pv_svg_write(out, &so, &d.names, v, n);
		free(v);
	}
	free(frames);
	pv_stackdiff_release(&d);
	pv_stacktab_release(&stacks);
	pv_symtab_release(&names);
	return 0;
}
