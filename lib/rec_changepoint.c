/*
 * rec_changepoint: the changepoint, outlier and trend records (see
 * rec_changepoint.h).
 */
#include "config.h"

#include <string.h>

#include "field.h"
#include "rec_changepoint.h"

static const char *const flag_name[] = { "newest", "known" };
#define NFLAGS (sizeof(flag_name) / sizeof(flag_name[0]))

void
pv_rec_series_key_add(struct pv_strbuf *sb, const struct pv_runkey *key)
{
	pv_field_add_opt_str(sb, key->experiment);
	pv_rec_key_add(sb, key, 0);
}

struct pv_str
pv_rec_runval_series_key_text(const struct pv_record *rec)
{
	struct pv_str s = { NULL, 0 };
	const char *lo = rec->raw.s, *hi = rec->raw.s + rec->raw.len;
	size_t i;

	/* runval ROLE VERSION EXPERIMENT ... LEVEL RUN NVALUES VALUE */
	if (rec->folded || rec->nfield < 11)
		return s;
	for (i = 3; i <= 10; i++)
		if (rec->field[i].s <= lo || rec->field[i].s > hi ||
		    rec->field[i].s[-1] != '\t')
			return s;
	s.s = rec->field[3].s - 1;
	s.len = (size_t)(rec->field[10].s + rec->field[10].len - s.s);
	return s;
}

static void
add_key(struct pv_strbuf *sb, const struct pv_runkey *key,
	struct pv_str key_text)
{
	if (key_text.len > 0)
		pv_strbuf_add(sb, key_text.s, key_text.len);
	else
		pv_rec_series_key_add(sb, key);
}

static struct pv_str
opt(struct pv_str f)
{
	if (pv_str_eq(f, "-"))
		f.len = 0;
	return f;
}

/*
 * The key fields EXPERIMENT ... LEVEL, field[1] to field[8], with the
 * words of pv_rec_key_get() (which reads them from ROLE on).
 */
static int
get_key7(const struct pv_record *rec, struct pv_runkey *k, struct pv_err *e)
{
	const struct pv_str *f = rec->field;

	memset(k, 0, sizeof(*k));
	k->level = PV_NONE;
	k->experiment = opt(f[1]);
	k->suite = opt(f[2]);
	k->test = opt(f[3]);
	k->operation = opt(f[4]);
	k->metric = opt(f[5]);
	k->unit = opt(f[6]);
	if (pv_str_eq(f[7], "higher"))
		k->direction = PV_HIGHER_BETTER;
	else if (pv_str_eq(f[7], "lower"))
		k->direction = PV_LOWER_BETTER;
	else
		return pv_err_set(e, "direction '%.*s' is neither 'higher' "
				  "nor 'lower'", (int)(f[7].len > 40 ? 40 :
						       f[7].len), f[7].s);
	return 0;
}

static int
get_key(const struct pv_record *rec, struct pv_runkey *k, struct pv_err *e)
{
	const struct pv_str *f = rec->field;

	if (get_key7(rec, k, e) < 0)
		return -1;
	if (pv_field_get_opt_u64(f[8], &k->level) < 0 ||
	    (k->level == PV_NONE && !pv_str_eq(f[8], "-")))
		return pv_field_bad(e, "level", f[8], "a whole number");
	return 0;
}

/* Numbers of fields f[first ...], named by name[]. */
static int
get_nums(const struct pv_record *rec, size_t first, const char *const *name,
	 double *const *v, size_t n, struct pv_err *e)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pv_field_get_num(rec->field[first + i], v[i]) < 0)
			return pv_field_bad(e, name[i], rec->field[first + i],
					    "a number");
	return 0;
}

/* FLAGS: the names of the flags set, comma-separated, or '-' */
static void
add_flags(struct pv_strbuf *sb, unsigned flags)
{
	char buf[32];
	size_t i, n = 0;

	for (i = 0; i < NFLAGS; i++) {
		size_t len = strlen(flag_name[i]);

		if (!(flags & (1u << i)))
			continue;
		if (n > 0)
			buf[n++] = ',';
		memcpy(buf + n, flag_name[i], len);
		n += len;
	}
	if (n == 0)
		buf[n++] = '-';
	pv_field_add_raw(sb, buf, n);
}

void
pv_rec_changepoint_write(struct pv_strbuf *sb, const struct pv_changepoint *c,
			 struct pv_str key_text)
{
	pv_field_type(sb, "changepoint");
	add_key(sb, &c->key, key_text);
	pv_field_add_opt_str(sb, c->before);
	pv_field_add_opt_str(sb, c->after);
	pv_field_add_num(sb, c->change);
	pv_field_add_num(sb, c->lo);
	pv_field_add_num(sb, c->hi);
	pv_field_add_num(sb, c->p);
	pv_field_add_u64(sb, c->nbefore);
	pv_field_add_u64(sb, c->nafter);
	add_flags(sb, c->flags);
	pv_field_end(sb);
}

static int
get_flags(struct pv_str f, unsigned *flags, struct pv_err *e)
{
	const char *p = f.s, *end = f.s + f.len;
	size_t i;

	*flags = 0;
	if (pv_str_eq(f, "-"))
		return 0;
	while (p <= end) {
		const char *q = memchr(p, ',', (size_t)(end - p));
		struct pv_str w;

		if (q == NULL)
			q = end;
		w.s = p;
		w.len = (size_t)(q - p);
		for (i = 0; i < NFLAGS; i++)
			if (pv_str_eq(w, flag_name[i]))
				break;
		if (i == NFLAGS)
			return pv_field_bad(e, "FLAGS", f, "a list of newest "
					    "and known");
		*flags |= 1u << i;
		p = q + 1;
	}
	return 0;
}

int
pv_rec_changepoint_parse(const struct pv_record *rec,
			 struct pv_changepoint *c, struct pv_err *e)
{
	static const char *const name[] = { "CHANGE", "LO", "HI", "P" };
	double *const v[] = { &c->change, &c->lo, &c->hi, &c->p };

	memset(c, 0, sizeof(*c));
	if (rec->nfield != 18)
		return pv_field_count_bad(e, "changepoint", 18, rec->nfield);
	if (get_key(rec, &c->key, e) < 0)
		return -1;
	c->before = opt(rec->field[9]);
	c->after = opt(rec->field[10]);
	if (get_nums(rec, 11, name, v, 4, e) < 0)
		return -1;
	if (pv_field_get_u64(rec->field[15], &c->nbefore) < 0)
		return pv_field_bad(e, "N_BEFORE", rec->field[15],
				    "a whole number");
	if (pv_field_get_u64(rec->field[16], &c->nafter) < 0)
		return pv_field_bad(e, "N_AFTER", rec->field[16],
				    "a whole number");
	return get_flags(rec->field[17], &c->flags, e);
}

void
pv_rec_outlier_write(struct pv_strbuf *sb, const struct pv_outlier *o,
		     struct pv_str key_text)
{
	pv_field_type(sb, "outlier");
	add_key(sb, &o->key, key_text);
	pv_field_add_opt_str(sb, o->version);
	pv_field_add_num(sb, o->change);
	pv_field_add_num(sb, o->p);
	add_flags(sb, o->flags);
	pv_field_end(sb);
}

int
pv_rec_outlier_parse(const struct pv_record *rec, struct pv_outlier *o,
		     struct pv_err *e)
{
	static const char *const name[] = { "CHANGE", "P" };
	double *const v[] = { &o->change, &o->p };

	memset(o, 0, sizeof(*o));
	if (rec->nfield != 13)
		return pv_field_count_bad(e, "outlier", 13, rec->nfield);
	if (get_key(rec, &o->key, e) < 0)
		return -1;
	o->version = opt(rec->field[9]);
	if (get_nums(rec, 10, name, v, 2, e) < 0)
		return -1;
	return get_flags(rec->field[12], &o->flags, e);
}

void
pv_rec_trend_write(struct pv_strbuf *sb, const struct pv_trend *t,
		   struct pv_str key_text)
{
	pv_field_type(sb, "trend");
	add_key(sb, &t->key, key_text);
	pv_field_add_opt_str(sb, t->first);
	pv_field_add_opt_str(sb, t->last);
	pv_field_add_num(sb, t->change);
	pv_field_add_num(sb, t->lo);
	pv_field_add_num(sb, t->hi);
	pv_field_add_num(sb, t->p);
	pv_field_end(sb);
}

int
pv_rec_trend_parse(const struct pv_record *rec, struct pv_trend *t,
		   struct pv_err *e)
{
	static const char *const name[] = { "CHANGE", "LO", "HI", "P" };
	double *const v[] = { &t->change, &t->lo, &t->hi, &t->p };

	memset(t, 0, sizeof(*t));
	if (rec->nfield != 15)
		return pv_field_count_bad(e, "trend", 15, rec->nfield);
	if (get_key(rec, &t->key, e) < 0)
		return -1;
	t->first = opt(rec->field[9]);
	t->last = opt(rec->field[10]);
	return get_nums(rec, 11, name, v, 4, e);
}

void
pv_rec_cpgroup_write(struct pv_strbuf *sb, const struct pv_cpgroup *g)
{
	const struct pv_runkey *k = &g->key;

	pv_field_type(sb, "cpgroup");
	pv_field_add_opt_str(sb, k->experiment);
	pv_field_add_opt_str(sb, k->suite);
	pv_field_add_opt_str(sb, k->test);
	pv_field_add_opt_str(sb, k->operation);
	pv_field_add_opt_str(sb, k->metric);
	pv_field_add_opt_str(sb, k->unit);
	pv_field_add_opt(sb, k->direction == PV_LOWER_BETTER ? "lower" :
			 "higher");
	pv_field_add_opt_str(sb, g->before);
	pv_field_add_opt_str(sb, g->after);
	pv_field_add_u64(sb, g->levels);
	pv_field_add_opt_str(sb, g->level_list);
	pv_field_add_num(sb, g->change_min);
	pv_field_add_num(sb, g->change_max);
	add_flags(sb, g->flags);
	pv_field_end(sb);
}

int
pv_rec_cpgroup_parse(const struct pv_record *rec, struct pv_cpgroup *g,
		     struct pv_err *e)
{
	static const char *const name[] = { "CHANGE_MIN", "CHANGE_MAX" };
	double *const v[] = { &g->change_min, &g->change_max };

	memset(g, 0, sizeof(*g));
	if (rec->nfield != 15)
		return pv_field_count_bad(e, "cpgroup", 15, rec->nfield);
	if (get_key7(rec, &g->key, e) < 0)
		return -1;
	g->before = opt(rec->field[8]);
	g->after = opt(rec->field[9]);
	if (pv_field_get_u64(rec->field[10], &g->levels) < 0 ||
	    g->levels < 2)
		return pv_field_bad(e, "LEVELS", rec->field[10],
				    "a whole number from 2");
	g->level_list = opt(rec->field[11]);
	if (get_nums(rec, 12, name, v, 2, e) < 0)
		return -1;
	return get_flags(rec->field[14], &g->flags, e);
}

void
pv_rec_scanned_write(struct pv_strbuf *sb, const struct pv_scanned *s)
{
	pv_field_type(sb, "scanned");
	pv_field_add_u64(sb, s->keys);
	pv_field_add_u64(sb, s->versions);
	pv_field_end(sb);
}

int
pv_rec_scanned_parse(const struct pv_record *rec, struct pv_scanned *s,
		     struct pv_err *e)
{
	memset(s, 0, sizeof(*s));
	if (rec->nfield != 3)
		return pv_field_count_bad(e, "scanned", 3, rec->nfield);
	if (pv_field_get_u64(rec->field[1], &s->keys) < 0)
		return pv_field_bad(e, "KEYS", rec->field[1],
				    "a whole number");
	if (pv_field_get_u64(rec->field[2], &s->versions) < 0)
		return pv_field_bad(e, "VERSIONS", rec->field[2],
				    "a whole number");
	return 0;
}
