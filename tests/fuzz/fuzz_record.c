/*
 * fuzz_record: the record reader (lib/record.c) over any bytes, each
 * record read written back with the module's writers, which must accept
 * whatever the reader returned.
 */
#include "config.h"

#include "fuzz.h"
#include "record.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pv_reader *r = pv_reader_open(fuzz_file(data, size));
	struct pv_record rec;
	FILE *out = fuzz_devnull();

	if (r == NULL)
		return 0;
	while (pv_reader_next(r, &rec) > 0) {
		pv_write_raw(out, &rec);
		pv_write_fields(out, rec.field, rec.nfield);
		if (rec.type == PV_REC_STACK)
			pv_write_stack(out, rec.event, rec.samples, rec.period,
				       rec.frame, rec.nframe);
		else if (rec.type == PV_REC_SAMPLE)
			pv_write_sample(out, &rec);
		else if (rec.type == PV_REC_OTHER && rec.nfield > 4) {
			struct pv_frame_list fl = PV_FRAME_LIST_INIT;
			struct pv_str f = pv_record_raw_field(&rec, 4);

			(void)pv_frame_list_split(&fl, f.s, f.len);
			pv_frame_list_release(&fl);
		}
	}
	(void)pv_reader_error(r);
	pv_reader_close(r);
	return 0;
}
