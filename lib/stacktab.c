/*
 * stacktab: distinct stacks and their counts (see stacktab.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "rec_profile.h"
#include "record.h"
#include "sort.h"
#include "stacktab.h"
#include "xalloc.h"

/* PV_TEST_MAX_STACKS, when it holds a number below the limit */
static size_t
max_stacks(void)
{
	const char *s = getenv("PV_TEST_MAX_STACKS");
	uint64_t v;

	if (s != NULL && pv_parse_u64(s, strlen(s), &v) == 0 &&
	    v < PV_STACKTAB_MAX)
		return (size_t)v;
	return PV_STACKTAB_MAX;
}

void
pv_stacktab_init(struct pv_stacktab *t)
{
	memset(t, 0, sizeof(*t));
	pv_hmap_init(&t->map, 512);
	t->max = max_stacks();
}

void
pv_stacktab_release(struct pv_stacktab *t)
{
	pv_arena_release(&t->arena);
	free(t->stack);
	pv_hmap_release(&t->map);
	memset(t, 0, sizeof(*t));
}

void
pv_stacktab_reserve(struct pv_stacktab *t, size_t n)
{
	if (n > t->alloc) {
		t->stack = pv_xreallocarray(t->stack, n, sizeof(*t->stack));
		t->alloc = n;
	}
}

/* a stack looked for */
struct stackkey {
	uint32_t event;
	const uint32_t *frame;
	size_t nframe;
};

static int
stack_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct pv_stacktab *t = ctx;
	const struct pv_stack *s = &t->stack[id];
	const struct stackkey *k = key;

	/* frame may be NULL when nframe is 0 (an empty stack) */
	return s->event == k->event && s->nframe == k->nframe &&
		(k->nframe == 0 || memcmp(s->frame, k->frame,
					  k->nframe * sizeof(*k->frame)) == 0);
}

static uint64_t
sat_add(struct pv_stacktab *t, uint64_t a, uint64_t b)
{
	if (a > UINT64_MAX - b) {
		t->overflow = 1;
		return UINT64_MAX;
	}
	return a + b;
}

struct pv_stack *
pv_stacktab_add(struct pv_stacktab *t, uint32_t event, const uint32_t *frame,
		size_t nframe, uint64_t samples, uint64_t period)
{
	uint64_t h = pv_hash(frame, nframe * sizeof(*frame), event);
	struct stackkey key = { event, frame, nframe };
	struct pv_stack *s;
	uint32_t *copy, id;
	size_t j;

	id = pv_hmap_find(&t->map, h, stack_eq, t, &key, &j);
	if (id != PV_HMAP_NONE) {
		s = &t->stack[id];
		s->samples = sat_add(t, s->samples, samples);
		s->period = sat_add(t, s->period, period);
		return s;
	}
	if (nframe > UINT32_MAX) {
		pv_err_set(&t->err, "a stack of more than %lu frames",
			   (unsigned long)UINT32_MAX);
		return NULL;
	}
	if (t->nstack >= t->max) {
		pv_err_set(&t->err, "too many distinct stacks (more than %zu)",
			   t->max);
		return NULL;
	}
	PV_GROW(t->stack, t->nstack + 1, t->alloc);
	s = &t->stack[t->nstack++];
	copy = pv_arena_alloc(&t->arena, nframe * sizeof(*frame) + 1);
	if (nframe)
		memcpy(copy, frame, nframe * sizeof(*frame));
	s->frame = copy;
	s->nframe = (uint32_t)nframe;
	s->event = event;
	s->samples = samples;
	s->period = period;
	pv_hmap_add_at(&t->map, j, h, (uint32_t)(t->nstack - 1));
	return s;
}

/* qsort has no context argument in C11: the sort runs one at a time */
static const struct pv_symtab *sort_names;
/*
 * The rank of each name in the byte-wise order of the name followed by
 * ';', or NOSEMI for a name that holds a ';' itself: where two stacks
 * first differ at a frame that both continue after, their joined forms
 * compare as those ranks do.
 */
static uint32_t *sort_rank;
#define NOSEMI UINT32_MAX

/* Compare the frame lists as if joined with ';', byte by byte. */
static int
cmp_frames(const struct pv_stack *a, const struct pv_stack *b)
{
	const struct pv_symtab *n = sort_names;
	uint32_t i = 0, k = 0;
	size_t ai = 0, bk = 0;
	struct pv_str fa = { "", 0 }, fb = { "", 0 };

	/*
	 * Equal leading frames are equal bytes, followed by ';' in both
	 * joined forms where both go on: skip them.  A stack that ends
	 * there is a prefix of the other.
	 */
	while (i < a->nframe && i < b->nframe && a->frame[i] == b->frame[i])
		i++;
	if (i == a->nframe || i == b->nframe) {
		if (a->nframe == b->nframe)
			return 0;
		if (i == 0) {
			/* no frames: "", as one empty name joins */
			const struct pv_stack *o = a->nframe ? a : b;

			if (o->nframe == 1 &&
			    pv_symtab_get(n, o->frame[0]).len == 0)
				return 0;
		}
		return a->nframe < b->nframe ? -1 : 1;
	}
	if (i + 1 < a->nframe && i + 1 < b->nframe &&
	    sort_rank[a->frame[i]] != NOSEMI &&
	    sort_rank[b->frame[i]] != NOSEMI)
		return sort_rank[a->frame[i]] < sort_rank[b->frame[i]] ? -1 : 1;
	/* the differing names, each followed by ';' or the end */
	k = i;
	fa = pv_symtab_get(n, a->frame[i]);
	fb = pv_symtab_get(n, b->frame[k]);
	{
		size_t m = fa.len < fb.len ? fa.len : fb.len;
		int c = m ? memcmp(fa.s, fb.s, m) : 0, ca, cb;

		if (c != 0)
			return c < 0 ? -1 : 1;
		ca = fa.len > m ? (unsigned char)fa.s[m] :
		     i + 1 < a->nframe ? ';' : -1;
		cb = fb.len > m ? (unsigned char)fb.s[m] :
		     k + 1 < b->nframe ? ';' : -1;
		if (ca != cb)
			return ca < cb ? -1 : 1;
		/* a name's ';' against the other's separator: go on */
	}
	for (;;) {
		int ca, cb;

		/* the next byte of each joined string, -1 at its end */
		if (ai < fa.len)
			ca = (unsigned char)fa.s[ai];
		else
			ca = i + 1 < a->nframe ? ';' : -1;
		if (bk < fb.len)
			cb = (unsigned char)fb.s[bk];
		else
			cb = k + 1 < b->nframe ? ';' : -1;
		if (ca != cb)
			return ca < cb ? -1 : 1;
		if (ca < 0)
			return 0;
		if (ai < fa.len) {
			ai++;
		} else {
			fa = pv_symtab_get(n, a->frame[++i]);
			ai = 0;
		}
		if (bk < fb.len) {
			bk++;
		} else {
			fb = pv_symtab_get(n, b->frame[++k]);
			bk = 0;
		}
	}
}

static int
cmp_stack(const void *pa, const void *pb)
{
	const struct pv_stack *a = *(struct pv_stack *const *)pa;
	const struct pv_stack *b = *(struct pv_stack *const *)pb;

	/* events in order of first appearance: ids are dense in that order */
	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	return cmp_frames(a, b);
}

/* Compare two names as if each were followed by ';'. */
static int
cmp_semi(const void *pa, const void *pb)
{
	struct pv_str a = pv_symtab_get(sort_names, *(const uint32_t *)pa);
	struct pv_str b = pv_symtab_get(sort_names, *(const uint32_t *)pb);
	size_t n = a.len < b.len ? a.len : b.len;
	int c = n ? memcmp(a.s, b.s, n) : 0;

	if (c != 0 || a.len == b.len)
		return c;
	/* the shorter one's ';' against the longer one's next byte */
	if (a.len < b.len)
		return ';' < (unsigned char)b.s[n] ? -1 : 1;
	return (unsigned char)a.s[n] < ';' ? -1 : 1;
}

struct pv_stack **
pv_stacktab_sorted(const struct pv_stacktab *t, const struct pv_symtab *names)
{
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	struct pv_stack **v = pv_xreallocarray(NULL, t->nstack + 1, sizeof(*v));
	uint32_t *id = pv_xreallocarray(NULL, names->nsym + 1, sizeof(*id));
	size_t i;

	sort_names = names;
	sort_rank = pv_xreallocarray(NULL, names->nsym + 1,
				     sizeof(*sort_rank));
	for (i = 0; i < names->nsym; i++)
		id[i] = (uint32_t)i;
	qsort(id, names->nsym, sizeof(*id), cmp_semi);
	for (i = 0; i < names->nsym; i++) {
		const struct pv_symtab_entry *e = &names->sym[id[i]];

		sort_rank[id[i]] = memchr(e->s, ';', e->len) ? NOSEMI :
				   (uint32_t)i;
	}
	free(id);
	for (i = 0; i < t->nstack; i++)
		v[i] = &t->stack[i];
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	pv_sort_runs(v, t->nstack, sizeof(*v), cmp_stack);
	free(sort_rank);
	sort_rank = NULL;
	sort_names = NULL;
	return v;
}

void
pv_stacktab_write(const struct pv_stacktab *t, const struct pv_symtab *names,
		  FILE *out)
{
	struct pv_stack **v = pv_stacktab_sorted(t, names);
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_str *fr = NULL;
	size_t i, k, alloc = 0;

	for (i = 0; i < t->nstack; i++) {
		const struct pv_stack *s = v[i];
		struct pv_rec_stack r;

		PV_GROW(fr, s->nframe, alloc);
		for (k = 0; k < s->nframe; k++)
			fr[k] = pv_symtab_get(names, s->frame[k]);
		r.event = pv_symtab_get(names, s->event);
		r.samples = s->samples;
		r.period = s->period;
		r.frame = fr;
		r.nframe = s->nframe;
		pv_rec_stack_write(&sb, &r);
		/* in blocks: a record is a line of a few hundred bytes */
		if (sb.len >= 65536 || i + 1 == t->nstack) {
			fwrite(sb.buf, 1, sb.len, out);
			pv_strbuf_reset(&sb);
		}
	}
	pv_strbuf_release(&sb);
	free(fr);
	free(v);
}

int
pv_stacktab_merge(struct pv_stacktab *dst, struct pv_symtab *names,
		  const struct pv_stacktab *src,
		  const struct pv_symtab *src_names)
{
	uint32_t *map, *frame = NULL;
	size_t i, k, alloc = 0;

	/* src ids to dst ids, interned on first use */
	map = pv_xreallocarray(NULL, src_names->nsym + 1, sizeof(*map));
	for (i = 0; i < src_names->nsym; i++)
		map[i] = UINT32_MAX;
	for (i = 0; i < src->nstack; i++) {
		const struct pv_stack *s = &src->stack[i];
		uint32_t ids[1] = { s->event };

		PV_GROW(frame, s->nframe + 1, alloc);
		for (k = 0; k <= s->nframe; k++) {
			uint32_t id = k == 0 ? ids[0] : s->frame[k - 1];

			if (map[id] == UINT32_MAX) {
				struct pv_str n = pv_symtab_get(src_names, id);

				map[id] = pv_symtab_intern(names, n.s, n.len);
			}
			/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
			frame[k] = map[id];
		}
		if (pv_stacktab_add(dst, frame[0], frame + 1, s->nframe,
				    s->samples, s->period) == NULL)
			break;
	}
	free(frame);
	free(map);
	return i < src->nstack ? -1 : 0;
}

