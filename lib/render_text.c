/*
 * render_text: diff-folded lines and the terminal table of suspects (see
 * render_text.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "numfmt.h"
#include "record.h"
#include "render_text.h"
#include "xalloc.h"

void
pv_dfold_init(struct pv_dfold *f)
{
	memset(f, 0, sizeof(*f));
	pv_symtab_init(&f->names);
	pv_stacktab_init(&f->stacks);
}

void
pv_dfold_release(struct pv_dfold *f)
{
	pv_arena_release(&f->arena);
	free(f->seg);
	free(f->line);
	pv_symtab_release(&f->names);
	pv_stacktab_release(&f->stacks);
	free(f->count);
	free(f->frames);
	memset(f, 0, sizeof(*f));
}

size_t
pv_dfold_count(const struct pv_dfold *f)
{
	return f->table ? f->stacks.nstack : f->nline;
}

static uint64_t
add_sat(struct pv_dfold *f, uint64_t a, uint64_t b)
{
	if (a > UINT64_MAX - b) {
		f->overflow = 1;
		return UINT64_MAX;
	}
	return a + b;
}

static int
table_add(struct pv_dfold *f, const struct pv_str *frame, size_t nframe,
	  uint64_t base, uint64_t target)
{
	struct pv_stack *s;
	size_t i, n = f->stacks.nstack;

	PV_GROW(f->frames, nframe, f->frames_alloc);
	for (i = 0; i < nframe; i++) {
		/* sorted records: most often the name of the record before */
		if (i < f->nframes) {
			struct pv_str p = pv_symtab_get(&f->names,
							f->frames[i]);

			if (p.len == frame[i].len &&
			    pv_hash_same(p.s, frame[i].s, p.len))
				continue;
		}
		f->frames[i] = pv_symtab_intern(&f->names, frame[i].s,
						frame[i].len);
	}
	f->nframes = nframe;
	s = pv_stacktab_add(&f->stacks, 0, f->frames, nframe, 0, 0);
	if (s == NULL)
		return -1;
	i = (size_t)(s - f->stacks.stack);
	if (f->stacks.alloc > f->count_alloc) {
		f->count = pv_xreallocarray(f->count, f->stacks.alloc,
					    sizeof(*f->count));
		f->count_alloc = f->stacks.alloc;
	}
	if (f->stacks.nstack > n)
		f->count[i][0] = f->count[i][1] = 0;
	f->count[i][0] = add_sat(f, f->count[i][0], base);
	f->count[i][1] = add_sat(f, f->count[i][1], target);
	return 0;
}

/* The lines kept so far into the table: their frames split at ';' again. */
static int
to_table(struct pv_dfold *f)
{
	struct pv_str *fr = NULL;
	size_t i, alloc = 0;
	int rc = 0;

	for (i = 0; i < f->nline && rc == 0; i++) {
		const struct pv_dfold_line *l = &f->line[i];
		const char *p = l->s, *end = p + l->len, *semi;
		size_t n = 0;

		while (l->len > 0) {
			semi = memchr(p, ';', (size_t)(end - p));
			PV_GROW(fr, n + 1, alloc);
			fr[n].s = p;
			fr[n++].len = (size_t)((semi ? semi : end) - p);
			if (semi == NULL)
				break;
			p = semi + 1;
		}
		rc = table_add(f, fr, n, l->count[0], l->count[1]);
	}
	free(fr);
	f->table = 1;
	return rc;
}

/* Write a line at w: the frames joined, the two counts; returns its end. */
static char *
line_at(char *w, const char *frames, size_t len, struct pv_str c0,
	struct pv_str c1)
{
	memcpy(w, frames, len);
	w += len;
	*w++ = ' ';
	memcpy(w, c0.s, c0.len);
	w += c0.len;
	*w++ = ' ';
	memcpy(w, c1.s, c1.len);
	w += c1.len;
	*w++ = '\n';
	return w;
}

/* Append a line: the frames joined, the two counts. */
static void
put_line(struct pv_strbuf *sb, const char *frames, size_t len, uint64_t c0,
	 uint64_t c1)
{
	pv_strbuf_grow(sb, len + 2 * 21 + 3);
	pv_strbuf_add(sb, frames, len);
	pv_strbuf_addch(sb, ' ');
	pv_strbuf_addu(sb, c0);
	pv_strbuf_addch(sb, ' ');
	pv_strbuf_addu(sb, c1);
	pv_strbuf_addch(sb, '\n');
}

/*
 * Room for need bytes after the lines written: in the last segment, or
 * in a new one that holds as much as all before it (64 KiB at least, 64
 * MiB at most), so that there are few.
 */
static char *
text_room(struct pv_dfold *f, size_t need)
{
	struct pv_dfold_seg *g = f->nseg > 0 ? &f->seg[f->nseg - 1] : NULL;

	if (g == NULL || g->cap - g->len < need) {
		size_t cap = f->textlen < (64u << 10) ? (64u << 10) :
			f->textlen > (64u << 20) ? (64u << 20) : f->textlen;

		if (cap < need)
			cap = need;
		PV_GROW(f->seg, f->nseg + 1, f->seg_alloc);
		g = &f->seg[f->nseg++];
		g->buf = pv_arena_alloc(&f->arena, cap);
		g->len = 0;
		g->cap = cap;
	}
	return g->buf + g->len;
}

/* The line that text_room() made room for, written up to end. */
static void
text_used(struct pv_dfold *f, const char *end)
{
	struct pv_dfold_seg *g = &f->seg[f->nseg - 1];
	size_t n = (size_t)(end - (g->buf + g->len));

	g->len += n;
	f->textlen += n;
}

/* Whether a count read as s is written so: digits, no leading zero. */
static int
as_written(struct pv_str s)
{
	return s.len > 0 && s.len <= 20 && (s.s[0] != '0' || s.len == 1);
}

int
pv_dfold_add_joined(struct pv_dfold *f, const struct pv_str *joined,
		    uint64_t base, uint64_t target, const struct pv_str *text)
{
	struct pv_dfold_line *l;
	struct pv_str c0, c1;
	char b0[PV_NUMFMT_MAX], b1[PV_NUMFMT_MAX], *w;

	if (f->table)
		return 0;
	if (f->nline > 0) {
		const struct pv_dfold_line *last = &f->line[f->nline - 1];
		size_t m = last->len < joined->len ? last->len : joined->len;
		int c = memcmp(joined->s, last->s, m);

		/* after the last, or it is no new line in order */
		if (c < 0 || (c == 0 && joined->len <= last->len))
			return 0;
	}
	/* the counts as the dstack record wrote them, else written here */
	if (text != NULL && as_written(text[0]) && as_written(text[1])) {
		c0 = text[0];
		c1 = text[1];
	} else {
		c0.s = b0;
		c0.len = pv_numfmt_u64(b0, base);
		c1.s = b1;
		c1.len = pv_numfmt_u64(b1, target);
	}
	PV_GROW(f->line, f->nline + 1, f->line_alloc);
	l = &f->line[f->nline++];
	w = text_room(f, joined->len + c0.len + c1.len + 3);
	l->s = w;
	l->len = joined->len;
	l->count[0] = base;
	l->count[1] = target;
	text_used(f, line_at(w, joined->s, joined->len, c0, c1));
	return 1;
}

int
pv_dfold_add(struct pv_dfold *f, const struct pv_str *frame, size_t nframe,
	     const struct pv_str *joined, uint64_t base, uint64_t target)
{
	if (joined != NULL && pv_dfold_add_joined(f, joined, base, target,
						  NULL))
		return 0;
	if (!f->table && to_table(f) < 0)
		return -1;
	return table_add(f, frame, nframe, base, target);
}

/* floor(c0 * t1 / t0), exactly, when normalising */
static uint64_t
scaled(uint64_t c0, const uint64_t *t, int normalize)
{
	if (normalize && t[0] != 0 && t[0] != t[1])
		return (uint64_t)((unsigned __int128)c0 * t[1] / t[0]);
	return c0;
}

static int
totals(const struct pv_dfold *f, uint64_t *t)
{
	size_t i, n = pv_dfold_count(f);

	t[0] = t[1] = 0;
	for (i = 0; i < n; i++) {
		const uint64_t *c = f->table ? f->count[i] : f->line[i].count;

		if (t[0] > UINT64_MAX - c[0] || t[1] > UINT64_MAX - c[1])
			return -1;
		t[0] += c[0];
		t[1] += c[1];
	}
	return f->overflow || pv_stacktab_overflowed(&f->stacks) ? -1 : 0;
}

int
pv_render_diff_folded(FILE *out, const struct pv_dfold *f, int normalize)
{
	struct pv_stack **v = NULL;
	struct pv_strbuf sb = PV_STRBUF_INIT, fr = PV_STRBUF_INIT;
	uint64_t t[2];
	size_t i, k, n = pv_dfold_count(f);

	if (totals(f, t) < 0)
		return -1;
	/* the lines as kept, when their counts stand as they are */
	if (!f->table && (!normalize || t[0] == 0 || t[0] == t[1])) {
		for (i = 0; i < f->nseg; i++)
			fwrite(f->seg[i].buf, 1, f->seg[i].len, out);
		return 0;
	}
	if (f->table)
		v = pv_stacktab_sorted(&f->stacks, &f->names);
	for (i = 0; i < n; i++) {
		const uint64_t *c;

		if (!f->table) {
			const struct pv_dfold_line *l = &f->line[i];

			c = l->count;
			put_line(&sb, l->s, l->len,
				 scaled(c[0], t, normalize), c[1]);
		} else {
			const struct pv_stack *s = v[i];

			c = f->count[s - f->stacks.stack];
			pv_strbuf_reset(&fr);
			for (k = 0; k < s->nframe; k++) {
				struct pv_str nm = pv_symtab_get(&f->names,
								 s->frame[k]);

				if (k > 0)
					pv_strbuf_addch(&fr, ';');
				pv_strbuf_add(&fr, nm.s, nm.len);
			}
			put_line(&sb, fr.buf, fr.len,
				 scaled(c[0], t, normalize), c[1]);
		}
		if (sb.len >= 65536) {
			fwrite(sb.buf, 1, sb.len, out);
			pv_strbuf_reset(&sb);
		}
	}
	fwrite(sb.buf, 1, sb.len, out);
	pv_strbuf_release(&sb);
	pv_strbuf_release(&fr);
	free(v);
	return 0;
}

/* A name for a terminal: control bytes and '\\' as \xHH (record.h). */
static void
put_name(FILE *out, struct pv_str s)
{
	pv_write_visible(out, s.s, s.len);
}

#define RED	"\033[31m"
#define BLUE	"\033[34m"
#define RESET	"\033[0m"

static void
put_delta(FILE *out, double v, int color)
{
	const char *on = "";

	if (color && v > 0)
		on = RED;
	else if (color && v < 0)
		on = BLUE;
	fprintf(out, "%s%+8.2f%s", on, v, *on ? RESET : "");
}

/* The relative change; "new" where the baseline had none, "-" if neither. */
static void
put_rel(FILE *out, double rel, double target, int color)
{
	const char *on = "";
	char buf[32];

	if (isnan(rel) && target == 0.0) {
		snprintf(buf, sizeof(buf), "-");
		rel = 0.0;
	} else if (isnan(rel)) {
		snprintf(buf, sizeof(buf), "new");
	} else if (fabs(rel) >= 99.995) {
		snprintf(buf, sizeof(buf), "%+.0fx", rel + 1.0);
	} else {
		snprintf(buf, sizeof(buf), "%+.0f%%", rel * 100.0);
	}
	if (color && (isnan(rel) || rel > 0))
		on = RED;
	else if (color && rel < 0)
		on = BLUE;
	fprintf(out, "%s%7s%s", on, buf, *on ? RESET : "");
}

/* The columns of a row: shares, changes and relative changes. */
static void
put_cols(FILE *out, const double excl_pct[2], double delta_excl,
	 double rel_excl, const double incl_pct[2], double delta_incl,
	 double rel_incl, int color)
{
	fprintf(out, "%8.2f %8.2f ", excl_pct[0], excl_pct[1]);
	put_delta(out, delta_excl, color);
	putc(' ', out);
	put_rel(out, rel_excl, excl_pct[1], color);
	fprintf(out, "  %8.2f %8.2f ", incl_pct[0], incl_pct[1]);
	put_delta(out, delta_incl, color);
	putc(' ', out);
	put_rel(out, rel_incl, incl_pct[1], color);
	fputs("  ", out);
}

static void
put_heading(FILE *out, const char *what)
{
	fprintf(out, "%8s %8s %8s %7s  %8s %8s %8s %7s  %s\n",
		"excl.b%", "excl.t%", "excl.pp", "rel",
		"incl.b%", "incl.t%", "incl.pp", "rel", what);
}

static void
put_event(FILE *out, struct pv_str e)
{
	fputs("event ", out);
	put_name(out, e.len ? e : (struct pv_str){ "-", 1 });
}

void
pv_render_text_groups(FILE *out, const struct pv_render_row *r, size_t n,
		      const struct pv_symtab *names, size_t top, int color)
{
	size_t i, j, shown = 0, count;

	for (i = 0; i < n; i++) {
		const struct pv_rec_figures *g = &r[i].fig;

		if (i == 0 || r[i].event != r[i - 1].event ||
		    r[i].kind != r[i - 1].kind) {
			for (j = i, count = 0; j < n &&
			     r[j].event == r[i].event &&
			     r[j].kind == r[i].kind; j++)
				count++;
			shown = 0;
			putc('\n', out);
			put_event(out, pv_symtab_get(names, r[i].event));
			fprintf(out, ", by %s: %zu of %zu groups, largest "
				"growth of exclusive share first\n",
				pv_rec_group_kind[r[i].kind],
				count < top ? count : top, count);
			put_heading(out, pv_rec_group_kind[r[i].kind]);
		}
		if (shown++ >= top)
			continue;
		put_cols(out, g->excl_pct, g->delta_excl, g->rel_excl,
			 g->incl_pct, g->delta_incl, g->rel_incl, color);
		put_name(out, pv_symtab_get(names, r[i].name));
		putc('\n', out);
	}
}

void
pv_render_text_paths(FILE *out, const struct pv_render_row *r, size_t n,
		     const struct pv_symtab *names, struct pv_str fn,
		     int color)
{
	static const char *const dir[] = {
		"callers, outward to the root",
		"callees, inward to the leaf"
	};
	size_t i, k;

	for (i = 0; i < n; i++) {
		const struct pv_rec_figures *g = &r[i].fig;

		if (i == 0 || r[i].event != r[i - 1].event) {
			if (i > 0)
				putc('\n', out);
			put_event(out, pv_symtab_get(names, r[i].event));
			fputs(": the call paths of ", out);
			put_name(out, fn);
			fputs(", the change of each\n", out);
		}
		if (i == 0 || r[i].event != r[i - 1].event ||
		    r[i].kind != r[i - 1].kind) {
			fprintf(out, "%s:\n", dir[r[i].kind != 0]);
			put_heading(out, "path");
		}
		put_cols(out, g->excl_pct, g->delta_excl, g->rel_excl,
			 g->incl_pct, g->delta_incl, g->rel_incl, color);
		for (k = 0; k < r[i].depth; k++)
			fputs("  ", out);
		put_name(out, pv_symtab_get(names, r[i].name));
		putc('\n', out);
	}
}

void
pv_render_text(FILE *out, const struct pv_stackdiff_func *f, size_t n,
	       const struct pv_symtab *names, size_t top, int color)
{
	size_t i, j, shown = 0, count;
	uint32_t ev = UINT32_MAX;

	for (i = 0; i < n; i++) {
		if (f[i].event != ev) {
			struct pv_str e;

			ev = f[i].event;
			e = pv_symtab_get(names, ev);
			for (j = i, count = 0; j < n && f[j].event == ev; j++)
				count++;
			shown = 0;
			if (i > 0)
				putc('\n', out);
			put_event(out, e);
			fprintf(out, ": %zu of %zu functions, largest growth "
				"of exclusive share first\n",
				count < top ? count : top, count);
			put_heading(out, "function");
		}
		if (shown++ >= top)
			continue;
		put_cols(out, f[i].excl_pct, f[i].delta_excl, f[i].rel_excl,
			 f[i].incl_pct, f[i].delta_incl, f[i].rel_incl, color);
		put_name(out, pv_symtab_get(names, f[i].name));
		putc('\n', out);
	}
}
