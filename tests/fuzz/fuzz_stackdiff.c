/*
 * fuzz_stackdiff: pv-diff's comparison of stacks (lib/stackdiff), fed the
 * records of one stream as pv-diff feeds it (the sections' roles pick the
 * side; the first byte picks the options), then pv-render's reading of
 * the comparison back: dstack and func records, through their codecs.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "record.h"
#include "stackdiff.h"
#include "xalloc.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pv_stackdiff_opts opt = { .raw = 0 };
	struct pv_stackdiff d, back;
	struct pv_stackdiff_func *func = NULL;
	size_t nfunc = 0, falloc = 0;
	struct pv_reader *r;
	struct pv_record rec;
	FILE *out = fuzz_devnull();
	struct pv_err e = PV_ERR_INIT;
	struct pv_rec_dstack ds;
	struct pv_rec_func fr;
	int side = PV_SIDE_BASE, nsec = 0;

	if (size == 0)
		return 0;
	opt.raw = data[0] & 1;
	opt.keep_suffixes = (data[0] >> 1) & 1;
	opt.strip_hex = (data[0] >> 2) & 1;
	r = pv_reader_open(fuzz_file(data + 1, size - 1));
	if (r == NULL)
		return 0;
	pv_stackdiff_init(&d, &opt);
	pv_stackdiff_init(&back, &opt);
	while (pv_reader_next(r, &rec) > 0) {
		if (rec.type == PV_REC_SECTION) {
			nsec++;
			if (pv_str_eq(rec.role, "baseline"))
				side = PV_SIDE_BASE;
			else if (pv_str_eq(rec.role, "target"))
				side = PV_SIDE_TARGET;
			else
				side = nsec > 1;
		} else if (rec.type == PV_REC_STACK) {
			pv_stackdiff_add(&d, side, rec.event, rec.frame,
					 rec.nframe, rec.samples, rec.period);
		} else if (rec.type == PV_REC_OTHER &&
			   pv_str_eq(rec.field[0], "dstack")) {
			if (pv_rec_dstack_parse(&rec, &ds, &e) == 0)
				(void)pv_stackdiff_add_dstack(&back, &ds);
		} else if (rec.type == PV_REC_OTHER &&
			   pv_str_eq(rec.field[0], "func")) {
			if (pv_rec_func_parse(&rec, &fr, &e) < 0)
				continue;
			PV_GROW(func, nfunc + 1, falloc);
			memset(&func[nfunc], 0, sizeof(func[nfunc]));
			func[nfunc].event = pv_symtab_intern(&back.names,
				fr.event.s, fr.event.len);
			func[nfunc].name = pv_symtab_intern(&back.names,
				fr.name.s, fr.name.len);
			func[nfunc++].delta_excl = fr.delta_excl;
		}
	}
	pv_reader_close(r);
	if (pv_stackdiff_compute(&d) == 0) {
		pv_stackdiff_write(&d, out);
		(void)pv_stackdiff_moved(&d, 1.0);
	}
	if (pv_stackdiff_nstacks(&back) > 0 && pv_stackdiff_compute(&back) == 0)
		pv_stackdiff_write(&back, out);
	pv_stackdiff_sort_funcs(func, nfunc, &back.names);
	free(func);
	pv_stackdiff_release(&back);
	pv_stackdiff_release(&d);
	return 0;
}
