/*
 * render_svg: static flame graphs (see render_svg.h).
 *
 * The stacks are sorted frame by frame (each name by its rank in byte-wise
 * order), so that the stacks under one frame are contiguous; one pass then
 * lays the frames out as flamegraph.pl's flow does: a frame opens where a
 * stack first differs from the one before it and closes where a later one
 * differs, its width being the counts that passed while it was open.  The
 * frames wide enough to draw are kept and written at the end, when the
 * height of the image and the largest change are known.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "numfmt.h"
#include "render_svg.h"
#include "sort.h"
#include "strbuf.h"
#include "xalloc.h"

#define ALL UINT32_MAX		/* the name id of the root frame, "all" */

enum {
	XPAD = 10,
	FRAME_HEIGHT = 16,
	FONT_SIZE = 12,
	YPAD_TOP = FONT_SIZE * 3,
	YPAD_BOTTOM = FONT_SIZE * 2 + 10
};
#define FONT_WIDTH 0.59

struct node {
	uint32_t name, depth;
	uint64_t start, end;	/* target's counts before and after it */
	uint64_t base;		/* its baseline count (inclusive) */
	uint64_t self, self_base;	/* exclusive counts */
};

struct open {
	uint32_t name;
	uint64_t start, base, self, self_base;
};

struct layout {
	const struct pv_svg_opts *opt;
	double scale;		/* pixels per count */
	struct node *node;
	size_t nnode, alloc;
	uint32_t maxdepth;
};

/* XML escaping */

/* The length of the valid UTF-8 character at s, or 0. */
static size_t
utf8_char(const unsigned char *s, size_t len)
{
	uint32_t c;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) ||
	    c == 0xfffe || c == 0xffff)
		return 0;
	return n;
}

void
pv_svg_escape(struct pv_strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		n = utf8_char(p + i, len - i);
		if (n == 0 || p[i] < 0x20 || p[i] == 0x7f) {
			/* U+FFFD, the replacement character */
			pv_strbuf_add(sb, "\xef\xbf\xbd", 3);
			i++;
			continue;
		}
		switch (p[i]) {
		case '&': pv_strbuf_addstr(sb, "&amp;"); break;
		case '<': pv_strbuf_addstr(sb, "&lt;"); break;
		case '>': pv_strbuf_addstr(sb, "&gt;"); break;
		case '"': pv_strbuf_addstr(sb, "&quot;"); break;
		case '\'': pv_strbuf_addstr(sb, "&apos;"); break;
		default: pv_strbuf_add(sb, s + i, n); break;
		}
		i += n;
	}
}

/* The bytes of the first nchar characters of s (invalid bytes count 1). */
static size_t
prefix_chars(const char *s, size_t len, size_t nchar)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len && nchar-- > 0) {
		n = utf8_char(p + i, len - i);
		i += n ? n : 1;
	}
	return i;
}

/* Sorting the stacks */

static const uint32_t *sort_rank;	/* qsort has no context argument */
static const struct pv_symtab *sort_names;

static int
cmp_name(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return pv_str_cmp(pv_symtab_get(sort_names, a),
			  pv_symtab_get(sort_names, b));
}

static int
cmp_stack(const void *pa, const void *pb)
{
	const struct pv_svg_stack *a = pa, *b = pb;
	uint32_t i, n = a->nframe < b->nframe ? a->nframe : b->nframe;

	for (i = 0; i < n; i++) {
		uint32_t ra = sort_rank[a->frame[i]];
		uint32_t rb = sort_rank[b->frame[i]];

		if (ra != rb)
			return ra < rb ? -1 : 1;
	}
	return a->nframe < b->nframe ? -1 : a->nframe > b->nframe;
}

static void
sort_stacks(const struct pv_symtab *names, struct pv_svg_stack *v, size_t n)
{
	uint32_t *id = pv_xreallocarray(NULL, names->nsym + 1, sizeof(*id));
	uint32_t *rank = pv_xreallocarray(NULL, names->nsym + 1,
					  sizeof(*rank));
	size_t i;

	for (i = 0; i < names->nsym; i++)
		id[i] = (uint32_t)i;
	sort_names = names;
	qsort(id, names->nsym, sizeof(*id), cmp_name);
	for (i = 0; i < names->nsym; i++)
		rank[id[i]] = (uint32_t)i;
	sort_rank = rank;
	/* mostly sorted already: stacks come in folded order */
	pv_sort_runs(v, n, sizeof(*v), cmp_stack);
	sort_rank = NULL;
	sort_names = NULL;
	free(id);
	free(rank);
}

/* Layout */

static void
close_frame(struct layout *l, const struct open *o, uint32_t depth,
	    uint64_t end)
{
	struct node *nd;

	if ((double)(end - o->start) * l->scale < l->opt->min_width)
		return;		/* merged into the parent's remainder */
	PV_GROW(l->node, l->nnode + 1, l->alloc);
	nd = &l->node[l->nnode++];
	nd->name = o->name;
	nd->depth = depth;
	nd->start = o->start;
	nd->end = end;
	nd->base = o->base;
	nd->self = o->self;
	nd->self_base = o->self_base;
	if (depth > l->maxdepth)
		l->maxdepth = depth;
}

/* Lay out the sorted stacks; returns -1 when the total overflows. */
static int
lay_out(struct layout *l, const struct pv_svg_stack *v, size_t n,
	uint64_t total)
{
	struct open *open = NULL;
	size_t alloc = 0, nopen = 0, i, d;
	uint64_t x = 0;

	l->scale = total ? (l->opt->width - 2 * XPAD) / (double)total : 0;
	for (i = 0; i < n; i++) {
		const struct pv_svg_stack *s = &v[i];
		size_t common = 0;

		while (common < nopen && common < s->nframe &&
		       open[common].name == s->frame[common])
			common++;
		while (nopen > common) {
			nopen--;
			close_frame(l, &open[nopen], (uint32_t)nopen + 1, x);
		}
		PV_GROW(open, s->nframe, alloc);
		for (d = common; d < s->nframe; d++) {
			memset(&open[d], 0, sizeof(open[d]));
			open[d].name = s->frame[d];
			open[d].start = x;
		}
		nopen = s->nframe;
		for (d = 0; d < nopen; d++)
			open[d].base += s->base;
		if (nopen > 0) {
			open[nopen - 1].self += s->count;
			open[nopen - 1].self_base += s->base;
		}
		x += s->count;
	}
	while (nopen > 0) {
		nopen--;
		close_frame(l, &open[nopen], (uint32_t)nopen + 1, x);
	}
	free(open);
	return x == total ? 0 : -1;
}

/* Writing */

static double
pct(uint64_t c, uint64_t total)
{
	return total ? 100.0 * (double)c / (double)total : 0.0;
}

/* The exclusive share change of a frame, in percentage points. */
static double
self_delta(const struct node *nd, uint64_t total, uint64_t total_base)
{
	return pct(nd->self, total) - pct(nd->self_base, total_base);
}

/*
 * The numbers of a frame's element, thousands of them, are written
 * without printf: pv_numfmt_fixed() gives "%.1f" and "%.2f" exactly.
 */
#define ADD_LIT(sb, s) pv_strbuf_add((sb), (s), sizeof(s) - 1)

static void
add_fixed(struct pv_strbuf *sb, double v, int prec, int plus)
{
	pv_strbuf_grow(sb, PV_NUMFMT_FIXED_MAX);
	pv_strbuf_setlen(sb, sb->len + pv_numfmt_fixed(sb->buf + sb->len, v,
						       prec, plus));
}

static void
add_u64(struct pv_strbuf *sb, uint64_t v)
{
	pv_strbuf_grow(sb, PV_NUMFMT_MAX);
	pv_strbuf_setlen(sb, sb->len + pv_numfmt_u64(sb->buf + sb->len, v));
}

static void
add_rgb(struct pv_strbuf *sb, int r, int g, int b)
{
	int c[3] = { r, g, b }, i;

	ADD_LIT(sb, "rgb(");
	for (i = 0; i < 3; i++) {
		if (i > 0)
			pv_strbuf_addch(sb, ',');
		if (c[i] < 0) {
			pv_strbuf_addch(sb, '-');
			add_u64(sb, (uint64_t)-(int64_t)c[i]);
		} else {
			add_u64(sb, (uint64_t)c[i]);
		}
	}
	pv_strbuf_addch(sb, ')');
}

static void
hot_color(struct pv_strbuf *sb, struct pv_str name)
{
	uint64_t h = pv_hash(name.s, name.len, 0);
	double v1 = (double)(h & 0xffff) / 65536.0;
	double v2 = (double)((h >> 16) & 0xffff) / 65536.0;
	double v3 = (double)((h >> 32) & 0xffff) / 65536.0;

	add_rgb(sb, 205 + (int)(50 * v3), (int)(230 * v1), (int)(55 * v2));
}

static void
diff_color(struct pv_strbuf *sb, double delta, double max)
{
	int r = 255, g = 255, b = 255;

	if (max > 0 && delta > 0)
		g = b = (int)(210 * (max - delta) / max);
	else if (max > 0 && delta < 0)
		r = g = (int)(210 * (max + delta) / max);
	add_rgb(sb, r, g, b);
}

static void
write_node(struct pv_strbuf *sb, const struct layout *l,
	   const struct pv_symtab *names, const struct node *nd,
	   uint64_t total, uint64_t total_base, double maxdelta,
	   double height)
{
	struct pv_str name = { "all", 3 };
	double x = XPAD + (double)nd->start * l->scale;
	double w = (double)(nd->end - nd->start) * l->scale;
	double y = height - YPAD_BOTTOM - (double)(nd->depth + 1) *
		   FRAME_HEIGHT;
	size_t nchar;

	if (nd->name != ALL)
		name = pv_symtab_get(names, nd->name);
	ADD_LIT(sb, "<g><title>");
	pv_svg_escape(sb, name.s, name.len);
	if (l->opt->differential) {
		ADD_LIT(sb, " (target ");
		add_u64(sb, nd->end - nd->start);
		ADD_LIT(sb, ", ");
		add_fixed(sb, pct(nd->end - nd->start, total), 2, 0);
		ADD_LIT(sb, "%; baseline ");
		add_u64(sb, nd->base);
		ADD_LIT(sb, ", ");
		add_fixed(sb, pct(nd->base, total_base), 2, 0);
		ADD_LIT(sb, "%; self ");
		add_fixed(sb, self_delta(nd, total, total_base), 2, 1);
		ADD_LIT(sb, " pp)");
	} else {
		ADD_LIT(sb, " (");
		add_u64(sb, nd->end - nd->start);
		ADD_LIT(sb, ", ");
		add_fixed(sb, pct(nd->end - nd->start, total), 2, 0);
		ADD_LIT(sb, "%)");
	}
	ADD_LIT(sb, "</title><rect x=\"");
	add_fixed(sb, x, 1, 0);
	ADD_LIT(sb, "\" y=\"");
	add_fixed(sb, y, 1, 0);
	ADD_LIT(sb, "\" width=\"");
	add_fixed(sb, w, 1, 0);
	ADD_LIT(sb, "\" height=\"");
	add_u64(sb, FRAME_HEIGHT - 1);
	ADD_LIT(sb, "\" fill=\"");
	if (l->opt->differential)
		diff_color(sb, self_delta(nd, total, total_base), maxdelta);
	else
		hot_color(sb, name);
	ADD_LIT(sb, "\" rx=\"2\" ry=\"2\"/>");
	/* as many characters as fit, else ".." at the end, else none */
	nchar = (size_t)(w / (FONT_SIZE * FONT_WIDTH));
	if (nchar >= 3) {
		size_t len = prefix_chars(name.s, name.len, nchar);

		ADD_LIT(sb, "<text x=\"");
		add_fixed(sb, x + 3, 1, 0);
		ADD_LIT(sb, "\" y=\"");
		add_fixed(sb, y + 10.5, 1, 0);
		ADD_LIT(sb, "\">");
		if (len < name.len) {
			len = prefix_chars(name.s, name.len, nchar - 2);
			pv_svg_escape(sb, name.s, len);
			ADD_LIT(sb, "..");
		} else {
			pv_svg_escape(sb, name.s, name.len);
		}
		ADD_LIT(sb, "</text>");
	}
	ADD_LIT(sb, "</g>\n");
}

int
pv_svg_write(FILE *out, const struct pv_svg_opts *opt,
	     const struct pv_symtab *names, struct pv_svg_stack *v, size_t n)
{
	struct pv_svg_opts o = *opt;
	struct layout l;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct node all;
	uint64_t total = 0, total_base = 0;
	double maxdelta = 0, height;
	const char *title;
	size_t i;

	for (i = 0; i < n; i++) {
		if (total > UINT64_MAX - v[i].count ||
		    total_base > UINT64_MAX - v[i].base)
			return -1;
		total += v[i].count;
		total_base += v[i].base;
	}
	if (o.width <= 2 * XPAD)
		o.width = 1200;
	if (o.min_width < 0)
		o.min_width = 0.1;
	title = o.title ? o.title : o.differential ?
		"Differential Flame Graph" : "Flame Graph";
	memset(&l, 0, sizeof(l));
	l.opt = &o;
	sort_stacks(names, v, n);
	if (lay_out(&l, v, n, total) < 0) {
		free(l.node);
		return -1;
	}
	memset(&all, 0, sizeof(all));
	all.name = ALL;
	all.end = total;
	all.base = total_base;
	for (i = 0; i < l.nnode; i++) {
		double dlt = fabs(self_delta(&l.node[i], total, total_base));

		if (dlt > maxdelta)
			maxdelta = dlt;
	}
	height = (double)(l.maxdepth + 1) * FRAME_HEIGHT + YPAD_TOP +
		 YPAD_BOTTOM;

	pv_strbuf_addf(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\" "
		       "standalone=\"no\"?>\n"
		       "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
		       "viewBox=\"0 0 %.0f %.0f\" "
		       "xmlns=\"http://www.w3.org/2000/svg\">\n",
		       o.width, height, o.width, height);
	pv_strbuf_addstr(&sb, "<defs><linearGradient id=\"background\" "
			 "y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
			 "<stop stop-color=\"#eeeeee\" offset=\"5%\"/>"
			 "<stop stop-color=\"");
	pv_strbuf_addstr(&sb, o.differential ? "#eeeeee" : "#eeeeb0");
	pv_strbuf_addstr(&sb, "\" offset=\"95%\"/></linearGradient></defs>\n"
			 "<style>text { font-family: Verdana, sans-serif; "
			 "font-size: 12px; fill: rgb(0,0,0); }</style>\n"
			 "<rect x=\"0\" y=\"0\" width=\"100%\" "
			 "height=\"100%\" fill=\"url(#background)\"/>\n");
	pv_strbuf_addf(&sb, "<text x=\"%.1f\" y=\"24\" text-anchor=\"middle\""
		       " style=\"font-size:17px\">", o.width / 2);
	pv_svg_escape(&sb, title, strlen(title));
	pv_strbuf_addstr(&sb, "</text>\n");
	if (o.differential)
		pv_strbuf_addf(&sb, "<text x=\"%d\" y=\"%.0f\">width: target; "
			       "red: exclusive share grew, blue: shrank "
			       "(largest change %.2f pp)</text>\n", XPAD,
			       height - 17, maxdelta);
	fwrite(sb.buf, 1, sb.len, out);
	pv_strbuf_reset(&sb);
	write_node(&sb, &l, names, &all, total, total_base, maxdelta,
		   height);
	for (i = 0; i < l.nnode; i++) {
		write_node(&sb, &l, names, &l.node[i], total, total_base,
			   maxdelta, height);
		if (sb.len > 65536) {
			fwrite(sb.buf, 1, sb.len, out);
			pv_strbuf_reset(&sb);
		}
	}
	pv_strbuf_addstr(&sb, "</svg>\n");
	fwrite(sb.buf, 1, sb.len, out);
	pv_strbuf_release(&sb);
	free(l.node);
	return 0;
}
