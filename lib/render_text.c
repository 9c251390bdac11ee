/*
 * render_text: diff-folded lines and the terminal table of suspects (see
 * render_text.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_text.h"

void
pv_render_diff_folded(FILE *out, const struct pv_stackdiff *d, uint32_t event,
		      int normalize)
{
	uint64_t t0 = 0, t1 = 0;
	size_t i, k;

	for (i = 0; i < d->ntotal; i++) {
		if (d->total[i].event == event) {
			t0 = d->total[i].period[0];
			t1 = d->total[i].period[1];
		}
	}
	for (i = 0; i < d->stacks.nstack; i++) {
		const struct pv_stack *s = d->sorted[i];
		const struct pv_stackdiff_stack *p = pv_stackdiff_pair(d, s);
		uint64_t c0 = p->period[0];

		if (s->event != event)
			continue;
		/* floor(c0 * t1 / t0), exactly */
		if (normalize && t0 != 0 && t0 != t1)
			c0 = (uint64_t)((unsigned __int128)c0 * t1 / t0);
		for (k = 0; k < s->nframe; k++) {
			struct pv_str f = pv_symtab_get(&d->names,
							s->frame[k]);

			if (k > 0)
				putc(';', out);
			fwrite(f.s, 1, f.len, out);
		}
		fprintf(out, " %llu %llu\n", (unsigned long long)c0,
			(unsigned long long)p->period[1]);
	}
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
