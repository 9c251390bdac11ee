/*
 * rec_profile: the stack, total, dstack and func records, written and read
 * (see rec_profile.h).  Lines are made of field.h's fields; the frame list,
 * the one field that is not a scalar, is joined here.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "field.h"
#include "rec_profile.h"

static const char *const presence_name[] = { "-", "base", "target", "both" };

void
pv_rec_frame_escape(struct pv_strbuf *sb, const char *s, size_t len)
{
	pv_escape(sb, s, len, 1);
}

/*
 * The FRAMES field: its TAB, then the names joined by ';', each escaped
 * unless they already are.  Escaped names are copied in one reservation:
 * a writer of thousands of dstack records spends its time here.
 */
static void
add_frames(struct pv_strbuf *sb, const struct pv_str *frame, size_t n,
	   int escaped)
{
	size_t i, need = n + 1;
	char *w;

	if (!escaped) {
		pv_strbuf_addch(sb, '\t');
		for (i = 0; i < n; i++) {
			if (i > 0)
				pv_strbuf_addch(sb, ';');
			pv_rec_frame_escape(sb, frame[i].s, frame[i].len);
		}
		return;
	}
	for (i = 0; i < n; i++)
		need += frame[i].len;
	pv_strbuf_grow(sb, need);
	w = sb->buf + sb->len;
	*w++ = '\t';
	for (i = 0; i < n; i++) {
		if (i > 0)
			*w++ = ';';
		memcpy(w, frame[i].s, frame[i].len);
		w += frame[i].len;
	}
	pv_strbuf_setlen(sb, (size_t)(w - sb->buf));
}

/* A derived number written exactly, or '-' for NaN. */
static void
add_exact_opt(struct pv_strbuf *sb, double v)
{
	if (isnan(v))
		pv_field_add_raw(sb, "-", 1);
	else
		pv_field_add_exact(sb, v);
}

static struct pv_str
opt_str(struct pv_str f)
{
	if (pv_str_eq(f, "-"))
		f.len = 0;
	return f;
}

/* "'TYPE' record has N fields, expected M", as the reader words it */
static int
want_fields(const struct pv_record *rec, const char *type, size_t n,
	    struct pv_err *e)
{
	if (rec->nfield == n)
		return 0;
	return pv_err_set(e, "'%s' record has %zu fields, expected %zu", type,
			  rec->nfield - 1, n - 1);
}

static int
get_u64(const struct pv_record *rec, size_t i, const char *what,
	uint64_t *v, struct pv_err *e)
{
	if (pv_field_get_u64(rec->field[i], v) == 0)
		return 0;
	pv_field_bad(e, what, rec->field[i], "a whole number in range");
	return pv_err_prefix(e, "%.*s record", (int)rec->field[0].len,
			     rec->field[0].s);
}

/* A finite number, or with dash_ok '-' for NaN. */
static int
get_double(const struct pv_record *rec, size_t i, const char *what,
	   int dash_ok, double *v, struct pv_err *e)
{
	struct pv_str f = rec->field[i];

	if (dash_ok && pv_str_eq(f, "-")) {
		*v = NAN;
		return 0;
	}
	if (pv_field_get_finite(f, v) == 0)
		return 0;
	pv_field_bad(e, what, f, dash_ok ? "a finite number or '-'" :
		     "a finite number");
	return pv_err_prefix(e, "%.*s record", (int)rec->field[0].len,
			     rec->field[0].s);
}

/* The shared figures, from the first count on (struct pv_rec_figures). */
static void
add_figures(struct pv_strbuf *sb, const struct pv_rec_figures *g)
{
	pv_field_add_u64(sb, g->incl[0]);
	pv_field_add_u64(sb, g->excl[0]);
	pv_field_add_u64(sb, g->incl[1]);
	pv_field_add_u64(sb, g->excl[1]);
	add_exact_opt(sb, g->incl_pct[0]);
	add_exact_opt(sb, g->excl_pct[0]);
	add_exact_opt(sb, g->incl_pct[1]);
	add_exact_opt(sb, g->excl_pct[1]);
	add_exact_opt(sb, g->delta_incl);
	add_exact_opt(sb, g->delta_excl);
	add_exact_opt(sb, g->rel_incl);
	add_exact_opt(sb, g->rel_excl);
}

static int
get_figures(const struct pv_record *rec, size_t i, struct pv_rec_figures *g,
	    struct pv_err *e)
{
	if (get_u64(rec, i, "baseline inclusive count", &g->incl[0], e) < 0 ||
	    get_u64(rec, i + 1, "baseline exclusive count", &g->excl[0],
		    e) < 0 ||
	    get_u64(rec, i + 2, "target inclusive count", &g->incl[1], e) < 0 ||
	    get_u64(rec, i + 3, "target exclusive count", &g->excl[1], e) < 0 ||
	    get_double(rec, i + 4, "baseline inclusive share", 0,
		       &g->incl_pct[0], e) < 0 ||
	    get_double(rec, i + 5, "baseline exclusive share", 0,
		       &g->excl_pct[0], e) < 0 ||
	    get_double(rec, i + 6, "target inclusive share", 0,
		       &g->incl_pct[1], e) < 0 ||
	    get_double(rec, i + 7, "target exclusive share", 0,
		       &g->excl_pct[1], e) < 0 ||
	    get_double(rec, i + 8, "inclusive change", 0, &g->delta_incl,
		       e) < 0 ||
	    get_double(rec, i + 9, "exclusive change", 0, &g->delta_excl,
		       e) < 0 ||
	    get_double(rec, i + 10, "relative inclusive change", 1,
		       &g->rel_incl, e) < 0 ||
	    get_double(rec, i + 11, "relative exclusive change", 1,
		       &g->rel_excl, e) < 0)
		return -1;
	return 0;
}

static void
add_presence(struct pv_strbuf *sb, unsigned presence)
{
	const char *p = presence_name[presence & 3];

	pv_field_add_raw(sb, p, strlen(p));
}

static int
get_presence(const struct pv_record *rec, size_t i, unsigned *presence,
	     struct pv_err *e)
{
	unsigned k;

	for (k = 1; k < 4; k++)
		if (pv_str_eq(rec->field[i], presence_name[k]))
			break;
	if (k == 4) {
		pv_field_bad(e, "presence", rec->field[i],
			     "both, base or target");
		return pv_err_prefix(e, "%.*s record", (int)rec->field[0].len,
				     rec->field[0].s);
	}
	*presence = k;
	return 0;
}

/* stack */

void
pv_rec_stack_write(struct pv_strbuf *sb, const struct pv_rec_stack *s)
{
	pv_field_type(sb, "stack");
	pv_field_add_opt_str(sb, s->event);
	pv_field_add_u64(sb, s->samples);
	pv_field_add_u64(sb, s->period);
	add_frames(sb, s->frame, s->nframe, 0);
	pv_field_end(sb);
}

/* total */

void
pv_rec_total_write(struct pv_strbuf *sb, const struct pv_rec_total *t)
{
	pv_field_type(sb, "total");
	pv_field_add_opt_str(sb, t->event);
	pv_field_add_u64(sb, t->period[0]);
	pv_field_add_u64(sb, t->period[1]);
	pv_field_add_u64(sb, t->samples[0]);
	pv_field_add_u64(sb, t->samples[1]);
	pv_field_end(sb);
}

int
pv_rec_total_parse(const struct pv_record *rec, struct pv_rec_total *t,
		   struct pv_err *e)
{
	memset(t, 0, sizeof(*t));
	if (want_fields(rec, "total", 6, e) < 0 ||
	    get_u64(rec, 2, "baseline period", &t->period[0], e) < 0 ||
	    get_u64(rec, 3, "target period", &t->period[1], e) < 0 ||
	    get_u64(rec, 4, "baseline sample count", &t->samples[0], e) < 0 ||
	    get_u64(rec, 5, "target sample count", &t->samples[1], e) < 0)
		return -1;
	t->event = opt_str(rec->field[1]);
	return 0;
}

/* dstack */

void
pv_rec_dstack_write(struct pv_strbuf *sb, const struct pv_rec_dstack *d)
{
	pv_field_type(sb, "dstack");
	pv_field_add_opt_str(sb, d->event);
	pv_field_add_u64(sb, d->period[0]);
	pv_field_add_u64(sb, d->period[1]);
	if (d->escaped && d->frame == NULL)
		pv_field_add_raw(sb, d->frames_raw.s, d->frames_raw.len);
	else
		add_frames(sb, d->frame, d->nframe, d->escaped);
	pv_field_end(sb);
}

int
pv_rec_dstack_parse(const struct pv_record *rec, struct pv_rec_dstack *d,
		    struct pv_err *e)
{
	memset(d, 0, sizeof(*d));
	/* with five fields the reader split FRAMES as a stack record's */
	if (want_fields(rec, "dstack", 5, e) < 0 ||
	    get_u64(rec, 2, "baseline period", &d->period[0], e) < 0 ||
	    get_u64(rec, 3, "target period", &d->period[1], e) < 0)
		return -1;
	d->event = opt_str(rec->field[1]);
	d->frame = rec->frame;
	d->nframe = rec->nframe;
	d->frames_raw = rec->field[4];	/* the reader keeps it escaped */
	return 0;
}

/* func */

void
pv_rec_func_write(struct pv_strbuf *sb, const struct pv_rec_func *f)
{
	struct pv_rec_figures fig;

	pv_field_type(sb, "func");
	pv_field_add_opt_str(sb, f->event);
	pv_field_add_str(sb, f->name);
	memcpy(fig.incl, f->incl, sizeof(fig.incl));
	memcpy(fig.excl, f->excl, sizeof(fig.excl));
	memcpy(fig.incl_pct, f->incl_pct, sizeof(fig.incl_pct));
	memcpy(fig.excl_pct, f->excl_pct, sizeof(fig.excl_pct));
	fig.delta_incl = f->delta_incl;
	fig.delta_excl = f->delta_excl;
	fig.rel_incl = f->rel_incl;
	fig.rel_excl = f->rel_excl;
	add_figures(sb, &fig);
	add_presence(sb, f->presence);
	pv_field_end(sb);
}

int
pv_rec_func_parse(const struct pv_record *rec, struct pv_rec_func *f,
		  struct pv_err *e)
{
	struct pv_rec_figures fig;

	memset(f, 0, sizeof(*f));
	if (want_fields(rec, "func", 16, e) < 0 ||
	    get_figures(rec, 3, &fig, e) < 0 ||
	    get_presence(rec, 15, &f->presence, e) < 0)
		return -1;
	memcpy(f->incl, fig.incl, sizeof(f->incl));
	memcpy(f->excl, fig.excl, sizeof(f->excl));
	memcpy(f->incl_pct, fig.incl_pct, sizeof(f->incl_pct));
	memcpy(f->excl_pct, fig.excl_pct, sizeof(f->excl_pct));
	f->delta_incl = fig.delta_incl;
	f->delta_excl = fig.delta_excl;
	f->rel_incl = fig.rel_incl;
	f->rel_excl = fig.rel_excl;
	f->event = opt_str(rec->field[1]);
	f->name = rec->field[2];
	return 0;
}

/* frame */

static const char *const space_name[] = { "kernel", "user" };

void
pv_rec_frame_write(struct pv_strbuf *sb, const struct pv_rec_frame *f)
{
	pv_field_type(sb, "frame");
	pv_field_add_str(sb, f->name);
	pv_field_add_opt_str(sb, f->space);
	pv_field_add_opt_str(sb, f->module);
	pv_field_add_opt_str(sb, f->file);
	pv_field_add_opt_str(sb, f->subsys);
	pv_field_end(sb);
}

int
pv_rec_frame_parse(const struct pv_record *rec, struct pv_rec_frame *f,
		   struct pv_err *e)
{
	memset(f, 0, sizeof(*f));
	if (want_fields(rec, "frame", 6, e) < 0)
		return -1;
	f->name = rec->field[1];
	f->space = opt_str(rec->field[2]);
	if (f->space.len > 0 && !pv_str_eq(f->space, space_name[0]) &&
	    !pv_str_eq(f->space, space_name[1])) {
		pv_field_bad(e, "space", f->space, "kernel, user or '-'");
		return pv_err_prefix(e, "frame record");
	}
	f->module = opt_str(rec->field[3]);
	f->file = opt_str(rec->field[4]);
	f->subsys = opt_str(rec->field[5]);
	return 0;
}

/* group */

const char *const pv_rec_group_kind[PV_GROUP_NKINDS] = {
	"space", "module", "file", "subsystem"
};

void
pv_rec_group_write(struct pv_strbuf *sb, const struct pv_rec_group *g)
{
	const char *k = pv_rec_group_kind[g->kind % PV_GROUP_NKINDS];

	pv_field_type(sb, "group");
	pv_field_add_opt_str(sb, g->event);
	pv_field_add_raw(sb, k, strlen(k));
	pv_field_add_str(sb, g->name);
	add_figures(sb, &g->fig);
	add_presence(sb, g->presence);
	pv_field_end(sb);
}

int
pv_rec_group_parse(const struct pv_record *rec, struct pv_rec_group *g,
		   struct pv_err *e)
{
	unsigned k;

	memset(g, 0, sizeof(*g));
	if (want_fields(rec, "group", 17, e) < 0)
		return -1;
	for (k = 0; k < PV_GROUP_NKINDS; k++)
		if (pv_str_eq(rec->field[2], pv_rec_group_kind[k]))
			break;
	if (k == PV_GROUP_NKINDS) {
		pv_field_bad(e, "kind", rec->field[2],
			     "space, module, file or subsystem");
		return pv_err_prefix(e, "group record");
	}
	if (get_figures(rec, 4, &g->fig, e) < 0 ||
	    get_presence(rec, 16, &g->presence, e) < 0)
		return -1;
	g->kind = k;
	g->event = opt_str(rec->field[1]);
	g->name = rec->field[3];
	return 0;
}

/* match */

void
pv_rec_match_write(struct pv_strbuf *sb, const struct pv_rec_match *m)
{
	pv_field_type(sb, "match");
	pv_field_add_opt_str(sb, m->event);
	pv_field_add_str(sb, m->name[0]);
	pv_field_add_str(sb, m->name[1]);
	add_figures(sb, &m->fig);
	pv_field_add_exact(sb, m->score);
	pv_field_end(sb);
}

/* A score: a finite number from 0 to 1. */
static int
get_score(const struct pv_record *rec, size_t i, double *v, struct pv_err *e)
{
	if (pv_field_get_finite(rec->field[i], v) == 0 && *v >= 0 && *v <= 1)
		return 0;
	pv_field_bad(e, "score", rec->field[i], "a number from 0 to 1");
	return pv_err_prefix(e, "%.*s record", (int)rec->field[0].len,
			     rec->field[0].s);
}

int
pv_rec_match_parse(const struct pv_record *rec, struct pv_rec_match *m,
		   struct pv_err *e)
{
	memset(m, 0, sizeof(*m));
	if (want_fields(rec, "match", 17, e) < 0 ||
	    get_figures(rec, 4, &m->fig, e) < 0 ||
	    get_score(rec, 16, &m->score, e) < 0)
		return -1;
	m->event = opt_str(rec->field[1]);
	m->name[0] = rec->field[2];
	m->name[1] = rec->field[3];
	return 0;
}

/* path */

static const char *const dir_name[] = { "callers", "callees" };

void
pv_rec_path_write(struct pv_strbuf *sb, const struct pv_rec_path *p)
{
	const char *d = dir_name[p->dir & 1];

	pv_field_type(sb, "path");
	pv_field_add_opt_str(sb, p->event);
	pv_field_add_raw(sb, d, strlen(d));
	add_figures(sb, &p->fig);
	add_frames(sb, p->frame, p->nframe, 0);
	pv_field_end(sb);
}

int
pv_rec_path_parse(const struct pv_record *rec, struct pv_rec_path *p,
		  struct pv_err *e)
{
	memset(p, 0, sizeof(*p));
	/* with sixteen fields the reader split FRAMES as a stack record's */
	if (want_fields(rec, "path", 16, e) < 0)
		return -1;
	if (pv_str_eq(rec->field[2], dir_name[0])) {
		p->dir = PV_PATH_CALLERS;
	} else if (pv_str_eq(rec->field[2], dir_name[1])) {
		p->dir = PV_PATH_CALLEES;
	} else {
		pv_field_bad(e, "direction", rec->field[2],
			     "callers or callees");
		return pv_err_prefix(e, "path record");
	}
	if (get_figures(rec, 3, &p->fig, e) < 0)
		return -1;
	if (rec->nframe == 0) {
		pv_err_set(e, "path record: no frames");
		return -1;
	}
	p->event = opt_str(rec->field[1]);
	p->frame = rec->frame;
	p->nframe = rec->nframe;
	return 0;
}

/* rootmerge */

void
pv_rec_rootmerge_write(struct pv_strbuf *sb, const struct pv_rec_rootmerge *m)
{
	pv_field_type(sb, "rootmerge");
	pv_field_add_str(sb, m->name[0]);
	pv_field_add_str(sb, m->name[1]);
	pv_field_add_exact(sb, m->score);
	pv_field_end(sb);
}

int
pv_rec_rootmerge_parse(const struct pv_record *rec, struct pv_rec_rootmerge *m,
		       struct pv_err *e)
{
	memset(m, 0, sizeof(*m));
	if (want_fields(rec, "rootmerge", 4, e) < 0 ||
	    get_score(rec, 3, &m->score, e) < 0)
		return -1;
	m->name[0] = rec->field[1];
	m->name[1] = rec->field[2];
	return 0;
}
