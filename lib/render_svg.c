/*
 * render_svg: static flame graphs (see render_svg.h).
 *
 * The call tree is walked depth first, each node's children in byte-wise
 * order of their names, as flamegraph.pl's flow lays the sorted stacks
 * out: a node starts where its parent's stacks that end at the parent
 * stop, and its children follow one another from its own end stacks on.
 * The frames wide enough to draw are kept, each when the walk leaves it,
 * and written at the end, when the height of the image and the largest
 * change are known.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flametree.h"
#include "hash.h"
#include "numfmt.h"
#include "render_svg.h"
#include "strbuf.h"
#include "textenc.h"
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

struct layout {
	const struct pv_svg_opts *opt;
	double scale;		/* pixels per count */
	struct node *node;
	size_t nnode, alloc;
	uint32_t maxdepth;
};

/* XML escaping */

void
pv_svg_escape(struct pv_strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		n = pv_textenc_utf8_len(p + i, len - i);
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
		n = pv_textenc_utf8_len(p + i, len - i);
		i += n ? n : 1;
	}
	return i;
}

/* Layout */

/* Names by rank in byte-wise order: qsort has no context argument */
static const struct pv_symtab *sort_names;
static const uint32_t *sort_rank;

static int
cmp_name(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return pv_str_cmp(pv_symtab_get(sort_names, a),
			  pv_symtab_get(sort_names, b));
}

static uint32_t *
name_ranks(const struct pv_symtab *names)
{
	uint32_t *id = pv_xreallocarray(NULL, names->nsym + 1, sizeof(*id));
	uint32_t *rank = pv_xreallocarray(NULL, names->nsym + 1,
					  sizeof(*rank));
	size_t i;

	for (i = 0; i < names->nsym; i++)
		id[i] = (uint32_t)i;
	sort_names = names;
	qsort(id, names->nsym, sizeof(*id), cmp_name);
	sort_names = NULL;
	for (i = 0; i < names->nsym; i++)
		rank[id[i]] = (uint32_t)i;
	free(id);
	return rank;
}

static const struct pv_flametree *sort_tree;

static int
cmp_kid(const void *pa, const void *pb)
{
	uint32_t a = sort_rank[sort_tree->node[*(const uint32_t *)pa].name];
	uint32_t b = sort_rank[sort_tree->node[*(const uint32_t *)pb].name];

	return a < b ? -1 : a > b;
}

/* A node on the walk's path. */
struct visit {
	uint32_t node, depth;
	uint64_t start;		/* the target's counts before it */
	uint64_t x;		/* where its next child starts */
	size_t kid, end;	/* its children still to walk: kids[kid..end) */
};

/*
 * Append the children of node i, by rank, to kids[*n..]: a tree built
 * from sorted stacks links them in the reverse order, so that the sort
 * finds them in order.
 */
static void
children(const struct pv_flametree *t, uint32_t i, const uint32_t *rank,
	 uint32_t **kids, size_t *n, size_t *alloc)
{
	size_t first = *n, k;
	uint32_t c;
	int sorted = 1;

	for (c = t->node[i].child; c != PV_FLAMETREE_NONE;
	     c = t->node[c].sibling) {
		PV_GROW(*kids, *n + 1, *alloc);
		(*kids)[(*n)++] = c;
	}
	for (k = first; k < first + (*n - first) / 2; k++) {
		c = (*kids)[k];
		(*kids)[k] = (*kids)[*n - 1 - (k - first)];
		(*kids)[*n - 1 - (k - first)] = c;
	}
	for (k = first + 1; k < *n && sorted; k++)
		sorted = rank[t->node[(*kids)[k - 1]].name] <
			 rank[t->node[(*kids)[k]].name];
	if (!sorted) {
		sort_rank = rank;
		sort_tree = t;
		qsort(*kids + first, *n - first, sizeof(**kids), cmp_kid);
		sort_rank = NULL;
		sort_tree = NULL;
	}
}

static void
keep(struct layout *l, const struct pv_flametree *t, const struct visit *v)
{
	const struct pv_ftnode *n = &t->node[v->node];
	struct node *nd;

	PV_GROW(l->node, l->nnode + 1, l->alloc);
	nd = &l->node[l->nnode++];
	nd->name = n->name;
	nd->depth = v->depth;
	nd->start = v->start;
	nd->end = v->start + n->w[1];
	nd->base = n->w[0];
	nd->self = pv_flametree_self(t, v->node, 1);
	nd->self_base = pv_flametree_self(t, v->node, 0);
	if (v->depth > l->maxdepth)
		l->maxdepth = v->depth;
}

/*
 * Lay out the frames wide enough to draw, each kept as the walk leaves
 * it; a frame too narrow is passed over with all that it calls (they are
 * narrower still), its width staying in its parent's.
 */
static void
lay_out(struct layout *l, const struct pv_flametree *t,
	const struct pv_symtab *names)
{
	uint32_t *rank = name_ranks(names), *kids = NULL;
	struct visit *path = NULL;
	size_t npath = 0, path_alloc = 0, nkids = 0, kids_alloc = 0;
	uint64_t total = t->node[0].w[1];

	l->scale = total ? (l->opt->width - 2 * XPAD) / (double)total : 0;
	PV_GROW(path, 1, path_alloc);
	children(t, 0, rank, &kids, &nkids, &kids_alloc);
	path[0].node = 0;
	path[0].depth = 0;
	path[0].start = 0;
	path[0].x = pv_flametree_self(t, 0, 1);
	path[0].kid = 0;
	path[0].end = nkids;
	npath = 1;
	while (npath > 0) {
		struct visit *v = &path[npath - 1];
		uint32_t c;
		uint64_t w;

		if (v->kid == v->end) {
			if (npath > 1)
				keep(l, t, v);
			/* its children were put after its parent's */
			npath--;
			if (npath > 0)
				nkids = path[npath - 1].end;
			continue;
		}
		c = kids[v->kid++];
		w = t->node[c].w[1];
		if ((double)w * l->scale < l->opt->min_width) {
			v->x += w;
			continue;
		}
		PV_GROW(path, npath + 1, path_alloc);
		v = &path[npath - 1];
		path[npath].node = c;
		path[npath].depth = v->depth + 1;
		path[npath].start = v->x;
		path[npath].x = v->x + pv_flametree_self(t, c, 1);
		v->x += w;
		path[npath].kid = nkids;
		children(t, c, rank, &kids, &nkids, &kids_alloc);
		path[npath].end = nkids;
		npath++;
	}
	free(path);
	free(kids);
	free(rank);
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
	     const struct pv_symtab *names, const struct pv_flametree *t)
{
	struct pv_svg_opts o = *opt;
	struct layout l;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct node all;
	uint64_t total = t->node[0].w[1], total_base = t->node[0].w[0];
	double maxdelta = 0, height;
	const char *title;
	size_t i;

	if (t->overflow)
		return -1;
	if (o.width <= 2 * XPAD)
		o.width = 1200;
	if (o.min_width < 0)
		o.min_width = 0.1;
	title = o.title ? o.title : o.differential ?
		"Differential Flame Graph" : "Flame Graph";
	memset(&l, 0, sizeof(l));
	l.opt = &o;
	lay_out(&l, t, names);
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
