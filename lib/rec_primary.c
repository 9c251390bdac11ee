/*
 * rec_primary: the primary record (see rec_primary.h).
 */
#include "config.h"

#include "field.h"
#include "rec_primary.h"

void
pv_rec_primary_write(struct pv_strbuf *sb, const struct pv_primary *p)
{
	pv_field_type(sb, "primary");
	pv_field_add_opt_str(sb, p->suite);
	pv_field_add_opt_str(sb, p->test);
	pv_field_add_opt_str(sb, p->operation);
	pv_field_add_opt_str(sb, p->metric);
	pv_field_end(sb);
}

static struct pv_str
absent(struct pv_str f)
{
	if (pv_str_eq(f, "-"))
		f.len = 0;
	return f;
}

int
pv_rec_primary_parse(const struct pv_record *rec, struct pv_primary *p,
		     struct pv_err *e)
{
	const struct pv_str *f = rec->field;

	if (rec->nfield != 5)
		return pv_field_count_bad(e, "primary", 5, rec->nfield);
	p->suite = absent(f[1]);
	p->test = absent(f[2]);
	p->operation = absent(f[3]);
	p->metric = absent(f[4]);
	return 0;
}
