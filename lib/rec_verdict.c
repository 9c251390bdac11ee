/*
 * rec_verdict: the verdict, systematic and detect records (see
 * rec_verdict.h).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "field.h"
#include "rec_verdict.h"

static const char *const class_name[] = {
	"regression", "improvement", "no-change", "uncertain"
};
static const char *const band_name[] = { "-", "green", "yellow", "red" };

const char *
pv_class_name(enum pv_class c)
{
	return class_name[c];
}

const char *
pv_band_name(enum pv_band b)
{
	return band_name[b];
}

static void
add_key(struct pv_strbuf *sb, const struct pv_runkey *key,
	struct pv_str key_text)
{
	if (key_text.len > 0)
		pv_strbuf_add(sb, key_text.s, key_text.len);
	else
		pv_rec_key_add(sb, key, 1);
}

static void
add_name(struct pv_strbuf *sb, const char *name)
{
	pv_field_add_raw(sb, name, strlen(name));
}

void
pv_rec_verdict_write(struct pv_strbuf *sb, const struct pv_verdict *v,
		     struct pv_str key_text)
{
	pv_field_type(sb, "verdict");
	add_key(sb, &v->cmp.key, key_text);
	add_name(sb, class_name[v->cls]);
	pv_field_add_u64(sb, (uint64_t)v->severity);
	add_name(sb, band_name[v->band]);
	pv_field_add_num(sb, v->cmp.change);
	/* the honest interval, where there is one */
	pv_field_add_num(sb, isnan(v->cmp.hlo) ? v->cmp.lo : v->cmp.hlo);
	pv_field_add_num(sb, isnan(v->cmp.hhi) ? v->cmp.hi : v->cmp.hhi);
	pv_field_add_num(sb, v->qvalue);
	pv_field_add_u64(sb, v->cmp.nb);
	pv_field_add_u64(sb, v->cmp.nt);
	if (v->runs > 0)
		pv_field_add_u64(sb, v->runs);
	else
		pv_field_add_raw(sb, "-", 1);
	pv_field_add(sb, v->reason, strlen(v->reason));
	pv_rec_cmp_flags_add(sb, v->flags);
	pv_field_end(sb);
}

int
pv_rec_verdict_parse(const struct pv_record *rec, struct pv_verdict *v,
		     struct pv_str *reason, struct pv_err *e)
{
	const struct pv_str *f = rec->field;
	size_t sev, i;

	memset(v, 0, sizeof(*v));
	if (rec->nfield != 22 && rec->nfield != 23)
		return pv_err_set(e, "a verdict record has 22 or 23 fields, not "
				  "%zu", rec->nfield);
	if (pv_rec_key_get(rec, 1, &v->cmp.key, e) < 0)
		return -1;
	for (i = 0; i < 4 && !pv_str_eq(f[11], class_name[i]); i++)
		;
	if (i == 4)
		return pv_err_set(e, "unknown class '%.*s'",
				  (int)(f[11].len > 40 ? 40 : f[11].len),
				  f[11].s);
	v->cls = (enum pv_class)i;
	if (pv_field_get_opt_size(f[12], &sev) < 0 || sev > 100)
		return pv_field_bad(e, "severity", f[12], "0 to 100");
	v->severity = (int)sev;
	for (i = 0; i < 4 && !pv_str_eq(f[13], band_name[i]); i++)
		;
	if (i == 4)
		return pv_err_set(e, "unknown band '%.*s'",
				  (int)(f[13].len > 40 ? 40 : f[13].len),
				  f[13].s);
	v->band = (enum pv_band)i;
	if (pv_field_get_opt_finite(f[14], &v->cmp.change) < 0 ||
	    pv_field_get_opt_finite(f[15], &v->cmp.lo) < 0 ||
	    pv_field_get_opt_finite(f[16], &v->cmp.hi) < 0 ||
	    pv_field_get_opt_finite(f[17], &v->qvalue) < 0)
		return pv_err_set(e, "CHANGE, LO, HI or QVALUE is not a "
				  "number");
	if (pv_field_get_opt_size(f[18], &v->cmp.nb) < 0 ||
	    pv_field_get_opt_size(f[19], &v->cmp.nt) < 0 ||
	    pv_field_get_opt_size(f[20], &v->runs) < 0)
		return pv_err_set(e, "NB, NT or RUNS is not a whole number");
	*reason = f[21];
	v->reason = NULL;
	if (rec->nfield == 23 && pv_rec_cmp_flags_get(f[22], &v->flags) < 0)
		return pv_err_set(e, "unknown flag in '%.*s'",
				  (int)(f[22].len > 60 ? 60 : f[22].len),
				  f[22].s);
	v->cmp.hlo = v->cmp.lo;
	v->cmp.hhi = v->cmp.hi;
	return 0;
}

void
pv_rec_systematic_write(struct pv_strbuf *sb, const struct pv_runkey *key,
			struct pv_str key_text, const struct pv_sysreg *s,
			const uint64_t *level, size_t nlevel)
{
	size_t start, i;

	pv_field_type(sb, "systematic");
	/* the key without its LEVEL */
	start = sb->len;
	add_key(sb, key, key_text);
	key_text.s = sb->buf + start;
	key_text.len = sb->len - start;
	pv_strbuf_setlen(sb, start +
			 pv_rec_key_text_levelless(key_text).len);
	pv_field_add_u64(sb, s->levels);
	pv_field_add_u64(sb, s->regressed);
	pv_field_next(sb);
	for (i = 0; i < nlevel; i++) {
		if (i > 0)
			pv_strbuf_addch(sb, ',');
		if (level[i] == PV_NONE)
			pv_strbuf_addch(sb, '-');
		else
			pv_strbuf_addu(sb, level[i]);
	}
	pv_field_add_u64(sb, s->bands[PV_BAND_RED]);
	pv_field_add_u64(sb, s->bands[PV_BAND_YELLOW]);
	pv_field_add_u64(sb, s->bands[PV_BAND_GREEN]);
	pv_field_add_num(sb, s->dmin);
	pv_field_add_num(sb, s->dmax);
	pv_field_add_num(sb, s->pooled);
	pv_field_add_num(sb, s->p);
	pv_field_end(sb);
}

int
pv_rec_systematic_parse(const struct pv_record *rec, struct pv_runkey *key,
			struct pv_sysreg *s, struct pv_str *levels,
			struct pv_err *e)
{
	const struct pv_str *f = rec->field;

	memset(s, 0, sizeof(*s));
	if (rec->nfield != 20)
		return pv_field_count_bad(e, "systematic", 20, rec->nfield);
	if (pv_rec_key_get(rec, 1, key, e) < 0)
		return -1;
	key->level = PV_NONE;
	if (pv_field_get_opt_size(f[10], &s->levels) < 0 ||
	    pv_field_get_opt_size(f[11], &s->regressed) < 0 ||
	    pv_field_get_opt_size(f[13], &s->bands[PV_BAND_RED]) < 0 ||
	    pv_field_get_opt_size(f[14], &s->bands[PV_BAND_YELLOW]) < 0 ||
	    pv_field_get_opt_size(f[15], &s->bands[PV_BAND_GREEN]) < 0)
		return pv_err_set(e, "a count of the systematic record is not "
				  "a whole number");
	*levels = f[12];
	if (pv_field_get_opt_finite(f[16], &s->dmin) < 0 ||
	    pv_field_get_opt_finite(f[17], &s->dmax) < 0 ||
	    pv_field_get_opt_finite(f[18], &s->pooled) < 0 ||
	    pv_field_get_opt_finite(f[19], &s->p) < 0)
		return pv_err_set(e, "a number of the systematic record is "
				  "not a number");
	s->systematic = 1;
	return 0;
}

void
pv_rec_detect_write(struct pv_strbuf *sb, const struct pv_cmp *c,
		    double mde, struct pv_str key_text)
{
	pv_field_type(sb, "detect");
	add_key(sb, &c->key, key_text);
	pv_field_add_u64(sb, c->nb);
	pv_field_add_u64(sb, c->nt);
	pv_field_add_num(sb, c->rcv_b);
	pv_field_add_num(sb, c->rcv_t);
	pv_field_add_num(sb, mde);
	pv_field_end(sb);
}

int
pv_rec_detect_parse(const struct pv_record *rec, struct pv_cmp *c,
		    double *mde, struct pv_err *e)
{
	const struct pv_str *f = rec->field;

	memset(c, 0, sizeof(*c));
	if (rec->nfield != 16)
		return pv_field_count_bad(e, "detect", 16, rec->nfield);
	if (pv_rec_key_get(rec, 1, &c->key, e) < 0)
		return -1;
	if (pv_field_get_opt_size(f[11], &c->nb) < 0 ||
	    pv_field_get_opt_size(f[12], &c->nt) < 0 ||
	    pv_field_get_opt_finite(f[13], &c->rcv_b) < 0 ||
	    pv_field_get_opt_finite(f[14], &c->rcv_t) < 0 ||
	    pv_field_get_opt_finite(f[15], mde) < 0)
		return pv_err_set(e, "a number of the detect record is not a "
				  "number");
	return 0;
}
