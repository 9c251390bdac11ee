/*
 * render_html: the HTML report (see render_html.h).  This file collects
 * the records and writes the document; the page's behaviour lives in
 * lib/html/report.js and its look in lib/html/report.css.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "flametree.h"
#include "html_assets.h"
#include "rec_profile.h"
#include "render_html.h"
#include "sha256.h"
#include "stackdiff.h"
#include "symtab.h"
#include "xalloc.h"

enum role { ROLE_OTHER, ROLE_BASE, ROLE_TARGET, ROLE_DIFF };

struct kv {
	int env;		/* 0 meta, 1 env */
	char *key, *value;
};

/* what a section of one role says about its subject */
struct side {
	char *version, *experiment;
	int seen;
	struct kv *kv;
	size_t nkv, alloc;
};

/* a function's inclusive and exclusive weights, baseline then target */
struct func {
	uint32_t name;
	uint64_t v[4];		/* incl base, excl base, incl target, excl target */
};

struct event {
	char *name;
	int from_dstack;	/* 1: dstack records; 0: stack records */
	struct pv_flametree tree;
	uint64_t total[2], samples[2];
	int have_total;
	/*
	 * func records of pv-diff, in their order; without them (from_func
	 * 0), the figures stackdiff computes from the tree's stacks, in the
	 * order of their names (funcs())
	 */
	struct func *func;
	size_t nfunc, func_alloc;
	int from_func;
};

struct pv_html {
	struct pv_symtab names;
	struct side side[2];
	struct side diff;	/* the section pv-diff opens */
	enum role role;
	struct event *ev;
	size_t nev, ev_alloc;
	uint32_t *frames;
	size_t frames_alloc;
	double min_share;
	const char *only;	/* the one event shown, or NULL */
	char err[256];
};

struct pv_html *
pv_html_new(void)
{
	struct pv_html *h = pv_xcalloc(1, sizeof(*h));

	pv_symtab_init(&h->names);
	h->min_share = PV_HTML_MIN_SHARE;
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

void
pv_html_free(struct pv_html *h)
{
	size_t i;

	if (h == NULL)
		return;
	for (i = 0; i < h->nev; i++) {
		free(h->ev[i].name);
		pv_flametree_release(&h->ev[i].tree);
		free(h->ev[i].func);
	}
	free(h->ev);
	side_release(&h->side[0]);
	side_release(&h->side[1]);
	side_release(&h->diff);
	free(h->frames);
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

static struct event *
event_of(struct pv_html *h, struct pv_str name, int from_dstack)
{
	struct event *e;
	size_t i;

	for (i = 0; i < h->nev; i++) {
		e = &h->ev[i];
		if (e->from_dstack == from_dstack && strlen(e->name) == name.len
		    && memcmp(e->name, name.s, name.len) == 0)
			return e;
	}
	PV_GROW(h->ev, h->nev + 1, h->ev_alloc);
	e = &h->ev[h->nev++];
	memset(e, 0, sizeof(*e));
	e->name = pv_xmemdup(name.s, name.len);
	e->from_dstack = from_dstack;
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
section(struct pv_html *h, const struct pv_record *rec)
{
	struct side *s;

	if (pv_str_eq(rec->role, "baseline")) {
		h->role = ROLE_BASE;
		s = &h->side[0];
	} else if (pv_str_eq(rec->role, "target")) {
		h->role = ROLE_TARGET;
		s = &h->side[1];
	} else if (pv_str_eq(rec->role, "diff")) {
		h->role = ROLE_DIFF;
		s = &h->diff;
	} else {
		h->role = ROLE_OTHER;
		return;
	}
	if (s->seen++)
		return;		/* the first section of a role names it */
	s->version = pv_xmemdup(rec->version.s, rec->version.len);
	s->experiment = pv_xmemdup(rec->experiment.s, rec->experiment.len);
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
	e = event_of(h, rec->field[1], 1);
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
	return add_path(h, event_of(h, rec->field[1], 1), d.frame, d.nframe,
			d.period[0], d.period[1]);
}

/*
 * The counts of a func record are what the page shows; it takes the
 * shares and changes from them and the totals (for which the record's
 * agree, but with pv-diff --raw).
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
	e = event_of(h, rec->field[1], 1);
	e->from_func = 1;
	PV_GROW(e->func, e->nfunc + 1, e->func_alloc);
	f = &e->func[e->nfunc++];
	f->name = pv_symtab_intern(&h->names, r.name.s, r.name.len);
	f->v[0] = r.incl[0];
	f->v[1] = r.excl[0];
	f->v[2] = r.incl[1];
	f->v[3] = r.excl[1];
	return 0;
}

int
pv_html_add(struct pv_html *h, const struct pv_record *rec)
{
	static const struct pv_str nameless = { "", 0 };

	switch (rec->type) {
	case PV_REC_SECTION:
		section(h, rec);
		return 0;
	case PV_REC_META:
	case PV_REC_ENV:
		if (h->role == ROLE_BASE || h->role == ROLE_TARGET)
			side_add(&h->side[h->role == ROLE_TARGET],
				 rec->type == PV_REC_ENV, rec->key, rec->value);
		else if (h->role == ROLE_DIFF)
			side_add(&h->diff, rec->type == PV_REC_ENV, rec->key,
				 rec->value);
		return 0;
	case PV_REC_STACK:
		if (rec->folded == 2)	/* diff-folded: both sides at once */
			return add_path(h, event_of(h, nameless, 0),
					rec->frame, rec->nframe, rec->period,
					rec->period2);
		if (h->role == ROLE_BASE || h->role == ROLE_TARGET)
			return add_path(h, event_of(h, rec->event, 0),
					rec->frame, rec->nframe,
					h->role == ROLE_BASE ? rec->period : 0,
					h->role == ROLE_TARGET ? rec->period :
					0);
		return 0;
	case PV_REC_OTHER:
		if (pv_str_eq(rec->field[0], "total"))
			return total(h, rec);
		if (pv_str_eq(rec->field[0], "dstack"))
			return dstack(h, rec);
		if (pv_str_eq(rec->field[0], "func"))
			return func(h, rec);
		return 0;
	default:
		return 0;
	}
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

static void
html_escape(struct pv_strbuf *sb, const char *s, size_t len)
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
 * A JSON string that may sit inside a script element: besides what JSON
 * needs, '<', '>' and '&' are written as \u escapes, so that no "</script"
 * or "<!--" can appear.
 */
static void
json_string(struct pv_strbuf *sb, const char *s, size_t len)
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

static void
json_cstr(struct pv_strbuf *sb, const char *s)
{
	json_string(sb, s != NULL ? s : "", s != NULL ? strlen(s) : 0);
}

/* Writing: the data */

struct emit {
	struct pv_html *h;
	struct pv_strbuf *sb;
	uint32_t *rank;		/* name id -> rank in byte order */
	uint32_t *remap;	/* name id -> index in the page's name list */
	uint32_t *used;		/* the names the page lists, in that order */
	size_t nused;
};

static int
cmp_names(const void *a, const void *b, void *arg)
{
	const struct pv_symtab *t = arg;

	return pv_str_cmp(pv_symtab_get(t, *(const uint32_t *)a),
			  pv_symtab_get(t, *(const uint32_t *)b));
}

static uint32_t
use_name(struct emit *em, uint32_t id)
{
	if (em->remap[id] == UINT32_MAX) {
		em->remap[id] = (uint32_t)em->nused;
		em->used[em->nused++] = id;
	}
	return em->remap[id];
}

struct child {
	uint32_t rank, node;
};

static int
cmp_child(const void *a, const void *b)
{
	const struct child *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int
kept(const struct pv_ftnode *n, const double *min)
{
	return (double)n->w[0] >= min[0] || (double)n->w[1] >= min[1];
}

/*
 * The tree in depth-first order, children by name, as four arrays: name
 * index (-1 the root, -(k + 1) a merge of k small call paths), depth,
 * baseline weight, target weight.
 */
static void
emit_tree(struct emit *em, const struct pv_flametree *t)
{
	struct pv_strbuf n = PV_STRBUF_INIT, d = PV_STRBUF_INIT;
	struct pv_strbuf b = PV_STRBUF_INIT, w = PV_STRBUF_INIT;
	struct child *kids = NULL;
	size_t nkids_alloc = 0;
	uint32_t *stack = NULL;
	unsigned *depth = NULL;
	size_t sp = 0, stack_alloc = 0, depth_alloc = 0, count = 0;
	double min[2];

	min[0] = (double)t->node[0].w[0] * em->h->min_share;
	min[1] = (double)t->node[0].w[1] * em->h->min_share;
	PV_GROW(stack, 1, stack_alloc);
	PV_GROW(depth, 1, depth_alloc);
	stack[sp] = 0;
	depth[sp++] = 0;
	while (sp > 0) {
		uint32_t at = stack[--sp];
		unsigned dep = depth[sp];
		const struct pv_ftnode *nd = &t->node[at];
		uint64_t mw[2] = { 0, 0 };
		size_t nk = 0, merged = 0, i;
		uint32_t c;

		if (count++ > 0) {
			pv_strbuf_addch(&n, ',');
			pv_strbuf_addch(&d, ',');
			pv_strbuf_addch(&b, ',');
			pv_strbuf_addch(&w, ',');
		}
		if (at == 0)
			pv_strbuf_addstr(&n, "-1");
		else
			pv_strbuf_addf(&n, "%u", use_name(em, nd->name));
		pv_strbuf_addf(&d, "%u", dep);
		pv_strbuf_addf(&b, "%llu", (unsigned long long)nd->w[0]);
		pv_strbuf_addf(&w, "%llu", (unsigned long long)nd->w[1]);

		for (c = nd->child; c != PV_FLAMETREE_NONE;
		     c = t->node[c].sibling) {
			if (!kept(&t->node[c], min)) {
				mw[0] += t->node[c].w[0];
				mw[1] += t->node[c].w[1];
				merged++;
				continue;
			}
			PV_GROW(kids, nk + 1, nkids_alloc);
			kids[nk].rank = em->rank[t->node[c].name];
			kids[nk++].node = c;
		}
		if (merged > 0) {
			/* a leaf right after its parent; the page draws it
			 * after the kept children */
			pv_strbuf_addf(&n, ",-%zu", merged + 1);
			pv_strbuf_addf(&d, ",%u", dep + 1);
			pv_strbuf_addf(&b, ",%llu", (unsigned long long)mw[0]);
			pv_strbuf_addf(&w, ",%llu", (unsigned long long)mw[1]);
		}
		if (nk > 1)
			qsort(kids, nk, sizeof(*kids), cmp_child);
		PV_GROW(stack, sp + nk, stack_alloc);
		PV_GROW(depth, sp + nk, depth_alloc);
		for (i = nk; i > 0; i--) {	/* the first child on top */
			stack[sp] = kids[i - 1].node;
			depth[sp++] = dep + 1;
		}
	}
	pv_strbuf_addstr(em->sb, "\"tree\":{\"n\":[");
	pv_strbuf_add(em->sb, n.buf, n.len);
	pv_strbuf_addstr(em->sb, "],\"d\":[");
	pv_strbuf_add(em->sb, d.buf, d.len);
	pv_strbuf_addstr(em->sb, "],\"b\":[");
	pv_strbuf_add(em->sb, b.buf, b.len);
	pv_strbuf_addstr(em->sb, "],\"t\":[");
	pv_strbuf_add(em->sb, w.buf, w.len);
	pv_strbuf_addstr(em->sb, "]}");
	pv_strbuf_release(&n);
	pv_strbuf_release(&d);
	pv_strbuf_release(&b);
	pv_strbuf_release(&w);
	free(kids);
	free(stack);
	free(depth);
}

static void
emit_func(struct emit *em, uint32_t name, const uint64_t *v, int first)
{
	pv_strbuf_addf(em->sb, "%s%u,%llu,%llu,%llu,%llu", first ? "" : ",",
		       use_name(em, name), (unsigned long long)v[0],
		       (unsigned long long)v[1], (unsigned long long)v[2],
		       (unsigned long long)v[3]);
}

static int
cmp_func_name(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return x->name < y->name ? -1 : x->name > y->name;
}

/*
 * The functions of an event without func records: the stacks of its tree
 * (each node's exclusive weights) compared by stackdiff, as pv-diff would,
 * and listed in the order the names were met; those on neither side left
 * out.  Returns 0, or -1 (h->err set) when the stacks pass the stack
 * table's limit.
 */
static int
funcs(struct pv_html *h, struct event *e)
{
	static const struct pv_stackdiff_opts asis = { .keep_suffixes = 1 };
	static const struct pv_str nameless = { "", 0 };
	const struct pv_flametree *t = &e->tree;
	struct pv_stackdiff d;
	struct pv_str *path = NULL;
	size_t depth = 0, alloc = 0, i;
	uint32_t n = t->node[0].child;
	int rc = 0;

	pv_stackdiff_init(&d, &asis);
	/* depth first by the tree's links, the path's names in path[] */
	while (n != PV_FLAMETREE_NONE && rc == 0) {
		const struct pv_ftnode *nd = &t->node[n];
		int side;

		PV_GROW(path, depth + 1, alloc);
		path[depth++] = pv_symtab_get(&h->names, nd->name);
		for (side = 0; side < 2 && rc == 0; side++) {
			uint64_t self = pv_flametree_self(t, n, side);

			if (self != 0)
				rc = pv_stackdiff_add(&d, side, nameless, path,
						      depth, self, self);
		}
		if (nd->child != PV_FLAMETREE_NONE) {
			n = nd->child;
			continue;
		}
		for (;;) {
			depth--;
			if (t->node[n].sibling != PV_FLAMETREE_NONE) {
				n = t->node[n].sibling;
				break;
			}
			n = t->node[n].parent;
			if (n == 0) {
				n = PV_FLAMETREE_NONE;
				break;
			}
		}
	}
	free(path);
	/* the tree's weights fit in 64 bits (pv_html_write()): so do these */
	if (rc < 0 || pv_stackdiff_compute(&d) < 0) {
		rc = bad(h, "%s", pv_err_msg(&d.err));
		pv_stackdiff_release(&d);
		return rc;
	}
	for (i = 0; i < d.nfunc; i++) {
		const struct pv_stackdiff_func *f = &d.func[i];
		struct pv_str name = pv_symtab_get(&d.names, f->name);
		struct func *g;

		if (f->incl[0] == 0 && f->incl[1] == 0)
			continue;
		PV_GROW(e->func, e->nfunc + 1, e->func_alloc);
		g = &e->func[e->nfunc++];
		g->name = pv_symtab_intern(&h->names, name.s, name.len);
		g->v[0] = f->incl[0];
		g->v[1] = f->excl[0];
		g->v[2] = f->incl[1];
		g->v[3] = f->excl[1];
	}
	if (e->nfunc > 1)
		qsort(e->func, e->nfunc, sizeof(*e->func), cmp_func_name);
	pv_stackdiff_release(&d);
	return 0;
}

static void
emit_event(struct emit *em, const struct event *e)
{
	const struct pv_ftnode *root = &e->tree.node[0];
	uint64_t tot[2], smp[2];
	size_t i;

	tot[0] = e->have_total ? e->total[0] : root->w[0];
	tot[1] = e->have_total ? e->total[1] : root->w[1];
	smp[0] = e->have_total ? e->samples[0] : 0;
	smp[1] = e->have_total ? e->samples[1] : 0;
	pv_strbuf_addstr(em->sb, "{\"name\":");
	json_cstr(em->sb, e->name[0] != '\0' ? e->name : "samples");
	pv_strbuf_addf(em->sb, ",\"total\":[%llu,%llu],\"samples\":[%llu,%llu]"
		       ",\"merged\":%g,\"source\":\"%s\",",
		       (unsigned long long)tot[0], (unsigned long long)tot[1],
		       (unsigned long long)smp[0], (unsigned long long)smp[1],
		       em->h->min_share, e->from_func ? "func" : "stacks");
	emit_tree(em, &e->tree);
	pv_strbuf_addstr(em->sb, ",\"func\":[");
	for (i = 0; i < e->nfunc; i++)
		emit_func(em, e->func[i].name, e->func[i].v, i == 0);
	pv_strbuf_addstr(em->sb, "]}");
}

static void
emit_side(struct pv_strbuf *sb, const char *key, const struct side *s)
{
	pv_strbuf_addf(sb, "\"%s\":{\"version\":", key);
	json_cstr(sb, s->version);
	pv_strbuf_addstr(sb, ",\"experiment\":");
	json_cstr(sb, s->experiment);
	pv_strbuf_addch(sb, '}');
}

/* The data; returns the number of events shown. */
static size_t
emit_data(struct pv_html *h, struct pv_strbuf *sb)
{
	struct emit em;
	size_t i, k, nsym = h->names.nsym, shown = 0;
	int dstacks = 0;
	uint32_t *order = pv_xreallocarray(NULL, nsym + 1, sizeof(*order));

	for (i = 0; i < h->nev; i++)
		if (h->ev[i].from_dstack && h->ev[i].tree.nnode > 1 &&
		    (h->only == NULL || strcmp(h->ev[i].name, h->only) == 0))
			dstacks = 1;
	em.h = h;
	em.rank = pv_xreallocarray(NULL, nsym + 1, sizeof(*em.rank));
	em.remap = pv_xreallocarray(NULL, nsym + 1, sizeof(*em.remap));
	em.used = pv_xreallocarray(NULL, nsym + 1, sizeof(*em.used));
	em.nused = 0;
	for (i = 0; i < nsym; i++) {
		order[i] = (uint32_t)i;
		em.remap[i] = UINT32_MAX;
	}
	qsort_r(order, nsym, sizeof(*order), cmp_names, &h->names);
	for (i = 0; i < nsym; i++)
		em.rank[order[i]] = (uint32_t)i;

	/* the events first, into their own buffer, to learn the names used */
	em.sb = pv_xcalloc(1, sizeof(*em.sb));
	pv_strbuf_init(em.sb, 0);
	for (i = 0; i < h->nev; i++) {
		const struct event *e = &h->ev[i];

		if (e->from_dstack != dstacks || e->tree.nnode <= 1)
			continue;
		if (h->only != NULL && strcmp(e->name, h->only) != 0)
			continue;
		if (shown++ > 0)
			pv_strbuf_addch(em.sb, ',');
		emit_event(&em, e);
	}

	pv_strbuf_addstr(sb, "{\"format\":1,");
	emit_side(sb, "base", &h->side[0]);
	pv_strbuf_addch(sb, ',');
	emit_side(sb, "target", &h->side[1]);
	pv_strbuf_addstr(sb, ",\"names\":[");
	for (k = 0; k < em.nused; k++) {
		struct pv_str s = pv_symtab_get(&h->names, em.used[k]);

		if (k > 0)
			pv_strbuf_addch(sb, ',');
		json_string(sb, s.s, s.len);
	}
	pv_strbuf_addstr(sb, "],\"events\":[");
	pv_strbuf_add(sb, em.sb->buf, em.sb->len);
	pv_strbuf_addstr(sb, "],\"summary\":null}");

	pv_strbuf_release(em.sb);
	free(em.sb);
	free(em.rank);
	free(em.remap);
	free(em.used);
	free(order);
	return shown;
}

/* Writing: the document */

static void
context_cell(struct pv_strbuf *sb, const char *v, int present)
{
	if (!present) {
		pv_strbuf_addstr(sb, "<td class=\"absent\">absent</td>");
		return;
	}
	pv_strbuf_addstr(sb, "<td>");
	html_escape(sb, v, strlen(v));
	pv_strbuf_addstr(sb, "</td>");
}

static void
context_row(struct pv_strbuf *sb, const char *kind, const char *key,
	    const char *v0, int p0, const char *v1, int p1)
{
	int differ = p0 != p1 || (p0 && strcmp(v0, v1) != 0);

	pv_strbuf_addf(sb, "<tr%s><th scope=\"row\"><span class=\"kind\">%s"
		       "</span> ", differ ? " class=\"differ\"" : "", kind);
	html_escape(sb, key, strlen(key));
	pv_strbuf_addstr(sb, "</th>");
	context_cell(sb, v0, p0);
	context_cell(sb, v1, p1);
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

static void
context_table(struct pv_html *h, struct pv_strbuf *sb)
{
	const struct side *side = h->side;
	int s;
	size_t i;

	pv_strbuf_addstr(sb, "<table id=\"context-table\" class=\"context\">"
			 "<thead><tr><th scope=\"col\"></th><th scope=\"col\">"
			 "baseline</th><th scope=\"col\">target</th></tr>"
			 "</thead>\n<tbody>\n");
	context_row(sb, "", "version", side[0].version ? side[0].version : "",
		    side[0].seen, side[1].version ? side[1].version : "",
		    side[1].seen);
	context_row(sb, "", "experiment",
		    side[0].experiment ? side[0].experiment : "", side[0].seen,
		    side[1].experiment ? side[1].experiment : "",
		    side[1].seen);
	/* every key once, in the order of first appearance */
	for (s = 0; s < 2; s++) {
		for (i = 0; i < side[s].nkv; i++) {
			const struct kv *kv = &side[s].kv[i];
			char *v0, *v1;

			if (listed_before(side, s, i, kv))
				continue;
			v0 = side_values(&side[0], kv->env, kv->key);
			v1 = side_values(&side[1], kv->env, kv->key);
			context_row(sb, kv->env ? "env" : "meta", kv->key,
				    v0 ? v0 : "", v0 != NULL, v1 ? v1 : "",
				    v1 != NULL);
			free(v0);
			free(v1);
		}
	}
	pv_strbuf_addstr(sb, "</tbody></table>\n");
	if (h->diff.nkv > 0) {
		pv_strbuf_addstr(sb, "<table class=\"context\"><caption>"
				 "comparison</caption><tbody>\n");
		for (i = 0; i < h->diff.nkv; i++) {
			pv_strbuf_addf(sb, "<tr><th scope=\"row\"><span "
				       "class=\"kind\">%s</span> ",
				       h->diff.kv[i].env ? "env" : "meta");
			html_escape(sb, h->diff.kv[i].key,
				    strlen(h->diff.kv[i].key));
			pv_strbuf_addstr(sb, "</th><td>");
			html_escape(sb, h->diff.kv[i].value,
				    strlen(h->diff.kv[i].value));
			pv_strbuf_addstr(sb, "</td></tr>\n");
		}
		pv_strbuf_addstr(sb, "</tbody></table>\n");
	}
}

static const char body_html[] =
	"<nav id=\"tabs\"></nav>\n"
	"<main>\n"
	"<section id=\"context\" data-tab=\"Context\">\n<h2>Context</h2>\n"
	"@CONTEXT@"
	"</section>\n"
	"<section id=\"flame\" data-tab=\"Flame graphs\"><h2>Flame graphs"
	"</h2></section>\n"
	"<section id=\"functions\" data-tab=\"Functions\"><h2>All functions"
	"</h2></section>\n"
	"<section id=\"flows\" data-tab=\"Call flows\"><h2>Call flows</h2>"
	"</section>\n"
	"<section id=\"notes\" data-tab=\"Notes\"><h2>Notes</h2></section>\n"
	"</main>\n"
	"<noscript><p>The graphs and tables of this report need JavaScript; "
	"the context above does not.</p></noscript>\n";

int
pv_html_write(struct pv_html *h, FILE *out)
{
	struct pv_strbuf sb = PV_STRBUF_INIT, title = PV_STRBUF_INIT;
	struct pv_strbuf data = PV_STRBUF_INIT;
	const char *at;
	size_t i;

	for (i = 0; i < h->nev; i++)
		if (h->ev[i].tree.overflow)
			return bad(h, "a count does not fit in 64 bits");
	for (i = 0; i < h->nev; i++)
		if (!h->ev[i].from_func && h->ev[i].tree.nnode > 1 &&
		    funcs(h, &h->ev[i]) < 0)
			return -1;
	if (emit_data(h, &data) == 0) {
		pv_strbuf_release(&data);
		if (h->only != NULL)
			return bad(h, "no stacks of event '%s' to show",
				   h->only);
		return bad(h, "no stacks to show: the input holds neither "
			   "dstack records (pv-diff) nor stacks in baseline "
			   "or target sections");
	}
	pv_strbuf_addstr(&title, "pv report: ");
	pv_strbuf_addstr(&title, h->side[0].version && *h->side[0].version ?
			 h->side[0].version : "baseline");
	pv_strbuf_addstr(&title, " .. ");
	pv_strbuf_addstr(&title, h->side[1].version && *h->side[1].version ?
			 h->side[1].version : "target");

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
	html_escape(&sb, title.buf, title.len);
	pv_strbuf_addstr(&sb, "</title>\n<style>");
	pv_strbuf_addstr(&sb, pv_html_report_css);
	pv_strbuf_addstr(&sb, "</style>\n</head>\n<body>\n<header><h1>");
	html_escape(&sb, title.buf, title.len);
	pv_strbuf_addstr(&sb, "</h1></header>\n");
	at = strstr(body_html, "@CONTEXT@");
	pv_strbuf_add(&sb, body_html, (size_t)(at - body_html));
	context_table(h, &sb);
	pv_strbuf_addstr(&sb, at + strlen("@CONTEXT@"));
	fwrite(sb.buf, 1, sb.len, out);

	fputs("<script type=\"application/json\" id=\"pv-data\">", out);
	fwrite(data.buf, 1, data.len, out);
	fputs("</script>\n<script type=\"application/json\" id=\"pv-notes\">"
	      "[]</script>\n<script>", out);
	fputs(pv_html_report_js, out);
	fputs("</script>\n</body>\n</html>\n", out);
	pv_strbuf_release(&sb);
	pv_strbuf_release(&title);
	pv_strbuf_release(&data);
	return 0;
}
