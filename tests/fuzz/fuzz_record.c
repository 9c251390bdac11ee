/*
 * fuzz_record: the record reader (lib/record.c) over any bytes, each
 * record read written back with the module's writers (and a stack record
 * with its codec, rec_profile.h), which must accept whatever the reader
 * returned.
 */
#include "config.h"

#include "fuzz.h"
#include "rec_profile.h"
#include "record.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pv_reader *r = pv_reader_open(fuzz_file(data, size));
	struct pv_record rec;
	FILE *out = fuzz_devnull();
	struct pv_strbuf sb = PV_STRBUF_INIT;

	if (r == NULL)
		return 0;
	while (pv_reader_next(r, &rec) > 0) {
		pv_write_raw(out, &rec);
		pv_write_fields(out, rec.field, rec.nfield);
		if (rec.type == PV_REC_STACK) {
			struct pv_rec_stack s = { rec.event, rec.samples,
						  rec.period, rec.frame,
						  rec.nframe };

			pv_strbuf_reset(&sb);
			pv_rec_stack_write(&sb, &s);
			fwrite(sb.buf, 1, sb.len, out);
		} else if (rec.type == PV_REC_SAMPLE)
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
	pv_strbuf_release(&sb);
	return 0;
}
