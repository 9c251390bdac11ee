/*
 * rec_key: the key fields of the statistics records (see rec_key.h).
 */
#include "config.h"

#include <string.h>

#include "field.h"
#include "rec_key.h"

static const char *const scope_name[PV_NSCOPE] = { "test", "suite", "run" };

void
pv_rec_key_add_section(struct pv_strbuf *sb, const struct pv_runkey *k)
{
	pv_field_add_opt_str(sb, k->role);
	pv_field_add_opt_str(sb, k->version);
	pv_field_add_opt_str(sb, k->experiment);
}

void
pv_rec_key_add(struct pv_strbuf *sb, const struct pv_runkey *k,
	       int with_section)
{
	if (with_section)
		pv_rec_key_add_section(sb, k);
	pv_field_add_opt_str(sb, k->suite);
	pv_field_add_opt_str(sb, k->test);
	pv_field_add_opt_str(sb, k->operation);
	pv_field_add_opt_str(sb, k->metric);
	pv_field_add_opt_str(sb, k->unit);
	if (k->direction == PV_LOWER_BETTER)
		pv_field_add_raw(sb, "lower", 5);
	else
		pv_field_add_raw(sb, "higher", 6);
	pv_rec_key_add_level(sb, k->level);
}

void
pv_rec_key_add_level(struct pv_strbuf *sb, uint64_t level)
{
	pv_field_add_opt_u64(sb, level);
}

void
pv_rec_key_add_text(struct pv_strbuf *sb, const struct pv_runkey *key,
		    struct pv_str text)
{
	/* text is TAB ROLE TAB VERSION TAB EXPERIMENT ...: the third TAB */
	const char *end = text.s + text.len, *p = text.len ? text.s : NULL;
	int k;

	for (k = 0; k < 2 && p != NULL; k++)
		p = memchr(p + 1, '\t', (size_t)(end - p - 1));
	pv_field_add_opt_str(sb, key->role);
	pv_field_add_opt_str(sb, key->version);
	if (p != NULL)
		pv_strbuf_add(sb, p, (size_t)(end - p));
}

struct pv_str
pv_rec_key_text_levelless(struct pv_str text)
{
	while (text.len > 0 && text.s[text.len - 1] != '\t')
		text.len--;
	if (text.len > 0)
		text.len--;	/* the TAB before LEVEL */
	return text;
}

void
pv_rec_key_add_scope(struct pv_strbuf *sb, const struct pv_runkey *k,
		     enum pv_scope scope)
{
	static const struct pv_str none = { "", 0 };

	pv_rec_key_add_section(sb, k);
	pv_field_add_raw(sb, scope_name[scope], strlen(scope_name[scope]));
	pv_field_add_opt_str(sb, scope != PV_SCOPE_RUN ? k->suite : none);
	pv_field_add_opt_str(sb, scope == PV_SCOPE_TEST ? k->test : none);
}

struct pv_str
pv_rec_key_sample_span(const struct pv_record *rec)
{
	struct pv_str s = { NULL, 0 };
	const char *lo = rec->raw.s, *hi = rec->raw.s + rec->raw.len;
	size_t i;

	if (rec->folded || rec->nfield < 8)
		return s;
	for (i = 1; i <= 7; i++)
		if (rec->field[i].s < lo || rec->field[i].s > hi)
			return s;
	s.s = rec->field[1].s;
	s.len = (size_t)(rec->field[7].s + rec->field[7].len - s.s);
	return s;
}

int
pv_rec_key_span_is_text(struct pv_str span, struct pv_str level)
{
	size_t i;

	if (span.s[0] == '\t' || span.s[0] == '\r' ||
	    span.s[span.len - 1] == '\t')
		return 0;
	for (i = 1; i < span.len; i++)
		if (span.s[i] == '\r' || (span.s[i] == '\t' &&
					   span.s[i - 1] == '\t'))
			return 0;
	return level.len < 2 || level.s[0] != '0';
}

static struct pv_str
absent(struct pv_str f)
{
	if (f.len == 1 && f.s[0] == '-')
		f.len = 0;
	return f;
}

int
pv_rec_key_get(const struct pv_record *rec, size_t first,
	       struct pv_runkey *k, struct pv_err *e)
{
	const struct pv_str *f = rec->field + first;
	struct pv_str dir, lev;

	/* all of k is set whatever the outcome (the analyzer asks it) */
	memset(k, 0, sizeof(*k));
	if (rec->nfield < first + 10)
		return pv_err_set(e, "a '%.*s' record needs at least %zu "
				  "fields", (int)rec->field[0].len,
				  rec->field[0].s, first + 10);
	k->role = absent(f[0]);
	k->version = absent(f[1]);
	k->experiment = absent(f[2]);
	k->suite = absent(f[3]);
	k->test = absent(f[4]);
	k->operation = absent(f[5]);
	k->metric = absent(f[6]);
	k->unit = absent(f[7]);
	dir = f[8];
	if (pv_str_eq(dir, "higher"))
		k->direction = PV_HIGHER_BETTER;
	else if (pv_str_eq(dir, "lower"))
		k->direction = PV_LOWER_BETTER;
	else
		return pv_err_set(e, "direction '%.*s' is neither 'higher' "
				  "nor 'lower'",
				  (int)(dir.len > 40 ? 40 : dir.len), dir.s);
	lev = f[9];
	if (pv_field_get_opt_u64(lev, &k->level) < 0 ||
	    (k->level == PV_NONE && !pv_str_eq(lev, "-")))
		return pv_field_bad(e, "level", lev, "a whole number");
	return 0;
}

int
pv_rec_key_get_scope(const struct pv_record *rec, struct pv_runkey *k,
		     enum pv_scope *scope, struct pv_err *e)
{
	const struct pv_str *f = rec->field;
	int i;

	memset(k, 0, sizeof(*k));
	*scope = PV_SCOPE_TEST;
	if (rec->nfield < 7)
		return pv_err_set(e, "a '%.*s' record needs at least 7 fields",
				  (int)rec->field[0].len, rec->field[0].s);
	k->role = absent(f[1]);
	k->version = absent(f[2]);
	k->experiment = absent(f[3]);
	for (i = 0; i < PV_NSCOPE && !pv_str_eq(f[4], scope_name[i]); i++)
		;
	if (i == PV_NSCOPE)
		return pv_field_bad(e, "scope", f[4], "test, suite or run");
	*scope = (enum pv_scope)i;
	k->suite = absent(f[5]);
	k->test = absent(f[6]);
	k->level = PV_NONE;
	return 0;
}

int
pv_rec_key_cmp_measure(const struct pv_runkey *a, const struct pv_runkey *b)
{
	int c;

	if ((c = pv_str_cmp(a->experiment, b->experiment)) != 0 ||
	    (c = pv_str_cmp(a->suite, b->suite)) != 0 ||
	    (c = pv_str_cmp(a->test, b->test)) != 0 ||
	    (c = pv_str_cmp(a->operation, b->operation)) != 0 ||
	    (c = pv_str_cmp(a->metric, b->metric)) != 0 ||
	    (c = pv_str_cmp(a->unit, b->unit)) != 0)
		return c;
	if (a->direction != b->direction)
		return a->direction == PV_HIGHER_BETTER ? -1 : 1;
	return pv_rec_key_level_cmp(a->level, b->level);
}

int
pv_rec_key_cmp(const struct pv_runkey *a, const struct pv_runkey *b)
{
	int c;

	if ((c = pv_str_cmp(a->role, b->role)) != 0 ||
	    (c = pv_str_cmp(a->version, b->version)) != 0)
		return c;
	return pv_rec_key_cmp_measure(a, b);
}
