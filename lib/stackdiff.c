/*
 * stackdiff: two profiles paired stack by stack and function by function
 * (see stackdiff.h).
 *
 * Frame names are interned twice: as read (raw), and normalised (names),
 * with a raw id -> normalised id map, so that each distinct name is
 * normalised once however often it appears.  The distinct stacks of both
 * sides share one stacktab whose own counts stay zero; the per-side counts
 * live in the parallel pair array.  Functions are found, event by event
 * over the sorted stacks, in an array indexed by name id.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "stackdiff.h"
#include "xalloc.h"

#define NONE UINT32_MAX

void
pv_stackdiff_init(struct pv_stackdiff *d, const struct pv_stackdiff_opts *opt)
{
	memset(d, 0, sizeof(*d));
	if (opt != NULL)
		d->opt = *opt;
	pv_symtab_init(&d->names);
	pv_symtab_init(&d->raw);
	pv_stacktab_init(&d->stacks);
	pv_strbuf_init(&d->buf, 0);
}

void
pv_stackdiff_release(struct pv_stackdiff *d)
{
	pv_symtab_release(&d->names);
	pv_symtab_release(&d->raw);
	pv_stacktab_release(&d->stacks);
	pv_strbuf_release(&d->buf);
	free(d->pair);
	free(d->total);
	free(d->sorted);
	free(d->func);
	free(d->norm);
	free(d->prev);
	free(d->dprev);
	free(d->frames);
	memset(d, 0, sizeof(*d));
}

void
pv_stackdiff_reserve(struct pv_stackdiff *d, size_t nstack)
{
	pv_stacktab_reserve(&d->stacks, nstack);
	if (nstack > d->pair_alloc) {
		d->pair = pv_xreallocarray(d->pair, nstack, sizeof(*d->pair));
		d->pair_alloc = nstack;
	}
}

/* Normalisation */

static int
is_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* The compiler suffixes, each followed by ".N" unless bare is set. */
static const struct {
	const char *s;
	size_t len;
	int bare;	/* may stand without a number */
	int number;	/* may be followed by ".N" */
} suffix[] = {
	{ ".isra", 5, 0, 1 },
	{ ".constprop", 10, 0, 1 },
	{ ".part", 5, 0, 1 },
	{ ".cold", 5, 1, 1 },
	{ ".llvm", 5, 0, 1 },
	{ ".lto_priv", 9, 0, 1 },
};

/* The length of s[0..len) without one compiler suffix at its end. */
static size_t
strip_one(const char *s, size_t len)
{
	size_t i, end = len, k;

	/* ".N" at the end? */
	while (end > 0 && s[end - 1] >= '0' && s[end - 1] <= '9')
		end--;
	if (end < len && end > 0 && s[end - 1] == '.') {
		end--;
		for (k = 0; k < sizeof(suffix) / sizeof(suffix[0]); k++) {
			if (end > suffix[k].len &&
			    memcmp(s + end - suffix[k].len, suffix[k].s,
				   suffix[k].len) == 0)
				return end - suffix[k].len;
		}
	}
	for (k = 0; k < sizeof(suffix) / sizeof(suffix[0]); k++) {
		i = suffix[k].len;
		if (suffix[k].bare && len > i &&
		    memcmp(s + len - i, suffix[k].s, i) == 0)
			return len - i;
	}
	return len;
}

void
pv_stackdiff_normalize(struct pv_strbuf *out, const char *s, size_t len,
		       const struct pv_stackdiff_opts *opt)
{
	size_t start = out->len, i, n, note = 0;

	if (opt->strip_hex) {
		for (i = 0; i < len; i++) {
			if (s[i] == '0' && i + 2 < len && s[i + 1] == 'x' &&
			    is_hex((unsigned char)s[i + 2])) {
				pv_strbuf_add(out, "0x...", 5);
				for (i += 2; i < len &&
				     is_hex((unsigned char)s[i]); i++)
					;
				i--;
			} else {
				pv_strbuf_addch(out, s[i]);
			}
		}
	} else {
		pv_strbuf_add(out, s, len);
	}
	if (opt->keep_suffixes)
		return;
	s = out->buf + start;
	len = out->len - start;
	/* keep an annotation such as "_[k]" aside */
	if (len >= 4 && s[len - 4] == '_' && s[len - 3] == '[' &&
	    s[len - 1] == ']' && strchr("kjiw", s[len - 2]) != NULL &&
	    s[len - 2] != '\0')
		note = 4;
	n = len - note;
	for (;;) {
		size_t m = strip_one(s, n);

		if (m == n || m == 0)
			break;
		n = m;
	}
	if (n == len - note)
		return;
	memmove(out->buf + start + n, s + len - note, note);
	pv_strbuf_setlen(out, start + n + note);
}

/* Adding */

static uint32_t
norm_id(struct pv_stackdiff *d, struct pv_str name, size_t depth)
{
	uint32_t raw;
	size_t old = d->norm_alloc;

	/*
	 * Folded input is mostly sorted: a frame is often the one at the
	 * same depth in the stack before, whose name is still in cache.
	 */
	if (depth < d->nprev) {
		const struct pv_symtab_entry *e = &d->raw.sym[d->prev[depth]];

		if (e->len == name.len && pv_hash_same(e->s, name.s, name.len))
			return d->norm[d->prev[depth]];
	}
	raw = pv_symtab_intern(&d->raw, name.s, name.len);
	if (depth < d->prev_alloc)
		d->prev[depth] = raw;

	if (raw >= d->norm_alloc) {
		PV_GROW(d->norm, (size_t)raw + 1, d->norm_alloc);
		memset(d->norm + old, 0xff,
		       (d->norm_alloc - old) * sizeof(*d->norm));
	}
	if (d->norm[raw] == NONE) {
		pv_strbuf_reset(&d->buf);
		pv_stackdiff_normalize(&d->buf, name.s, name.len, &d->opt);
		d->norm[raw] = pv_symtab_intern(&d->names, d->buf.buf,
						d->buf.len);
	}
	return d->norm[raw];
}

static uint64_t
sat_add(struct pv_stackdiff *d, uint64_t a, uint64_t b)
{
	if (a > UINT64_MAX - b) {
		d->overflow = 1;
		return UINT64_MAX;
	}
	return a + b;
}

static int
add_ids(struct pv_stackdiff *d, int side, uint32_t ev, const uint32_t *frame,
	size_t nframe, uint64_t samples, uint64_t period)
{
	size_t n = d->stacks.nstack, i;
	struct pv_stack *s = pv_stacktab_add(&d->stacks, ev, frame, nframe,
					     0, 0);
	struct pv_stackdiff_stack *p;

	if (s == NULL) {
		snprintf(d->err, sizeof(d->err), "%.*s",
			 (int)sizeof(d->err) - 1, pv_err_msg(&d->stacks.err));
		return -1;
	}
	i = (size_t)(s - d->stacks.stack);

	/* as the stacks: grown when they are, each entry set when new */
	if (d->stacks.alloc > d->pair_alloc) {
		d->pair = pv_xreallocarray(d->pair, d->stacks.alloc,
					   sizeof(*d->pair));
		d->pair_alloc = d->stacks.alloc;
	}
	p = &d->pair[i];
	if (d->stacks.nstack > n)
		memset(p, 0, sizeof(*p));
	p->period[side] = sat_add(d, p->period[side], period);
	p->samples[side] = sat_add(d, p->samples[side], samples);
	p->presence |= side == PV_SIDE_BASE ? PV_IN_BASE : PV_IN_TARGET;
	return 0;
}

int
pv_stackdiff_add(struct pv_stackdiff *d, int side, struct pv_str event,
		 const struct pv_str *frame, size_t nframe, uint64_t samples,
		 uint64_t period)
{
	uint32_t ev;
	size_t i;

	/* the same event as the stack before, most often */
	if (d->nadd > 0 && event.len == d->last_event.len &&
	    pv_hash_same(event.s, d->last_event.s, event.len)) {
		ev = d->last_event_id;
	} else {
		ev = pv_symtab_intern(&d->names, event.s, event.len);
		d->last_event = pv_symtab_get(&d->names, ev);
		d->last_event_id = ev;
	}
	d->nadd++;

	PV_GROW(d->frames, nframe, d->frames_alloc);
	PV_GROW(d->prev, nframe, d->prev_alloc);
	for (i = 0; i < nframe; i++)
		d->frames[i] = norm_id(d, frame[i], i);
	d->nprev = nframe;	/* norm_id() kept the raw ids in prev */
	return add_ids(d, side, ev, d->frames, nframe, samples, period);
}

int
pv_stackdiff_add_dstack(struct pv_stackdiff *d, const struct pv_rec_dstack *rec)
{
	uint64_t pb = rec->period[0], pt = rec->period[1];
	struct pv_str ev = rec->event;
	size_t i;

	PV_GROW(d->frames, rec->nframe, d->frames_alloc);
	PV_GROW(d->dprev, rec->nframe, d->dprev_alloc);
	for (i = 0; i < rec->nframe; i++) {
		struct pv_str f = rec->frame[i];

		/* sorted records: most often the name of the record before */
		if (i < d->ndprev) {
			struct pv_str p = pv_symtab_get(&d->names,
							d->dprev[i]);

			if (p.len == f.len && pv_hash_same(p.s, f.s, f.len)) {
				d->frames[i] = d->dprev[i];
				continue;
			}
		}
		d->frames[i] = d->dprev[i] = pv_symtab_intern(&d->names, f.s,
							      f.len);
	}
	d->ndprev = rec->nframe;
	i = pv_symtab_intern(&d->names, ev.s, ev.len);
	/* a side with no count did not have the stack */
	if (((pb != 0 || pt == 0) &&
	     add_ids(d, PV_SIDE_BASE, (uint32_t)i, d->frames, rec->nframe,
		     pb, pb) < 0) ||
	    ((pt != 0 || pb == 0) &&
	     add_ids(d, PV_SIDE_TARGET, (uint32_t)i, d->frames, rec->nframe,
		     pt, pt) < 0))
		return -1;
	return 0;
}

/* Computing */

/* qsort has no context argument in C11: one sort at a time */
static const struct pv_symtab *sort_names;

static int
cmp_total(const void *pa, const void *pb)
{
	const struct pv_stackdiff_total *a = pa, *b = pb;

	return pv_str_cmp(pv_symtab_get(sort_names, a->event),
			  pv_symtab_get(sort_names, b->event));
}

static int
cmp_func(const void *pa, const void *pb)
{
	const struct pv_stackdiff_func *a = pa, *b = pb;
	int c;

	if (a->event != b->event) {
		c = pv_str_cmp(pv_symtab_get(sort_names, a->event),
			       pv_symtab_get(sort_names, b->event));
		if (c != 0)
			return c;
	}
	if (a->delta_excl != b->delta_excl)
		return a->delta_excl > b->delta_excl ? -1 : 1;
	return pv_str_cmp(pv_symtab_get(sort_names, a->name),
			  pv_symtab_get(sort_names, b->name));
}

void
pv_stackdiff_sort_funcs(struct pv_stackdiff_func *f, size_t n,
			const struct pv_symtab *names)
{
	if (n < 2)		/* f may be NULL when n is 0 */
		return;
	sort_names = names;
	qsort(f, n, sizeof(*f), cmp_func);
	sort_names = NULL;
}

/*
 * Where one side has only stacks without an event and the other only one
 * event, give the first side's stacks that event: re-add every stack to a
 * new table.
 */
static void
pair_events(struct pv_stackdiff *d)
{
	uint32_t ev[2] = { NONE, NONE }, none;
	int many[2] = { 0, 0 }, side;
	struct pv_stacktab old;
	struct pv_stackdiff_stack *pair;
	size_t i;

	none = pv_symtab_intern(&d->names, "", 0);
	for (i = 0; i < d->stacks.nstack; i++) {
		for (side = 0; side < 2; side++) {
			if (!(d->pair[i].presence & (1u << side)))
				continue;
			if (ev[side] == NONE)
				ev[side] = d->stacks.stack[i].event;
			else if (ev[side] != d->stacks.stack[i].event)
				many[side] = 1;
		}
	}
	if (many[0] || many[1] || ev[0] == NONE || ev[1] == NONE ||
	    ev[0] == ev[1] || (ev[0] != none && ev[1] != none))
		return;
	old = d->stacks;
	pair = d->pair;
	pv_stacktab_init(&d->stacks);
	d->pair = NULL;
	d->pair_alloc = 0;
	for (i = 0; i < old.nstack; i++) {
		const struct pv_stack *s = &old.stack[i];
		uint32_t e = s->event == none ? ev[ev[0] == none] : s->event;

		for (side = 0; side < 2; side++) {
			if (!(pair[i].presence & (1u << side)))
				continue;
			/* the same stacks again: the table holds them */
			(void)add_ids(d, side, e, s->frame, s->nframe,
				      pair[i].samples[side],
				      pair[i].period[side]);
		}
	}
	free(pair);
	pv_stacktab_release(&old);
}

static double
share(uint64_t c, uint64_t total)
{
	return total == 0 ? 0.0 : 100.0 * (double)c / (double)total;
}

static double
rel(double t, double b)
{
	return b == 0.0 ? NAN : t / b - 1.0;
}

/*
 * The functions of each event with their inclusive and exclusive counts.
 * The sorted stacks, grouped by event, are walked as the tree of their
 * prefixes: a path of nodes, each summing the counts of the stacks below
 * it, a node's sum going to its parent as the walk leaves it.  Leaving a
 * node adds its sum to its function's inclusive count unless the
 * function is on the path above it too (recursion: a stack counts once
 * for a function).  Folded stacks share long prefixes, so the walk
 * enters far fewer nodes than the stacks hold frames.  Within an event a
 * function is found by its name id alone, in an array.
 */
struct node {
	uint32_t name;
	unsigned presence;
	uint64_t period[2];
};

static void
leave(struct pv_stackdiff *d, struct node *path, size_t depth,
      const uint32_t *byname, uint32_t *onpath)
{
	struct node *n = &path[depth];
	struct pv_stackdiff_func *f = &d->func[byname[n->name] - 1];
	int side;

	if (--onpath[n->name] == 0) {
		f->presence |= n->presence;
		for (side = 0; side < 2; side++)
			f->incl[side] = sat_add(d, f->incl[side],
						n->period[side]);
	}
	if (depth > 0) {
		path[depth - 1].presence |= n->presence;
		for (side = 0; side < 2; side++)
			path[depth - 1].period[side] = sat_add(d,
				path[depth - 1].period[side], n->period[side]);
	}
}

static void
funcs(struct pv_stackdiff *d)
{
	uint32_t *byname;	/* name id -> func index + 1, this event */
	uint32_t *onpath;	/* name id -> times on the path */
	struct node *path = NULL;
	size_t i, k, npath = 0, path_alloc = 0, falloc = 0, group = 0;
	int side;

	byname = pv_xcalloc(d->names.nsym + 1, sizeof(*byname));
	onpath = pv_xcalloc(d->names.nsym + 1, sizeof(*onpath));
	for (i = 0; i < d->stacks.nstack; i++) {
		const struct pv_stack *s = d->sorted[i];
		const struct pv_stackdiff_stack *p = pv_stackdiff_pair(d, s);
		struct pv_stackdiff_func *f;
		size_t c = 0;

		if (i > 0 && s->event != d->sorted[i - 1]->event) {
			while (npath > 0)
				leave(d, path, --npath, byname, onpath);
			for (k = group; k < d->nfunc; k++)
				byname[d->func[k].name] = 0;
			group = d->nfunc;
		}
		while (c < npath && c < s->nframe && path[c].name == s->frame[c])
			c++;
		while (npath > c)
			leave(d, path, --npath, byname, onpath);
		PV_GROW(path, s->nframe, path_alloc);
		for (; npath < s->nframe; npath++) {
			uint32_t name = s->frame[npath];

			if (byname[name] == 0) {
				PV_GROW(d->func, d->nfunc + 1, falloc);
				f = &d->func[d->nfunc++];
				memset(f, 0, sizeof(*f));
				f->event = s->event;
				f->name = name;
				byname[name] = (uint32_t)d->nfunc;
			}
			onpath[name]++;
			memset(&path[npath], 0, sizeof(path[npath]));
			path[npath].name = name;
		}
		if (s->nframe == 0)
			continue;
		/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
		path[s->nframe - 1].presence |= p->presence;
		f = &d->func[byname[s->frame[s->nframe - 1]] - 1];
		for (side = 0; side < 2; side++) {
			path[s->nframe - 1].period[side] = sat_add(d,
				path[s->nframe - 1].period[side],
				p->period[side]);
			f->excl[side] = sat_add(d, f->excl[side],
						p->period[side]);
		}
	}
	while (npath > 0)
		leave(d, path, --npath, byname, onpath);
	free(path);
	free(onpath);
	free(byname);
}

int
pv_stackdiff_compute(struct pv_stackdiff *d)
{
	size_t i, talloc = 0;
	uint32_t *evtotal = NULL;	/* event id -> total index + 1 */
	size_t evalloc = 0;
	int side;

	pair_events(d);
	/* totals, by event */
	for (i = 0; i < d->stacks.nstack; i++) {
		const struct pv_stack *s = &d->stacks.stack[i];
		struct pv_stackdiff_total *t;

		if (s->event >= evalloc) {
			size_t old = evalloc;

			PV_GROW(evtotal, (size_t)s->event + 1, evalloc);
			memset(evtotal + old, 0,
			       (evalloc - old) * sizeof(*evtotal));
		}
		/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
		if (evtotal[s->event] == 0) {
			PV_GROW(d->total, d->ntotal + 1, talloc);
			t = &d->total[d->ntotal++];
			memset(t, 0, sizeof(*t));
			t->event = s->event;
			evtotal[s->event] = (uint32_t)d->ntotal;
		}
		t = &d->total[evtotal[s->event] - 1];
		for (side = 0; side < 2; side++) {
			t->period[side] = sat_add(d, t->period[side],
						  d->pair[i].period[side]);
			t->samples[side] = sat_add(d, t->samples[side],
						   d->pair[i].samples[side]);
		}
	}
	sort_names = &d->names;
	if (d->ntotal > 1)	/* d->total is NULL with no stacks */
		qsort(d->total, d->ntotal, sizeof(*d->total), cmp_total);
	sort_names = NULL;
	for (i = 0; i < d->ntotal; i++)
		/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
		evtotal[d->total[i].event] = (uint32_t)i + 1;

	d->sorted = pv_stacktab_sorted(&d->stacks, &d->names);

	funcs(d);
	for (i = 0; i < d->nfunc; i++) {
		struct pv_stackdiff_func *f = &d->func[i];
		const struct pv_stackdiff_total *t =
			/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
			&d->total[evtotal[f->event] - 1];
		uint64_t den[2];

		den[0] = t->period[0];
		den[1] = t->period[1];
		if (d->opt.raw)
			den[0] = den[1] = den[0] != 0 ? den[0] : den[1];
		for (side = 0; side < 2; side++) {
			f->incl_pct[side] = share(f->incl[side], den[side]);
			f->excl_pct[side] = share(f->excl[side], den[side]);
		}
		f->delta_incl = f->incl_pct[1] - f->incl_pct[0];
		f->delta_excl = f->excl_pct[1] - f->excl_pct[0];
		f->rel_incl = rel(f->incl_pct[1], f->incl_pct[0]);
		f->rel_excl = rel(f->excl_pct[1], f->excl_pct[0]);
	}
	free(evtotal);
	pv_stackdiff_sort_funcs(d->func, d->nfunc, &d->names);
	if (d->overflow || pv_stacktab_overflowed(&d->stacks)) {
		snprintf(d->err, sizeof(d->err),
			 "a count does not fit in 64 bits");
		return -1;
	}
	return 0;
}

int
pv_stackdiff_moved(const struct pv_stackdiff *d, double threshold)
{
	size_t i;

	for (i = 0; i < d->nfunc; i++) {
		if (fabs(d->func[i].delta_excl) > threshold ||
		    fabs(d->func[i].delta_incl) > threshold)
			return 1;
	}
	return 0;
}

/* Writing */

/*
 * Lines are built in one buffer and written in blocks of about this size;
 * each name's escaped form is made once (pv_rec_frame_escape()), and the
 * dstack records are written from those.
 */
#define BLOCK 65536

/* The escaped forms of every name, for a frame list (';' escaped). */
struct escaped {
	struct pv_strbuf buf;
	size_t *off;		/* name id i is buf[off[i]..off[i + 1]) */
};

static void
escaped_init(struct escaped *x, const struct pv_symtab *names)
{
	size_t i;

	pv_strbuf_init(&x->buf, names->arena.total + names->nsym);
	x->off = pv_xreallocarray(NULL, names->nsym + 1, sizeof(*x->off));
	for (i = 0; i < names->nsym; i++) {
		x->off[i] = x->buf.len;
		pv_rec_frame_escape(&x->buf, names->sym[i].s,
				    names->sym[i].len);
	}
	x->off[names->nsym] = x->buf.len;
}

static void
escaped_release(struct escaped *x)
{
	pv_strbuf_release(&x->buf);
	free(x->off);
}

static void
flush(struct pv_strbuf *sb, FILE *out, size_t at_least)
{
	if (sb->len >= at_least) {
		fwrite(sb->buf, 1, sb->len, out);
		pv_strbuf_reset(sb);
	}
}

static void
write_stacks(const struct pv_stackdiff *d, struct pv_strbuf *sb, FILE *out)
{
	struct escaped x;
	struct pv_str *fr = NULL;
	size_t i, k, alloc = 0;
	struct pv_rec_dstack r;

	escaped_init(&x, &d->names);
	memset(&r, 0, sizeof(r));
	for (i = 0; i < d->stacks.nstack; i++) {
		const struct pv_stack *s = d->sorted[i];
		const struct pv_stackdiff_stack *p = pv_stackdiff_pair(d, s);

		/* the stacks in sorted order: fetch the next ones ahead */
		if (i + 8 < d->stacks.nstack) {
			const struct pv_stack *ahead = d->sorted[i + 8];

			__builtin_prefetch(ahead->frame);
			__builtin_prefetch(pv_stackdiff_pair(d, ahead));
		}
		if (i + 16 < d->stacks.nstack)
			__builtin_prefetch(d->sorted[i + 16]);
		PV_GROW(fr, s->nframe, alloc);
		for (k = 0; k < s->nframe; k++) {
			fr[k].s = x.buf.buf + x.off[s->frame[k]];
			fr[k].len = x.off[s->frame[k] + 1] - x.off[s->frame[k]];
		}
		r.event = pv_symtab_get(&d->names, s->event);
		r.period[0] = p->period[0];
		r.period[1] = p->period[1];
		r.frame = fr;
		r.nframe = s->nframe;
		r.escaped = 1;
		pv_rec_dstack_write(sb, &r);
		flush(sb, out, BLOCK);
	}
	free(fr);
	escaped_release(&x);
}

static void
write_funcs(const struct pv_stackdiff *d, struct pv_strbuf *sb, FILE *out)
{
	size_t i;

	for (i = 0; i < d->nfunc; i++) {
		const struct pv_stackdiff_func *f = &d->func[i];
		struct pv_rec_func r;

		r.event = pv_symtab_get(&d->names, f->event);
		r.name = pv_symtab_get(&d->names, f->name);
		memcpy(r.incl, f->incl, sizeof(r.incl));
		memcpy(r.excl, f->excl, sizeof(r.excl));
		memcpy(r.incl_pct, f->incl_pct, sizeof(r.incl_pct));
		memcpy(r.excl_pct, f->excl_pct, sizeof(r.excl_pct));
		r.delta_incl = f->delta_incl;
		r.delta_excl = f->delta_excl;
		r.rel_incl = f->rel_incl;
		r.rel_excl = f->rel_excl;
		r.presence = f->presence;
		pv_rec_func_write(sb, &r);
		flush(sb, out, BLOCK);
	}
}

void
pv_stackdiff_write(const struct pv_stackdiff *d, FILE *out)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	size_t i;

	pv_strbuf_grow(&sb, BLOCK + 4096);
	for (i = 0; i < d->ntotal; i++) {
		const struct pv_stackdiff_total *t = &d->total[i];
		struct pv_rec_total r;

		r.event = pv_symtab_get(&d->names, t->event);
		memcpy(r.period, t->period, sizeof(r.period));
		memcpy(r.samples, t->samples, sizeof(r.samples));
		pv_rec_total_write(&sb, &r);
	}
	write_stacks(d, &sb, out);
	write_funcs(d, &sb, out);
	flush(&sb, out, 0);
	pv_strbuf_release(&sb);
}
