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
	pv_field_type(sb, "func");
	pv_field_add_opt_str(sb, f->event);
	pv_field_add_str(sb, f->name);
	pv_field_add_u64(sb, f->incl[0]);
	pv_field_add_u64(sb, f->excl[0]);
	pv_field_add_u64(sb, f->incl[1]);
	pv_field_add_u64(sb, f->excl[1]);
	add_exact_opt(sb, f->incl_pct[0]);
	add_exact_opt(sb, f->excl_pct[0]);
	add_exact_opt(sb, f->incl_pct[1]);
	add_exact_opt(sb, f->excl_pct[1]);
	add_exact_opt(sb, f->delta_incl);
	add_exact_opt(sb, f->delta_excl);
	add_exact_opt(sb, f->rel_incl);
	add_exact_opt(sb, f->rel_excl);
	pv_field_add_raw(sb, presence_name[f->presence & 3],
			 strlen(presence_name[f->presence & 3]));
	pv_field_end(sb);
}

int
pv_rec_func_parse(const struct pv_record *rec, struct pv_rec_func *f,
		  struct pv_err *e)
{
	unsigned i;

	memset(f, 0, sizeof(*f));
	if (want_fields(rec, "func", 16, e) < 0 ||
	    get_u64(rec, 3, "baseline inclusive count", &f->incl[0], e) < 0 ||
	    get_u64(rec, 4, "baseline exclusive count", &f->excl[0], e) < 0 ||
	    get_u64(rec, 5, "target inclusive count", &f->incl[1], e) < 0 ||
	    get_u64(rec, 6, "target exclusive count", &f->excl[1], e) < 0 ||
	    get_double(rec, 7, "baseline inclusive share", 0,
		       &f->incl_pct[0], e) < 0 ||
	    get_double(rec, 8, "baseline exclusive share", 0,
		       &f->excl_pct[0], e) < 0 ||
	    get_double(rec, 9, "target inclusive share", 0,
		       &f->incl_pct[1], e) < 0 ||
	    get_double(rec, 10, "target exclusive share", 0,
		       &f->excl_pct[1], e) < 0 ||
	    get_double(rec, 11, "inclusive change", 0, &f->delta_incl,
		       e) < 0 ||
	    get_double(rec, 12, "exclusive change", 0, &f->delta_excl,
		       e) < 0 ||
	    get_double(rec, 13, "relative inclusive change", 1,
		       &f->rel_incl, e) < 0 ||
	    get_double(rec, 14, "relative exclusive change", 1,
		       &f->rel_excl, e) < 0)
		return -1;
	for (i = 1; i < 4; i++)
		if (pv_str_eq(rec->field[15], presence_name[i]))
			break;
	if (i == 4) {
		pv_field_bad(e, "presence", rec->field[15],
			     "both, base or target");
		return pv_err_prefix(e, "func record");
	}
	f->presence = i;
	f->event = opt_str(rec->field[1]);
	f->name = rec->field[2];
	return 0;
}
