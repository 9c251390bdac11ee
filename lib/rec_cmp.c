/*
 * rec_cmp: the cmp and cmproll records (see rec_cmp.h).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "field.h"
#include "rec_cmp.h"

static const char *const flag_name[PV_CMP_NFLAGS] = {
	"few-runs", "unstable", "outliers", "baseline-only", "target-only",
	"zero-variance", "nonpositive", "quantised", "drift", "secondary"
};

const char *
pv_rec_cmp_flag_name(int i)
{
	return flag_name[i];
}

/* ORDER, by enum pv_order */
static const char *const order_name[3] = { "-", "interleaved", "apart" };

/* FLAGS: the names, comma-separated, or '-' */
void
pv_rec_cmp_flags_add(struct pv_strbuf *sb, unsigned flags)
{
	int i, any = 0;

	pv_field_next(sb);
	for (i = 0; i < PV_CMP_NFLAGS; i++) {
		if (!(flags & (1u << i)))
			continue;
		if (any++)
			pv_strbuf_addch(sb, ',');
		pv_strbuf_addstr(sb, flag_name[i]);
	}
	if (!any)
		pv_strbuf_addch(sb, '-');
}

int
pv_rec_cmp_flags_get(struct pv_str s, unsigned *flags)
{
	size_t i = 0;

	*flags = 0;
	if (pv_str_eq(s, "-"))
		return 0;
	while (i <= s.len) {
		size_t j = i;
		int k;

		while (j < s.len && s.s[j] != ',')
			j++;
		for (k = 0; k < PV_CMP_NFLAGS; k++) {
			if (strlen(flag_name[k]) == j - i &&
			    memcmp(flag_name[k], s.s + i, j - i) == 0)
				break;
		}
		if (k == PV_CMP_NFLAGS)
			return -1;
		*flags |= 1u << k;
		i = j + 1;
	}
	return 0;
}

void
pv_rec_cmp_write(struct pv_strbuf *sb, const struct pv_cmp *c)
{
	pv_field_type(sb, "cmp");
	if (c->key_text.len > 0)
		pv_rec_key_add_text(sb, &c->key, c->key_text);
	else
		pv_rec_key_add(sb, &c->key, 1);
	pv_field_add_u64(sb, c->nb);
	pv_field_add_u64(sb, c->nt);
	pv_field_add_num(sb, c->change);
	pv_field_add_num(sb, c->lo);
	pv_field_add_num(sb, c->hi);
	pv_field_add_num(sb, c->se);
	pv_field_add_num(sb, c->df);
	pv_field_add_num(sb, c->boot_lo);
	pv_field_add_num(sb, c->boot_hi);
	pv_field_add_num(sb, c->p_welch);
	pv_field_add_num(sb, c->p_mwu);
	pv_field_add_num(sb, c->g);
	pv_field_add_num(sb, c->cliff);
	pv_field_add_num(sb, c->rcv_b);
	pv_field_add_num(sb, c->rcv_t);
	pv_field_add_u64(sb, c->out_b);
	pv_field_add_u64(sb, c->out_t);
	pv_rec_cmp_flags_add(sb, c->flags);
	pv_field_add_num(sb, c->hlo);
	pv_field_add_num(sb, c->hhi);
	pv_field_add_num(sb, c->hp);
	pv_field_add_num(sb, c->trend);
	pv_field_add_opt(sb, order_name[c->order >= 0 && c->order < 3 ?
					c->order : 0]);
	pv_field_add_num(sb, c->rho);
	if (c->quantum > 0)
		pv_field_add_exact(sb, c->quantum);
	else
		pv_field_add_opt(sb, NULL);
	pv_field_end(sb);
}

/* HONEST_LO HONEST_HI HONEST_P TREND ORDER RHO QUANTUM */
static int
get_honest(const struct pv_str *f, struct pv_cmp *c, struct pv_err *e)
{
	static const char *const name[] = {
		"HONEST_LO", "HONEST_HI", "HONEST_P", "TREND"
	};
	double *v[4];
	int i;

	v[0] = &c->hlo; v[1] = &c->hhi; v[2] = &c->hp; v[3] = &c->trend;
	for (i = 0; i < 4; i++)
		if (pv_field_get_num(f[i], v[i]) < 0)
			return pv_field_bad(e, name[i], f[i], "a number");
	if (isinf(c->hlo) || isinf(c->hhi) ||
	    (!isnan(c->hp) && !(c->hp >= 0 && c->hp <= 1)) ||
	    (isnan(c->hlo) != isnan(c->hhi)))
		return pv_err_set(e, "inconsistent honest interval in a cmp "
				  "record");
	for (i = 0; i < 3 && !pv_str_eq(f[4], order_name[i]); i++)
		;
	if (i == 3)
		return pv_field_bad(e, "ORDER", f[4],
				    "'interleaved', 'apart' or '-'");
	c->order = i;
	if (pv_field_get_num(f[5], &c->rho) < 0 || isinf(c->rho))
		return pv_field_bad(e, "RHO", f[5], "a number");
	if (pv_str_eq(f[6], "-"))
		c->quantum = 0;
	else if (pv_field_get_finite(f[6], &c->quantum) < 0 ||
		 !(c->quantum > 0))
		return pv_field_bad(e, "QUANTUM", f[6], "a positive number");
	return 0;
}

int
pv_rec_cmp_parse(const struct pv_record *rec, struct pv_cmp *c,
		 struct pv_err *e)
{
	static const char *const dname[] = {
		"CHANGE", "LO", "HI", "SE", "DF", "BOOT_LO", "BOOT_HI",
		"P_WELCH", "P_MWU", "HEDGES_G", "CLIFF", "RCV_B", "RCV_T"
	};
	double *dv[13];
	const struct pv_str *f = rec->field;
	size_t i;

	memset(c, 0, sizeof(*c));
	if (rec->nfield != 29 && rec->nfield != 36)
		return pv_err_set(e, "a cmp record has 29 or 36 fields, not %zu",
				  rec->nfield);
	if (pv_rec_key_get(rec, 1, &c->key, e) < 0)
		return -1;
	if (pv_field_get_size(f[11], &c->nb) < 0 ||
	    pv_field_get_size(f[12], &c->nt) < 0)
		return pv_err_set(e, "NB or NT is not a whole number");
	dv[0] = &c->change; dv[1] = &c->lo; dv[2] = &c->hi;
	dv[3] = &c->se; dv[4] = &c->df; dv[5] = &c->boot_lo;
	dv[6] = &c->boot_hi; dv[7] = &c->p_welch; dv[8] = &c->p_mwu;
	dv[9] = &c->g; dv[10] = &c->cliff; dv[11] = &c->rcv_b;
	dv[12] = &c->rcv_t;
	for (i = 0; i < 13; i++)
		if (pv_field_get_num(f[13 + i], dv[i]) < 0)
			return pv_field_bad(e, dname[i], f[13 + i],
					    "a number");
	/*
	 * Hedges' g may be infinite (no spread on either side); the change
	 * and its interval, logs of ratios of finite means, never are.
	 */
	for (i = 0; i < 4; i++)
		if (isinf(*dv[i]))
			return pv_err_set(e, "%s '%.*s' is not a finite number",
					  dname[i], (int)f[13 + i].len,
					  f[13 + i].s);
	if (pv_field_get_size(f[26], &c->out_b) < 0 ||
	    pv_field_get_size(f[27], &c->out_t) < 0)
		return pv_err_set(e, "OUT_B or OUT_T is not a whole number");
	if (pv_rec_cmp_flags_get(f[28], &c->flags) < 0)
		return pv_err_set(e, "unknown flag in '%.*s'",
				  (int)(f[28].len > 60 ? 60 : f[28].len),
				  f[28].s);
	if ((c->nb > 0 && c->nt > 0 && !(c->flags & PV_CMP_NONPOSITIVE) &&
	     isnan(c->change)) ||
	    (!isnan(c->p_welch) && !(c->p_welch >= 0 && c->p_welch <= 1)))
		return pv_err_set(e, "inconsistent cmp record");
	if (rec->nfield == 29) {
		/* before the honest interval: Welch's */
		c->hlo = c->lo;
		c->hhi = c->hi;
		c->hp = c->p_welch;
		c->trend = c->rho = NAN;
		return 0;
	}
	return get_honest(f + 29, c, e);
}

void
pv_rec_cmproll_write(struct pv_strbuf *sb, const struct pv_cmproll *r)
{
	pv_field_type(sb, "cmproll");
	pv_rec_key_add_scope(sb, &r->key, r->scope);
	pv_field_add_u64(sb, r->keys);
	pv_field_add_num(sb, r->change);
	pv_field_add_num(sb, r->lo);
	pv_field_add_num(sb, r->hi);
	pv_field_add_num(sb, r->worst);
	pv_field_end(sb);
}

int
pv_rec_cmproll_parse(const struct pv_record *rec, struct pv_cmproll *r,
		     struct pv_err *e)
{
	static const char *const name[4] = { "CHANGE", "LO", "HI", "WORST" };
	double *v[4];
	size_t i;

	memset(r, 0, sizeof(*r));
	if (rec->nfield != 12)
		return pv_field_count_bad(e, "cmproll", 12, rec->nfield);
	if (pv_rec_key_get_scope(rec, &r->key, &r->scope, e) < 0)
		return -1;
	if (pv_field_get_size(rec->field[7], &r->keys) < 0)
		return pv_field_bad(e, "KEYS", rec->field[7], "a whole number");
	v[0] = &r->change; v[1] = &r->lo; v[2] = &r->hi; v[3] = &r->worst;
	for (i = 0; i < 4; i++)
		if (pv_field_get_num(rec->field[8 + i], v[i]) < 0)
			return pv_field_bad(e, name[i], rec->field[8 + i],
					    "a number");
	return 0;
}
