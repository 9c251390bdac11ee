/*
 * perfscript: `perf script` text to aggregated stacks (see perfscript.h).
 *
 * A capture is a sequence of samples separated by blank lines: an event
 * line ("comm pid/tid [cpu] time: period event:") followed by one line per
 * frame, leaf first ("addr symbol+0xoff (module)").  The processed form of
 * a frame line depends only on its text (and on whether the process is
 * java, which changes the tidying), so each distinct frame line is turned
 * into frame ids once and cached; a sample is then a list of cache entries,
 * and folding it is copying ids.  This is what makes the folder fast: a
 * large capture repeats the same frame lines millions of times.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error.h"
#include "hash.h"
#include "hmap.h"
#include "perfscript.h"
#include "strbuf.h"
#include "xalloc.h"

/*
 * A distinct frame, as a frame line names it: the symbol without its
 * offset, the module, and the address only where it is part of the name
 * (unknown symbols under --addrs).  Keying on these rather than the whole
 * line matters: addresses and offsets differ at every call site, symbols
 * and modules do not.
 */
struct fline {
	const char *key;	/* symbol, module, address, back to back */
	uint32_t flen, mlen, pclen;
	uint32_t nid;		/* 0: a line that gives no frame */
	const uint32_t *id;	/* frames in the order written */
	unsigned char java;	/* named for a java process */
};

#define WEIRD UINT32_MAX
#define NO_MODULE UINT32_MAX

struct env_kv {
	char *key, *value;
};

struct pv_perf {
	struct pv_perf_opts opt;
	struct pv_symtab *names;
	struct pv_stacktab *stacks;
	struct pv_arena arena;

	struct fline *fl;
	size_t nfl, fl_alloc;
	struct pv_hmap flmap;	/* fl indices by their lines' parts */

	/* the sample being read */
	int in_event;
	int skip_stack;
	int is_java;
	uint32_t pname, event;
	uint64_t period;
	uint32_t *lines;	/* fl indices, leaf first */
	size_t nlines, lines_alloc;
	uint32_t *stack;
	size_t stack_alloc;

	/* the header */
	int header_state;	/* 0 not seen, 1 inside, 2 done */
	int seen_event;
	struct env_kv *env;
	size_t nenv, env_alloc;

	struct pv_strbuf tmp, func, rust;
	/* the module of each frame name (names id), the first line's */
	struct pv_symtab mods;
	uint32_t *mod;		/* names id -> mods id, or NO_MODULE */
	uint64_t *mod_pos;	/* names id -> pos when its module came */
	size_t mod_alloc;
	uint64_t pos;		/* pv_perf_set_pos() */
	uint64_t nsamples, nfiltered;
	struct pv_err msg;	/* the last error or warning */
};

struct pv_perf *
pv_perf_new(const struct pv_perf_opts *opt, struct pv_symtab *names,
	    struct pv_stacktab *stacks)
{
	struct pv_perf *p = pv_xcalloc(1, sizeof(*p));

	p->opt = *opt;
	if (p->opt.include_tid)
		p->opt.include_pid = 1;
	p->names = names;
	p->stacks = stacks;
	if (opt->continuation) {
		p->seen_event = 1;
		p->header_state = 2;
	}
	pv_hmap_init(&p->flmap, 2048);
	pv_strbuf_init(&p->tmp, 256);
	pv_strbuf_init(&p->func, 256);
	pv_strbuf_init(&p->rust, 256);
	pv_symtab_init(&p->mods);
	return p;
}

void
pv_perf_free(struct pv_perf *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nenv; i++) {
		free(p->env[i].key);
		free(p->env[i].value);
	}
	free(p->env);
	pv_arena_release(&p->arena);
	free(p->fl);
	pv_hmap_release(&p->flmap);
	free(p->lines);
	free(p->stack);
	pv_strbuf_release(&p->tmp);
	pv_strbuf_release(&p->func);
	pv_strbuf_release(&p->rust);
	pv_symtab_release(&p->mods);
	free(p->mod);
	free(p->mod_pos);
	free(p);
}

const char *
pv_perf_message(const struct pv_perf *p)
{
	return pv_err_msg(&p->msg);
}

size_t
pv_perf_nenv(const struct pv_perf *p)
{
	return p->nenv;
}

void
pv_perf_env(const struct pv_perf *p, size_t i, const char **key,
	    const char **value)
{
	*key = p->env[i].key;
	*value = p->env[i].value;
}

uint64_t
pv_perf_nsamples(const struct pv_perf *p)
{
	return p->nsamples;
}

uint64_t
pv_perf_nfiltered(const struct pv_perf *p)
{
	return p->nfiltered;
}

static int
message(struct pv_perf *p, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
message(struct pv_perf *p, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pv_err_vset(&p->msg, fmt, ap);
	va_end(ap);
	return rc;
}

static int
all_digits(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

static int
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static int
ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

static int
starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

/* The header: "# key : value" lines before the first sample. */
static int
header_line(struct pv_perf *p, const char *line, size_t len)
{
	const char *colon, *k, *v, *end = line + len;
	size_t klen, i;
	struct env_kv *kv;

	if (p->seen_event)
		return 0;	/* a comment among the samples */
	if (starts_with(line, len, "# ========")) {
		p->header_state = p->header_state == 1 ? 2 : 1;
		return 0;
	}
	colon = memchr(line, ':', len);
	if (colon == NULL)
		return 0;	/* "# HEADER_... info available" and the like */
	for (k = line + 1; k < colon && is_space(*k); k++)
		;
	klen = (size_t)(colon - k);
	while (klen > 0 && is_space(k[klen - 1]))
		klen--;
	if (klen == 0)
		return 0;
	for (v = colon + 1; v < end && is_space(*v); v++)
		;
	while (end > v && is_space(end[-1]))
		end--;
	PV_GROW(p->env, p->nenv + 1, p->env_alloc);
	kv = &p->env[p->nenv++];
	/*
	 * "# cmdline :" is perf's own command line: perf-cmdline, apart from
	 * the kernel's (pv-collect's kernel-cmdline), whose name it shared
	 */
	if (klen == 7 && strncasecmp(k, "cmdline", 7) == 0) {
		k = "perf-cmdline";
		klen = 12;
	}
	kv->key = pv_xmemdup(k, klen);
	for (i = 0; i < klen; i++) {
		char c = kv->key[i];

		if (c >= 'A' && c <= 'Z')
			kv->key[i] = (char)(c - 'A' + 'a');
		else if (c == ' ' || c == '\t')
			kv->key[i] = '-';
	}
	kv->value = pv_xmemdup(v, (size_t)(end - v));
	return 0;
}

/* A vmlinux image, versioned or not: "vmlinux" then [A-Za-z0-9._-]* */
static int
is_vmlinux(const char *m, size_t len)
{
	const char *v = NULL, *e = m + len;
	size_t i;

	for (i = 0; i + 7 <= len; i++)
		if (memcmp(m + i, "vmlinux", 7) == 0)
			v = m + i;
	if (v == NULL)
		return 0;
	for (v += 7; v < e; v++) {
		char c = *v;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_'))
			return 0;
	}
	return 1;
}

/* Kernel code, by module name: "[kernel.kallsyms]", vmlinux, modules. */
static int
is_kernel_module(const char *m, size_t len)
{
	if (len == 9 && memcmp(m, "[unknown]", 9) == 0)
		return 0;
	return (len > 0 && m[0] == '[') || ends_with(m, len, ".ko") ||
	       is_vmlinux(m, len);
}

/* JIT code: perf map files and jitdump's jitted-PID-N.so */
static int
is_jit_module(const char *m, size_t len)
{
	if (starts_with(m, len, "/tmp/perf-") && ends_with(m, len, ".map"))
		return 1;
	return memmem(m, len, "/jitted-", 8) != NULL && ends_with(m, len, ".so");
}

/*
 * Name one function of a frame line into p->func: the reference's
 * with_module_fallback, tidy_generic and tidy_java, then the annotation.
 * nth counts the functions of one line ("a->b->c": inlined after the
 * first).
 */
static void
name_func(struct pv_perf *p, const char *f, size_t flen, const char *mod,
	  size_t mlen, const char *pc, size_t pclen, size_t nth)
{
	struct pv_strbuf *sb = &p->func;
	size_t i, cut;

	pv_strbuf_reset(sb);
	if (flen == 9 && memcmp(f, "[unknown]", 9) == 0 &&
	    !(mlen == 9 && memcmp(mod, "[unknown]", 9) == 0 &&
	      !p->opt.include_addrs)) {
		/* the module's base name stands in for an unknown symbol */
		const char *base = mod;
		size_t blen = mlen;

		if (mlen == 9 && memcmp(mod, "[unknown]", 9) == 0) {
			base = "unknown";
			blen = 7;
		} else {
			for (i = 0; i < mlen; i++)
				if (mod[i] == '/')
					base = mod + i + 1;
			blen -= (size_t)(base - mod);
		}
		pv_strbuf_addch(sb, '[');
		pv_strbuf_add(sb, base, blen);
		if (p->opt.include_addrs) {
			pv_strbuf_addstr(sb, " <");
			pv_strbuf_add(sb, pc, pclen);
			pv_strbuf_addch(sb, '>');
		}
		pv_strbuf_addch(sb, ']');
	} else {
		pv_strbuf_add(sb, f, flen);
	}

	/*
	 * tidy_generic: ';' becomes ':'; the argument list is cut at the
	 * first '(' outside brackets, unless it follows a '.' (Go methods,
	 * "net/http.(*Client).Do") or opens "(anonymous namespace)"; quotes
	 * are deleted, as stackcollapse-perf.pl deletes them.
	 */
	for (i = 0; i < sb->len; i++)
		if (sb->buf[i] == ';')
			sb->buf[i] = ':';
	{
		long depth = 0;

		for (i = 0; i < sb->len; i++) {
			char c = sb->buf[i];

			if (c == '<' || c == '{' || c == '[') {
				depth++;
			} else if (c == '>' || c == '}' || c == ']' ||
				   c == ')') {
				depth--;
			} else if (c == '(') {
				if (depth == 0 && !(i > 0 && sb->buf[i - 1] == '.') &&
				    !starts_with(sb->buf + i, sb->len - i,
						 "(anonymous namespace)")) {
					pv_strbuf_setlen(sb, i);
					break;
				}
				depth++;
			}
		}
	}
	for (i = cut = 0; i < sb->len; i++)
		if (sb->buf[i] != '\'' && sb->buf[i] != '"')
			sb->buf[cut++] = sb->buf[i];
	pv_strbuf_setlen(sb, cut);

	/* tidy_java: "Lorg/x/Y;::m" -> "org/x/Y:::m" */
	if (p->is_java && sb->len > 0 && sb->buf[0] == 'L' &&
	    memchr(sb->buf, '/', sb->len) != NULL) {
		memmove(sb->buf, sb->buf + 1, sb->len - 1);
		pv_strbuf_setlen(sb, sb->len - 1);
	}

	if (nth > 0) {
		if (memmem(sb->buf, sb->len, "_[i]", 4) == NULL)
			pv_strbuf_addstr(sb, "_[i]");
	} else if (p->opt.annotate_kernel && is_kernel_module(mod, mlen)) {
		pv_strbuf_addstr(sb, "_[k]");
	} else if (p->opt.annotate_jit && is_jit_module(mod, mlen) &&
		   memmem(sb->buf, sb->len, "_[j]", 4) == NULL) {
		pv_strbuf_addstr(sb, "_[j]");
	}
}

/*
 * Split a frame line into its address, symbol and module, as the
 * reference does: the address is the first word, the module the last word
 * without its parentheses, the symbol what lies between ("" becomes " ").
 * Returns 0, or -1 for a line of another shape.
 */
static int
frame_parts(const char *line, size_t len, const char **pc, size_t *pclen,
	    const char **func, size_t *flen, const char **mod, size_t *mlen)
{
	const char *end = line + len, *rest, *last, *f, *fe;

	while (line < end && is_space(*line))
		line++;
	rest = memchr(line, ' ', (size_t)(end - line));
	if (rest == NULL)
		return -1;
	*pc = line;
	*pclen = (size_t)(rest - line);
	while (*pclen > 0 && is_space(line[*pclen - 1]))
		(*pclen)--;
	rest++;
	last = memrchr(rest, ' ', (size_t)(end - rest));
	if (last == NULL || end - ++last < 2 || *last != '(' || end[-1] != ')')
		return -1;	/* no space before "(module)", or no module */
	*mod = last + 1;
	*mlen = (size_t)(end - last) - 2;
	f = rest;
	fe = last - 1;
	while (f < fe && is_space(*f))
		f++;
	while (fe > f && is_space(fe[-1]))
		fe--;
	if (f == fe) {
		*func = " ";
		*flen = 1;
	} else {
		*func = f;
		*flen = (size_t)(fe - f);
	}
	return 0;
}

/*
 * Repair a partially demangled Rust symbol (legacy mangling): one that
 * ends in "::h" and 16 hex digits loses that hash, and its escapes
 * ("$LT$", "$u7b$", "..") are decoded.  Returns 0 when s is not such a
 * symbol, 1 with the repaired name in out.
 */
static int
fix_rust(const char *s, size_t len, struct pv_strbuf *out)
{
	static const struct { const char *esc; char c; } subst[] = {
		{ "$SP$", '@' }, { "$BP$", '*' }, { "$RF$", '&' },
		{ "$LT$", '<' }, { "$GT$", '>' }, { "$LP$", '(' },
		{ "$RP$", ')' }, { "$C$", ',' }, { "$u7e$", '~' },
		{ "$u20$", ' ' }, { "$u27$", '\'' }, { "$u3d$", '=' },
		{ "$u5b$", '[' }, { "$u5d$", ']' }, { "$u7b$", '{' },
		{ "$u7d$", '}' }, { "$u3b$", ';' }, { "$u2b$", '+' },
		{ "$u21$", '!' }, { "$u22$", '"' },
	};
	const char *e;
	size_t i, k;

	if (len < 17 || s[len - 17] != 'h')
		return 0;
	for (i = len - 16; i < len; i++)
		if (!is_hex(s[i]))
			return 0;
	len -= 17;
	if (ends_with(s, len, "::"))
		len -= 2;
	if (starts_with(s, len, "_$")) {
		s++;
		len--;
	}
	pv_strbuf_reset(out);
	e = s + len;
	while (s < e) {
		if (*s == '.') {
			if (s + 1 < e && s[1] == '.') {
				pv_strbuf_addstr(out, "::");
				s += 2;
			} else {
				pv_strbuf_addch(out, '.');
				s++;
			}
		} else if (*s == '$') {
			for (k = 0; k < sizeof(subst) / sizeof(subst[0]); k++)
				if (starts_with(s, (size_t)(e - s), subst[k].esc))
					break;
			if (k == sizeof(subst) / sizeof(subst[0]))
				break;	/* unknown escape: the rest as it is */
			pv_strbuf_addch(out, subst[k].c);
			s += strlen(subst[k].esc);
		} else {
			const char *n = s;

			while (n < e && *n != '$' && *n != '.')
				n++;
			pv_strbuf_add(out, s, (size_t)(n - s));
			s = n;
		}
	}
	pv_strbuf_add(out, s, (size_t)(e - s));
	return 1;
}

/* Keep the module of frame name id, unless a line named one before. */
static void
note_module(struct pv_perf *p, uint32_t id, const char *mod, size_t mlen)
{
	size_t old = p->mod_alloc;

	if (id >= p->mod_alloc) {
		PV_GROW(p->mod, (size_t)id + 1, p->mod_alloc);
		memset(p->mod + old, 0xff,
		       (p->mod_alloc - old) * sizeof(*p->mod));
		p->mod_pos = pv_xreallocarray(p->mod_pos, p->mod_alloc,
					      sizeof(*p->mod_pos));
	}
	if (p->mod[id] == NO_MODULE) {
		p->mod[id] = pv_symtab_intern(&p->mods, mod, mlen);
		p->mod_pos[id] = p->pos;
	}
}

void
pv_perf_set_pos(struct pv_perf *p, uint64_t pos)
{
	p->pos = pos;
}

uint64_t
pv_perf_frame_pos(const struct pv_perf *p, uint32_t id)
{
	return id < p->mod_alloc && p->mod[id] != NO_MODULE ?
	       p->mod_pos[id] : UINT64_MAX;
}

int
pv_perf_frame(const struct pv_perf *p, uint32_t id, struct pv_str *module,
	      int *kernel)
{
	if (id >= p->mod_alloc || p->mod[id] == NO_MODULE)
		return 0;
	*module = pv_symtab_get(&p->mods, p->mod[id]);
	*kernel = is_kernel_module(module->s, module->len);
	return 1;
}

/* Name the frames of a new cache entry. */
static void
name_frames(struct pv_perf *p, struct fline *e, const char *func, size_t flen,
	    const char *mod, size_t mlen, const char *pc, size_t pclen)
{
	const char *end;
	uint32_t *ids = NULL;
	size_t n = 0, k;

	/* "(comm)" lines name processes, not functions */
	if (flen > 0 && func[0] == '(')
		return;
	if (fix_rust(func, flen, &p->rust)) {
		func = p->rust.buf;
		flen = p->rust.len;
	}
	/* "a->b->c": Java inlining, one frame each */
	end = func + flen;
	for (k = 0; func <= end; k++) {
		const char *arrow = func;

		while (arrow + 1 < end && !(arrow[0] == '-' && arrow[1] == '>'))
			arrow++;
		if (arrow + 1 >= end)
			arrow = end;
		name_func(p, func, (size_t)(arrow - func), mod, mlen, pc, pclen,
			  k);
		ids = pv_xreallocarray(ids, n + 1, sizeof(*ids));
		ids[n++] = pv_symtab_intern(p->names, p->func.buf, p->func.len);
		note_module(p, ids[n - 1], mod, mlen);
		func = arrow + 2;
	}
	e->nid = (uint32_t)n;
	e->id = pv_arena_alloc(&p->arena, n * sizeof(*ids));
	if (n > 0)
		memcpy((uint32_t *)e->id, ids, n * sizeof(*ids));
	free(ids);
}

/* the parts of a frame line looked for in the cache */
struct flkey {
	const char *func, *mod, *pc;
	size_t flen, mlen, pclen;
	unsigned char java;
};

static int
fline_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct pv_perf *p = ctx;
	const struct fline *e = &p->fl[id];
	const struct flkey *k = key;

	return e->flen == k->flen && e->mlen == k->mlen &&
		e->pclen == k->pclen && e->java == k->java &&
		memcmp(e->key, k->func, k->flen) == 0 &&
		memcmp(e->key + k->flen, k->mod, k->mlen) == 0 &&
		memcmp(e->key + k->flen + k->mlen, k->pc, k->pclen) == 0;
}

/* The cache entry of a frame line, or WEIRD for a line of another shape. */
static uint32_t
fline_of(struct pv_perf *p, const char *text, size_t len)
{
	const char *pc, *func, *mod;
	size_t pclen, flen, mlen, x, j;
	uint64_t h;
	struct fline *e;
	struct flkey k;
	uint32_t id;
	char *key;

	if (frame_parts(text, len, &pc, &pclen, &func, &flen, &mod, &mlen) < 0)
		return WEIRD;
	/*
	 * The offset "+0x1f" at the end: the hex digits at the end, after
	 * the last "+0x" (which cannot lie inside them: 'x' is no hex digit).
	 */
	for (x = flen; x > 0 && is_hex(func[x - 1]); x--)
		;
	if (x >= 3 && memcmp(func + x - 3, "+0x", 3) == 0)
		flen = x - 3;
	if (!(p->opt.include_addrs && memmem(func, flen, "[unknown]", 9)))
		pclen = 0;

	h = pv_hash(func, flen, (uint64_t)p->is_java) ^
	    pv_hash(mod, mlen, flen) * PV_HASH_K2;
	if (pclen)
		h ^= pv_hash(pc, pclen, mlen);
	k.func = func;
	k.mod = mod;
	k.pc = pc;
	k.flen = flen;
	k.mlen = mlen;
	k.pclen = pclen;
	k.java = (unsigned char)p->is_java;
	id = pv_hmap_find(&p->flmap, h, fline_eq, p, &k, &j);
	if (id != PV_HMAP_NONE)
		return id;

	PV_GROW(p->fl, p->nfl + 1, p->fl_alloc);
	e = &p->fl[p->nfl];
	memset(e, 0, sizeof(*e));
	key = pv_arena_alloc(&p->arena, flen + mlen + pclen + 1);
	memcpy(key, func, flen);
	memcpy(key + flen, mod, mlen);
	memcpy(key + flen + mlen, pc, pclen);
	e->key = key;
	e->flen = (uint32_t)flen;
	e->mlen = (uint32_t)mlen;
	e->pclen = (uint32_t)pclen;
	e->java = (unsigned char)p->is_java;
	name_frames(p, e, func, flen, mod, mlen, pc, pclen);
	pv_hmap_add_at(&p->flmap, j, h, (uint32_t)p->nfl);
	return (uint32_t)p->nfl++;
}

/* Add the frames of a frame line to the sample; PV_PERF_WARN if weird. */
static int
stack_line(struct pv_perf *p, const char *text, size_t len)
{
	uint32_t k;

	if (p->skip_stack)
		return 0;
	k = fline_of(p, text, len);
	if (k == WEIRD) {
		while (len > 0 && is_space(*text)) {
			text++;
			len--;
		}
		return message(p, PV_PERF_WARN, "weird stack line: %.*s",
			       (int)(len > 80 ? 80 : len), text);
	}
	if (p->fl[k].nid == 0)
		return 0;
	PV_GROW(p->lines, p->nlines + 1, p->lines_alloc);
	p->lines[p->nlines++] = k;
	return 0;
}

/*
 * The comm, pid and tid of an event line: the comm is everything before
 * the first all-digit word ("pid" or "pid/tid") that a space ends.
 */
static int
event_parts(const char *line, size_t len, struct pv_str *comm,
	    struct pv_str *pid, struct pv_str *tid, size_t *end)
{
	size_t i, word = 0, slash = SIZE_MAX;
	int digits = 0, last_space = 0;

	for (i = 0; i < len; i++) {
		char c = line[i];

		if (c == ' ') {
			if (digits && !last_space) {
				const char *s = line, *e = line + word - 1;

				if (slash != SIZE_MAX) {
					pid->s = line + word;
					pid->len = slash - word;
					tid->s = line + slash + 1;
					tid->len = i - slash - 1;
				} else {
					pid->s = "?";
					pid->len = 1;
					tid->s = line + word;
					tid->len = i - word;
				}
				while (s < e && is_space(*s))
					s++;
				while (e > s && is_space(e[-1]))
					e--;
				comm->s = s;
				comm->len = (size_t)(e - s);
				*end = i;
				return 0;
			}
			word = i + 1;
			digits = 1;
		} else if (c == '/') {
			if (digits)
				slash = i;
		} else if (c == '-' && i == word && i + 1 < len &&
			   line[i + 1] >= '0' && line[i + 1] <= '9') {
			/* pid -1: perf's exiting tasks (not in the reference) */
		} else if (!(c >= '0' && c <= '9')) {
			digits = 0;
			slash = SIZE_MAX;
		}
		last_space = c == ' ';
	}
	return -1;
}

static int after_event(struct pv_perf *p);

/*
 * The second half of a tracepoint's name after its subsystem, as in
 * "sched:sched_switch:": a word of letters, digits and '_' up to a colon
 * that the line's end or a space follows, and not only the letters of
 * event modifiers ("cycles:u:", "cycles:uppp:", perf's [ukhIGHpPSDWeb]),
 * which are not part of the event's name.  Returns the colon, or NULL.
 */
static const char *
tracepoint_end(const char *s, const char *lim)
{
	static const char mods[] = "ukhIGHpPSDWeb";
	const char *e;
	int modifiers = 1;

	for (e = s; e < lim && *e != ':'; e++) {
		if (!((*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') ||
		      (*e >= '0' && *e <= '9') || *e == '_'))
			return NULL;
		if (strchr(mods, *e) == NULL)
			modifiers = 0;
	}
	if (e == s || e == lim || modifiers ||
	    (e + 1 < lim && *(e + 1) != ' '))
		return NULL;
	return e;
}

/*
 * Whether the text after a tracepoint's name is a frame ("ADDRESS SYMBOL
 * (MODULE)": a hexadecimal word first, a parenthesis last) rather than
 * the tracepoint's own fields ("prev_comm=sh prev_pid=5 ...").
 */
static int
looks_like_frame(const char *s, const char *lim)
{
	const char *e;

	for (e = s; e < lim && *e != ' '; e++)
		if (!((*e >= '0' && *e <= '9') || (*e >= 'a' && *e <= 'f')))
			return 0;
	return e > s && e < lim && lim[-1] == ')' &&
		memchr(e, '(', (size_t)(lim - e)) != NULL;
}

static int
event_line(struct pv_perf *p, const char *line, size_t len)
{
	struct pv_str comm, pid, tid, ev = { "", 0 };
	const char *c1, *c2 = NULL, *lim = line + len;
	size_t end, i;
	int trace = 0;

	if (!p->seen_event && line[0] == '\t')
		return message(p, -1, "a frame line before any sample header "
			       "(not perf script output?)");
	if (event_parts(line, len, &comm, &pid, &tid, &end) < 0) {
		if (!p->seen_event)
			return message(p, -1, "not perf script output: "
				       "expected a sample header line "
				       "('comm pid time: event:')");
		return message(p, PV_PERF_WARN, "weird event line: %.*s",
			       (int)(len > 80 ? 80 : len), line);
	}
	p->seen_event = 1;
	p->in_event = 1;
	p->nlines = 0;
	p->period = 1;

	/* "pid [cpu] time:   period event:rest": split at the first colons */
	c1 = memchr(line + end, ':', len - end);
	if (c1 != NULL) {
		const char *w, *e;
		uint64_t v;

		c2 = memchr(c1 + 1, ':', (size_t)(lim - c1 - 1));
		e = c2 ? c2 : lim;
		/* the event is the last space-separated word ... */
		for (w = e; w > c1 + 1 && w[-1] != ' '; w--)
			;
		/*
		 * ... with the name after its colon for a tracepoint,
		 * "sched:sched_switch:", whose fields may follow (the trace
		 * of a default perf script) where another event's only frame
		 * would
		 */
		if (c2 != NULL && c2 > w &&
		    (e = tracepoint_end(c2 + 1, lim)) != NULL) {
			c2 = e;
			trace = 1;
		} else {
			e = c2 ? c2 : lim;
		}
		ev.s = w;
		ev.len = (size_t)(e - w);
		/* ... and a number just before it, the period */
		if (w > c1 + 1) {
			e = w - 1;
			for (w = e; w > c1 + 1 && w[-1] != ' '; w--)
				;
			if (w < e && *w == '+')
				w++;
			if (pv_parse_u64(w, (size_t)(e - w), &v) == 0)
				p->period = v;
			else if (w < e && all_digits(w, (size_t)(e - w)))
				return message(p, -1, "period '%.*s' does not "
					       "fit in 64 bits",
					       (int)(e - w > 40 ? 40 : e - w),
					       w);
		}
		if (p->opt.event_filter != NULL &&
		    !pv_str_eq(ev, p->opt.event_filter)) {
			p->skip_stack = 1;
			p->nfiltered++;
			return 0;
		}
	}
	p->skip_stack = 0;
	p->event = pv_symtab_intern(p->names, ev.s, ev.len);

	/* the root frame: comm (spaces made '_'), with pid or pid/tid */
	pv_strbuf_reset(&p->tmp);
	pv_strbuf_add(&p->tmp, comm.s, comm.len);
	for (i = 0; i < p->tmp.len; i++)
		if (p->tmp.buf[i] == ' ')
			p->tmp.buf[i] = '_';
	if (p->opt.include_pid) {
		pv_strbuf_addch(&p->tmp, '-');
		pv_strbuf_add(&p->tmp, pid.s, pid.len);
		if (p->opt.include_tid) {
			pv_strbuf_addch(&p->tmp, '/');
			pv_strbuf_add(&p->tmp, tid.s, tid.len);
		}
	}
	p->is_java = starts_with(p->tmp.buf, p->tmp.len, "java");
	p->pname = pv_symtab_intern(p->names, p->tmp.buf, p->tmp.len);

	/*
	 * A one-frame stack may follow on the event line itself, after the
	 * event's modifiers: "cycles:u:  ffffffff9b201293 [unknown] (...)".
	 * The sample ends with it.  After a tracepoint, only what has the
	 * shape of a frame is one; the rest is the tracepoint's fields.
	 */
	if (c2 != NULL) {
		const char *r = c2 + 1;
		int rc;

		if (!trace) {
			while (r < lim && *r != ':' && *r != ' ')
				r++;
			r = r < lim ? r + 1 : c2 + 1;
		}
		while (r < lim && is_space(*r))
			r++;
		if (r < lim && (!trace || looks_like_frame(r, lim))) {
			rc = stack_line(p, r, (size_t)(lim - r));
			if (after_event(p) < 0)
				return -1;
			return rc;
		}
	}
	return 0;
}

/* Count the sample just read; -1 when its stack cannot be kept. */
static int
after_event(struct pv_perf *p)
{
	size_t n = 1, i;
	int rc = 0;

	/* a sample without frames is not counted, as in the reference */
	if (p->in_event && !p->skip_stack && p->nlines > 0) {
		for (i = 0; i < p->nlines; i++)
			n += p->fl[p->lines[i]].nid;
		PV_GROW(p->stack, n, p->stack_alloc);
		p->stack[0] = p->pname;
		n = 1;
		for (i = p->nlines; i-- > 0;) {
			const struct fline *e = &p->fl[p->lines[i]];

			memcpy(p->stack + n, e->id, e->nid * sizeof(*e->id));
			n += e->nid;
		}
		if (pv_stacktab_add(p->stacks, p->event, p->stack, n, 1,
				    p->period) == NULL)
			rc = message(p, -1, "%s", pv_err_msg(&p->stacks->err));
		else
			p->nsamples++;
	}
	p->in_event = 0;
	p->skip_stack = 0;
	p->nlines = 0;
	return rc;
}

int
pv_perf_line(struct pv_perf *p, const char *line, size_t len)
{
	if (len > 0 && line[0] == '#')
		return header_line(p, line, len);
	if (p->header_state == 1)
		return message(p, -1, "the perf header ends without its "
			       "closing '# ========' line");
	while (len > 0 && is_space(line[len - 1]))
		len--;
	if (len == 0)
		return after_event(p);
	if (p->in_event)
		return stack_line(p, line, len);
	return event_line(p, line, len);
}

int
pv_perf_finish(struct pv_perf *p)
{
	if (after_event(p) < 0)
		return -1;
	if (p->header_state == 1)
		return message(p, -1, "the perf header ends without its "
			       "closing '# ========' line");
	return 0;
}
