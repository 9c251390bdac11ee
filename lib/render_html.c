/*
 * render_html: the HTML report (see render_html.h).  This file collects
 * the sections and the profile comparisons and writes the document: its
 * skeleton, the profiles' context tables and data; the decision pages'
 * summary and data come from render_decision.c.  The page's behaviour
 * lives in the parts of lib/html/report/ and its look in lib/html/report.css.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "field.h"
#include "html_assets.h"
#include "numfmt.h"
#include "rec_profile.h"
#include "render_html_private.h"
#include "sha256.h"
#include "xalloc.h"

static void
profile_init(struct profile *p, uint32_t empty)
{
	memset(p, 0, sizeof(*p));
	p->base = p->target = p->experiment = empty;
	p->level = PV_NONE;
}

struct pv_html *
pv_html_new(void)
{
	struct pv_html *h = pv_xcalloc(1, sizeof(*h));

	pv_symtab_init(&h->names);
	pv_symtab_init(&h->str);
	h->empty = pv_symtab_intern(&h->str, "", 0);
	h->cur_version = h->cur_experiment = h->empty;
	h->min_share = PV_HTML_MIN_SHARE;
	profile_init(&h->stacks, h->empty);
	h->dec = pv_render_decision_new(&h->str);
	return h;
}

static void
side_release(struct side *s)
{
	size_t i;

	for (i = 0; i < s->nkv; i++) {
		free(s->kv[i].key);
		free(s->kv[i].value);
	}
	free(s->kv);
	free(s->version);
	free(s->experiment);
}

static void
profile_release(struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nev; i++) {
		free(p->ev[i].name);
		pv_flametree_release(&p->ev[i].tree);
		free(p->ev[i].func);
		free(p->ev[i].grp);
	}
	free(p->ev);
	free(p->rm);
	free(p->fgroup);
	side_release(&p->diff);
}

void
pv_html_free(struct pv_html *h)
{
	size_t i;

	if (h == NULL)
		return;
	for (i = 0; i < h->nprof; i++)
		profile_release(&h->prof[i]);
	free(h->prof);
	profile_release(&h->stacks);
	for (i = 0; i < h->nsect; i++)
		free(h->sect[i].fact);
	free(h->sect);
	side_release(&h->side[0]);
	side_release(&h->side[1]);
	free(h->frames);
	pv_render_decision_free(h->dec);
	pv_symtab_release(&h->str);
	pv_symtab_release(&h->names);
	free(h);
}

void
pv_html_set_min_share(struct pv_html *h, double share)
{
	h->min_share = share;
}

void
pv_html_set_event(struct pv_html *h, const char *event)
{
	h->only = event;
}

void
pv_html_set_artifacts(struct pv_html *h, const char *dir)
{
	pv_render_decision_set_artifacts(h->dec, dir);
}

const char *
pv_html_error(const struct pv_html *h)
{
	return h->err;
}

static int
bad(struct pv_html *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
bad(struct pv_html *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->err, sizeof(h->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* Collecting */

static uint32_t
intern(struct pv_html *h, struct pv_str s)
{
	return pv_symtab_intern(&h->str, s.s, s.len);
}

static struct event *
event_of(struct profile *p, struct pv_str name)
{
	struct event *e;
	size_t i;

	for (i = 0; i < p->nev; i++) {
		e = &p->ev[i];
		if (strlen(e->name) == name.len &&
		    memcmp(e->name, name.s, name.len) == 0)
			return e;
	}
	PV_GROW(p->ev, p->nev + 1, p->ev_alloc);
	e = &p->ev[p->nev++];
	memset(e, 0, sizeof(*e));
	e->name = pv_xmemdup(name.s, name.len);
	pv_flametree_init(&e->tree);
	return e;
}

static void
side_add(struct side *s, int env, struct pv_str key, struct pv_str value)
{
	struct kv *kv;

	PV_GROW(s->kv, s->nkv + 1, s->alloc);
	kv = &s->kv[s->nkv++];
	kv->env = env;
	kv->key = pv_xmemdup(key.s, key.len);
	kv->value = pv_xmemdup(value.s, value.len);
}

static void
side_name(struct side *s, const struct pv_record *rec)
{
	if (s->seen++)
		return;		/* the first section of a role names it */
	s->version = pv_xmemdup(rec->version.s, rec->version.len);
	s->experiment = pv_xmemdup(rec->experiment.s, rec->experiment.len);
}

/*
 * The profile of the records of a diff section, or of dstack records that
 * come without one.
 */
static struct profile *
diff_profile(struct pv_html *h)
{
	if (!h->in_diff) {
		PV_GROW(h->prof, h->nprof + 1, h->prof_alloc);
		profile_init(&h->prof[h->nprof++], h->empty);
		h->in_diff = 1;
	}
	return &h->prof[h->nprof - 1];
}

/* A diff section's VERSION, BASE..TARGET, into the profile's ids. */
static void
diff_versions(struct pv_html *h, struct profile *p, struct pv_str v)
{
	const char *dots = NULL;
	size_t i;
	struct pv_str b, t;

	for (i = 0; i + 1 < v.len; i++)
		if (v.s[i] == '.' && v.s[i + 1] == '.') {
			dots = v.s + i;
			break;
		}
	if (dots == NULL)
		return;
	b.s = v.s;
	b.len = (size_t)(dots - v.s);
	t.s = dots + 2;
	t.len = v.len - b.len - 2;
	/* pv-diff writes an absent version '-' */
	p->base = pv_str_eq(b, "-") ? h->empty : intern(h, b);
	p->target = pv_str_eq(t, "-") ? h->empty : intern(h, t);
}

static void
section(struct pv_html *h, const struct pv_record *rec)
{
	struct pv_html_sect *s;
	struct profile *p;

	h->cur_sect = h->nsect;
	h->in_diff = 0;
	h->cur_version = intern(h, rec->version);
	h->cur_experiment = intern(h, rec->experiment);
	if (pv_str_eq(rec->role, "diff")) {
		h->role = ROLE_DIFF;
		p = diff_profile(h);
		side_name(&p->diff, rec);
		diff_versions(h, p, rec->version);
		p->experiment = h->cur_experiment;
		return;
	}
	if (pv_str_eq(rec->role, "baseline")) {
		h->role = ROLE_BASE;
		side_name(&h->side[0], rec);
	} else if (pv_str_eq(rec->role, "target")) {
		h->role = ROLE_TARGET;
		side_name(&h->side[1], rec);
	} else {
		h->role = ROLE_OTHER;
	}
	PV_GROW(h->sect, h->nsect + 1, h->sect_alloc);
	s = &h->sect[h->nsect++];
	memset(s, 0, sizeof(*s));
	s->role = intern(h, rec->role);
	s->version = h->cur_version;
	s->experiment = h->cur_experiment;
	s->level = PV_NONE;
}

static void
fact(struct pv_html *h, const struct pv_record *rec)
{
	int env = rec->type == PV_REC_ENV;
	uint64_t level;
	struct pv_html_sect *s;
	struct profile *p;

	if (h->role == ROLE_BASE || h->role == ROLE_TARGET)
		side_add(&h->side[h->role == ROLE_TARGET], env, rec->key,
			 rec->value);
	if (h->role == ROLE_DIFF) {
		p = &h->prof[h->nprof - 1];
		side_add(&p->diff, env, rec->key, rec->value);
		if (!env && pv_str_eq(rec->key, "level") &&
		    pv_field_get_u64(rec->value, &level) == 0)
			p->level = level;
		if (!env && pv_str_eq(rec->key, "shares") &&
		    pv_str_eq(rec->value, "baseline"))
			p->raw = 1;
		return;
	}
	if (h->cur_sect == h->nsect) {
		/* facts before any section: an unnamed one */
		PV_GROW(h->sect, h->nsect + 1, h->sect_alloc);
		s = &h->sect[h->nsect++];
		memset(s, 0, sizeof(*s));
		s->role = s->version = s->experiment = h->empty;
		s->level = PV_NONE;
		h->cur_sect = h->nsect - 1;
	}
	s = &h->sect[h->cur_sect];
	if (!env && pv_str_eq(rec->key, "level") &&
	    pv_field_get_u64(rec->value, &level) == 0)
		s->level = level;
	PV_GROW(s->fact, s->nfact + 1, s->alloc);
	s->fact[s->nfact].key = intern(h, rec->key);
	s->fact[s->nfact].value = intern(h, rec->value);
	s->fact[s->nfact++].env = env;
}

static int
add_path(struct pv_html *h, struct event *e, const struct pv_str *frame,
	 size_t nframe, uint64_t w0, uint64_t w1)
{
	size_t i;

	PV_GROW(h->frames, nframe, h->frames_alloc);
	for (i = 0; i < nframe; i++)
		h->frames[i] = pv_symtab_intern(&h->names, frame[i].s,
						frame[i].len);
	if (pv_flametree_add(&e->tree, h->frames, nframe, w0, w1) < 0)
		return bad(h, "%s", pv_err_msg(&e->tree.err));
	return 0;
}

/* A record's error, named as the codec words it. */
static int
bad_rec(struct pv_html *h, const struct pv_err *e)
{
	return bad(h, "%s", pv_err_msg(e));
}

static int
total(struct pv_html *h, const struct pv_record *rec)
{
	struct pv_err err = PV_ERR_INIT;
	struct pv_rec_total t;
	struct event *e;

	if (pv_rec_total_parse(rec, &t, &err) < 0)
		return bad_rec(h, &err);
	e = event_of(diff_profile(h), t.event);
	memcpy(e->total, t.period, sizeof(e->total));
	memcpy(e->samples, t.samples, sizeof(e->samples));
	e->have_total = 1;
	return 0;
}

static int
dstack(struct pv_html *h, const struct pv_record *rec)
{
	struct pv_err err = PV_ERR_INIT;
	struct pv_rec_dstack d;

	if (pv_rec_dstack_parse(rec, &d, &err) < 0)
		return bad_rec(h, &err);
	return add_path(h, event_of(diff_profile(h), d.event), d.frame,
			d.nframe, d.period[0], d.period[1]);
}

static int
rootmerge(struct pv_html *h, const struct pv_record *rec)
{
	struct pv_err err = PV_ERR_INIT;
	struct pv_rec_rootmerge m;
	struct profile *p;
	struct rootmerge *r;

	if (pv_rec_rootmerge_parse(rec, &m, &err) < 0)
		return bad_rec(h, &err);
	p = diff_profile(h);
	PV_GROW(p->rm, p->nrm + 1, p->rm_alloc);
	r = &p->rm[p->nrm++];
	r->name[0] = intern(h, m.name[0]);
	r->name[1] = intern(h, m.name[1]);
	r->score = m.score;
	return 0;
}

/*
 * The counts of a func record are what the page shows; it takes the
 * shares from them and the totals (the record's denominators, those of
 * pv-diff --raw included: see emit_summary()), and its changes for the
 * ranking of the suspects.
 */
static int
func(struct pv_html *h, const struct pv_record *rec)
{
	struct pv_err err = PV_ERR_INIT;
	struct pv_rec_func r;
	struct event *e;
	struct func *f;

	if (pv_rec_func_parse(rec, &r, &err) < 0)
		return bad_rec(h, &err);
	e = event_of(diff_profile(h), r.event);
	e->from_func = 1;
	PV_GROW(e->func, e->nfunc + 1, e->func_alloc);
	f = &e->func[e->nfunc++];
	f->name = pv_symtab_intern(&h->names, r.name.s, r.name.len);
	f->v[0] = r.incl[0];
	f->v[1] = r.excl[0];
	f->v[2] = r.incl[1];
	f->v[3] = r.excl[1];
	f->dincl = r.delta_incl;
	f->dexcl = r.delta_excl;
	return 0;
}

int
pv_html_add(struct pv_html *h, const struct pv_record *rec)
{
	static const struct pv_str nameless = { "", 0 };
	int rc;

	switch (rec->type) {
	case PV_REC_SECTION:
		section(h, rec);
		return 0;
	case PV_REC_META:
	case PV_REC_ENV:
		fact(h, rec);
		return 0;
	case PV_REC_STACK:
		if (rec->folded == 2)	/* diff-folded: both sides at once */
			return add_path(h, event_of(&h->stacks, nameless),
					rec->frame, rec->nframe, rec->period,
					rec->period2);
		if (h->role == ROLE_BASE || h->role == ROLE_TARGET)
			return add_path(h, event_of(&h->stacks, rec->event),
					rec->frame, rec->nframe,
					h->role == ROLE_BASE ? rec->period : 0,
					h->role == ROLE_TARGET ? rec->period :
					0);
		return 0;
	case PV_REC_SAMPLE:
		break;
	case PV_REC_OTHER:
		if (pv_str_eq(rec->field[0], "total"))
			return total(h, rec);
		if (pv_str_eq(rec->field[0], "dstack"))
			return dstack(h, rec);
		if (pv_str_eq(rec->field[0], "func"))
			return func(h, rec);
		if (pv_str_eq(rec->field[0], "rootmerge"))
			return rootmerge(h, rec);
		if (pv_str_eq(rec->field[0], "frame") ||
		    pv_str_eq(rec->field[0], "group"))
			return pv_render_groups_add(h, rec);
		break;
	default:
		return 0;
	}
	rc = pv_render_decision_add(h->dec, rec, h->cur_version,
				    h->cur_experiment);
	if (rc < 0)
		return bad(h, "%s", pv_render_decision_error(h->dec));
	return 0;
}

/* Escaping */

/* The length of the valid UTF-8 sequence at p, or 0. */
static size_t
utf8_len(const unsigned char *p, const unsigned char *end)
{
	size_t n, i;
	uint32_t c;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07;
	else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return n;
}

void
pv_html_escape(struct pv_strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	while (p < end) {
		size_t n = utf8_len(p, end);

		if (n == 0) {
			pv_strbuf_addstr(sb, "\xef\xbf\xbd");
			p++;
			continue;
		}
		switch (*p) {
		case '&': pv_strbuf_addstr(sb, "&amp;"); break;
		case '<': pv_strbuf_addstr(sb, "&lt;"); break;
		case '>': pv_strbuf_addstr(sb, "&gt;"); break;
		case '"': pv_strbuf_addstr(sb, "&quot;"); break;
		case '\'': pv_strbuf_addstr(sb, "&#39;"); break;
		default:
			if (*p < 0x20 && *p != '\t' && *p != '\n')
				pv_strbuf_addstr(sb, "\xef\xbf\xbd");
			else
				pv_strbuf_add(sb, p, n);
		}
		p += n;
	}
}

/*
 * Besides what JSON needs, '<', '>' and '&' are written as \u escapes, so
 * that no "</script" or "<!--" can appear.
 */
void
pv_html_json(struct pv_strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	pv_strbuf_addch(sb, '"');
	while (p < end) {
		size_t n = utf8_len(p, end);

		if (n == 0) {
			pv_strbuf_addstr(sb, "\\ufffd");
			p++;
			continue;
		}
		if (*p == '"' || *p == '\\')
			pv_strbuf_addf(sb, "\\%c", *p);
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
			pv_strbuf_addf(sb, "\\u%04x", *p);
		else
			pv_strbuf_add(sb, p, n);
		p += n;
	}
	pv_strbuf_addch(sb, '"');
}

void
pv_html_json_num(struct pv_strbuf *sb, double v)
{
	if (!isfinite(v))
		pv_strbuf_addstr(sb, "null");
	else
		pv_numfmt(sb, v);
}

static void
json_cstr(struct pv_strbuf *sb, const char *s)
{
	pv_html_json(sb, s != NULL ? s : "", s != NULL ? strlen(s) : 0);
}

static void
emit_side(struct pv_strbuf *sb, const char *key, const char *version,
	  const char *experiment)
{
	pv_strbuf_addf(sb, "\"%s\":{\"version\":", key);
	json_cstr(sb, version);
	pv_strbuf_addstr(sb, ",\"experiment\":");
	json_cstr(sb, experiment);
	pv_strbuf_addch(sb, '}');
}

/* The profiles shown: the diff sections', else the input's stacks. */
struct shown {
	const struct profile **p;
	size_t n;
};

static void
profiles_shown(struct pv_html *h, struct shown *s)
{
	size_t i, k;

	s->p = pv_xreallocarray(NULL, h->nprof + 1, sizeof(*s->p));
	s->n = 0;
	for (i = 0; i < h->nprof; i++)
		for (k = 0; k < h->prof[i].nev; k++)
			if (pv_render_profile_shown(h, &h->prof[i].ev[k])) {
				s->p[s->n++] = &h->prof[i];
				break;
			}
	/* the stacks of the input, with no comparison of them nor verdicts */
	if (s->n == 0 && pv_render_decision_count(h->dec) == 0)
		for (k = 0; k < h->stacks.nev; k++)
			if (pv_render_profile_shown(h, &h->stacks.ev[k])) {
				s->p[s->n++] = &h->stacks;
				break;
			}
}

static const char *
str_of(const struct pv_html *h, uint32_t id)
{
	return h->str.sym[id].s;
}

/*
 * Whether section sc is of side s (0 baseline, 1 target) of profile p: of
 * its version, experiment and level (and role, where both sides have the
 * same version).
 */
static int
sect_of(const struct pv_html *h, const struct profile *p,
	const struct pv_html_sect *sc, int s)
{
	uint32_t v = s == 0 ? p->base : p->target;

	if (sc->version != v || sc->experiment != p->experiment ||
	    (p->level != PV_NONE && sc->level != p->level))
		return 0;
	return p->base != p->target ||
		strcmp(str_of(h, sc->role), s == 0 ? "baseline" : "target") == 0;
}

/*
 * Whether the input holds sections of both sides of p: then they are its
 * context; else (pv-diff's output of two profiles, the stacks of the
 * input) every baseline and every target section is.
 */
static int
matched(const struct pv_html *h, const struct profile *p)
{
	unsigned found = 0;
	size_t i;
	int s;

	if (p == &h->stacks || !p->diff.seen || p->base == h->empty ||
	    p->target == h->empty)
		return 0;
	for (i = 0; i < h->nsect && found != 3; i++)
		for (s = 0; s < 2; s++)
			if (sect_of(h, p, &h->sect[i], s))
				found |= 1u << s;
	return found == 3;
}

/* The versions and experiments a profile compares. */
static void
profile_names(const struct pv_html *h, const struct profile *p,
	      const char **v, const char **e)
{
	int s;

	for (s = 0; s < 2; s++) {
		if (matched(h, p)) {
			v[s] = str_of(h, s == 0 ? p->base : p->target);
			e[s] = str_of(h, p->experiment);
		} else {
			v[s] = h->side[s].version;
			e[s] = h->side[s].experiment;
		}
	}
}

/* The list of profiles, with their summaries, for the page's data. */
static void
emit_profiles(struct pv_html *h, struct pv_strbuf *sb,
	      const struct shown *s)
{
	size_t i, k, n;
	const char *v[2], *e[2];

	pv_strbuf_addstr(sb, "\"profiles\":[");
	for (i = 0; i < s->n; i++) {
		const struct profile *p = s->p[i];

		profile_names(h, p, v, e);
		pv_strbuf_addstr(sb, i > 0 ? ",{" : "{");
		emit_side(sb, "base", v[0], e[0]);
		pv_strbuf_addch(sb, ',');
		emit_side(sb, "target", v[1], e[1]);
		pv_strbuf_addstr(sb, ",\"level\":");
		if (p->level == PV_NONE)
			pv_strbuf_addstr(sb, "null");
		else
			pv_strbuf_addf(sb, "%llu",
				       (unsigned long long)p->level);
		pv_strbuf_addf(sb, ",\"raw\":%s", p->raw ? "true" : "false");
		/* the root frames pv-diff merged, when it did */
		for (k = 0; k < p->nrm; k++) {
			pv_strbuf_addstr(sb, k > 0 ? ",[" : ",\"roots\":[[");
			json_cstr(sb, str_of(h, p->rm[k].name[0]));
			pv_strbuf_addch(sb, ',');
			json_cstr(sb, str_of(h, p->rm[k].name[1]));
			pv_strbuf_addch(sb, ',');
			pv_html_json_num(sb, p->rm[k].score);
			pv_strbuf_addstr(sb, k + 1 == p->nrm ? "]]" : "]");
		}
		pv_strbuf_addstr(sb, ",\"meta\":[");
		for (k = 0; k < p->diff.nkv; k++) {
			pv_strbuf_addstr(sb, k > 0 ? ",[" : "[");
			json_cstr(sb, p->diff.kv[k].env ? "env" : "meta");
			pv_strbuf_addch(sb, ',');
			json_cstr(sb, p->diff.kv[k].key);
			pv_strbuf_addch(sb, ',');
			json_cstr(sb, p->diff.kv[k].value);
			pv_strbuf_addch(sb, ']');
		}
		pv_strbuf_addstr(sb, "],\"events\":[");
		for (k = n = 0; k < p->nev; k++) {
			if (!pv_render_profile_shown(h, &p->ev[k]))
				continue;
			if (n++ > 0)
				pv_strbuf_addch(sb, ',');
			pv_render_profile_summary(h, sb, p, &p->ev[k]);
		}
		pv_strbuf_addstr(sb, "]}");
	}
	pv_strbuf_addch(sb, ']');
}

/*
 * The join's view of the profiles: their versions, experiment and level,
 * and the top suspects of their first event shown.
 */
static struct pv_render_decision_prof *
join_profiles(struct pv_html *h, const struct shown *s)
{
	struct pv_render_decision_prof *jp;
	size_t i, k, j, idx[PV_DECISION_SUSPECTS], n;

	jp = pv_xcalloc(s->n + 1, sizeof(*jp));
	for (i = 0; i < s->n; i++) {
		const struct profile *p = s->p[i];

		jp[i].base = p->base;
		jp[i].target = p->target;
		jp[i].experiment = p->experiment;
		jp[i].level = p->level;
		for (k = 0; k < p->nev && !pv_render_profile_shown(h, &p->ev[k]); k++)
			;
		if (k == p->nev)
			continue;
		jp[i].event = p->ev[k].name;
		n = pv_render_profile_top(h, &p->ev[k], 0, idx,
					  PV_DECISION_SUSPECTS);
		for (j = 0; j < n; j++) {
			const struct func *f = &p->ev[k].func[idx[j]];

			jp[i].susp[j] = pv_symtab_get(&h->names, f->name);
			jp[i].dexcl[j] = f->dexcl;
			jp[i].dincl[j] = f->dincl;
		}
		jp[i].nsusp = n;
	}
	return jp;
}

/* Writing: the context tables */

static void
context_cell(struct pv_strbuf *sb, const char *v, int present)
{
	if (!present) {
		pv_strbuf_addstr(sb, "<td class=\"absent\">absent</td>");
		return;
	}
	pv_strbuf_addstr(sb, "<td>");
	pv_html_escape(sb, v, strlen(v));
	pv_strbuf_addstr(sb, "</td>");
}

/*
 * The change of a user's metric: both values whole numbers in the same
 * notation, the relative difference, as Perun shows it; else nothing.
 */
static void
change_cell(struct pv_strbuf *sb, const char *v0, int p0, const char *v1,
	    int p1)
{
	struct pv_str s0 = { v0, strlen(v0) }, s1 = { v1, strlen(v1) };
	double a, b;

	if (!p0 || !p1 || pv_parse_double(s0.s, s0.len, &a) < 0 ||
	    pv_parse_double(s1.s, s1.len, &b) < 0 || a == b || a == 0) {
		pv_strbuf_addstr(sb, "<td class=\"num\"></td>");
		return;
	}
	pv_strbuf_addf(sb, "<td class=\"num %s\">%+.2f%%</td>",
		       b > a ? "up" : "down", 100 * (b - a) / fabs(a));
}

static void
context_row(struct pv_strbuf *sb, const char *kind, const char *key,
	    const char *v0, int p0, const char *v1, int p1, int change)
{
	int differ = p0 != p1 || (p0 && strcmp(v0, v1) != 0);

	pv_strbuf_addf(sb, "<tr%s><th scope=\"row\"><span class=\"kind\">%s"
		       "</span> ", differ ? " class=\"differ\"" : "", kind);
	pv_html_escape(sb, key, strlen(key));
	pv_strbuf_addstr(sb, "</th>");
	context_cell(sb, v0, p0);
	context_cell(sb, v1, p1);
	if (change)
		change_cell(sb, v0, p0, v1, p1);
	pv_strbuf_addstr(sb, "</tr>\n");
}

/* All values of (env, key) on a side, joined by newlines; NULL if none. */
static char *
side_values(const struct side *s, int env, const char *key)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	size_t i, n = 0;

	for (i = 0; i < s->nkv; i++) {
		if (s->kv[i].env != env || strcmp(s->kv[i].key, key) != 0)
			continue;
		if (n++ > 0)
			pv_strbuf_addch(&sb, '\n');
		pv_strbuf_addstr(&sb, s->kv[i].value);
	}
	if (n == 0)
		return NULL;
	return pv_strbuf_detach(&sb, NULL);
}

static int
listed_before(const struct side *side, int upto_side, size_t upto,
	      const struct kv *kv)
{
	int s;
	size_t i;

	for (s = 0; s <= upto_side; s++)
		for (i = 0; i < (s == upto_side ? upto : side[s].nkv); i++)
			if (side[s].kv[i].env == kv->env &&
			    strcmp(side[s].kv[i].key, kv->key) == 0)
				return 1;
	return 0;
}

/* the facts of a run of pv-collect, one line each: not a first-screen row */
static int
run_fact(const struct kv *kv)
{
	return !kv->env && (strcmp(kv->key, "run") == 0 ||
			    strcmp(kv->key, "warmup") == 0);
}

/*
 * The rows of the facts of both sides, every key once in the order of
 * first appearance: which 0, the meta facts and the env facts that
 * differ; 1, every env fact and the runs' lines.
 */
static size_t
context_rows(struct pv_strbuf *sb, const struct side *side, int which)
{
	int s;
	size_t i, n = 0;

	for (s = 0; s < 2; s++) {
		for (i = 0; i < side[s].nkv; i++) {
			const struct kv *kv = &side[s].kv[i];
			char *v0, *v1;
			int differ, row;

			if (listed_before(side, s, i, kv))
				continue;
			v0 = side_values(&side[0], kv->env, kv->key);
			v1 = side_values(&side[1], kv->env, kv->key);
			differ = (v0 == NULL) != (v1 == NULL) ||
				(v0 != NULL && strcmp(v0, v1) != 0);
			if (which == 0)
				row = (!kv->env && !run_fact(kv)) ||
					(kv->env && differ);
			else
				row = kv->env || run_fact(kv);
			if (row) {
				context_row(sb, kv->env ? "env" : "meta",
					    kv->key, v0 ? v0 : "", v0 != NULL,
					    v1 ? v1 : "", v1 != NULL,
					    which == 0);
				n++;
			}
			free(v0);
			free(v1);
		}
	}
	return n;
}

/*
 * The sides of a profile comparison: the facts of its sections in out[],
 * where the input holds them (matched()), else every baseline and target
 * section's; in use[].
 */
static void
profile_sides(struct pv_html *h, const struct profile *p, struct side *out,
	      const struct side **use)
{
	size_t i, k;
	int s;

	memset(out, 0, 2 * sizeof(*out));
	use[0] = &h->side[0];
	use[1] = &h->side[1];
	if (!matched(h, p))
		return;
	for (i = 0; i < h->nsect; i++) {
		const struct pv_html_sect *sc = &h->sect[i];

		for (s = 0; s < 2; s++) {
			if (!sect_of(h, p, sc, s))
				continue;
			out[s].seen++;
			for (k = 0; k < sc->nfact; k++)
				side_add(&out[s], sc->fact[k].env,
					 pv_symtab_get(&h->str,
						       sc->fact[k].key),
					 pv_symtab_get(&h->str,
						       sc->fact[k].value));
		}
	}
	use[0] = &out[0];
	use[1] = &out[1];
}

static void
context_table(struct pv_html *h, struct pv_strbuf *sb, size_t index,
	      const struct profile *p, const struct pv_render_decision_prof *jp)
{
	struct side mine[2];
	const struct side *side[2];
	struct side both[2];
	const char *v[2], *e[2];
	struct pv_strbuf rows = PV_STRBUF_INIT;
	size_t i, n;

	profile_sides(h, p, mine, side);
	profile_names(h, p, v, e);
	both[0] = *side[0];
	both[1] = *side[1];
	pv_strbuf_addf(sb, "<div class=\"pcontext\" data-prof=\"%zu\"%s>\n"
		       "<table id=\"context-table-%zu\" class=\"context\">"
		       "<thead><tr><th scope=\"col\"></th><th scope=\"col\">"
		       "baseline</th><th scope=\"col\">target</th>"
		       "<th scope=\"col\">change</th></tr></thead>\n<tbody>\n",
		       index, index > 0 ? " hidden" : "", index);
	context_row(sb, "", "version", v[0] ? v[0] : "", side[0]->seen ||
		    v[0] != NULL, v[1] ? v[1] : "", side[1]->seen ||
		    v[1] != NULL, 1);
	context_row(sb, "", "experiment", e[0] ? e[0] : "",
		    side[0]->seen || e[0] != NULL, e[1] ? e[1] : "",
		    side[1]->seen || e[1] != NULL, 1);
	context_rows(sb, both, 0);
	pv_render_decision_results(h->dec, sb, jp);
	pv_strbuf_addstr(sb, "</tbody></table>\n");
	n = context_rows(&rows, both, 1);
	if (n > 0) {
		pv_strbuf_addf(sb, "<details class=\"envgroup\"><summary>"
			       "Environment and capture header: %zu facts"
			       "</summary>\n<table class=\"context\"><tbody>\n",
			       n);
		pv_strbuf_add(sb, rows.buf, rows.len);
		pv_strbuf_addstr(sb, "</tbody></table></details>\n");
	}
	if (p->diff.nkv > 0) {
		pv_strbuf_addstr(sb, "<table class=\"context\"><caption>"
				 "comparison</caption><tbody>\n");
		for (i = 0; i < p->diff.nkv; i++) {
			pv_strbuf_addf(sb, "<tr><th scope=\"row\"><span "
				       "class=\"kind\">%s</span> ",
				       p->diff.kv[i].env ? "env" : "meta");
			pv_html_escape(sb, p->diff.kv[i].key,
				       strlen(p->diff.kv[i].key));
			pv_strbuf_addstr(sb, "</th><td>");
			pv_html_escape(sb, p->diff.kv[i].value,
				       strlen(p->diff.kv[i].value));
			pv_strbuf_addstr(sb, "</td></tr>\n");
		}
		pv_strbuf_addstr(sb, "</tbody></table>\n");
	}
	pv_strbuf_addstr(sb, "</div>\n");
	pv_strbuf_release(&rows);
	side_release(&mine[0]);
	side_release(&mine[1]);
}

/* Writing: the document */

static const char profile_html[] =
	"<div id=\"profile\" data-page=\"profile\" data-tab=\"Profiles\">\n"
	"<section id=\"psummary\" data-tab=\"Profile\"><h2>Profile</h2>"
	"</section>\n"
	"<section id=\"context\" data-tab=\"Context\">\n<h2>Context</h2>\n"
	"@CONTEXT@"
	"</section>\n"
	"<section id=\"groups\" data-tab=\"Groups\"><h2>Where the time "
	"went, by group</h2></section>\n"
	"<section id=\"flame\" data-tab=\"Flame graphs\"><h2>Flame graphs"
	"</h2></section>\n"
	"<section id=\"functions\" data-tab=\"Functions\"><h2>All functions"
	"</h2></section>\n"
	"<section id=\"flows\" data-tab=\"Call flows\"><h2>Call flows</h2>"
	"</section>\n"
	"<section id=\"notes\" data-tab=\"Notes\"><h2>Notes</h2></section>\n"
	"</div>\n";

static const char decision_html[] =
	"<section id=\"suites\" data-page=\"suites\" data-tab=\"Suites\">"
	"<h2>Suites</h2></section>\n"
	"<section id=\"test\" data-page=\"test\" data-tab=\"Test\">"
	"<h2>Test</h2><p>Choose a regression or a test.</p></section>\n"
	"<section id=\"instance\" data-page=\"instance\" data-tab=\"Instance\">"
	"<h2>Instance</h2><p>Choose a level of a test.</p></section>\n"
	"<section id=\"trend\" data-page=\"trend\" data-tab=\"Trend\">"
	"<h2>Trend</h2><p>Choose a key measured on several versions.</p>"
	"</section>\n";

/*
 * The title: the versions of the night, or of the one profile; of a
 * series without roles (pv-store series), its first and last versions.
 */
static void
title(struct pv_html *h, struct pv_strbuf *t, const struct shown *s)
{
	const char *v[2] = { h->side[0].version, h->side[1].version };
	const char *e[2];

	if (s->n == 1)
		profile_names(h, s->p[0], v, e);
	if (v[0] == NULL && v[1] == NULL && h->nsect > 1 &&
	    h->sect[0].version != h->sect[h->nsect - 1].version) {
		v[0] = str_of(h, h->sect[0].version);
		v[1] = str_of(h, h->sect[h->nsect - 1].version);
	}
	pv_strbuf_addstr(t, "pv report: ");
	pv_strbuf_addstr(t, v[0] && *v[0] ? v[0] : "baseline");
	pv_strbuf_addstr(t, " .. ");
	pv_strbuf_addstr(t, v[1] && *v[1] ? v[1] : "target");
}

int
pv_html_write(struct pv_html *h, FILE *out)
{
	struct pv_strbuf sb = PV_STRBUF_INIT, t = PV_STRBUF_INIT;
	struct pv_strbuf data = PV_STRBUF_INIT;
	struct pv_render_decision_prof *jp;
	struct shown s;
	uint32_t *rank;
	size_t i, k;
	const char *at;
	int decisions = pv_render_decision_count(h->dec) > 0 ||
		pv_render_decision_series(h->dec) > 0;

	for (i = 0; i <= h->nprof; i++) {
		struct profile *p = i < h->nprof ? &h->prof[i] : &h->stacks;

		for (k = 0; k < p->nev; k++) {
			if (p->ev[k].tree.overflow)
				return bad(h, "a count does not fit in 64 "
					   "bits");
			if (!p->ev[k].from_func && p->ev[k].tree.nnode > 1 &&
			    pv_render_profile_funcs(h, &p->ev[k]) < 0)
				return -1;
		}
	}
	profiles_shown(h, &s);
	if (s.n == 0 && !decisions) {
		free(s.p);
		if (h->only != NULL)
			return bad(h, "no stacks of event '%s' to show",
				   h->only);
		return bad(h, "no stacks to show: the input holds neither "
			   "dstack records (pv-diff) nor stacks in baseline "
			   "or target sections, nor verdicts (pv-classify), "
			   "nor a key on three versions or more");
	}
	jp = join_profiles(h, &s);

	/* every name's rank in byte order, for the children's order */
	rank = pv_render_profile_rank(h);

	title(h, &t, &s);
	pv_strbuf_addstr(&sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
			 "<meta charset=\"utf-8\">\n"
			 "<meta http-equiv=\"Content-Security-Policy\" "
			 "content=\"default-src 'none'; script-src 'sha256-");
	pv_sha256_base64(&sb, pv_html_report_js, strlen(pv_html_report_js));
	pv_strbuf_addstr(&sb, "'; style-src 'sha256-");
	pv_sha256_base64(&sb, pv_html_report_css, strlen(pv_html_report_css));
	pv_strbuf_addstr(&sb, "'; base-uri 'none'; form-action 'none'\">\n"
			 "<meta name=\"viewport\" content=\"width=device-width"
			 "\">\n<meta name=\"generator\" content=\"pv-render "
			 PACKAGE_VERSION "\">\n<title>");
	pv_html_escape(&sb, t.buf, t.len);
	pv_strbuf_addstr(&sb, "</title>\n<style>");
	pv_strbuf_addstr(&sb, pv_html_report_css);
	pv_strbuf_addstr(&sb, "</style>\n</head>\n<body>\n<header><h1>");
	pv_html_escape(&sb, t.buf, t.len);
	pv_strbuf_addstr(&sb, "</h1></header>\n<nav id=\"tabs\"></nav>\n"
			 "<main>\n");
	if (decisions) {
		pv_render_decision_html(h->dec, &sb, jp, s.n);
		pv_strbuf_addstr(&sb, decision_html);
	}
	if (s.n > 0) {
		at = strstr(profile_html, "@CONTEXT@");
		pv_strbuf_add(&sb, profile_html, (size_t)(at - profile_html));
		for (i = 0; i < s.n; i++)
			context_table(h, &sb, i, s.p[i], &jp[i]);
		pv_strbuf_addstr(&sb, at + strlen("@CONTEXT@"));
	}
	pv_strbuf_addstr(&sb, "</main>\n<noscript><p>The graphs and tables "
			 "of this report need JavaScript; the summary and the "
			 "context do not.</p></noscript>\n");
	fwrite(sb.buf, 1, sb.len, out);

	/* the page's data: the profiles' summaries, the decisions */
	pv_strbuf_addstr(&data, "{\"format\":2,");
	emit_profiles(h, &data, &s);
	pv_strbuf_addstr(&data, ",\"summary\":");
	if (decisions)
		pv_render_decision_json(h->dec, &data, h->sect, h->nsect, jp,
					s.n);
	else
		pv_strbuf_addstr(&data, "null");
	pv_strbuf_addch(&data, '}');
	fputs("<script type=\"application/json\" id=\"pv-data\">", out);
	fwrite(data.buf, 1, data.len, out);
	fputs("</script>\n", out);
	/* each profile's trees and functions, read when it is opened */
	for (i = 0; i < s.n; i++) {
		pv_strbuf_reset(&data);
		pv_render_profile_data(h, s.p[i], &data, rank);
		fprintf(out, "<script type=\"application/json\" "
			"id=\"pv-prof-%zu\">", i);
		fwrite(data.buf, 1, data.len, out);
		fputs("</script>\n", out);
	}
	fputs("<script type=\"application/json\" id=\"pv-notes\">[]</script>\n"
	      "<script>", out);
	fputs(pv_html_report_js, out);
	fputs("</script>\n</body>\n</html>\n", out);
	pv_strbuf_release(&sb);
	pv_strbuf_release(&t);
	pv_strbuf_release(&data);
	free(rank);
	free(jp);
	free(s.p);
	return 0;
}
