/*
 * rec_runstart: the runstart record (see rec_runstart.h).
 */
#include "config.h"

#include <math.h>

#include "field.h"
#include "rec_runstart.h"

void
pv_rec_runstart_write(struct pv_strbuf *sb, const struct pv_runstart *r)
{
	pv_field_type(sb, "runstart");
	pv_field_add_u64(sb, r->run);
	pv_field_add_opt_u64(sb, r->order);
	if (isnan(r->start))
		pv_field_add_opt(sb, NULL);
	else
		pv_field_add_exact(sb, r->start);
	pv_field_end(sb);
}

int
pv_rec_runstart_parse(const struct pv_record *rec, struct pv_runstart *r,
		      struct pv_err *e)
{
	const struct pv_str *f = rec->field;

	if (rec->nfield != 4)
		return pv_field_count_bad(e, "runstart", 4, rec->nfield);
	if (pv_field_get_u64(f[1], &r->run) < 0 || r->run == PV_NONE)
		return pv_field_bad(e, "RUN", f[1], "a whole number");
	if (pv_field_get_opt_u64(f[2], &r->order) < 0)
		return pv_field_bad(e, "ORDER", f[2], "a whole number");
	if (pv_str_eq(f[3], "-"))
		r->start = NAN;
	else if (pv_field_get_finite(f[3], &r->start) < 0)
		return pv_field_bad(e, "START", f[3], "a number of seconds");
	return 0;
}
