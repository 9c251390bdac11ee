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
	pv_symtab_release(&f->names);
	pv_stacktab_release(&f->stacks);
	free(f->count);
	free(f->frames);
	memset(f, 0, sizeof(*f));
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

int
pv_dfold_add(struct pv_dfold *f, const struct pv_str *frame, size_t nframe,
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

int
pv_render_diff_folded(FILE *out, const struct pv_dfold *f, int normalize)
{
	struct pv_stack **v;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	uint64_t t0 = 0, t1 = 0;
	size_t i, k;

	for (i = 0; i < f->stacks.nstack; i++) {
		if (t0 > UINT64_MAX - f->count[i][0] ||
		    t1 > UINT64_MAX - f->count[i][1])
			return -1;
		t0 += f->count[i][0];
		t1 += f->count[i][1];
	}
	if (f->overflow || pv_stacktab_overflowed(&f->stacks))
		return -1;
	v = pv_stacktab_sorted(&f->stacks, &f->names);
	for (i = 0; i < f->stacks.nstack; i++) {
		const struct pv_stack *s = v[i];
		const uint64_t *c = f->count[s - f->stacks.stack];
		uint64_t c0 = c[0];

		/* floor(c0 * t1 / t0), exactly */
		if (normalize && t0 != 0 && t0 != t1)
			c0 = (uint64_t)((unsigned __int128)c0 * t1 / t0);
		for (k = 0; k < s->nframe; k++) {
			struct pv_str n = pv_symtab_get(&f->names,
							s->frame[k]);

			if (k > 0)
				pv_strbuf_addch(&sb, ';');
			pv_strbuf_add(&sb, n.s, n.len);
		}
		pv_strbuf_addch(&sb, ' ');
		pv_strbuf_addu(&sb, c0);
		pv_strbuf_addch(&sb, ' ');
		pv_strbuf_addu(&sb, c[1]);
		pv_strbuf_addch(&sb, '\n');
		if (sb.len >= 65536) {
			fwrite(sb.buf, 1, sb.len, out);
			pv_strbuf_reset(&sb);
		}
	}
	fwrite(sb.buf, 1, sb.len, out);
	pv_strbuf_release(&sb);
	free(v);
	return 0;
}

/* A name for a terminal: control bytes as \xHH. */
static void
put_name(FILE *out, struct pv_str s)
{
	size_t i;

	for (i = 0; i < s.len; i++) {
		unsigned char c = (unsigned char)s.s[i];

		if (c < 0x20 || c == 0x7f || c == '\\')
			fprintf(out, "\\x%02x", c);
		else
			putc(c, out);
	}
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
			fputs("event ", out);
			put_name(out, e.len ? e : (struct pv_str){ "-", 1 });
			fprintf(out, ": %zu of %zu functions, largest growth "
				"of exclusive share first\n",
				count < top ? count : top, count);
			fprintf(out, "%8s %8s %8s %7s  %8s %8s %8s %7s  %s\n",
				"excl.b%", "excl.t%", "excl.pp", "rel",
				"incl.b%", "incl.t%", "incl.pp", "rel",
				"function");
		}
		if (shown++ >= top)
			continue;
		fprintf(out, "%8.2f %8.2f ", f[i].excl_pct[0],
			f[i].excl_pct[1]);
		put_delta(out, f[i].delta_excl, color);
		putc(' ', out);
		put_rel(out, f[i].rel_excl, f[i].excl_pct[1], color);
		fprintf(out, "  %8.2f %8.2f ", f[i].incl_pct[0],
			f[i].incl_pct[1]);
		put_delta(out, f[i].delta_incl, color);
		putc(' ', out);
		put_rel(out, f[i].rel_incl, f[i].incl_pct[1], color);
		fputs("  ", out);
		put_name(out, pv_symtab_get(names, f[i].name));
		putc('\n', out);
	}
}
