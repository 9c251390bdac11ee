/*
 * rec_stat: the stat and statroll records (see rec_stat.h).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "field.h"
#include "rec_stat.h"

static const char *const replicate_name[2] = { "run", "sample" };

void
pv_rec_stat_write(struct pv_strbuf *sb, const struct pv_runkey *key,
		  struct pv_str key_text, const struct pv_summary *s,
		  enum pv_replicate rep)
{
	pv_field_type(sb, "stat");
	if (key_text.len > 0)
		pv_strbuf_add(sb, key_text.s, key_text.len);
	else
		pv_rec_key_add(sb, key, 1);
	pv_field_add_u64(sb, s->n);
	pv_field_add_num(sb, s->mean);
	pv_field_add_num(sb, s->median);
	pv_field_add_num(sb, s->sd);
	pv_field_add_num(sb, s->cv);
	pv_field_add_num(sb, s->rcv);
	pv_field_add_num(sb, s->min);
	pv_field_add_num(sb, s->max);
	pv_field_add_num(sb, s->mean_lo);
	pv_field_add_num(sb, s->mean_hi);
	pv_field_add_num(sb, s->median_lo);
	pv_field_add_num(sb, s->median_hi);
	pv_field_add_num(sb, s->median_cover);
	pv_field_add_opt(sb, replicate_name[rep == PV_REPLICATE_SAMPLE]);
	pv_field_end(sb);
}

int
pv_rec_stat_parse(const struct pv_record *rec, struct pv_runkey *key,
		  struct pv_summary *s, enum pv_replicate *rep,
		  struct pv_err *e)
{
	static const char *const name[12] = {
		"MEAN", "MEDIAN", "SD", "CV", "RCV", "MIN", "MAX", "MEAN_LO",
		"MEAN_HI", "MEDIAN_LO", "MEDIAN_HI", "MEDIAN_COVER"
	};
	double *v[12];
	size_t i;

	memset(s, 0, sizeof(*s));
	*rep = PV_REPLICATE_RUN;
	if (rec->nfield != 24 && rec->nfield != 25)
		return pv_err_set(e, "a stat record has 24 or 25 fields, not "
				  "%zu", rec->nfield);
	if (rec->nfield == 25) {
		if (pv_str_eq(rec->field[24], "sample"))
			*rep = PV_REPLICATE_SAMPLE;
		else if (!pv_str_eq(rec->field[24], "run"))
			return pv_field_bad(e, "REPLICATE", rec->field[24],
					    "'run' or 'sample'");
	}
	if (pv_rec_key_get(rec, 1, key, e) < 0)
		return -1;
	if (pv_field_get_size(rec->field[11], &s->n) < 0)
		return pv_field_bad(e, "N", rec->field[11], "a whole number");
	v[0] = &s->mean; v[1] = &s->median; v[2] = &s->sd; v[3] = &s->cv;
	v[4] = &s->rcv; v[5] = &s->min; v[6] = &s->max; v[7] = &s->mean_lo;
	v[8] = &s->mean_hi; v[9] = &s->median_lo; v[10] = &s->median_hi;
	v[11] = &s->median_cover;
	for (i = 0; i < 12; i++)
		if (pv_field_get_num(rec->field[12 + i], v[i]) < 0)
			return pv_field_bad(e, name[i], rec->field[12 + i],
					    "a number");
	s->mad = NAN;
	return 0;
}

void
pv_rec_statroll_write(struct pv_strbuf *sb, const struct pv_statroll *r)
{
	pv_field_type(sb, "statroll");
	pv_rec_key_add_scope(sb, &r->key, r->scope);
	pv_field_add_u64(sb, r->keys);
	pv_field_add_u64(sb, r->runs);
	pv_field_add_u64(sb, r->min_n);
	pv_field_add_num(sb, r->median_rcv);
	pv_field_add_num(sb, r->max_rcv);
	pv_field_end(sb);
}

int
pv_rec_statroll_parse(const struct pv_record *rec, struct pv_statroll *r,
		      struct pv_err *e)
{
	const struct pv_str *f = rec->field;

	memset(r, 0, sizeof(*r));
	if (rec->nfield != 12)
		return pv_field_count_bad(e, "statroll", 12, rec->nfield);
	if (pv_rec_key_get_scope(rec, &r->key, &r->scope, e) < 0)
		return -1;
	if (pv_field_get_size(f[7], &r->keys) < 0)
		return pv_field_bad(e, "KEYS", f[7], "a whole number");
	if (pv_field_get_size(f[8], &r->runs) < 0)
		return pv_field_bad(e, "RUNS", f[8], "a whole number");
	if (pv_field_get_size(f[9], &r->min_n) < 0)
		return pv_field_bad(e, "MIN_N", f[9], "a whole number");
	if (pv_field_get_num(f[10], &r->median_rcv) < 0)
		return pv_field_bad(e, "MEDIAN_RCV", f[10], "a number");
	if (pv_field_get_num(f[11], &r->max_rcv) < 0)
		return pv_field_bad(e, "MAX_RCV", f[11], "a number");
	return 0;
}
