/*
 * rec_sample: the sample and runval records (see rec_sample.h).
 */
#include "config.h"

#include <string.h>

#include "field.h"
#include "rec_sample.h"

void
pv_rec_sample_write(struct pv_strbuf *sb, const struct pv_record *rec)
{
	pv_field_type(sb, "sample");
	pv_field_add_str(sb, rec->suite);
	pv_field_add_str(sb, rec->test);
	pv_field_add_str(sb, rec->operation);
	pv_field_add_str(sb, rec->metric);
	pv_field_add_str(sb, rec->unit);
	if (rec->direction == PV_LOWER_BETTER)
		pv_field_add_raw(sb, "lower", 5);
	else
		pv_field_add_raw(sb, "higher", 6);
	pv_field_add_opt_u64(sb, rec->level);
	pv_field_add_opt_u64(sb, rec->run);
	pv_field_add_opt_u64(sb, rec->seq);
	pv_field_add_exact(sb, rec->val);
	pv_field_end(sb);
}

void
pv_rec_runval_write(struct pv_strbuf *sb, const struct pv_runval *rv,
		    struct pv_str key_text)
{
	pv_field_type(sb, "runval");
	if (key_text.len > 0)
		pv_strbuf_add(sb, key_text.s, key_text.len);
	else
		pv_rec_key_add(sb, &rv->key, 1);
	pv_field_add_u64(sb, rv->run);
	pv_field_add_u64(sb, rv->nvalues);
	pv_field_add_exact(sb, rv->value);
	if (rv->quantum > 0)
		pv_field_add_exact(sb, rv->quantum);
	else
		pv_field_add_opt(sb, NULL);
	pv_field_end(sb);
}

int
pv_rec_runval_parse(const struct pv_record *rec, struct pv_runval *rv,
		    struct pv_err *e)
{
	const struct pv_str *f = rec->field;

	memset(rv, 0, sizeof(*rv));
	if (rec->nfield != 14 && rec->nfield != 15)
		return pv_err_set(e, "a runval record has 14 or 15 fields, not "
				  "%zu", rec->nfield);
	if (rec->nfield == 15 && !pv_str_eq(f[14], "-") &&
	    (pv_field_get_finite(f[14], &rv->quantum) < 0 ||
	     !(rv->quantum > 0)))
		return pv_field_bad(e, "QUANTUM", f[14], "a positive number");
	if (pv_rec_key_get(rec, 1, &rv->key, e) < 0)
		return -1;
	if (pv_field_get_u64(f[11], &rv->run) < 0)
		return pv_err_set(e, "run '%.*s' is not a whole number",
				  (int)f[11].len, f[11].s);
	if (pv_field_get_u64(f[12], &rv->nvalues) < 0 || rv->nvalues == 0)
		return pv_err_set(e, "count '%.*s' is not a positive whole "
				  "number", (int)f[12].len, f[12].s);
	if (pv_field_get_finite(f[13], &rv->value) < 0)
		return pv_field_bad(e, "value", f[13],
				    pv_double_fault(f[13].s, f[13].len));
	return 0;
}
