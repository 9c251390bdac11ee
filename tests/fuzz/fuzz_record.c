/*
 * fuzz_record: the record reader (lib/record.c) over any bytes, each
 * record read written back with the module's writers (and the profile
 * records with their codecs, rec_profile.h), which must accept whatever
 * the reader returned.
 */
#include "config.h"

#include "fuzz.h"
#include "rec_profile.h"
#include "record.h"

/* pv-diff's records parsed by their codecs and, when good, written back */
static void
profile_record(const struct pv_record *rec, struct pv_strbuf *sb, FILE *out)
{
	struct pv_err e = PV_ERR_INIT;
	struct pv_rec_total t;
	struct pv_rec_dstack d;
	struct pv_rec_func f;

	pv_strbuf_reset(sb);
	if (pv_str_eq(rec->field[0], "total") &&
	    pv_rec_total_parse(rec, &t, &e) == 0)
		pv_rec_total_write(sb, &t);
	else if (pv_str_eq(rec->field[0], "dstack") &&
		 pv_rec_dstack_parse(rec, &d, &e) == 0)
		pv_rec_dstack_write(sb, &d);
	else if (pv_str_eq(rec->field[0], "func") &&
		 pv_rec_func_parse(rec, &f, &e) == 0)
		pv_rec_func_write(sb, &f);
	(void)pv_err_msg(&e);
	fwrite(sb->buf, 1, sb->len, out);
}

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
		else if (rec.type == PV_REC_OTHER)
			profile_record(&rec, &sb, out);
	}
	(void)pv_reader_error(r);
	pv_reader_close(r);
	pv_strbuf_release(&sb);
	return 0;
}
